"""``molebox wiring check``: every kind of wiring mistake is caught, with its line, its key and the fix."""
from __future__ import annotations

import pytest
from gpiozero.pins.pi import PiBoardInfo

from companion.cli import main
from wiring.check import check, free_gpio
from wiring.header import REFERENCE_REVISION, pins
from wiring.profile import ProfileError, builtin, builtin_names, parse

GPIO_2 = builtin("gpio-2").read_text()


def problems(text: str) -> list[str]:
    return [str(p) for p in check(parse(text, "box.toml"))]


def edit(old: str, new: str, text: str = GPIO_2) -> str:
    assert old in text
    return text.replace(old, new, 1)


def line_of(text: str, needle: str, occurrence: int = 0) -> int:
    return [n for n, line in enumerate(text.splitlines(), 1) if needle in line][occurrence]


@pytest.mark.parametrize("name", builtin_names())
def test_every_builtin_profile_passes(name):
    profile = parse(builtin(name).read_text(), name)
    assert check(profile) == []


@pytest.mark.parametrize("revision", [0xA020D3, 0xD04170, 0x902120, 0x9000C1])
def test_one_header_serves_every_40_pin_pi(revision):
    """3B+, 5, Zero 2 W, Zero W: gpiozero's J8 is the reference board's, pin for pin."""
    other = PiBoardInfo.from_revision(revision).headers["J8"].pins
    assert [(n, p.name) for n, p in sorted(other.items())] == [(p.physical, p.name) for p in pins(REFERENCE_REVISION)]


def test_pin_not_on_the_header():
    text = edit("holes = [4, 17, 27, 22, 5]", "holes = [4, 30, 27, 22, 5]")
    assert problems(text) == [
        f"box.toml:{line_of(text, 'holes = [4, 30')}: seats[1].holes[2] = 30: GPIO30 is not on the 40-pin header "
        "(it has GPIO0-27); fix: use a free GPIO (14, 15, 17)"]


def test_pin_used_twice_names_both_uses():
    text = edit("ok = 11", "ok = 16")
    assert problems(text) == [
        f"box.toml:{line_of(text, 'ok = 16', 1)}: seats[2].ok = 16: GPIO16 is already the seat 1 OK (seats[1].ok); "
        "fix: give the seat 2 OK its own pin (11, 14, 15)"]


def test_i2c_pins_are_taken_while_displays_are_on_the_bus():
    text = edit("ok = 16", "ok = 2")
    [problem] = problems(text)
    assert problem.startswith(f"box.toml:{line_of(text, 'ok = 2')}: seats[1].ok = 2: GPIO2 (header pin 3) is "
                              "I2C1 SDA, and I2C1 is in use for the displays (dtparam=i2c_arm=on)")
    assert problem.endswith("fix: move the seat 1 OK to a free GPIO (14, 15, 16)")


def test_spi_switched_on_claims_gpio7_to_11():
    text = edit('pin_factory = "lgpio"', 'pin_factory = "lgpio"\ninterfaces = ["spi"]')
    found = problems(text)
    assert [p.split(": ")[1] for p in found] == [
        "seats[2]", "seats[2].lamps[2] = 7", "seats[2].lamps[3] = 8", "seats[2].lamps[4] = 9", "seats[2].lamps[5] = 10",
        "seats[2].ok = 11"]
    assert "seats[2]: 2 seats on header 'main', but it has 19 GPIO free of the buses in use or reserved: room for 1 " \
        "seat of" in found[0]
    assert "GPIO7 (header pin 26) is SPI0 CE1, and SPI0 is in use for interfaces (dtparam=spi=on)" in found[1]


def test_io_board_on_the_uart_claims_gpio14_and_15():
    text = builtin("ioboard-8").read_text().replace('usb_id = "2E8A:0005"', 'port = "/dev/serial0"')
    text = text.replace('[ioboard]', 'buzzer = 14\n\n[ioboard]')
    [problem] = problems(text)
    assert problem.startswith(f"box.toml:{line_of(text, 'buzzer = 14')}: buzzer = 14: GPIO14 (header pin 8) is "
                              "UART1 TXD, and the UART is in use for the IO board on /dev/serial0 (enable_uart=1)")


