"""Play paused for a fault, and brought back: the journal tried again every few seconds, the hardware as it says.

While the journal refuses writes (a full, read-only or failing card) or the hardware is at fault
(an IO board unplugged), the table refuses every press and every screen says why
(:attr:`~companion.table.Table.paused`). Here the box notices such a fault, sounds it and flashes
the status LED, and tries the journal again every :data:`RETRY_S` until it takes writes: play then
goes on from the last commit point (with the journal's game restored, if the journal has only now
opened).
"""
from __future__ import annotations

import logging
from typing import Callable

from .table import Table

log = logging.getLogger("molebox.session")

RETRY_S = 2.0           # while the journal refuses writes, it is tried again this often


class Pause:
    def __init__(self, table: Table, signals, after: Callable, clock: Callable[[], float],
                 changed: Callable[[bool], None]):
        """``after``: the loop's timers; ``changed(resumed)``: the screens have something new to say (and, when
        ``resumed``, play goes on)."""
        self.table, self.signals, self.after, self.clock, self.changed = table, signals, after, clock, changed
        self._retrying = False

    def check(self) -> None:
        """After the table acted: a journal that stopped taking writes (or never opened) pauses play, forgets in
        memory what it did not take, and is tried again every few seconds."""
        keeper = self.table.keeper
        if keeper.fault is None:
            return
        self.table.forget_unsaved()
        if not self._retrying:
            self._retrying = True
            log.error("the journal cannot be written, play is paused: %s", keeper.fault)
            self.signals.health(self.table.paused)
            self.signals.beep("fault")
            self.after(self.clock() + RETRY_S, self._retry)

    def _retry(self, now: float) -> None:
        keeper = self.table.keeper
        opened = keeper.journal.records is None
        if not keeper.retry():
            self.after(now + RETRY_S, self._retry)
            self.changed(False)                 # the screens say what is wrong now
            return
        self._retrying = False
        self.table.notices.clear()              # "paused: ..." is over
        self.signals.health(self.table.paused)
        if opened:                              # the journal opened at last: what did it hold?
            self.table.open()
        self.changed(True)

    def hardware(self, fault: str | None) -> None:
        """The hardware's fault changed (an IO board unplugged or back): pause or resume, and show it."""
        log.info("hardware: %s", fault or "back")
        self.table.hardware_fault = fault
        self.signals.health(self.table.paused)
        if fault:
            self.signals.beep("fault")
        self.changed(fault is None)
