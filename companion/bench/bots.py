"""The computer players' think time per answer, CPU time, at two seats and at each game's largest table."""
from __future__ import annotations

import time

from rules import arena, bots, registry

from .common import print_p50_p99


def bot_think(games: int) -> dict[tuple[str, int, str], list[float]]:
    """CPU seconds per bot answer, by (game, seats, level): whole games, casual and strong taking the seats
    in turn, at two seats and at the game's largest table (the strong bots weigh every seat's pick).
    CPU time, not wall time: a bot is pure computation, and other work on the machine must not count."""
    times: dict[tuple[str, int, str], list[float]] = {}
    for game_id in [game for game, registration in registry.games().items() if registration.bots]:
        for seats in sorted({2, registry.game_class(game_id).max_seats}):
            def timed(level, think, key=(game_id, seats)):
                start = time.thread_time()
                value = think()
                times.setdefault((*key, level), []).append(time.thread_time() - start)
                return value

            for i in range(games):
                arena.play(game_id, arena.lineup(bots.TABLE_LEVELS, seats, i), seed=i, observe=timed)
    return times


def print_bot_rows(games: int) -> None:
    """Think time per decision of every computer player, at two seats and at the game's largest table
    (no raw library to compare with)."""
    for (game_id, seats, level), seconds in sorted(bot_think(games).items()):
        print_p50_p99("bot think", f", {game_id} {seats} seats {level}", [1000 * x for x in seconds], None, "< 100 ms")

