"""The start of a game night: seat 1 picks the game, the seat count, the dice, the cards and the players.

Stage ``game``: hole *k* picks the *k*-th game, OK goes on. Stage ``setup``:
hole 1 one seat fewer, hole 2 one more, hole 3 virtual/physical dice and hole 4
virtual/physical cards (for a game that has them), hole 5 back, OK goes on. Stage ``players``
(every game: any seat may be played on a phone): hole 1 and 2 step through the seats, hole 3 turns
the seat from a person to a casual and a strong computer player and back (for a game that has
them), hole 4 plays a seat that has a panel on a phone instead and back, hole 5 back, OK starts.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules import bots as rule_bots, registry

from .entry import Changed, Refuse
from .phones import PhoneSeats


@dataclass(frozen=True)
class Start:
    """A game to deal: chosen in the lobby, or fixed by the command line (which may set variants too)."""

    game: str
    seats: int
    dice: str = "virtual"
    cards: str = "virtual"
    bots: dict = field(default_factory=dict)      # seat -> computer player level
    settings: dict = field(default_factory=dict)  # variant settings (rules/settings.py)


class Lobby:
    def __init__(self, panels: int, game: str | None = None, seats: int | None = None,
                 bots: dict[int, str] | None = None, phones: PhoneSeats | None = None):
        """``panels``: the box's seats; ``phones``: which of them are played on phones (the box's own, changed
        here; by default every seat has a panel)."""
        self.panels = panels
        self.phones = PhoneSeats(panels, panels) if phones is None else phones
        self.games = [g for g in registry.ids() if registry.game_class(g).min_seats <= panels]
        self.index = self.games.index(game) if game in self.games else 0
        self.stage = "game"
        self.seats = seats or 0
        self.dice = "virtual"
        self.cards = "virtual"
        self.bots = dict(bots or {})
        self.cursor = 1                       # the seat the players stage is on
        self._clamp()

    @property
    def game(self) -> str:
        return self.games[self.index]

    def _bounds(self) -> tuple[int, int]:
        cls = registry.game_class(self.game)
        return cls.min_seats, min(cls.max_seats, self.panels)

    def _clamp(self) -> None:
        low, high = self._bounds()
        self.seats = min(max(self.seats or low, low), high)
        levels = self.levels()
        self.bots = {s: level for s, level in self.bots.items() if s <= self.seats and level in levels}
        self.cursor = min(self.cursor, self.seats)

    def levels(self) -> tuple[str, ...]:
        """The computer player levels the table may choose for this game (none for some games)."""
        return tuple(level for level in rule_bots.levels(self.game) if level in rule_bots.TABLE_LEVELS)

    def tap(self, seat: int, control: str):
        if seat != 1:
            return Refuse("seat 1 chooses the game")
        if self.stage == "game":
            if control == "ok":
                self.stage = "setup"
                self._clamp()
                return Changed()
            hole = int(control[4:])
            if hole > len(self.games):
                return Refuse(f"hole {hole} has no game")
            self.index = hole - 1
            return Changed()
        if self.stage == "players":
            return self._players(control)
        if control == "ok":
            self.stage = "players"
            self._clamp()
            return Changed()
        low, high = self._bounds()
        if control == "hole1" and self.seats > low:
            self.seats -= 1
        elif control == "hole2" and self.seats < high:
            self.seats += 1
        elif control == "hole3" and "dice" in self.chance():
            self.dice = "physical" if self.dice == "virtual" else "virtual"
        elif control == "hole4" and "cards" in self.chance():
            self.cards = "physical" if self.cards == "virtual" else "virtual"
        elif control == "hole5":
            self.stage = "game"
        elif control in ("hole3", "hole4"):
            return Refuse(f"no {'dice' if control == 'hole3' else 'cards'} in this game")
        else:
            return Refuse(f"{low} to {high} seats")
        return Changed()

    def chance(self) -> tuple[str, ...]:
        """What the chosen game draws by chance, which the table may do by hand instead."""
        return registry.game_class(self.game).chance

    def _players(self, control: str):
        if control == "ok":
            if len(self.bots) >= self.seats:
                return Refuse("one seat must be a person")
            return Start(self.game, self.seats, self.dice, self.cards, dict(self.bots))
        if control in ("hole1", "hole2"):
            self.cursor = (self.cursor - 1 + (1 if control == "hole2" else -1)) % self.seats + 1
        elif control == "hole3" and not self.levels():
            return Refuse("no computer players in this game")
        elif control == "hole3":
            cycle = (None, *self.levels())
            level = cycle[(cycle.index(self.bots.get(self.cursor)) + 1) % len(cycle)]
            if level is None:
                del self.bots[self.cursor]
            else:
                self.bots[self.cursor] = level
        elif control == "hole4":
            if not self.phones.has_panel(self.cursor):
                return Refuse(f"seat {self.cursor} has no panel")
            self.phones.toggle(self.cursor)
        elif control == "hole5":
            self.stage = "setup"
        else:
            return Refuse("3 changes the seat")
        return Changed()

    def view(self) -> dict:
        return {"stage": self.stage, "games": [registry.game_class(g).title for g in self.games],
                "short": [registry.game_class(g).short_title or registry.game_class(g).title for g in self.games],
                "index": self.index, "game": self.game, "seats": self.seats, "dice": self.dice, "cards": self.cards,
                "chance": list(self.chance()),
                "bounds": list(self._bounds()), "cursor": self.cursor,
                "bots": {str(s): level for s, level in sorted(self.bots.items())}, "bot_levels": list(self.levels()),
                "phone": self.cursor in self.phones}
