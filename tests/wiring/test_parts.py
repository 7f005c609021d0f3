"""``molebox wiring parts``: the parts list and the current budget, and the budget's limits enforced."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion.cli import main
from wiring import hardware, i2c, pico
from wiring.check import check
from wiring.hardware import PI, led_resistor
from wiring.parts import bill, budget, report
from wiring.profile import PLAIN_LAMP_SEATS, builtin, builtin_names, load, parse
from wiring.stripboard import layout

ROOT = Path(__file__).parents[2]
BOXES = [n for n in builtin_names() if load(n).backend != "sim"]


def with_lamp(text: str, **values) -> str:
    """A built-in profile's text with its [lamp] keys set."""
    for key, value in values.items():
        text = re.sub(rf"^{key} = .*$", f"{key} = {value!r}".replace("'", '"'), text, count=1, flags=re.M)
    return text


@pytest.mark.parametrize("name", BOXES)
def test_every_reference_box_stays_within_the_pis_limits(name):
    rows = budget(load(name))
    assert rows and [r.what for r in rows if not r.ok] == []
    assert all(r.limit == PI.pin_ma for r in rows if r.what.endswith("pin (GPIO)"))
    assert all(r.limit == PI.total_ma for r in rows if r.what.startswith("all GPIO outputs"))


def test_plain_leds_take_their_current_from_the_pins_and_it_is_added_up():
    rows = {r.what: r for r in budget(load("gpio-2"))}
    ohms, ma = led_resistor("red", 3)
    assert (ohms, round(ma, 2)) == (470, 2.77)                  # (3.3 V - 2.0 V) / 470 Ohm
    assert rows["one lamp pin (GPIO)"].ma == pytest.approx(ma)
    assert rows["all GPIO outputs at once (10 pins)"].ma == pytest.approx(10 * ma)
    assert rows["3V3 pins: displays, mux, GPIO outputs"].ma == pytest.approx(10 * ma + 2 * 20)
    assert rows["3V3 pins: displays, mux, GPIO outputs"].limit is None       # Raspberry Pi publishes none
    assert re.search(r"3V3 pins: displays, mux, GPIO outputs +67\.7 mA +none  \(no published limit\)",
                     report(load("gpio-2")))


