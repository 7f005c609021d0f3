"""``molebox wiring diagram``: the pin table against golden copies, the committed drawings current, the CLI.

The drawings' geometry and what they connect are read back in test_drawings.py.
"""
from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from wiring import pico
from wiring.diagram import pin_table, svg, svg_digest
from wiring.netlist import netlist
from wiring.nets import End
from wiring.profile import load

GOLDEN = Path(__file__).parent / "golden"
DOCS = Path(__file__).parents[2] / "docs"
SVG = "{http://www.w3.org/2000/svg}"
REFERENCE = ["gpio-2", "gpio-2-mux", "ioboard-8", "ioboard-8-two-buses"]


@pytest.mark.parametrize("name", REFERENCE)
def test_pin_table_matches_the_golden_copy(name, capsys):
    assert main(["wiring", "diagram", name]) == 0
    assert capsys.readouterr().out == (GOLDEN / f"{name}.txt").read_text()


def test_pin_table_lists_every_pin_once_with_its_use():
    rows = pin_table(load("gpio-2")).splitlines()[1:]
    assert [int(r.split()[0]) for r in rows] == list(range(1, 41))
    assert "  3  GPIO2   I2C1 SDA: seat1 0x3C, seat2 0x3D" in rows
    assert "  1  3V3     3V3 to the hub's strip: seat 1 panel, seat 2 panel" in rows
    assert " 36  GPIO16  seat 1 OK" in rows and " 23  GPIO11  seat 2 OK" in rows
    assert " 27  GPIO0   (reserved: I2C0, the HAT ID EEPROM)" in rows and "  8  GPIO14  free" in rows


def test_pin_table_names_the_driver_between_a_pin_and_its_lamp():
    rows = pin_table(load("gpio-2-mux")).splitlines()
    assert " 12  GPIO18  seat 2 lamp 1, through the seat 2 driver's IN1" in rows
    assert "  2  5V" in rows and "  4  5V" in rows      # the buzzer is on the 12 V: the Pi's 5 V stays off the hub


@pytest.mark.parametrize("name", REFERENCE)
def test_the_committed_drawings_are_current(name):
    assert (DOCS / f"wiring-{name}.svg").read_text() == svg(load(name)), \
        f"regenerate: molebox wiring diagram {name} --svg docs/wiring-{name}.svg --png docs/wiring-{name}.png"


def test_cli_writes_the_svg(tmp_path, capsys):
    out = tmp_path / "box.svg"
    assert main(["wiring", "diagram", "gpio-2", "--svg", str(out)]) == 0
    assert ET.parse(out).getroot().tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.skipif(shutil.which("rsvg-convert") is None,
                    reason="rsvg-convert is not installed (apt-get install librsvg2-bin; CI has it)")
def test_cli_renders_the_png_and_notes_which_svg_it_shows(tmp_path, capsys):
    from PIL import Image
    out = tmp_path / "box.png"
    assert main(["wiring", "diagram", "gpio-2", "--png", str(out)]) == 0
    with Image.open(out) as image:
        width = int(ET.fromstring(svg(load("gpio-2"))).get("width"))
        assert image.width == width
        assert image.text["Source"].endswith(svg_digest(svg(load("gpio-2"))))


def test_the_simulator_profile_has_no_drawing(tmp_path, capsys):
    assert main(["wiring", "diagram", "sim-8", "--svg", str(tmp_path / "sim.svg")]) == 2
    assert "sim-8 is the simulator's profile: nothing to wire" in capsys.readouterr().err
    assert not (tmp_path / "sim.svg").exists()


def test_a_mux_on_i2c0_takes_pins_27_and_28_from_the_eeprom():
    rows = pin_table(load("ioboard-8-two-buses")).splitlines()
    assert " 27  GPIO0   I2C0 SDA: TCA9548A mux 0x70 (buses 19, 20, 21, 22)" in rows
    assert " 28  GPIO1   I2C0 SCL: same" in rows
    assert "  3  GPIO2   I2C1 SDA: TCA9548A mux 0x70 (buses 11, 12, 13, 14), table 0x3D" in rows
    net = netlist(load("ioboard-8-two-buses"))
    ends = {(w.a, w.b) for w in net.wires if w.a.part == "pin"}
    assert (End("pin", "27"), End("mux2", "SDA")) in ends and (End("pin", "28"), End("mux2", "SCL")) in ends
    assert net.part("mux2").title == "TCA9548A I2C mux at 0x70 on I2C0"
    assert net.part("mux2").terminals["SDA"] == "SDA: GPIO0 (pin 27)"


