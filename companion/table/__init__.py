"""The table decides; the session carries out.

The game at the table (the lobby or the match in play, each seat's draft, the players' names, the
notices, the host's notes, what pauses play) is one value, :class:`~.state.TableState`. Every thing
that happens to it is a move (:mod:`.moves`: a press carrying where it came from, a host action, the
journal's refusal, the journal opened, a fault, a note), and :func:`~.decide.decide` answers the state
after it with the effects to carry out (:mod:`.effects`: commit this, flash that, refuse with these
words, a moment, a log line, a reply), plain data carrying their reasons. Nothing here reads a clock,
waits, writes or touches a thread or a device, so every decision is tested as a pure function
(``tests/companion/test_table.py``).

Its parts, one job each: :mod:`.press` a player's press, :mod:`.lobby` the lobby, :mod:`.drafts` a seat's
draft answer, :mod:`.life` a game dealt, played by the computer players, undone, ended, resumed,
:mod:`.host` the host's named actions, :mod:`.told` notices, notes and log lines, :mod:`.public` what
anyone may see.
"""
from .decide import decide
from .host import ACTIONS
from .lobby import Lobby, Start
from .public import public
from .state import TableState

__all__ = ["ACTIONS", "Lobby", "Start", "TableState", "decide", "public"]
