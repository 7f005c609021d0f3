"""``molebox wiring stripboard``: the hub's stripboard (or, with ``--board io``, the IO board's) drawn from the
component side, hole by hole.

The strips are drawn pale under the holes, as the copper shows through a board held to the light; a
red bar across a strip is a cut; a wire link is a coloured line between two holes; each pad's wire
leaves the board to the part its label names. Under the board, the list of pieces and the cuts, as the
builder ticks them off.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from . import drc, ioboardstrip, stripboard, svgdoc, textwidth
from .diagram import NET_STYLES
from .profile import Profile
from .stripboard import HEADER_ROWS, Board
from .svgdoc import text as _text

PITCH, MARGIN, SMALL = 24, 20, 8
LABEL = 190                 # room for a header pad's label beside the board


def layout(profile: Profile, io: bool = False) -> Board:
    """The hub's stripboard of ``profile``, or its IO board's."""
    return (ioboardstrip if io else stripboard).layout(profile)


def svg(profile: Profile, io: bool = False) -> str:
    """The hub's stripboard of ``profile`` (its IO board's, with ``io``) as an SVG document."""
    board = layout(profile, io)
    left, top = MARGIN + LABEL, MARGIN + 70 + 15 * len(board.waived)
    width = left + board.width * PITCH + LABEL + MARGIN
    root = svgdoc.root()
    _text(root, MARGIN, MARGIN + 14, f"The {'IO board' if io else 'hub'} of {profile.name} on stripboard, component "
          "side, strips left to right", 15, bold=True)
    _text(root, MARGIN, MARGIN + 34, "Red bars: cut the strip there (two knife cuts 1 mm apart, lift the copper "
          "between). Coloured lines: wire links. Every pad's wire goes where its label says.")
    problems = drc.check(board)
    _text(root, MARGIN, MARGIN + 52, "Design-rule check: " + ("every net continuous, one net per strip segment, "
          "no supply above 3.3 V beside logic" if not problems else f"{len(problems)} problems: {problems[0]}"))
    for n, (pair, why) in enumerate(board.waived.items(), 1):
        _text(root, MARGIN, MARGIN + 52 + 15 * n, f"Side by side by design ({' and '.join(sorted(pair))}): {why}")
    _board(root, board, left, top)
    y = _pieces(root, board, MARGIN, top + board.height * PITCH + 30, width - 2 * MARGIN)
    return svgdoc.finish(root, width, y + MARGIN)


def _at(left: float, top: float, hole: tuple[int, int]) -> tuple[float, float]:
    return left + (hole[0] + 0.5) * PITCH, top + (hole[1] + 0.5) * PITCH


def _board(root: ET.Element, board: Board, left: float, top: float) -> None:
    g = ET.SubElement(root, "g", {"class": "board"})
    ET.SubElement(g, "rect", x=f"{left - 4:g}", y=f"{top - 4:g}", width=f"{board.width * PITCH + 8:g}",
                  height=f"{board.height * PITCH + 8:g}", fill="#f3e3c3", stroke="#8a6d3b")
    for row in range(board.height):
        ET.SubElement(g, "rect", {"class": "strip", "data-row": str(row)}, x=f"{left + 2:g}",
                      y=f"{top + row * PITCH + 5:g}", width=f"{board.width * PITCH - 4:g}", height=f"{PITCH - 10:g}",
                      fill="#e8c08a")
        for x in range(board.width):
            cx, cy = _at(left, top, (x, row))
            ET.SubElement(g, "circle", cx=f"{cx:g}", cy=f"{cy:g}", r="2.5", fill="#ffffff")
        if row in board.strips:
            _text(g, left + board.width * PITCH + 10, top + (row + 0.5) * PITCH + 4, f"{board.strips[row]} strip",
                  bold=True)
    for row, caption in board.captions.items():
        _text(g, left + board.width * PITCH / 2, top + (row + 0.5) * PITCH + 4, caption, SMALL, anchor="middle")
    for x, row in sorted(board.cuts):
        cut = left + (x + 1) * PITCH
        ET.SubElement(g, "rect", {"class": "cut", "data-x": str(x), "data-row": str(row)}, x=f"{cut - 2.5:g}",
                      y=f"{top + row * PITCH + 2:g}", width="5", height=f"{PITCH - 4:g}", fill="#d62728")
    for piece in board.pieces:
        _piece(g, piece, board, left, top)


def _piece(g: ET.Element, piece, board: Board, left: float, top: float) -> None:
    node = ET.SubElement(g, "g", {"class": piece.kind, "data-ref": piece.ref})
    points = [_at(left, top, hole) for hole in piece.holes]
    colour = NET_STYLES.get(piece.nets[0], ("#555555", ""))[0]
    if piece.kind == "header":
        xs = [p[0] for p in points]
        ET.SubElement(node, "rect", x=f"{min(xs) - 10:g}", y=f"{top + 1:g}", width=f"{max(xs) - min(xs) + 20:g}",
                      height=f"{HEADER_ROWS * PITCH - 2:g}", fill="none", stroke="#222222", **{"stroke-width": "2"})
        ET.SubElement(node, "polygon", points=f"{min(xs) - 10},{top + 1} {min(xs) - 2},{top + 1} {min(xs) - 10},"
                      f"{top + 9}", fill="#222222")
        odd = min(h[0] for h in piece.holes)
        for (x, y), hole in zip(points, piece.holes):
            ET.SubElement(node, "rect", x=f"{x - 4:g}", y=f"{y - 4:g}", width="8", height="8", fill="#222222")
            _text(node, x, y - 6, str(2 * hole[1] + (1 if hole[0] == odd else 2)), SMALL, anchor="middle")
        return
    if piece.kind in ("pico", "chip"):
        _module(node, piece, points)
        return
    if piece.kind in ("link", "resistor", "fuse", "capacitor", "electrolytic", "diode"):
        (x1, y1), (x2, y2) = points
        ET.SubElement(node, "line", x1=f"{x1:g}", y1=f"{y1:g}", x2=f"{x2:g}", y2=f"{y2:g}",
                      stroke=colour if piece.kind == "link" else "#444444", **{"stroke-width": "2.5"})
        if piece.kind != "link":
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            w, h = (30, 10) if y1 == y2 else (10, 30)
            fill = {"resistor": "#c9b38a", "fuse": "#f2c94c", "capacitor": "#5b8def", "diode": "#555555",
                    "electrolytic": "#1f3f7a"}[piece.kind]
            ET.SubElement(node, "rect", x=f"{mx - w / 2:g}", y=f"{my - h / 2:g}", width=f"{w:g}", height=f"{h:g}",
                          rx="3", fill=fill, stroke="#333333")
            if piece.kind == "diode":           # the band, at the cathode's end (its second leg)
                bx = mx + (w / 2 - 5) * (1 if x2 > x1 else -1)
                ET.SubElement(node, "rect", x=f"{bx - 1.5:g}", y=f"{my - h / 2:g}", width="3", height=f"{h:g}",
                              fill="#ffffff")
            if piece.kind == "electrolytic":    # its stripe at the minus leg (its second), a + by the first
                sy = my + (h / 2 - 5) * (1 if y2 > y1 else -1)
                ET.SubElement(node, "rect", x=f"{mx - w / 2:g}", y=f"{sy - 1.5:g}", width=f"{w:g}", height="3",
                              fill="#ffffff")
                _text(node, x1 - 7, y1 + 3, "+", SMALL + 2, anchor="end", bold=True)
            _text(node, mx, my - 8 if y1 == y2 else my + 3, piece.ref, SMALL, anchor="middle" if y1 == y2 else "start")
    for x, y in points:
        ET.SubElement(node, "circle", cx=f"{x:g}", cy=f"{y:g}", r="3.5", fill="#222222")
    if piece.kind == "pad":
        (x, y), (column, row) = points[0], piece.holes[0]
        ET.SubElement(node, "circle", cx=f"{x:g}", cy=f"{y:g}", r="6", fill="none", stroke="#222222")
        if column in (0, board.width - 1) and row not in board.strips:
            edge = column == 0
            _text(node, left - 8 if edge else left + board.width * PITCH + 8, y + 4, f"{piece.ref}: {piece.label}",
                  anchor="end" if edge else "start")
        else:
            _text(node, x, y - 8, piece.ref, SMALL, anchor="middle")


def _module(node: ET.Element, piece, points) -> None:
    """The Pico or a DIP chip: its outline over its two pin rows, each leg numbered, pin 1 first."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    pico = piece.kind == "pico"
    ET.SubElement(node, "rect", x=f"{min(xs) - 10:g}", y=f"{min(ys) - 12:g}", width=f"{max(xs) - min(xs) + 20:g}",
                  height=f"{max(ys) - min(ys) + 24:g}", rx="4", fill="#2e7d32" if pico else "#333333",
                  stroke="#1b5e20" if pico else "#111111", **{"fill-opacity": "0.35", "stroke-width": "2"})
    mx = (min(xs) + max(xs)) / 2
    _text(node, mx, min(ys) - 16, f"{piece.ref} {piece.value}, {piece.label}", SMALL, anchor="middle", bold=True)
    for n, (x, y) in enumerate(points, 1):
        ET.SubElement(node, "rect", x=f"{x - 4:g}", y=f"{y - 4:g}", width="8", height="8", fill="#222222")
        _text(node, x + (8 if x < mx else -8), y + 3, str(n), SMALL, anchor="start" if x < mx else "end")


