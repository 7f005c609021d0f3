"""Pure rendering: views in, Pillow images and lamp states out.

Each game has a module here with three functions:

- ``seat(view, entry, notice) -> Image``: a seat's OLED from ``Match.view(seat)``, the seat's own
  draft (:meth:`companion.entry.Entry.summary`) and a one-line notice (a refusal reason);
- ``table(view) -> Image``: the table display from ``Match.view(None)``;
- ``lamps(view, seat, fresh) -> tuple[Lamp, ...]``: a seat's hole lamps from the *public* view only,
  ``fresh`` being True until the seat's first press after a reveal;
- optionally ``rolling(view, frame) -> Image``: the table while the box rolls virtual dice, frames 0-3
  over 0.8 s, before ``table`` shows where they landed.

Each game's registration (:mod:`rules.registry`) names its module; a game registered without one is
an error when the box loads its screens, not a game drawn by some fallback.
"""
from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.util import find_spec

from rules import registry


def _check_every_game_has_its_screens() -> None:
    for game_id, registration in registry.games().items():
        if find_spec(registration.renderer) is None:
            raise ImportError(f"{game_id} registers {registration.renderer} to draw its screens, and there is none")


@cache
def for_game(game_id: str):
    """The module drawing the screens of ``game_id``."""
    return import_module(registry.get(game_id).renderer)


_check_every_game_has_its_screens()