def test_the_io_board_drawing_is_current_and_its_png_shows_it():
    committed = (DOCS / "ioboard-pico.svg").read_text()
    assert committed == pico.svg(load("ioboard-8")), \
        "molebox wiring pico ioboard-8 --svg docs/ioboard-pico.svg --png docs/ioboard-pico.png"
    with Image.open(DOCS / "ioboard-pico.png") as image:
        assert image.text["Source"].endswith(svg_digest(committed))


def test_the_io_board_drawing_names_every_pico_pin_the_board_uses():
    """Pin by pin as the Pico's datasheet numbers them: the rows, the columns, the pixel data, VSYS, not VBUS."""
    root = ET.fromstring((DOCS / "ioboard-pico.svg").read_text())
    drawn = {g.get("data-pin"): (g.get("data-name"), " ".join(t.text for t in g.iter(f"{SVG}text")))
             for g in root.iter(f"{SVG}g") if g.get("class") == "pin"}
    assert len(drawn) == 40
    for seat, gp in enumerate(range(2, 10), 1):
        pin = next(n for n, (name, _) in drawn.items() if name == f"GP{gp}")
        assert drawn[pin][1].endswith(f"row, seat {seat}: 330 Ohm to its cable")
    assert drawn["20"] == ("GP15", "20 GP15 column ok: 470 Ohm, 4.7 kOhm to 3V3")
    assert drawn["21"] == ("GP16", "GP16 21 pixel data -> 74AHCT125 1A (pin 2)")
    assert drawn["39"] == ("VSYS", "VSYS 39 VSYS <- 1N5819 (band here) <- 5 V in")
    assert drawn["40"] == ("VBUS", "VBUS 40 VBUS: nothing (the Pi's USB only)")
    shifter = {g.get("data-pin"): " ".join(t.text for t in g.iter(f"{SVG}text"))
               for g in root.iter(f"{SVG}g") if g.get("class") == "shifter-pin"}
    assert shifter["1"] == "1 1OE GND: gate 1 always on" and shifter["14"] == "VCC 14 5 V, 100 nF to GND"
    assert shifter["2"] == "2 1A GP16; 4.7 kOhm to GND"      # at most 8.2 kOhm: RP2350 erratum E9
    crossings = [g for g in root.iter(f"{SVG}g") if g.get("class") == "crossing"]
    assert len(crossings) == 48
    plugs = [g.get("data-pin") for g in root.iter(f"{SVG}g") if g.get("class") == "plug-pin"]
    assert plugs[:2] == ["1 row", "2 hole1"] and plugs[-4:] == ["1 5V", "2 DIN", "3 DOUT", "4 GND"]


def test_only_a_box_with_an_io_board_has_its_drawing(capsys):
    assert main(["wiring", "pico", "gpio-2"]) == 2
    assert "gpio-2 has no IO board" in capsys.readouterr().err


def test_the_pico_drawing_and_the_box_drawing_name_the_same_pin_for_every_net():
    """Both come from wiring/iocircuit.py: every Pico pin the ioboard-8 drawing's IO board names ("GP16 (pin 21)")
    is that pin in the Pico drawing, and every pin the Pico drawing wires is named there."""
    notes = " ".join(netlist(load("ioboard-8")).part("ioboard").notes)
    named = set(re.findall(r"(\S+) \(pin (\d+)\)", notes)) - {("1A", "2"), ("1Y", "3"), ("1OE", "1"), ("GND", "7"),
                                                                ("VCC", "14")}            # the 74AHCT125's own pins
    box = ET.fromstring((DOCS / "wiring-ioboard-8.svg").read_text())
    assert all(f"{name} (pin {pin})" in " ".join(t.text or "" for t in box.iter(f"{SVG}text")) for name, pin in named)
    root = ET.fromstring((DOCS / "ioboard-pico.svg").read_text())
    pins = {g.get("data-pin"): g for g in root.iter(f"{SVG}g") if g.get("class") == "pin"}
    wired = {(g.get("data-name"), n) for n, g in pins.items() if g.find(f"{SVG}*[@class='wire']") is not None}
    assert all(pins[pin].get("data-name") == name for name, pin in named)
    assert wired == named - {("VBUS", "40")}
    assert {("GP16", "21"), ("VSYS", "39"), ("GND", "38"), ("3V3(OUT)", "36")} <= wired
