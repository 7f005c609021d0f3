"""Play paused for a fault, and brought back: the journal tried again every few seconds, a card that stops
answering waited for, the hardware as it says.

While the journal refuses writes (a full, read-only or failing card), the card has not taken a commit point
for :data:`~companion.table.STALL_S`, or the hardware is at fault (an IO board unplugged), the table refuses
every press and every screen says why (:attr:`~companion.table.Table.paused`). Here the box notices such a
fault, sounds it and flashes the status LED, and tries a refusing journal again every :data:`RETRY_S` (on
the journal's own thread) until it takes writes: play then goes on from the last commit point (with the
journal's game restored, if the journal has only now opened). A card that stalls is waited for: play goes
on once its commit point lands.
"""
from __future__ import annotations

import logging
from typing import Callable

from .table import SAVING_S, Table

log = logging.getLogger("molebox.session")

RETRY_S = 2.0           # while the journal refuses writes, it is tried again this often
WATCH_S = SAVING_S      # while a commit point is on its way, how often the box looks whether the card is slow


class Pause:
    def __init__(self, table: Table, signals, *, after: Callable, call: Callable, clock: Callable[[], float],
                 changed: Callable[[bool], None]):
        """``after`` and ``call``: the loop's timers and its queue; ``changed(resumed)``: the screens have something
        new to say (and, when ``resumed``, play goes on)."""
        self.table, self.signals, self.after, self.call, self.clock = table, signals, after, call, clock
        self.changed = changed
        self._retrying = self._watching = self._stalled = False
        self._slow: frozenset[int] = frozenset()       # the seats whose screens say their decision is saving

    def check(self) -> None:
        """After the table acted: a journal that stopped taking writes (or never opened) pauses play, forgets in
        memory what it did not take, and is tried again every few seconds; a commit point on its way is watched."""
        keeper = self.table.keeper
        self._stall()
        if keeper.on_the_way and not self._watching:
            self._watching = True
            self.after(self.clock() + WATCH_S, self._watch)
        if keeper.fault is None:
            return
        self.table.forget_unsaved()
        if not self._retrying:
            self._retrying = True
            log.error("the journal cannot be written, play is paused: %s", keeper.fault)
            self._signal()
            self.after(self.clock() + RETRY_S, self._retry)

    def _signal(self) -> None:
        self.signals.health(self.table.paused)
        if self.table.paused:
            self.signals.beep("fault")

    # ---- a card that takes its time ----

    def _watch(self, now: float) -> None:
        """A commit point is on its way: is it slow (its seat's screen says so), or has the card stalled?"""
        self._watching = False
        if (slow := self.table.slow_saves()) != self._slow:
            self._slow = slow
            self.changed(False)
        self.check()

    def _stall(self) -> None:
        """A commit point the card has held for STALL_S pauses play until it lands."""
        stalled = self.table.storage_fault == "storage not answering"
        if stalled == self._stalled:
            return
        self._stalled = stalled
        if stalled:
            log.error("the journal's card has not taken a commit point for %.1f s: play is paused",
                      self.table.keeper.stalled_s)
        else:
            log.warning("the journal's card answers again")
        self._signal()
        self.changed(not stalled)

    # ---- a card that refuses ----

    def _retry(self, now: float) -> None:
        keeper = self.table.keeper
        opened = keeper.journal.records is None
        keeper.retry(lambda ok: self.call(lambda: self._retried(ok, opened)))

    def _retried(self, ok: bool, opened: bool) -> None:
        if not ok:
            self.after(self.clock() + RETRY_S, self._retry)
            self.changed(False)                 # the screens say what is wrong now
            return
        self._retrying = False
        self.table.notices.clear()              # "paused: ..." is over
        self.signals.health(self.table.paused)
        if opened:                              # the journal opened at last: what did it hold?
            self.table.open()
        self.changed(True)

    # ---- the hardware ----

    def hardware(self, fault: str | None) -> None:
        """The hardware's fault changed (an IO board unplugged or back): pause or resume, and show it."""
        log.info("hardware: %s", fault or "back")
        self.table.hardware_fault = fault
        self._signal()
        self.changed(fault is None)
