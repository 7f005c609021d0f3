"""The screens of a box that cannot play: paused while the hardware is at fault, and parted when it stops."""
from __future__ import annotations

import textwrap

from .common import CHAR_W, WIDTH, canvas, rows, title


def paused(fault: str):
    image, draw = canvas()
    title(draw, "molebox", "paused")
    lines = textwrap.wrap(fault, WIDTH // CHAR_W - 1)
    rows(draw, lines[:4] + ["game waits"])
    return image


def parting():
    """What every display keeps showing after the service stops (luma's ``persist``)."""
    image, draw = canvas()
    title(draw, "molebox", "stopped")
    rows(draw, ["the box is off", "the game is saved", "and goes on when", "it starts again"])
    return image
