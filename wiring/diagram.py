"""``molebox wiring diagram``: the header's pins to each part, as a pin table and as an SVG.

The table lists all 40 pins of each header the profile uses (what each one
carries, or that it is free). The SVG stacks the Pi's header and every part of
the box (``wiring/netlist.py``) in one column, with the header pins and the
parts' terminals on the column's two edges: odd pins on the left, even pins on
the right, as on the board. A wire leaves its pin or terminal outward, on its
own side, runs down a lane of its own beside the column and comes back in to
the terminal at its other end. No two wires share a lane or a row, and every
label sits inside the column, where no wire goes.
"""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from . import textwidth
from .header import BUSES, I2C_GPIO, buses_taken, controllers, pins, reserved, uses
from .netlist import netlist, pin_end
from .nets import End, Netlist, Part, Wire
from .profile import Profile

SEAT_COLOURS = ("#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2", "#bcbd22")
NET_STYLES = {                       # colour, dash: supplies red, ground black, the I2C lines grey
    "3V3": ("#d62728", ""), "5V": ("#d62728", "7 3"), "12V": ("#d62728", "2 3"), "GND": ("#000000", ""),
    "SDA": ("#7f7f7f", ""), "SCL": ("#7f7f7f", "7 3"), "signal": ("#555555", ""), "USB": ("#555555", ""),
    "SDA0": ("#8c6d31", ""), "SCL0": ("#8c6d31", "7 3"),    # I2C0's lines, brown: not to be mixed up with I2C1's
}
BAND_FILLS = {"3V3": "#fbe3e3", "5V": "#fbe3e3", "12V": "#fbe3e3", "GND": "#e4e4e4", "SDA": "#efefef", "SCL": "#efefef",
              "SDA0": "#f3ede2", "SCL0": "#f3ede2"}
MARGIN, GAP = 16, 16                 # canvas margin; space between two parts
PIN_ROW, PIN_R = 22, 6               # header rows and pin circles
TERM_ROW, TERM_R = 18, 3.5           # terminal rows and circles
LANE0, LANE, CABLE_LANE = 24, 7, 13  # the first lane's distance from the column; lane pitch
FONT, TITLE_FONT, NOTE_FONT = 11, 12, 10
INSET = 10                           # a label's distance from its pin or terminal
MIN_COLUMN = 420
LEGEND_WIDTH = 560


def display_summary(profile: Profile) -> dict[int, str]:
    """What the I2C pins carry: {physical pin: use} for SDA and SCL of each bus the displays travel on
    (I2C1: pins 3 and 5; I2C0: pins 27 and 28)."""
    out = {}
    for bus in sorted(controllers(profile) & set(I2C_GPIO), reverse=True):
        on_bus = [f"TCA9548A mux 0x{mux.address:02X} (buses {', '.join(map(str, mux.buses))})"
                  for mux in profile.muxes if mux.parent == bus]
        on_bus += [f"{name} 0x{spec.address:02X}" for name, spec in profile.displays().items() if spec.bus == bus]
        sda, scl = (int(pin_end(gpio).terminal) for gpio in I2C_GPIO[bus])
        out.update({sda: f"I2C{bus} SDA: " + ", ".join(on_bus), scl: f"I2C{bus} SCL: same"})
    return out


def wired_uses(net: Netlist) -> dict[int, str]:
    """What the box's wires add to the pin table: what each power pin feeds, and which lamp pins a driver takes."""
    out = {}
    for wire in net.wires:
        if wire.a.part != "pin":
            continue
        if wire.b.part.startswith("driver"):
            out[int(wire.a.terminal)] = f"through the {net.part(wire.b.part).short}'s {wire.b.terminal}"
        elif wire.net not in ("3V3", "5V", "GND"):
            continue
        elif wire.b.part == "hub":
            users = dict.fromkeys(net.part(w.b.part).short for w in net.wires if w.a.part == "hub" and w.net == wire.net)
            out[int(wire.a.terminal)] = f"{wire.net} to the hub's strip: {', '.join(users)}"
        else:
            out[int(wire.a.terminal)] = f"{wire.net} to the {net.part(wire.b.part).short}"
    return out


