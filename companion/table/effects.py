"""What the table decides, as plain data: the effects the session carries out, each once, in order.

The journal's come first (:data:`JOURNAL`): the session hands them to the keeper before anything
else, so nothing shows that the journal has refused; a write the journal refuses undoes the whole
move (the session keeps the state it had). The box's come after: a press answered on its seat's
lamps, a moment for the buzzer, a line for the log, the seats played on phones, a host action's
reply, a redraw when a notice ends. An effect says what and why, never how: the lamps, the screens
and the log are the session's to drive.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.match import Match

from ..inputs import Gesture
from .drafts import Draft

# ---- the journal's ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Commit:
    """The match's new records to the journal, one commit point. ``gesture``: the press whose answer waits for it
    (its lamps flip once it is on disk); ``draft``, that seat's draft before OK, comes back if the card refuses."""

    gesture: Gesture | None = None
    draft: Draft | None = None


@dataclass(frozen=True)
class Begin:
    """A new game to the journal (header, first chance outcomes, names), before anyone sees it."""

    match: Match
    names: dict


@dataclass(frozen=True)
class Undo:
    """The match back to its first ``upto`` seat decisions (``match``, replayed so), the undo journaled first."""

    match: Match
    upto: int


@dataclass(frozen=True)
class Abandon:
    """The game in play given up (kept in the journal, out of the history); ``ended``: the host may take it up."""

    match: Match
    ended: bool = True


@dataclass(frozen=True)
class Reopen:
    """The game the host ended goes on: unfinished again in the journal."""

    match: Match


@dataclass(frozen=True)
class Wait:
    """The game in play is not the one this start asks for: kept unfinished, waiting for another start (``until``:
    ``plain``, one without --game; ``game``, one with its own --game)."""

    until: str


@dataclass(frozen=True)
class Wake:
    """A game that waited for this start is the one in play again (``match``, as the journal replayed it)."""

    game_id: int
    match: Match


@dataclass(frozen=True)
class Name:
    """A player's name for this game and the next (None: no name)."""

    seat: int
    name: str | None


JOURNAL = (Commit, Begin, Undo, Abandon, Reopen, Wait, Wake, Name)

# ---- the box's -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Flash:
    """The press is taken: its seat's lamps flip (whichever hole it was, so the table sees a press, not a pick)."""

    gesture: Gesture


@dataclass(frozen=True)
class Refuse:
    """The press is refused: its seat's lamps blink fast; ``reason`` is on the seat's own screen (a notice)."""

    gesture: Gesture
    reason: str | tuple[str, ...]


@dataclass(frozen=True)
class ShowHostPin:
    """Seat 1 asked to see the host PIN on its own screen (a box with no table display, in the lobby)."""

    gesture: Gesture


@dataclass(frozen=True)
class Moment:
    """A moment the whole table shares: ``reveal``, ``over`` (the buzzer, and a reveal's picks shown a while before
    what they did), ``roll`` (virtual dice tumble on the table display of ``game``, once a reveal's picks have shown if
    ``after_picks``)."""

    kind: str
    game: str = ""
    after_picks: bool = False


@dataclass(frozen=True)
class Log:
    """A line for the log, with its arguments: never a secret pick's words."""

    level: str
    message: str
    args: tuple = ()


@dataclass(frozen=True)
class Seating:
    """Which seats are played on phones changed (the web panel gives a new phone seat its join code)."""

    phones: frozenset[int]
    gone: frozenset[int] = field(default_factory=frozenset)     # back on their panels: their phones are cut off


@dataclass(frozen=True)
class Reply:
    """A host action's answer: a refusal in words, or None when done."""

    refusal: str | None


@dataclass(frozen=True)
class Redraw:
    """A notice ends at ``at``: the screens are drawn again then."""

    at: float


Effect = Commit | Begin | Undo | Abandon | Reopen | Wait | Wake | Name | Flash | Refuse | ShowHostPin | Moment | Log \
    | Seating | Reply | Redraw
