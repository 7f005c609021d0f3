"""Everything the table remembers, as one value: :class:`TableState`.

The box the table sits in (its seats, which have a panel, whether it has a table display) is
fixed when it starts; the rest is what the table has decided: the lobby or the match in play, each
seat's draft, the players' names, the notices on the seats' screens and the table display, the host's
notes, the faults that pause play. :func:`companion.table.decide` answers a new state and leaves the
one it was given as it was, but for the match: a :class:`~rules.match.Match` is a state machine of its
own, answered in place, whose records the journal holds (what the journal did not take is given back
by replaying them, :meth:`companion.journal.keeper.Keeper.as_saved`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.match import Match

from ..players import Computers
from ..words import say
from .drafts import Draft
from .lobby import Lobby, Start

NOTICE_S = 5.0          # a seat's notice, and the table display's, stays this long
GOAL_S = 5.0            # a new game's goal shows this long on each seat's screen, until the seat's first press


@dataclass(frozen=True)
class Notice:
    """Words on a seat's screen (``headline`` empty) or the table display's, shown until ``until`` (None: until
    taken back or replaced)."""

    words: str | tuple[str, ...]         # one wording, or several longest first (a screen takes what fits)
    until: float | None = None
    headline: str = ""

    def live(self, now: float) -> bool:
        return self.until is None or now < self.until


@dataclass(frozen=True)
class Note:
    """What the host must read: ``text`` in full (the log, the dashboard); ``screen``, the few words a 128-pixel
    screen has room for, makes seat 1 read it in the lobby; ``at`` on the wall clock."""

    id: int
    text: str
    screen: str | None
    at: float


@dataclass
class TableState:
    # the box, fixed when it starts
    seats_in_all: int                     # panels and phones
    panels: int                           # seats 1 to this have a panel
    fixed: Start | None = None            # the game the command line asked for, dealt again and again
    table_display: bool = True            # else seat 1's screen offers the free phone seats
    host_pin_on_request: bool = False     # seat 1 holding OK in the lobby shows the host PIN and its QR code
    # what the table decided
    seed: int = 0
    phones: frozenset[int] = frozenset()  # the seats played on phones
    lobby: Lobby | None = None
    match: Match | None = None
    computers: Computers | None = None
    drafts: dict[int, Draft] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)      # players' names, kept for the next game
    heard: dict[int, int] = field(default_factory=dict)   # each seat's news starts here in the match's events:
                                                          # where they stood at its last press (0 if none)
    notices: dict[int, Notice] = field(default_factory=dict)
    table_notice: Notice | None = None    # what changed the game from elsewhere, on the table display a while
    notes: tuple[Note, ...] = ()          # for the host
    noted: int = 0                        # how many notes there have been: the next one's number follows
    ended: int | None = None              # the game the host just ended, which may be taken up again
    undo_confirm_until: float = float("-inf")   # seat 1's second hold before this undoes a reveal
    rolled_at: float = float("-inf")      # when the box last rolled virtual dice (the table display tumbles them)
    revealed_at: float = float("-inf")    # when the last reveal came (its picks are shown a moment)
    started_at: float = float("-inf")     # when the match in play was dealt (its goal is shown a moment)
    storage_fault: str | None = None      # the journal's fault in a few words; while it or the hardware's is set,
    storage_text: str | None = None       # play is paused; the journal's in full for the host
    hardware_fault: str | None = None
    teaching: bool = False                # the match in play is taught (docs/teaching.md)
    veterans: frozenset[tuple[str, str]] = frozenset()   # (game, name) of every player who has finished it

    @classmethod
    def new(cls, seats_in_all: int, panels: int, *, fixed: Start | None = None, seed: int = 0,
            table_display: bool = True, host_pin_on_request: bool = False) -> "TableState":
        """A box's table before the journal is read: every seat after the panels played on a phone."""
        phones = frozenset(range(panels + 1, seats_in_all + 1))
        return cls(seats_in_all, panels, fixed, table_display, host_pin_on_request, seed=seed, phones=phones,
                   lobby=Lobby.open(seats_in_all, panels, phones),
                   drafts={seat: Draft() for seat in range(1, seats_in_all + 1)})

    @property
    def paused(self) -> str | None:
        """Why play is paused, in a few words (the journal's fault first, then the hardware's), or None."""
        return self.storage_fault or self.hardware_fault

    @property
    def playing(self) -> int:
        """How many seats the match in play has (0 in the lobby)."""
        return 0 if self.match is None or self.lobby is not None else self.match.header.seats

    def who(self, seat: int) -> str:
        """A seat as the screens name it to the table: its player's name, else Seat and its number."""
        return self.names.get(seat) or say("Seat {seat}", seat=seat)

    def newcomers(self, match: Match) -> bool:
        """Whether a person at ``match`` has not finished its game before: a named seat the journal has never seen
        finish it, or a seat with no name (the box cannot tell)."""
        game, people = match.header.game, range(1, match.header.seats + 1)
        return any((game, self.names.get(seat, "")) not in self.veterans
                   for seat in people if seat not in match.header.bots)

    def unread(self) -> tuple[Note, ...]:
        """The notes seat 1 reads (and OKs) in the lobby before the menu."""
        return tuple(note for note in self.notes if note.screen)

    def lobby_for(self, game: str | None = None, seats: int | None = None, bots: dict | None = None) -> Lobby:
        return Lobby.open(self.seats_in_all, self.panels, self.phones, game, seats, bots)