def pin_table(profile: Profile) -> str:
    """A plain-text table of every header pin: number, name, and what the profile puts on it."""
    by_header: dict[str, dict[int, str]] = defaultdict(dict)
    for use in uses(profile):
        by_header[use.header][use.gpio] = use.role
    if not by_header:
        by_header["main"] = {}
    i2c, busy, kept = display_summary(profile), buses_taken(profile), reserved(profile)
    wired = wired_uses(netlist(profile)) if profile.backend != "sim" else {}
    out = []
    for header, roles in by_header.items():
        if len(by_header) > 1:
            out.append(f"header {header}")
        out.append(f"{'pin':>3}  {'name':<7} use")
        for pin in pins():
            out.append(f"{pin.physical:>3}  {pin.name:<7} {_pin_use(pin, roles, i2c, wired, busy, kept)}".rstrip())
        if profile.ioboard is not None:
            where = profile.ioboard.port or f"USB {profile.ioboard.usb_id}"
            out.append(f"IO board on {where}: every seat's buttons and hole lamps (docs/ioboard.md)")
    return "\n".join(out) + "\n"


def _pin_use(pin, roles: dict[int, str], i2c: dict[int, str], wired: dict[int, str], busy: dict[str, str],
             kept: dict[str, str]) -> str:
    if pin.physical in i2c:
        return i2c[pin.physical]
    if pin.gpio in roles:
        return ", ".join(filter(None, (roles[pin.gpio], wired.get(pin.physical))))
    if pin.gpio is None:
        return wired.get(pin.physical, "")
    bus = pin.bus()
    if bus in kept:
        return f"(reserved: {BUSES[bus][1]}, {busy[bus]})"
    return f"({BUSES[bus][1]})" if bus in busy else "free"


def svg(profile: Profile) -> str:
    """The wiring as an SVG document."""
    return _Drawing(profile, netlist(profile)).svg()


def svg_digest(document: str) -> str:
    """What a PNG of the drawing records of the SVG it was rendered from."""
    return "sha256:" + hashlib.sha256(document.encode()).hexdigest()


def png(document: str, path: Path) -> None:
    """Render the SVG with rsvg-convert into ``path``, noting the SVG's digest in the PNG (its ``Source``)."""
    from PIL import Image, PngImagePlugin

    if shutil.which("rsvg-convert") is None:
        raise OSError("rsvg-convert draws the PNG: apt install librsvg2-bin")
    subprocess.run(["rsvg-convert", "-o", str(path)], input=document.encode(), check=True, timeout=120)
    info = PngImagePlugin.PngInfo()
    info.add_text("Source", f"molebox wiring diagram, from the SVG {svg_digest(document)}")
    with Image.open(path) as image:
        image.load()
    image.save(path, pnginfo=info)


@dataclass
class _Place:
    """Where a pin or terminal sits: its side of the column and its height."""

    side: str                       # "L" or "R"
    y: float


