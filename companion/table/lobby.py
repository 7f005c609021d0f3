"""The start of a game night: seat 1 picks the game, the seat count, the dice, the cards and the players.

Stage ``game``: hole *k* picks the *k*-th game, OK goes on. Stage ``setup``:
hole 1 one seat fewer, hole 2 one more, hole 3 virtual/physical dice and hole 4
virtual/physical cards (for a game that has them), hole 5 back, OK goes on. Stage ``players``
(every game: any seat may be played on a phone): hole 1 and 2 step through the seats, hole 3 turns
the seat from a person to a casual and a strong computer player and back (for a game that has
them), hole 4 plays a seat that has a panel on a phone instead and back, hole 5 back, OK starts.

A :class:`Lobby` never changes: a tap answers the lobby after it beside what it did.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules import bots as rule_bots, registry
from rules.match import Header
from rules.settings import resolve

from ..words import N_, say, says
from .outcomes import Changed, Refusal

NO_CHANCE = {"hole3": (N_("no dice in this game"), N_("no dice")),
             "hole4": (N_("no cards in this game"), N_("no cards"))}    # refused: the game has none


@dataclass(frozen=True)
class Start:
    """A game to deal: chosen in the lobby, or fixed by the command line (which may set variants too)."""

    game: str
    seats: int
    dice: str = "virtual"
    cards: str = "virtual"
    bots: dict = field(default_factory=dict)      # seat -> computer player level
    settings: dict = field(default_factory=dict)  # variant settings (rules/settings.py)

    @classmethod
    def of(cls, header: Header) -> "Start":
        """The start that asks for the game of ``header``: its variants where they are not the defaults."""
        defaults = resolve(header.game)
        return cls(header.game, header.seats, header.dice, header.cards, dict(header.bots),
                   {name: value for name, value in header.settings.items() if defaults.get(name) != value})

    def asks_for(self, header: Header | None) -> bool:
        """Whether a game of ``header`` is the one this start asks for (then it goes on, as after a cut)."""
        return header is not None and (header.game, header.seats, header.dice, header.cards, header.bots) == \
            (self.game, self.seats, self.dice, self.cards, self.bots) and \
            header.settings == resolve(self.game, self.settings)

    def arguments(self) -> str:
        """The start as the host types it after ``molebox run``: --game, --seats, and what is not the default."""
        words = [f"--game {self.game}", f"--seats {self.seats}"]
        words += [f"--bots {','.join(f'{seat}={level}' for seat, level in sorted(self.bots.items()))}"] * bool(self.bots)
        words += [f"--{chance} physical" for chance in ("dice", "cards") if getattr(self, chance) == "physical"]
        words += [f"--set {name}={str(value).lower() if isinstance(value, bool) else value}"
                  for name, value in sorted(self.settings.items())]
        return " ".join(words)


def playable(seats: int) -> tuple[str, ...]:
    """The games a box of ``seats`` seats can play, in the registry's order."""
    return tuple(g for g in registry.ids() if registry.game_class(g).min_seats <= seats)


