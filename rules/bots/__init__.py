"""Computer players: for every game, bots that see exactly what a person in their seat sees.

A bot is built for one seat of one game (:func:`make`) and answers one open
decision at a time from ``Match.view(seat)``: ``bot.choose(view, decision)``.
It never gets the state or the match, so it cannot know another seat's secret.
Bots are pure and seeded: the same seed, seat and view give the same answer.
"""
from __future__ import annotations

from importlib import import_module

from .. import registry
from ..model import Game
from .base import Bot

#: the levels a table chooses from; other levels (``fixed``) are sparring partners for the arena.
TABLE_LEVELS = ("casual", "strong")
HINT_LEVEL = "strong"       # the computer player a taught game's seat may ask for a hint


def levels(game_id: str) -> tuple[str, ...]:
    """The bot levels a game has, weakest first (its registration names the module); empty when it has none."""
    module = registry.get(game_id).bots
    return tuple(import_module(module).LEVELS) if module else ()


def hints(game_id: str) -> bool:
    """Whether a seat of ``game_id`` may ask for a hint: it has a computer player of :data:`HINT_LEVEL`."""
    return HINT_LEVEL in levels(game_id)


def check(game_id: str, level: str) -> None:
    """Raise a ValueError saying why ``game_id`` has no ``level`` bot, and what there is instead."""
    registration = registry.get(game_id)
    if registration.no_bots:
        raise ValueError(f"no computer players for {game_id}: {registration.no_bots}")
    known = levels(game_id)
    if level not in known:
        raise ValueError(f"{game_id} has bot levels: {', '.join(known)}, not {level!r}")


def make(game: Game, seat: int, level: str, seed: int | str = 0) -> Bot:
    """The ``level`` bot for ``seat`` of ``game``; a ValueError names the levels there are."""
    check(game.id, level)
    return import_module(registry.get(game.id).bots).LEVELS[level](game, seat, seed)
