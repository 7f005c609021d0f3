"""Inside the panels (``wiring/panel.py``): every button, lamp, pixel and OLED wired from its plug pin, every plug
pin (both GND pins too) wired at both ends, and the check finding a wire missing, two lines joined or a part on the
wrong line; the parts list counts the panels' parts from the same wiring."""
from __future__ import annotations

import dataclasses

import pytest

from wiring import breadboard, check, connector, panel, parts
from wiring.netlist import netlist
from wiring.nets import End
from wiring.profile import load, parse
from wiring.stripboard import layout

BOXES = ["gpio-2", "gpio-2-mux", "ioboard-8", "ioboard-8-two-buses"]


@pytest.mark.parametrize("name", BOXES)
def test_every_shipped_panel_is_wired_in_full(name):
    profile = load(name)
    assert panel.problems(profile, netlist(profile)) == []
    assert not [p for p in check.check(profile) if p.key == "the panels' wiring"]


def test_what_each_plug_pin_feeds_on_a_gpio_2_panel():
    net = netlist(load("gpio-2"))
    assert panel.feeds(net, End("seat1", "hole3")) == "hole 3 button COM"
    assert panel.feeds(net, End("seat1", "lamp2")) == "hole 2 LED anode"
    assert panel.feeds(net, End("seat1", "GND")) == "6 buttons' NO, 5 LEDs' cathodes"
    assert panel.feeds(net, End("seat1", "GND2")) == "OLED GND"          # the core between SDA and SCL
    assert panel.feeds(net, End("seat1", "3V3")) == "OLED VCC"


def test_the_12v_lamps_and_the_pixel_chain_are_wired_tag_by_tag_and_pixel_by_pixel():
    net = netlist(load("gpio-2-mux"))
    assert panel.feeds(net, End("seat2", "12V")) == "5 lamps' + tags"
    assert panel.feeds(net, End("seat2", "lamp4")) == "hole 4 lamp - tag"
    net = netlist(load("ioboard-8"))
    assert panel.feeds(net, End("seat1", "DIN")) == "hole 1 pixel DIN"
    assert panel.feeds(net, End("seat1", "DOUT")) == "hole 5 pixel DOUT"
    assert panel.feeds(net, End("seat1", "row")) == "6 diodes' cathodes"
    chain = [(w.a.part, w.b.part) for w in net.panel_wires if w.a.terminal == "DOUT" and w.b.terminal == "DIN"]
    assert chain[:4] == [(f"seat1.hole{n}.pixel", f"seat1.hole{n + 1}.pixel") for n in range(1, 5)]


@pytest.mark.parametrize("name", ["gpio-2", "gpio-2-mux"])
def test_every_gnd_pin_of_a_seats_plugs_has_a_wire_and_a_pad_of_its_own_from_the_hubs_gnd_strip(name):
    profile = load(name)
    net, board = netlist(profile), layout(profile)
    pads = {p.value: p for p in board.pieces if p.kind == "pad"}
    for seat, spec in enumerate(profile.seats, 1):
        grounds = [n for _, _, n in connector.terminals(profile, spec) if n.startswith("GND")]
        assert len(grounds) == 2
        for name_ in grounds:
            wire = next(w for w in net.wires if w.b == End(f"seat{seat}", name_))
            assert (wire.a.part, wire.net) == ("hub", "GND")
            assert board.strips[pads[f"seat{seat}:{name_}"].holes[0][1]] == "GND"


def test_the_io_boards_lamp_plug_gnd_has_its_wire_from_the_io_board_and_the_logic_plugs_from_the_hub():
    profile = load("ioboard-8")
    drawn = {(w.a, w.b) for w in breadboard.io_wires(profile)}
    assert (End("ioboard", "seat1 GND"), End("seat1", "GND2")) in drawn
    assert any(w.b == End("seat1", "GND") and w.a.part == "hub" for w in netlist(profile).wires)


def test_a_missing_wire_two_lines_joined_and_a_part_on_the_wrong_line_are_found():
    profile = load("gpio-2")
    net = netlist(profile)
    oled_gnd = next(w for w in net.panel_wires if w.b == End("seat1.oled", "GND"))
    missing = dataclasses.replace(net, panel_wires=[w for w in net.panel_wires if w is not oled_gnd])
    assert panel.problems(profile, missing) == ["seat 1 OLED GND has no wire",
                                                "seat 1 logic plug pin 15 (GND2) feeds nothing on the panel"]
    moved = dataclasses.replace(net, panel_wires=[dataclasses.replace(w, a=End("seat1", "3V3")) if w is oled_gnd
                                                  else w for w in net.panel_wires])
    found = panel.problems(profile, moved)
    assert "seat 1 logic plug pin 15 (GND2) feeds nothing on the panel" in found
    assert "seat 1 OLED GND is on 3V3, not GND" in found
    shorted = dataclasses.replace(net, panel_wires=net.panel_wires + [
        dataclasses.replace(oled_gnd, a=End("seat1.hole1.button", "COM"))])
    assert "GND and hole1 are joined on a panel" in panel.problems(profile, shorted)


def test_wiring_check_reports_a_panel_fault(monkeypatch):
    real = panel.inside

    def without_an_led(profile, seat, spec):
        found, wires = real(profile, seat, spec)
        return found, [w for w in wires if w.b != End(f"seat{seat}.lamp3.led", "cathode")]
    monkeypatch.setattr(panel, "inside", without_an_led)
    found = [p.problem for p in check.check(load("gpio-2")) if p.key == "the panels' wiring"]
    assert found == ["seat 1 hole 3 LED cathode has no wire", "seat 2 hole 3 LED cathode has no wire"]


@pytest.mark.parametrize("name", BOXES)
def test_the_parts_list_counts_the_panels_parts_from_their_wiring(name):
    profile = load(name)
    kinds = {}
    for part in netlist(profile).panel_parts:
        kinds[part.kind] = kinds.get(part.kind, 0) + 1
    bill = {item.part: item.qty for item in parts.bill(profile)}
    buttons = sum(qty for part, qty in bill.items() if "button" in part)     # a lit button is a button too
    assert buttons == kinds["button"] == 12 * len(profile.seats) // 2
    if "pixel" in kinds:
        assert bill["WS2812B pixel"] == kinds["pixel"] and kinds["diode"] == kinds["button"]
    if "led" in kinds:
        assert sum(qty for part, qty in bill.items() if "5 mm LED, plain" in part) == kinds["led"]


def test_a_guard_gnd_pin_of_ones_own_is_wired_at_both_ends():
    text = load("gpio-2-mux").text.replace('lamp = ["12V", "lamp1"', 'lamp = ["12V", "GND", "lamp1"')
    profile = parse(text, "box.toml")
    net = netlist(profile)
    assert panel.problems(profile, net) == []
    assert panel.feeds(net, End("seat1", "GND3")) == "joined to GND"
    assert any(w.b == End("seat1", "GND3") and w.a.part == "hub" for w in net.wires)
