"""The hub's stripboard (``molebox wiring stripboard``): laid out from the netlist, held to it net for net,
its design-rule check passing on every shipped box and failing on each kind of fault, the drawings current."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from wiring import boardsvg, drc
from wiring.diagram import svg_digest
from wiring.netlist import netlist
from wiring.profile import builtin, load, parse
from wiring.stripboard import HEADER_ROWS, layout

DOCS = Path(__file__).parents[2] / "docs"
BOXES = ["gpio-2", "gpio-2-mux", "ioboard-8", "ioboard-8-two-buses"]


def joined(board):
    """root(hole): which piece of copper a hole is on, through strips, wire links, series parts and the Pi."""
    return drc.copper(board, ("link", "resistor", "fuse"))


@pytest.mark.parametrize("name", BOXES)
def test_every_shipped_hub_passes_the_design_rule_check(name):
    assert drc.check(layout(load(name))) == []


@pytest.mark.parametrize("name", BOXES)
def test_the_board_carries_the_netlist_net_for_net(name):
    """Every wire the netlist runs from a header pin or a hub strip leaves the board from one pad, and that pad
    is joined (through its strip, links and any series resistor or fuse) to the pin or strip that feeds it."""
    net, board = netlist(load(name)), layout(load(name))
    root = joined(board)
    header = next(p for p in board.pieces if p.kind == "header")
    pin_hole = {2 * y + (1 if x == min(h[0] for h in header.holes) else 2): (x, y) for x, y in header.holes}
    pads = {p.value: p for p in board.pieces if p.kind == "pad"}
    strip = {line: row for row, line in board.strips.items()}
    wanted = {}
    for wire in net.wires:
        if wire.a.part == "pin" and wire.b.part != "hub":
            wanted[f"{wire.b.part}:{wire.b.terminal}"] = root(pin_hole[int(wire.a.terminal)])
        elif wire.a.part == "hub":
            wanted[f"{wire.b.part}:{wire.b.terminal}"] = root((0, strip[wire.net]))
        elif wire.b.part == "hub":
            feed = pin_hole[int(wire.a.terminal)] if wire.a.part == "pin" else pads[f"{wire.a.part}:{wire.a.terminal}"].holes[0]
            assert root(feed) == root((board.width - 1, strip[wire.net])), wire.title
    assert {value: root(pad.holes[0]) for value, pad in pads.items() if value in wanted} == wanted
    assert set(pads) - set(wanted) <= {f"{w.a.part}:{w.a.terminal}" for w in net.wires if w.b.part == "hub"}


def test_every_header_row_is_cut_between_its_two_pins_and_the_pis_5v_stays_off():
    board = layout(load("gpio-2-mux"))
    header = next(p for p in board.pieces if p.kind == "header")
    odd = min(x for x, _ in header.holes)
    assert {(odd, row) for row in range(HEADER_ROWS)} <= board.cuts
    assert (odd + 1, 0) not in header.holes and (odd + 1, 1) not in header.holes      # pins 2 and 4 pulled
    assert [board.strips[row] for row in sorted(board.strips)] == ["SDA", "SCL", "3V3", "GND", "12V"]
    fuse = next(p for p in board.pieces if p.kind == "fuse")
    assert fuse.nets == ("12V in", "12V") and fuse.value.startswith("MF-R050")


def without(board, test):
    return dataclasses.replace(board, pieces=[p for p in board.pieces if not test(p)])


def test_a_missing_cut_between_the_header_rows_is_found():
    board = layout(load("gpio-2"))
    header = next(p for p in board.pieces if p.kind == "header")
    board.cuts.discard((min(x for x, _ in header.holes), 2))      # pins 5 (SCL) and 6 (GND)
    assert drc.check(board) == ["strip 2, holes 0-23, carries GND and SCL: a cut is missing"]


def test_a_missing_cut_beside_a_series_resistor_and_a_missing_link_are_found():
    board = layout(load("gpio-2"))
    board.cuts.discard((2, 3))                      # seat 1 hole 1's resistor, pin 7
    assert drc.check(board) == ["strip 3, holes 0-11, carries GPIO4 and seat1:hole1: a cut is missing"]
    unlinked = without(layout(load("gpio-2")), lambda p: p.kind == "link" and p.label == "3V3")
    assert "3V3 is in 2 pieces on the board: a wire link is missing" in drc.check(unlinked)


def test_twelve_volts_beside_the_3v3_strip_is_found_on_the_board_too():
    text = builtin("gpio-2-mux").read_text() + '\n[hub]\nstrips = ["SDA", "SCL", "GND", "3V3", "12V"]\n'
    problems = drc.check(layout(parse(text, "box.toml")))
    assert problems == [
        "strip 24, holes 0-23 (3V3) and strip 25, holes 0-1 (12V in (at 12V)) sit side by side on the next strip: one "
        "solder bridge joins them; put a ground strip between them",
        "strip 24, holes 0-23 (3V3) and strip 25, holes 2-23 (12V) sit side by side on the next strip: one solder "
        "bridge joins them; put a ground strip between them"]


def test_two_legs_in_one_hole_are_found():
    board = layout(load("gpio-2"))
    pad = next(p for p in board.pieces if p.kind == "pad")
    board.pieces.append(dataclasses.replace(pad, ref="P99"))
    assert drc.check(board) == [f"P99 and {pad.ref} share the hole at ({pad.holes[0][0]}, {pad.holes[0][1]})"]


@pytest.mark.parametrize("name", BOXES)
def test_the_committed_stripboards_are_current_and_their_pngs_show_them(name):
    committed = (DOCS / f"stripboard-{name}.svg").read_text()
    assert committed == boardsvg.svg(load(name)), \
        f"molebox wiring stripboard {name} --svg docs/stripboard-{name}.svg --png docs/stripboard-{name}.png"
    with Image.open(DOCS / f"stripboard-{name}.png") as image:
        assert image.text["Source"].endswith(svg_digest(committed))


def test_the_cli_prints_the_check_and_fails_a_board_that_breaks_it(tmp_path, capsys):
    assert main(["wiring", "stripboard", "gpio-2"]) == 0
    assert "every net continuous, one net per strip segment" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text(builtin("gpio-2-mux").read_text() + '\n[hub]\nstrips = ["SDA", "SCL", "GND", "3V3", "12V"]\n')
    assert main(["wiring", "stripboard", str(bad)]) == 1
    assert capsys.readouterr().out.startswith("problem: strip 24")


def test_a_leg_under_a_wire_link_is_found_and_the_layout_keeps_pads_clear_of_links():
    board = layout(load("ioboard-8-two-buses"))
    link = next(p for p in board.pieces if p.kind == "link" and p.label == "GND")
    (x, top), (_, bottom) = link.holes
    under = (x, bottom - 1)
    assert under not in board.used()
    pad = next(p for p in board.pieces if p.kind == "pad")
    board.pieces.append(dataclasses.replace(pad, ref="P99", holes=(under,)))
    assert f"P99's leg at ({under[0]}, {under[1]}) lies under {link.ref}" in drc.check(board)
