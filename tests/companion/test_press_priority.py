"""A real box's presses come on threads that run before the box's other work (companion/hardware/priority.py);
nothing else gets that priority from them: not the simulator's driving thread (the web panel's, on `make run`),
not a thread or a process they start. Where the system refuses it, the log says so once and presses go on."""
from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.hardware import priority
from companion.hardware.panel import PinHardware
from companion.hardware.sim import SimDisplay, open_sim
from companion.lamps import Lamp
from wiring.profile import load

REFUSED = priority.refused()
needs_realtime = pytest.mark.skipif(REFUSED is not None, reason=f"this machine refuses real-time priority: {REFUSED}")


def policy(tid: int = 0) -> int:
    return os.sched_getscheduler(tid) & ~os.SCHED_RESET_ON_FORK


def on_a_thread(action):
    """Run ``action`` on a fresh thread (as a pin factory's or a web server's) and answer what it returned."""
    out = []
    thread = threading.Thread(target=lambda: out.append(action()))
    thread.start()
    thread.join()
    return out[0]


@pytest.fixture
def gpio_box():
    """Panels as the gpio backend builds them (a real box's), on mock pins."""
    factory = MockFactory(pin_class=MockPWMPin)
    hw = PinHardware(load("gpio-2"), lambda header: factory, SimDisplay, time.monotonic,
                     press_priority=True)
    edges = []
    hw.connect(edges.append)
    yield hw, edges
    hw.close()
    factory.reset()


def press(hw, seat: int = 1, control: str = "hole1") -> None:
    pin = hw.seats[seat - 1].buttons[control].pin
    pin.drive_low()
    pin.drive_high()


@needs_realtime
def test_a_real_boxs_press_comes_on_a_thread_at_real_time_priority(gpio_box):
    hw, edges = gpio_box

    def pressed():
        before = policy()
        press(hw)
        return before, policy(), os.sched_getparam(0).sched_priority

    assert on_a_thread(pressed) == (os.SCHED_OTHER, os.SCHED_FIFO, priority.PRESS_PRIORITY)
    assert [e.pressed for e in edges] == [True, False]


def test_the_simulators_panels_leave_the_thread_that_drives_them_as_it_was():
    hw = open_sim(load("sim-8"), time.monotonic)
    try:
        assert on_a_thread(lambda: (hw.drive(1, "hole1", True), policy())[1]) == os.SCHED_OTHER
    finally:
        hw.close()


@needs_realtime
def test_a_thread_or_a_process_a_press_thread_starts_is_ordinary(gpio_box):
    hw, _ = gpio_box

    def started():
        press(hw)
        hw.seats[0].set_lamps([Lamp.BLINK] + [Lamp.OFF] * 4)       # the blinker's thread starts here
        child = subprocess.run([sys.executable, "-c", "import os; print(os.sched_getscheduler(0))"],
                               capture_output=True, text=True, check=True)
        return policy(), int(child.stdout) & ~os.SCHED_RESET_ON_FORK

    assert on_a_thread(started) == (os.SCHED_FIFO, os.SCHED_OTHER)
    blinker = next(t for t in threading.enumerate() if t.name == "blinker")
    assert policy(blinker.native_id) == os.SCHED_OTHER


def test_where_real_time_is_refused_the_log_says_so_once_and_the_presses_go_on(gpio_box, monkeypatch, caplog):
    hw, edges = gpio_box

    def refuse(*args):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "sched_setscheduler", refuse)
    monkeypatch.setattr(priority, "_refused", [])
    with caplog.at_level(logging.WARNING, logger="molebox.priority"):
        on_a_thread(lambda: press(hw))
        on_a_thread(lambda: press(hw, 2, "ok"))
    assert [(e.seat, e.pressed) for e in edges] == [(1, True), (1, False), (2, True), (2, False)]
    assert [r.getMessage() for r in caplog.records] == [
        "presses run at ordinary priority: real-time priority 1 refused (Operation not permitted); "
        "the service's unit allows it with LimitRTPRIO=1"]
    assert priority.describe().startswith("ordinary priority: real-time priority 1 refused")
