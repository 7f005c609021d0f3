"""The IO board as it is soldered: the Pico, its level shifter and resistors on stripboard, from its circuit.

The Pico (``wiring/iocircuit.py``) sits in the top left middle, USB up, its pins 1-20 in one column and 40-21
seven holes to the right, so pin n shares a strip with pin 41 - n: **every one of its 20 strips is cut twice
under it**, beside each pin row, so that no bridge across one cut reaches the other side. A pin on the left
leaves to the left: a row line through its series resistor to its seat's pad, a column line through its
series resistor to a strip of its own that carries the column's pull-up to 3V3 and a pad for every seat's
socket. Below the Pico come the 3V3 and GND strips, then the 74AHCT125 across seven strips (cut twice
between its pin rows, as under the Pico), then a second GND strip, the 5 V strip (the pixel supply in at its
right end through the polyfuse, the 1000 uF across it and GND at the left, by the chain's start) and the chain's
strip, cut between each seat's DIN and DOUT pads. Wire links
join each pin to the strip of its supply; a link or a standing resistor finds the first column where it
crosses no leg. ``wiring/drc.py`` checks it, ``wiring/boardsvg.py`` draws it.
"""
from __future__ import annotations

from .iocircuit import GROUND_PIN, Component, circuit, hot, joined
from .profile import Profile
from .stripboard import FUSE_SPAN, RESISTOR_SPAN, Board, Piece

PICO_ROWS = 20
LEFT, PICO_SPAN = 20, 7                 # the Pico's pin 1 column; its pin rows 0.7 inch apart
RIGHT = LEFT + PICO_SPAN
DIP_SPAN = 3                            # a DIP's pin rows: 0.3 inch apart
STRIPS = {20: "3V3", 21: "GND", 29: "GND", 30: "5V"}
CHIP_TOP, CHIP_LEFT = 22, RIGHT + 6     # the 74AHCT125's pin 1
CHAIN = 31                              # the pixel chain's pads
WIDTH = 46
PAD_PITCH = 3                           # each seat's lamp pads: a column apart from the next seat's
WAIVED = {frozenset({"GP16", "1Y"}): "the 74AHCT125's pins 2 (1A) and 3 (1Y) sit side by side on the chip itself, "
          "so their strips do too: check that pair with a lens and the meter's beep after soldering"}


def layout(profile: Profile) -> Board:
    """The IO board of ``profile``, every part, link, pad and cut placed."""
    return _Layout(profile).board


def seat_column(seat: int) -> int:
    """The column of a seat's lamp pads (5V, GND, DIN; its DOUT one to the right)."""
    return 1 + PAD_PITCH * (seat - 1)


