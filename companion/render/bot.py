"""A computer player's OLED: who has the seat, and nothing the bot knows that the table does not.

The screen is drawn from the *public* view and the seat's public status: a bot's own hand or
picks would face an empty chair that everyone at the table can read.
"""
from __future__ import annotations

from .common import canvas, rows, title


def seat(view: dict, seat: int, level: str, status: str, notice: str = ""):
    image, draw = canvas()
    title(draw, f"S{seat} computer", "END" if view["over"] else "")
    if view["over"]:
        status = "won!" if seat in view["winners"] else "game over"
    lines = ["Computer player", f"level: {level}", status]
    if notice:
        lines.append(f"! {notice}")
    rows(draw, lines)
    return image
