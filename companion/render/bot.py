"""A computer player's OLED: who has the seat, and nothing the bot knows that the table does not.

The screen is drawn from the *public* view and the seat's public status: a bot's own hand or
picks would face an empty chair that everyone at the table can read.
"""
from __future__ import annotations

from companion.words import N_, say

from . import naming
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Screen

LEVELS = {          # a computer player's level (rules.bots.TABLE_LEVELS), as its screen says it
    "casual": N_("A casual computer player"),
    "strong": N_("A strong computer player"),
}
DOING = {           # its status (companion.scene.computer_status, or the end's): the prompt, and a line if any
    "won!": (N_("Won!"),), "game over": (N_("Game over"),), "locked in": (N_("Locked in"),),
    "thinking": (N_("Thinking"),), "waiting": (N_("Waiting"),),
    "picks last, secretly": (N_("Picks last"), N_("secretly")),
}


@naming.named
def describe_seat(view: dict, seat: int, level: str, status: str, notice: str = "") -> Screen:
    if view["over"]:
        status = "won!" if seat in view["winners"] else "game over"
    doing, *more = (say(words) for words in DOING[status])
    return Screen(title=naming.title(view, seat), status=say("computer"), prompt=doing,
                  lines=(say(LEVELS[level]), *more, say("Seat 1 OK: new game") if view["over"]
                         else (say("Seat 1 holds OK to undo"), say("S1 hold OK: undo"))),
                  notice=notice)


def seat(view: dict, seat: int, level: str, status: str, notice: str = "", panel: Panel = SMALLEST):
    return frame(describe_seat(view, seat, level, status, notice), panel)
