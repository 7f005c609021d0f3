"""The breadboard drawing (``molebox wiring breadboard``): every wire it draws is the netlist's, every netlist wire
is drawn, each runs from its pin through the ribbon, its hub pad and the seat's plug, and docs/ has it current."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from wiring import breadboard, guard
from wiring.diagram import svg_digest
from wiring.netlist import netlist
from wiring.profile import ProfileError, load

DOCS = Path(__file__).parents[2] / "docs"
SVG = "{http://www.w3.org/2000/svg}"
BUILDS = ["gpio-2"]


def drawn(document: str) -> list[ET.Element]:
    return [node for node in ET.fromstring(document).iter(f"{SVG}polyline") if node.get("class") == "wire"]


def points(node: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in node.get("points").split()]


@pytest.mark.parametrize("name", BUILDS)
def test_every_wire_drawn_is_a_netlist_wire_and_every_netlist_wire_is_drawn(name):
    wires = netlist(load(name)).wires
    want = Counter((f"{w.a.part}:{w.a.terminal}", f"{w.b.part}:{w.b.terminal}", w.net) for w in wires)
    got = Counter((n.get("data-from"), n.get("data-to"), n.get("data-net")) for n in drawn(breadboard.svg(load(name))))
    assert got == want


@pytest.mark.parametrize("name", BUILDS)
def test_each_wire_starts_on_its_pin_and_ends_on_its_plug_pin_in_its_domains_colour(name):
    root = ET.fromstring(breadboard.svg(load(name)))
    pi = {int(c.get("data-physical")): (float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG}circle")
          if c.get("data-header") == "Pi header J8"}
    plug_pins = {(float(r.get("x")) + 3.5, float(r.get("y")) + 3.5) for r in root.iter(f"{SVG}rect")
                 if r.get("class") == "plug-pin"}
    for node in drawn(ET.tostring(root, encoding="unicode")):
        start, end = points(node)[0], points(node)[-1]
        source = node.get("data-from")
        if source.startswith("pin:"):
            assert start == pi[int(source[4:])], source
        if node.get("data-to").startswith("seat"):
            assert end in plug_pins, node.get("data-to")
        assert node.get("stroke") == breadboard.DOMAIN_STYLES[node.get("data-domain")][0]
        assert node.get("data-domain") == (guard.GROUND if node.get("data-net") == "GND" else guard.LOGIC)


def test_the_table_names_both_ends_of_every_wire():
    lines = breadboard.table(load("gpio-2")).splitlines()
    assert len(lines) == len(netlist(load("gpio-2")).wires)
    assert "GPIO4 (pin 7) via pad P1 -> seat 1 logic plug pin 2 (hole1)  (logic)" in lines
    assert "GND strip, pad P25 -> seat 1 logic plug pin 1 (GND)  (ground)" in lines


def test_a_box_with_parts_it_does_not_draw_is_refused():
    with pytest.raises(ProfileError, match="hang straight off the hub"):
        breadboard.svg(load("gpio-2-mux"))


@pytest.mark.parametrize("name", BUILDS)
def test_the_committed_breadboard_drawing_is_current_and_its_png_shows_it(name, capsys):
    committed = (DOCS / f"breadboard-{name}.svg").read_text()
    assert committed == breadboard.svg(load(name)), \
        f"molebox wiring breadboard {name} --svg docs/breadboard-{name}.svg --png docs/breadboard-{name}.png"
    with Image.open(DOCS / f"breadboard-{name}.png") as image:
        assert image.text["Source"].endswith(svg_digest(committed))
    assert main(["wiring", "breadboard", name]) == 0
    assert capsys.readouterr().out == breadboard.table(load(name))


@pytest.mark.parametrize("name", BUILDS)
def test_no_two_wires_run_along_one_line(name):
    runs = []                       # (axis, position, low, high, wire)
    for node in drawn(breadboard.svg(load(name))):
        for (x1, y1), (x2, y2) in zip(points(node), points(node)[1:]):
            if (x1, y1) != (x2, y2):
                axis, at, low, high = ("y", y1, x1, x2) if y1 == y2 else ("x", x1, y1, y2)
                runs.append((axis, at, min(low, high), max(low, high), node.get("data-to")))
    shared = [(a[4], b[4]) for i, a in enumerate(runs) for b in runs[i + 1:]
              if a[4] != b[4] and a[:2] == b[:2] and min(a[3], b[3]) > max(a[2], b[2])]
    assert shared == []
