"""luma's SSD1306 and SH1106 drivers, sending only the pages and columns that changed since the last frame.

Both controllers hold the picture in 8 pages (rows of 8 pixels) of columns, a
byte per column. luma always sends all 1024 bytes: 23 ms at 400 kHz, 93 ms at
100 kHz. These subclasses keep luma's whole interface (``display``, ``clear``,
``cleanup``, contrast, rotation) and remember the bytes they last sent; a
frame then sends, per changed page, each run of changed columns (runs fewer
than ``SKIP`` unchanged bytes apart joined). The SSD1306 writes through a
column and page window (0x21, 0x22), a run of pages changed in one run of
columns through one window when that costs fewer bytes than page by page, and
a further run on the same page with the column window alone. The SH1106 has no
window: a run gets its page (0xB0|page, unless already there) and column (low
and high nibble, after its 2-column offset on 132-column RAM).

A device knows nothing of the glass until it has sent a whole frame: a new one
(as after a reconnect) sends luma's clear at set-up in full, and a frame that
fails part-way leaves the next one to be sent in full.
"""
from __future__ import annotations

from luma.oled.device import sh1106, ssd1306, ssd1309
from PIL import Image

REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
WINDOW = 10         # wire bytes a write to a new place costs: its command transfer and the data's address and control
SKIP = 7            # unchanged bytes on a page worth skipping: a further write on the same page (3 command bytes)


def page_bytes(image: Image.Image, pages: int) -> list[bytes]:
    """The controller's RAM for ``image``: per page, a byte per column, its top pixel in bit 0."""
    columns = image.transpose(Image.Transpose.TRANSPOSE).tobytes()      # a row per column, top pixel first
    return [columns[page::pages].translate(REVERSED) for page in range(pages)]


def changed_runs(old: bytes, new: bytes) -> list[tuple[int, int]]:
    """The (first, last) columns of each run of changed bytes, runs closer than ``SKIP`` joined."""
    runs: list[list[int]] = []
    for column, (a, b) in enumerate(zip(old, new)):
        if a != b:
            if runs and column - runs[-1][1] <= SKIP:
                runs[-1][1] = column
            else:
                runs.append([column, column])
    return [(lo, hi) for lo, hi in runs]


class ChangedPages:
    """What both controllers share: the frame as page bytes, compared with what was last sent."""

    _shown: list[bytes] | None = None
    WINDOWS = False         # can one write span pages (the SSD1306's column and page window)?

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode and image.size == self.size
        pages = page_bytes(self.preprocess(image), self._pages)
        shown, self._shown = self._shown, None          # unknown until every change is on the glass
        self._at = None                                 # the pages the controller is addressing
        for first, last, lo, hi in self._regions(shown, pages):
            self._write(first, last, lo, hi, b"".join(pages[p][lo:hi + 1] for p in range(first, last + 1)))
        self._shown = pages

    def _regions(self, shown: list[bytes] | None, pages: list[bytes]) -> list[tuple[int, int, int, int]]:
        """(first page, last page, first column, last column) of each write: every changed run of each page;
        where the controller has windows, pages changed in one run joined when that costs fewer wire bytes."""
        out: list[tuple[int, int, int, int]] = []
        for page in range(self._pages):
            runs = [(0, self._w - 1)] if shown is None else changed_runs(shown[page], pages[page])
            if len(runs) == 1 and out and self.WINDOWS and out[-1][1] == page - 1:
                first, last, glo, ghi = out[-1]
                (lo, hi), = runs
                merged = (page - first + 1) * (max(hi, ghi) - min(lo, glo) + 1)
                apart = (last - first + 1) * (ghi - glo + 1) + WINDOW + hi - lo + 1
                if merged <= apart:
                    out[-1] = (first, page, min(lo, glo), max(hi, ghi))
                    continue
            out += [(page, page, lo, hi) for lo, hi in runs]
        return out


class ChangedSSD1306(ChangedPages, ssd1306):
    WINDOWS = True

    def _write(self, first: int, last: int, lo: int, hi: int, data: bytes) -> None:
        window = (self._const.COLUMNADDR, self._colstart + lo, self._colstart + hi)
        if self._at != (first, last):               # a whole window written leaves the page pointer at its first
            window += (self._const.PAGEADDR, first, last)
            self._at = (first, last)
        self.command(*window)
        self.data(list(data))


class ChangedSH1106(ChangedPages, sh1106):
    def _write(self, first: int, last: int, lo: int, hi: int, data: bytes) -> None:
        column = self._page_address_offset + lo
        place = (column & 0x0F, 0x10 | column >> 4)
        if self._at != first:
            place = (0xB0 | first,) + place
            self._at = first
        self.command(*place)
        self.data(list(data))


class ChangedSSD1309(ChangedSSD1306, ssd1309):
    """The 2.42" panel's controller: an SSD1306's commands."""


DRIVERS = {"ssd1306": ChangedSSD1306, "sh1106": ChangedSH1106, "ssd1309": ChangedSSD1309}