def test_a_profile_driving_more_gpio_current_than_the_pi_allows_fails_check_and_parts(tmp_path, capsys):
    hot = tmp_path / "hot.toml"
    hot.write_text(with_lamp(builtin("gpio-2").read_text(), ma=6))     # ten red LEDs at 5.9 mA: 59 mA in all
    assert main(["wiring", "check", str(hot)]) == 1
    line = next(n for n, text in enumerate(hot.read_text().splitlines(), 1) if text.startswith("ma = 6"))
    assert capsys.readouterr().out.splitlines()[0] == (
        f"{hot}:{line}: [lamp] led, red, 6 mA: all GPIO outputs at once (10 pins) draw 59.1 mA, more than the 50 mA "
        'allowed; fix: lower [lamp] ma to 5 (a 270 Ohm resistor), or drive the lamps through a ULN2803A: kind = "5v" '
        'or "12v"')
    assert main(["wiring", "parts", str(hot)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"all GPIO outputs at once \(10 pins\) +59\.1 mA +50 mA +OVER", out)


def test_one_pin_over_its_16_ma_is_caught_too():
    found = [str(p) for p in check(parse(with_lamp(builtin("gpio-2").read_text(), ma=20), "box.toml"))]
    assert any("one lamp pin (GPIO) draw 19.1 mA, more than the 16 mA allowed" in p for p in found)


def test_the_suggested_current_fits():
    text = with_lamp(builtin("gpio-2").read_text(), ma=5)
    assert check(parse(text, "box.toml")) == []


def test_lamps_through_a_driver_take_a_fraction_of_a_milliamp_from_each_pin():
    rows = {r.what: r for r in budget(load("gpio-2-mux"))}
    assert rows["one lamp pin (GPIO)"].ma == hardware.ULN2803A_INPUT_MA
    adapter = rows["12 V adapter: 10 lamps, buzzer"]
    assert adapter.ma == 10 * 20 + hardware.BUZZER_MA and adapter.volts == 12
    assert not any(what.startswith("5V pins") for what in rows)      # nothing takes the Pi's 5 V


def test_a_blue_led_straight_on_a_pin_is_refused():
    found = [str(p) for p in check(parse(with_lamp(builtin("gpio-2").read_text(), colour="blue"), "box.toml"))]
    assert len(found) == 1 and "a blue LED needs 3 V, too close to the pin's 3.3 V" in found[0]


def test_the_list_counts_the_parts_from_the_profile():
    items = {i.part: i for i in bill(load("gpio-2-mux"))}
    assert items["ULN2803A driver (with an 18-pin DIP socket)"].qty == 2
    assert items["lit arcade button with a 12 V LED lamp (hole)"].qty == 10
    assert items["TCA9548A I2C multiplexer breakout"].qty == 1
    assert items['SH1106 1.3" 128x64 I2C OLED module, 4 pins'].qty == 2           # the seats'
    table = items['SSD1309 2.42" 128x64 I2C OLED module, 4 pins']
    assert table.qty == 1 and table.choice.startswith("at 0x3D: move the address resistor on the back to 0x7A")
    eight = {i.part: i for i in bill(load("ioboard-8"))}
    assert [(i.qty, i.choice[:7]) for i in bill(load("ioboard-8")) if "OLED" in i.part] == [(8, "at 0x3C"),
                                                                                           (1, "at 0x3D")]
    assert eight["BAT43 Schottky diode (DO-35)"].qty == 48 and eight["WS2812B pixel"].qty == 40
    assert eight["330 Ohm resistor, 1/4 W"].qty == 8 and "GP2-GP9" in eight["330 Ohm resistor, 1/4 W"].choice
    assert eight["MF-R110 polyfuse (1.1 A hold, 2.2 A trip)"].qty == 1 and eight["100 nF ceramic capacitor"].qty == 1
    mux = {i.part: i for i in bill(load("gpio-2-mux"))}
    assert mux["MF-R050 polyfuse (0.5 A hold, 1 A trip)"].choice.startswith("radial: F1 on the hub")
    assert eight["Raspberry Pi Pico (or Pico W)"].qty == 1
    assert eight["4.7 kOhm resistor, 1/4 W"].qty == 6 and "GP10-GP15" in eight["4.7 kOhm resistor, 1/4 W"].choice


def test_every_line_of_the_list_says_why():
    for name in BOXES:
        assert all(item.why for item in bill(load(name))), name


def test_the_io_board_figures_are_the_firmwares():
    """hardware.py repeats a few of firmware/main.py's build options; they must agree."""
    tree = ast.parse((ROOT / "firmware/main.py").read_text())
    options = {node.targets[0].id: ast.literal_eval(node.value) for node in tree.body
               if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
               and node.targets[0].id in ("ROW_PINS", "BRIGHTNESS", "FIRST_COLUMN", "LAMP_PINS", "PIXEL_PIN")}
    assert options["ROW_PINS"] == hardware.PICO_ROW_PINS
    assert options["BRIGHTNESS"] == hardware.WS2812_BRIGHTNESS
    assert options["PIXEL_PIN"] == hardware.PICO_PIXEL_PIN
    assert f"GP{options['FIRST_COLUMN']}-GP{options['FIRST_COLUMN'] + 5}" == hardware.PICO_COLUMNS
    assert len(options["LAMP_PINS"]) == PLAIN_LAMP_SEATS * 5
    assert (pico.LAMP_PINS, pico.FIRST_COLUMN) == (options["LAMP_PINS"], options["FIRST_COLUMN"])


@pytest.mark.parametrize("name", BOXES)
def test_the_cli_prints_the_list_and_the_budget(name, capsys):
    assert main(["wiring", "parts", name]) == 0
    assert capsys.readouterr().out == report(load(name))


def test_every_i2c_line_s_pull_ups_are_counted_the_mux_breakout_s_too():
    [bus] = i2c.buses(load("ioboard-8"))
    assert [whose for whose, _ in bus.pullups] == ["the Pi", "mux breakout", "table module",
                                                   "the selected channel's module"]
    assert round(bus.ohms) == 925 and round(bus.sink_ma, 1) == 3.1


def test_i2c0_gets_the_hubs_pull_ups_without_them_under_a_metre_of_cable():
    first, second = i2c.buses(load("ioboard-8-two-buses"))
    assert (first.number, second.number) == (1, 0) and second.pullups[0] == ("the hub's pair", 2200)
    bare = i2c.Bus(0, second.pullups[1:], second.parts)         # the mux's and the module's alone
    assert round(bare.ohms, -2) == 3200 and round(bare.max_pf, -1) == 110 and bare.cable_m < 1
    assert second.cable_m > 2
    assert "2 x 2.2 kOhm resistor, 1/4 W\n        on the hub, from the strips of pins 27 (SDA0) and 28 (SCL0)" in \
        report(load("ioboard-8-two-buses"))
    pullups = [p for p in layout(load("ioboard-8-two-buses")).pieces if p.kind == "resistor"]
    assert sorted((p.nets, p.value) for p in pullups) == [(("GPIO0", "3V3"), "2.2 kOhm"), (("GPIO1", "3V3"), "2.2 kOhm")]
