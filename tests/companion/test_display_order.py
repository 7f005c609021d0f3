"""Whose screen the wire carries first: at a reveal the table's picks, then what they did everywhere; and no display
waits for ever.

Every display sits on one timed I2C wire (the seats behind the mux, the table on
the parent bus), so the order is read from the wire itself: when each display's
last byte of a frame went out.
"""
from __future__ import annotations

import threading
import time

from PIL import Image, ImageDraw

from companion import scene
from companion.displays import WAIT_S, DisplayWorker
from companion.hardware.fake.i2c import Wire, WiredDisplays
from companion.hardware.fake.oled import FakeOLED
from companion.hardware.gpio import luma_device
from companion.hardware.panel import PHONES
from companion.hardware.phone import add_phones
from companion.hardware.sim import open_sim
from tests.waiting import TIMEOUT_S, wait_for
from wiring.profile import DisplaySpec, load

FRAME = 128 * 64 // 8          # a whole frame's data bytes
TURN = "1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole2\n2 ok\n2 hole1\n2 ok\n3 hole4\n3 ok\n3 hole3\n"


class Table:
    """Every display of sim-8 on one wire, each transfer noted with the display it went to."""

    def __init__(self, hz: float):
        self.displays = WiredDisplays(load("sim-8"), hz)
        (self.wire,), self.make = self.displays.wires.values(), self.displays.make
        self.sent: list[tuple[str, float]] = []
        self.displays.watch(lambda name, t: self.sent.append((name, t.end)))

    def finished(self, since: float) -> list[str]:
        """The displays in the order their first frame after ``since`` was all on the wire (one worker
        sends one frame at a time, so a frame is a run of transfers to one display)."""
        done: dict[str, float] = {}
        runs = [(name, end) for name, end in self.sent if end > since and name is not None]
        for (name, end), after in zip(runs, runs[1:] + [(None, None)]):
            if after[0] != name:
                done.setdefault(name, end)
        return sorted(done, key=done.get)


def test_at_a_reveal_the_table_shows_the_picks_alone_then_every_display_what_they_did(box_factory):
    table = Table(hz=100_000)
    box = box_factory(seats=3, make_display=table.make)
    box.play(TURN)
    since = max(time.monotonic(), table.wire.free_at)
    box.play("3 ok", settle=False)                      # seat 3 locks in last: the reveal
    box.session.screens.worker.flush()
    assert table.finished(since) == ["table"]           # the picks, on the table display alone
    box.play(f"wait {int(scene.PICKS_S * 1000)}")       # then what they did, on every display
    order = table.finished(since)
    assert order[0] == "table" and set(order[1:]) == {"seat1", "seat2", "seat3"}
    assert box.match.view(None)["state"]["turn"] == 2


TWO_BUSES = """
backend = "sim"
pin_factory = "mock"
[[mux]]
parent = 1
buses = [11, 12]
[[mux]]
parent = 0
buses = [19, 20]
[table]
bus = 1
address = 0x3D
""" + "".join(f"""
[[seats]]
header = "panel{seat}"
holes = [4, 17, 27, 22, 5]
lamps = [6, 13, 19, 26, 12]
ok = 16
display = {{ bus = {bus}, address = 0x3C }}
""" for seat, bus in enumerate((11, 12, 19, 20), 1))


def test_a_reveal_on_one_i2c_controller_never_waits_for_the_other(box_factory, tmp_path):
    """The two controllers send side by side: with controller 0 (seats 3 and 4) held in its first transfer of
    the reveal, controller 1 still carries the table's and seats 1 and 2's whole new frames, whatever the
    machine's timing."""
    (path := tmp_path / "two-buses.toml").write_text(TWO_BUSES)
    wired = WiredDisplays(load(str(path)), 400_000, full_frames=True)     # every frame sent whole
    box = box_factory(seats=4, profile=str(path), make_display=wired.make)
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole2\n2 ok\n2 hole1\n2 ok\n3 hole4\n3 ok\n3 hole3\n3 ok\n"
             "4 hole2\n4 ok\n4 hole3\n")
    box.session.screens.worker.flush()
    sent: dict[str | None, int] = {}                    # display -> bytes on its wire since the reveal
    held, release = threading.Event(), threading.Event()

    def hold(transfer) -> None:
        held.set()
        release.wait(TIMEOUT_S)
    wired.watch(lambda name, t: sent.__setitem__(name, sent.get(name, 0) + t.size))
    wired.wires[0].watchers.append(hold)
    try:
        box.play("4 ok")                                # seat 4 locks in last: the reveal
        assert wait_for(lambda: held.is_set() and all(sent.get(name, 0) >= FRAME for name in ("table", "seat1", "seat2"))), \
            f"with controller 0 held, controller 1 sent only {sent}"
        assert sent.get("seat3", 0) + sent.get("seat4", 0) < FRAME
    finally:
        release.set()
    wired.wires[0].watchers.remove(hold)
    box.session.screens.worker.flush()
    assert box.match.view(None)["state"]["turn"] == 2


