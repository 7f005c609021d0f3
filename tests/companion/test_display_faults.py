"""A seat OLED unplugged mid-frame: luma's real drivers on a fake I2C bus that stops answering.

The game must go on without the display, and the display must come back with
the picture it should show now, not the one it lost.
"""
from __future__ import annotations

import time

import pytest
from PIL import Image, ImageDraw

from companion.hardware.gpio import luma_device
from companion.hardware.oled import ResilientDisplay
from wiring.profile import DisplaySpec
from tests.waiting import wait_for

from companion.hardware.fake.i2c import FakeBus
from companion.hardware.fake.oled import FakeOLED


def card(label: str) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 127, 63), outline=255)
    draw.text((4, 4), label, fill=255)
    return image


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_display_lost_mid_frame_comes_back_showing_the_newest_frame(driver):
    bus = FakeBus({0x3C: FakeOLED(driver)})
    spec = DisplaySpec(driver=driver)
    oled = ResilientDisplay("seat1", lambda: luma_device(spec, bus=bus), first_retry=0.02, max_retry=0.05)
    try:
        oled.display(card("one"))
        assert bus.modules[0x3C].glass().tobytes() == card("one").tobytes()
        bus.unplug(0x3C, after=10)                  # part-way into the next frame's changed bytes
        oled.display(card("two"))                   # never raises
        assert oled.fault and "Remote I/O error" in oled.fault
        oled.display(card("three"))                 # frames keep coming while it is away
        time.sleep(0.1)                             # a few retries fail meanwhile
        assert oled.fault
        bus.plug(0x3C)                              # back with fresh power: noise in RAM, panel off
        assert wait_for(lambda: oled.fault is None)
        assert bus.modules[0x3C].glass().tobytes() == card("three").tobytes()
    finally:
        oled.cleanup()


def test_retries_back_off_up_to_the_cap():
    tries: list[float] = []

    def make():
        tries.append(time.monotonic())
        raise OSError(121, "Remote I/O error")

    oled = ResilientDisplay("seat1", make, first_retry=0.05, max_retry=0.2)
    assert wait_for(lambda: len(tries) >= 6)
    oled.cleanup()
    gaps = [b - a for a, b in zip(tries, tries[1:])]
    assert [g >= want * 0.9 for g, want in zip(gaps, [0.05, 0.1, 0.2, 0.2, 0.2])] == [True] * 5   # doubling, capped
    count = len(tries)
    time.sleep(0.3)                                 # more than a retry's time
    assert len(tries) == count                      # closed: no more tries


def test_a_display_absent_at_start_does_not_stop_the_box_and_joins_later():
    bus = FakeBus({0x3C: FakeOLED()})
    bus.unplug(0x3C)
    oled = ResilientDisplay("seat1", lambda: luma_device(DisplaySpec(), bus=bus), first_retry=0.02)
    try:
        assert oled.fault
        oled.display(card("lobby"))
        bus.plug(0x3C)
        assert wait_for(lambda: oled.fault is None)
        assert bus.modules[0x3C].glass().tobytes() == card("lobby").tobytes()
    finally:
        oled.cleanup()


FIRST = "1 hole1\n1 ok\n1 hole2\n1 ok\n"
LATER = ["2 hole3\n2 ok\n2 hole1\n2 ok\n", "1 hole4\n1 ok\n"]


def test_the_game_goes_on_while_a_seat_display_is_unplugged_and_it_comes_back_right(box_factory, caplog):
    bus = FakeBus({0x3C: FakeOLED("ssd1306", seed=1), 0x3D: FakeOLED("ssd1306", seed=2)})
    made: dict[int, ResilientDisplay] = {}

    def make_display(spec: DisplaySpec) -> ResilientDisplay:
        made[spec.address] = ResilientDisplay(f"0x{spec.address:02X}", lambda: luma_device(spec, bus=bus),
                                              first_retry=0.02, max_retry=0.05)
        return made[spec.address]

    box = box_factory(seats=2, profile="gpio-2", make_display=make_display)
    frames = box.session.screens.worker.frames
    seat1, seat2 = bus.modules[0x3C], bus.modules[0x3D]
    box.play(FIRST)
    assert seat1.glass().tobytes() == frames["seat1"].tobytes()
    before = seat1.glass().tobytes()

    bus.unplug(0x3C, after=30)                      # seat 1's OLED goes mid-frame
    box.play(LATER[0])                              # seat 2 locks in: the reveal
    assert made[0x3C].fault                         # and so it stays, each retry failing with luma's words for it
    assert "0x3C display lost: [Errno 121] Remote I/O error" in caplog.text
    assert len(box.match.view(None)["state"]["history"]) == 1     # the turn was scored
    assert seat2.glass().tobytes() == frames["seat2"].tobytes()   # the other seat saw every frame
    assert seat1.glass().tobytes() != frames["seat1"].tobytes()   # seat 1's glass is stale or torn
    box.play(LATER[1])                              # seat 1 plays on, blind
    assert made[0x3C].fault

    bus.plug(0x3C)
    assert wait_for(lambda: made[0x3C].fault is None)
    assert seat1.glass().tobytes() == frames["seat1"].tobytes() != before

    same = box_factory(seats=2, profile="gpio-2")   # the same presses with nothing unplugged
    same.play(FIRST + "".join(LATER))
    assert box.match.view(None) == same.match.view(None)
    assert box.lamps(1) == same.lamps(1) and box.lamps(2) == same.lamps(2)
    assert seat1.glass().tobytes() == same.pixels("seat1")
