"""luma's SSD1306 and SH1106 drivers, sending only the pages and columns that changed since the last frame.

Both controllers hold the picture in 8 pages (rows of 8 pixels) of columns, a
byte per column. luma always sends all 1024 bytes: 23 ms at 400 kHz, 93 ms at
100 kHz. These subclasses keep luma's whole interface (``display``, ``clear``,
``cleanup``, contrast, rotation) and remember the bytes they last sent; a
frame then sends, per changed page, the columns from its first changed byte
to its last. The SSD1306 writes each run of changed pages through one column
and page window (0x21, 0x22) when that costs fewer bytes than page by page;
the SH1106 has no window, so each changed page gets its page (0xB0|page) and
column (low and high nibble, after its 2-column offset on 132-column RAM).

A device knows nothing of the glass until it has sent a whole frame: a new one
(as after a reconnect) sends luma's clear at set-up in full, and a frame that
fails part-way leaves the next one to be sent in full.
"""
from __future__ import annotations

from luma.oled.device import sh1106, ssd1306
from PIL import Image

REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
OVERHEAD = 10           # wire bytes each extra window costs: the command transfer and the data's address bytes


def page_bytes(image: Image.Image, pages: int) -> list[bytes]:
    """The controller's RAM for ``image``: per page, a byte per column, its top pixel in bit 0."""
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes()      # a row per column, top pixel first
    return [columns[page::pages].translate(REVERSED) for page in range(pages)]


def changed_columns(old: bytes, new: bytes) -> tuple[int, int] | None:
    """The first and last column that differ, or None."""
    if old == new:
        return None
    lo = next(i for i, (a, b) in enumerate(zip(old, new)) if a != b)
    hi = len(new) - 1 - next(i for i, (a, b) in enumerate(zip(old[::-1], new[::-1])) if a != b)
    return lo, hi


class ChangedPages:
    """What both controllers share: the frame as page bytes, compared with what was last sent."""

    _shown: list[bytes] | None = None
    WINDOWS = False         # can one write span pages (the SSD1306's column and page window)?

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size
        pages = page_bytes(self.preprocess(image), self._pages)
        shown, self._shown = self._shown, None          # unknown until every change is on the glass
        for first, last, lo, hi in self._regions(shown, pages):
            self._write(first, last, lo, hi, b"".join(pages[p][lo:hi + 1] for p in range(first, last + 1)))
        self._shown = pages

    def _regions(self, shown: list[bytes] | None, pages: list[bytes]) -> list[tuple[int, int, int, int]]:
        """(first page, last page, first column, last column) of each write, fewest wire bytes first-fit."""
        changed = [(p, (0, self._w - 1) if shown is None else changed_columns(shown[p], pages[p]))
                   for p in range(self._pages)]
        out: list[tuple[int, int, int, int]] = []
        for page, columns in changed:
            if columns is None:
                continue
            lo, hi = columns
            if out and self.WINDOWS:
                first, last, glo, ghi = out[-1]
                merged = (page - first + 1) * (max(hi, ghi) - min(lo, glo) + 1)
                apart = (last - first + 1) * (ghi - glo + 1) + OVERHEAD + hi - lo + 1
                if merged <= apart:
                    out[-1] = (first, page, min(lo, glo), max(hi, ghi))
                    continue
            out.append((page, page, lo, hi))
        return out


class ChangedSSD1306(ChangedPages, ssd1306):
    WINDOWS = True

    def _write(self, first: int, last: int, lo: int, hi: int, data: bytes) -> None:
        self.command(self._const.COLUMNADDR, self._colstart + lo, self._colstart + hi,
                     self._const.PAGEADDR, first, last)
        self.data(list(data))


class ChangedSH1106(ChangedPages, sh1106):
    def _write(self, first: int, last: int, lo: int, hi: int, data: bytes) -> None:
        column = self._page_address_offset + lo
        self.command(0xB0 | first, column & 0x0F, 0x10 | column >> 4)
        self.data(list(data))


DRIVERS = {"ssd1306": ChangedSSD1306, "sh1106": ChangedSH1106}