def _pieces(root: ET.Element, board: Board, x: float, y: float, limit: float) -> float:
    """The list under the board: each piece with its value and where its legs or its wire go."""
    g = ET.SubElement(root, "g", {"class": "pieces"})
    _text(g, x, y, "Pieces, as placed (hole: column from the left, strip from the top, both from 0)", bold=True)
    lines = []
    for piece in board.pieces:
        holes = " and ".join(f"({c}, {r})" for c, r in piece.holes[:2]) if len(piece.holes) <= 2 else \
            f"pin 1 at ({piece.holes[0][0]}, {piece.holes[0][1]})"
        what = {"header": f"{piece.value}, keyed, pin 1 top left: {piece.label}",
                "pico": f"{piece.value}, {piece.label}, on two 20-pin header strips",
                "chip": f"{piece.value}, {piece.label}",
                "link": f"wire link, {piece.label}", "pad": f"wire to {piece.label}"}.get(
            piece.kind, f"{piece.kind} {piece.value}{', ' + piece.label if piece.label else ''}")
        lines.append(f"{piece.ref}  {what}  at {holes}")
    cuts = ", ".join(f"({c}|{c + 1}, {r})" for c, r in sorted(board.cuts, key=lambda cut: (cut[1], cut[0])))
    lines.append(f"{len(board.cuts)} cuts, between the holes (left|right, strip): {cuts}")
    for line in lines:
        for part in textwidth.wrap(line, SMALL + 2, limit):
            y += 15
            _text(g, x, y, part, SMALL + 2)
    return y

