"""``molebox wiring breadboard``: every wire of a box on the Pi's header, drawn as it runs, pin to pin.

Left, the Pi's 40-pin header J8 and its keyed 40-way ribbon, core for core, to the hub's box header J1
(pins 2 and 4 pulled where the box takes no 5 V from the Pi). In the middle, the hub: each line from J1
reaches the pad its wire leaves from (P1, P2 ... as on the stripboard drawing, where the strip's series
resistor sits) or the shared strip it feeds; right, each seat panel's plugs pin by pin, and what on the
panel each pin feeds. Each wire of the netlist is one line from its source to its destination, through
the ribbon, the hub and the plug, coloured by its line's domain (``wiring/guard.py``); each end names its
pin and the pin's number.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass

from . import connector, guard, stripboard, svgdoc, textwidth
from .header import pins
from .netlist import POWER_NETS, End, Wire, netlist
from .profile import Profile, ProfileError
from .svgdoc import text

DOMAIN_STYLES = {guard.GROUND: ("#000000", "ground (GND)"), guard.LOGIC: ("#1f77b4", "logic: 3V3, GPIO, I2C"),
                 "5V": ("#d62728", "5 V supply"), "12V": ("#ff7f0e", "12 V supply")}
MARGIN, TOP = 20, 130
CORE, COLUMN, RIBBON = 9, 14, 170       # the ribbon's core pitch; a header's two columns; the ribbon's length
PAD_ROW, PLUG_ROW, LANE = 16, 13, 6
SMALL = 8
PIN_NAMES = {p.physical: p.name for p in pins()}


@dataclass(frozen=True)
class Run:
    """One netlist wire as it runs: the points of its line, and each end's label."""

    wire: Wire
    points: tuple[tuple[float, float], ...]
    source: str                 # "GPIO4 (pin 7)", "3V3 strip, pad P23"
    target: str                 # "seat 1 logic plug pin 2 (hole1)", "3V3 strip"


def svg(profile: Profile) -> str:
    """The box's wires, breadboard-style, as an SVG document."""
    return _Drawing(profile).svg()


def table(profile: Profile) -> str:
    """Every wire, one a line, from its source to its destination, as a builder ticks them off."""
    return "".join(f"{run.source} -> {run.target}  ({_domain(profile, run.wire)})\n" for run in _Drawing(profile).runs)


def _domain(profile: Profile, wire: Wire) -> str:
    """The wire's line's domain: its shared line's (3V3, GND, 12V ...), else its far terminal's (hole1, lamp1)."""
    return guard.domain(wire.net if wire.net in POWER_NETS else wire.b.terminal, connector.hot_lines(profile))


def _name(end: End) -> str:
    return f"{end.part}:{end.terminal}"


