"""Pure rendering: views in, Pillow images and lamp states out.

Each game has a module here with three functions:

- ``seat(view, entry, notice) -> Image``: a seat's OLED from ``Match.view(seat)``, the seat's own
  draft (:meth:`companion.entry.Entry.summary`) and a one-line notice (a refusal reason);
- ``table(view) -> Image``: the table display from ``Match.view(None)``;
- ``lamps(view, seat, fresh) -> tuple[Lamp, ...]``: a seat's hole lamps from the *public* view only,
  ``fresh`` being True until the seat's first press after a reveal;
- optionally ``rolling(view, frame) -> Image``: the table while the box rolls virtual dice, frames 0-3
  over 0.8 s, before ``table`` shows where they landed.

Every screen is described before it is drawn: beside each drawing ``x`` of a screen the box shows is
``describe_x`` with the same arguments but the glass, answering the
:class:`~companion.render.screen.Screen` the drawing draws (:func:`describe` finds it). The TV view
and the phones draw those descriptions in HTML.

:data:`SCREENS` names each game's module. The rules know nothing of the box, so it is the box that
maps every game the rules register to its screens: a registered game without them is an error when
the box loads its screens, not a game drawn by some fallback.
"""
from __future__ import annotations

import sys
from functools import cache
from importlib import import_module
from importlib.util import find_spec

from rules import registry

#: each game's screens, by game id
SCREENS = {
    "whakka-mole": "companion.render.whakka_mole",
    "mole-hill": "companion.render.mole_hill",
    "mole-park": "companion.render.mole_park",
    "mouse-madness": "companion.render.mouse_madness",
    "mole": "companion.render.mole",
}


def _check_every_game_has_its_screens() -> None:
    for game_id in registry.ids():
        if game_id not in SCREENS:
            raise ImportError(f"{game_id} has no screens: map it to its module in companion/render's SCREENS")
        if find_spec(SCREENS[game_id]) is None:
            raise ImportError(f"{game_id}'s screens are {SCREENS[game_id]}, and there is no such module")


@cache
def for_game(game_id: str):
    """The module drawing the screens of ``game_id``."""
    return import_module(SCREENS[game_id])


_check_every_game_has_its_screens()


def describe(drawing, args: tuple):
    """What a screen drawn by ``drawing`` from ``args`` (the glass last) says: the description that the function
    named ``describe_`` and the drawing's name, in the drawing's module, makes of the same arguments."""
    return getattr(sys.modules[drawing.__module__], f"describe_{drawing.__name__}")(*args[:-1])
