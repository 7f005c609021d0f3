"""The OLEDs' letters: outline fonts drawn one bit deep, at a cap height in pixels, for any name.

Every character is drawn by the first face of :data:`CHAIN` that has it: DejaVu Sans Condensed for
Latin (with its diacritics and Vietnamese), Greek and Cyrillic, WenQuanYi Micro Hei for Chinese,
Japanese and Korean (Debian's fonts-dejavu-extra and fonts-wqy-microhei, both in Raspberry Pi OS's
archive, which ``systemd/install.sh`` and ``.ci/apt-packages`` install). A face that is not installed is
skipped; with none at all, Pillow's own font draws what it can. A character no face has is drawn as
its first face's empty box: a name never faults a screen.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path("/usr/share/fonts/truetype")
CHAIN = (FONTS / "dejavu/DejaVuSansCondensed.ttf", FONTS / "dejavu/DejaVuSans.ttf", FONTS / "wqy/wqy-microhei.ttc")
PACKAGES = dict(zip(CHAIN, ("fonts-dejavu-extra", "fonts-dejavu-core", "fonts-wqy-microhei")))   # Debian's, by face
LAYOUT_PACKAGE = "libfribidi0"      # Pillow lays text out with Raqm only where it finds FriBiDi
MISSING = "\U0010FFFF"          # no font has it: what a face draws for a character it lacks
ACCENTED = "ÅÉŘŻÖ"              # capitals with a mark above: a line leaves room for them
DESCENDING = "gjpqy,李"          # letters below the baseline: a line leaves room for them


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

    def runs(self, text: str) -> tuple[tuple[ImageFont.FreeTypeFont, str], ...]:
        """``text`` as runs of characters drawn by one font each."""
        return _runs(self.cap, text)

    def width(self, text: str) -> int:
        return _width(self.cap, text)

    def box(self, text: str, x: int = 0, baseline: int = 0) -> tuple | None:
        """The ink of ``text`` drawn from ``x`` on ``baseline`` (left, top, right, bottom, inclusive), or None."""
        return _box(self.cap, text, x, baseline)

    def draw(self, draw: ImageDraw.ImageDraw, x: int, baseline: int, text: str, fill: int) -> tuple | None:
        """``text`` from ``x`` on ``baseline``; its ink's box (as :meth:`box`)."""
        at = float(x)
        for font, run in self.runs(text):
            glyphs, left, top = _glyphs(font, run)
            if glyphs is not None:
                draw.bitmap((int(at) + left, baseline + top), glyphs, fill=fill)
            at += _length(font, run)
        return self.box(text, x, baseline)


@lru_cache(maxsize=4096)
def _glyphs(font: ImageFont.FreeTypeFont, run: str) -> tuple[Image.Image | None, int, int]:
    """A run drawn one bit deep, once: its ink as a mask, and where the mask sits from (start, baseline)."""
    left, top, right, bottom = font.getbbox(run, anchor="ls")
    if right <= left or bottom <= top:
        return None, 0, 0
    mask = Image.new("1", (right - left, bottom - top))
    draw = ImageDraw.Draw(mask)
    draw.fontmode = "1"
    draw.text((-left, -top), run, font=font, fill=1, anchor="ls")
    return mask, left, top


@lru_cache(maxsize=4096)
def _runs(cap: int, text: str) -> tuple[tuple[ImageFont.FreeTypeFont, str], ...]:
    out: list[tuple[ImageFont.FreeTypeFont, str]] = []
    for char in text:
        path = _face_of(char)
        font = _font(path, _size_for(path, cap))
        if out and out[-1][0] is font:
            out[-1] = (font, out[-1][1] + char)
        else:
            out.append((font, char))
    return tuple(out)


@lru_cache(maxsize=8192)
def _width(cap: int, text: str) -> int:
    return math.ceil(sum(_length(font, run) for font, run in _runs(cap, text)))


@lru_cache(maxsize=8192)
def _length(font: ImageFont.FreeTypeFont, run: str) -> float:
    return font.getlength(run)


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
    for font, run in _runs(cap, text):
        left, top, right, bottom = font.getbbox(run, anchor="ls")
        if right > left and run.strip():
            drawn = (int(at) + left, top, int(at) + right - 1, bottom - 1)
            ink = drawn if ink is None else (min(ink[0], drawn[0]), min(ink[1], drawn[1]),
                                             max(ink[2], drawn[2]), max(ink[3], drawn[3]))
        at += _length(font, run)
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
