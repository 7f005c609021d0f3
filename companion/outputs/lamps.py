"""Each seat's lamps: a press answered at once, its seat's own lamps under the flashes, every write outside the lock.

A hole's press flips its seat's lamps on the thread its edge came on (:meth:`Lamps.flip`); an OK's flip
means "saved", so it flips on the loop once its decision is on disk; a refusal then flashes fast
(:mod:`companion.overlays`, the steps timed on the loop's timers). Under the flashes each seat shows
its own lamps as the scene has them. A seat's lamps are decided under its own lock, never one for
every seat, and written after it is let go, by whichever thread decided (docs/companion.md, "The
lamps' lock is held to decide, never to write").
"""
from __future__ import annotations

import threading
from typing import Callable

from .. import overlays
from ..inputs import Gesture
from ..feed import Feed


class Lamps:
    def __init__(self, seats: list, feed: Feed, *, after: Callable):
        """``seats``: the hardware's seats (panels and phones); ``after``: the loop's timers (a flash's steps end on
        them)."""
        self.seats, self.feed, self.after = seats, feed, after
        self._overlays = overlays.Overlays()
        self._locks = {seat.seat: threading.Lock() for seat in seats}
        self._flipped: dict[int, Gesture] = {}  # by seat, the gesture whose flip the seat's flash began with
        self._own: dict[int, tuple] = {}        # by seat, its own lamps as the last scene had them
        self._decided: dict[int, tuple[int, tuple]] = {}    # by seat, its lamps' latest decision: (its number, lamps)

    # ---- a press answered ----

    def flip(self, gesture: Gesture, now: float) -> None:
        """A press shown, on any thread: every lamp of its seat flips (an acknowledgement, or the start of a
        refusal); unless a later press of the seat has been answered already."""
        panel = self.seats[gesture.seat - 1]
        with self._locks[panel.seat]:
            if (latest := self._flipped.get(gesture.seat)) is not None and latest.time > gesture.time:
                return
            self._overlays.start(gesture.seat, overlays.acknowledged(self._showing(panel)), now)
            self._flipped[gesture.seat] = gesture
            decision = self._decide(panel)
        self._write(panel, decision)

    def refused(self, gesture: Gesture, now: float) -> None:
        """The table refused ``gesture``: its seat's lamps flash fast once its flip ends (unless a later press
        has flipped them since: that one's answer shows)."""
        panel = self.seats[gesture.seat - 1]
        with self._locks[panel.seat]:
            if self._flipped.get(gesture.seat) is gesture:
                self._overlays.then(gesture.seat, overlays.refused(len(panel.lamps)), now)

    def time_flash(self, seat: int) -> None:
        """On the loop: the seat's flash steps end on the loop's timers."""
        with self._locks[seat]:
            ends = self._overlays.ends(seat)
        for end in ends:
            self.after(end, lambda now: self._expire(seat, now))

    def _expire(self, seat: int, now: float) -> None:
        """A step of the seat's flash has ended: its lamps show the next step, or its own lamps again."""
        panel = self.seats[seat - 1]
        with self._locks[seat]:
            if not self._overlays.expire(seat, now):
                return
            decision = self._decide(panel)
        self._write(panel, decision)
        self._changed()

    # ---- the seats' own lamps ----

    def show(self, own: Callable[[int], tuple], held=()) -> None:
        """Each seat's own lamps as ``own(seat)`` has them (under any flash), but the ``held`` seats'."""
        for panel in self.seats:
            if panel.seat in held:
                continue
            lamps = own(panel.seat)                     # worked out before the lamps are held: a press may wait on them
            if self._own.get(panel.seat) == lamps:      # as shown (a flash shows over it, and ends on it)
                continue
            with self._locks[panel.seat]:
                self._own[panel.seat] = lamps
                decision = self._decide(panel)
            self._write(panel, decision)
        self._changed()

    def _showing(self, panel) -> tuple:
        """Under the seat's lock: what the seat's lamps show as decided now, its flash's step, else its own lamps."""
        return self._overlays.showing(panel.seat) or self._own.get(panel.seat, tuple(panel.lamps))

    def _decide(self, panel) -> tuple[int, tuple]:
        """Under the seat's lock: the seat's lamps decided again, numbered."""
        self._decided[panel.seat] = decision = (self._decided.get(panel.seat, (0,))[0] + 1, self._showing(panel))
        return decision

    def _write(self, panel, decision: tuple[int, tuple]) -> None:
        """A decision of the seat's lamps written, outside the lock: a press never waits for the loop to write a
        seat's lamps (on one busy core the loop, preempted while it wrote, waited milliseconds for the CPU
        again). Two threads' writes may cross, so whoever finds that a later decision was made while it
        wrote writes that one again, whole: its own writer may have finished first and been written over."""
        panel.set_lamps(decision[1])
        while True:
            with self._locks[panel.seat]:
                latest = self._decided[panel.seat]
            if latest[0] == decision[0]:
                return
            decision = latest
            panel.set_lamps(decision[1], again=True)

    def _changed(self) -> None:
        if self.feed.listeners:
            self.feed.send("lamps", self.lit())

    def lit(self) -> dict[str, list[str]]:
        """Each seat's lamps as they are lit now, in lists made for this call (a listener may keep them)."""
        return {f"seat{p.seat}": [lamp.value for lamp in p.lamps] for p in self.seats}
