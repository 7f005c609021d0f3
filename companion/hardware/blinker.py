"""How gpiozero PWMLEDs show each lamp state: a steady one at once, every blinking one from one thread.

gpiozero's ``LED.blink`` starts a thread for each lamp and, when the lamp is set again, stops that thread
and waits for it to end. A press that turned a blinking lamp steady therefore waited for another thread
to be scheduled, holding the seat's lamps meanwhile; on the slow machine of docs/benchmarks-history.md that wait
was most of the press-to-lamp p99. Here setting a lamp is one write, whatever it showed before: a blink
starts lit, and one :class:`Blinker` thread per box toggles the lamps that blink, at their half-periods.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from companion.lamps import Lamp

DIM_LEVEL = 0.12
LEVELS = {Lamp.OFF: 0.0, Lamp.ON: 1.0, Lamp.DIM: DIM_LEVEL}
HALF_PERIODS_S = {Lamp.BLINK: 0.4, Lamp.FAST: 0.08}
TOGETHER_S = 0.002      # blinks due this close are toggled in one pass: a seat's lamps set together stay together


@dataclass(slots=True)
class _Blink:
    """One blinking lamp: its half-period, when it toggles next, and whether it is lit now."""

    half_s: float
    toggle_at: float
    lit: bool = True


class Blinker:
    """Every lamp of a box, blinking ones toggled by a thread of its own (started at the first blink).

    Each lamp is written under a lock of its own, so a write waits only for another write of that same lamp:
    on one busy core, a loop preempted while it wrote one seat's lamp kept a press on any other waiting for
    it (milliseconds, docs/companion.md). The schedule (which lamps blink, when the thread looks next) has a
    lock of its own too, never held while a lamp is written."""

    def __init__(self):
        self._cond = threading.Condition()           # the schedule
        self._blinking: dict[object, _Blink] = {}   # by led
        self._writing: dict[object, threading.Lock] = {}    # by led: its writes one at a time, in order
        self._wakes_at: float | None = None          # when the thread looks next (None: once told)
        self._thread: threading.Thread | None = None
        self._closed = False

    def show(self, led, state: Lamp) -> None:
        """Drive ``led`` to ``state`` now, on the caller's thread."""
        half = HALF_PERIODS_S.get(state)
        with self._lock(led):
            led.value = LEVELS[state] if half is None else 1.0
            with self._cond:
                if half is None:
                    self._blinking.pop(led, None)
                    return
                toggle_at = time.monotonic() + half
                self._blinking[led] = _Blink(half, toggle_at)
                if self._thread is None:
                    self._thread = threading.Thread(target=self._run, name="blinker", daemon=True)
                    self._thread.start()
                elif self._wakes_at is None or toggle_at < self._wakes_at:
                    self._cond.notify()

    def close(self) -> None:
        """Stop the thread; the lamps keep what they show."""
        with self._cond:
            self._closed = True
            self._blinking.clear()
            self._cond.notify()
        if self._thread is not None:
            self._thread.join()

    def _lock(self, led) -> threading.Lock:
        return self._writing.get(led) or self._writing.setdefault(led, threading.Lock())

    def _run(self) -> None:
        due: list[tuple[object, _Blink]] = []
        while True:
            for led, blink in due:                  # toggled outside the schedule's lock
                with self._lock(led):
                    if self._blinking.get(led) is blink:    # else set again since, by a show that wrote it
                        blink.lit = not blink.lit
                        led.value = 1.0 if blink.lit else 0.0
            with self._cond:
                if self._closed:
                    return
                now = time.monotonic()
                due = [(led, blink) for led, blink in self._blinking.items() if blink.toggle_at <= now + TOGETHER_S]
                for _, blink in due:
                    later = blink.toggle_at + blink.half_s
                    blink.toggle_at = later if later > now else now + blink.half_s
                self._wakes_at = min((blink.toggle_at for blink in self._blinking.values()), default=None)
                if not due:
                    self._cond.wait(None if self._wakes_at is None else self._wakes_at - now)
