"""``molebox wiring diagram``: the pin table against golden copies, the committed drawings current, the CLI.

The drawings' geometry and what they connect are read back in test_drawings.py.
"""
from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.cli import main
from wiring.diagram import pin_table, svg, svg_digest
from wiring.netlist import End, netlist
from wiring.profile import load

GOLDEN = Path(__file__).parent / "golden"
DOCS = Path(__file__).parents[2] / "docs"
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
    assert "  2  5V      5V to the buzzer" in rows


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
