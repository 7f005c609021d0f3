"""A computer player's OLED: who has the seat, and nothing the bot knows that the table does not.

The screen is drawn from the *public* view and the seat's public status: a bot's own hand or
picks would face an empty chair that everyone at the table can read.
"""
from __future__ import annotations

from .common import BIG, ROWS, canvas, fit, hint, names, rows, title


def seat(view: dict, seat: int, level: str, status: str, notice: str = ""):
    image, draw = canvas()
    title(draw, names(view, seat), "computer")
    if view["over"]:
        status = "won!" if seat in view["winners"] else "game over"
    rows(draw, [f"A {level} computer player", "" if status == status.split(",")[0] else status])
    fit(draw, (2, ROWS[2] + 1, 125, ROWS[3] + 10), status.split(",")[0].capitalize(), font=BIG, align="centre")
    hint(draw, "seat 1 hold OK: undo" if not view["over"] else "seat 1 OK: new game", notice)
    return image
