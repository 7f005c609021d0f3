"""``molebox wiring pico``: the IO board itself, drawn: the Pico's 40 pins, the level shifter, the key matrix, a cable.

The Pico is drawn from above, USB at the top, as it lies on the bench: pins 1-20 down its left edge,
40-21 down its right, each used pin with its wire, coloured by its level, and what it goes to (the pins and
their nets from ``wiring/iocircuit.py``, the figures from ``wiring/hardware.py``, which the tests hold to
firmware/main.py); GP16's wire runs on to the level shifter. Beside it the 74AHCT125 pin by pin, the key
matrix (a row per seat, a column per button, a diode per switch with its band towards the row) and each
seat's plugs (``wiring/connector.py``) as the builder crimps them.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from . import connector, guard, svgdoc
from .hardware import (MATRIX_DIODE, PICO_COLUMN_PULLUP, PICO_COLUMN_SERIES, PICO_PIXEL_PIN, PICO_PIXEL_SERIES,
                       PICO_ROW_PINS, PICO_ROW_SERIES, PICO_VSYS_DIODE, PIXEL_PULLDOWN)
from .iocircuit import COLUMNS, FIRST_COLUMN, GROUND_PIN, PICO_NETS, PINS
from .profile import Profile
from .svgdoc import text as _text

SMALL = 10
ROW = 20                                    # the Pico's pin pitch on the page
PICO_W = 120
LABEL = 330                                 # room for a pin's label beside the board
LAMP_PINS = (16, 17, 18, 19, 20, 21, 22, 26, 27, 28)     # LAMPS = "plain" (firmware/main.py)
WIRE = {guard.GROUND: "#000000", guard.LOGIC: "#1f77b4", "5V": "#d62728"}      # a wire's colour, by its domain
# The 74AHCT125 (DIP-14, top view, notch up): pin -> its name and what goes to it.
SHIFTER = {1: ("1OE", "GND: gate 1 always on"), 2: ("1A", f"GP{PICO_PIXEL_PIN}; {PIXEL_PULLDOWN} to GND"),
           3: ("1Y", f"{PICO_PIXEL_SERIES} -> seat 1's DIN"), 4: ("2OE", "5 V (off)"), 5: ("2A", "GND"), 6: ("2Y", "open"),
           7: ("GND", "GND"), 8: ("3Y", "open"), 9: ("3A", "GND"), 10: ("3OE", "5 V (off)"), 11: ("4Y", "open"),
           12: ("4A", "GND"), 13: ("4OE", "5 V (off)"), 14: ("VCC", "5 V, 100 nF to GND")}


def pin_table(profile: Profile) -> str:
    """What ``molebox wiring pico`` prints: every Pico pin the board uses, and what goes to it."""
    return "".join(f"{n:>3}  {PINS[n - 1]:<9} {use}\n" for n, use in sorted(pin_uses(profile).items()))


def pin_uses(profile: Profile) -> dict[int, str]:
    """{Pico pin number: what goes to it} for the profile's IO board."""
    if profile.ioboard is None:
        raise ValueError(f"{profile.name} has no IO board (backend = \"ioboard\"): nothing for `molebox wiring pico`")
    gp = {int(name[2:]): n for n, name in enumerate(PINS, 1) if name.startswith("GP")}
    seats = len(profile.seats)
    out = {gp[g]: f"row, seat {s}: {PICO_ROW_SERIES} to its cable" for s, g in enumerate(PICO_ROW_PINS[:seats], 1)}
    out.update({gp[FIRST_COLUMN + c]: f"column {name}: {PICO_COLUMN_SERIES}, {PICO_COLUMN_PULLUP} to 3V3"
                for c, name in enumerate(COLUMNS)})
    if profile.lamp.kind == "ws2812":
        out[gp[PICO_PIXEL_PIN]] = "pixel data -> 74AHCT125 1A (pin 2)"
        out[39] = f"VSYS <- {PICO_VSYS_DIODE} (band here) <- 5 V in"
    else:
        out.update({gp[g]: f"lamp: seat {i // 5 + 1}, hole {i % 5 + 1}" for i, g in enumerate(LAMP_PINS[:5 * seats])})
    out[36] = "3V3: the six column pull-ups"
    out[GROUND_PIN] = "GND: GND in, the matrix's and the shifter's"
    out[40] = "VBUS: nothing (the Pi's USB only)"
    if profile.ioboard.port and profile.ioboard.port.startswith(("/dev/serial", "/dev/ttyAMA", "/dev/ttyS")):
        out.update({1: "UART0 TX -> the Pi's GPIO15 (RXD)", 2: "UART0 RX <- the Pi's GPIO14 (TXD)"})
    return out


