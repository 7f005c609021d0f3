"""The committed wiring drawings (docs/wiring-*.svg and .png) read back as a builder reads them.

Each SVG is parsed on its own: the header's pin circles, the parts' terminal
circles, every label's box as DejaVu Sans (the font the drawings name and
rsvg-convert renders) sets it, and every wire's points. A wire must leave a pin
from that pin's own circle, outward on the pin's side of the header; it must
cross no other pin or terminal circle and no label; no two wires may run along
the same line; every terminal carries exactly one wire and every pin at most
one; no label leaves the canvas or covers another. Then the profile is held
against what is drawn: every GPIO it uses, the power, ground and bus lines of
every panel, display and driver, and each mux channel to its seat's screen.
"""
from __future__ import annotations

import hashlib
import itertools
import math
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from wiring.header import pins, uses
from wiring.profile import load

DOCS = Path(__file__).parents[2] / "docs"
DRAWINGS = ["gpio-2", "gpio-2-mux", "ioboard-8", "ioboard-8-two-buses"]
SVG = "{http://www.w3.org/2000/svg}"
PHYSICAL = {p.gpio: p.physical for p in pins() if p.gpio is not None}
PIN_NAMES = {p.physical: p.name for p in pins()}
LINES = ("3V3", "5V", "GND", "GPIO2", "GPIO3", "GPIO0", "GPIO1", "lampsupply:+")     # traced back through the hub
I2C_PINS = {1: ("GPIO2", "GPIO3"), 0: ("GPIO0", "GPIO1")}          # what each bus's SDA and SCL come from
NEAR = 0.75                         # px: how close a point must be to count as on a circle's centre


class Face:
    """DejaVu Sans at ``size`` px, measured without hinting (set ten times larger and scaled down)."""

    def __init__(self, size: float, bold: bool):
        from PIL import ImageFont
        try:
            self.font = ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", round(size * 10),
                                           layout_engine=ImageFont.Layout.BASIC)
        except OSError:
            pytest.skip("DejaVu Sans is not installed (apt-get install fonts-dejavu-core; CI has it)")

    def getlength(self, text: str) -> float:
        return self.font.getlength(text) / 10

    def getbbox(self, text: str) -> tuple[float, ...]:
        return tuple(v / 10 for v in self.font.getbbox(text, anchor="ls")) if text else (0, 0, 0, 0)


@dataclass(frozen=True)
class Circle:
    x: float
    y: float
    r: float
    name: str                       # "pin 7", or the terminal's data-terminal (else its label)

    def holds(self, x: float, y: float) -> bool:
        return math.hypot(x - self.x, y - self.y) <= NEAR


@dataclass(frozen=True)
class Label:
    text: str
    box: tuple[float, float, float, float]      # left, top, right, bottom


@dataclass(frozen=True)
class Wire:
    points: tuple[tuple[float, float], ...]
    source: str                     # data-from, if the drawing says
    target: str
    title: str

    def segments(self):
        return zip(self.points, self.points[1:])


@dataclass
class Drawing:
    width: float
    height: float
    pins: dict[int, Circle]
    terminals: list[Circle]
    wires: list[Wire]
    labels: list[Label]

    def ends_at(self, circle: Circle) -> list[Wire]:
        return [w for w in self.wires for point in (w.points[0], w.points[-1]) if circle.holds(*point)]

    def circle_at(self, point) -> Circle | None:
        return next((c for c in [*self.pins.values(), *self.terminals] if c.holds(*point)), None)


def read(path: Path) -> Drawing:
    root = ET.parse(path).getroot()
    drawing = Drawing(float(root.get("width")), float(root.get("height")), {}, [], [], [])
    _walk(root, {"font-size": "16", "font-weight": "normal"}, drawing, None)
    return drawing