@dataclass(frozen=True)
class Lobby:
    seats_in_all: int                     # the box's seats, panels and phones
    panels: int                           # seats 1 to this have a panel
    phones: frozenset[int]                # the seats played on phones
    games: tuple[str, ...]
    index: int = 0
    stage: str = "game"
    seats: int = 0
    dice: str = "virtual"
    cards: str = "virtual"
    bots: dict = field(default_factory=dict)      # seat -> level; replaced, never changed
    cursor: int = 1                       # the seat the players stage is on

    @classmethod
    def open(cls, seats_in_all: int, panels: int, phones: frozenset[int], game: str | None = None,
             seats: int | None = None, bots: dict[int, str] | None = None) -> "Lobby":
        """The lobby of a box with ``seats_in_all`` seats, the first ``panels`` of them with a panel, ``phones``
        played on phones; on ``game`` (the last one played) with its ``seats`` and ``bots``, if given."""
        games = playable(seats_in_all)
        lobby = cls(seats_in_all, panels, frozenset(phones), games, games.index(game) if game in games else 0,
                    seats=seats or 0, bots=dict(bots or {}))
        return lobby._clamped()

    @property
    def game(self) -> str:
        return self.games[self.index]

    def _bounds(self) -> tuple[int, int]:
        cls = registry.game_class(self.game)
        return cls.min_seats, min(cls.max_seats, self.seats_in_all)

    def _clamped(self, **changes) -> "Lobby":
        lobby = replace(self, **changes)
        low, high = lobby._bounds()
        seats = min(max(lobby.seats or low, low), high)
        levels = lobby.levels()
        return replace(lobby, seats=seats, cursor=min(lobby.cursor, seats),
                       bots={s: level for s, level in lobby.bots.items() if s <= seats and level in levels})

    def levels(self) -> tuple[str, ...]:
        """The computer player levels the table may choose for this game (none for some games)."""
        return tuple(level for level in rule_bots.levels(self.game) if level in rule_bots.TABLE_LEVELS)

    def chance(self) -> tuple[str, ...]:
        """What the chosen game draws by chance, which the table may do by hand instead."""
        return registry.game_class(self.game).chance

    def tap(self, seat: int, control: str) -> tuple["Lobby", "Changed | Refusal | Start"]:
        """A tap of ``control`` at ``seat``: the lobby after it, and what it did."""
        if seat != 1:
            return self, Refusal(say("seat 1 chooses the game"))
        if self.stage == "game":
            return self._game(control)
        if self.stage == "players":
            return self._players(control)
        return self._setup(control)

    def _game(self, control: str):
        if control == "ok":
            return self._clamped(stage="setup"), Changed()
        hole = int(control[4:])
        if hole > len(self.games):
            return self, Refusal(say("hole {hole} has no game", hole=hole))
        return replace(self, index=hole - 1), Changed()

    def _setup(self, control: str):
        if control == "ok":
            return self._clamped(stage="players"), Changed()
        low, high = self._bounds()
        if control == "hole1" and self.seats > low:
            return replace(self, seats=self.seats - 1), Changed()
        if control == "hole2" and self.seats < high:
            return replace(self, seats=self.seats + 1), Changed()
        if control == "hole3" and "dice" in self.chance():
            return replace(self, dice=_other(self.dice)), Changed()
        if control == "hole4" and "cards" in self.chance():
            return replace(self, cards=_other(self.cards)), Changed()
        if control == "hole5":
            return replace(self, stage="game"), Changed()
        if control in NO_CHANCE:
            return self, Refusal(tuple(map(say, NO_CHANCE[control])))
        return self, Refusal(says("{low} to {n} seat", "{low} to {n} seats", high, low=low))

    def _players(self, control: str):
        if control == "ok":
            if len(self.bots) >= self.seats:
                return self, Refusal(say("one seat must be a person"))
            return self, Start(self.game, self.seats, self.dice, self.cards, dict(self.bots))
        if control in ("hole1", "hole2"):
            return replace(self, cursor=(self.cursor - 1 + (1 if control == "hole2" else -1)) % self.seats + 1), Changed()
        if control == "hole3":
            if not self.levels():
                return self, Refusal((say("no computer players here"), say("no computers"), say("no bots")))
            cycle = (None, *self.levels())
            level = cycle[(cycle.index(self.bots.get(self.cursor)) + 1) % len(cycle)]
            bots = {s: lv for s, lv in self.bots.items() if s != self.cursor}
            return replace(self, bots=bots if level is None else {**bots, self.cursor: level}), Changed()
        if control == "hole4":
            if self.cursor > self.panels:
                return self, Refusal(say("seat {seat} has no panel", seat=self.cursor))
            return replace(self, phones=self.phones ^ {self.cursor}), Changed()
        if control == "hole5":
            return replace(self, stage="setup"), Changed()
        return self, Refusal(say("3 changes the seat"))

    def view(self) -> dict:
        return {"stage": self.stage, "ids": list(self.games), "games": [registry.game_class(g).title for g in self.games],
                "short": [registry.game_class(g).short_title or registry.game_class(g).title for g in self.games],
                "index": self.index, "game": self.game, "seats": self.seats, "dice": self.dice, "cards": self.cards,
                "chance": list(self.chance()),
                "bounds": list(self._bounds()), "cursor": self.cursor,
                "bots": {str(s): level for s, level in sorted(self.bots.items())}, "bot_levels": list(self.levels()),
                "phone": self.cursor in self.phones}


def _other(how: str) -> str:
    return "physical" if how == "virtual" else "virtual"