def svg(profile: Profile) -> str:
    """The IO board of ``profile`` as an SVG document."""
    uses = pin_uses(profile)
    root = svgdoc.root()
    _text(root, 16, 28, f"The IO board of {profile.name}: the Pico from above, USB at the top", 16, bold=True)
    _text(root, 16, 48, "Each pin's wire, coloured by its level (blue 3.3 V logic, red 5 V, black ground), and what it "
          "goes to; the matrix and the plugs below, the level shifter beside.")
    left = 16 + LABEL
    top = 80
    board = ET.SubElement(root, "g", {"class": "pico"})
    ET.SubElement(board, "rect", x=str(left), y=str(top), width=str(PICO_W), height=str(20 * ROW + 20), rx="6",
                  fill="#2e7d32", stroke="#1b5e20")
    ET.SubElement(board, "rect", x=str(left + PICO_W / 2 - 18), y=str(top - 8), width="36", height="16",
                  fill="#bbbbbb", stroke="#555555")
    _text(board, left + PICO_W / 2, top + 4, "USB", 9, anchor="middle")
    for n in range(1, 41):
        side = "L" if n <= 20 else "R"
        y = top + 20 + ((n - 1) if side == "L" else (40 - n)) * ROW
        x = left if side == "L" else left + PICO_W
        used = n in uses
        g = ET.SubElement(board, "g", {"class": "pin", "data-pin": str(n), "data-name": PINS[n - 1]})
        ET.SubElement(g, "circle", cx=str(x), cy=str(y), r="5", fill="#ffd700" if used else "#ffffff",
                      stroke="#333333")
        inside = _text(g, x + 9 if side == "L" else x - 9, y + 4, f"{n} {PINS[n - 1]}" if side == "L" else
                       f"{PINS[n - 1]} {n}", SMALL, anchor="start" if side == "L" else "end", fill="#ffffff")
        inside.set("class", "name")
        out = -1 if side == "L" else 1
        if used:
            _text(g, x + out * 10, y - 3, uses[n], anchor="end" if side == "L" else "start").set("class", "use")
        if used and PICO_NETS[n - 1] != "VBUS":                # VBUS: the Pi's USB only, no wire on the board
            end = x + out * (LABEL - 40)
            net = PICO_NETS[n - 1]
            wire = ET.SubElement(g, "line", {"class": "wire", "data-net": net}, x1=str(x + out * 5), y1=str(y),
                                 x2=str(end), y2=str(y), stroke=WIRE[guard.domain(net, {"VSYS": "5V"})],
                                 **{"stroke-width": "2"})
            if net == f"GP{PICO_PIXEL_PIN}" and profile.lamp.kind == "ws2812":
                wire.tag, wire.attrib["points"] = "polyline", f"{x + 5},{y} {end + 20},{y} {end + 20}," \
                    f"{top + 16 + ROW} {end + 80},{top + 16 + ROW}"          # on to the shifter's 1A (pin 2)
                wire.set("fill", "none")
                for key in ("x1", "y1", "x2", "y2"):
                    del wire.attrib[key]
            else:
                ET.SubElement(g, "circle", cx=str(end), cy=str(y), r="2.5", fill=wire.get("stroke"))
    right = left + PICO_W + LABEL + 24
    bottom = max(_shifter(root, right, top) if profile.lamp.kind == "ws2812" else top, top + 20 * ROW + 40)
    bottom = _matrix(root, 16, bottom + 30, len(profile.seats))
    bottom = _plugs(root, 16, bottom + 30, profile)
    width = max(right + 420, 16 + 2 * LABEL + PICO_W + 40)
    return svgdoc.finish(root, round(width), round(bottom + 20))


def _shifter(root: ET.Element, x: float, top: float) -> float:
    """The 74AHCT125, top view, notch up: pins 1-7 down the left, 14-8 down the right, each with its far end."""
    g = ET.SubElement(root, "g", {"class": "shifter"})
    _text(g, x, top - 6, "74AHCT125 level shifter (top view, notch up)", bold=True)
    chip_x, body = x + 150, 90
    ET.SubElement(g, "rect", x=str(chip_x), y=str(top + 4), width=str(body), height=str(7 * ROW + 8), rx="4",
                  fill="#333333")
    ET.SubElement(g, "circle", cx=str(chip_x + body / 2), cy=str(top + 4), r="7", fill="#ffffff")
    for pin, (name, goes) in SHIFTER.items():
        side = "L" if pin <= 7 else "R"
        y = top + 16 + ((pin - 1) if side == "L" else (14 - pin)) * ROW
        px = chip_x if side == "L" else chip_x + body
        row = ET.SubElement(g, "g", {"class": "shifter-pin", "data-pin": str(pin)})
        ET.SubElement(row, "circle", cx=str(px), cy=str(y), r="4", fill="#ffd700", stroke="#333333")
        _text(row, px + 7 if side == "L" else px - 7, y + 4, f"{pin} {name}" if side == "L" else f"{name} {pin}",
              SMALL, anchor="start" if side == "L" else "end", fill="#ffffff")
        _text(row, px - 8 if side == "L" else px + 8, y + 4, goes, SMALL, anchor="end" if side == "L" else "start")
    _text(g, x, top + 7 * ROW + 40, "5 V and GND from the pixel supply; 1000 uF across 5 V at the chain's start.",
          SMALL)
    return top + 7 * ROW + 40