def _walk(node: ET.Element, inherited: dict, drawing: Drawing, group: ET.Element | None) -> None:
    style = {**inherited, **{k: v for k, v in node.attrib.items() if k in ("font-size", "font-weight")}}
    tag = node.tag.removeprefix(SVG)
    if tag == "g" and node.get("class") in ("pin", "terminal", "panel"):
        group = node
    if tag == "circle":
        circle = (float(node.get("cx")), float(node.get("cy")), float(node.get("r")))
        if group is not None and group.get("class") == "pin":
            drawing.pins[int(group.get("data-physical"))] = Circle(*circle, f"pin {group.get('data-physical')}")
        elif group is not None:
            name = group.get("data-terminal") or f"terminal {len(drawing.terminals)}"
            drawing.terminals.append(Circle(*circle, name))
    elif tag == "polyline" and "wire" in node.get("class", ""):
        points = tuple(tuple(map(float, p.split(","))) for p in node.get("points").split())
        title = node.find(f"{SVG}title")
        drawing.wires.append(Wire(points, node.get("data-from", ""), node.get("data-to", ""),
                                  title.text if title is not None else ""))
    elif tag == "text":
        drawing.labels.append(_label(node, style))
        return
    for child in node:
        _walk(child, style, drawing, group)


def _label(node: ET.Element, style: dict) -> Label:
    text = "".join(node.itertext())
    face = Face(float(style["font-size"]), style["font-weight"] == "bold")
    length = face.getlength(text)
    left, top, right, bottom = face.getbbox(text)
    shift = {"start": 0, "middle": length / 2, "end": length}[node.get("text-anchor", "start")]
    x, y = float(node.get("x")) - shift, float(node.get("y"))
    return Label(text, (x + min(0, left), y + top, x + max(length, right), y + bottom))


def crosses_circle(a, b, circle: Circle, width: float = 1.6) -> bool:
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    along = ((circle.x - x1) * dx + (circle.y - y1) * dy) / (dx * dx + dy * dy) if dx or dy else 0.0
    t = max(0.0, min(1.0, along))
    return math.hypot(x1 + t * dx - circle.x, y1 + t * dy - circle.y) < circle.r + width / 2


