"""``molebox wiring breadboard``: every wire of a box drawn as it runs, end to end.

A box on the Pi's header (``gpio-2``, ``gpio-2-mux``): left, the Pi's 40-pin header J8 and its keyed 40-way
ribbon, core for core, to the hub's box header J1 (pins 2 and 4 pulled where the box takes no 5 V from the
Pi); in the middle the hub, where each line from J1 reaches the pad its wire leaves from (P1, P2 ... as on the
stripboard drawing, where the strip's series resistor sits) or the shared strip it feeds. A box with an IO
board (``ioboard-8``) has two: the Pi's side as above, with the Pi's USB-A port and its cable to the IO board,
and with ``io`` the IO board itself, left, with the Pico and its pads as on its stripboard drawing. Right,
every part those wires reach, terminal by terminal (the lamp supply, the mux, a seat's driver ...), and each
seat panel's plugs pin by pin with what on the panel each pin feeds; a pin whose wire is on the other drawing
is drawn pale and named with where that wire comes from. Each wire is one line from its source to its
destination, through the ribbon, the board and the plug, coloured by its line's domain (``wiring/guard.py``);
each end names its pin and the pin's number, and each pin's mark carries its netlist end (``data-end``).
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from . import connector, guard, ioboardstrip, iocircuit, panel, stripboard, svgdoc, textwidth
from .header import pins
from .netlist import POWER_NETS, netlist
from .nets import End, Wire
from .profile import Profile, ProfileError
from .svgdoc import text

DOMAIN_STYLES = {guard.GROUND: ("#000000", "ground (GND)"), guard.LOGIC: ("#1f77b4", "logic: 3V3, GPIO, I2C"),
                 "5V": ("#d62728", "5 V supply and the pixels' data"), "12V": ("#ff7f0e", "12 V supply, lamps' minus"),
                 "USB": ("#7b4fa0", "USB cable")}
SUPPLIES = ("3V3", "5V", "12V", "GND", "5V in", "USB")   # drawn thick
WIRED, ELSEWHERE = "#ffd700", "#fde68a"     # a plug pin wired on this drawing; one wired on the other
MARGIN, TOP = 20, 130                   # the boards' top, under a two-line caption
CORE, COLUMN, RIBBON = 9, 14, 170       # the ribbon's core pitch; a header's two columns; the ribbon's length
PAD_ROW, PLUG_ROW, LANE = 16, 13, 6
SMALL = 8
PIN_NAMES = {p.physical: p.name for p in pins()}


@dataclass(frozen=True)
class Run:
    """One wire as it runs: the points of its line, and each end's label."""

    wire: Wire
    points: tuple[tuple[float, float], ...]
    source: str                 # "GPIO4 (pin 7) via pad P1", "3V3 strip, pad P23"
    target: str                 # "seat 1 logic plug pin 2 (hole1)", "the hub's 3V3 strip"


def svg(profile: Profile, io: bool = False) -> str:
    """The box's wires on the Pi's side, breadboard-style, as an SVG document; with ``io``, its IO board's."""
    return drawing(profile, io).svg()


def table(profile: Profile, io: bool = False) -> str:
    """Every wire, one a line, from its source to its destination, as a builder ticks them off."""
    d = drawing(profile, io)
    return "".join(f"{run.source} -> {run.target}  ({d.domain(run.wire)})\n" for run in d.runs)


def drawing(profile: Profile, io: bool = False) -> _Drawing:
    if io and not profile.ioboard:
        raise ProfileError(f"{profile.name} has no IO board: draw it without --board io")
    return _IoBoard(profile) if io else _Hub(profile)


def on_io_board(wire: Wire) -> bool:
    """Whether the IO board's drawing draws the wire: its supply's and its cables' to the seats (as the wires
    of ``io_wires``), not its USB cable from the Pi."""
    return "ioboard" in (wire.a.part, wire.b.part) and wire.a.part != "piusb"


def io_pads(profile: Profile) -> dict[str, str]:
    """The IO board's pads: the line each carries ("seat1 row", "5V in") -> its ref (P1 ...)."""
    return {p.value: p.ref for p in ioboardstrip.layout(profile).pieces if p.kind == "pad"}


