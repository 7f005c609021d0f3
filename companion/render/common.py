"""Drawing helpers shared by every screen: a 128x64 one-bit canvas, its rows, and text that fits its box.

Every word goes through :func:`companion.render.layout.fit`, which knows the box it must stay in.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from .layout import BIG, HEIGHT, OFF, ON, SMALL, WIDTH, fit, left_out

CHAR_W = SMALL.char_w
LINE_H = 10
ROWS = (12, 22, 32, 42, 52)         # the body rows' tops, under the title bar


def canvas(width: int = WIDTH, height: int = HEIGHT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (width, height), OFF)
    return image, ImageDraw.Draw(image)


def row_box(index: int, left: int = 2, right: int = WIDTH - 1) -> tuple[int, int, int, int]:
    """Body row ``index``'s box: its ink lies in ROWS[index] + 2 .. + 9."""
    return left, ROWS[index] + 1, right, ROWS[index] + 10


def title(draw: ImageDraw.ImageDraw, left, right: str = "", width: int = WIDTH) -> None:
    """An inverted bar across the top with ``left`` and right-aligned ``right`` (each may give alternatives)."""
    draw.rectangle((0, 0, width - 1, 10), fill=ON)
    room = width - 3 - (SMALL.width(right) + CHAR_W if right else 0)
    fit(draw, (2, 1, room, 10), left, fill=OFF, wrap=False)
    if right:
        fit(draw, (width - 2 - SMALL.width(right), 1, width - 2, 10), right, fill=OFF, align="right", wrap=False)


def rows(draw: ImageDraw.ImageDraw, lines: list, start: int = 0) -> None:
    """Text lines on the body rows, one row each, each fitting the screen's width."""
    for index, line in zip(range(start, len(ROWS)), lines):
        if line:
            fit(draw, row_box(index), line, wrap=False)


def inverted_row(draw: ImageDraw.ImageDraw, index: int, line) -> None:
    y = ROWS[index]
    draw.rectangle((0, y, WIDTH - 1, y + LINE_H), fill=ON)
    fit(draw, row_box(index), line, fill=OFF, wrap=False)


def seats_text(seats) -> str:
    """Seats as the table reads them: 1,2,3 (or -)."""
    return ",".join(str(s) for s in seats) or "-"


def cells(draw, y: int, labels: list[str], inverted=(), width: int = WIDTH // 5, boxed: bool = True) -> None:
    """One cell per label, left to right, boxed or not; ``inverted`` cells are filled. Empty labels stay blank."""
    for i, label in enumerate(labels):
        if not label:
            continue
        x = i * width
        box = (x + 1, y, x + width - 2, y + LINE_H)
        fill = i in inverted
        draw.rectangle(box, fill=ON if fill else OFF, outline=ON if boxed else None)
        inside = (box[0] + 2, box[1] + 1, box[2] - 2, box[3] - 1) if boxed else box
        fit(draw, inside, label, fill=OFF if fill else ON, align="centre", wrap=False)


def segments(draw, y: int, parts: list[tuple[str, bool]]) -> None:
    """Words across one row, the flagged ones inverted; words that would run off the screen are left out."""
    x = 2
    for i, (word, inverted) in enumerate(parts):
        w = SMALL.width(word)
        if x + w > WIDTH - 2:
            left_out(" ".join(w for w, _ in parts[i:]), (x, y, WIDTH - 1, y + LINE_H))
            break
        if inverted:
            draw.rectangle((x - 1, y, x + w, y + LINE_H), fill=ON)
        fit(draw, (x, y + 1, x + w - 1, y + LINE_H), word, fill=OFF if inverted else ON, wrap=False)
        x += w + CHAR_W


__all__ = ["BIG", "CHAR_W", "HEIGHT", "LINE_H", "OFF", "ON", "ROWS", "SMALL", "WIDTH", "canvas", "cells", "fit",
           "inverted_row", "row_box", "rows", "seats_text", "segments", "title"]
