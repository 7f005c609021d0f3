"""The stripboard's design-rule check, as a PCB tool runs one: every strip, cut and leg held to the nets.

A strip is cut into segments; each segment carries the one net of every leg in it. The rules: every
leg on the board, no two in one hole and none under a link or a resistor's body; no two nets on one segment (a cut missing); every net one
piece (segments joined by wire links, or inside a module: the Pi for its several GND and 3V3 pins, the
Pico for its GND pins); and no segment of a supply above 3.3 V beside (the strip above or below, or across
a cut) a logic segment or another supply's (``wiring/guard.py``), but for a pair the board waives, with its
reason (a chip's own neighbouring pins).
"""
from __future__ import annotations

from collections import defaultdict

from . import guard
from .stripboard import Board

MODULES = ("header", "pico")         # the legs of one net meet inside it: the Pi's header, the Pico


def segments(board: Board) -> dict[tuple[int, int], tuple[int, int, int]]:
    """{hole: (row, first column, last column) of the segment it lies on} for every hole of the board."""
    out = {}
    for row in range(board.height):
        start = 0
        for x in range(board.width):
            if (x, row) in board.cuts or x == board.width - 1:
                for column in range(start, x + 1):
                    out[column, row] = (row, start, x)
                start = x + 1
    return out


def nets(board: Board) -> dict[tuple[int, int, int], set[str]]:
    """Each segment with legs in it: the nets those legs must meet."""
    where = segments(board)
    out = defaultdict(set)
    for piece in board.pieces:
        for hole, net in zip(piece.holes, piece.nets):
            if hole in where:
                out[where[hole]].add(net)
    return out


def check(board: Board) -> list[str]:
    """Every rule the board breaks, one line each (empty: build it)."""
    return _holes(board) + _shared(board) + _continuity(board) + _neighbours(board)


def _holes(board: Board) -> list[str]:
    covered = board.covered()
    out = [f"{piece.ref}'s leg at ({x}, {y}) lies under {covered[x, y]}" for piece in board.pieces
           for x, y in piece.holes if (x, y) in covered]
    seen = {}
    for piece in board.pieces:
        for x, y in piece.holes:
            if not (0 <= x < board.width and 0 <= y < board.height):
                out.append(f"{piece.ref}: a leg at ({x}, {y}) is off the {board.width} x {board.height} board")
            elif (x, y) in seen:
                out.append(f"{piece.ref} and {seen[x, y]} share the hole at ({x}, {y})")
            seen.setdefault((x, y), piece.ref)
    return out


def _shared(board: Board) -> list[str]:
    return [f"strip {row}, holes {a}-{b}, carries {' and '.join(sorted(found))}: a cut is missing"
            for (row, a, b), found in sorted(nets(board).items()) if len(found) > 1]


def copper(board: Board, through: tuple[str, ...] = ("link",)):
    """root(hole): which piece of copper a hole is on, through its strip, wire links (and the kinds of piece in
    ``through``) and the modules' insides; two holes with one root are joined."""
    where, parent = segments(board), {}

    def root(node):
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    def join(a, b):
        parent[root(a)] = root(b)

    for piece in board.pieces:
        if piece.kind in through:
            join(where[piece.holes[0]], where[piece.holes[1]])
        if piece.kind in MODULES:
            first = {}
            for hole, net in zip(piece.holes, piece.nets):
                join(where[hole], where[first.setdefault(net, hole)])
    return lambda hole: root(where[hole])


def _continuity(board: Board) -> list[str]:
    root = copper(board)
    groups = defaultdict(set)
    for (row, a, b), found in nets(board).items():
        for net in found:
            groups[net].add(root((a, row)))
    return [f"{net} is in {len(roots)} pieces on the board: a wire link is missing"
            for net, roots in sorted(groups.items()) if len(roots) > 1]


def pins(board: Board) -> dict[tuple[int, int], str]:
    """{hole: "the Pi's pin 2", "U1 pin 40"}: the header's and the chips' legs, by their pin numbers."""
    out = {}
    for piece in board.pieces:
        if piece.kind == "header":
            odd = min(x for x, _ in piece.holes)
            out.update({(x, y): f"the Pi's pin {2 * y + 1 + (x != odd)}" for x, y in piece.holes})
        elif piece.kind in ("pico", "chip"):
            out.update({hole: f"{piece.ref} pin {n}" for n, hole in enumerate(piece.holes, 1)})
    return out


def _neighbours(board: Board) -> list[str]:
    found = {segment: next(iter(n)) for segment, n in nets(board).items() if len(n) == 1}
    legs = pins(board)

    def what(row: int, a: int, b: int, net: str) -> str:
        on = [legs[x, row] for x in range(a, b + 1) if (x, row) in legs]
        return guard.describe(net, board.hot) + "".join(f", {pin}" for pin in on)
    out = []
    for (row, a, b), net in sorted(found.items()):
        beside = [(other, o) for other, o in found.items()
                  if (other[0] == row + 1 and other[1] <= b and a <= other[2]) or (other[0] == row and other[1] == b + 1)]
        for (orow, oa, ob), other in beside:
            if guard.clash(net, other, board.hot) and frozenset((net, other)) not in board.waived:
                how, fix = ("across the cut", "cut the strip twice, a hole apart, so that no bridge across one cut "
                            "joins them") if orow == row else ("on the next strip", "put a ground strip between them")
                out.append(f"strip {row}, holes {a}-{b} ({what(row, a, b, net)}) and strip {orow}, holes "
                           f"{oa}-{ob} ({what(orow, oa, ob, other)}) sit side by side {how}: one solder bridge "
                           f"joins them; {fix}")
    return out