def io_wires(profile: Profile) -> list[Wire]:
    """The IO board's wires: each seat pad to its pin of the seat's plugs, the pixel supply to its two pads."""
    out = []
    for piece in ioboardstrip.layout(profile).pieces:
        if piece.kind != "pad" or piece.value in ("TX", "RX"):    # a UART link's two wires go to the Pi's header
            continue
        net = piece.nets[0]
        if piece.value.endswith(" in"):
            out.append(Wire(End("pixelsupply", "+" if net == "5V in" else "0V"), End("ioboard", piece.value), net,
                            f"pixel supply to the IO board's {piece.value}"))
            continue
        seat, line = piece.value.split(" ", 1)
        terminal = "GND2" if line == "GND" else line       # the lamp plug's GND: the logic plug's is the hub's
        out.append(Wire(End("ioboard", piece.value), End(seat, terminal), net, f"IO board {piece.value} to {seat}"))
    return out


def _name(end: End) -> str:
    return f"{end.part}:{end.terminal}"


class _Drawing:
    """What both drawings share: the parts and panels on the right, the channel to them, the SVG."""

    board = ""                  # the part drawn on the left, not among the parts on the right
    other = ""                  # where the wires this drawing leaves out are drawn

    def __init__(self, profile: Profile, wires: list[Wire], elsewhere: list[Wire], title: str):
        self.profile, self.net, self.wires, self.title = profile, netlist(profile), wires, title
        self.elsewhere = {w.b: w for w in elsewhere}    # a plug pin -> its wire, drawn on the other drawing
        self.ends = {_name(e) for w in wires for e in (w.a, w.b)}
        self.plug_names: dict[str, str] = {}        # a seat's end -> "seat 1 logic plug pin 2 (hole1)"
        self.via: dict[Wire, float] = {}            # a wire's pad on the board: its y
        self.pad_label: dict[Wire, str] = {}        # and how the table names it
        self.label_room = 34                        # from the pads to the first lane: room for a strip's name
        self.top = TOP + 16 * (len(self.caption()) - 2)
        self._place_board()
        self._place_parts()
        self.runs = [self._run(wire) for wire in self.wires]

    def domain(self, wire: Wire) -> str:
        raise NotImplementedError

    def _place_board(self) -> None:
        raise NotImplementedError

    def _left(self, wire: Wire) -> list[tuple[float, float]]:
        """The wire's points left of its pad (the header and ribbon), if any."""
        return []

    # ---- the right-hand column: each part and panel the wires reach ----

    def _place_parts(self) -> None:
        """Each part the wires reach, its terminals below one another; a seat panel plug by plug, pin by pin."""
        self.term: dict[str, tuple[float, float, str]] = {}     # end -> (x offset, y, how the table names it)
        # each block: its title, top, bottom, and its groups of (the end or "", label, x offset, y)
        self.blocks: list[tuple[str, float, float, list[tuple[str, list[tuple[str, str, float, float]]]]]] = []
        y = self.top + 8
        taken = set(self.via.values())
        left = (self.board, "piusb")        # drawn on the left: the board; the Pi's USB port, below its header
        for part in self.net.parts:
            if part.key.startswith("seat"):
                groups = self._plugs(part.key, int(part.key[4:]))
            elif any(e.startswith(part.key + ":") for e in self.ends) and part.key not in left:
                groups = [("", [(name, label, 0, True) for name, label in part.terminals.items()
                                if f"{part.key}:{name}" in self.ends])]
            else:
                continue
            top, rows = y, []
            y += 22
            for heading, lines in groups:
                y += 18 if heading else 0
                placed = []
                for name, label, offset, wired in lines:
                    y += PLUG_ROW
                    while any(abs(y - t) < 3 for t in taken):   # no row level with a pad: no wire along another
                        y += 4
                    if self._reached(part.key, name):
                        self.term[f"{part.key}:{name}"] = (offset, y, self.plug_names.get(f"{part.key}:{name}",
                                                                                          f"{part.short} {name}"))
                    placed.append((f"{part.key}:{name}" if wired else "", label, offset, y))
                rows.append((heading, placed))
            self.blocks.append((part.short if part.key.startswith("seat") else part.title, top, y + PLUG_ROW, rows))
            y += PLUG_ROW + 14
        self.parts_bottom = y
        self.panel_width = 10 + max([2 * COLUMN + textwidth.width(label, SMALL + 1) for *_, rows in self.blocks
                                     for _, placed in rows for _, label, *_ in placed]
                                    + [textwidth.width(heading, SMALL + 1, bold=True) for *_, rows in self.blocks
                                       for heading, _ in rows]
                                    + [textwidth.width(title, SMALL + 4, bold=True) for title, *_ in self.blocks])
        spans = []
        for wire in self.wires:
            far = [self.term[_name(e)][1] for e in (wire.a, wire.b) if _name(e) in self.term]
            if far:
                spans.append((wire, self.via.get(wire, far[0]), far[-1]))
        self.lanes2 = _lanes(spans)
        self.x_lane2 = self.x_pad + self.label_room
        self.x_plug = self.x_lane2 + LANE * len(self.lanes2) + 14

    def _plugs(self, key: str, seat: int):
        """A seat panel's plugs that this drawing's wires reach: each pin's terminal, its label, its column (odd
        pins left), and whether a wire (on either drawing) reaches it."""
        spec = self.profile.seats[seat - 1]
        wired = {(plug.name, pin): name for plug, pin, name in connector.terminals(self.profile, spec)}
        out = []
        for plug in connector.plugs(self.profile, spec):
            if not any(self._reached(key, name) for (plug_name, _), name in wired.items() if plug_name == plug.name):
                continue
            rows = []
            pinout = plug.pins + ("NC",) * (plug.name == connector.LOGIC and len(plug.pins) % 2)
            for pin, line in enumerate(pinout, 1):
                name = wired.get((plug.name, pin), "")
                feeds = self._feeds(key, name) if name else "not connected"
                has_wire = self._reached(key, name) or End(key, name) in self.elsewhere
                rows.append((name, f"pin {pin}  {line}: {feeds}", 0 if pin % 2 else COLUMN, has_wire))
                if name:
                    self.plug_names[f"{key}:{name}"] = f"seat {seat} {plug.name} plug pin {pin} ({name})"
            out.append((f"{plug.name} plug: {plug.part}", rows))
        return out

    def _reached(self, key: str, name: str) -> bool:
        return f"{key}:{name}" in self.ends

    def _feeds(self, key: str, name: str) -> str:
        """What on the panel a plug pin feeds (``wiring/panel.py``); for a pin whose wire is on the other
        drawing, where that wire comes from; for one with none (the last seat's pixel DOUT), that it stays open."""
        feeds = panel.feeds(self.net, End(key, name))
        if self._reached(key, name):
            return feeds
        wire = self.elsewhere.get(End(key, name))
        return f"{feeds} (its wire from {self._source(wire.a)}: {self.other})" if wire else f"{feeds} (left open)"

    def _source(self, end: End) -> str:
        """How a pale pin's label names where its wire comes from."""
        raise NotImplementedError

    def _run(self, wire: Wire) -> Run:
        ends = [e for e in (wire.a, wire.b) if _name(e) in self.term]
        points = self._left(wire)
        if wire in self.via and not points:
            points = [(self.x_pad, self.via[wire])]
        for end in ends:
            offset, y, _ = self.term[_name(end)]
            lane = self.x_lane2 + LANE * self.lanes2[wire]
            leg = [(lane, points[-1][1]), (lane, y), (self.x_plug + offset, y)] if points else \
                [(self.x_plug + offset, y), (lane, y)]
            points += leg
        if ends and ends[0] == wire.a and wire in self.via:       # a part feeding the board: drawn from the part
            points.reverse()
        return Run(wire, tuple(points), self._say(wire.a, wire), self._say(wire.b, wire))

    def _say(self, end: End, wire: Wire) -> str:
        if _name(end) in self.term:
            return self.term[_name(end)][2]
        if end.part == "pin" and wire.b.part == "hub":
            return f"{PIN_NAMES[int(end.terminal)]} (pin {end.terminal})"
        return self.pad_label[wire]

    # ---- drawing ----

    def svg(self) -> str:
        root = svgdoc.root()
        text(root, MARGIN, MARGIN + 14, self.title, 15, bold=True)
        for n, line in enumerate(self.caption()):
            text(root, MARGIN, MARGIN + 34 + 16 * n, line)
        x, present = MARGIN, {self.domain(wire) for wire in self.wires}
        for colour, label in (style for domain, style in DOMAIN_STYLES.items() if domain in present):
            ET.SubElement(root, "line", {"class": "legend"}, x1=f"{x:g}", y1=f"{self.top - 40:g}", x2=f"{x + 22:g}",
                          y2=f"{self.top - 40:g}", stroke=colour, **{"stroke-width": "3"})
            text(root, x + 28, self.top - 36, label)
            x += 40 + textwidth.width(label, svgdoc.FONT)
        self._board(root)
        self._parts(root)
        layer = ET.SubElement(root, "g", {"class": "wires"})
        for run in self.runs:
            self._wire(layer, run)
        width = self.x_plug + self.panel_width + MARGIN
        return svgdoc.finish(root, max(width, x + MARGIN), max(self.board_bottom, self.parts_bottom) + MARGIN)

    def caption(self) -> list[str]:
        raise NotImplementedError

    def _board(self, root: ET.Element) -> None:
        raise NotImplementedError

    def _parts(self, root: ET.Element) -> None:
        for title, top, bottom, rows in self.blocks:
            g = ET.SubElement(root, "g", {"class": "panel"})
            ET.SubElement(g, "rect", x=f"{self.x_plug - 10:g}", y=f"{top:g}", width=f"{self.panel_width + 10:g}",
                          height=f"{bottom - top:g}", rx="6", fill="#f7f7f7", stroke="#666666")
            text(g, self.x_plug, top + 16, title, SMALL + 4, bold=True)
            for heading, placed in rows:
                if heading:
                    text(g, self.x_plug, placed[0][3] - PLUG_ROW + 2, heading, SMALL + 1, bold=True)
                for end, label, offset, y in placed:
                    x = self.x_plug + offset
                    fill = "#ffffff" if not end else WIRED if end in self.ends else ELSEWHERE
                    ET.SubElement(g, "rect", {"class": "plug-pin", **({"data-end": end} if end else {})},
                                  x=f"{x - 3.5:g}", y=f"{y - 3.5:g}", width="7", height="7", fill=fill,
                                  stroke="#333333")
                    text(g, self.x_plug + 2 * COLUMN + 4, y + 3, label, SMALL + 1)

    def _wire(self, layer: ET.Element, run: Run) -> None:
        domain = self.domain(run.wire)
        node = ET.SubElement(layer, "polyline", {"class": "wire", "data-from": _name(run.wire.a),
                                                 "data-to": _name(run.wire.b), "data-net": run.wire.net,
                                                 "data-domain": domain},
                             points=" ".join(f"{x:g},{y:g}" for x, y in run.points), fill="none",
                             stroke=DOMAIN_STYLES[domain][0],
                             **{"stroke-width": "2.2" if run.wire.net in SUPPLIES else "1.3"})
        ET.SubElement(node, "title").text = f"{run.source} -> {run.target}"


