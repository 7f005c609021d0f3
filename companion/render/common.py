"""Drawing helpers shared by every screen: a 128x64 one-bit canvas and the bitmap font."""
from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
ON, OFF = 255, 0  # pixel values of a one-bit image
FONT = ImageFont.load_default_imagefont()
CHAR_W = 6
LINE_H = 10
ROWS = (12, 22, 32, 42, 52)


def canvas(width: int = WIDTH, height: int = HEIGHT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (width, height), OFF)
    return image, ImageDraw.Draw(image)


def text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], s: str, fill: int = ON) -> None:
    draw.text(xy, s, font=FONT, fill=fill)


def title(draw: ImageDraw.ImageDraw, left: str, right: str = "", width: int = WIDTH) -> None:
    """An inverted bar across the top with ``left`` and right-aligned ``right``."""
    draw.rectangle((0, 0, width - 1, 10), fill=ON)
    text(draw, (2, 0), left, fill=OFF)
    if right:
        text(draw, (width - 2 - CHAR_W * len(right), 0), right, fill=OFF)


def rows(draw: ImageDraw.ImageDraw, lines: list[str], start: int = 0) -> None:
    """Text lines on the body rows, clipped to the screen width."""
    for y, line in zip(ROWS[start:], lines):
        text(draw, (2, y), line[: WIDTH // CHAR_W - 1])


def inverted_row(draw: ImageDraw.ImageDraw, index: int, line: str) -> None:
    y = ROWS[index]
    draw.rectangle((0, y, WIDTH - 1, y + LINE_H - 1), fill=ON)
    text(draw, (2, y), line[: WIDTH // CHAR_W - 1], fill=OFF)


def seats_text(seats) -> str:
    return " ".join(str(s) for s in seats) or "-"


def cells(draw, y: int, labels: list[str], inverted=(), width: int = WIDTH // 5, boxed: bool = True) -> None:
    """One cell per label, left to right, boxed or not; ``inverted`` cells are filled. Empty labels stay blank."""
    for i, label in enumerate(labels):
        if not label:
            continue
        x = i * width
        box = (x + 1, y, x + width - 2, y + LINE_H - 2)
        fill = i in inverted
        draw.rectangle(box, fill=ON if fill else OFF, outline=ON if boxed else None)
        text(draw, (x + (width - CHAR_W * len(label)) // 2, y - 1), label, fill=OFF if fill else ON)


def segments(draw, y: int, parts: list[tuple[str, bool]]) -> None:
    """Words across one row, the flagged ones inverted."""
    x = 2
    for word, inverted in parts:
        w = CHAR_W * len(word)
        if x + w > WIDTH:
            break
        if inverted:
            draw.rectangle((x - 1, y, x + w, y + LINE_H - 1), fill=ON)
        text(draw, (x, y), word, fill=OFF if inverted else ON)
        x += w + CHAR_W
