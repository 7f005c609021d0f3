"""The moment of a reveal: every seat's secret pick together, by name, before what the picks did.

For :data:`companion.scene.PICKS_S` after a reveal the table display and each seat's screen (until its next press)
show the picks in the game's words (its ``picked``); the lamps light them at once, and the TV and a phone's room
hold the outcome as long. A seat's own pick comes last: it knows it already.
"""
from __future__ import annotations

from companion.words import say

from . import for_game, naming
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Screen


@naming.named
def describe_picks(view: dict, picks: dict, you: int | None, notice: str = "") -> Screen:
    """The picks of a reveal (``picks``: each seat's, by its number) told to seat ``you`` (None: the table display),
    with the seat's notice."""
    game = for_game(view["game"])
    seats = sorted(picks.items(), key=lambda item: (int(item[0]) == you, int(item[0])))
    lines = tuple(say("{player}: {pick}", player=say("You") if int(seat) == you else naming.who(view, int(seat)),
                      pick=game.picked(view, pick)) for seat, pick in seats)
    return Screen(title=view["title"] if you is None else naming.title(view, you), status=say("reveal"),
                  prompt=(say("The picks revealed"), say("Picks revealed"), say("The picks"), say("Picks")), lines=lines,
                  notice=notice)


def picks(view: dict, picks_: dict, you: int | None, notice: str = "", panel: Panel = SMALLEST):
    return frame(describe_picks(view, picks_, you, notice), panel)
