"""The breadboard drawings (``molebox wiring breadboard``): on a box on the Pi's header every wire drawn is the
netlist's and every netlist wire is drawn, each from its pin through the ribbon and its hub pad to its part or
the seat's plug; on the IO board every pad's wire reaches the plug pin of its own line; docs/ has them current."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from wiring import breadboard, connector
from wiring.diagram import svg_digest
from wiring.iocircuit import circuit
from wiring.netlist import netlist
from wiring.profile import load

DOCS = Path(__file__).parents[2] / "docs"
SVG = "{http://www.w3.org/2000/svg}"
HUBS = ["gpio-2", "gpio-2-mux"]
BUILDS = HUBS + ["ioboard-8"]


def drawn(document: str) -> list[ET.Element]:
    return [node for node in ET.fromstring(document).iter(f"{SVG}polyline") if node.get("class") == "wire"]


def points(node: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in node.get("points").split()]


@pytest.mark.parametrize("name", HUBS)
def test_every_wire_drawn_is_a_netlist_wire_and_every_netlist_wire_is_drawn(name):
    wires = netlist(load(name)).wires
    want = Counter((f"{w.a.part}:{w.a.terminal}", f"{w.b.part}:{w.b.terminal}", w.net) for w in wires)
    got = Counter((n.get("data-from"), n.get("data-to"), n.get("data-net")) for n in drawn(breadboard.svg(load(name))))
    assert got == want


def test_every_io_board_pad_is_wired_to_the_plug_pin_of_its_own_line_on_its_net():
    profile = load("ioboard-8")
    pins = {}                       # seat end -> the line its plug pin carries
    for seat, spec in enumerate(profile.seats, 1):
        pins.update({f"seat{seat}:{name}": plug.pins[pin - 1]
                     for plug, pin, name in connector.terminals(profile, spec)})
    pads = {c.ref: c.nets[0] for c in circuit(profile) if c.kind == "pad" and c.ref not in ("TX", "RX")}
    wires = drawn(breadboard.svg(profile))
    assert sorted(n.get("data-from") for n in wires if n.get("data-to").startswith("ioboard:")) == \
        ["pixelsupply:+", "pixelsupply:0V"]
    seats = {n.get("data-from").removeprefix("ioboard:"): n for n in wires if n.get("data-from").startswith("ioboard:")}
    assert set(seats) == {ref for ref in pads if ref.startswith("seat")}
    for ref, node in seats.items():
        seat, line = ref.split(" ")
        assert node.get("data-to").startswith(seat + ":") and pins[node.get("data-to")] == line, ref
        assert node.get("data-net") == pads[ref], ref
    assert seats["seat3 DOUT"].get("data-net") == "DIN4" and seats["seat4 DIN"].get("data-net") == "DIN4"
    assert "seat8 DOUT" not in seats


@pytest.mark.parametrize("name", BUILDS)
def test_each_wire_starts_on_its_pin_and_ends_on_its_plug_pin_in_its_domains_colour(name):
    root = ET.fromstring(breadboard.svg(load(name)))
    pi = {int(c.get("data-physical")): (float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG}circle")
          if c.get("data-header") == "Pi header J8"}
    plug_pins = {(float(r.get("x")) + 3.5, float(r.get("y")) + 3.5) for r in root.iter(f"{SVG}rect")
                 if r.get("class") == "plug-pin"}
    hot = {"gpio-2": set(), "gpio-2-mux": {"12V"}, "ioboard-8": {"5V"}}[name]
    for node in drawn(ET.tostring(root, encoding="unicode")):
        start, end = points(node)[0], points(node)[-1]
        source, target = node.get("data-from"), node.get("data-to")
        if source.startswith("pin:"):
            assert start == pi[int(source[4:])], source
        if not target.startswith(("hub:", "ioboard:")):
            assert end in plug_pins, target
        assert node.get("stroke") == breadboard.DOMAIN_STYLES[node.get("data-domain")][0]
        line = target.split(":")[1]
        if node.get("data-net") == "GND":
            assert node.get("data-domain") == "ground", target
        elif line.startswith("lamp") and name == "gpio-2-mux" or line in ("5V", "12V", "DIN", "DOUT") \
                or node.get("data-net") in ("12V", "5V in"):
            assert node.get("data-domain") in hot, target           # a lamp's minus sits at 12 V while off
        else:
            assert node.get("data-domain") == "logic", target


def test_the_table_names_both_ends_of_every_wire():
    lines = breadboard.table(load("gpio-2")).splitlines()
    assert len(lines) == len(netlist(load("gpio-2")).wires)
    assert "GPIO4 (pin 7) via pad P1 -> seat 1 logic plug pin 2 (hole1)  (logic)" in lines
    assert "GND strip, pad P25 -> seat 1 logic plug pin 1 (GND)  (ground)" in lines
    mux = breadboard.table(load("gpio-2-mux")).splitlines()
    assert "seat 1 driver OUT1 -> seat 1 lamp plug pin 2 (lamp1)  (12V)" in mux
    assert any(line.startswith("lamp supply + -> the hub's 12V strip via pad") for line in mux)


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
