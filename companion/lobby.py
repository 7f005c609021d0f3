"""The start of a game night: seat 1 picks the game, the seat count, the dice and the cards.

Stage ``game``: hole *k* picks the *k*-th game, OK goes on. Stage ``setup``:
hole 1 one seat fewer, hole 2 one more, hole 3 virtual/physical dice, hole 4
virtual/physical cards, hole 5 back, OK starts.
"""
from __future__ import annotations

from dataclasses import dataclass

from rules import registry

from .entry import Changed, Refuse


@dataclass(frozen=True)
class Start:
    game: str
    seats: int
    dice: str
    cards: str = "virtual"


class Lobby:
    def __init__(self, panels: int, game: str | None = None, seats: int | None = None):
        self.panels = panels
        self.games = [g for g in registry.GAMES if registry.game_class(g).min_seats <= panels]
        self.index = self.games.index(game) if game in self.games else 0
        self.stage = "game"
        self.seats = seats or 0
        self.dice = "virtual"
        self.cards = "virtual"
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
        if control == "ok":
            return Start(self.game, self.seats, self.dice, self.cards)
        low, high = self._bounds()
        if control == "hole1" and self.seats > low:
            self.seats -= 1
        elif control == "hole2" and self.seats < high:
            self.seats += 1
        elif control == "hole3":
            self.dice = "physical" if self.dice == "virtual" else "virtual"
        elif control == "hole4":
            self.cards = "physical" if self.cards == "virtual" else "virtual"
        elif control == "hole5":
            self.stage = "game"
        else:
            return Refuse(f"{low} to {high} seats")
        return Changed()

    def view(self) -> dict:
        return {"stage": self.stage, "games": [registry.game_class(g).title for g in self.games],
                "index": self.index, "game": self.game, "seats": self.seats, "dice": self.dice, "cards": self.cards,
                "bounds": list(self._bounds())}
