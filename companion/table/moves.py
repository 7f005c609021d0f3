"""What the table is told: every move :func:`companion.table.decide` answers, each carrying all it needs.

A press carries where it came from (:class:`~companion.inputs.Gesture`: its seat, a panel or a phone,
the host's device or not) and its time on the box's clock; nothing is read from elsewhere. Time on
the wall clock comes only with the moves that leave the host a note.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.match import Match

from ..inputs import Gesture
from .drafts import Draft


@dataclass(frozen=True)
class Press:
    """A player's tap or hold."""

    gesture: Gesture


@dataclass(frozen=True)
class Act:
    """One of the host's actions from the dashboard, by name (:data:`companion.table.host.ACTIONS`), at ``at``."""

    action: str
    args: dict = field(default_factory=dict)
    at: float = 0.0


@dataclass(frozen=True)
class NotTaken:
    """A press the box could not take (the journal refused it, or a bug): refused with ``reason``; ``draft``, the
    seat's draft as it was before the OK that the journal refused, comes back."""

    gesture: Gesture
    reason: str
    draft: Draft | None = None


@dataclass(frozen=True)
class Faults:
    """What pauses play changed: the journal's fault (in a few words and in full) and the hardware's; None, none."""

    storage: str | None
    storage_text: str | None
    hardware: str | None
    at: float = 0.0


@dataclass(frozen=True)
class Resumed:
    """Play goes on after a fault: what the fault's notices said is over, and the computer players answer."""

    at: float = 0.0


@dataclass(frozen=True)
class Unfinished:
    """A game the journal kept unfinished, replayed: its id, the match and its names."""

    game_id: int
    match: Match
    names: dict


@dataclass(frozen=True)
class SetAside:
    """The journal's unfinished game could not be replayed and was set aside: why, in full and in a few words."""

    game_id: int
    why: str
    words: str
    path: str


@dataclass(frozen=True)
class Opened:
    """The journal opened (at start, or at last): the notes of what it repaired (text, words), the game in play
    (None: none), the game waiting for this start (set aside by an earlier one: for a start without --game, the
    newest waiting for one; for a start with --game, the newest of that game waiting for it), the games it
    found it could not replay (set aside for good), and who has finished which game (a game is taught to
    newcomers)."""

    notes: tuple[tuple[str, str | None], ...]
    game: Unfinished | None
    waiting: Unfinished | None = None
    aside: tuple[SetAside, ...] = ()
    at: float = 0.0
    wall: float = 0.0
    veterans: frozenset[tuple[str, str]] = frozenset()     # (game, name) of each player who has finished it


@dataclass(frozen=True)
class Noted:
    """A note for the host from elsewhere (the hardware, the render process, a display's fault, a bug)."""

    text: str
    screen: str | None = None
    at: float = 0.0
    wall: float = 0.0


@dataclass(frozen=True)
class Freed:
    """The host freed a phone seat (a lost phone): it joins again by a new code."""

    seat: int
    at: float = 0.0


@dataclass(frozen=True)
class Forgotten:
    """The journal stopped taking writes: the match as it holds it (what it did not take forgotten)."""

    match: Match
    at: float = 0.0


Move = Press | Act | NotTaken | Faults | Resumed | Opened | Noted | Freed | Forgotten