class _Drawing:
    def __init__(self, profile: Profile):
        self.profile, self.net = profile, netlist(profile)
        others = [p.short for p in self.net.parts if p.key != "hub" and not p.key.startswith("seat")]
        if profile.backend != "gpio" or others:
            raise ProfileError(f"{profile.name}: the breadboard drawing covers a box whose panels hang straight off "
                               f"the hub (gpio-2); this one has {', '.join(others) or 'no header wiring'}")
        self.board = stripboard.layout(profile)
        self.pads = {p.value: p.ref for p in self.board.pieces if p.kind == "pad"}
        header = next(p for p in self.board.pieces if p.kind == "header")
        odd = min(x for x, _ in header.holes)
        self.present = {2 * y + (1 if x == odd else 2) for x, y in header.holes}
        self.x_pi = MARGIN + 110
        self.x_j1 = self.x_pi + COLUMN + RIBBON
        self._place_hub()
        self._place_plugs()
        self.runs = [self._run(wire) for wire in self.net.wires]

    # ---- where everything sits ----

    def _pin_y(self, physical: int) -> float:
        return TOP + 24 + (physical - 1) * CORE

    def _pin_x(self, physical: int, x: float) -> float:
        return x + (0 if physical % 2 else COLUMN)

    def _place_hub(self) -> None:
        """The hub's ends, top to bottom: each pin's pad in pin order, then each strip's feed and its pads."""
        fed = sorted((w for w in self.net.wires if w.a.part == "pin" and w.b.part != "hub"),
                     key=lambda w: int(w.a.terminal))
        rows: list[tuple[str, float]] = []
        y = TOP + 24
        for wire in fed:
            rows.append((_name(wire.b), y))
            y += PAD_ROW
        self.strips: dict[str, tuple[float, float]] = {}
        for strip in dict.fromkeys(self.net.part("hub").strips):
            y += PAD_ROW / 2
            start = y
            rows.append((f"hub:{strip}:in", y))
            for wire in self.net.wires:
                if wire.a.part == "hub" and wire.net == strip:
                    y += PAD_ROW
                    rows.append((_name(wire.a), y))
            self.strips[strip] = (start, y)
            y += PAD_ROW
        self.hub_y = dict(rows)
        self.hub_bottom = y
        self.lanes1 = self._lanes([(w, self._pin_y(int(w.a.terminal)), self._hub_end_y(w))
                                   for w in self.net.wires if w.a.part == "pin"])
        self.x_lane1 = self.x_j1 + COLUMN + 18
        self.x_pad = self.x_lane1 + LANE * len(self.lanes1) + 14

    def _hub_end_y(self, wire: Wire) -> float:
        """Where the wire meets the hub's right-hand column: its pad, or its strip's feed."""
        return self.hub_y[_name(wire.b) if wire.b.part == "hub" or wire.a.part == "pin" else _name(wire.a)]

    def _place_plugs(self) -> None:
        """Each seat panel's plugs, pin by pin, below one another."""
        self.plug_at: dict[str, tuple[int, float, str]] = {}        # seat end -> (pin, y, plug)
        self.panels: list[tuple[int, float, list[tuple[str, list[tuple[int, str, float]]]]]] = []
        y = TOP + 8
        for i, seat in enumerate(self.profile.seats, 1):
            top, plugs = y, []
            y += 22
            for plug in connector.plugs(self.profile, seat):
                y += 18
                rows = []
                for k, line in enumerate(plug.pins, 1):
                    y += PLUG_ROW
                    end = f"seat{i}:{line}"
                    if end in self.plug_at or line == "NC":
                        rows.append((k, f"{line}: joined to pin {self.plug_at[end][0]} on the socket" if line != "NC"
                                     else "NC: not connected", y))
                        continue
                    self.plug_at[end] = (k, y, plug.name)
                    rows.append((k, f"{line}: {self._feeds(line)}", y))
                plugs.append((f"{plug.name} plug: {plug.part}", rows))
            self.panels.append((i, top, plugs))
            y += PLUG_ROW + 14
        self.panels_bottom = y
        self.panel_width = 2 * COLUMN + 10 + max(textwidth.width(f"pin {pin}  {label}", SMALL + 1)
                                                 for _, _, plugs in self.panels for _, rows in plugs
                                                 for pin, label, _ in rows)
        to_seats = [w for w in self.net.wires if w.b.part.startswith("seat")]
        self.lanes2 = self._lanes([(w, self._hub_end_y(w), self.plug_at[_name(w.b)][1]) for w in to_seats])
        self.x_lane2 = self.x_pad + 34
        self.x_plug = self.x_lane2 + LANE * len(self.lanes2) + 14

    def _feeds(self, line: str) -> str:
        """What on the panel a plug line goes to."""
        lit = "LED: anode (cathode to the panel's GND)" if self.profile.lamp.kind == "led" else "lamp: its minus tag"
        kinds = {"hole": "button: COM (NO to the panel's GND)", "lamp": lit}
        if line[:4] in kinds and line[4:].isdigit():
            return f"hole {line[4:]} {kinds[line[:4]]}"
        return {"ok": "OK button: COM (NO to the panel's GND)", "3V3": "OLED VCC", "SDA": "OLED SDA",
                "SCL": "OLED SCL", "GND": "the panel's GND: OLED GND, the buttons' NO, the LEDs' cathodes"}.get(
            line, f"the lamps' + tags ({line})")

    @staticmethod
    def _lanes(spans: list[tuple[Wire, float, float]]) -> dict[Wire, int]:
        """Each wire's lane in a channel, 0 leftmost: wires heading down nest with the lowest start innermost,
        wires heading up after them with the highest start innermost."""
        down = sorted((s for s in spans if s[2] >= s[1]), key=lambda s: -s[1])
        up = sorted((s for s in spans if s[2] < s[1]), key=lambda s: s[1])
        return {s[0]: n for n, s in enumerate(down + up)}

    def _run(self, wire: Wire) -> Run:
        points: list[tuple[float, float]] = []
        if wire.a.part == "pin":
            n = int(wire.a.terminal)
            y, lane = self._pin_y(n), self.x_lane1 + LANE * self.lanes1[wire]
            points += [(self._pin_x(n, self.x_pi), y), (self._pin_x(n, self.x_j1), y), (lane, y),
                       (lane, self._hub_end_y(wire)), (self.x_pad, self._hub_end_y(wire))]
            source = f"{PIN_NAMES[n]} (pin {n})"
        else:
            points.append((self.x_pad, self._hub_end_y(wire)))
            source = f"{wire.net} strip, pad {self.pads[_name(wire.b)]}"
        if wire.b.part == "hub":
            return Run(wire, tuple(points), source, f"the hub's {wire.net} strip")
        pin, y, plug = self.plug_at[_name(wire.b)]
        lane = self.x_lane2 + LANE * self.lanes2[wire]
        points += [(lane, points[-1][1]), (lane, y), (self._pin_x(pin, self.x_plug), y)]
        seat = wire.b.part.removeprefix("seat")
        via = f" via pad {self.pads[_name(wire.b)]}" if wire.a.part == "pin" else ""
        return Run(wire, tuple(points), source + via, f"seat {seat} {plug} plug pin {pin} ({wire.b.terminal})")

    # ---- drawing ----

    def svg(self) -> str:
        root = svgdoc.root()
        text(root, MARGIN, MARGIN + 14, f"Every wire of {self.profile.name}, pin to pin: the Pi, its ribbon, the hub, "
             "the seat panels' plugs", 15, bold=True)
        text(root, MARGIN, MARGIN + 34, "Each line is one wire, from the Pi's pin (or the hub strip's pad) along its "
             "ribbon core to the hub's J1, to its pad there (P1 ... as on the stripboard drawing), then to")
        text(root, MARGIN, MARGIN + 50, "its pin of the seat's plug. Pins 2 and 4 (5 V) are pulled from J1. Colour: "
             "the line's domain; thick lines are supplies and ground.")
        x, present = MARGIN, {_domain(self.profile, run.wire) for run in self.runs}
        for colour, label in (style for domain, style in DOMAIN_STYLES.items() if domain in present):
            ET.SubElement(root, "line", {"class": "legend"}, x1=f"{x:g}", y1=f"{MARGIN + 70:g}", x2=f"{x + 22:g}",
                          y2=f"{MARGIN + 70:g}", stroke=colour, **{"stroke-width": "3"})
            text(root, x + 28, MARGIN + 74, label)
            x += 40 + textwidth.width(label, svgdoc.FONT)
        self._headers(root)
        self._hub(root)
        self._panels(root)
        layer = ET.SubElement(root, "g", {"class": "wires"})
        for run in self.runs:
            self._wire(layer, run)
        width = self.x_plug + self.panel_width + MARGIN
        height = max(self._pin_y(40) + 20, self.hub_bottom, self.panels_bottom) + MARGIN
        return svgdoc.finish(root, max(width, x + MARGIN), height)

    def _headers(self, root: ET.Element) -> None:
        """J8 on the Pi, the ribbon's 40 cores, and J1 on the hub."""
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
                node = ET.SubElement(g, "circle", {"class": "pin", "data-header": title, "data-physical": str(n)},
                                     cx=f"{self._pin_x(n, x):g}", cy=f"{self._pin_y(n):g}", r="3",
                                     fill="#ffd700" if n in present else "#ffffff", stroke="#333333")
                if n not in present:
                    node.set("stroke-dasharray", "1 1")
        for n in range(1, 41):
            text(g, self.x_pi - 10, self._pin_y(n) + 3, f"{PIN_NAMES[n]} ({n})", SMALL, "end")

    def _hub(self, root: ET.Element) -> None:
        """The hub's column of pads and strips, as on the stripboard drawing."""
        g = ET.SubElement(root, "g", {"class": "hub"})
        left = self.x_j1 - 12
        ET.SubElement(g, "rect", x=f"{left:g}", y=f"{TOP:g}", width=f"{self.x_pad + 28 - left:g}",
                      height=f"{self.hub_bottom - TOP:g}", rx="6", fill="#f3e3c3", stroke="#8a6d3b",
                      **{"fill-opacity": "0.5"})
        text(g, self.x_pad + 26, TOP - 6, "hub (docs/stripboard-" + self.profile.name + ".png)", SMALL + 2, "end",
             bold=True)
        for strip, (start, end) in self.strips.items():
            colour = DOMAIN_STYLES[guard.domain(strip)][0]
            ET.SubElement(g, "rect", {"class": "strip"}, x=f"{self.x_pad - 5:g}", y=f"{start - 6:g}", width="10",
                          height=f"{end - start + 12:g}", rx="3", fill=colour, **{"fill-opacity": "0.25"})
            text(g, self.x_pad + 9, start + 3, f"{strip} strip", SMALL, bold=True)
        for end, y in self.hub_y.items():
            ET.SubElement(g, "circle", cx=f"{self.x_pad:g}", cy=f"{y:g}", r="3.5", fill="#222222")
            if not end.endswith(":in"):
                far = end if end.startswith("seat") else next(_name(w.b) for w in self.net.wires if _name(w.a) == end)
                text(g, self.x_pad + 7, y - 4, self.pads[far], SMALL - 1)

    def _panels(self, root: ET.Element) -> None:
        for seat, top, plugs in self.panels:
            g = ET.SubElement(root, "g", {"class": "panel", "data-seat": str(seat)})
            bottom = plugs[-1][1][-1][2] + PLUG_ROW
            ET.SubElement(g, "rect", x=f"{self.x_plug - 10:g}", y=f"{top:g}", width=f"{self.panel_width + 10:g}",
                          height=f"{bottom - top:g}", rx="6", fill="#f7f7f7", stroke="#666666")
            text(g, self.x_plug, top + 16, f"seat {seat} panel", SMALL + 4, bold=True)
            for title, rows in plugs:
                text(g, self.x_plug, rows[0][2] - PLUG_ROW + 2, title, SMALL + 1, bold=True)
                for pin, label, y in rows:
                    x = self._pin_x(pin, self.x_plug)
                    ET.SubElement(g, "rect", {"class": "plug-pin"}, x=f"{x - 3.5:g}", y=f"{y - 3.5:g}", width="7",
                                  height="7", fill="#ffd700" if "NC" not in label else "#ffffff", stroke="#333333")
                    text(g, self.x_plug + 2 * COLUMN + 4, y + 3, f"pin {pin}  {label}", SMALL + 1)

    def _wire(self, layer: ET.Element, run: Run) -> None:
        domain = _domain(self.profile, run.wire)
        supply = run.wire.net in POWER_NETS and run.wire.net not in ("SDA", "SCL", "SDA0", "SCL0")
        node = ET.SubElement(layer, "polyline", {"class": "wire", "data-from": _name(run.wire.a),
                                                 "data-to": _name(run.wire.b), "data-net": run.wire.net,
                                                 "data-domain": domain},
                             points=" ".join(f"{x:g},{y:g}" for x, y in run.points), fill="none",
                             stroke=DOMAIN_STYLES[domain][0], **{"stroke-width": "2.2" if supply else "1.3"})
        ET.SubElement(node, "title").text = f"{run.source} -> {run.target}"
