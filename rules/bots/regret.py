"""Regret matching: mixed strategies for a turn's simultaneous picks.

Every player starts uniform; each round every player adds, to each of its
actions, how much better that action would have done against the others'
current mix (regret matching+, regrets floored at zero), and plays in
proportion to its positive regrets. The average strategy (later rounds
weighted more) approaches an equilibrium of the turn. A player may be
*restricted*: with weight ``p`` it plays a fixed model of what that player is
likely to do, and is free to answer only with the rest. Playing against that
is a restricted Nash response: it exploits the model where the model is right,
and stays hard to exploit where it is wrong.
"""
from __future__ import annotations

from typing import Callable, Sequence

Strategy = list[float]


def _normalise(weights: Sequence[float]) -> Strategy:
    total = sum(weights)
    return [w / total for w in weights] if total > 0 else [1.0 / len(weights)] * len(weights)


def _mix(free: Strategy, model: Strategy | None, p: float) -> Strategy:
    return free if model is None or p == 0 else [(1 - p) * f + p * m for f, m in zip(free, model)]


def solve(sizes: Sequence[int], utilities: Callable[[int, list[Strategy]], Sequence[float]],
          iterations: int = 100, models: Sequence[Strategy | None] | None = None,
          p: float = 0.0) -> list[Strategy]:
    """Average mixed strategies of every player (what each restricted player effectively plays).

    ``utilities(i, mixes)`` gives player ``i``'s expected utility for each of its actions
    when the others play ``mixes``.
    """
    models = list(models) if models is not None else [None] * len(sizes)
    regrets = [[0.0] * n for n in sizes]
    sums = [[0.0] * n for n in sizes]
    for t in range(1, iterations + 1):
        mixes = [_mix(_normalise(r), m, p) for r, m in zip(regrets, models)]
        for i, mix in enumerate(mixes):
            values = utilities(i, mixes)
            expected = sum(v * s for v, s in zip(values, mix))
            regrets[i] = [max(0.0, r + v - expected) for r, v in zip(regrets[i], values)]
            sums[i] = [s + t * x for s, x in zip(sums[i], mix)]
    return [_normalise(s) for s in sums]


def solve_matrix(payoff: Sequence[Sequence[float]], iterations: int = 100,
                 models: tuple[Strategy | None, Strategy | None] = (None, None),
                 p: float = 0.0) -> tuple[Strategy, Strategy]:
    """A zero-sum turn: ``payoff[i][j]`` is what the row player gains (the column player loses)."""
    columns = list(zip(*payoff))

    def utilities(player: int, mixes: list[Strategy]) -> list[float]:
        if player == 0:
            return [sum(u * q for u, q in zip(row, mixes[1])) for row in payoff]
        return [-sum(u * q for u, q in zip(col, mixes[0])) for col in columns]

    row, col = solve((len(payoff), len(columns)), utilities, iterations, models, p)
    return row, col