def test_hat_eeprom_pins_are_never_free():
    [problem] = problems(edit("ok = 16", "ok = 0"))
    assert "GPIO0 (header pin 27) is I2C0 SDA, and I2C0 is reserved for the HAT ID EEPROM" in problem


def test_fixed_pull_up_lights_a_lamp_but_suits_a_button():
    no_displays = GPIO_2.replace("display = { bus = 1, address = 0x3C }\n", "").replace(
        "display = { bus = 1, address = 0x3D }\n", "")
    lamp = edit("lamps = [6, 13, 19, 26, 12]", "lamps = [6, 13, 19, 26, 3]", no_displays)
    [problem] = problems(lamp)
    assert problem.startswith(f"box.toml:{line_of(lamp, 'lamps = [6')}: seats[1].lamps[5] = 3: GPIO3 has a fixed "
                              "1.8 kOhm pull-up on the board, so the seat 1 lamp 5 lights whenever the pin is an input")
    assert problems(edit("ok = 16", "ok = 3", no_displays)) == []


def test_two_displays_at_one_address_on_one_bus():
    text = edit("address = 0x3D", "address = 0x3C")
    assert problems(text) == [
        f"box.toml:{line_of(text, 'address = 0x3C', 1)}: seats[2].display.address = 0x3C: 0x3C on bus 1 is already "
        "seat 1's display: both would answer; fix: move one module's address jumper (0x3C/0x3D), or give it its "
        "own mux channel"]


def test_a_display_on_the_parent_bus_answers_on_every_mux_channel():
    text = builtin("ioboard-8").read_text().replace("[table]\nbus = 1\naddress = 0x3D", "[table]\nbus = 1\naddress = 0x3C")
    found = problems(text)
    assert len(found) == 8                          # every seat's display, each on its own channel
    assert "seats[1].display.address = 0x3C: 0x3C on bus 11 is already the table display on the mux's parent bus 1" \
        in found[0]


def test_a_bus_that_is_no_mux_channel():
    text = edit("display = { bus = 1, address = 0x3D }", "display = { bus = 12, address = 0x3D }")
    [problem] = problems(text)
    assert problem == (f"box.toml:{line_of(text, 'bus = 12')}: seats[2].display.bus = 12: bus 12 is neither I2C1 "
                       "nor a channel of a TCA9548A mux; fix: use bus = 1 (GPIO2/3), or add a [mux] table whose "
                       "buses list this channel")


def test_an_address_no_oled_answers_at():
    [problem] = problems(edit("address = 0x3D", "address = 0x78"))
    assert "SSD1306 and SH1106 modules answer at 0x3C or 0x3D only" in problem


def test_more_seats_than_the_header_serves():
    third = "\n[[seats]]\nholes = [14, 15, 0, 1, 2]\nlamps = [3, 4, 5, 6, 7]\nok = 8\n"
    text = GPIO_2 + third
    found = problems(text)
    assert any(p.startswith(
        f"box.toml:{line_of(text, '[[seats]]', 2)}: seats[3]: 3 seats on header 'main', but it has 24 GPIO free of "
        "the buses in use or reserved: room for 2 seats of 11 pins; fix: keep 2 [[seats]], or serve up to eight with the IO board")
               for p in found)


def test_free_pins_are_what_is_left():
    assert free_gpio(parse(GPIO_2, "box.toml")) == [14, 15]


def test_bad_toml_names_the_line():
    text = edit("[display]", "[display")
    with pytest.raises(ProfileError, match=rf"box.toml:{line_of(text, '[display')}: Expected ']' .*fix the TOML"):
        parse(text, "box.toml")


