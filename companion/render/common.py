"""Drawing helpers shared by every screen: a 128x64 one-bit canvas, its rows, and text that fits its box.

Every word goes through :func:`companion.render.layout.fit`, which knows the box it must stay in.
"""
from __future__ import annotations

from PIL import Image, ImageDraw

from .layout import BIG, HEIGHT, OFF, ON, SMALL, WIDTH, fit, left_out

CHAR_W = SMALL.char_w
LINE_H = 10
ROWS = (12, 22, 32, 42, 52)         # the body rows' tops, under the title bar
PROMPT = (2, 32, 125, 51)           # the big line: capitals on the controller's pages 4-5, descenders on 6


def canvas(width: int = WIDTH, height: int = HEIGHT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (width, height), OFF)
    return image, ImageDraw.Draw(image)


def row_box(index: int, left: int = 2, right: int = WIDTH - 1) -> tuple[int, int, int, int]:
    """Body row ``index``'s box: its ink lies in ROWS[index] + 2 .. + 9."""
    return left, ROWS[index] + 1, right, ROWS[index] + 10


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


def rows_at(draw: ImageDraw.ImageDraw, left: int, lines: list, start: int = 0) -> None:
    """Text lines on the body rows from ``left`` to the screen's right edge (beside a drawing)."""
    for index, line in zip(range(start, len(ROWS)), lines):
        if line:
            fit(draw, row_box(index, left=left), line, wrap=False)


def inverted_row(draw: ImageDraw.ImageDraw, index: int, line) -> None:
    y = ROWS[index]
    draw.rectangle((0, y, WIDTH - 1, y + LINE_H), fill=ON)
    fit(draw, row_box(index), line, fill=OFF, wrap=False)


def seats_text(seats) -> str:
    """Seats as the table reads them: 1,2,3 (or -)."""
    return ",".join(str(s) for s in seats) or "-"


def who(view: dict, seat: int, width: int = 6) -> str:
    """A seat as a screen names it: its player's name (its first ``width`` letters), else S and its number
    (Seat and its number where ``width`` leaves room for it)."""
    name = view.get("names", {}).get(str(seat))
    if name:
        return name.split()[0][:width]
    return f"Seat {seat}" if width >= 7 else f"S{seat}"


def names(view: dict, seat: int) -> tuple[str, ...]:
    """A seat's name for a title, longest first (for :func:`title`'s alternatives)."""
    return who(view, seat, 10), who(view, seat, 6), f"S{seat}"


def whos(view: dict, seats, width: int = 5) -> str:
    """Seats by their players' names where they have one: Ada,Bob,3 (or -)."""
    named = view.get("names", {})
    return ",".join(who(view, s, width) if str(s) in named else str(s) for s in seats) or "-"


def waiting(view: dict, prefix: str = "wait ") -> tuple[str, ...]:
    """Who the game waits for, longest first: by name, by number, by count."""
    seats = view["waiting"]
    return (f"{prefix}{whos(view, seats)}", f"{prefix}{seats_text(seats)}",
            f"{prefix}{len(seats)} more" if seats else f"{prefix.strip()}")


def prompt(draw, text) -> None:
    """The one thing a seat's screen is about, in the big font, centred on a baseline that stays put.

    Its letters sit on row 47, the last of the controller's page 5, whatever they are: a line
    without descenders changes pages 4-5 only, and two prompts of one length differ on the glass in
    the glyphs that changed, not in a line moved by a row (``docs/benchmarks.md``, bytes per game)."""
    fit(draw, PROMPT, text, font=BIG, align="centre", valign="baseline")


def hint(draw, line, notice: str = "") -> None:
    """What the buttons do next on the bottom row, on the glass's last rows (its capitals on the controller's
    last page); or, inverted there, ``notice`` (a refusal's reason), over the row above it too when it needs two."""
    if not notice:
        fit(draw, (2, ROWS[4] + 1, WIDTH - 1, HEIGHT - 1), line, wrap=False, valign="baseline")
    elif len(notice) <= (WIDTH - 3) // CHAR_W:
        inverted_row(draw, 4, notice)
    else:
        draw.rectangle((0, ROWS[3], WIDTH - 1, HEIGHT - 1), fill=ON)
        fit(draw, (2, ROWS[3] + 1, WIDTH - 1, ROWS[4] + 10), notice, fill=OFF)


def cells(draw, y: int, labels: list[str], inverted=(), width: int = WIDTH // 5, boxed: bool = True) -> None:
    """One cell per label, left to right, boxed or not; ``inverted`` cells are filled. Empty labels stay blank."""
    for i, label in enumerate(labels):
        if not label:
            continue
        x = i * width
        box = (x + 1, y, x + width - 2, y + LINE_H) if boxed else (x, y, x + width - 1, y + LINE_H)
        fill = i in inverted
        draw.rectangle(box, fill=ON if fill else OFF, outline=ON if boxed else None)
        inside = (box[0] + 2, box[1] + 1, box[2] - 2, box[3] - 1) if boxed else (box[0], box[1] + 1, box[2], box[3])
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


__all__ = ["BIG", "CHAR_W", "HEIGHT", "LINE_H", "OFF", "ON", "ROWS", "SMALL", "WIDTH", "canvas", "cells", "fit", "hint",
           "inverted_row", "prompt", "row_box", "rows", "rows_at", "seats_text", "segments", "title", "waiting", "names", "who", "whos"]
