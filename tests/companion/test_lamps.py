"""The hole lamps as the pins drive them: steady levels at once, blinks in step, a press never kept waiting."""
from __future__ import annotations

import statistics
import threading
import time
from contextlib import contextmanager

import pytest

from companion.hardware.blinker import DIM_LEVEL, HALF_PERIODS_S
from companion.inputs import HOLD_S
from companion.lamps import Lamp
from tests.waiting import wait_for

FAST_S = HALF_PERIODS_S[Lamp.FAST]
BLINK_S = HALF_PERIODS_S[Lamp.BLINK]


def refused(box) -> None:
    """Seat 1's OK without a pick is refused: its five lamps flash fast."""
    box.play("1 ok\n1 ok", settle=False)
    box.clock.advance(0.1)
    box.session.pump()
    assert box.lamps(1) == ["fast"] * 5


class Marker:
    """A lamp of no seat, blinking on the box's blinker: counts the blinker thread's writes of it."""

    def __init__(self):
        self.toggles = 0

    @property
    def value(self) -> float:
        return 0.0

    @value.setter
    def value(self, level: float) -> None:
        self.toggles += threading.current_thread().name == "blinker"


def blinker_went_past(box, toggles: int = 3) -> None:
    """Wait until the box's blinker thread has toggled a marker lamp, set flashing now, ``toggles`` times.

    A lamp still blinking now is due again within a half-period (FAST_S at most, for seat 1's) and the marker's
    second toggle is two half-periods away; the thread toggles every lamp due in one pass, in the order they began
    blinking. So by the marker's second toggle, a lamp of seat 1 still blinking has been toggled, however slowly the
    machine runs: what has not changed by then was not going to."""
    marker = Marker()
    box.hw.blinker.show(marker, Lamp.FAST)
    try:
        assert wait_for(lambda: marker.toggles >= toggles), "the blinker thread never toggled the marker"
    finally:
        box.hw.blinker.show(marker, Lamp.OFF)


def test_a_refusal_flashes_the_seats_five_lamps_in_step_from_one_thread(box):
    pins = box.hw.lamp_pins(1)
    changes: list[tuple[int, float, str, float]] = []          # (lamp, level, thread, when), in the order made
    for lamp, pin in enumerate(pins):
        pin.on_change = lambda pin, lamp=lamp: changes.append(
            (lamp, pin.state, threading.current_thread().name, time.perf_counter()))
    try:
        refused(box)                                            # the flip, then flashes
        flashed = lambda: [change for change in changes if change[2] == "blinker"]   # noqa: E731
        assert wait_for(lambda: len(flashed()) >= 5 * 12)
    finally:
        for pin in pins:
            pin.on_change = None
    flashes = flashed()[:5 * 12]
    first = changes.index(flashes[0])
    assert all(thread == "blinker" for _, _, thread, _ in changes[first:])       # from then on, one thread alone
    names = [thread.name for thread in threading.enumerate()]
    assert names.count("blinker") == 1 and not any("blink_device" in name for name in names)
    rounds = [flashes[i:i + 5] for i in range(0, len(flashes), 5)]
    for n, one in enumerate(rounds):            # in step: each round changes every lamp once, all to one level...
        assert sorted(lamp for lamp, *_ in one) == list(range(5)) and len({level for _, level, *_ in one}) == 1, rounds
        assert one[0][1] == (0.0 if n % 2 == 0 else 1.0), rounds          # ... on, off, on: a flash starts lit
    # Bounds on time, for what the eye sees and the thread's order cannot say. Each is the property, not a race:
    # the lamps change together (a round's spread, in the middle of the rounds: a pass preempted now and then
    # widens one), and flash fast, not blink (a lamp's average half-period over 11 flashes, which a late toggle
    # shifts only at the ends: the blinker keeps its schedule). Both bounds are wide of what a working box does.
    spreads = [max(when for *_, when in one) - min(when for *_, when in one) for one in rounds]
    assert statistics.median(spreads) < FAST_S / 4, spreads
    times = [when for lamp, *_, when in flashes if lamp == 0]
    half = (times[-1] - times[0]) / (len(times) - 1)
    assert FAST_S / 2 < half < (FAST_S + BLINK_S) / 2, times