def test_an_unknown_key_names_the_line_and_the_likely_key():
    text = edit("ok = 11", "okk = 11")
    with pytest.raises(ProfileError) as err:
        parse(text, "box.toml")
    assert str(err.value) == (f"box.toml:{line_of(text, 'okk')}: seats[2]: unknown key 'okk'; did you mean 'ok'? "
                              "the keys here are header, holes, lamps, ok, display")


def test_an_unknown_display_key_in_an_inline_table():
    text = edit("address = 0x3D }", "adress = 0x3D }")
    with pytest.raises(ProfileError, match=rf"box.toml:{line_of(text, 'adress')}: seats\[2\] display: unknown key "
                                           r"'adress'; did you mean 'address'\?"):
        parse(text, "box.toml")


def test_cli_exit_status_and_output(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(edit("ok = 11", "ok = 16"))
    assert main(["wiring", "check", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "GPIO16 is already the seat 1 OK" in out and out.rstrip().endswith("bad.toml: 1 problem")
    assert main(["wiring", "check", "gpio-2"]) == 0
    assert "ok: Two seats on GPIO: 2 seats, 22 GPIO, 2 displays" in capsys.readouterr().out
    assert main(["wiring", "check", str(tmp_path / "missing.toml")]) == 2


def test_the_report_names_the_eeprom_bus_reserved_not_in_use(capsys):
    assert main(["wiring", "check", "gpio-2"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(
        ": 2 seats, 22 GPIO, 2 displays, buses in use: I2C1; reserved: I2C0 (the HAT ID EEPROM)")


def test_a_lamp_kind_the_box_cannot_drive_names_the_line_and_the_kinds():
    text = edit('kind = "led"', 'kind = "neon"')
    with pytest.raises(ProfileError) as err:
        parse(text, "box.toml")
    assert str(err.value).startswith(f"box.toml:{line_of(text, 'neon')}: lamp.kind must be one of led, 5v, 12v, "
                                     "ws2812, got 'neon'; write e.g.")


def test_a_pixel_chain_needs_the_io_board_and_plain_lamps_on_it_two_seats():
    with pytest.raises(ProfileError, match=r"box.toml:\d+: lamp.kind = \"ws2812\" needs the IO board"):
        parse(edit('kind = "led"', 'kind = "ws2812"'), "box.toml")
    eight = builtin("ioboard-8").read_text()
    with pytest.raises(ProfileError, match="the IO board drives plain lamps for 2 seats, the profile has 8; "
                                           "use kind = \"ws2812\""):
        parse(eight.replace('kind = "ws2812"', 'kind = "led"'), "box.toml")


TWO_BUSES = builtin("ioboard-8-two-buses").read_text()


def test_two_muxes_each_on_its_own_bus():
    profile = parse(TWO_BUSES, "box.toml")
    assert [(m.address, m.parent, m.buses) for m in profile.muxes] == [(0x70, 1, (11, 12, 13, 14)),
                                                                       (0x70, 0, (19, 20, 21, 22))]
    assert profile.mux_of(12) is profile.muxes[0] and profile.mux_of(21) is profile.muxes[1]
    assert profile.mux_of(1) is None and profile.mux_of(0) is None
    assert [profile.controller(s.display.bus) for s in profile.seats] == [1, 1, 1, 1, 0, 0, 0, 0]
    assert profile.controller(profile.table.bus) == 1


def test_one_mux_as_a_table_is_a_one_mux_tuple():
    profile = parse(builtin("ioboard-8").read_text(), "box.toml")
    assert [(m.address, m.parent) for m in profile.muxes] == [(0x70, 1)]
    assert parse(GPIO_2, "box.toml").muxes == ()


def test_two_muxes_at_one_address_on_one_bus_are_refused_at_the_second():
    text = edit("parent = 0", "parent = 1", TWO_BUSES)
    with pytest.raises(ProfileError) as err:
        parse(text, "box.toml")
    assert str(err.value) == (f"box.toml:{line_of(text, 'address = 0x70', 1)}: two muxes at 0x70 on I2C1; give one "
                              "its own address (its A0-A2 jumpers) or its own parent bus")


def test_a_bus_on_two_muxes():
    text = edit("buses = [19, 20, 21, 22]", "buses = [14, 20, 21, 22]", TWO_BUSES)
    found = problems(text)
    assert found[0] == (f"box.toml:{line_of(text, 'buses = [14, 20')}: mux[2].buses = [14, 20, 21, 22]: bus 14 is "
                        "already a channel of the mux at 0x70 on I2C1; fix: list each channel's own /dev/i2c-N once, "
                        "as `molebox doctor` shows them")


def test_a_mux_channel_that_is_a_parent_bus():
    text = edit("buses = [19, 20, 21, 22]", "buses = [1, 20, 21, 22]", TWO_BUSES)
    assert any("mux[2].buses = [1, 20, 21, 22]: bus 1 is I2C1 itself, the Pi's own bus, not a mux channel" in p
               for p in problems(text))


def test_a_mux_on_a_bus_the_header_does_not_have():
    text = edit("parent = 0", "parent = 3", TWO_BUSES)
    assert f"box.toml:{line_of(text, 'parent = 3')}: mux[2].parent = 3: I2C3 has no pins on the 40-pin header; " \
        "fix: write parent = 1 (I2C1 on GPIO2/3) or parent = 0 (I2C0 on GPIO0/1)" in problems(text)


def test_a_mux_on_i2c0_takes_gpio0_and_1_for_the_displays():
    text = TWO_BUSES.replace('backend = "ioboard"', 'backend = "ioboard"\nbuzzer = 1', 1)
    [problem] = problems(text)
    assert problem.startswith(f"box.toml:{line_of(text, 'buzzer = 1')}: buzzer = 1: GPIO1 (header pin 28) is I2C0 "
                              "SCL, and I2C0 is in use for the displays (dtparam=i2c_vc=on); fix: move the buzzer to "
                              "a free GPIO (4, 5, 6")


def test_the_displays_behind_each_mux_clash_only_with_their_own_parent_bus():
    # the table at 0x3C on I2C1 answers on every channel of the I2C1 mux, not on the I2C0 mux's
    found = problems(edit("[table]\nbus = 1\naddress = 0x3D", "[table]\nbus = 1\naddress = 0x3C", TWO_BUSES))
    assert len(found) == 4 and all("on the mux's parent bus 1" in p for p in found)
    assert [p.split(": ")[1] for p in found] == [f"seats[{n}].display.address = 0x3C" for n in (1, 2, 3, 4)]


def test_the_report_names_both_buses_in_use_and_no_eeprom(capsys):
    assert main(["wiring", "check", "ioboard-8-two-buses"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(
        ": 8 seats, 0 GPIO, 9 displays, buses in use: I2C1, I2C0; reserved: none")


GPIO_2_MUX = builtin("gpio-2-mux").read_text()
LOGIC = 'logic = ["GND", "hole1", "hole2", "hole3", "hole4", "hole5", "ok", "3V3", "SDA", "GND", "SCL"]'
LAMP = 'lamp = ["12V", "lamp1", "lamp2", "lamp3", "lamp4", "lamp5"]'


def test_the_12_v_lamp_supply_on_a_logic_plug_pin_is_refused():
    text = edit(LOGIC, LOGIC.replace('"ok", "3V3"', '"ok", "12V", "3V3"'), GPIO_2_MUX)
    text = edit(LAMP, LAMP.replace('"12V", ', ''), text)
    assert problems(text) == [
        f"box.toml:{line_of(text, 'logic = [')}: connector.logic[8] = '12V': the logic plug carries the 12 V lamp "
        "supply (12V) beside button and I2C lines: a plug put in reversed or one row off puts 12 V on a GPIO; fix: "
        "move it to the lamp plug: a polarised plug of another kind, which cannot go into the logic plug's socket"]


def test_a_lamps_minus_on_the_logic_plug_is_refused_it_sits_at_12_v_while_off():
    text = edit(LOGIC, LOGIC.replace('"SCL"]', '"SCL", "lamp5"]'), GPIO_2_MUX)
    text = edit(LAMP, LAMP.replace(', "lamp5"', ''), text)
    assert [p.split(": ", 2)[1:] for p in problems(text)] == [[
        "connector.logic[12] = 'lamp5'", "the logic plug carries a lamp's minus, at 12 V while its driver is off "
        "(lamp5) beside button and I2C lines: a plug put in reversed or one row off puts 12 V on a GPIO; fix: move "
        "it to the lamp plug: a polarised plug of another kind, which cannot go into the logic plug's socket"]]


def test_the_pixels_5_v_on_the_io_boards_logic_plug_is_refused():
    text = builtin("ioboard-8").read_text() + ('\n[connector]\nlogic = ["row", "hole1", "hole2", "hole3", "hole4", '
                                              '"hole5", "ok", "5V", "3V3", "SDA", "GND", "SCL"]\n'
                                              'lamp = ["DIN", "DOUT", "GND"]\n')
    [problem] = problems(text)
    assert "connector.logic[8] = '5V': the logic plug carries the 5 V lamp supply (5V)" in problem
    assert problem.startswith(f"box.toml:{line_of(text, 'logic = [')}:")


def test_a_line_on_no_plug_or_on_two_or_unknown_is_named():
    text = edit(LOGIC, LOGIC.replace('"hole5", ', '"hole4", "buton", '), GPIO_2_MUX)
    found = [p.split(": ", 2)[2] for p in problems(text)]
    assert found == ["hole4 is already on the logic plug's pin 5; fix: give each line one pin (GND may have several)",
                     "'buton' is not a line of this box's panels (they have GND, hole1, hole2, hole3, hole4, hole5, "
                     "ok, 3V3, SDA, SCL, 12V, lamp1, lamp2, lamp3, lamp4, lamp5); fix: name each pin after one of "
                     "those, or NC",
                     "no pin carries hole5; fix: add each to the logic or the lamp plug"]


def test_a_connector_that_is_no_list_of_lines_names_the_line():
    with pytest.raises(ProfileError, match=r"box.toml:\d+: connector.lamp must list the line on each pin"):
        parse(edit(LAMP, 'lamp = "12V"', GPIO_2_MUX), "box.toml")


def test_a_logic_line_beside_the_12_v_on_the_lamp_plug_is_refused_naming_both_pins():
    """The lamp plug may carry a button line, but never beside 12 V or a lamp's minus (at 12 V while off)."""
    text = edit(LOGIC, LOGIC.replace('"hole5", ', ''), GPIO_2_MUX)
    text = edit(LAMP, 'lamp = ["12V", "hole5", "lamp1", "lamp2", "lamp3", "lamp4", "lamp5"]', text)
    assert problems(text) == [
        f"box.toml:{line_of(text, 'lamp = [')}: connector.lamp[2] = 'hole5': pin 1 (12V) sits beside pin 2 (hole5): "
        "a plug one row off or two cores touching joins them; fix: put a GND (or NC) pin between them, or move hole5 "
        "to the logic plug",
        f"box.toml:{line_of(text, 'lamp = [')}: connector.lamp[2] = 'hole5': pin 2 (hole5) sits beside pin 3 "
        "(lamp1 (at 12V)): a plug one row off or two cores touching joins them; fix: put a GND (or NC) pin between "
        "them, or move hole5 to the logic plug"]
    guarded = edit(LAMP, 'lamp = ["12V", "GND", "hole5", "GND", "lamp1", "lamp2", "lamp3", "lamp4", "lamp5"]',
                   edit(LOGIC, LOGIC.replace('"hole5", ', ''), GPIO_2_MUX))
    assert problems(guarded) == []


def test_idc_neighbours_are_the_next_pin_and_the_pin_two_on():
    from wiring.connector import LAMP as LAMP_PLUG, LOGIC as LOGIC_PLUG, Plug
    assert Plug(LOGIC_PLUG, ("a", "b", "c", "d", "e")).neighbours() == [(1, 2), (1, 3), (2, 3), (2, 4), (3, 4),
                                                                        (3, 5), (4, 5)]
    assert Plug(LAMP_PLUG, ("a", "b", "c")).neighbours() == [(1, 2), (2, 3)]


HUB = "\n[hub]\nstrips = {}\n"


@pytest.mark.parametrize("name", [n for n in builtin_names() if not n.startswith("sim")])
def test_every_shipped_hub_keeps_its_supplies_beside_ground_only(name):
    from wiring import guard
    from wiring.netlist import netlist
    strips = next(p for p in netlist(parse(builtin(name).read_text(), name)).parts if p.key == "hub").strips
    assert strips and guard.clashes(zip(strips, strips[1:])) == []
    assert all(strips[i + 1] == "GND" for i, s in enumerate(strips[:-1]) if s in guard.HOT)


def test_a_12_v_strip_beside_the_3v3_strip_is_refused_with_the_safe_order():
    """The hub as issue 46 found it on gpio-2-mux: 3V3, 12V, GND, with no 5V strip between."""
    text = GPIO_2_MUX + HUB.format('["SDA", "SCL", "3V3", "12V", "GND"]')
    assert problems(text) == [
        f"box.toml:{line_of(text, 'strips = [')}: hub.strips = ['SDA', 'SCL', '3V3', '12V', 'GND']: the 12V strip "
        "sits beside the 3V3 strip: one solder bridge between them puts 12V on 3V3 and the Pi; fix: put a GND strip "
        'between them: strips = ["SDA", "SCL", "3V3", "GND", "12V"]']
    assert problems(GPIO_2_MUX + HUB.format('["SDA", "SCL", "3V3", "GND", "12V"]')) == []


def test_a_hot_strip_beside_a_bus_line_and_a_missing_or_foreign_strip_are_refused():
    found = problems(GPIO_2_MUX + HUB.format('["12V", "SDA", "3V3", "GND", "5V"]'))
    assert [p.split(": ", 2)[2] for p in found] == [
        "a 5V strip, but no part of this box takes 5V from the hub (its strips carry 3V3, 12V, GND, SDA, SCL); fix: "
        'leave it out: strips = ["SDA", "SCL", "3V3", "GND", "12V"]',
        'no strip carries SCL; fix: add it: strips = ["SDA", "SCL", "3V3", "GND", "12V"]',
        "the 12V strip sits beside the SDA strip: one solder bridge between them puts 12V on SDA and the Pi; fix: put "
        'a GND strip between them: strips = ["SDA", "SCL", "3V3", "GND", "12V"]']
    assert problems(GPIO_2_MUX + HUB.format('["SDA", "SCL", "3V3", "GND", "12V", "GND"]')) == []


def test_a_box_that_takes_the_pis_5_v_fails_the_hubs_stripboard_check_naming_the_pins_and_the_fix():
    """5 V lamps, or a buzzer with no lamp adapter, take header pin 2, which faces 3V3 (pin 1) across the box
    header's cut: `wiring check` runs the stripboard's design-rule check and refuses it up front."""
    mux = builtin("gpio-2-mux").read_text()
    five = edit('kind = "12v"', 'kind = "5v"', edit('lamp = ["12V",', 'lamp = ["5V",', mux))
    [lamps] = problems(five)
    assert lamps.startswith(f'box.toml:{line_of(five, "kind = ")}: [lamp] kind = "5v": the box takes the Pi\'s 5 V '
                            "from header pin 2, which faces pin 1 (3V3) across the hub's box header")
    assert 'fix: give the lamps a supply of their own: kind = "12v" and a 12 V adapter' in lamps
    buzzer = edit("pin_factory", "buzzer = 14\npin_factory")
    [problem] = problems(buzzer)
    assert problem.startswith(f"box.toml:{line_of(buzzer, 'buzzer = 14')}: buzzer = 14: the box takes the Pi's 5 V")
