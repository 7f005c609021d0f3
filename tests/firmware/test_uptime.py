"""Months of uptime: the IO board's main.py under MicroPython, its clock moved on by days (tests/firmware/pico.py).

The rp2's ``ticks_ms`` wraps at 2**30 ms and ``ticks_diff`` is right only for
intervals under 2**29 ms (6.2 days). These run the firmware past both, with the
host linked and with the host away, against the host's own IOBoardHardware.
"""
from __future__ import annotations

import time
from collections import Counter

from tests.firmware.pico import DAY_MS


def test_thirty_days_plugged_in(iobox):
    """Presses after 6.3, 7 and 12.5 days of uptime, on buttons untouched since power-up; the host away
    for 7 days from day 14; presses after it and at day 30. Every one delivered, the link never lost."""
    b = iobox()
    made = Counter()
    day = 0.0

    def until(days: float) -> None:
        nonlocal day
        b.pico.jump(int((days - day) * DAY_MS), with_host=b.hw is not None)
        day = days

    def tap(seat: int, control: str) -> None:
        b.pico.tap(seat, control)
        made[(seat, control)] += 1

    until(6.3)
    tap(1, "hole1")
    tap(2, "ok")
    b.delivered(made)
    until(7)
    tap(3, "hole3")
    tap(1, "hole1")
    b.delivered(made)
    until(12.5)
    tap(4, "hole4")
    tap(2, "ok")
    b.delivered(made)
    until(14)
    b.leave()
    until(21)
    b.come_back()
    time.sleep(1.5)                                 # longer than the host's silence time
    tap(5, "hole5")
    tap(1, "hole1")
    b.delivered(made)
    until(30.5)
    for seat in (6, 7, 8, 3):
        tap(seat, "hole2")
    b.delivered(made)
    assert b.losses() <= 1, b.faults                # the link held (a stall of a loaded machine aside)


def test_the_host_away_for_seven_days(iobox):
    """The board stays powered while the Pi is off for a week: on its return the link holds and presses work.

    A flapping link is the host calling the board silent again and again; one loss alone may be this
    machine stalling the board's process for a second under load, so it is let pass."""
    b = iobox()
    b.pico.tap(3, "hole2")
    b.delivered(Counter({(3, "hole2"): 1}))
    b.leave()
    b.pico.jump(7 * DAY_MS, with_host=False)
    b.come_back()
    time.sleep(3.5)                                 # the firmware before this lost the link every 1.2 s here
    assert b.losses() <= 1, b.faults
    b.pico.tap(3, "hole2")
    b.delivered(Counter({(3, "hole2"): 2}))
