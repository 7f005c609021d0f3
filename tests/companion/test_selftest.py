"""``molebox selftest`` on the simulator: mock pins pressed by a scripted finger, displays checked to the pixel."""
from __future__ import annotations

import time

import pytest

from companion import selftest
from companion.cli import main
from companion.hardware.gpio import luma_device
from companion.hardware.oled import ResilientDisplay
from companion.hardware.sim import SimHardware
from companion.render.selftest import card
from wiring.profile import load

from companion.hardware.fake.i2c import FakeBus
from companion.hardware.fake.oled import FakeOLED


@pytest.fixture
def sim():
    made = []

    def build(profile: str = "gpio-2", make_display=None) -> SimHardware:
        made.append(SimHardware(load(profile), time.monotonic, make_display))
        return made[-1]
    yield build
    for hw in made:
        hw.close()


def test_the_command_runs_unattended_on_the_simulator(capsys):
    assert main(["selftest", "--backend", "sim", "--wiring", "gpio-2-mux", "--wait", "2", "--lamp-s", "0"]) == 0
    out = capsys.readouterr().out
    assert "seat 2: press ok" in out and "the buzzer beeps twice" in out
    assert out.rstrip().endswith("all 15 answered")           # 3 displays, 2 x 6 buttons


def test_each_lamp_lights_alone_in_turn(sim):
    hw = sim()
    lit: list[int] = []
    lamp_pins = {pin.info.name: pin for seat in (1, 2) for pin in hw.lamp_pins(seat)}
    for pin in lamp_pins.values():
        pin.on_change = lambda p: p.state and all(o is p or not o.state for o in lamp_pins.values()) \
            and lit.append(int(p.info.name[4:]))
    selftest.SelfTest(hw, tell=lambda s: None, wait_s=1, lamp_s=0, prompt=selftest.finger(hw)).lamps()
    profile = load("gpio-2")
    assert lit == [*profile.seats[0].lamps, *profile.seats[1].lamps]


def test_a_dead_switch_and_crossed_wires_are_reported(sim):
    hw = sim()
    finger = selftest.finger(hw, skip={(2, "hole3")}, wrong={(1, "hole2"): "hole4"})
    results = selftest.SelfTest(hw, tell=lambda s: None, wait_s=0.4, lamp_s=0, prompt=finger).run()
    failed = {r.part: r.note for r in results if not r.ok}
    assert failed == {"seat2 hole3": "no press within 0.4 s",
                      "seat1 hole2": "no press within 0.4 s; seat1 hole4 answered instead: crossed wires?"}
    assert selftest.report(results).endswith("2 of 14 did not answer: seat1 hole2, seat2 hole3")


def test_a_display_that_does_not_answer_is_reported_and_the_other_shows_the_cards(sim):
    bus = FakeBus({0x3C: FakeOLED(), 0x3D: FakeOLED()})
    bus.unplug(0x3D)
    hw = sim(make_display=lambda spec: ResilientDisplay(f"I2C{spec.bus} 0x{spec.address:02X}",
                                                        lambda: luma_device(spec, bus=bus), first_retry=60))
    shown = []
    glass = bus.modules[0x3C]
    finger = selftest.finger(hw)

    def prompt(seat, control):
        shown.append(glass.glass().tobytes())
        finger(seat, control)
    results = selftest.SelfTest(hw, tell=lambda s: None, wait_s=1, lamp_s=0, prompt=prompt).run()
    assert results[0] == selftest.Result("seat1 display", True, "test card shown I2C1 0x3C")
    assert not results[1].ok and results[1].part == "seat2 display"
    assert results[1].note == "I2C1 0x3D display: I2C device not found on address: 0x3D"
    assert shown[0] == card("seat1", ["press hole1", "(its lamp is lit)"]).tobytes()
    assert glass.glass().tobytes() == card("seat1", ["done", "see the report"]).tobytes()
    assert all(r.ok for r in results[2:])