def test_each_display_goes_on_its_controllers_wire_and_the_phones_screens_on_their_own(tmp_path):
    (path := tmp_path / "two-buses.toml").write_text(TWO_BUSES)
    hw = open_sim(load(str(path)), time.monotonic)
    add_phones(hw, 1)
    try:
        assert hw.wires() == {"seat1": 1, "seat2": 1, "seat3": 0, "seat4": 0, "table": 1, "seat5": PHONES}
    finally:
        hw.close()


def card(text: str) -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).text((2, 2), text, fill=255)
    return image


def test_the_table_display_waits_a_bounded_time_behind_seats_that_keep_pressing():
    wire = Wire(hz=400_000)
    ends: dict[int, list[float]] = {}
    wire.watchers.append(lambda t: ends.setdefault(t.address, []).append(t.end))
    spec = DisplaySpec()
    devices = {name: luma_device(spec, bus=wire.bus({0x3C: FakeOLED()}, channel), full_frames=True)
               for channel, name in enumerate(["seat1", "seat2", "table"])}
    wire.watchers[:] = []
    finished: dict[str, list[float]] = {}
    worker = DisplayWorker(devices, max_fps=1000,
                           on_frame=lambda name, image: finished.setdefault(name, []).append(time.monotonic()))
    stop = threading.Event()

    def pressing() -> None:                             # two seats pressing without a pause
        n = 0
        while not stop.is_set():
            n += 1
            worker.submit_all([(f"seat{n % 2 + 1}", card, (f"press {n}",), True)])
            time.sleep(0.002)

    presser = threading.Thread(target=pressing)
    presser.start()
    assert wait_for(lambda: finished)                   # the seats' frames are going out
    asked = time.monotonic()
    worker.submit("table", card, "scores")
    time.sleep(0.5)
    stop.set()
    presser.join()
    worker.close()
    frame_s = wire.seconds(1025)                        # one full frame at 400 kHz: about 23 ms
    assert finished["table"][0] - asked < WAIT_S + 3 * frame_s
    assert len(finished["seat1"]) + len(finished["seat2"]) > 10      # the seats went on meanwhile


def test_a_rate_capped_frame_goes_as_soon_as_the_cap_allows():
    wire = Wire(hz=None)
    device = luma_device(DisplaySpec(), bus=wire.bus({0x3C: FakeOLED()}))
    sent: list[float] = []
    worker = DisplayWorker({"table": device}, max_fps=5,                       # 200 ms between frames
                           on_frame=lambda name, image: sent.append(time.monotonic()))
    try:
        worker.submit("table", card, "one")
        worker.flush()
        time.sleep(0.15)
        worker.submit("table", card, "two")             # capped for another 50 ms
        worker.flush()
        assert 0.19 <= sent[1] - sent[0] < 0.3          # not a whole interval after it was asked for
    finally:
        worker.close()


def test_choosing_the_whack_hole_sends_only_the_glyph_that_changed(box_factory):
    wired = WiredDisplays(load("sim-8"), None)
    box = box_factory(seats=2, make_display=wired.make)
    box.play("1 ok")                                    # no pop-ups: seat 1 now picks the hole of seat 2 to hit
    box.session.screens.worker.flush()
    sent = []
    wired.watch(lambda name, t: sent.append(1 + t.size) if name == "seat1" else None)
    box.play("1 hole3")                                 # 'Hit S2: ?' becomes 'Hit S2: 3'
    box.session.screens.worker.flush()
    assert 0 < sum(sent) < 80                           # one big glyph (2 pages x 12 columns) and its window


def test_a_reveal_keeps_its_order_when_every_frame_has_waited_long():
    """A busy machine (a Pi drawing eight panels) paints slowly: by the time the pressing seat's frame is sent,
    the table's and the other seats' have all waited past WAIT_S. They still go table first, then the seats."""
    from luma.core.device import dummy

    names = ["seat1", "seat2", "table", "seat3"]
    devices = {name: dummy(width=128, height=64, mode="1") for name in names}
    sent: list[str] = []

    def slow_paint(render, args):
        time.sleep(2 * WAIT_S)                      # a render slower than the wait that lets a frame jump the queue
        return render(*args)

    def frame(name):
        image = Image.new("1", (128, 64))
        ImageDraw.Draw(image).text((0, 0), name, fill=1)
        return image

    worker = DisplayWorker(devices, paint=slow_paint, on_frame=lambda name, image: sent.append(name))
    try:
        worker.submit_all([(name, frame, (name,), name == "seat3") for name in names])
        assert wait_for(lambda: len(sent) == 4), sent
        assert sent[:2] == ["seat3", "table"] and set(sent[2:]) == {"seat1", "seat2"}, sent
    finally:
        worker.close()
