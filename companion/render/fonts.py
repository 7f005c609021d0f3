"""The OLEDs' letters: outline fonts drawn one bit deep, at a cap height in pixels, for any name.

Every character is drawn by the first face of :data:`CHAIN` that has it: DejaVu Sans Condensed for
Latin (with its diacritics and Vietnamese), Greek and Cyrillic, WenQuanYi Micro Hei for Chinese,
Japanese and Korean (Debian's fonts-dejavu-extra and fonts-wqy-microhei, both in Raspberry Pi OS's
archive, which ``systemd/install.sh`` and ``.ci/apt-packages`` install). A face that is not installed is
skipped; with none at all, Pillow's own font draws what it can. A character no face has is drawn as
its first face's empty box: a name never faults a screen.

A line is an English sentence, read left to right, that may hold a name written right to left (Arabic,
Hebrew): the Unicode bidirectional algorithm (FriBiDi's, which Pillow's Raqm layout loads too) orders
its runs, the line's direction left to right whatever its first letter, and Raqm (HarfBuzz) draws each
right-to-left run from the right, its Arabic letters joined. Without FriBiDi (``molebox doctor`` names
``libfribidi0``) there is no Raqm either, and a line is drawn in the order it is written.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

FONTS = Path("/usr/share/fonts/truetype")
CHAIN = (FONTS / "dejavu/DejaVuSansCondensed.ttf", FONTS / "dejavu/DejaVuSans.ttf", FONTS / "wqy/wqy-microhei.ttc")
PACKAGES = dict(zip(CHAIN, ("fonts-dejavu-extra", "fonts-dejavu-core", "fonts-wqy-microhei")))   # Debian's, by face
LAYOUT_PACKAGE = "libfribidi0"      # Pillow lays text out with Raqm only where it finds FriBiDi
MISSING = "\U0010FFFF"          # no font has it: what a face draws for a character it lacks
ACCENTED = "ÅÉŘŻÖ"              # capitals with a mark above: a line leaves room for them
DESCENDING = "gjpqy,李"          # letters below the baseline: a line leaves room for them
ISOLATES = "\N{LEFT-TO-RIGHT ISOLATE}\N{RIGHT-TO-LEFT ISOLATE}\N{FIRST STRONG ISOLATE}\N{POP DIRECTIONAL ISOLATE}"
PAR_LTR = 0x110                 # FriBiDi's FRIBIDI_PAR_LTR: a line's own direction, left to right


@cache
def _fribidi() -> ctypes.CDLL | None:
    """FriBiDi, as Raqm uses it: only where Pillow lays text out with Raqm (directions need it)."""
    if not features.check("raqm"):
        return None
    try:
        return ctypes.CDLL(ctypes.util.find_library("fribidi") or "libfribidi.so.0")
    except OSError:
        return None


def _levels(text: str) -> list[int]:
    """Each character's embedding level in a left-to-right line (odd: right to left), by the Unicode
    bidirectional algorithm; every level 0 where no letter is right to left or FriBiDi is missing."""
    lib = _fribidi()
    if lib is None or not any(unicodedata.bidirectional(char) in ("R", "AL") for char in text):
        return [0] * len(text)
    n = len(text)
    chars, types, brackets = (ctypes.c_uint32 * n)(*map(ord, text)), (ctypes.c_uint32 * n)(), (ctypes.c_uint32 * n)()
    levels, direction = (ctypes.c_int8 * n)(), ctypes.c_uint32(PAR_LTR)
    lib.fribidi_get_bidi_types(chars, n, types)
    lib.fribidi_get_bracket_types(chars, n, types, brackets)
    lib.fribidi_get_par_embedding_levels_ex(types, brackets, n, ctypes.byref(direction), levels)
    return list(levels)


def _visual(pieces: list[list]) -> list[list]:
    """Runs ``[level, ...]`` in the order they are written, in the order they are drawn, left to right (the
    algorithm's rule L2: from the highest level to the lowest odd one, each sequence at least that high reversed)."""
    out = list(pieces)
    top = max((p[0] for p in out), default=0)
    for level in range(top, 0, -1):
        i = 0
        while i < len(out):
            if out[i][0] < level:
                i += 1
                continue
            j = i
            while j < len(out) and out[j][0] >= level:
                j += 1
            out[i:j] = out[i:j][::-1]
            i = j
    return out


@cache
def _installed() -> tuple[Path, ...]:
    return tuple(path for path in CHAIN if path.exists())


@cache
def _font(path: Path | None, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size) if path is None else ImageFont.truetype(str(path), size)


def _ink(font, text: str) -> tuple[bytes, tuple | None]:
    image = Image.new("1", (4 * font.size, 3 * font.size))
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    draw.text((font.size, 2 * font.size), text, font=font, fill=1, anchor="ls")
    box = image.getbbox()
    return image.tobytes(), None if box is None else (box[0] - font.size, box[1] - 2 * font.size,
                                                      box[2] - font.size, box[3] - 2 * font.size)


@cache
def _has(path: Path, char: str) -> bool:
    """Whether the face at ``path`` has a glyph of its own for ``char`` (not the box of a missing one)."""
    font = _font(path, 12)
    return char.isspace() or _mask(font, char) != _mask(font, MISSING)


def _mask(font, char: str) -> tuple:
    mask = font.getmask(char, mode="1")
    return mask.size, Image.Image()._new(mask).tobytes()


def _face_of(char: str) -> Path | None:
    """The first face that has ``char`` (ASCII: the first face, as every text face has it)."""
    faces = _installed()
    if not faces or char < "\x80":
        return faces[0] if faces else None
    return next((path for path in faces if _has(path, char)), faces[0])


@dataclass(frozen=True)
class Face:
    """Letters whose capitals are ``cap`` pixels tall; sizes and drawing for every script."""

    cap: int

    @property
    def above(self) -> int:
        """Rows above the capitals for an accent on one (Ř, É), as this face draws them."""
        return _room(self.cap)[0]

    @property
    def below(self) -> int:
        """Rows under the baseline for descenders (g, y) and CJK's lower edge, as this face draws them."""
        return _room(self.cap)[1]

    @property
    def height(self) -> int:
        """A line's rows, accents to descenders: the pitch of lines of this face."""
        return self.above + self.cap + self.below

    def runs(self, text: str) -> tuple[tuple[ImageFont.FreeTypeFont, str, str | None], ...]:
        """``text`` as runs of characters drawn by one font in one direction each (``"rtl"``, else None: left to
        right), in the order they are drawn from the left."""
        return _runs(self.cap, text)

    def width(self, text: str) -> int:
        return _width(self.cap, text)

    def box(self, text: str, x: int = 0, baseline: int = 0) -> tuple | None:
        """The ink of ``text`` drawn from ``x`` on ``baseline`` (left, top, right, bottom, inclusive), or None."""
        return _box(self.cap, text, x, baseline)

    def draw(self, draw: ImageDraw.ImageDraw, x: int, baseline: int, text: str, fill: int) -> tuple | None:
        """``text`` from ``x`` on ``baseline``; its ink's box (as :meth:`box`)."""
        at = float(x)
        for font, run, direction in self.runs(text):
            glyphs, left, top = _glyphs(font, run, direction)
            if glyphs is not None:
                draw.bitmap((int(at) + left, baseline + top), glyphs, fill=fill)
            at += _length(font, run, direction)
        return self.box(text, x, baseline)


@lru_cache(maxsize=4096)
def _glyphs(font: ImageFont.FreeTypeFont, run: str, direction: str | None) -> tuple[Image.Image | None, int, int]:
    """A run drawn one bit deep, once: its ink as a mask, and where the mask sits from (start, baseline)."""
    left, top, right, bottom = font.getbbox(run, anchor="ls", direction=direction)
    if right <= left or bottom <= top:
        return None, 0, 0
    mask = Image.new("1", (right - left, bottom - top))
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((-left, -top), run, font=font, fill=1, anchor="ls", direction=direction)
    return mask, left, top


@lru_cache(maxsize=4096)
def _runs(cap: int, text: str) -> tuple[tuple[ImageFont.FreeTypeFont, str, str | None], ...]:
    pieces: list[list] = []                 # [level, font, characters], in the order they are written
    for char, level in zip(text, _levels(text)):
        if char in ISOLATES:                # they order the line; they have no ink or width (the algorithm's X9)
            continue
        path = _face_of(char)
        font = _font(path, _size_for(path, cap))
        if pieces and pieces[-1][:2] == [level, font]:
            pieces[-1][2] += char
        else:
            pieces.append([level, font, char])
    return tuple((font, run, "rtl" if level % 2 else None) for level, font, run in _visual(pieces))


@lru_cache(maxsize=8192)
def _width(cap: int, text: str) -> int:
    return math.ceil(sum(_length(font, run, direction) for font, run, direction in _runs(cap, text)))


@lru_cache(maxsize=8192)
def _length(font: ImageFont.FreeTypeFont, run: str, direction: str | None) -> float:
    return font.getlength(run, direction=direction)


@cache
def _room(cap: int) -> tuple[int, int]:
    """Rows above the capitals for their accents and below the baseline for descenders, at ``cap``."""
    return (max(-_box(cap, ch, 0, 0)[1] for ch in ACCENTED) - cap, max(_box(cap, ch, 0, 0)[3] + 1 for ch in DESCENDING))


def _box(cap: int, text: str, x: int, baseline: int) -> tuple | None:
    ink = _ink_at_origin(cap, text)
    return None if ink is None else (ink[0] + x, ink[1] + baseline, ink[2] + x, ink[3] + baseline)


@lru_cache(maxsize=8192)
def _ink_at_origin(cap: int, text: str) -> tuple | None:
    ink, at = None, 0.0
    for font, run, direction in _runs(cap, text):
        left, top, right, bottom = font.getbbox(run, anchor="ls", direction=direction)
        if right > left and run.strip():
            drawn = (int(at) + left, top, int(at) + right - 1, bottom - 1)
            ink = drawn if ink is None else (min(ink[0], drawn[0]), min(ink[1], drawn[1]),
                                             max(ink[2], drawn[2]), max(ink[3], drawn[3]))
        at += _length(font, run, direction)
    return ink


@cache
def _size_for(path: Path | None, cap: int) -> int:
    """The smallest size at which the face at ``path`` draws capitals ``cap`` pixels tall or more, one bit deep."""
    size = cap
    while _cap_of(path, size) < cap:
        size += 1
    return size


@cache
def _cap_of(path: Path | None, size: int) -> int:
    """The rows of ink of a capital H at ``size``, as drawn one bit deep."""
    box = _ink(_font(path, size), "H")[1]
    return box[3] - box[1]


def cap_height(font: ImageFont.FreeTypeFont) -> int:
    """The cap height a font draws, in pixels (the layout test measures every run with it)."""
    return _cap_of(Path(font.path) if isinstance(getattr(font, "path", None), str) else None, font.size)
