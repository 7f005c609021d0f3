"""Whakka Mole (Jonathan Leistiko): secret pop-ups and one whack per player, first to 50.

One turn is one secret simultaneous group: every seat commits ``popup`` (a set
of holes, possibly empty) and ``whack`` (one hole). At the reveal, tokens go
into every chosen hole, each seat's whack hits the sheet of the seat to its
left, and everyone scores the tokens left on their sheet.
See docs/rules/whakka-mole.md for the decisions the text leaves open.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from . import registry
from .model import Decision, Event, Game, Kind, Move, Result, State

GROUP = "prepare"


class WhakkaMole(Game):
    id = "whakka-mole"
    title = "Whakka Mole"
    short_title = "Whakka"
    min_seats = 2
    max_seats = 8

    def initial_state(self) -> "WhakkaState":
        holes = self.settings["holes"]
        return WhakkaState(
            game=self,
            sheets=[[0] * holes for _ in range(self.seats)],
            scores=[0] * self.seats,
        )

    def target_of(self, seat: int) -> int:
        """The seat whose sheet ``seat`` whacks."""
        step = 1 if self.settings["whack_direction"] == "left" else -1
        return (seat - 1 + step) % self.seats + 1


@dataclass
class WhakkaState(State):
    game: WhakkaMole
    sheets: list[list[int]]
    scores: list[int]
    turn: int = 1
    picks: dict[int, dict] = field(default_factory=dict)
    last: list[dict] = field(default_factory=list)
    history: list[list[int]] = field(default_factory=list)

    @property
    def holes(self) -> tuple[int, ...]:
        return tuple(range(1, self.game.settings["holes"] + 1))

    def supply(self, seat: int) -> int:
        """Tokens of ``seat`` not on its sheet."""
        return self.game.settings["tokens"] - sum(self.sheets[seat - 1])

    def pending(self) -> list[Decision]:
        if self.result() is not None:
            return []
        out = []
        for seat in range(1, self.game.seats + 1):
            open_holes = self.holes
            if not self.game.settings["stack_tokens"]:
                open_holes = tuple(h for h in self.holes if self.sheets[seat - 1][h - 1] == 0)
            if "popup" not in self.picks.get(seat, {}):
                out.append(Decision(seat, "popup", Kind.HOLES, open_holes, min=0,
                                    max=min(len(open_holes), self.supply(seat)),
                                    group=GROUP, prompt="Pop up"))
            if "whack" not in self.picks.get(seat, {}):
                out.append(Decision(seat, "whack", Kind.CHOICE, self.holes, group=GROUP,
                                    prompt=f"Whack seat {self.game.target_of(seat)}"))
        return out

    def apply(self, move: Move) -> list[Event]:
        self.picks.setdefault(move.seat, {})[move.key] = move.value
        if len(self.picks) == self.game.seats and all(len(p) == 2 for p in self.picks.values()):
            return self._resolve()
        return []

    def _resolve(self) -> list[Event]:
        """Pop up, whack, score: the three public phases after the reveal."""
        seats = range(1, self.game.seats + 1)
        picks, self.picks = self.picks, {}
        events = []
        for seat in seats:
            for hole in picks[seat]["popup"]:
                self.sheets[seat - 1][hole - 1] += 1
            events.append(Event("popup", seat, {"holes": list(picks[seat]["popup"])}))
        hits, lost = {}, {}
        for seat in seats:
            target, hole = self.game.target_of(seat), picks[seat]["whack"]
            tokens = self.sheets[target - 1][hole - 1]
            hits[seat] = tokens > 0
            if tokens:
                lost[target] = sum(self.sheets[target - 1])
            events.append(Event("whack", seat, {"target": target, "hole": hole, "hit": tokens > 0,
                                                "tokens": sum(self.sheets[target - 1]) if tokens else 0}))
        for seat in seats:
            if hits[seat]:
                self.sheets[self.game.target_of(seat) - 1] = [0] * len(self.holes)
        self.last = []
        for seat in seats:
            bonus = self.game.settings["whack_points"] if hits[seat] else 0
            tokens = sum(self.sheets[seat - 1])
            self.scores[seat - 1] += bonus + tokens
            whacked_by = next((s for s in seats if hits[s] and self.game.target_of(s) == seat), None)
            self.last.append({"popup": list(picks[seat]["popup"]), "whack": picks[seat]["whack"],
                              "hit": hits[seat], "whacked_by": whacked_by, "lost": lost.get(seat, 0),
                              "points": bonus + tokens})
            events.append(Event("score", seat, {"points": bonus + tokens, "whack": bonus,
                                                "tokens": tokens, "total": self.scores[seat - 1]}))
        self.history.append(list(self.scores))
        self.turn += 1
        result = self.result()
        if result is not None:
            events.append(Event("game_over", None, {"winners": list(result.winners),
                                                   "scores": list(result.scores)}))
        return events

    def view(self, seat: int | None) -> dict:
        """All of a Whakka Mole state is public: the secret picks live in the match until the reveal."""
        return {
            "turn": self.turn,
            "holes": len(self.holes),
            "target": self.game.settings["target"],
            "scores": list(self.scores),
            "sheets": [list(s) for s in self.sheets],
            "supply": [self.supply(s) for s in range(1, self.game.seats + 1)],
            "whacks": [self.game.target_of(s) for s in range(1, self.game.seats + 1)],
            "last": [{**d, "popup": list(d["popup"])} for d in self.last],
            "history": [list(h) for h in self.history],
        }

    def result(self) -> Result | None:
        if max(self.scores) < self.game.settings["target"] or self.picks:
            return None
        best = max(self.scores)
        return Result(tuple(self.scores), tuple(i + 1 for i, s in enumerate(self.scores) if s == best))

    def clone(self) -> "WhakkaState":
        return WhakkaState(self.game, [list(s) for s in self.sheets], list(self.scores), self.turn,
                           copy.deepcopy(self.picks), copy.deepcopy(self.last),
                           [list(h) for h in self.history])


GAME = registry.register(WhakkaMole, doc="docs/rules/whakka-mole.md", bots="rules.bots.whakka_mole")