class _Drawing:
    """Lays the header and the parts out in one column, gives every wire its lane, and writes the SVG."""

    def __init__(self, profile: Profile, net: Netlist):
        self.profile, self.net = profile, net
        self.kept = reserved(profile)
        self.colours = {f"seat{i}": SEAT_COLOURS[(i - 1) % len(SEAT_COLOURS)] for i in range(1, 9)}
        self.side = self._sides()
        self.at: dict[End, _Place] = {}
        self.rows: dict[str, list[tuple[End | None, End | None]]] = {}
        self.heads: dict[str, list[tuple[str, int, bool]]] = {}
        self.tops: dict[str, float] = {}
        self.bottoms: dict[str, float] = {}
        self.pin_uses = self._pin_uses()
        self.legend = self._legend_rows()
        self.top = MARGIN + 36 + 16 * len(self._subtitle()) + 18 * len(self.legend) + 16
        y = self._place_header()
        for part in net.parts:
            y = self._place_part(part, y + GAP)
        self.height = y + MARGIN
        self.column = self._column_width()
        self.lanes = {side: self._lanes(side) for side in "LR"}
        self.left = MARGIN + max([0, *self.lanes["L"].values()]) + LANE0 / 2
        self.right = self.left + self.column
        self.width = max(self.right + max([0, *self.lanes["R"].values()]) + LANE0 / 2 + MARGIN,
                         MARGIN * 2 + max(textwidth.width(line, FONT) for line in self._subtitle()),
                         MARGIN * 2 + textwidth.width(self._title(), 16, bold=True), MARGIN * 2 + LEGEND_WIDTH)

    # ---- layout ----

    def _sides(self) -> dict[int, str]:
        """Each wire's side: its header pin's, else the side with fewer wires when its bundle is met."""
        side, count = {}, {"L": 0, "R": 0}
        for i, wire in enumerate(self.net.wires):
            pin = next((e for e in (wire.a, wire.b) if e.part == "pin"), None)
            if pin is not None:
                side[i] = "L" if int(pin.terminal) % 2 else "R"
                count[side[i]] += 1
        bundles: dict[frozenset, str] = {}
        for i, wire in enumerate(self.net.wires):
            if i in side:
                continue
            key = frozenset((wire.a.part, wire.b.part))
            if key not in bundles:
                bundles[key] = min("LR", key=lambda s: count[s])
            side[i] = bundles[key]
            count[side[i]] += 1
        return side

    def _pin_uses(self) -> dict[int, tuple[str, str]]:
        """{physical pin: (what it feeds, colour)} for every pin with a wire."""
        out = {}
        for wire in self.net.wires:
            if wire.a.part == "pin":
                far = self.net.part(wire.b.part)
                label = far.terminals[wire.b.terminal].split(":")[0]
                use = f"{wire.net} to hub" if far.key == "hub" else f"{far.short.removesuffix(' panel')} {label}"
                out[int(wire.a.terminal)] = (use, self._colour(wire))
        return out

    def _place_header(self) -> float:
        for pin in pins():
            self.at[End("pin", str(pin.physical))] = _Place("L" if pin.physical % 2 else "R", self._pin_y(pin.physical))
        return self._pin_y(40) + PIN_ROW

    def _pin_y(self, physical: int) -> float:
        return self.top + 30 + (physical - 1) // 2 * PIN_ROW

    def _ends(self, part: Part) -> dict[str, tuple[End, str]]:
        """Each terminal of the part: the far end of its wire and the wire's side."""
        out = {}
        for i, wire in enumerate(self.net.wires):
            for near, far in ((wire.a, wire.b), (wire.b, wire.a)):
                if near.part == part.key:
                    out[near.terminal] = (far, self.side[i])
        return out

    def _order(self, names: list[str], ends: dict[str, tuple[End, str]]) -> list[str]:
        """Terminals top to bottom so that wires nest: a wire from further away goes further out and lower.

        Ends already placed come first, the lowest of them at the top; then ends further down, the
        furthest at the top.
        """
        index = {p.key: i for i, p in enumerate(self.net.parts)}

        def key(name: str):
            far = ends[name][0]
            if far in self.at:
                return (0, -self.at[far].y)
            return (1, -index[far.part], list(self.net.part(far.part).terminals).index(far.terminal))
        return sorted(names, key=key)

    def _place_part(self, part: Part, top: float) -> float:
        self.tops[part.key] = top
        ends = self._ends(part)
        head = [(part.title, TITLE_FONT, True)]
        for note in part.notes:
            head += [(line, NOTE_FONT, False) for line in textwidth.wrap(note, NOTE_FONT, MIN_COLUMN - 2 * INSET)]
        self.heads[part.key] = head
        y = top + 8 + sum(line[1] + 5 for line in head) + 4
        groups = ([[n for n in part.terminals if part.bands[n] == net] for net in dict.fromkeys(part.strips)] if part.bands
                  else [list(part.terminals)])
        rows = []
        for group in filter(None, groups):
            sides = {s: self._order([n for n in group if ends[n][1] == s], ends) for s in "LR"}
            for r in range(max(map(len, sides.values()))):
                row = tuple(End(part.key, sides[s][r]) if r < len(sides[s]) else None for s in "LR")
                for s, end in zip("LR", row):
                    if end is not None:
                        self.at[end] = _Place(s, y + (len(rows) + 0.5) * TERM_ROW)
                rows.append(row)
        self.rows[part.key] = rows
        self.bottoms[part.key] = y + len(rows) * TERM_ROW + 6
        return self.bottoms[part.key]

    def _column_width(self) -> float:
        need = [MIN_COLUMN]
        for pin_row in range(20):
            left, right = (self._pin_label(2 * pin_row + n) for n in (1, 2))
            need.append(sum(textwidth.width("".join(t for t, _ in label), FONT) for label in (left, right))
                        + 2 * INSET + 24)
        for part in self.net.parts:
            need += [textwidth.width(text, size, bold) + 2 * INSET for text, size, bold in self.heads[part.key]]
            for row in self.rows[part.key]:
                widths = [textwidth.width(part.terminals[e.terminal], FONT) if e else 0 for e in row]
                if part.bands:              # the strip's name sits in the middle of its band
                    strip = next(part.bands[e.terminal] for e in row if e)
                    need.append(2 * max(widths) + textwidth.width(f"{strip} strip", FONT, bold=True) + 2 * INSET + 24)
                else:
                    need.append(sum(widths) + 2 * INSET + 24)
        return max(need)

    def _lanes(self, side: str) -> dict[int, float]:
        """Each wire on ``side``: its lane's distance from the column, the shortest wire innermost."""
        mine = [i for i in self.side if self.side[i] == side]
        mine.sort(key=lambda i: abs(self._y(self.net.wires[i].a) - self._y(self.net.wires[i].b)))
        out, pos = {}, LANE0
        for i in mine:
            pitch = CABLE_LANE if self.net.wires[i].cable else LANE
            out[i] = pos + (pitch - LANE) / 2
            pos += pitch
        return out

    def _y(self, end: End) -> float:
        return self.at[end].y

    def _x(self, end: End) -> float:
        return self.left if self.at[end].side == "L" else self.right

    # ---- drawing ----

    def _title(self) -> str:
        return f"{self.profile.title}  ({self.profile.name})"

    def _subtitle(self) -> list[str]:
        return ["The Pi from above, its header down the right-hand edge (a Pi 3, 4 or 5: USB ports facing down):",
                "pin 1 (3V3) is top left. Odd pins wire out to the left, even pins to the right, each wire in a "
                "lane of its own."]

    def svg(self) -> str:
        root = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", width=f"{self.width:.0f}",
                          height=f"{self.height:.0f}", viewBox=f"0 0 {self.width:.0f} {self.height:.0f}",
                          **{"font-family": textwidth.FONT_FAMILY, "font-size": str(FONT)})
        ET.SubElement(root, "title").text = f"molebox wiring: {self.profile.title}"
        ET.SubElement(root, "rect", width="100%", height="100%", fill="#ffffff")
        _text(root, MARGIN, MARGIN + 14, self._title(), size=16, bold=True)
        for n, line in enumerate(self._subtitle()):
            _text(root, MARGIN, MARGIN + 36 + 16 * n, line)
        self._legend(root, MARGIN + 36 + 16 * len(self._subtitle()) + 8)
        layer = ET.SubElement(root, "g", {"class": "wires"})
        for i, wire in enumerate(self.net.wires):
            self._wire(layer, i, wire)
        self._header(root)
        for part in self.net.parts:
            self._part(root, part)
        ET.indent(root)
        for node in root.iter("text"):      # indenting a label's spans would put spaces into the label
            if len(node):
                node.text = None
                for span in node:
                    span.tail = None
        return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"

    def _legend_rows(self) -> list[list[tuple[str, float]]]:
        """The key to the wire colours, in rows no wider than LEGEND_WIDTH: [(net, x from the margin)]."""
        seats = [f"seat{i}" for i in range(1, len(self.profile.seats) + 1)]
        rows: list[list[tuple[str, float]]] = [[]]
        x = 0.0
        for net in [*(n for n in NET_STYLES if any(w.net == n for w in self.net.wires)), *seats]:
            step = 26 + textwidth.width(_legend_label(net), FONT)
            if x + step > LEGEND_WIDTH:
                rows.append([])
                x = 0.0
            rows[-1].append((net, x))
            x += step + 14
        return rows

    def _legend(self, root: ET.Element, y: float) -> None:
        for n, row in enumerate(self.legend):
            for net, x in row:
                colour, dash = NET_STYLES.get(net, (self.colours.get(net), ""))
                line = ET.SubElement(root, "line", {"class": "legend"}, x1=f"{MARGIN + x:g}", y1=f"{y + 18 * n - 4:g}",
                                     x2=f"{MARGIN + x + 22:g}", y2=f"{y + 18 * n - 4:g}", stroke=colour)
                line.set("stroke-width", "2")
                if dash:
                    line.set("stroke-dasharray", dash)
                _text(root, MARGIN + x + 26, y + 18 * n, _legend_label(net))

    def _colour(self, wire: Wire) -> str:
        return self.colours.get(wire.net) or NET_STYLES[wire.net][0]

    def _wire(self, layer: ET.Element, i: int, wire: Wire) -> None:
        (xa, ya), (xb, yb) = ((self._x(e), self._y(e)) for e in (wire.a, wire.b))
        offset = self.lanes[self.side[i]][i]
        lane = self.left - offset if self.side[i] == "L" else self.right + offset
        points = ((xa, ya), (lane, ya), (lane, yb), (xb, yb))
        node = ET.SubElement(layer, "polyline", {"class": "wire", "data-from": _name(wire.a), "data-to": _name(wire.b),
                                                 "data-net": wire.net}, fill="none", stroke=self._colour(wire),
                             points=" ".join(f"{x:g},{y:g}" for x, y in points))
        node.set("stroke-width", "4" if wire.cable else "1.6")
        dash = NET_STYLES.get(wire.net, ("", ""))[1]
        if dash:
            node.set("stroke-dasharray", dash)
        if wire.cable:
            node.set("data-cable", "yes")
        ET.SubElement(node, "title").text = wire.title

    def _header(self, root: ET.Element) -> None:
        group = ET.SubElement(root, "g", {"class": "header"})
        ET.SubElement(group, "rect", x=f"{self.left - 12:g}", y=f"{self.top:g}", width=f"{self.column + 24:g}",
                      height=f"{self._pin_y(40) + PIN_ROW / 2 + 4 - self.top:g}", rx="6", fill="#e8f1e8",
                      stroke="#4a7a4a")
        _text(group, (self.left + self.right) / 2, self.top + 16, "Raspberry Pi header J8", anchor="middle",
              bold=True, size=TITLE_FONT)
        for pin in pins():
            end = End("pin", str(pin.physical))
            x, y = self._x(end), self._y(end)
            used = pin.physical in self.pin_uses
            fill = ("#ffd700" if used and pin.gpio is not None else "#d62728" if pin.name in ("3V3", "5V")
                    else "#222222" if pin.name == "GND" else "#bbbbbb" if pin.bus() in self.kept else "#ffffff")
            g = ET.SubElement(group, "g", {"class": "pin", "data-physical": str(pin.physical)})
            circle = ET.SubElement(g, "circle", cx=f"{x:g}", cy=f"{y:g}", r=str(PIN_R), fill=fill, stroke="#333333")
            if used:
                circle.set("stroke-width", "2.5")
            label = self._pin_label(pin.physical)
            left = pin.physical % 2
            node = _text(g, x + INSET if left else x - INSET, y + 4, "", anchor="start" if left else "end")
            node.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")    # the gap between name and use
            for text, colour in label:
                span = ET.SubElement(node, "tspan")
                span.text = text
                if colour:
                    span.set("fill", colour)

    def _pin_label(self, physical: int) -> list[tuple[str, str]]:
        """A pin's name and number, and in its wire's colour what it feeds: reading away from the pin."""
        pin = next(p for p in pins() if p.physical == physical)
        name = f"{pin.name} ({physical})"
        use, colour = self.pin_uses.get(physical, ("reserved: HAT EEPROM" if pin.bus() in self.kept else "", "#777777"))
        if not use:
            return [(name, "")]
        return [(name, ""), (f"  {use}", colour)] if physical % 2 else [(f"{use}  ", colour), (name, "")]

    def _part(self, root: ET.Element, part: Part) -> None:
        top = self.tops[part.key]
        rows = self.rows[part.key]
        y = top + 8
        group = ET.SubElement(root, "g", {"class": "part", "data-part": part.key})
        height = self.bottoms[part.key] - top
        ET.SubElement(group, "rect", x=f"{self.left:g}", y=f"{top:g}", width=f"{self.column:g}", height=f"{height:g}",
                      rx="6", fill="#f7f7f7", stroke=self.colours.get(part.net, "#666666"))
        for text, size, bold in self.heads[part.key]:
            y += size + 5
            _text(group, self.left + INSET, y - 3, text, size=size, bold=bold)
        if part.bands:
            self._bands(group, part)
        for row in rows:
            for end in filter(None, row):
                self._terminal(group, part, end)

    def _bands(self, group: ET.Element, part: Part) -> None:
        """The hub's strips: one band per line, its terminals on the band's edges, in the strips' order (a second
        ground strip, between two supplies, is on the stripboard drawing)."""
        for net in dict.fromkeys(part.strips):
            ends = [End(part.key, n) for n in part.terminals if part.bands[n] == net]
            if not ends:
                continue
            ys = [self._y(e) for e in ends]
            top, bottom = min(ys) - TERM_ROW / 2 + 1, max(ys) + TERM_ROW / 2 - 1
            band = ET.SubElement(group, "rect", {"class": "strip"}, x=f"{self.left + 4:g}", y=f"{top:g}",
                                 width=f"{self.column - 8:g}", height=f"{bottom - top:g}", rx="3",
                                 fill=BAND_FILLS[net], stroke=NET_STYLES[net][0])
            band.set("stroke-width", "1")
            _text(group, (self.left + self.right) / 2, (top + bottom) / 2 + 4, f"{net} strip", anchor="middle",
                  bold=True)

    def _terminal(self, group: ET.Element, part: Part, end: End) -> None:
        x, y = self._x(end), self._y(end)
        wire = next(w for w in self.net.wires if end in (w.a, w.b))
        g = ET.SubElement(group, "g", {"class": "terminal", "data-terminal": _name(end)})
        ET.SubElement(g, "circle", cx=f"{x:g}", cy=f"{y:g}", r=str(TERM_R), fill=self._colour(wire))
        left = self.at[end].side == "L"
        _text(g, x + INSET if left else x - INSET, y + 4, part.terminals[end.terminal],
              anchor="start" if left else "end")


def _legend_label(net: str) -> str:
    return {"signal": "buzzer, status LED", "USB": "USB cable", "SDA0": "SDA (I2C0)", "SCL0": "SCL (I2C0)"}.get(
        net, net.replace("seat", "seat "))


def _name(end: End) -> str:
    return f"{end.part}:{end.terminal}"


def _text(parent: ET.Element, x: float, y: float, text: str, anchor: str = "start", size: float | None = None,
          bold: bool = False) -> ET.Element:
    node = ET.SubElement(parent, "text", x=f"{x:g}", y=f"{y:g}", **{"text-anchor": anchor})
    if size:
        node.set("font-size", f"{size:g}")
    if bold:
        node.set("font-weight", "bold")
    if text:
        node.text = text
    return node
