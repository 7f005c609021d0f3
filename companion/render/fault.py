"""The screen every display shows while the hardware is at fault (the IO board unplugged, say)."""
from __future__ import annotations

import textwrap

from .common import CHAR_W, WIDTH, canvas, rows, title


def paused(fault: str):
    image, draw = canvas()
    title(draw, "molebox", "paused")
    lines = textwrap.wrap(fault, WIDTH // CHAR_W - 1)
    rows(draw, lines[:4] + ["game waits"])
    return image
