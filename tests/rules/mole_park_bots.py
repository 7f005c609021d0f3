"""Bots for Mole Park, and the round-count simulation quoted in docs/rules/mole-park.md.

    .venv/bin/python -m tests.rules.mole_park_bots [games]

Bots see only what a player sees: ``match.view(seat)`` and the open decision.
"""
from __future__ import annotations

import random
import statistics
import sys

from rules.match import Header, Match
from rules.model import Decision
from rules.mole_park import MISS, STANDS


def random_answer(match: Match, d: Decision, rng: random.Random):
    return rng.choice(d.options)


def greedy_answer(match: Match, d: Decision, rng: random.Random):
    """Whack the die with the most moles in reach; cash in a full hand; take the best prize; declare when sure."""
    if d.key.startswith("roll-"):                 # a physical roll: anything it could show
        return rng.choice(d.options)
    if d.key.startswith("mole-"):                 # a physical card from a deck made as the box assumes
        return rng.choice([v for v in d.options if match.state.unseen[v]])
    view = match.view(d.seat)["state"]
    faces = match.game.faces
    hand, stars = view["hand"], view["seats"][d.seat - 1]["stars"]
    if d.key == "crown":
        sure = sum(hand) + stars + min(faces["prize"]) >= view["crown"]
        return "declare" if sure else "pass"
    if d.key == "die":
        if "prize" in d.options and len(hand) >= view["hand_limit"]:
            return "prize"
        reach = {die: sum(view["holes"][f - 1] for f in faces[die] if f != MISS) for die in d.options if die != "prize"}
        return max(reach, key=reach.get)
    if d.key == "discard":
        return min(d.options)
    if d.key == "prize":
        return max(d.options, key=lambda stand: STANDS[stand - 1][1])
    return d.options[0]


def play(seats: int, seed: int, bot=greedy_answer, settings: dict | None = None, dice: str = "virtual",
         limit: int = 20000, check=None, until=None) -> Match:
    """One game, answering a random open decision each time, to its end, ``limit`` answers or ``until(match)``.

    ``check(match)`` runs after every answer.
    """
    rng = random.Random(seed)
    match = Match(Header("mole-park", seats, settings or {}, seed=seed, dice=dice, cards=dice))
    for _ in range(limit):
        if match.over or (until and until(match)):
            break
        d = rng.choice(match.open_decisions())
        match.submit(d.seat, d.key, bot(match, d, rng))
        if check:
            check(match)
    return match


def rounds(seats: int, games: int, bot=greedy_answer) -> list[int]:
    return [play(seats, seed, bot).state.round for seed in range(games)]


def main(games: int = 200) -> None:
    print("| seats | bots | min | 10% | median | mean | 90% | max | showdowns | crown questions a round |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for seats in (2, 3, 4, 5, 6, 8):
        for name, bot in (("greedy", greedy_answer), ("random", random_answer)):
            matches = [play(seats, seed, bot) for seed in range(games)]
            counts = sorted(m.state.round for m in matches)
            deciles = statistics.quantiles(counts, n=10)
            showdowns = sum(bool(m.state.showdown) for m in matches)
            asked = sum(r["key"] == "crown" for m in matches for r in m.records) / sum(counts)
            print(f"| {seats} | {name} | {counts[0]} | {deciles[0]:.0f} | {statistics.median(counts):.0f} | "
                  f"{statistics.mean(counts):.1f} | {deciles[-1]:.0f} | {counts[-1]} | {showdowns} | {asked:.2f} |")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
