"""Pure rendering: views in, Pillow images and lamp states out.

Each game has a module here offering :class:`GameScreens` (``tests/rules/test_conformance.py`` holds every
registered game's to it, name for name and parameter for parameter): its seat's screen and the table
display's, each described before it is drawn (``describe_x`` beside each drawing ``x``, with the same
arguments but the glass: the :class:`~companion.render.screen.Screen` the drawing draws, which the TV view
and the phones draw in HTML; :func:`describe` finds it), a seat's lamps from the public view, and the
public log told in words. A game whose picks are secret tells each seat's pick at the reveal
(:class:`Reveals`); one whose table display shows virtual dice tumbling has :class:`Tumbles`.

:data:`SCREENS` names each game's module. The rules know nothing of the box, so it is the box that
maps every game the rules register to its screens: a registered game without them is an error when
the box loads its screens, not a game drawn by some fallback.
"""
from __future__ import annotations

import sys
from functools import cache
from importlib import import_module
from importlib.util import find_spec
from typing import Protocol

from rules import registry

from companion.lamps import Lamp

from .reading import SMALLEST, Panel
from .screen import Screen, Words

#: each game's screens, by game id
SCREENS = {
    "whakka-mole": "companion.render.whakka_mole",
    "mole-hill": "companion.render.mole_hill",
    "mole-park": "companion.render.mole_park",
    "mouse-madness": "companion.render.mouse_madness",
    "mole": "companion.render.mole",
}


class GameScreens(Protocol):
    """A game's screens (a module of functions: read ``self`` as the module)."""

    TURN: tuple[tuple[str, ...], str]     # the events' kinds that open a turn, and what a turn is called (N_)

    def seat(self, view: dict, entry: dict, notice: str = "", panel: Panel = SMALLEST):
        """A seat's screen from ``Match.view(seat)``, its draft (:meth:`companion.table.drafts.Draft.summary`) and
        a one-line notice (a refusal's reason); an image for ``panel``'s glass."""

    def describe_seat(self, view: dict, entry: dict, notice: str = "") -> Screen:
        """What :meth:`seat` draws, in words."""

    def table(self, view: dict, panel: Panel = SMALLEST):
        """The table display from ``Match.view(None)``."""

    def describe_table(self, view: dict) -> Screen:
        """What :meth:`table` draws, in words."""

    def lamps(self, view: dict, seat: int, fresh: bool) -> tuple:
        """A seat's hole lamps from the public view only; ``fresh`` until the seat's first press after a reveal."""

    def tell(self, view: dict, event: dict) -> str | None:
        """A public event in words: after its seat's name, or a sentence of its own (a seatless event's, or a
        :class:`~companion.render.screen.Sentence`); None: nothing to tell."""

    def told_you(self, view: dict, event: dict) -> str | tuple[str, ...] | None:
        """An event told to the seat it concerns (``view["you"]``), in the second person, longest first; None: it
        does not concern the seat. A seat's screen says what the events since its last press did to it
        (:func:`companion.render.news.heard`)."""

    def standings(self, view: dict) -> list[dict]:
        """Each seat's standing for the TV: its score and what it has, in the game's words."""


class Reveals(Protocol):
    """The screens of a game whose picks are secret until a reveal."""

    def picked(self, view: dict, pick: dict) -> Words:
        """What a seat had picked, in the game's words, as the reveal shows it (longest first)."""

    def pick_lamps(self, pick: dict) -> tuple[Lamp, ...]:
        """A seat's hole lamps while its revealed pick is the moment: the buttons it chose, lit."""


class Tumbles(Protocol):
    """The screens of a game whose table display shows virtual dice tumbling before they land (frames 0-3)."""

    def rolling(self, view: dict, step: int, panel: Panel = SMALLEST):
        """The table display while the box rolls, at ``step`` (0-3) of the tumble."""

    def describe_rolling(self, view: dict, step: int) -> Screen:
        """What :meth:`rolling` draws, in words."""


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
