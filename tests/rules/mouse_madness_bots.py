"""Bots for Mouse Madness, and the game-length simulation quoted in docs/rules/mouse-madness.md.

    .venv/bin/python -m tests.rules.mouse_madness_bots [games]

The greedy bot looks one turn ahead on a ``clone()`` of the state: it tries each
option (and its own follow-up choices) and keeps the one that leaves its token
furthest on, less half of the best opponent's space.
"""
from __future__ import annotations

import random
import statistics
import sys

from rules.match import Header, Match
from rules.model import Decision, Move
from rules.mouse_madness import MouseState, boards


def random_answer(state: MouseState, d: Decision, rng: random.Random):
    return rng.choice(d.options)


def forward_answer(state: MouseState, d: Decision, rng: random.Random):
    """A player who never looks back: forward, jump forward when it can, push the other mouse back."""
    wanted = {"direction": ("forward",), "jump": ("jump-forward", "stay"), "push": ("jump-forward", "back")}
    return next((v for v in wanted.get(d.key, ()) if v in d.options), rng.choice(d.options))


def _worth(state: MouseState, seat: int) -> float:
    """How good ``state`` is for ``seat`` once its own choices this turn are made."""
    if state.winner is not None:
        return float("inf") if state.winner == seat else float("-inf")
    (d,) = state.pending()
    if d.seat != seat:
        others = [p for s, p in enumerate(state.pos, 1) if s != seat]
        return state.pos[seat - 1] - max(others) / 2
    return max(_worth(_after(state, d, v), seat) for v in d.options)


def _after(state: MouseState, d: Decision, value) -> MouseState:
    state = state.clone()
    state.apply(Move(d.seat, d.key, value))
    return state


def greedy_answer(state: MouseState, d: Decision, rng: random.Random):
    if d.key not in ("direction", "push", "jump"):        # a physical roll: whatever the die shows
        return rng.choice(d.options)
    return max(d.options, key=lambda v: _worth(_after(state, d, v), d.seat))


def play(seats: int, seed: int, bot=greedy_answer, settings: dict | None = None, dice: str = "virtual",
         check=None) -> Match:
    """One game to its end, answering a random open decision each time; ``check(match)`` after every answer."""
    rng = random.Random(seed)
    match = Match(Header("mouse-madness", seats, settings or {}, seed=seed, dice=dice))
    while not match.over:
        d = rng.choice(match.open_decisions())
        match.submit(d.seat, d.key, bot(match.state, d, rng))
        if check:
            check(match)
    return match


def main(games: int = 300) -> None:
    """Rounds per game (each seat's turns) and turns per game, by board, seats and bots."""
    print("| board | seats | bots | rounds: min | 10% | median | mean | 90% | max | turns: median | 90% |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for board in boards():
        for seats in range(2, 7):
            for name, bot in (("greedy", greedy_answer), ("forward", forward_answer)):
                turns = sorted(play(seats, seed, bot, {"board": board}).state.turns for seed in range(games))
                rounds = [-(-t // seats) for t in turns]
                deciles = statistics.quantiles(rounds, n=10)
                print(f"| {board} | {seats} | {name} | {rounds[0]} | {deciles[0]:.0f} | "
                      f"{statistics.median(rounds):.0f} | {statistics.mean(rounds):.1f} | {deciles[-1]:.0f} | "
                      f"{rounds[-1]} | {statistics.median(turns):.0f} | "
                      f"{statistics.quantiles(turns, n=10)[-1]:.0f} |")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
