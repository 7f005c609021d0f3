"""The hub as it is soldered: a piece of stripboard laid out from the netlist, hole by hole.

The copper strips run left to right, one per row of holes, 0.1 inch apart. The Pi's ribbon lands on a
2 x 20 shrouded box header in the top left: its odd pins in one column, its even pins in the next, so
each row of the header sits on one strip, and **every one of those 20 strips is cut between the
header's two rows** (two knife cuts 1 mm apart, the copper between lifted), or pin 1 (3V3) would meet
pin 2 and SDA pin 4. Each used pin then has its strip to itself: to the left for odd pins, to the right
for even ones, and leaves from a pad at the strip's end, a line to a panel through its series resistor
(a second cut between the resistor's legs). Below the header, after a spare strip, come the
hub's shared strips in their safe order (``wiring/guard.py``): a wire link joins each to its header
pin, and each part's wire leaves from a pad of its own. A button line or a plain LED's line leaves
through its series resistor (``netlist.series``). The 5 V pins (2 and 4) are pulled out of the
box header unless the box takes the Pi's 5 V, so the Pi's 5 V never reaches the board.

``wiring/drc.py`` checks the result as a PCB tool would; ``wiring/boardsvg.py`` draws it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .hardware import DECOUPLING, I2C0_PULLUP_OHMS, STRIP_FUSE
from .header import pins
from .netlist import netlist, series
from .nets import Netlist, Part
from .profile import Profile

HEADER_ROWS = 20
PULLED = {2: "5V", 4: "5V"}             # pins left out of the box header unless the box takes the Pi's 5 V
RESISTOR_SPAN = 4                       # a 1/4 W resistor lying flat: its legs four holes apart
FUSE_SPAN = 2                           # a radial polyfuse: 5 mm between its legs


@dataclass(frozen=True)
class Piece:
    ref: str                            # J1, R1, F1, C1, W1 (a wire link), P1 (a pad: a wire leaves the board)
    kind: str                           # "header", "resistor", "fuse", "capacitor", "link", "pad"
    holes: tuple[tuple[int, int], ...]  # (column, row) of each leg
    nets: tuple[str, ...]               # the net each leg must meet
    value: str = ""                     # 2.2 kOhm; a pad: the netlist end its wire goes to ("seat1:hole1")
    label: str = ""                     # what the drawing writes beside it


@dataclass
class Board:
    width: int
    height: int
    pieces: list[Piece] = field(default_factory=list)
    cuts: set[tuple[int, int]] = field(default_factory=set)    # (x, row): the strip cut between x and x + 1
    hot: dict[str, str] = field(default_factory=dict)          # nets at a supply's level that are not it
    strips: dict[int, str] = field(default_factory=dict)       # row -> the shared line of a strip
    captions: dict[int, str] = field(default_factory=dict)     # row -> what the drawing writes on it ("spare strip")
    waived: dict[frozenset[str], str] = field(default_factory=dict)   # two nets that must sit side by side, and why

    def used(self) -> set[tuple[int, int]]:
        return {hole for piece in self.pieces for hole in piece.holes}

    def covered(self) -> dict[tuple[int, int], str]:
        """{hole: the piece lying over it}: the holes a two-legged piece (a link, a resistor) spans between its
        legs, which no other leg may take."""
        out = {}
        for piece in self.pieces:
            if len(piece.holes) == 2:
                (x1, y1), (x2, y2) = piece.holes
                steps = max(abs(x2 - x1), abs(y2 - y1))
                for i in range(1, steps):
                    out[x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps] = piece.ref
        return out


def layout(profile: Profile) -> Board:
    """The hub of ``profile``, every part, link and cut placed."""
    return _Layout(netlist(profile), profile).board


class _Layout:
    def __init__(self, net: Netlist, profile: Profile):
        self.net, self.profile = net, profile
        hub = next((p for p in net.parts if p.key == "hub"), Part("hub", "hub", "hub"))
        self.hub = hub
        self.feeds = {int(w.a.terminal): w for w in net.wires if w.a.part == "pin"}
        taken = {int(w.a.terminal) for w in net.wires if w.a.part == "pin"}
        self.present = [p for p in pins() if p.physical not in PULLED or p.physical in taken]
        links = {side: sum(1 for n in taken if n % 2 == side and self._to_strip(n)) for side in (0, 1)}
        pullups = 2 * self._i2c0_pullups()
        self.header = 7 + max(links[1] + pullups, links[0] + pullups)        # the odd pins' column
        width = 2 * self.header + 2
        strip_rows = {HEADER_ROWS + 1 + i: line for i, line in enumerate(hub.strips)}
        self.board = Board(width, HEADER_ROWS + 1 + len(hub.strips), strips=strip_rows,
                           captions={HEADER_ROWS: "(spare strip)"})
        self.columns = {1: iter(range(self.header - 1, 5, -1)), 0: iter(range(self.header + 2, width - 6))}
        self.refs: dict[str, int] = {}
        self._header()
        self._strips()

    def ref(self, letter: str) -> str:
        self.refs[letter] = self.refs.get(letter, 0) + 1
        return f"{letter}{self.refs[letter]}"

    def add(self, kind: str, holes, nets, value: str = "", label: str = "") -> Piece:
        letter = {"header": "J", "resistor": "R", "fuse": "F", "capacitor": "C", "link": "W", "pad": "P"}[kind]
        piece = Piece(self.ref(letter), kind, tuple(holes), tuple(nets), value, label)
        self.board.pieces.append(piece)
        return piece

    def row_of(self, line: str, nth: int = 0) -> int:
        return [row for row, strip in self.board.strips.items() if strip == line][nth]

    def _to_strip(self, physical: int) -> bool:
        wire = self.feeds.get(physical)
        return wire is not None and wire.b.part == "hub"

    def _i2c0_pullups(self) -> int:
        return int(any(w.net == "SDA0" for w in self.net.wires) and not any(s == "SDA0" for s in self.hub.strips))

    def pin_net(self, physical: int) -> str:
        """The net of a header pin: the shared line it feeds, else its own name (GPIO4, 3V3, GND)."""
        wire = self.feeds.get(physical)
        name = next(p.name for p in pins() if p.physical == physical)
        return wire.net if wire is not None and wire.net in self.hub.strips else name

    def _header(self) -> None:
        odd, even = self.header, self.header + 1
        holes = [((odd if p.physical % 2 else even), (p.physical - 1) // 2) for p in self.present]
        self.add("header", holes, [self.pin_net(p.physical) for p in self.present],
                 "2 x 20 shrouded box header", "the Pi's ribbon")
        for row in range(HEADER_ROWS):
            self.board.cuts.add((odd, row))
        for pin in self.present:
            wire = self.feeds.get(pin.physical)
            if wire is not None:
                self._leave(pin.physical, wire)

    def _leave(self, physical: int, wire) -> None:
        """A used pin's strip: a link to its hub strip, else a pad for its wire (through a series resistor for a
        button line, with a cut between the resistor's legs)."""
        row, odd = (physical - 1) // 2, physical % 2
        net = self.pin_net(physical)
        toward = (lambda x: x) if odd else (lambda x: self.board.width - 1 - x)
        if wire.b.part == "hub":
            column = next(self.columns[odd])
            self.add("link", [(column, row), (column, self.row_of(net))], [net, net], label=net)
            return
        far = f"{wire.b.part}:{wire.b.terminal}"
        label = self.net.part(wire.b.part).terminals[wire.b.terminal].split(":")[0]
        label = f"{self.net.part(wire.b.part).short.removesuffix(' panel')} {label}"
        resistor = series(self.profile, wire.b)
        if resistor:
            self.add("resistor", [(toward(1), row), (toward(1 + RESISTOR_SPAN), row)], [far, net], resistor)
            self.board.cuts.add((toward(2) if odd else toward(3), row))
            self.add("pad", [(toward(0), row)], [far], far, label)
        else:
            self.add("pad", [(toward(0), row)], [net], far, label)
        if wire.net in ("SDA0", "SCL0") and self._i2c0_pullups():
            column = next(self.columns[odd])
            self.add("resistor", [(column, row), (column, self.row_of("3V3"))], [net, "3V3"],
                     f"{I2C0_PULLUP_OHMS / 1000:g} kOhm", f"{wire.net} pull-up")

    def _free(self, row: int, start: int):
        """The row's holes from ``start`` on that nothing takes yet, as they are asked for."""
        return (x for x in range(start, self.board.width)
                if (x, row) not in self.board.used() and (x, row) not in self.board.covered())

    def _strips(self) -> None:
        """Each shared strip: its feed (a link from its pin, or a supply's pad through a fuse), a second ground
        strip linked to the first, the 3V3 strip's 100 nF to ground, and a pad for every part it feeds."""
        free = {row: self._free(row, 0) for row in self.board.strips}
        seen = set()
        for row, line in self.board.strips.items():
            if line in seen:
                column = next(self.columns[0])
                self.add("link", [(column, self.row_of(line)), (column, row)], [line, line], label=line)
            seen.add(line)
        for name, label in self.hub.terminals.items():
            line, user = name.split(":", 1)
            row = self.row_of(line)
            wire = next(w for w in self.net.wires if "hub" in (w.a.part, w.b.part) and name in (w.a.terminal,
                                                                                               w.b.terminal))
            if user != "in":
                x = next(free[row])
                self.add("pad", [(x, row)], [line], f"{wire.b.part}:{wire.b.terminal}", label.removeprefix("to "))
            elif wire.a.part != "pin":          # a supply of its own: in through its fuse, at the strip's left end
                feed = f"{line} in"
                self.board.hot[feed] = line
                self.add("pad", [(0, row)], [feed], f"{wire.a.part}:{wire.a.terminal}", label.removeprefix("in: "))
                self.add("fuse", [(1, row), (1 + FUSE_SPAN, row)], [feed, line], STRIP_FUSE[line])
                self.board.cuts.add((1, row))
                free[row] = self._free(row, 2 + FUSE_SPAN)
        if "3V3" in self.board.strips.values() and "GND" in self.board.strips.values():
            top, bottom = self.row_of("3V3"), self.row_of("GND")
            taken = set(self.board.used()) | set(self.board.covered())
            x = max(x for x in range(self.board.width) if (x, top) not in taken and (x, bottom) not in taken)
            self.add("capacitor", [(x, top), (x, bottom)], ["3V3", "GND"], DECOUPLING, "decoupling")
