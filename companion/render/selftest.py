"""The self-test's screen: a test card with a border, a checkerboard and what to do."""
from __future__ import annotations

from .common import HEIGHT, ON, WIDTH, canvas, rows, title


def card(name: str, lines: list[str]):
    """A border shows every edge of the glass is live, a checkerboard corner that pixels keep their size."""
    image, draw = canvas()
    title(draw, "selftest", name)
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=ON)
    for y in range(HEIGHT - 16, HEIGHT - 1, 2):
        for x in range(WIDTH - 16 + y % 4 // 2, WIDTH - 1, 2):
            draw.point((x, y), fill=ON)
    rows(draw, [line[:17] for line in lines[:5]])
    return image
