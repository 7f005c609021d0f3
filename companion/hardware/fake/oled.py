"""An SSD1306 or SH1106 module as its datasheet describes it, for luma's real drivers to write to.

The module keeps the controller's display RAM (8 pages of 128 columns on the
SSD1306, 132 on the SH1106, whose 128 visible ones start at column 2) and its
addressing: the SSD1306's horizontal mode with its column and page window
(0x20, 0x21, 0x22), the page (0xB0|page) and column nibble commands (0x0n,
0x1n) of both. :meth:`FakeOLED.glass` is the picture a player would see. It
can lose power (random RAM, panel off, addressing reset) when it is unplugged.
"""
from __future__ import annotations

import random

from PIL import Image

# Commands that take argument bytes, per controller (all others are one byte).
ARGS = {
    "ssd1306": {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1},
    "sh1106": {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1},
}
COLUMNS = {"ssd1306": 128, "sh1106": 132}
OFFSET = {"ssd1306": 0, "sh1106": 2}         # the SH1106's 128 visible columns start at column 2


class FakeOLED:
    def __init__(self, driver: str = "ssd1306", width: int = 128, height: int = 64, seed: int = 0):
        self.driver, self.width, self.height = driver, width, height
        self.columns, self.pages = COLUMNS[driver], height // 8
        self.rng = random.Random(seed)
        self.present = True
        self.fail_after: int | None = None     # data bytes still accepted before the module goes away
        self.power_on()

    def power_on(self) -> None:
        """Fresh power: RAM full of noise, the panel off, addressing at its reset values."""
        self.ram = [bytearray(self.rng.randbytes(self.columns)) for _ in range(self.pages)]
        self.on, self.horizontal = False, False
        self.page = self.column = 0
        self.col_range, self.page_range = (0, self.columns - 1), (0, self.pages - 1)
        self._pending: list[int] = []

    def command(self, data: list[int]) -> None:
        for byte in data:
            self._pending.append(byte)
            first = self._pending[0]
            if len(self._pending) <= ARGS[self.driver].get(first, 0):
                continue
            self._execute(first, self._pending[1:])
            self._pending = []

    def _execute(self, op: int, args: list[int]) -> None:
        if op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif self.driver == "ssd1306" and op == 0x20:
            self.horizontal = args[0] == 0x00
        elif self.driver == "ssd1306" and op == 0x21:
            self.col_range, self.column = (args[0], args[1]), args[0]
        elif self.driver == "ssd1306" and op == 0x22:
            self.page_range, self.page = (args[0], args[1]), args[0]
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op <= 0x0F:
            self.column = self.column & 0xF0 | op
        elif op <= 0x1F:
            self.column = self.column & 0x0F | (op & 0x0F) << 4

    def data(self, data: list[int]) -> None:
        for byte in data:
            self.ram[self.page][self.column % self.columns] = byte
            self.column += 1
            if self.horizontal and self.column > self.col_range[1]:
                self.column = self.col_range[0]
                self.page = self.page + 1 if self.page < self.page_range[1] else self.page_range[0]

    def glass(self) -> Image.Image:
        """What the panel shows: the RAM's visible columns, or black while it is off."""
        image = Image.new("1", (self.width, self.height), 0)
        if not self.on:
            return image
        pixels = image.load()
        for page in range(self.pages):
            row = self.ram[page]
            for x in range(self.width):
                byte = row[x + OFFSET[self.driver]]
                for bit in range(8):
                    if byte >> bit & 1:
                        pixels[x, page * 8 + bit] = 255
        return image
