"""Mouse Madness bots: which way to go, and what to do on landing (push forward, back, jump, stay).

- ``casual``: forward most of the time, jumps forward when it can, pushes the other mouse back.
- ``strong``: expectimax over the die. Each option is played out on a copy of the state rebuilt from
  the view (the rules' own ``apply``), through its own follow-up choices; then every roll of the next
  mouse is weighed at 1/6 with that mouse taking what is best for itself, and the position is scored
  for this seat: its space, less the leader's among the others, a win or a loss beyond any space.
"""
from __future__ import annotations

from ..model import Decision, Move
from ..mouse_madness import DIE, MouseMadness, MouseState
from .base import Bot

WIN = 1000.0
LEADER = 0.8         # how much the best rival's space counts against this seat's own


def rebuild(game: MouseMadness, view: dict) -> MouseState:
    """The state as the view shows it, from the mover's choice on (every part of it is public)."""
    return MouseState(game, list(view["positions"]), (), [], view["turn"], view["last_roll"], view["phase"],
                      frozenset(view["jumped"]), view["winner"], view["turns"], [list(s) for s in view["trail"]])


def _after(state: MouseState, decision: Decision, value) -> MouseState:
    state = state.clone()
    state.apply(Move(decision.seat, decision.key, value))
    return state


def score(state: MouseState, seat: int) -> float:
    if state.winner is not None:
        return WIN if state.winner == seat else -WIN
    rival = max(p for s, p in enumerate(state.pos, 1) if s != seat)
    return state.pos[seat - 1] - LEADER * rival


def best_for(state: MouseState, seat: int) -> MouseState:
    """The state once the mover has made every choice of its turn the way ``seat`` scores best."""
    while state.winner is None and state.phase in ("direction", "land"):
        (d,) = state.pending()
        state = max((_after(state, d, v) for v in d.options), key=lambda s: score(s, seat))
    return state


def expected(state: MouseState, seat: int) -> float:
    """This seat's score averaged over the next mouse's roll, that mouse playing for itself."""
    state = best_for(state, seat)
    if state.winner is not None or state.phase != "roll":
        return score(state, seat)
    (roll,) = state.pending()
    return sum(score(best_for(_after(state, roll, face), roll.enter_by), seat) for face in DIE) / len(DIE)


class MouseBot(Bot):
    def choose(self, view: dict, decision: Decision):
        return self.pick(rebuild(self.game, view["state"]), decision, self.rng(view, decision.key))


#: what a player who never looks back prefers, by decision, first choice first
FORWARD = {"direction": ("forward",), "jump": ("jump-forward", "stay"), "push": ("jump-forward", "back")}


class Casual(MouseBot):
    level = "casual"

    def pick(self, state, decision, rng):
        if rng.random() < 0.15:
            return rng.choice(decision.options)
        return next((v for v in FORWARD[decision.key] if v in decision.options), rng.choice(decision.options))


class Strong(MouseBot):
    level = "strong"

    def pick(self, state, decision, rng):
        scored = [(expected(_after(state, decision, v), self.seat), rng.random(), v) for v in decision.options]
        return max(scored)[2]


LEVELS = {"casual": Casual, "strong": Strong}
