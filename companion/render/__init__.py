"""Pure rendering: views in, Pillow images and lamp states out.

Each game has a module here with three functions:

- ``seat(view, entry, notice) -> Image``: a seat's OLED from ``Match.view(seat)``, the seat's own
  draft (:meth:`companion.entry.Entry.summary`) and a one-line notice (a refusal reason);
- ``table(view) -> Image``: the table display from ``Match.view(None)``;
- ``lamps(view, seat, fresh) -> tuple[Lamp, ...]``: a seat's hole lamps from the *public* view only,
  ``fresh`` being True until the seat's first press after a reveal;
- optionally ``rolling(view, frame) -> Image``: the table while the box rolls virtual dice, frames 0-3
  over 0.8 s, before ``table`` shows where they landed.

Games without a module of their own use :mod:`companion.render.generic`.
"""
from __future__ import annotations

from importlib import import_module

RENDERERS = {
    "whakka-mole": "companion.render.whakka_mole",
    "mole-park": "companion.render.mole_park",
    "mouse-madness": "companion.render.mouse_madness",
    "mole-hill": "companion.render.mole_hill",
    "mole": "companion.render.mole",
}


def for_game(game_id: str):
    return import_module(RENDERERS.get(game_id, "companion.render.generic"))
