"""The breadboard drawings (``molebox wiring breadboard``): on the Pi's side every wire drawn is the netlist's and
every netlist wire is drawn (but the IO board's own), each from its pin through the ribbon and its hub pad to its
part or the seat's plug; on the IO board every pad's wire reaches the plug pin of its own line; every line starts
and ends on the marks of the two ends it names; docs/ has them current."""
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
IOBOARDS = ["ioboard-8", "ioboard-8-two-buses"]
HUBS = ["gpio-2", "gpio-2-mux"] + IOBOARDS
BUILDS = [(name, False) for name in HUBS] + [("ioboard-8", True)]
FILES = {("ioboard-8", True): "ioboard-breadboard"}        # else breadboard-NAME


def drawn(document: str) -> list[ET.Element]:
    return [node for node in ET.fromstring(document).iter(f"{SVG}polyline") if node.get("class") == "wire"]


def points(node: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in node.get("points").split()]


def misdrawn(document: str) -> list[str]:
    """Each wire whose line does not start on the mark of the end it comes from and end on the mark of the end
    it goes to (a header pin, a hub or IO board pad, a part's terminal, a plug pin)."""
    marks = {}
    for node in (n for n in ET.fromstring(document).iter() if n.get("data-end")):
        if node.get("cx"):
            marks[node.get("data-end")] = float(node.get("cx")), float(node.get("cy"))
        else:
            x, y, width, height = (float(node.get(k)) for k in ("x", "y", "width", "height"))
            marks[node.get("data-end")] = x + width / 2, y + height / 2
    return [f"{n.get('data-from')} -> {n.get('data-to')}" for n in drawn(document)
            if (marks.get(n.get("data-from")), marks.get(n.get("data-to"))) != (points(n)[0], points(n)[-1])]


@pytest.mark.parametrize("name", HUBS)
def test_every_wire_drawn_is_a_netlist_wire_and_every_netlist_wire_is_drawn(name):
    """On a box with an IO board the Pi's side draws all but the IO board's own wires: its supply, and its
    cables to the seats, whose every core its own drawing draws."""
    wires = netlist(load(name)).wires
    want = Counter((f"{w.a.part}:{w.a.terminal}", f"{w.b.part}:{w.b.terminal}", w.net) for w in wires
                   if "ioboard" not in (w.a.part, w.b.part) or w.a.part == "piusb")
    got = Counter((n.get("data-from"), n.get("data-to"), n.get("data-net")) for n in drawn(breadboard.svg(load(name))))
    assert got == want
    assert (name in IOBOARDS) == (("piusb:usb", "ioboard:usb", "USB") in got)


@pytest.mark.parametrize("name, io", BUILDS)
def test_every_line_runs_from_the_mark_of_its_source_to_the_mark_of_its_target(name, io):
    assert misdrawn(breadboard.svg(load(name), io)) == []


def test_a_wire_drawn_to_the_wrong_pin_is_refused():
    """Seat 3's SDA wire drawn to its SCL pin: the check the tests above run refuses it."""
    document = breadboard.svg(load("ioboard-8"))
    sda, scl = (next(n.get("points") for n in drawn(document) if n.get("data-to") == f"seat3:{line}")
                for line in ("SDA", "SCL"))
    broken = document.replace(f'points="{sda}"', f'points="{sda.rsplit(" ", 1)[0]} {scl.rsplit(" ", 1)[1]}"')
    assert broken != document and misdrawn(broken) == ["mux:SD2 -> seat3:SDA"]


@pytest.mark.parametrize("name", IOBOARDS)
def test_the_two_drawings_wire_every_seat_plug_pin_once(name):
    """Each pin of a seat's plugs gets its wire on the Pi's side (3V3, SDA, GND, SCL: the OLED's) or on the IO
    board's drawing (the rest), never on both; only the last seat's pixel DOUT stays open; a pin whose wire is
    on the other drawing is drawn pale there and says where it comes from."""
    profile = load(name)
    pi, io = breadboard.svg(profile), breadboard.svg(profile, True)
    ends = Counter(n.get("data-to") for document in (pi, io) for n in drawn(document)
                   if n.get("data-to").startswith("seat"))
    want = {f"seat{seat}:{name}" for seat, spec in enumerate(profile.seats, 1)
            for _, _, name in connector.terminals(profile, spec)} - {"seat8:DOUT"}
    assert set(ends) == want and set(ends.values()) == {1}
    assert {n.get("data-to").split(":")[1] for n in drawn(pi) if n.get("data-to").startswith("seat")} == \
        {"3V3", "SDA", "GND", "SCL"}
    pale = {r.get("data-end") for r in ET.fromstring(pi).iter(f"{SVG}rect") if r.get("fill") == breadboard.ELSEWHERE}
    assert pale == {end for end in want if end.split(":")[1] not in ("3V3", "SDA", "GND", "SCL")
                    and end.split(":")[1] in ("row", "ok") + connector.HOLES}
    labels = " ".join(t.text or "" for t in ET.fromstring(pi).iter(f"{SVG}text"))
    assert "pin 1  row: 6 diodes' cathodes (its wire from IO board pad P1: the IO board's drawing)" in labels
    assert "lamp plug" not in labels            # none of its pins has a wire on the Pi's side


