"""The moment of a reveal on the table display: every seat's secret pick together, by name, before what the picks
did.

For :data:`companion.scene.PICKS_S` after a reveal the table display shows the picks in the game's words (its
``picked``) while the hole lamps light them; the seats' own screens keep what they showed (the outcome is not
theirs to tell first), and the TV and a phone's room hold the outcome as long, showing the picks from the room's
turn list. Then every screen shows what the picks did, together.
"""
from __future__ import annotations

from companion.words import say, says

from . import for_game, naming
from .oled import frame, left_out
from .reading import SMALLEST, Panel
from .screen import Screen, wordings


@naming.named
def describe_picks(view: dict, picks: dict, shown: int | None = None) -> Screen:
    """The picks of a reveal (``picks``: each seat's, by its number), each after its player's name; where only the
    first ``shown`` have room, a line counts the rest, which the lamps show."""
    game = for_game(view["game"])
    lines = tuple(tuple(say("{player}: {pick}", player=naming.who(view, int(seat)), pick=words)
                        for words in wordings(game.picked(view, pick)))
                  for seat, pick in sorted(picks.items(), key=lambda item: int(item[0])))
    if shown is not None and shown < len(lines):
        rest = len(lines) - shown
        lines = lines[:shown] + ((says("and {n} more on the lamps", "and {n} more on the lamps", rest),
                                  says("{n} more: lamps", "{n} more: lamps", rest)) if shown else
                                 (say("Each seat's lamps show its pick"), say("See the lamps")),)
    return Screen(prompt=(say("The picks"), say("Picks")), lines=lines)


def picks(view: dict, picks_: dict, panel: Panel = SMALLEST):
    """The picks on ``panel``'s glass: as many whole as it has room for, the rest counted."""
    shown = len(picks_)
    while True:
        screen = describe_picks(view, picks_, shown)
        missing = left_out(screen, panel) if shown else 0
        if not missing:
            return frame(screen, panel)
        shown = max(0, shown - missing)     # then, should the line that counts the rest not fit too, one fewer
