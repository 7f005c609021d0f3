"""The self-test's screen: a test card with a border, a checkerboard and what to do."""
from __future__ import annotations

from companion.words import say

from .oled import HEIGHT, ON, WIDTH, canvas, lay
from .reading import SMALLEST, Panel
from .screen import Screen


def card(name: str, lines: list[str], panel: Panel = SMALLEST):
    """A border shows every edge of the glass is live, a checkerboard corner that pixels keep their size."""
    image, draw = canvas()
    draw.rectangle((0, 0, WIDTH - 1, HEIGHT - 1), outline=ON)
    for y in range(HEIGHT - 16, HEIGHT - 1, 2):
        for x in range(WIDTH - 16 + y % 4 // 2, WIDTH - 1, 2):
            draw.point((x, y), fill=ON)
    lay(draw, Screen(title=say("selftest"), status=name, lines=tuple(lines)), panel, (1, 1, WIDTH - 18, HEIGHT - 2))
    return image