def test_a_press_on_flashing_lamps_sets_them_at_once_and_the_flashing_stops(box):
    pins = box.hw.lamp_pins(1)
    before = [len(pin.states) for pin in pins]
    refused(box)
    assert wait_for(lambda: all(len(pin.states) >= n + 3 for pin, n in zip(pins, before)))   # flashing
    box.hw.drive(1, "hole2", True)                 # the flip, on this thread, before the loop takes it
    assert [pin.state for pin in pins] == [1.0] * 5
    flipped = [pin.changed_at for pin in pins]
    blinker_went_past(box)                         # past the next flash and more: none came
    assert [pin.changed_at for pin in pins] == flipped


def test_steady_lamps_are_written_once_and_left_alone(box):
    pins = box.hw.lamp_pins(1)
    assert [pin.state for pin in pins] == [DIM_LEVEL] * 5
    written = [pin.changed_at for pin in pins]
    blinker_went_past(box)                         # the blinker thread at work: it writes no steady lamp
    assert [pin.changed_at for pin in pins] == written


@contextmanager
def loop_caught(box, owner, name: str, when=lambda *args: True):
    """The loop's next pass runs on a thread and is held inside ``owner.name`` (at the first call ``when`` accepts),
    as a busy core may leave it preempted there, until the block ends."""
    real, caught, go = getattr(owner, name), threading.Event(), threading.Event()

    def stalled(*args):
        if threading.current_thread() is loop and when(*args) and not caught.is_set():
            caught.set()
            go.wait()
        return real(*args)

    setattr(owner, name, stalled)
    loop = threading.Thread(target=box.session.pump)
    loop.start()
    try:
        assert caught.wait(10)
        yield
    finally:
        go.set()
        loop.join(10)


def flipped_at_once(box, seat: int, control: str) -> list[str]:
    """The seat's ``control`` pressed on a thread of its own: it does not wait, and the seat's lamps show its flip
    (returned)."""
    own = box.lamps(seat)
    press = threading.Thread(target=box.hw.drive, args=(seat, control, True))
    press.start()
    press.join(10)
    assert not press.is_alive(), "the press waited for the loop"
    flipped = ["off" if lamp == "on" else "on" for lamp in own]
    assert box.lamps(seat) == flipped
    return flipped


def test_a_press_does_not_wait_for_the_loop_writing_its_seats_lamps_nor_is_its_flip_written_over(box):
    """The loop is caught between deciding seat 1's lamps (a flash ending) and writing the first of them, as a
    busy core may leave it; a press of the seat flips them meanwhile, at once, and the loop's late write of what
    it had decided does not stay on the lamps: the press's flip does."""
    box.press(1, "hole2")
    box.clock.advance(1.0)                          # the flip's time is up: the loop's next pass ends it
    with loop_caught(box, box.hw.seats[0]._blinker, "show"):
        flipped = flipped_at_once(box, 1, "hole3")
    pins = box.hw.lamp_pins(1)
    assert [pin.state for pin in pins] == [1.0 if lamp == "on" else 0.0 for lamp in flipped]


def _ticking_seat2s_ok(box):
    """Seat 2 holds OK: the loop's next pass ticks its debouncer (the hold is due)."""
    box.hw.drive(2, "ok", True)
    box.session.pump()
    box.clock.advance(HOLD_S + 0.1)
    return box.session.inputs.controls[(2, "ok")], "tick"


def _deciding_seat2s_lamps(box):
    """Seat 2's flip is over: the loop's next pass decides its lamps again."""
    box.press(2, "hole2")
    box.clock.advance(1.0)
    return box.session.lamps, "_showing", lambda panel: panel.seat == 2


def _writing_a_seat2_lamp(box):
    """Seat 2's flip is over: the loop's next pass writes its first lamp's pin."""
    box.press(2, "hole2")
    box.clock.advance(1.0)
    return box.hw.lamp_pins(2)[0], "_set_state"


@pytest.mark.parametrize("catch", [_ticking_seat2s_ok, _deciding_seat2s_lamps, _writing_a_seat2_lamp],
                         ids=lambda catch: catch.__name__.strip("_"))
def test_a_press_never_waits_for_the_loop_at_work_on_another_seat(box, catch):
    """The loop is caught inside its work on seat 2, as a busy core may leave it preempted: ticking a debouncer,
    deciding the seat's lamps, writing one of them. A press of seat 1 meanwhile flips seat 1's lamps at once:
    nothing it needs is held for all the seats (docs/companion.md)."""
    with loop_caught(box, *catch(box)):
        flipped_at_once(box, 1, "hole3")
