"""The join screen: a free phone seat's QR code (its join address) and its short code, for the table
display (or seat 1's OLED in the lobby, on a box without one).

The QR code is drawn dark on a lit square, as a camera expects it, a module at least a third of a
millimetre where the code's letters still fit beside it at the size the panel needs (two pixels a
module on a 1.3" glass, one on a 2.42"), else one pixel (on a 0.96" glass: 5 mm, scanned from close). The code is typed on the
page the screen names (``/join``), so its letters stand apart: each starts a few columns after the
last one's ink ends, whatever their shapes.

A join screen is a seat's key: its image says so (``image.info["join"]``, the seat), and a page that
is not the host's is shown :func:`elsewhere` instead (:mod:`companion.web.hub`).
"""
from __future__ import annotations

from dataclasses import replace
from functools import cache

from companion.words import say

from . import oled
from .oled import HEIGHT, OFF, ON, WIDTH, canvas, face, frame, lay
from .reading import SMALLEST, Panel
from .screen import Screen

JOIN_PAGE = "/join"
MODULE_MM = 0.33            # a QR module this large or more (a code of 10 mm) scans from across a table


@cache
def qr_matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR code of ``url`` as rows of dark modules (True), without its quiet zone."""
    import segno        # only once a phone seat is free: its chain (urllib, email, ssl) costs the box 5 MB

    code = segno.make(url, error="l", micro=False, boost_error=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix)


def draw_qr(draw, url: str, left: int = 0, scale: int = 2) -> int:
    """Draw ``url``'s QR code at ``left``, ``scale`` pixels a module (fewer where the height has no room), in the
    middle of the screen's height; returns the width it took."""
    matrix = qr_matrix(url)
    side, scale, quiet = _qr_side(len(matrix), scale)
    top = (HEIGHT - side) // 2
    draw.rectangle((left, top, left + side - 1, top + side - 1), fill=ON)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = left + quiet + x * scale, top + quiet + y * scale
                draw.rectangle((x0, y0, x0 + scale - 1, y0 + scale - 1), fill=OFF)
    return side


def _qr_side(size: int, scale: int) -> tuple[int, int, int]:
    """A QR code of ``size`` modules at ``scale`` (or fewer to fit the height): its side, scale and quiet zone
    (at two pixels a module, what the height leaves; at one, a module)."""
    scale = max(1, min(scale, (HEIGHT - 2) // (size + 2)))
    quiet = (HEIGHT - size * scale) // 2 if scale > 1 else 1
    return size * scale + 2 * quiet, scale, quiet


def page(url: str) -> tuple[str, ...]:
    """The page a phone opens to type the code: the join address's host and /join (then broken after the host,
    for two lines), else the page alone."""
    base = url.split("://", 1)[-1].rsplit("/J/", 1)[0]
    host, colon, port = base.partition(":")
    return (base + JOIN_PAGE, f"{host} {colon}{port}{JOIN_PAGE}", say("at {page}", page=JOIN_PAGE))


def _gap(panel: Panel) -> int:
    return max(2, face(panel, "body").cap // 5)


def spaced_width(code: str, panel: Panel) -> int:
    """The columns ``code`` takes with its letters apart."""
    letters = face(panel, "body")
    return sum(box[2] - box[0] + 1 for box in map(letters.box, code) if box) + _gap(panel) * (len(code) - 1)


def spaced(draw, left: int, top: int, code: str, panel: Panel) -> tuple[int, int, int, int]:
    """``code`` with its letters apart: each begins a few columns after the ink of the one before."""
    letters = face(panel, "body")
    baseline = top + letters.above + letters.cap
    x, ink = left, None
    for letter in code:
        bearing = letters.box(letter)
        got = letters.draw(draw, x - (bearing[0] if bearing else 0), baseline, letter, ON)
        if got:
            ink = got if ink is None else (ink[0], min(ink[1], got[1]), got[2], max(ink[3], got[3]))
            x = got[2] + 1 + _gap(panel)
    box = (left, top, WIDTH - 1, top + letters.height - 1)
    oled.record({"role": "body", "box": box, "asked": code, "lines": [code], "ink": ink,
                 "whole": ink is not None and ink[2] < WIDTH, "caps": [letters.cap], "spaced": True})
    return box


def describe_screen(seat: int, code: str, url: str, keys: str = "") -> Screen:
    """Seat ``seat`` is free to join from a phone: scan the code (the board: its QR code's rows of modules, 1
    dark), or open the page and type it. ``keys``: what seat 1's buttons do meanwhile (in the lobby)."""
    return Screen(status=(say("Seat {seat}", seat=seat), str(seat)), prompt=code,
                  lines=(page(url), *((keys,) if keys else ())),
                  board={"seat": seat, "code": code, "url": url,
                         "qr": ["".join("1" if dark else "0" for dark in row) for row in qr_matrix(url)]})


def screen(seat: int, code: str, url: str, keys: str = "", panel: Panel = SMALLEST):
    """The QR code, the code's letters apart beside it, and the rest of the description under the code."""
    image = beside_qr(describe_screen(seat, code, url, keys), code, url, panel)
    image.info["join"] = seat
    return image


def beside_qr(words: Screen, code: str, url: str, panel: Panel):
    """``url``'s QR code at the left, ``code``'s letters apart beside it, and the rest of ``words`` (but its prompt
    and board) under the code."""
    image, draw = canvas()
    beside = WIDTH - spaced_width(code, panel) - 2 * oled.MARGIN - 1      # the QR code's room beside the code
    scale = 2 if panel.mm_per_px < MODULE_MM and beside >= _qr_side(len(qr_matrix(url)), 2)[0] else 1
    right = draw_qr(draw, url, scale=scale) + 1
    box = spaced(draw, right + oled.MARGIN, 0, code, panel)
    lay(draw, replace(words, prompt="", board=None), panel, (right, box[3] + 1, WIDTH - 1, HEIGHT - 1))
    return image


def describe_elsewhere(seat: int) -> Screen:
    """What a page that is not the host's shows instead of seat ``seat``'s join screen: no code, and where it is."""
    return Screen(title=say("Seat {seat}", seat=seat), status=say("phone"), prompt=say("Free to join"),
                  lines=((say("Its code is on the table display"), say("Code on the table display")),))


def elsewhere(seat: int, panel: Panel = SMALLEST):
    return frame(describe_elsewhere(seat), panel)
