"""Bots against bots: whole games between levels, win rates with Wilson intervals, game lengths.

``molebox arena GAME --bots casual,strong --games N [--seats S] [--seed K]`` prints
the table; :func:`play` is one game, which the tests use too. The levels take
the seats in turn: in game ``i`` seat ``s`` plays level ``(s - 1 + i) mod k``, so
every level sits in every seat equally often and no seat order favours one.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from . import bots, registry
from .match import Header, Match

Z95 = 1.959964


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def lineup(levels: Sequence[str], seats: int, game_no: int) -> list[str]:
    """The level of each seat in game ``game_no``."""
    return [levels[(s + game_no) % len(levels)] for s in range(seats)]


def _call(level: str, think: Callable[[], Any]) -> Any:
    return think()


def play(game_id: str, levels: Sequence[str], seed: int = 0, settings: dict | None = None,
         limit: int = 20_000, observe: Callable[[str, Callable[[], Any]], Any] = _call) -> Match:
    """One virtual-dice game with ``levels[s - 1]`` in seat ``s``; each bot sees only its seat's view.

    ``observe(level, think)`` calls ``think()`` for each bot answer and returns it (the bench times it).
    """
    match = Match(Header(game_id, len(levels), settings or {}, seed=seed))
    players = {s: bots.make(match.game, s, level, seed) for s, level in enumerate(levels, 1)}
    for _ in range(limit):
        if match.over:
            return match
        decision = match.open_decisions()[0]
        player, view = players[decision.seat], match.view(decision.seat)
        match.submit(decision.seat, decision.key, observe(levels[decision.seat - 1],
                                                          lambda: player.choose(view, decision)))
    raise RuntimeError(f"{game_id}: no result after {limit} decisions (seed {seed}, {list(levels)})")


@dataclass
class Tally:
    seats: int = 0            # seat-games played
    wins: float = 0.0         # a shared win counts 1/k for each of the k winners

    def rate(self) -> tuple[float, float, float]:
        low, high = wilson(self.wins, self.seats)
        return (self.wins / self.seats if self.seats else 0.0), low, high


@dataclass
class Report:
    game: str
    seats: int
    games: int
    tallies: dict[str, Tally] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)      # seat decisions per game

    def table(self) -> str:
        fair = 1 / self.seats
        lines = [f"{self.game}: {self.games} games at {self.seats} seats, seats rotated "
                 f"(an even share is {fair:.0%} per seat)",
                 "| bot | seat-games | wins | win rate | 95% CI (Wilson) |",
                 "| --- | ---: | ---: | ---: | --- |"]
        for level, tally in self.tallies.items():
            rate, low, high = tally.rate()
            lines.append(f"| {level} | {tally.seats} | {tally.wins:g} | {rate:.1%} | {low:.1%} - {high:.1%} |")
        if self.lengths:
            q = statistics.quantiles(self.lengths, n=10) if len(self.lengths) > 1 else self.lengths * 9
            lines.append(f"game length (seat decisions): median {statistics.median(self.lengths):g}, "
                         f"10% {q[0]:g}, 90% {q[-1]:g}, max {max(self.lengths)}")
        return "\n".join(lines)


def tournament(game_id: str, levels: Sequence[str], games: int, seats: int | None = None,
               seed: int = 0, settings: dict | None = None) -> Report:
    """``games`` games with the levels taking the seats in turn; a ValueError if a level is unknown."""
    for level in levels:
        bots.check(game_id, level)
    seats = seats or max(len(levels), registry.game_class(game_id).min_seats)
    report = Report(game_id, seats, games, {level: Tally() for level in levels})
    for i in range(games):
        seating = lineup(levels, seats, i)
        match = play(game_id, seating, seed + i, settings)
        winners = match.result().winners
        for s, level in enumerate(seating, 1):
            report.tallies[level].seats += 1
            if s in winners:
                report.tallies[level].wins += 1 / len(winners)
        report.lengths.append(match.seat_records())
    return report
