"""Sending only what changed leaves on the glass exactly what luma's full frames leave, for fewer bytes."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, strategies as st
from PIL import Image, ImageDraw

from companion.hardware.fake.i2c import Wire
from companion.hardware.fake.oled import FakeOLED
from companion.hardware.gpio import luma_device
from wiring.profile import DisplaySpec

# A frame is drawn over the one before (as screens change: a digit, a line, a caret) or afresh.
box = st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(0, 127), st.integers(0, 63))
change = st.one_of(
    st.tuples(st.just("rect"), box, st.sampled_from([0, 255])),
    st.tuples(st.just("pixel"), st.tuples(st.integers(0, 127), st.integers(0, 63)), st.sampled_from([0, 255])),
    st.tuples(st.just("noise"), st.integers(0, 2**32 - 1), st.just(0)),
)
frames = st.lists(st.lists(change, min_size=1, max_size=4), min_size=1, max_size=8)


def draw(image: Image.Image, changes) -> Image.Image:
    image = image.copy()
    pen = ImageDraw.Draw(image)
    for kind, where, fill in changes:
        if kind == "rect":
            x0, y0, x1, y1 = where
            pen.rectangle((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), fill=fill)
        elif kind == "pixel":
            pen.point(where, fill=fill)
        else:
            image = Image.frombytes("1", image.size, random.Random(where).randbytes(1024))
    return image


def pair(driver: str, rotate: int = 0):
    """luma's full-frame device and ours, each on its own module of one untimed bus."""
    wire = Wire(hz=None)
    bus = wire.bus({0x3C: FakeOLED(driver, seed=1), 0x3D: FakeOLED(driver, seed=2)})
    full = luma_device(DisplaySpec(driver=driver, address=0x3C, rotate=rotate), bus=bus, full_frames=True)
    ours = luma_device(DisplaySpec(driver=driver, address=0x3D, rotate=rotate), bus=bus)
    return bus, full, ours


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@given(sequence=frames, rotate=st.sampled_from([0, 2]))
def test_after_any_frames_partial_sends_leave_the_pixels_full_frames_leave(driver, sequence, rotate):
    bus, full, ours = pair(driver, rotate)
    image = Image.new("1", (128, 64), 0)
    for changes in sequence:
        image = draw(image, changes)
        full.display(image)
        ours.display(image)
        assert bus.modules[0x3D].glass().tobytes() == bus.modules[0x3C].glass().tobytes()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_a_changed_digit_costs_a_few_dozen_bytes_not_a_frame(driver):
    bus, full, ours = pair(driver)
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).text((4, 4), "score 12", fill=255)
    full.display(image), ours.display(image)
    after = image.copy()
    ImageDraw.Draw(after).rectangle((40, 4, 52, 12), fill=0)
    ImageDraw.Draw(after).text((40, 4), "13", fill=255)
    sent = []
    for device in (full, ours):
        before = bus.wire.bytes
        device.display(after)
        sent.append(bus.wire.bytes - before)
    assert sent[0] > 1024 and sent[1] < 60
    assert bus.modules[0x3D].glass().tobytes() == after.tobytes()


def test_a_new_device_sends_its_first_frame_whole_over_ram_full_of_noise():
    wire = Wire(hz=None)
    bus = wire.bus({0x3C: FakeOLED("sh1106", seed=3)})
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).text((4, 4), "back", fill=255)
    luma_device(DisplaySpec(driver="sh1106"), bus=bus).display(image)
    bus.unplug(0x3C)
    bus.plug(0x3C)                                   # fresh power: noise in RAM
    before = wire.bytes
    luma_device(DisplaySpec(driver="sh1106"), bus=bus).display(image)    # as ResilientDisplay re-creates it
    assert wire.bytes - before > 1024
    assert bus.modules[0x3C].glass().tobytes() == image.tobytes()
