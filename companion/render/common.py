"""The 7-pixel bitmap drawing that only companion/web/pin.py still uses (its host PIN stamp and its copy of the
PIN screen, which companion/render/pin.py now draws to the millimetre rules): goes when that copy goes.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from .layout import BIG, HEIGHT, OFF, ON, SMALL, WIDTH, fit

CHAR_W = SMALL.char_w
ROWS = (12, 22, 32, 42, 52)         # the body rows' tops, under the title bar


def canvas(width: int = WIDTH, height: int = HEIGHT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (width, height), OFF)
    return image, ImageDraw.Draw(image)


def title(draw: ImageDraw.ImageDraw, left, right="", width: int = WIDTH) -> None:
    """An inverted bar across the top with ``left`` and right-aligned ``right``; either may be alternatives,
    longest first: the longest ``right`` that leaves the shortest ``left`` its room."""
    draw.rectangle((0, 0, width - 1, 10), fill=ON)
    lefts = [left] if isinstance(left, str) else list(left)
    rights = [right] if isinstance(right, str) else list(right)
    columns = (width - 4) // CHAR_W
    right = next((r for r in rights if not r or len(r) + 1 + min(map(len, lefts)) <= columns), rights[-1])
    room = width - 3 - (SMALL.width(right) + CHAR_W if right else 0)
    fit(draw, (2, 1, room, 10), tuple(lefts), fill=OFF, wrap=False)
    if right:
        fit(draw, (width - 2 - SMALL.width(right), 1, width - 2, 10), right, fill=OFF, align="right", wrap=False)


def rows(draw: ImageDraw.ImageDraw, lines: list, start: int = 0) -> None:
    """Text lines on the body rows, one row each, each fitting the screen's width."""
    for index, line in zip(range(start, len(ROWS)), lines):
        if line:
            fit(draw, row_box(index), line, wrap=False)


def row_box(index: int, left: int = 2, right: int = WIDTH - 1) -> tuple[int, int, int, int]:
    return left, ROWS[index] + 1, right, ROWS[index] + 10


__all__ = ["BIG", "CHAR_W", "WIDTH", "canvas", "fit", "rows", "title"]
