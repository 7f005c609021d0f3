"""Bots for Mouse Madness, and the game-length simulation quoted in docs/rules/mouse-madness.md.

    .venv/bin/python -m tests.rules.mouse_madness_bots [games] [board]

The greedy bot looks one turn ahead on a ``clone()`` of the state: it tries each
option (and its own follow-up choices) and keeps the one that leaves its token
furthest on, less half of the best opponent's space.
"""
from __future__ import annotations

import random
import statistics
import sys

from rules.bots.mouse_madness import FORWARD
from rules.match import Header, Match
from rules.model import Decision, Move
from rules.mouse_madness import MouseState, boards


def random_answer(state: MouseState, d: Decision, rng: random.Random):
    return rng.choice(d.options)


def forward_answer(state: MouseState, d: Decision, rng: random.Random):
    """A player who never looks back: forward, jump forward when it can, push the other mouse back."""
    return next((v for v in FORWARD.get(d.key, ()) if v in d.options), rng.choice(d.options))


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
         check=None, max_turns: int | None = None) -> Match:
    """One game to its end (or ``max_turns``), answering a random open decision each time;
    ``check(match)`` after every answer."""
    rng = random.Random(seed)
    match = Match(Header("mouse-madness", seats, settings or {}, seed=seed, dice=dice))
    while not match.over and (max_turns is None or match.state.turns < max_turns):
        d = rng.choice(match.open_decisions())
        match.submit(d.seat, d.key, bot(match.state, d, rng))
        if check:
            check(match)
    return match


#: A game still going after this many turns is counted as stuck: a table of forward-only players can
#: lock six tokens on spaces 1-6 in front of the standard board's hole 7 for ever (docs/rules/mouse-madness.md).
STUCK_TURNS = 1000


def main(games: int = 300, board: str | None = None) -> None:
    """Rounds per game (each seat's turns) and turns per game, by board, seats and bots; stuck games apart."""
    print("| board | seats | bots | rounds: min | 10% | median | mean | 90% | max | turns: median | 90% | stuck |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in [board] if board else boards():
        for seats in range(2, 7):
            for bot_name, bot in (("greedy", greedy_answer), ("forward", forward_answer)):
                played = [play(seats, seed, bot, {"board": name}, max_turns=STUCK_TURNS) for seed in range(games)]
                turns = sorted(m.state.turns for m in played if m.over)
                rounds = [-(-t // seats) for t in turns]
                deciles = statistics.quantiles(rounds, n=10)
                print(f"| {name} | {seats} | {bot_name} | {rounds[0]} | {deciles[0]:.0f} | "
                      f"{statistics.median(rounds):.0f} | {statistics.mean(rounds):.1f} | {deciles[-1]:.0f} | "
                      f"{rounds[-1]} | {statistics.median(turns):.0f} | "
                      f"{statistics.quantiles(turns, n=10)[-1]:.0f} | {games - len(turns)} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300, *sys.argv[2:3])