class _Hub(_Drawing):
    """The Pi's side: the header, the ribbon, the hub's pads and strips, and on a box with an IO board the Pi's
    USB port and its cable to the board."""

    board = "hub"
    other = "the IO board's drawing"

    def __init__(self, profile: Profile):
        io = profile.ioboard is not None
        self.io_pads = io_pads(profile) if io else {}
        side = " on the Pi's side" if io else ""
        super().__init__(profile, [w for w in netlist(profile).wires if not on_io_board(w)],
                         io_wires(profile) if io else [], f"Every wire of {profile.name}{side}, pin to pin: the Pi, "
                         "its ribbon, the hub, the parts, the panels' plugs")

    def domain(self, wire: Wire) -> str:
        """The wire's line's domain: its shared line's (3V3, GND, 12V ...), else its far terminal's (hole1, lamp1);
        the USB cable's its own."""
        if wire.net == "USB":
            return "USB"
        return guard.domain(wire.net if wire.net in POWER_NETS else wire.b.terminal,
                            connector.hot_lines(self.profile))

    def caption(self) -> list[str]:
        lines = ["Each line is one wire, from the Pi's pin (or the hub strip's pad, or a part's terminal) along its "
                 "ribbon core to the hub's J1, to its pad there (P1 ... as on",
                 "the stripboard drawing), then to its part's terminal or its pin of the seat's plug. Pins 2 and 4 "
                 "(5 V) are pulled from J1. Colour: the line's domain; thick lines are supplies and ground."]
        if self.profile.ioboard:
            lines.append("The IO board's own wires (its pads to the pale plug pins, the pixel supply) are on its "
                         f"drawing: molebox wiring breadboard {self.profile.name} --board io.")
        return lines

    def _source(self, end: End) -> str:
        return f"IO board pad {self.io_pads[end.terminal]}"

    def _pin_y(self, physical: int) -> float:
        return self.top + 24 + (physical - 1) * CORE

    @staticmethod
    def _pin_x(physical: int, x: float) -> float:
        return x + (0 if physical % 2 else COLUMN)

    def _place_board(self) -> None:
        """The hub's pads, top to bottom: each pin's pad in pin order, then each strip's feed and its pads."""
        board = stripboard.layout(self.profile)
        pads = {p.value: p.ref for p in board.pieces if p.kind == "pad"}
        header = next(p for p in board.pieces if p.kind == "header")
        odd = min(x for x, _ in header.holes)
        self.present = {2 * y + (1 if x == odd else 2) for x, y in header.holes}
        self.x_pi = MARGIN + 110
        self.x_j1 = self.x_pi + COLUMN + RIBBON
        y = self.top + 24
        self.pads: list[tuple[float, str, str]] = []        # (y, its ref, the netlist end there)
        for wire in sorted((w for w in self.wires if w.a.part == "pin" and w.b.part != "hub"),
                           key=lambda w: int(w.a.terminal)):
            pin = int(wire.a.terminal)
            self.via[wire], self.pad_label[wire] = y, f"{PIN_NAMES[pin]} (pin {pin}) via pad {pads[_name(wire.b)]}"
            self.pads.append((y, pads[_name(wire.b)], ""))
            y += PAD_ROW
        self.strips: dict[str, tuple[float, float, str]] = {}      # strip -> its first and last row, its feed pad
        for strip in dict.fromkeys(self.net.part("hub").strips):
            y += PAD_ROW / 2
            start, feed = y, ""
            for wire in self.wires:
                if wire.b == End("hub", f"{strip}:in"):
                    self.via[wire] = y
                    self.pad_label[wire] = f"the hub's {strip} strip"
                    if wire.a.part != "pin":
                        feed = f", in at {pads[_name(wire.a)]}"
                        self.pad_label[wire] += f" via pad {pads[_name(wire.a)]}"
            self.pads.append((y, "", f"hub:{strip}:in"))
            for wire in self.wires:
                if wire.a.part == "hub" and wire.net == strip:
                    y += PAD_ROW
                    self.via[wire], self.pad_label[wire] = y, f"{strip} strip, pad {pads[_name(wire.b)]}"
                    self.pads.append((y, pads[_name(wire.b)], _name(wire.a)))
            self.strips[strip] = (start, y, feed)
            self.label_room = max(self.label_room, 16 + textwidth.width(f"{strip} strip{feed}", SMALL, bold=True))
            y += PAD_ROW
        self.hub_bottom = y
        self.usb = next((w for w in self.wires if w.a.part == "piusb"), None)
        if self.usb:                # the Pi's USB port below its header, its cable clear of the hub
            self.via[self.usb] = max(self._pin_y(40) + 50, y + 16)
            self.pad_label[self.usb] = "the Pi's USB-A port"
        self.board_bottom = max(y, self._pin_y(40) + 20, self.via.get(self.usb, 0) + 20)
        self.lanes1 = _lanes([(w, self._pin_y(int(w.a.terminal)), self.via[w]) for w in self.wires
                              if w.a.part == "pin"])
        self.x_lane1 = self.x_j1 + COLUMN + 18
        self.x_pad = self.x_lane1 + LANE * len(self.lanes1) + 14

    def _left(self, wire: Wire) -> list[tuple[float, float]]:
        if wire == self.usb:
            return [(self.x_pi, self.via[wire])]
        if wire.a.part != "pin":
            return []
        n = int(wire.a.terminal)
        y, lane = self._pin_y(n), self.x_lane1 + LANE * self.lanes1[wire]
        return [(self._pin_x(n, self.x_pi), y), (self._pin_x(n, self.x_j1), y), (lane, y), (lane, self.via[wire]),
                (self.x_pad, self.via[wire])]

    def _board(self, root: ET.Element) -> None:
        """J8 on the Pi, the ribbon's 40 cores, J1 on the hub; the hub's column of pads and strips."""
        g = ET.SubElement(root, "g", {"class": "ribbon"})
        top, bottom = self._pin_y(1) - 8, self._pin_y(40) + 8
        ET.SubElement(g, "rect", x=f"{self.x_pi + COLUMN + 8:g}", y=f"{top:g}", width=f"{RIBBON - 2 * COLUMN + 12:g}",
                      height=f"{bottom - top:g}", fill="#dddddd")
        ET.SubElement(g, "line", x1=f"{self.x_pi + COLUMN + 8:g}", y1=f"{top:g}", x2=f"{self.x_j1 - 8:g}",
                      y2=f"{top:g}", stroke="#d62728", **{"stroke-width": "3"})
        text(g, self.x_pi + COLUMN + RIBBON / 2, bottom + 14, "keyed 40-way ribbon, red core: pin 1", SMALL, "middle")
        for n in range(1, 41):
            ET.SubElement(g, "line", {"class": "core"}, x1=f"{self._pin_x(n, self.x_pi):g}", y1=f"{self._pin_y(n):g}",
                          x2=f"{self._pin_x(n, self.x_j1):g}", y2=f"{self._pin_y(n):g}", stroke="#aaaaaa",
                          **{"stroke-width": "0.6"})
        for x, title, present in ((self.x_pi, "Pi header J8", set(range(1, 41))), (self.x_j1, "hub J1", self.present)):
            ET.SubElement(g, "rect", x=f"{x - 7:g}", y=f"{top:g}", width=f"{COLUMN + 14:g}", height=f"{bottom - top:g}",
                          rx="3", fill="none", stroke="#222222", **{"stroke-width": "1.5"})
            text(g, x + COLUMN / 2, top - 18, title, SMALL + 2, "middle", bold=True)
            for n in range(1, 41):
                node = ET.SubElement(g, "circle", {"class": "pin", "data-header": title, "data-physical": str(n),
                                                   **({"data-end": f"pin:{n}"} if x == self.x_pi else {})},
                                     cx=f"{self._pin_x(n, x):g}", cy=f"{self._pin_y(n):g}", r="3",
                                     fill="#ffd700" if n in present else "#ffffff", stroke="#333333")
                if n not in present:
                    node.set("stroke-dasharray", "1 1")
        for n in range(1, 41):
            text(g, self.x_pi - 10, self._pin_y(n) + 3, f"{PIN_NAMES[n]} ({n})", SMALL, "end")
        g = ET.SubElement(root, "g", {"class": "hub"})
        left = self.x_j1 - 12
        ET.SubElement(g, "rect", x=f"{left:g}", y=f"{self.top:g}",
                      width=f"{self.x_pad + self.label_room - 6 - left:g}", height=f"{self.hub_bottom - self.top:g}",
                      rx="6", fill="#f3e3c3", stroke="#8a6d3b", **{"fill-opacity": "0.5"})
        text(g, self.x_pad + self.label_room - 8, self.top - 22, f"hub (docs/stripboard-{self.profile.name}.png)",
             SMALL + 2, "end", bold=True)
        for strip, (start, end, feed) in self.strips.items():
            colour = DOMAIN_STYLES[guard.domain(strip)][0]
            ET.SubElement(g, "rect", {"class": "strip"}, x=f"{self.x_pad - 5:g}", y=f"{start - 6:g}", width="10",
                          height=f"{end - start + 12:g}", rx="3", fill=colour, **{"fill-opacity": "0.25"})
            text(g, self.x_pad + 9, start - 7, f"{strip} strip{feed}", SMALL, bold=True)     # clear of its feed wire
        for y, ref, end in self.pads:
            ET.SubElement(g, "circle", {"data-end": end} if end else {}, cx=f"{self.x_pad:g}", cy=f"{y:g}", r="3.5",
                          fill="#222222")
            if ref:
                text(g, self.x_pad + 7, y - 4, ref, SMALL - 1)
        if self.usb:
            y = self.via[self.usb]
            ET.SubElement(root, "rect", {"data-end": "piusb:usb"}, x=f"{self.x_pi - 7:g}", y=f"{y - 5:g}",
                          width="14", height="10", rx="2", fill="#bbbbbb", stroke="#222222")
            text(root, self.x_pi - 10, y + 3, "the Pi's USB-A port", SMALL, "end", bold=True)


