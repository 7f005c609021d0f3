"""Play paused for a fault, and brought back: the journal tried again every few seconds, a card that stops
answering waited for, the hardware as it says.

While the journal refuses writes (a full, read-only or failing card), the card has not taken a commit point
for :data:`STALL_S`, or the hardware is at fault (an IO board unplugged), the table refuses every press and
every screen says why (:attr:`companion.table.state.TableState.paused`): the session tells the table what
:meth:`Pause.faults` says before every move. Here the box notices such a fault, sounds it and flashes the
status LED, and tries a refusing journal again every :data:`RETRY_S` (on the journal's own thread) until it
takes writes: play then goes on from the last commit point (with the journal's game restored, if the
journal has only now opened). A card that stalls is waited for: play goes on once its commit point lands.

A fault's few words are data where they are made (the hardware's, the journal's): :meth:`Pause.faults` says
them in the box's language, as every screen, refusal and page shows them; its words in full are the host's
and the log's, in English.
"""
from __future__ import annotations

import logging
from typing import Callable

from .journal import short as fault_words
from .journal.keeper import Keeper
from .words import N_, say

log = logging.getLogger("molebox.session")

RETRY_S = 2.0           # while the journal refuses writes, it is tried again this often
STALL_S = 3.0           # a commit point the card has not taken in this long is a fault: play pauses until it is
SAVING_S = 0.3          # a decision not on disk after this long says so on its seat's screen (docs/persistence.md)
WATCH_S = SAVING_S      # while a commit point is on its way, how often the box looks whether the card is slow
NOT_ANSWERING = N_("storage not answering")


class Pause:
    def __init__(self, keeper: Keeper, signals, *, after: Callable, call: Callable, clock: Callable[[], float],
                 changed: Callable[[bool], None], forget: Callable[[], None], opened: Callable[[], None]):
        """``after`` and ``call``: the loop's timers and its queue; ``changed(resumed)``: the faults or the slow saves
        changed (and, when ``resumed``, play goes on); ``forget()``: the journal stopped taking writes, what it did
        not take is forgotten; ``opened()``: the journal has opened at last, its game is to be read."""
        self.keeper, self.signals, self.after, self.call, self.clock = keeper, signals, after, call, clock
        self.changed, self.forget, self.opened = changed, forget, opened
        self.hardware_fault: str | None = None
        self._retrying = self._watching = self._stalled = False
        self._slow: frozenset[int] = frozenset()       # the seats whose screens say their decision is saving

    def faults(self) -> tuple[str | None, str | None, str | None]:
        """What pauses play now: the journal's fault in a few words and in full, and the hardware's (None: none);
        the few words said."""
        keeper, hardware = self.keeper, self.hardware_fault and say(self.hardware_fault)
        if keeper.fault is not None:
            return say(fault_words(keeper.fault)), f"{keeper.fault}; the box tries again by itself", hardware
        if self._stalling():
            return (say(NOT_ANSWERING), f"the journal's card has not taken a commit point for over {STALL_S:.0f} s "
                                        f"(an SD card that stalls, or is failing): play goes on by itself once it does",
                    hardware)
        return None, None, hardware

    def _stalling(self) -> bool:
        """Whether the card has held a commit point too long (and takes writes: else that is the fault)."""
        return self.keeper.fault is None and self.keeper.stalled_s > STALL_S

    @property
    def paused(self) -> str | None:
        storage, _, hardware = self.faults()
        return storage or hardware

    def slow(self) -> frozenset[int]:
        """The seats whose decision has been on its way to the disk longer than SAVING_S: their screens say so."""
        return frozenset(g.seat for g, _ in self.keeper.waiting(SAVING_S))

    def check(self) -> None:
        """After the table acted: a journal that stopped taking writes (or never opened) pauses play, forgets in
        memory what it did not take, and is tried again every few seconds; a commit point on its way is watched."""
        keeper = self.keeper
        self._stall()
        if keeper.on_the_way and not self._watching:
            self._watching = True
            self.after(self.clock() + WATCH_S, self._watch)
        if keeper.fault is None:
            return
        self.forget()
        if not self._retrying:
            self._retrying = True
            log.error("the journal cannot be written, play is paused: %s", keeper.fault)
            self._signal()
            self.after(self.clock() + RETRY_S, self._retry)

    def _signal(self) -> None:
        self.signals.health(self.paused)
        if self.paused:
            self.signals.beep("fault")

    # ---- a card that takes its time ----

    def _watch(self, now: float) -> None:
        """A commit point is on its way: is it slow (its seat's screen says so), or has the card stalled?"""
        self._watching = False
        if (slow := self.slow()) != self._slow:
            self._slow = slow
            self.changed(False)
        self.check()

    def _stall(self) -> None:
        """A commit point the card has held for STALL_S pauses play until it lands."""
        stalled = self._stalling()
        if stalled == self._stalled:
            return
        self._stalled = stalled
        if stalled:
            log.error("the journal's card has not taken a commit point for %.1f s: play is paused",
                      self.keeper.stalled_s)
        else:
            log.warning("the journal's card answers again")
        self._signal()
        self.changed(not stalled)

    # ---- a card that refuses ----

    def _retry(self, now: float) -> None:
        opened = self.keeper.journal.records is None
        self.keeper.retry(lambda ok: self.call(lambda: self._retried(ok, opened)))

    def _retried(self, ok: bool, opened: bool) -> None:
        if not ok:
            self.after(self.clock() + RETRY_S, self._retry)
            self.changed(False)                 # the screens say what is wrong now
            return
        self._retrying = False
        self.signals.health(self.paused)
        self.changed(True)
        if opened:                              # the journal opened at last: what did it hold?
            self.opened()

    # ---- the hardware ----

    def hardware(self, fault: str | None) -> None:
        """The hardware's fault changed (an IO board unplugged or back): pause or resume, and show it."""
        log.info("hardware: %s", fault or "back")
        self.hardware_fault = fault
        self._signal()
        self.changed(fault is None)
