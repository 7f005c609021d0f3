"""One thread that owns everything: gestures and calls queued from any thread, timers, and nothing else running.

:class:`Loop` turns button edges into gestures (:mod:`companion.inputs`) on the thread the edge
came on, lets the owner :meth:`Loop.answer` each there and then (the session flips a hole press's
lamps: a player sees it as soon as gpiozero calls back, with no wait for another thread), and queues it for
:meth:`Loop.gesture` on the loop. It runs the functions other threads :meth:`Loop.call`; fires its
timers; and after every pass lets the owner :meth:`Loop.settle` (bring lamps and displays in line).
It blocks until the next gesture, call or timer and never spins. ``pump`` runs one pass on the
caller's thread (scripts and tests, with a fake clock); ``run`` is the service's loop.
"""
from __future__ import annotations

import gc
import heapq
import itertools
import queue
import sys
import threading
from typing import Callable

from .inputs import Edge, Gesture, Inputs

SWITCH_INTERVAL_S = 0.0005
GC_THRESHOLDS = (5000, 10, 10)  # the cycle collector's: the youngest generation every 5000 allocations, not 700


class Loop:
    def __init__(self, inputs: Inputs, clock: Callable[[], float]):
        self.inputs, self.clock = inputs, clock
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self._timers: list[tuple[float, int, Callable[[float], None]]] = []
        self._seq = itertools.count()

    def post(self, edge: Edge) -> None:
        """Called from any thread: the edge debounced and its gestures answered here, then queued for the loop
        (an edge that makes none still wakes it: a hold or a settling bounce may now be due)."""
        if not self.accepts(edge):
            return
        gestures = self.inputs.edge(edge)
        for g in gestures:
            self.answer(g)
        self.queue.put(gestures)

    def call(self, action: Callable[[], object]) -> None:
        """Called from any thread: run ``action`` on the loop (host actions from the web page)."""
        self.queue.put(action)

    def after(self, at: float, action: Callable[[float], None]) -> None:
        """Run ``action(now)`` on the loop once the clock reaches ``at``."""
        heapq.heappush(self._timers, (at, next(self._seq), action))

    def answer(self, g: Gesture) -> None:
        """On the thread the gesture was made on, before the loop takes it: what must show at once."""

    def gesture(self, g: Gesture) -> None:
        raise NotImplementedError

    def settle(self) -> None:
        """After each pass: whatever the pass changed, shown."""

    def pump(self, now: float | None = None) -> None:
        """One pass on the caller's thread (scripts and tests, on a fake clock): every queued edge and call, every
        timer due by ``now``; then, while the owner had work on threads of its own to wait for (:meth:`waited`) or
        that work has queued what it said, another pass."""
        self._pass(now)
        while self.waited() or not self.queue.empty():
            self._pass(now)

    def waited(self) -> bool:
        """Wait for the owner's work on other threads (scripts and tests only); True if there was some."""
        return False

    def _pass(self, now: float | None = None) -> None:
        """Process every queued edge and call, and every timer due by ``now``."""
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                break
            self._take(item)
        now = self.clock() if now is None else now
        gestures = self.inputs.tick(now)
        for gesture in gestures:
            self.answer(gesture)
            self.gesture(gesture)
        while self._timers and self._timers[0][0] <= now:
            heapq.heappop(self._timers)[2](now)
        self.settle()

    def run(self, stop: threading.Event, heartbeat: Callable[[], None] | None = None) -> None:
        """The service loop: block until a gesture, a call or a timer, never spin.

        The GIL switch interval drops from 5 ms to 0.5 ms: a woken loop would
        otherwise wait up to 5 ms for a rendering thread to let go of the GIL.
        The cycle collector holds the GIL for all of a collection, whichever
        thread's allocation set it off, a press's own among them: its youngest
        generation waits for 5000 allocations (``GC_THRESHOLDS``; in ``make
        bench``, a collection every few hundred presses instead of every 20,
        and under half the collector's time in all), and no full collection
        goes over what start-up left again (``gc.freeze``).
        """
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        gc.set_threshold(*GC_THRESHOLDS)
        gc.collect()
        gc.freeze()
        while not stop.is_set():
            due = self.next_due()
            timeout = 0.5 if due is None else min(max(due - self.clock(), 0.0), 0.5)
            try:
                self._take(self.queue.get(timeout=timeout))
            except queue.Empty:
                pass
            self._pass()
            if heartbeat is not None:
                heartbeat()

    def next_due(self) -> float | None:
        held = self.inputs.due()
        times = [t for t in (held, self._timers[0][0] if self._timers else None) if t is not None]
        return min(times, default=None)

    def accepts(self, edge: Edge) -> bool:
        """Whether an edge plays: its seat is played where it came from (a panel, or a phone)."""
        return True

    def _take(self, item) -> None:
        if isinstance(item, list):
            for gesture in item:
                self.gesture(gesture)
        else:
            item()
