"""The host PIN on seat 1's OLED, while it shows it (asked for in the lobby, on a box with no table display)."""
from __future__ import annotations

from .common import BIG, WIDTH, canvas, fit, rows, title


def screen(pin: str):
    image, draw = canvas()
    title(draw, "molebox", "host PIN")
    rows(draw, ["For the dashboard:"])
    fit(draw, (4, 25, WIDTH - 5, 48), " ".join(pin), font=BIG, align="centre")
    rows(draw, ["hides by itself"], start=4)
    return image
