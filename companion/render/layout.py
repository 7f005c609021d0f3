"""Words in a 7-pixel bitmap font, as every screen drew them before type was sized in millimetres.

Only companion/web/pin.py draws with it still (its host PIN stamp and its copy of the PIN screen, which
:mod:`companion.render.pin` now draws to the rules); it goes when that copy goes. Its placements are
recorded where :func:`companion.render.oled.recording` keeps the others, with their 7- and 14-pixel
capitals, so the layout test finds them too small (``tests/companion/test_layout.py``).

:func:`fit` draws text inside a box: as it is when it fits; else each word that has a short form in
:data:`SHORT` shortened; else the next of the alternatives the caller gave; else wrapped over the
lines the box has room for.
"""
from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from . import oled

ON, OFF = 255, 0
WIDTH, HEIGHT = 128, 64
_FONT = ImageFont.load_default_imagefont()

#: words and their short forms, tried in turn when a line is too long
SHORT = {
    "Mignettes": "Migs", "mignettes": "migs", "Mignette": "Mig", "mignette": "mig",
    "Whack and Win!": "W&W", "Mole Park: Whack and Win!": "Mole Park", "Mouse Madness": "Mouse M.",
    "Whakka Mole": "Whakka", "Gardener": "Gardnr", "seconds": "s", "points": "pts", "point": "pt",
    "waiting": "wait", "Waiting": "Wait", "computer": "comp.", "stars": "*", "star": "*",
}


@dataclass(frozen=True)
class Font:
    scale: int

    @property
    def char_w(self) -> int:
        return 6 * self.scale

    @property
    def cell_h(self) -> int:
        """A line's cell: from the highest ink's row above down to the descenders' last row below."""
        return 11 * self.scale

    @property
    def ink_top(self) -> int:
        """Rows of a cell above its highest ink (a $'s top; capitals start a row lower)."""
        return self.scale

    @property
    def ink_h(self) -> int:
        """From the highest ink to the descenders' bottoms: a line's height, and the pitch of wrapped lines."""
        return 10 * self.scale

    def width(self, line: str) -> int:
        return self.char_w * len(line)


SMALL, BIG = Font(1), Font(2)


def _glyph_rows() -> dict[str, tuple[int, int]]:
    """Each character's first and last row of ink in its 11-row cell (the font's own, measured once)."""
    out = {}
    for code in range(33, 127):
        glyph = Image.new("1", (6, 11), 0)
        ImageDraw.Draw(glyph).text((0, 0), chr(code), font=_FONT, fill=1)
        box = glyph.getbbox()
        if box:
            out[chr(code)] = (box[1], box[3] - 1)
    return out


_ROWS = _glyph_rows()


def ink_rows(line: str, font: Font) -> tuple[int, int]:
    """The first and last row of a line's ink in its cell (a line of blanks: its nominal rows)."""
    rows = [_ROWS.get(ch, (1, 10)) for ch in line if ch != " "]
    if not rows:
        return font.ink_top, font.ink_top + font.ink_h - 1
    return min(r[0] for r in rows) * font.scale, (max(r[1] for r in rows) + 1) * font.scale - 1


def _shortened(text: str) -> str:
    for long in sorted(SHORT, key=len, reverse=True):          # the longest phrase first
        text = text.replace(long, SHORT[long])
    return text


def _wrapped(text: str, per_line: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def lines_for(box: tuple[int, int, int, int], font: Font) -> int:
    """How many lines of ``font`` the box has room for."""
    return max(0, (box[3] - box[1] + 1) // font.ink_h)


def plan(box: tuple[int, int, int, int], text: str | tuple[str, ...], font: Font = SMALL,
         wrap: bool = True) -> tuple[list[str], bool]:
    """The lines ``text`` takes in ``box`` (its alternatives in turn), and whether they fit whole."""
    per_line = (box[2] - box[0] + 1) // font.char_w
    rooms = lines_for(box, font) if wrap else min(1, lines_for(box, font))
    height = box[3] - box[1] + 1
    choices = [text] if isinstance(text, str) else list(text)
    for choice in choices:
        for candidate in (choice, _shortened(choice)):
            top, bottom = ink_rows(candidate, font)
            if len(candidate) <= per_line and bottom - top + 1 <= height:
                return [candidate], True
    for choice in choices:
        for candidate in (choice, _shortened(choice)):
            lines = _wrapped(candidate, per_line)
            if rooms >= len(lines) and all(len(line) <= per_line for line in lines):
                return lines, True
    last = _shortened(choices[-1])
    return _wrapped(last, per_line)[:max(rooms, 1)] or [last[:per_line]], False


def fit(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str | tuple[str, ...],
        font: Font = SMALL, align: str = "left", valign: str = "middle", fill: int = ON, wrap: bool = True) -> None:
    """Draw ``text`` (or the first of its alternatives that fits) inside ``box`` = (left, top, right, bottom),
    all inclusive. ``align``: left, centre or right; ``valign``: top, middle (by the ink of the letters drawn) or
    baseline (the last line's descenders on the box's bottom row: the letters sit where they would whatever they are)."""
    lines, whole = plan(box, text, font, wrap)
    per_line = (box[2] - box[0] + 1) // font.char_w
    lines = [line[:per_line] for line in lines]
    pitch = font.ink_h
    if len(lines) == 1:                           # one line: its own ink, placed in the box
        first, last = ink_rows(lines[0], font)
        skip, height = first, last - first + 1
    else:
        skip, height = font.ink_top, len(lines) * pitch
    if valign == "baseline":
        skip, top = 0, box[3] + 1 - (len(lines) - 1) * pitch - font.cell_h
    else:
        top = box[1] if valign == "top" else box[1] + max(0, (box[3] - box[1] + 1 - height) // 2)
    ink = None
    for i, line in enumerate(lines):
        width = font.width(line)
        x = {"left": box[0], "right": box[2] + 1 - width, "centre": box[0] + (box[2] - box[0] + 1 - width) // 2}[align]
        y = top + i * pitch - skip
        drawn = _draw(draw, (x, y), line, font, fill)
        ink = drawn if ink is None else (min(ink[0], drawn[0]), min(ink[1], drawn[1]),
                                         max(ink[2], drawn[2]), max(ink[3], drawn[3])) if drawn else ink
    if oled._records is not None:
        oled._records.append({"role": "prompt" if font is BIG else "body", "box": box, "asked": text, "lines": lines,
                              "ink": ink, "whole": whole, "caps": [7 * font.scale] * len(lines)})


def _draw(draw: ImageDraw.ImageDraw, xy: tuple[int, int], line: str, font: Font, fill: int):
    """One line at ``xy`` (its cell's top-left); the ink's bounding box (inclusive), or None for blanks."""
    if font.scale == 1:
        draw.text(xy, line, font=_FONT, fill=fill)
        if oled._records is None:
            return None
        glyphs = Image.new("1", (font.width(line) or 1, 11), 0)
        ImageDraw.Draw(glyphs).text((0, 0), line, font=_FONT, fill=1)
    else:
        glyphs = Image.new("1", (6 * len(line) or 1, 11), 0)
        ImageDraw.Draw(glyphs).text((0, 0), line, font=_FONT, fill=1)
        glyphs = glyphs.resize((glyphs.width * font.scale, glyphs.height * font.scale), Image.NEAREST)
        draw.bitmap(xy, glyphs, fill=fill)
    bbox = glyphs.getbbox()
    if bbox is None:
        return None
    return xy[0] + bbox[0], xy[1] + bbox[1], xy[0] + bbox[2] - 1, xy[1] + bbox[3] - 1
