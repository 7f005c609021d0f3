"""Computer players: for every game, bots that see exactly what a person in their seat sees.

A bot is built for one seat of one game (:func:`make`) and answers one open
decision at a time from ``Match.view(seat)``: ``bot.choose(view, decision)``.
It never gets the state or the match, so it cannot know another seat's secret.
Bots are pure and seeded: the same seed, seat and view give the same answer.
"""
from __future__ import annotations

from importlib import import_module

from ..model import Game
from .base import Bot

#: game id -> module holding ``LEVELS`` (level name -> bot class), weakest first.
MODULES = {
    "whakka-mole": "rules.bots.whakka_mole",
    "mole-hill": "rules.bots.mole_hill",
    "mole-park": "rules.bots.mole_park",
    "mouse-madness": "rules.bots.mouse_madness",
}
#: the levels a table chooses from; other levels (``fixed``) are sparring partners for the arena.
TABLE_LEVELS = ("casual", "strong")
#: games with no computer player, and why (said when one is asked for)
NO_BOTS = {
    "mole": "Mole is played by flicking real coins: the box has no computer flicks "
            "(it suggests the calls the rules allow instead)",
}


def levels(game_id: str) -> tuple[str, ...]:
    """The bot levels a game has, weakest first; empty when the box has no computer player for it."""
    module = MODULES.get(game_id)
    return tuple(import_module(module).LEVELS) if module else ()


def check(game_id: str, level: str) -> None:
    """Raise a ValueError saying why ``game_id`` has no ``level`` bot, and what there is instead."""
    if game_id in NO_BOTS:
        raise ValueError(f"no computer players for {game_id}: {NO_BOTS[game_id]}")
    known = levels(game_id)
    if not known:
        raise ValueError(f"no computer players for {game_id}; games with them: {', '.join(MODULES)}")
    if level not in known:
        raise ValueError(f"{game_id} has bot levels: {', '.join(known)}, not {level!r}")


def make(game: Game, seat: int, level: str, seed: int | str = 0) -> Bot:
    """The ``level`` bot for ``seat`` of ``game``; a ValueError names the levels there are."""
    check(game.id, level)
    return import_module(MODULES[game.id]).LEVELS[level](game, seat, seed)