class _Layout:
    def __init__(self, profile: Profile):
        self.parts = circuit(profile)
        self.board = Board(WIDTH, CHAIN + 1, strips=dict(STRIPS), hot=hot(profile), waived=dict(WAIVED))
        self.count: dict[str, int] = {}
        self._chips()
        self._left()
        self._lamps()
        self._right()

    def add(self, kind: str, holes, nets, value: str = "", label: str = "", ref: str = "") -> Piece:
        letter = {"link": "W", "pad": "P"}.get(kind, "")
        if not ref:
            self.count[letter] = self.count.get(letter, 0) + 1
            ref = f"{letter}{self.count[letter]}"
        piece = Piece(ref, kind, tuple(holes), tuple(nets), value, label)
        self.board.pieces.append(piece)
        return piece

    def part(self, ref: str) -> Component:
        return next(p for p in self.parts if p.ref == ref)

    def pads(self, net: str) -> list[Component]:
        return [part for part, _ in joined(self.parts, net) if part.kind == "pad"]

    def pad(self, part: Component, hole: tuple[int, int]) -> None:
        self.add("pad", [hole], part.nets, part.ref, part.label)

    def clear(self, x: int, top: int, bottom: int) -> bool:
        """Whether a piece standing from (x, top) to (x, bottom) meets no leg and lies over no other body."""
        top, bottom = min(top, bottom), max(top, bottom)
        used, covered = self.board.used(), self.board.covered()
        return all((x, row) not in used and (x, row) not in covered for row in range(top, bottom + 1))

    def stand(self, kind: str, net: str, top: int, bottom: int, columns, value: str = "", ref: str = "",
              other: str = "", label: str = "") -> None:
        """A link (or a resistor standing on end) from strip ``top`` to strip ``bottom`` in the first clear column."""
        x = next(x for x in columns if self.clear(x, top, bottom))
        self.add(kind, [(x, top), (x, bottom)], [net, other or net], value, label or (net if kind == "link" else ""),
                 ref)

    def series(self, part: Component, row: int, right: int) -> None:
        """A resistor lying along ``row``, its second leg (the pin's side) at ``right``, a cut between its legs."""
        self.add("resistor", [(right - RESISTOR_SPAN, row), (right, row)], part.nets[::-1], part.value, ref=part.ref)
        self.board.cuts.add((right - RESISTOR_SPAN + 1, row))

    def _chips(self) -> None:
        """The Pico and the 74AHCT125, each with its strips cut twice between its pin rows."""
        pico = self.part("U1")
        holes = [(LEFT, n - 1) if n <= PICO_ROWS else (RIGHT, 2 * PICO_ROWS - n) for n in range(1, 41)]
        self.add("pico", holes, pico.nets, pico.value, "USB up", "U1")
        chip = self.part("U2")
        pins = len(chip.nets) // 2
        holes = [(CHIP_LEFT, CHIP_TOP + n - 1) if n <= pins else (CHIP_LEFT + DIP_SPAN, CHIP_TOP + 2 * pins - n)
                 for n in range(1, 2 * pins + 1)]
        self.add("chip", holes, chip.nets, chip.value, "notch up, in a 14-pin socket", "U2")
        for left, span, top, rows in ((LEFT, PICO_SPAN, 0, PICO_ROWS), (CHIP_LEFT, DIP_SPAN, CHIP_TOP, pins)):
            for row in range(top, top + rows):
                self.board.cuts |= {(left, row), (left + span - 1, row)}

    def _left(self) -> None:
        """The Pico's left pins: each row and column line through its series resistor; a column's strip with its
        pull-up and a pad for every seat; the 3V3 decoupling."""
        for part in self.parts:
            if part.kind != "resistor" or not part.nets[0].startswith("GP") or part.nets[1] == "GND":
                continue
            row = self.row("U1", part.nets[0])
            self.series(part, row, LEFT - 2)
            for x, pad in enumerate(self.pads(part.nets[1])):
                self.pad(pad, (x, row))
            pullup = next((p for p, _ in joined(self.parts, part.nets[1]) if p.kind == "resistor" and p is not part),
                          None)
            if pullup is not None:
                self.stand("resistor", part.nets[1], row, 20, range(len(self.pads(part.nets[1])), LEFT),
                           pullup.value, pullup.ref, "3V3")
        for pad in self.pads("GP0") + self.pads("GP1"):
            self.pad(pad, (0, self.row("U1", pad.nets[0])))

    def row(self, ref: str, net: str) -> int:
        """The strip of the lowest leg of part ``ref`` on ``net``."""
        piece = next(p for p in self.board.pieces if p.ref == ref)
        return max(y for (_, y), n in zip(piece.holes, piece.nets) if n == net)

    def _right(self) -> None:
        """The Pico's supplies: VSYS through the 1N5819 from 5 V, its GND and 3V3 to their strips, GP16 to the
        shifter's 1A with the pull-down; each shifter pin on a supply linked to its strip, 100 nF beside it."""
        right = range(RIGHT + 1, WIDTH)
        diode, row = self.part("D1"), self.row("U1", "VSYS")
        self.add("diode", [(RIGHT + 1 + RESISTOR_SPAN, row), (RIGHT + 1, row)], diode.nets, diode.value,
                 "band towards VSYS", "D1")
        self.board.cuts.add((RIGHT + 2, row))
        self.stand("link", "5V", row, 30, range(CHIP_LEFT + DIP_SPAN + 1, WIDTH))
        self.stand("link", "GND", 2 * PICO_ROWS - GROUND_PIN, 21, right)
        self.stand("link", "3V3", self.row("U1", "3V3"), 20, right)
        self.stand("link", "GND", 21, 29, range(CHIP_LEFT - 1, 0, -1))
        chip = next(p for p in self.board.pieces if p.ref == "U2")
        one_a = self.row("U2", "GP16")
        near = range(CHIP_LEFT - 1, CHIP_LEFT - RESISTOR_SPAN - 1, -1)   # 1A's strip, cut short: beside the chain's
        self.board.cuts.add((near[-1] - 1, one_a))                        # only where 1Y's is, at the chip
        self.stand("link", "GP16", self.row("U1", "GP16"), one_a, near)
        pulldown = next(p for p, _ in joined(self.parts, "GP16") if p.kind == "resistor")
        self.stand("resistor", "GP16", one_a, one_a - 1, near, pulldown.value, pulldown.ref, "GND")
        for (x, row), net in zip(chip.holes, chip.nets):
            if net in STRIPS.values():
                strip = min((r for r, line in STRIPS.items() if line == net), key=lambda r: abs(r - row))
                side = range(x - 1, 0, -1) if x == CHIP_LEFT else range(x + 1, WIDTH)
                self.stand("link", net, row, strip, side)
        cap = self.part("C1")
        self.stand("capacitor", "5V", CHIP_TOP, CHIP_TOP - 1, range(CHIP_LEFT + DIP_SPAN + 1, WIDTH), cap.value,
                   cap.ref, "GND")

    def _lamps(self) -> None:
        """The pixel data through its 330 Ohm to the chain's strip; each seat's 5V, GND, DIN and DOUT pads; the
        supply in at the right: GND to the lower GND strip, 5V through the polyfuse."""
        row = self.row("U2", "1Y")
        self.series(self.part(next(p.ref for p, _ in joined(self.parts, "1Y") if p.kind == "resistor")), row,
                    CHIP_LEFT - 2)
        self.stand("link", "DIN1", row, CHAIN, range(WIDTH))
        seats = sum(1 for p in self.parts if p.kind == "pad" and p.ref.endswith(" DIN"))
        for seat in range(1, seats + 1):
            x = seat_column(seat)
            for line, hole in (("5V", (x, 30)), ("GND", (x, 29)), ("DIN", (x, CHAIN)), ("DOUT", (x + 1, CHAIN))):
                if seat < seats or line != "DOUT":
                    self.pad(self.part(f"seat{seat} {line}"), hole)
            self.board.cuts.add((x, CHAIN))
        bulk = self.part("C2")          # the chain's start: beside seat 1's 5V and GND pads, + on the 5V strip
        self.stand("electrolytic", "5V", 30, 29, range(WIDTH), bulk.value, bulk.ref, "GND",
                   "+ leg on the 5V strip, the stripe (-) on GND")
        self.pad(self.part("GND in"), (WIDTH - 1, 29))
        self.pad(self.part("5V in"), (WIDTH - 1, 30))
        fuse = self.part("F1")
        self.add("fuse", [(WIDTH - 2, 30), (WIDTH - 2 - FUSE_SPAN, 30)], fuse.nets, fuse.value, ref="F1")
        self.board.cuts.add((WIDTH - 3, 30))