def test_every_io_board_pad_is_wired_to_the_plug_pin_of_its_own_line_on_its_net():
    profile = load("ioboard-8")
    pins = {}                       # seat end -> the line its plug pin carries
    for seat, spec in enumerate(profile.seats, 1):
        pins.update({f"seat{seat}:{name}": plug.pins[pin - 1]
                     for plug, pin, name in connector.terminals(profile, spec)})
    pads = {c.ref: c.nets[0] for c in circuit(profile) if c.kind == "pad" and c.ref not in ("TX", "RX")}
    wires = drawn(breadboard.svg(profile, True))
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


@pytest.mark.parametrize("name, io", BUILDS)
def test_each_wire_starts_on_its_pin_and_ends_on_its_plug_pin_in_its_domains_colour(name, io):
    root = ET.fromstring(breadboard.svg(load(name), io))
    pi = {int(c.get("data-physical")): (float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG}circle")
          if c.get("data-header") == "Pi header J8"}
    plug_pins = {(float(r.get("x")) + 3.5, float(r.get("y")) + 3.5) for r in root.iter(f"{SVG}rect")
                 if r.get("class") == "plug-pin"}
    hot = {"gpio-2-mux": {"12V"}, "ioboard-8": {"5V"} if io else set()}.get(name, set())
    for node in drawn(ET.tostring(root, encoding="unicode")):
        start, end = points(node)[0], points(node)[-1]
        source, target = node.get("data-from"), node.get("data-to")
        if source.startswith("pin:"):
            assert start == pi[int(source[4:])], source
        if not target.startswith(("hub:", "ioboard:")) or target == "ioboard:usb":
            assert end in plug_pins, target
        assert node.get("stroke") == breadboard.DOMAIN_STYLES[node.get("data-domain")][0]
        line = target.split(":")[1]
        if node.get("data-net") == "GND":
            assert node.get("data-domain") == "ground", target
        elif node.get("data-net") == "USB":
            assert (source, target, node.get("data-domain")) == ("piusb:usb", "ioboard:usb", "USB")
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
    pi = breadboard.table(load("ioboard-8")).splitlines()
    assert "the Pi's USB-A port -> IO board usb  (USB)" in pi
    assert "mux SD0 -> seat 1 logic plug pin 9 (SDA)  (logic)" in pi
    assert "IO board pad P1 (seat1 row) -> seat 1 logic plug pin 1 (row)  (logic)" in \
        breadboard.table(load("ioboard-8"), True).splitlines()


@pytest.mark.parametrize("name, io", BUILDS)
def test_the_committed_breadboard_drawing_is_current_and_its_png_shows_it(name, io, capsys):
    file, board = FILES.get((name, io), f"breadboard-{name}"), ["--board", "io"] * io
    committed = (DOCS / f"{file}.svg").read_text()
    assert committed == breadboard.svg(load(name), io), \
        f"molebox wiring breadboard {name} {' '.join(board)} --svg docs/{file}.svg --png docs/{file}.png"
    with Image.open(DOCS / f"{file}.png") as image:
        assert image.text["Source"].endswith(svg_digest(committed))
    assert main(["wiring", "breadboard", name, *board]) == 0
    assert capsys.readouterr().out == breadboard.table(load(name), io)


def test_only_a_box_with_an_io_board_has_its_drawing(capsys):
    assert main(["wiring", "breadboard", "gpio-2", "--board", "io"]) == 2
    assert "gpio-2 has no IO board" in capsys.readouterr().err


@pytest.mark.parametrize("name, io", BUILDS)
def test_no_two_wires_run_along_one_line(name, io):
    runs = []                       # (axis, position, low, high, wire)
    for node in drawn(breadboard.svg(load(name), io)):
        for (x1, y1), (x2, y2) in zip(points(node), points(node)[1:]):
            if (x1, y1) != (x2, y2):
                axis, at, low, high = ("y", y1, x1, x2) if y1 == y2 else ("x", x1, y1, y2)
                runs.append((axis, at, min(low, high), max(low, high), node.get("data-to")))
    shared = [(a[4], b[4]) for i, a in enumerate(runs) for b in runs[i + 1:]
              if a[4] != b[4] and a[:2] == b[:2] and min(a[3], b[3]) > max(a[2], b[2])]
    assert shared == []
