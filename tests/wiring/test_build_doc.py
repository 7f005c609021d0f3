"""docs/build.md against the code: its parts lists are what `molebox wiring parts` prints, its hardware
tables cover the data tables, its resistor values are the ones the parts list computes, its links lead
somewhere, and the README's Raspberry Pi section leads to it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware import protocol
from wiring import i2c
from wiring.hardware import DISPLAYS, LAMP_KINDS, LEDS, MIN_HEADROOM_V, GPIO_VOLTS, led_resistor
from wiring.parts import report
from wiring.profile import load

ROOT = Path(__file__).parents[2]
BUILD = (ROOT / "docs/build.md").read_text()


@pytest.mark.parametrize("name", ["gpio-2", "gpio-2-mux", "ioboard-8", "ioboard-8-two-buses"])
def test_the_parts_lists_are_what_molebox_prints(name):
    block = re.search(rf"<!-- molebox wiring parts {name} -->\n```\n\$ molebox wiring parts {name}\n(.*?)```",
                      BUILD, re.S)
    assert block, f"docs/build.md has no parts block for {name}"
    assert block.group(1) == report(load(name)), f"paste `molebox wiring parts {name}` into docs/build.md again"


def test_the_supported_hardware_tables_cover_the_data():
    for driver, display in DISPLAYS.items():
        assert re.search(rf"^\| `{driver}` \| {display.controller} \| {re.escape(display.size)}", BUILD, re.M), driver
    for kind in LAMP_KINDS:
        assert re.search(rf"^\| `{kind}` \|", BUILD, re.M), kind
    for colour in LEDS:
        assert re.search(rf"^\| [^|]*\b{colour}\b", BUILD, re.M), colour


def test_the_resistor_table_is_what_the_parts_list_computes():
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| ([a-z, ()-]+) \| \d\.\d V \| (.*) \|$", BUILD, re.M)}
    for colours, cells in rows.items():
        colour = colours.split(",")[0].split(" ")[0]
        if GPIO_VOLTS - LEDS[colour].volts < MIN_HEADROOM_V:
            assert cells.startswith("refused"), colours
            continue
        found = re.findall(r"(\d+) Ω(?: \((\d\.\d) mA\))?", cells)
        assert len(found) == 3, colours
        for ma, (ohms, actual) in zip((2, 3, 4), found):
            want_ohms, want_ma = led_resistor(colour, ma)
            assert int(ohms) == want_ohms, (colour, ma)
            assert not actual or float(actual) == round(want_ma, 1), (colour, ma)


def test_every_link_leads_to_a_file():
    for target in re.findall(r"\]\(([^)#]+)\)", BUILD):
        assert (ROOT / "docs" / target).exists(), target


def test_the_readme_raspberry_pi_section_leads_to_the_build_guide():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## On a Raspberry Pi", 1)[1].split("\n## ", 1)[0]
    assert "docs/build.md" in section
    assert "<this repository>" not in readme


def test_pi_md_shows_the_pin_table_and_check_lines_molebox_prints():
    from wiring.check import report as check_report
    from wiring.diagram import pin_table
    pi = (ROOT / "docs/pi.md").read_text()
    shown = pi.split("$ .venv/bin/molebox wiring diagram gpio-2\n", 1)[1].split("```", 1)[0].splitlines()
    assert shown and set(shown) <= set(pin_table(load("gpio-2")).splitlines())
    for name in ("gpio-2", "ioboard-8"):
        line = check_report(load(name), []).split(": ok: ", 1)[1]
        assert f"wiring/profiles/{name}.toml: ok: {line}" in pi


def test_the_pull_up_table_is_what_the_code_counts():
    rows = {(m.group(1), m.group(2)): m.groups()[2:] for m in re.finditer(
        r"^ *\| (`[^|]+`) \| (I2C\d) \| [^|]+ \| ([\d.]+) kΩ \| ([\d.]+) mA \| (\d+) pF \| ([\d.]+) m \|$", BUILD, re.M)}
    assert len(rows) == 3
    for (builds, name), figures in rows.items():
        for build in re.findall(r"`([^`]+)`", builds):
            bus = next(b for b in i2c.buses(load(build)) if f"I2C{b.number}" == name)
            assert figures == (f"{bus.ohms / 1000:.2f}", f"{bus.sink_ma:.1f}", f"{bus.max_pf:.0f}",
                               f"{bus.cable_m:.1f}"), (build, name)


def test_the_power_on_glow_list_names_every_plain_lamp_on_a_pulled_up_pin():
    section = BUILD.split("### At power-on", 1)[1].split("\n## ", 1)[0]
    for seat in load("gpio-2").seats:
        for gpio in seat.lamps:
            assert (f"GPIO{gpio}" in section) == (gpio <= 8), gpio


def test_the_firmware_build_the_docs_show_is_this_one():
    ioboard = (ROOT / "docs/ioboard.md").read_text()
    shown = set(re.findall(r"firmware build ([0-9a-f]{6})", BUILD + ioboard))
    assert shown == {f"{protocol.BUILD:06x}"}, shown
