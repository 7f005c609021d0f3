"""The IO board on stripboard (``molebox wiring stripboard --board io``): laid out from its circuit, held to it net
for net, its design-rule check passing on the shipped boards and failing on a missing cut or link, the drawing
current."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from wiring import boardsvg, drc, iocircuit
from wiring.diagram import svg_digest
from wiring.ioboardstrip import CHIP_LEFT, CHIP_TOP, DIP_SPAN, LEFT, PICO_ROWS, RIGHT, layout, seat_column
from wiring.profile import load

DOCS = Path(__file__).parents[2] / "docs"
BOXES = ["ioboard-8", "ioboard-8-two-buses"]


@pytest.mark.parametrize("name", BOXES)
def test_every_shipped_io_board_passes_the_design_rule_check(name):
    assert drc.check(layout(load(name))) == []


@pytest.mark.parametrize("name", BOXES)
def test_the_board_carries_the_circuit_net_for_net(name):
    """Every part of the circuit is placed once, each leg on its net's copper (strips, links and the Pico's own
    GND), each net one piece of copper and no two nets on one; every other piece is a wire link."""
    parts, board = iocircuit.circuit(load(name)), layout(load(name))
    placed = {p.value if p.kind == "pad" else p.ref: p for p in board.pieces if p.kind != "link"}
    assert sorted(placed) == sorted(part.ref for part in parts)
    root, where = drc.copper(board), {}
    for part in parts:
        piece = placed[part.ref]
        assert (piece.kind, sorted(piece.nets)) == (part.kind, sorted(part.nets)), part.ref
        for hole, net in zip(piece.holes, piece.nets):
            assert where.setdefault(net, root(hole)) == root(hole), f"{part.ref}: {net}"
    assert len(set(where.values())) == len(where)


def test_every_pico_and_dip_strip_is_cut_twice_between_the_pin_rows():
    board = layout(load("ioboard-8"))
    assert {(x, row) for row in range(PICO_ROWS) for x in (LEFT, RIGHT - 1)} <= board.cuts
    assert {(x, row) for row in range(CHIP_TOP, CHIP_TOP + 7) for x in (CHIP_LEFT, CHIP_LEFT + DIP_SPAN - 1)} \
        <= board.cuts
    pico = next(p for p in board.pieces if p.kind == "pico")
    assert dict(zip(pico.holes, pico.nets))[RIGHT, 1] == "VSYS" and pico.nets[35] == "3V3"     # pins 39 and 36


def test_a_missing_cut_under_the_pico_or_the_chip_is_found():
    board = layout(load("ioboard-8"))
    board.cuts.discard((LEFT, 0))                   # pin 1 (GP0) now reaches across to the cut beside pin 40
    assert drc.check(board) == [
        "strip 0, holes 0-26 (GP0, U1 pin 1) and strip 0, holes 27-45 (VBUS (at 5V), U1 pin 40) sit side by side "
        "across the cut: one solder bridge joins them; cut the strip twice, a hole apart, so that no bridge across one "
        "cut joins them"]
    board.cuts.discard((RIGHT - 1, 0))
    assert drc.check(board) == ["strip 0, holes 0-45, carries GP0 and VBUS: a cut is missing"]
    chip = layout(load("ioboard-8"))
    chip.cuts -= {(CHIP_LEFT, CHIP_TOP), (CHIP_LEFT + DIP_SPAN - 1, CHIP_TOP)}          # pins 1 (GND) and 14 (VCC)
    assert f"strip {CHIP_TOP}, holes 0-45, carries 5V and GND: a cut is missing" in drc.check(chip)


def test_a_missing_link_is_found():
    board = layout(load("ioboard-8"))
    board = dataclasses.replace(board, pieces=[p for p in board.pieces if not (p.kind == "link" and p.label == "3V3")])
    assert drc.check(board) == ["3V3 is in 2 pieces on the board: a wire link is missing"]


def test_the_pixel_data_sits_beside_gp16_only_on_the_chips_own_pins():
    board = layout(load("ioboard-8"))
    assert list(board.waived) == [frozenset({"GP16", "1Y"})]
    board.waived.clear()
    [problem] = drc.check(board)
    assert problem.startswith(f"strip {CHIP_TOP + 1}, holes {CHIP_LEFT - 4}-{CHIP_LEFT} (GP16, U2 pin 2) and strip "
                              f"{CHIP_TOP + 2}, holes {CHIP_LEFT - 4}-{CHIP_LEFT} (1Y (at 5V), U2 pin 3) sit side by "
                              "side on the next strip")


def test_the_committed_drawing_is_current_and_its_png_shows_it():
    committed = (DOCS / "ioboard-stripboard.svg").read_text()
    assert committed == boardsvg.svg(load("ioboard-8"), io=True), \
        "molebox wiring stripboard ioboard-8 --board io --svg docs/ioboard-stripboard.svg --png docs/ioboard-stripboard.png"
    with Image.open(DOCS / "ioboard-stripboard.png") as image:
        assert image.text["Source"].endswith(svg_digest(committed))


def test_the_cli_draws_the_io_board_and_refuses_a_box_without_one(capsys):
    assert main(["wiring", "stripboard", "ioboard-8", "--board", "io"]) == 0
    assert capsys.readouterr().out.startswith("ioboard-8: the IO board on a 46 x 32 stripboard")
    assert main(["wiring", "stripboard", "gpio-2", "--board", "io"]) == 2
    assert "the IO board's circuit is drawn for the pixel chain" in capsys.readouterr().err


def test_the_bulk_capacitor_stands_across_5v_and_gnd_at_the_chains_start_its_plus_leg_on_5v():
    board = layout(load("ioboard-8"))
    bulk = next(p for p in board.pieces if p.ref == "C2")
    assert bulk.kind == "electrolytic" and bulk.value.startswith("1000 uF")
    assert [board.strips[row] for _, row in bulk.holes] == ["5V", "GND"] and bulk.nets == ("5V", "GND")
    assert max(x for x, _ in bulk.holes) < seat_column(2)          # beside seat 1's pads, where the chain starts
    board.pieces[board.pieces.index(bulk)] = dataclasses.replace(bulk, holes=bulk.holes[::-1])     # put in backwards
    assert any("carries 5V and GND" in line for line in drc.check(board))
