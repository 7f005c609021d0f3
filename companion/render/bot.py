"""A computer player's OLED: who has the seat, and nothing the bot knows that the table does not.

The screen is drawn from the *public* view and the seat's public status: a bot's own hand or
picks would face an empty chair that everyone at the table can read.
"""
from __future__ import annotations

from . import naming
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Screen


def describe_seat(view: dict, seat: int, level: str, status: str, notice: str = "") -> Screen:
    if view["over"]:
        status = "won!" if seat in view["winners"] else "game over"
    doing, _, more = status.partition(",")
    return Screen(title=naming.title(view, seat), status="computer", prompt=doing.capitalize(),
                  lines=(f"A {level} computer player", *((more.strip(),) if more else ()),
                         "Seat 1 OK: new game" if view["over"] else ("Seat 1 holds OK to undo", "S1 hold OK: undo")),
                  notice=notice)


def seat(view: dict, seat: int, level: str, status: str, notice: str = "", panel: Panel = SMALLEST):
    return frame(describe_seat(view, seat, level, status, notice), panel)