class _IoBoard(_Drawing):
    """A box with an IO board: the Pico on its stripboard, and every pad's wire to a seat's plugs."""

    board = "ioboard"
    other = "the Pi's side drawing"

    def __init__(self, profile: Profile):
        self.hot = iocircuit.hot(profile)
        super().__init__(profile, io_wires(profile), [w for w in netlist(profile).wires if not on_io_board(w)],
                         f"Every wire of {profile.name}'s IO board, pad to pin: the Pico's board, the pixel supply, "
                         "the panels' plugs")

    def domain(self, wire: Wire) -> str:
        return guard.domain("5V" if wire.net == "5V in" else wire.net, self.hot)

    def caption(self) -> list[str]:
        return ["Each line is one wire, from its pad on the IO board (P1 ... as on docs/ioboard-stripboard.png) "
                "to its pin of the seat's plug, or from the pixel supply to the board.",
                "A plug's pale pins (its OLED's) come from the hub and the mux, as the Pi's side drawing shows "
                f"(molebox wiring breadboard {self.profile.name}). Colour: the line's domain; thick lines are "
                "supplies and ground."]

    def _source(self, end: End) -> str:
        return f"the hub's {end.terminal.split(':')[0]} strip" if end.part == "hub" else \
            f"{self.net.part(end.part).short} {end.terminal}"

    def _place_board(self) -> None:
        """The board's pads, top to bottom: the supply's two, then seat by seat, as the plugs follow."""
        pads = io_pads(self.profile)
        self.x_pad = MARGIN + 260
        y = self.top + 120
        self.pads: list[tuple[float, str, str]] = []
        order = sorted(self.wires, key=lambda w: (w.b.part != "ioboard", int(w.b.part[4:] or 0)
                                                  if w.b.part.startswith("seat") else 0))
        last = None
        for wire in order:
            end = wire.b.terminal if wire.b.part == "ioboard" else wire.a.terminal
            group = wire.b.part
            if group != last:
                y += PAD_ROW / 2
                last = group
            self.via[wire], self.pad_label[wire] = y, f"IO board pad {pads[end]} ({end})"
            self.pads.append((y, pads[end], end))
            y += PAD_ROW
        self.board_bottom = y + 20

    def _board(self, root: ET.Element) -> None:
        g = ET.SubElement(root, "g", {"class": "ioboard"})
        left = MARGIN + 20
        ET.SubElement(g, "rect", x=f"{left:g}", y=f"{self.top:g}", width=f"{self.x_pad + 28 - left:g}",
                      height=f"{self.board_bottom - 20 - self.top:g}", rx="6", fill="#f3e3c3", stroke="#8a6d3b",
                      **{"fill-opacity": "0.5"})
        text(g, self.x_pad + 26, self.top - 6, "IO board (docs/ioboard-stripboard.png)", SMALL + 2, "end", bold=True)
        ET.SubElement(g, "rect", {"class": "pico"}, x=f"{left + 20:g}", y=f"{self.top + 14:g}", width="60", height="90",
                      rx="4", fill="#2e7d32", stroke="#1b5e20")
        text(g, left + 50, self.top + 10, "USB: the Pi", SMALL, "middle")
        text(g, left + 50, self.top + 62, "Pico U1", SMALL + 1, "middle", fill="#ffffff")
        text(g, left + 90, self.top + 40, "the Pico, the 74AHCT125 and every", SMALL)
        text(g, left + 90, self.top + 52, "resistor as on the stripboard drawing;", SMALL)
        text(g, left + 90, self.top + 64, "its pads below, each wire to a plug", SMALL)
        for y, ref, end in self.pads:
            ET.SubElement(g, "circle", {"data-end": f"ioboard:{end}"}, cx=f"{self.x_pad:g}", cy=f"{y:g}", r="3.5",
                          fill="#222222")
            text(g, self.x_pad - 8, y + 3, f"{ref}  {end}", SMALL, "end")


def _lanes(spans: list[tuple[Wire, float, float]]) -> dict[Wire, int]:
    """Each wire's lane in a channel, 0 leftmost: wires heading down nest with the lowest start innermost,
    wires heading up after them with the highest start innermost."""
    down = sorted((s for s in spans if s[2] >= s[1]), key=lambda s: -s[1])
    up = sorted((s for s in spans if s[2] < s[1]), key=lambda s: s[1])
    return {s[0]: n for n, s in enumerate(down + up)}
