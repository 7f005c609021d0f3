"""The timed fake I2C bus: luma's real driver pays the wire time a real bus would, one transfer at a time."""
from __future__ import annotations

import threading
import time

import pytest
from PIL import Image

from companion.hardware.fake.i2c import MUX_ADDRESS, Wire
from companion.hardware.fake.oled import FakeOLED
from companion.hardware.gpio import luma_device
from wiring.profile import DisplaySpec

FRAME = Image.new("1", (128, 64), 255)


def test_a_full_luma_frame_takes_its_bits_on_the_wire_at_400_khz():
    wire = Wire(hz=400_000)
    bus = wire.bus({0x3C: FakeOLED()})
    device = luma_device(DisplaySpec(), bus=bus)
    seen = []
    wire.watchers.append(seen.append)
    start = time.monotonic()
    device.display(FRAME)
    took = time.monotonic() - start
    # one command (0x00 + 6 bytes) and the data (0x40 + 1024 bytes): each a start, address, bytes, stop
    assert [t.size for t in seen] == [7, 1025]
    wire_time = sum(t.end - t.start for t in seen)
    assert wire_time == pytest.approx((2 + 9 * 8 + 2 + 9 * 1026) / 400_000)     # 23.3 ms
    assert all(a.end <= b.start for a, b in zip(seen, seen[1:]))
    assert took >= seen[-1].end - seen[0].start - 0.001            # the driver's thread waited it out
    assert bus.modules[0x3C].glass().tobytes() == FRAME.tobytes()


def test_a_mux_channel_switch_is_one_write_on_the_shared_wire_and_transfers_never_overlap():
    wire = Wire(hz=100_000)
    buses = {channel: wire.bus({0x3C: FakeOLED()}, channel=channel) for channel in (0, 1)}
    seen = []
    wire.watchers.append(seen.append)
    threads = [threading.Thread(target=lambda c=c: [buses[c].write_i2c_block_data(0x3C, 0x40, [0] * 16)
                                                    for _ in range(5)]) for c in buses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    data = [t for t in seen if t.address == 0x3C]
    switches = [t for t in seen if t.address == MUX_ADDRESS]
    assert len(data) == 10 and all(t.size == 1 for t in switches)
    changes = sum(1 for a, b in zip(data, data[1:]) if a.channel != b.channel) + 1
    assert len(switches) == changes                       # a switch before each run on the other channel
    assert all(a.end <= b.start + 1e-9 for a, b in zip(seen, seen[1:]))      # one at a time