def _matrix(root: ET.Element, x: float, top: float, seats: int) -> float:
    """Rows (one per seat, driven low in turn) across columns (one per button); a switch and a diode at each
    crossing, the diode's band (cathode) towards the row."""
    g = ET.SubElement(root, "g", {"class": "matrix"})
    _text(g, x, top, f"The key matrix: at each crossing a switch and a {MATRIX_DIODE}, band towards the row; "
          f"{PICO_ROW_SERIES} in each row at the board", bold=True)
    pitch_x, pitch_y, x0, y0 = 90, 34, x + 150, top + 40
    for c, name in enumerate(COLUMNS):
        cx = x0 + c * pitch_x
        _text(g, cx, y0 - 14, f"GP{FIRST_COLUMN + c}: {name}", SMALL, anchor="middle")
        ET.SubElement(g, "line", x1=str(cx), y1=str(y0 - 8), x2=str(cx), y2=str(y0 + seats * pitch_y - 14),
                      stroke="#1f77b4")
    for s in range(seats):
        ry = y0 + s * pitch_y + 12
        _text(g, x, ry + 4, f"seat {s + 1}: row GP{PICO_ROW_PINS[s]}", SMALL)
        ET.SubElement(g, "line", x1=str(x0 - 30), y1=str(ry), x2=str(x0 + 5 * pitch_x + 30), y2=str(ry),
                      stroke="#d62728")
        for c in range(len(COLUMNS)):
            cx = x0 + c * pitch_x
            cell = ET.SubElement(g, "g", {"class": "crossing", "data-seat": str(s + 1), "data-column": COLUMNS[c]})
            # from the column down: the switch (two dots and a lever), then the diode pointing at the row
            ET.SubElement(cell, "circle", cx=str(cx), cy=str(ry - 20), r="1.8", fill="#000000")
            ET.SubElement(cell, "line", x1=str(cx), y1=str(ry - 20), x2=str(cx + 7), y2=str(ry - 13), stroke="#000000")
            ET.SubElement(cell, "polygon", points=f"{cx - 4},{ry - 10} {cx + 4},{ry - 10} {cx},{ry - 4}",
                          fill="#000000")
            ET.SubElement(cell, "line", x1=str(cx - 4), y1=str(ry - 3.5), x2=str(cx + 4), y2=str(ry - 3.5),
                          stroke="#000000")
    return y0 + seats * pitch_y


def _plugs(root: ET.Element, x: float, top: float, profile: Profile) -> float:
    """Each seat's plugs pin by pin, as on the cable: the IDC header's two rows, the lamp plug in a line."""
    g = ET.SubElement(root, "g", {"class": "plugs"})
    _text(g, x, top, "Every seat's cable: its plugs, pin 1 first (seat n's row is GP2 + n - 1)", bold=True)
    y = top + 24
    for plug in connector.plugs(profile, profile.seats[0]):
        _text(g, x, y, f"{plug.name} plug: {plug.part}", SMALL)
        pins = plug.pinout().split(", ")
        per_row = (len(pins) + 1) // 2 if plug.name == connector.LOGIC else len(pins)
        for i, text in enumerate(pins):
            cx = x + 16 + (i // 2 if plug.name == connector.LOGIC else i) * 86
            cy = y + 18 + (i % 2 if plug.name == connector.LOGIC else 0) * 22
            box = ET.SubElement(g, "g", {"class": "plug-pin", "data-plug": plug.name, "data-pin": text})
            ET.SubElement(box, "rect", x=str(cx - 6), y=str(cy - 12), width="82", height="18",
                          fill="#fff7d6" if plug.name == connector.LAMP else "#eef3fb", stroke="#555555")
            _text(box, cx, cy + 1, text, SMALL)
        y += 18 + (2 if plug.name == connector.LOGIC and per_row else 1) * 22 + 16
    return y

