"""``molebox wiring diagram``: the pin table against golden copies, and the SVG read back as XML."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from companion.cli import main
from wiring.diagram import pin_table, svg
from wiring.header import pins, uses
from wiring.profile import load

GOLDEN = Path(__file__).parent / "golden"
DOCS = Path(__file__).parents[2] / "docs"
NS = {"svg": "http://www.w3.org/2000/svg"}
REFERENCE = ["gpio-2", "ioboard-8"]


def parse(name: str) -> ET.Element:
    return ET.fromstring(svg(load(name)))


@pytest.mark.parametrize("name", REFERENCE)
def test_pin_table_matches_the_golden_copy(name, capsys):
    assert main(["wiring", "diagram", name]) == 0
    assert capsys.readouterr().out == (GOLDEN / f"{name}.txt").read_text()


def test_pin_table_lists_every_pin_once_with_its_use():
    rows = pin_table(load("gpio-2")).splitlines()[1:]
    assert [int(r.split()[0]) for r in rows] == list(range(1, 41))
    assert "  3  GPIO2   I2C1 SDA: seat1 0x3C, seat2 0x3D" in rows
    assert " 36  GPIO16  seat 1 OK" in rows and " 23  GPIO11  seat 2 OK" in rows
    assert " 27  GPIO0   (I2C0)" in rows and "  8  GPIO14  free" in rows


@pytest.mark.parametrize("name", [*REFERENCE, "gpio-2-mux"])
def test_the_committed_drawings_are_current(name):
    assert (DOCS / f"wiring-{name}.svg").read_text() == svg(load(name))


@pytest.mark.parametrize("name", ["gpio-2", "gpio-2-mux"])
def test_every_used_pin_has_one_wire_to_its_panel_terminal(name):
    root, profile = parse(name), load(name)
    circles = {int(g.get("data-physical")): g.find("svg:circle", NS) for g in root.iterfind(".//svg:g[@class='pin']", NS)}
    assert sorted(circles) == list(range(1, 41))
    terminals = {(g.get("data-name"), t.text): int(c.get("cy")) for g in root.iterfind(".//svg:g[@class='panel']", NS)
                 for c, t in zip(g.findall("svg:circle", NS), g.findall("svg:text", NS)[1:])}
    wires = {w.find("svg:title", NS).text: [tuple(map(int, p.split(","))) for p in w.get("points").split()]
             for w in root.iterfind(".//svg:polyline[@class='wire']", NS)}
    gpio_wires = {title: points for title, points in wires.items() if title.startswith("GPIO")}
    assert len(gpio_wires) == len(uses(profile))
    physical = {p.gpio: p.physical for p in pins()}
    for use in uses(profile):
        points = gpio_wires[f"GPIO{use.gpio} to {use.role}"]
        pin = circles[physical[use.gpio]]
        assert points[0] == (int(pin.get("cx")), int(pin.get("cy")))
        panel = f"seat {use.index + 1}" if use.section else use.field
        terminal = use.role.removeprefix(panel).strip() or use.role
        assert points[-1][1] == terminals[panel, terminal]
        assert circles[physical[use.gpio]].get("fill") == "#ffd700"         # a used pin is marked


def test_i2c_wires_reach_each_directly_wired_display_and_the_mux():
    titles = {w.find("svg:title", NS).text for w in parse("ioboard-8").iterfind(".//svg:polyline", NS)}
    assert titles == {f"I2C1 {line} to {box}" for line in ("SDA", "SCL")
                      for box in ("TCA9548A mux 0x70: seat OLEDs", "table display: ssd1306 0x3D on bus 1")}
    panels = [g.find("svg:text", NS).text for g in parse("ioboard-8").iterfind(".//svg:g[@class='panel']", NS)]
    assert "seat 8: ssd1306 0x3C on mux channel 7" in panels
    assert "IO board on USB 2E8A:0005: all buttons and lamps" in panels


def test_cli_writes_the_svg(tmp_path, capsys):
    out = tmp_path / "box.svg"
    assert main(["wiring", "diagram", "gpio-2", "--svg", str(out)]) == 0
    assert ET.parse(out).getroot().tag == "{http://www.w3.org/2000/svg}svg"
