"""The games molebox plays: each game's module registers itself, once, with all the box needs of it.

A game module ends with its registration::

    GAME = registry.register(WhakkaMole, doc="docs/rules/whakka-mole.md", bots="rules.bots.whakka_mole")

From it the box knows the game's id and title (the class's), its variant settings
(``rules/variants/<id>.toml``, which must exist), its computer players (a module holding
``LEVELS``; or, with ``no_bots``, why there are none), and its rules doc (which ``molebox variants``
points the host to). :data:`MODULES` lists the game modules in the lobby's order: a sixth game is
its module (rules and registration), its variant file, its doc, and one line there, and on the box
its screens (``companion/render/``, mapped in its ``SCREENS``); the conformance test
(``tests/rules/test_conformance.py``) then holds it to everything every game does.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module, resources

from .model import Game

#: the game modules, in the lobby's order
MODULES = ("rules.whakka_mole", "rules.mole_hill", "rules.mole_park", "rules.mouse_madness", "rules.mole")


@dataclass(frozen=True)
class Registration:
    game: type[Game]
    doc: str                        # its rules as molebox plays them, from the repository's root
    bots: str | None = None         # the module holding its computer players' LEVELS
    no_bots: str | None = None      # or why it has none, said when one is asked for

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def title(self) -> str:
        return self.game.title


_registered: dict[str, Registration] = {}


def register(game: type[Game], *, doc: str, bots: str | None = None,
             no_bots: str | None = None) -> type[Game]:
    """Register ``game`` (called once, by its own module); returns the class, for ``GAME = register(...)``."""
    if game.id in _registered and _registered[game.id].game is not game:
        raise ValueError(f"two games register the id {game.id!r}")
    if (bots is None) == (no_bots is None):
        raise ValueError(f"{game.id}: register bots= (a module with LEVELS) or no_bots= (why there are none)")
    if not resources.files("rules.variants").joinpath(f"{game.id}.toml").is_file():
        raise ValueError(f"{game.id}: no variant file rules/variants/{game.id}.toml")
    _registered[game.id] = Registration(game, doc, bots, no_bots)
    return game


def games() -> dict[str, Registration]:
    """Every game, by id, in the lobby's order."""
    out = {}
    for module in MODULES:
        game = import_module(module).GAME
        out[game.id] = _registered[game.id]
    return out


def ids() -> list[str]:
    return list(games())


def get(game_id: str) -> Registration:
    registered = games()
    if game_id not in registered:
        raise ValueError(f"unknown game {game_id!r}; molebox plays: {', '.join(registered)}")
    return registered[game_id]


def game_class(game_id: str) -> type[Game]:
    return get(game_id).game
