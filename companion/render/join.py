"""The join screen: a free phone seat's QR code (its join address) and its short code, for the table
display (or seat 1's OLED in the lobby, on a box without one).

The QR code is drawn dark on a lit square, as a camera expects it, two pixels a module where it
fits (a version 3 code: 29 modules and a quiet zone of one), else one.

A join screen is a seat's key: its image says so (``image.info["join"]``, the seat), and a page that
is not the host's is shown :func:`elsewhere` instead (:mod:`companion.web.hub`).
"""
from __future__ import annotations

import segno

from .common import ROWS, WIDTH, canvas, fit, rows, rows_at, title
from .layout import BIG, HEIGHT, OFF, ON


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code of ``url`` as rows of dark modules (True), without its quiet zone."""
    code = segno.make(url, error="l", micro=False, boost_error=False)
    return [[bool(module) for module in row] for row in code.matrix]


def draw_qr(draw, url: str, left: int = 0) -> int:
    """Draw ``url``'s QR code at ``left``, filling the screen's height; returns the width it took."""
    matrix = qr_matrix(url)
    size = len(matrix)
    scale = max(1, min(2, (HEIGHT - 2) // (size + 2)))
    quiet = max(1, (HEIGHT - size * scale) // 2)
    side = size * scale + 2 * quiet
    draw.rectangle((left, 0, left + side - 1, side - 1), fill=ON)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = left + quiet + x * scale, quiet + y * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=OFF)
    return side


def screen(seat: int, code: str, url: str, keys: str = "code at /j"):
    """Seat ``seat`` is free to join from a phone: scan the code, or open the address and type it.
    ``keys``: the bottom line (seat 1's lobby names its buttons there)."""
    image, draw = canvas()
    right = draw_qr(draw, url) + 3
    rows_at(draw, right, [f"Seat {seat}", "scan, or"], start=0)
    fit(draw, (right, ROWS[2] + 1, WIDTH - 1, ROWS[3] + 10), code, font=BIG, wrap=False)
    rows_at(draw, right, [keys], start=4)
    image.info["join"] = seat
    return image


def elsewhere(seat: int):
    """What a page that is not the host's shows instead of seat ``seat``'s join screen: no code, and where it is."""
    image, draw = canvas()
    title(draw, f"Seat {seat}", "phone")
    rows(draw, ["is free to join:", "its code is on", "the table display"], start=1)
    return image