def crosses_box(a, b, box, width: float = 1.6) -> bool:
    """Whether segment a-b (of this stroke width) touches the box (Liang-Barsky clipping)."""
    left, top, right, bottom = box[0] - width / 2, box[1] - width / 2, box[2] + width / 2, box[3] + width / 2
    (x1, y1), (x2, y2) = a, b
    t0, t1 = 0.0, 1.0
    for p, q in ((x1 - x2, x1 - left), (x2 - x1, right - x1), (y1 - y2, y1 - top), (y2 - y1, bottom - y1)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.fixture(scope="module", params=DRAWINGS)
def drawing(request) -> tuple[str, Drawing]:
    return request.param, read(DOCS / f"wiring-{request.param}.svg")


def test_every_wire_leaves_its_pin_on_that_pins_side(drawing):
    _, d = drawing
    wrong = []
    for wire in d.wires:
        start = d.circle_at(wire.points[0])
        if start is None:
            wrong.append(f"{wire.title or wire.source}: starts on no pin or terminal at {wire.points[0]}")
            continue
        if wire.source.startswith("pin:") and start.name != f"pin {wire.source[4:]}":
            wrong.append(f"{wire.title}: should leave pin {wire.source[4:]}, leaves {start.name}")
        if start.name.startswith("pin "):
            physical = int(start.name[4:])
            (x0, _), (x1, _) = wire.points[:2]
            outward = x1 < x0 if physical % 2 else x1 > x0
            if not outward:
                side = "left" if physical % 2 else "right"
                wrong.append(f"{wire.title}: pin {physical} is on the {side} of the header, its wire heads "
                             f"{'right' if x1 > x0 else 'left'}")
    assert wrong == []


def test_no_wire_crosses_another_pin_terminal_or_label(drawing):
    _, d = drawing
    circles = [*d.pins.values(), *d.terminals]
    crossed = []
    for wire in d.wires:
        own = {d.circle_at(wire.points[0]), d.circle_at(wire.points[-1])}
        for a, b in wire.segments():
            crossed += [f"{wire.title}: crosses {c.name}" for c in circles if c not in own and crosses_circle(a, b, c)]
            crossed += [f"{wire.title}: crosses the label {label.text!r}" for label in d.labels
                        if crosses_box(a, b, label.box)]
    assert crossed == []


def test_no_two_wires_share_a_line(drawing):
    _, d = drawing
    lines = []          # (axis, position, low, high, wire)
    for wire in d.wires:
        for (x1, y1), (x2, y2) in wire.segments():
            if y1 == y2:
                lines.append(("y", y1, min(x1, x2), max(x1, x2), wire.title))
            elif x1 == x2:
                lines.append(("x", x1, min(y1, y2), max(y1, y2), wire.title))
    shared = [f"{a[4]} and {b[4]} both run along {a[0]}={a[1]:g}" for a, b in itertools.combinations(lines, 2)
              if a[4] != b[4] and a[0] == b[0] and abs(a[1] - b[1]) < 1.5 and min(a[3], b[3]) - max(a[2], b[2]) > 0.5]
    assert shared == []


def test_every_terminal_has_exactly_one_wire_and_every_pin_at_most_one(drawing):
    _, d = drawing
    assert d.terminals, "the drawing has no terminals"
    counts = {c.name: len(d.ends_at(c)) for c in d.terminals}
    assert {name: n for name, n in counts.items() if n != 1} == {}
    assert {c.name: n for c in d.pins.values() if (n := len(d.ends_at(c))) > 1} == {}


def test_no_label_runs_off_the_canvas_or_over_another(drawing):
    _, d = drawing
    off = [label.text for label in d.labels
           if label.box[0] < 0 or label.box[1] < 0 or label.box[2] > d.width or label.box[3] > d.height]
    assert off == []
    covered = [(a.text, b.text) for a, b in itertools.combinations(d.labels, 2) if overlap(a.box, b.box)]
    assert covered == []


class Circuit:
    """The drawing's wires as connections between named ends, followed through the hub's strips."""

    def __init__(self, d: Drawing):
        self.to: dict[str, list[str]] = {}
        for wire in d.wires:
            self.to.setdefault(wire.source, []).append(wire.target)
            self.to.setdefault(wire.target, []).append(wire.source)

    def joined(self, end: str) -> str:
        """The one end this one is wired to (else how many wires it has)."""
        far = self.to.get(end, [])
        return far[0] if len(far) == 1 else f"{len(far)} wires"

    def traced(self, end: str) -> str:
        """Where the line at ``end`` comes from, through the hub: a header pin's name, or a supply's terminal."""
        far = self.joined(end)
        if far.startswith("hub:") and not far.endswith(":in"):
            far = self.joined(f"hub:{far.split(':')[1]}:in")
        return PIN_NAMES[int(far[4:])] if far.startswith("pin:") else far


def expected(name: str) -> dict[str, str]:
    """What the profile says each terminal must be wired to (a pin name, a pin, or another terminal)."""
    profile = load(name)
    out = {}
    driven = profile.lamp.kind in ("5v", "12v")
    for use in uses(profile):
        pin = f"pin:{PHYSICAL[use.gpio]}"
        seat = use.index + 1
        if use.field == "holes":
            out[f"seat{seat}:hole{use.key[-2]}"] = pin
        elif use.field == "ok":
            out[f"seat{seat}:ok"] = pin
        elif use.field == "lamps":
            k = use.key[-2]
            out[f"driver{seat}:IN{k}" if driven else f"seat{seat}:lamp{k}"] = pin
            if driven:
                out[f"seat{seat}:lamp{k}"] = f"driver{seat}:OUT{k}"
        else:
            out[f"{'status' if use.field == 'status_led' else 'buzzer'}:in"] = pin
    muxes = {mux: "mux" if len(profile.muxes) == 1 else f"mux{n}" for n, mux in enumerate(profile.muxes, 1)}
    channel = {bus: (muxes[mux], c) for mux in profile.muxes for c, bus in enumerate(mux.buses)}
    for key, spec in profile.displays().items():
        part = key
        out[f"{part}:3V3"], out[f"{part}:GND"] = "3V3", "GND"
        if spec.bus in channel:
            mux, c = channel[spec.bus]
            out[f"{part}:SDA"], out[f"{part}:SCL"] = f"{mux}:SD{c}", f"{mux}:SC{c}"
        else:
            out[f"{part}:SDA"], out[f"{part}:SCL"] = I2C_PINS[spec.bus]
    for mux, part in muxes.items():
        sda, scl = I2C_PINS[mux.parent]
        out.update({f"{part}:3V3": "3V3", f"{part}:GND": "GND", f"{part}:SDA": sda, f"{part}:SCL": scl})
    volts = {"5v": "5V", "12v": "12V"}.get(profile.lamp.kind)
    for i, seat in enumerate(profile.seats, 1):
        out.setdefault(f"seat{i}:GND", "GND")
        if driven:
            out[f"driver{i}:GND"] = "GND"
            out[f"driver{i}:{volts}"] = out[f"seat{i}:{volts}"] = "5V" if volts == "5V" else "lampsupply:+"
        if profile.ioboard:
            out[f"seat{i}:cable"] = f"ioboard:seat{i}"
    if profile.buzzer is not None:
        out.update({f"buzzer:{volts or '5V'}": "lampsupply:+" if volts == "12V" else "5V", "buzzer:GND": "GND"})
    if profile.status_led is not None:
        out["status:GND"] = "GND"
    if profile.ioboard:
        out["ioboard:usb"] = "piusb:usb"
    return out


def test_the_profile_is_wired_in_full(drawing):
    name, d = drawing
    circuit, want = Circuit(d), expected(name)
    found = {end: circuit.traced(end) if goal in LINES else circuit.joined(end) for end, goal in want.items()}
    assert found == want


def test_mux_channels_reach_the_seat_screens():
    circuit = Circuit(read(DOCS / "wiring-ioboard-8.svg"))
    for seat in range(1, 9):
        assert circuit.to.get(f"seat{seat}:SDA") == [f"mux:SD{seat - 1}"]
        assert circuit.to.get(f"seat{seat}:SCL") == [f"mux:SC{seat - 1}"]
        assert circuit.to.get(f"seat{seat}:cable") == [f"ioboard:seat{seat}"]


@pytest.mark.parametrize("name", DRAWINGS)
def test_the_png_was_rendered_from_the_committed_svg(name):
    from PIL import Image
    with Image.open(DOCS / f"wiring-{name}.png") as image:
        source = image.text.get("Source", "")
    digest = "sha256:" + hashlib.sha256((DOCS / f"wiring-{name}.svg").read_bytes()).hexdigest()
    assert source.endswith(digest), \
        f"render it again: molebox wiring diagram {name} --svg docs/wiring-{name}.svg --png docs/wiring-{name}.png"


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert is not installed (apt-get install librsvg2-bin; CI has it)")
@pytest.mark.parametrize("name", DRAWINGS)
def test_the_png_shows_the_svg(name, tmp_path):
    """Rendered again here, the drawing looks the same (up to another rsvg-convert's anti-aliasing)."""
    from PIL import Image, ImageChops
    fresh = tmp_path / "fresh.png"
    subprocess.run(["rsvg-convert", str(DOCS / f"wiring-{name}.svg"), "-o", str(fresh)], check=True, timeout=60)
    committed = Image.open(DOCS / f"wiring-{name}.png").convert("L")
    rendered = Image.open(fresh).convert("L")
    assert committed.size == rendered.size
    diff = ImageChops.difference(committed.reduce(4), rendered.reduce(4)).point(lambda v: 255 if v > 48 else 0)
    assert sum(diff.histogram()[255:]) / (diff.width * diff.height) < 0.01


def test_the_label_widths_the_layout_assumes_are_the_fonts():
    from wiring import textwidth
    for text in ("GPIO17 (11)  seat 1 hole 2", "hub: stripboard, one strip per line", "SD7: seat 8 panel SDA"):
        for bold in (False, True):
            assert textwidth.width(text, 11, bold) == pytest.approx(Face(11, bold).getlength(text), abs=0.5)


def drawn_text(name: str) -> str:
    """Every label of a drawing in document order, a note's wrapped lines joined again."""
    return " ".join(label.text for label in read(DOCS / f"wiring-{name}.svg").labels)


def test_the_io_board_drawing_carries_the_pull_ups_the_protection_and_the_pixel_chain_in_order():
    """What docs/ioboard.md asks of a builder is on the picture they solder from, seat by seat."""
    text = drawn_text("ioboard-8")
    assert ("columns GP10 (pin 14), GP11 (pin 15), GP12 (pin 16), GP13 (pin 17), GP14 (pin 19), GP15 (pin 20): each "
            "through 470 Ohm to its cable line, with a 4.7 kOhm pull-up from there to 3V3(OUT) (pin 36)") in text
    assert ("rows GP2 (pin 4), GP3 (pin 5), GP4 (pin 6), GP5 (pin 7), GP6 (pin 9), GP7 (pin 10), GP8 (pin 11), GP9 "
            "(pin 12): each through 330 Ohm to its seat's cable") in text
    assert ("GP16 (pin 21) -> 74AHCT125 1A (pin 2), 4.7 kOhm from there to GND; 1Y (pin 3) -> 330 Ohm -> seat 1's pixel DIN"
            in text)
    assert "74AHCT125: 1OE (pin 1) and GND (pin 7) to GND, VCC (pin 14) to 5 V; pins 4, 10, 13 to 5 V, 5, 9, 12 to GND; " \
        "100 nF from pin 14 to pin 7" in text
    assert ("5V in -> MF-R110 polyfuse -> the chain, the 74AHCT125 and 1N5819 (band to VSYS) -> VSYS (pin 39); GND in "
            "-> GND (pin 38); never VBUS (pin 40)") in text
    assert "pixels: DIN from GP16 (level shifter), DOUT to seat 2's DIN" in text
    for seat in range(2, 8):
        assert f"pixels: DIN from seat {seat - 1}'s DOUT, DOUT to seat {seat + 1}'s DIN" in text
    assert "pixels: DIN from seat 7's DOUT, DOUT to nothing (left open)" in text


@pytest.mark.parametrize("name, lamp", [("gpio-2-mux", "6-pin JST-VH (3.96 mm, polarised): 1 12V, 2 lamp1, 3 lamp2, "
                                                       "4 lamp3, 5 lamp4, 6 lamp5"),
                                        ("ioboard-8", "4-pin JST-VH (3.96 mm, polarised): 1 5V, 2 DIN, 3 DOUT, 4 GND")])
def test_every_panel_shows_its_plugs_the_lamp_supply_on_its_own(name, lamp):
    text = drawn_text(name)
    seats = len(load(name).seats)
    assert text.count(f"lamp plug, {lamp}") == seats
    logic = [m for m in text.split("logic plug, ")[1:]]
    assert len(logic) == seats and all(m.startswith("12-way IDC box header (2 x 6, shrouded and keyed)") for m in logic)
    assert not any(" 12V" in m.split(" lamp plug")[0] or " 5V" in m.split(" lamp plug")[0] for m in logic)
    if name.startswith("gpio"):
        assert text.count("buttons: each line through 2.2 kOhm at the box's socket") == seats
        assert text.count("inside: GND (logic plug pin 1) to 6 buttons' NO; GND (logic plug pin 10) to OLED GND") \
            == seats


def test_the_hub_adds_i2c0s_pull_ups():
    assert "SDA0 and SCL0 (pins 27, 28): 2.2 kOhm from each to the 3V3 strip (I2C0 has no pull-ups on the Pi)" in drawn_text(
        "ioboard-8-two-buses")


def test_the_second_mux_takes_i2c0_from_pins_27_and_28():
    """ioboard-8-two-buses: seats 1-4 behind the mux on I2C1 (pins 3/5), seats 5-8 behind the one on I2C0."""
    circuit = Circuit(read(DOCS / "wiring-ioboard-8-two-buses.svg"))
    assert PIN_NAMES[27] == "GPIO0" and PIN_NAMES[28] == "GPIO1"
    assert (circuit.joined("mux2:SDA"), circuit.joined("mux2:SCL")) == ("pin:27", "pin:28")
    assert (circuit.traced("mux1:SDA"), circuit.traced("mux1:SCL")) == ("GPIO2", "GPIO3")
    assert circuit.traced("mux2:3V3") == "3V3" and circuit.traced("mux2:GND") == "GND"
    for seat in range(1, 9):
        mux, channel = ("mux1", seat - 1) if seat <= 4 else ("mux2", seat - 5)
        assert circuit.to.get(f"seat{seat}:SDA") == [f"{mux}:SD{channel}"]
        assert circuit.to.get(f"seat{seat}:SCL") == [f"{mux}:SC{channel}"]
    assert (circuit.traced("table:SDA"), circuit.traced("table:SCL")) == ("GPIO2", "GPIO3")
