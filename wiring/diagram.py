"""``molebox wiring diagram``: the header's pins to each panel, as a pin table and as an SVG.

The table lists all 40 pins of each header the profile uses (what each one
carries, or that it is free); the SVG draws the header as it sits on the board
and a wire from every used pin to its terminal on the panel, one colour per
seat, with the I2C displays (and the mux, if any) on pins 3 and 5.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import dataclass, field

from .header import BUSES, buses_in_use, pins, uses
from .profile import Profile

SEAT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2")
EXTRA_COLOUR = "#555555"
I2C_COLOUR = "#000000"
ROW, PIN_R, TOP = 18, 6, 70
HEADER_X = 170                       # the left column of pins; the right one is 20 px further
WIRE_X = 330                         # wires turn down in their own lane from here, 5 px apart
PANEL_X, TERMINAL = 620, 14


def display_summary(profile: Profile) -> dict[int, str]:
    """What the I2C pins carry: {physical pin: use} for SDA (3) and SCL (5) when displays are wired."""
    if profile.backend == "sim" or not (profile.displays() or profile.mux):
        return {}
    on_parent = [f"{name} 0x{spec.address:02X}" for name, spec in profile.displays().items()
                 if not profile.mux or spec.bus == profile.mux.parent]
    if profile.mux:
        on_parent.insert(0, f"TCA9548A mux 0x{profile.mux.address:02X} (buses {', '.join(map(str, profile.mux.buses))})")
    return {3: "I2C1 SDA: " + ", ".join(on_parent), 5: "I2C1 SCL: same"}


def pin_table(profile: Profile) -> str:
    """A plain-text table of every header pin: number, name, and what the profile puts on it."""
    by_header: dict[str, dict[int, str]] = defaultdict(dict)
    for use in uses(profile):
        by_header[use.header][use.gpio] = use.role
    if not by_header:
        by_header["main"] = {}
    i2c, busy = display_summary(profile), buses_in_use(profile)
    out = []
    for header, roles in by_header.items():
        if len(by_header) > 1:
            out.append(f"header {header}")
        out.append(f"{'pin':>3}  {'name':<7} use")
        for pin in pins():
            if pin.physical in i2c:
                use = i2c[pin.physical]
            elif pin.gpio in roles:
                use = roles[pin.gpio]
            elif pin.gpio is None:
                use = {"3V3": "power for the displays", "GND": "ground: buttons, lamps, displays"}.get(pin.name, "")
            elif pin.bus() in busy:
                use = f"({BUSES[pin.bus()][1]})"
            else:
                use = "free"
            out.append(f"{pin.physical:>3}  {pin.name:<7} {use}".rstrip())
        if profile.ioboard is not None:
            where = profile.ioboard.port or f"USB {profile.ioboard.usb_id}"
            out.append(f"IO board on {where}: every seat's buttons and hole lamps (docs/ioboard.md)")
    return "\n".join(out) + "\n"


def svg(profile: Profile) -> str:
    """The wiring as an SVG document."""
    header_uses = [u for u in uses(profile) if u.header == (profile.seats[0].header if profile.seats else "main")]
    boxes = _boxes(profile)
    wires = []                                      # (box, terminal, physical pin, title)
    for use in header_uses:
        physical = next(p.physical for p in pins() if p.gpio == use.gpio)
        key = f"seat {use.index + 1}" if use.section else use.field
        if key not in boxes:
            boxes[key] = Box(key, use.role, EXTRA_COLOUR, False)
        terminal = use.role.removeprefix(key).strip() or use.role
        wires.append((boxes[key], terminal, physical, f"GPIO{use.gpio} to {use.role}"))
    for physical, line in sorted(display_summary(profile).items()):
        name = line.split(":")[0]
        wires += [(box, name, physical, f"{name} to {box.label}") for box in boxes.values() if box.i2c]
    for box, terminal, _, _ in wires:
        box.terminals.append(terminal)
    top = TOP - 10
    for box in boxes.values():
        box.terminals.sort(key=lambda name: (TERMINAL_ORDER.get(name.split()[0], 9), name))
        box.top, top = top, top + box.height + 10
    width, height = PANEL_X + 280, max(TOP + 21 * ROW, top) + 20
    root = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", width=str(width), height=str(height),
                      viewBox=f"0 0 {width} {height}", **{"font-family": "sans-serif", "font-size": "11"})
    ET.SubElement(root, "title").text = f"molebox wiring: {profile.title}"
    _text(root, 20, 24, f"{profile.title}  ({profile.name})", size="15", weight="bold")
    _text(root, 20, 44, "Raspberry Pi 40-pin header, pins by physical number; wires to each panel's terminals")
    layer = ET.SubElement(root, "g", {"class": "wires"})
    for lane, (box, terminal, physical, title) in enumerate(sorted(wires, key=lambda w: w[2])):
        _wire(layer, _pin_xy(physical), box.y(terminal), lane, box.colour, title)
    for box in boxes.values():
        box.draw(root)
    used = {w[2] for w in wires}
    for pin in pins():
        x, y = _pin_xy(pin.physical)
        fill = ("#ffd700" if pin.physical in used else "#c00" if pin.name in ("3V3", "5V")
                else "#333" if pin.name == "GND" else "#fff")
        g = ET.SubElement(root, "g", {"class": "pin", "data-physical": str(pin.physical)})
        ET.SubElement(g, "circle", cx=str(x), cy=str(y), r=str(PIN_R), fill=fill, stroke="#333")
        anchor, tx = ("end", x - 10) if pin.physical % 2 else ("start", x + 10)
        _text(g, tx, y + 4, f"{pin.name} ({pin.physical})", anchor=anchor, halo=True)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


TERMINAL_ORDER = {"hole": 0, "lamp": 1, "OK": 2, "I2C1": 3}


@dataclass
class Box:
    """A panel, the mux, the table display or the IO board on the right, with its terminals."""

    key: str
    label: str
    colour: str
    i2c: bool                                       # takes SDA and SCL from the header
    terminals: list[str] = field(default_factory=list)
    top: int = 0

    @property
    def height(self) -> int:
        return 26 + max(len(self.terminals), 1) * TERMINAL

    def y(self, terminal: str) -> int:
        return self.top + 26 + self.terminals.index(terminal) * TERMINAL

    def draw(self, root: ET.Element) -> None:
        group = ET.SubElement(root, "g", {"class": "panel", "data-name": self.key})
        ET.SubElement(group, "rect", x=str(PANEL_X), y=str(self.top), width="260", height=str(self.height),
                      rx="6", fill="#f7f7f7", stroke=self.colour)
        _text(group, PANEL_X + 8, self.top + 14, self.label, weight="bold")
        for name in self.terminals:
            ET.SubElement(group, "circle", cx=str(PANEL_X + 14), cy=str(self.y(name)), r="3", fill=self.colour)
            _text(group, PANEL_X + 22, self.y(name) + 4, name)


def _boxes(profile: Profile) -> dict[str, Box]:
    """The seats, the mux, the table display and the IO board, before any wire is added."""
    i2c = bool(display_summary(profile))
    boxes: dict[str, Box] = {}
    for i, seat in enumerate(profile.seats):
        direct = bool(seat.display) and i2c and not (profile.mux and seat.display.bus in profile.mux.buses)
        boxes[f"seat {i + 1}"] = Box(f"seat {i + 1}", f"seat {i + 1}{_display_note(profile, seat.display)}",
                                     SEAT_COLOURS[i % len(SEAT_COLOURS)], direct)
    if profile.mux:
        boxes["mux"] = Box("mux", f"TCA9548A mux 0x{profile.mux.address:02X}: seat OLEDs",
                           I2C_COLOUR, i2c)
    if profile.table:
        boxes["table"] = Box("table", f"table display{_display_note(profile, profile.table)}", I2C_COLOUR, i2c)
    if profile.ioboard:
        where = profile.ioboard.port or f"USB {profile.ioboard.usb_id}"
        boxes["ioboard"] = Box("ioboard", f"IO board on {where}: all buttons and lamps", EXTRA_COLOUR, False)
    return boxes


def _display_note(profile: Profile, spec) -> str:
    if spec is None:
        return ""
    where = (f"mux channel {profile.mux.buses.index(spec.bus)}" if profile.mux and spec.bus in profile.mux.buses
             else f"bus {spec.bus}")
    return f": {spec.driver} 0x{spec.address:02X} on {where}"


def _pin_xy(physical: int) -> tuple[int, int]:
    return HEADER_X + (0 if physical % 2 else 20), TOP + (physical - 1) // 2 * ROW


def _wire(root: ET.Element, start: tuple[int, int], terminal_y: int, lane: int, colour: str, title: str) -> None:
    x, y = start
    lane_x = WIRE_X + lane * 5
    end_x = PANEL_X + 14
    path = ET.SubElement(root, "polyline", {"class": "wire"}, fill="none", stroke=colour, points=" ".join(
        f"{px},{py}" for px, py in ((x, y), (x + 12, y), (lane_x, y), (lane_x, terminal_y), (end_x, terminal_y))))
    path.set("stroke-width", "1.5")
    ET.SubElement(path, "title").text = title


def _text(parent: ET.Element, x: int, y: int, text: str, anchor: str = "start", size: str | None = None,
          weight: str | None = None, halo: bool = False) -> None:
    node = ET.SubElement(parent, "text", x=str(x), y=str(y), **{"text-anchor": anchor})
    if halo:                                        # wires pass under the pin names, which stay legible
        node.attrib.update({"stroke": "#fff", "stroke-width": "3", "paint-order": "stroke"})
    if size:
        node.set("font-size", size)
    if weight:
        node.set("font-weight", weight)
    node.text = text
