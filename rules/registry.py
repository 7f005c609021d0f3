"""The games molebox plays, by id."""
from __future__ import annotations

from importlib import import_module

from .model import Game

#: game id -> module holding its ``GAME`` class; the order is the lobby's order.
GAMES = {
    "whakka-mole": "rules.whakka_mole",
    "mole-hill": "rules.mole_hill",
    "mole-park": "rules.mole_park",
    "mouse-madness": "rules.mouse_madness",
    "mole": "rules.mole",
}


def game_class(game_id: str) -> type[Game]:
    try:
        module = GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}; molebox plays: {', '.join(GAMES)}") from None
    return import_module(module).GAME


def titles() -> dict[str, str]:
    return {gid: game_class(gid).title for gid in GAMES}
