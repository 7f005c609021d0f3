"""The moment of a reveal on the table display: every seat's secret pick together, by name, before what the picks
did.

For :data:`companion.scene.PICKS_S` after a reveal the table display shows the picks in the game's words (its
``picked``) while the hole lamps light them; the seats' own screens keep what they showed (the outcome is not
theirs to tell first), and the TV and a phone's room hold the outcome as long, showing the picks from the room's
turn list. Then every screen shows what the picks did, together.
"""
from __future__ import annotations

from companion.words import say

from . import for_game, naming
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Screen


@naming.named
def describe_picks(view: dict, picks: dict) -> Screen:
    """The picks of a reveal (``picks``: each seat's, by its number), each under its player's name."""
    game = for_game(view["game"])
    lines = tuple(say("{player}: {pick}", player=naming.who(view, int(seat)), pick=game.picked(view, pick))
                  for seat, pick in sorted(picks.items(), key=lambda item: int(item[0])))
    return Screen(title=view["title"], status=say("reveal"),
                  prompt=(say("The picks revealed"), say("Picks revealed"), say("The picks"), say("Picks")),
                  lines=lines)


def picks(view: dict, picks_: dict, panel: Panel = SMALLEST):
    return frame(describe_picks(view, picks_), panel)
