"""Whakka Mole bots. A turn is two secret picks planned together: the pop-up set and the whack.

- ``casual``: pops up one to three random holes, whacks a hole it can see tokens in most of the
  time, else a random one.
- ``strong``: treats the turn as two small zero-sum games, its own sheet against the seat that
  whacks it and the sheet it whacks against that sheet's owner, and plays each by regret matching
  as a restricted Nash response to what that seat did last turn (people repeat themselves). It
  always whacks tokens it can see, prices its own pop-ups by the sure hit they invite next turn,
  and weighs the score: a pop-up that reaches the target is worth more, a hit that hands the
  whacker the game costs more. Its picks are drawn from the mixed strategies, so they follow no
  pattern. See docs/bots.md.
- ``fixed``: the same pattern every turn (pop up holes 1 and 2, whack hole 3): a sparring partner.
"""
from __future__ import annotations

from itertools import combinations

from ..model import Decision
from . import regret
from .base import Bot, weighted

HABIT = 0.3          # how far the strong bot trusts "they will do what they did last turn"
PUNISH = 0.5         # how often a whacker is expected to hit tokens left in plain sight
STALL = 2.0          # per turn nobody scored: what getting the game going again is worth
REACH_BONUS = 12.0   # what ending the game with the target reached is worth beyond its points
ITERATIONS = 60


class WhakkaBot(Bot):
    """Plans (pop-up, whack) once per turn; both decisions of the group answer from the plan."""

    def choose(self, view: dict, decision: Decision):
        turn = (view["state"]["turn"], view["state"]["scores"], view["state"]["sheets"])
        if getattr(self, "_planned", (None,))[0] != turn:        # the turn's second pick reuses the plan
            self._planned = (turn, self.plan(view["state"], decision, self.rng(view)))
        popup, whack = self._planned[1]
        return popup if decision.key == "popup" else whack

    def plan(self, state: dict, decision: Decision, rng) -> tuple[tuple, int]:
        raise NotImplementedError

    def popup_options(self, state: dict, seat: int) -> tuple[tuple[int, ...], int]:
        """The holes ``seat`` may pop up into, and how many at most, from the public view."""
        sheet = state["sheets"][seat - 1]
        holes = tuple(h for h in range(1, state["holes"] + 1)
                      if self.game.settings["stack_tokens"] or sheet[h - 1] == 0)
        return holes, min(len(holes), state["supply"][seat - 1])


class Casual(WhakkaBot):
    level = "casual"

    def plan(self, state, decision, rng):
        holes, most = self.popup_options(state, self.seat)
        size = min(most, rng.choice((1, 1, 2, 2, 3)))
        target = state["whacks"][self.seat - 1]
        showing = [h for h, tokens in enumerate(state["sheets"][target - 1], 1) if tokens]
        whack = rng.choice(showing if showing and rng.random() < 0.7 else range(1, state["holes"] + 1))
        return tuple(sorted(rng.sample(holes, size))), whack


class Fixed(WhakkaBot):
    level = "fixed"

    def plan(self, state, decision, rng):
        holes, most = self.popup_options(state, self.seat)
        return holes[:min(2, most)], min(3, state["holes"])


class Strong(WhakkaBot):
    level = "strong"

    def plan(self, state, decision, rng):
        whacker = state["whacks"].index(self.seat) + 1
        target = state["whacks"][self.seat - 1]
        mine, _ = self._sheet_game(state, self.seat, whacker)
        popup = self._actions(state, self.seat)[weighted(rng, dict(enumerate(mine)))]
        _, theirs = self._sheet_game(state, target, self.seat)
        whack = weighted(rng, dict(enumerate(theirs))) + 1
        return popup, whack

    def _actions(self, state: dict, seat: int) -> list[tuple]:
        """Every pop-up set ``seat`` may choose, the empty one first."""
        holes, most = self.popup_options(state, seat)
        return [c for k in range(most + 1) for c in combinations(holes, k)]

    def _sheet_game(self, state: dict, owner: int, whacker: int) -> tuple[list[float], list[float]]:
        """Mixed strategies for one sheet: the owner's pop-up sets against the whacker's holes.

        A miss scores the sheet's tokens now, but leaves them in plain sight: next turn the whacker
        can hit them for sure (and is expected to, ``PUNISH`` of the time), so a pop-up is worth its tokens less that
        coming hit, unless it reaches the target and ends the game with the owner ahead. Between
        careful players that makes every pop-up a loss and nobody scores, so each turn in which
        nobody scored makes a pop-up worth more, until someone takes the gamble. On the sheet it
        whacks, the bot assumes its owner counts only this turn's tokens (as most people do), so
        its whack covers the holes such an owner would pop up into.
        """
        sets = self._actions(state, owner)
        holes = range(1, state["holes"] + 1)
        sheet = state["sheets"][owner - 1]
        goal, scores = state["target"], state["scores"]
        points = self.game.settings["whack_points"]
        weight = self._rival_weight(scores, owner, whacker)
        hit_cost = weight * points + (REACH_BONUS if scores[whacker - 1] + points >= goal else 0.0)
        others = max(s for i, s in enumerate(scores, 1) if i != owner)
        payoff = []
        for chosen in sets:
            tokens = sum(sheet) + len(chosen)
            if tokens and scores[owner - 1] + tokens >= goal and scores[owner - 1] + tokens > others:
                kept = tokens + REACH_BONUS
            elif tokens and owner == self.seat:
                kept = tokens - PUNISH * hit_cost + (1 - PUNISH) * tokens + STALL * _stalled(state)
            elif tokens:
                kept = float(tokens)
            else:
                kept = 0.0
            payoff.append([-hit_cost if sheet[h - 1] or h in chosen else kept for h in holes])
        last = state["last"]
        owner_habit = whacker_habit = None
        if last:
            again = tuple(last[owner - 1]["popup"])
            owner_habit = [1.0 if chosen == again else 0.0 for chosen in sets]
            if not any(owner_habit):
                owner_habit = None
            whacker_habit = [1.0 if h == last[whacker - 1]["whack"] else 0.0 for h in holes]
        models = (owner_habit if owner != self.seat else None, whacker_habit if owner == self.seat else None)
        return regret.solve_matrix(payoff, ITERATIONS, models, HABIT if last else 0.0)

    def _rival_weight(self, scores: list[int], owner: int, whacker: int) -> float:
        """How much the whacker's points hurt the owner: fully in a duel or when the whacker leads the
        owner's rivals, half when another rival is further ahead."""
        rivals = [s for i, s in enumerate(scores, 1) if i != owner]
        return 1.0 if scores[whacker - 1] >= max(rivals) else 0.5


def _stalled(state: dict) -> int:
    """Turns in a row, up to now, in which nobody scored."""
    history = [[0] * len(state["scores"])] + state["history"]
    turns = 0
    while turns + 1 < len(history) and history[-1 - turns] == history[-2 - turns]:
        turns += 1
    return turns


LEVELS = {"casual": Casual, "strong": Strong, "fixed": Fixed}
