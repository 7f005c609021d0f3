"""The journal: every game on disk, before anyone sees it answered. Its layers, one word each:

- :mod:`~companion.journal.card`: the file and the card under it: whether it is a molebox journal,
  who writes it, what a refusal means (:class:`~companion.journal.card.CardFault`: full,
  read-only, failing, unreachable);
- :mod:`~companion.journal.wal`: the ``-wal`` and its index read before SQLite opens them: what a
  damaged or lost one cost;
- :mod:`~companion.journal.records`: the SQLite rows of games, decisions and names
  (:class:`~companion.journal.records.Records` writes them, :class:`~companion.journal.records.Reader`
  reads them), with secret picks sealed by :mod:`~companion.journal.seal`;
- :class:`Journal` (here): the records as the box holds them open, and the card's fault while it
  refuses;
- :mod:`~companion.journal.keeper`: the match in play and the journal kept in step.

Opening the journal at start, and any write after, may meet a card that
refuses (full, read-only, failing) or a path that holds something else. Neither
stops the box: the fault is kept here, in words for the host and in a few for
the screens; play pauses, and :meth:`Journal.retry` (on a timer, :mod:`companion.pause`)
opens or probes the journal again until it takes writes, when play goes on
from the last commit point. Only another molebox holding the journal
(:class:`~companion.journal.card.JournalBusy`) is refused outright: that box is the
one playing.
"""
from __future__ import annotations

import logging
import time
from collections import deque
from contextlib import suppress
from pathlib import Path
from typing import Callable, TypeVar

from ..words import N_
from .card import CardFault, JournalBusy, JournalError, NotAJournal
from .records import Reader, Records
from .writer import Ticket, Writer

log = logging.getLogger("molebox.journal")
T = TypeVar("T")
COMMITS_KEPT = 4096


def short(fault: JournalError) -> str:
    """The fault in the few words a 128-pixel screen has room for."""
    if isinstance(fault, CardFault):
        return fault.short
    if isinstance(fault, NotAJournal):
        return N_("not a journal")
    if isinstance(fault, JournalBusy):
        return N_("journal in use")
    return N_("journal unusable")


class Journal:
    """The records held open, written on a thread of their own (:class:`~companion.journal.writer.Writer`), and
    the card's fault while it refuses. Without a card that answers, a decision's commit point may take its
    time: ``stall`` (tests and the bench's slow card) runs before each one, on the writer's thread."""

    def __init__(self, path: Path | str, now: Callable[[], float] = time.time):
        self.path = Path(path)
        self.now = now
        self.records: Records | None = None
        self.fault: JournalError | None = None
        self.stall: Callable[[], None] | None = None
        self.commit_s: deque[float] = deque(maxlen=COMMITS_KEPT)     # the last commit points' times, in seconds
        self._open(at_start=True)
        self._writer = Writer(self._append_all)

    def _open(self, at_start: bool = False) -> None:
        try:
            self.records = Records(self.path, self.now)
        except JournalBusy:
            if at_start:
                raise
            self.fault = JournalBusy(f"another molebox took {self.path} while this one waited for it")
        except JournalError as exc:
            self.fault = exc
        else:
            self.fault = None

    # ---- decisions: on their way, then on disk ----

    def append(self, game_id: int, rows: list, summary: dict | None) -> Ticket:
        """Queue a commit point of ``rows`` (and the game's result, if it ended); the ticket says when it is on disk.
        While the journal has a fault, every append is refused: the ones before it may not be there."""
        return self._writer.append((game_id, rows, summary))

    def _append_all(self, batch: list) -> None:
        if self.fault is not None:
            raise self.fault
        if self.records is None:
            raise JournalError(f"{self.path} is not open")
        start = time.perf_counter()
        if self.stall is not None:
            self.stall()
        try:
            self.records.append_all(batch)
        except CardFault as exc:
            self.fault = exc
            raise
        self.commit_s.append(time.perf_counter() - start)

    def checkpoint(self) -> None:
        """Empty the WAL into the main file, in turn (a card that refuses it is the journal's fault from then on)."""
        self._writer.later(self._checkpoint)

    def _checkpoint(self) -> None:
        with suppress(JournalError):             # the fault is kept, and the box shows it
            self._guarded(lambda records: records.checkpoint())

    def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` (on the writer's thread) whenever appends have landed or been refused, a checkpoint
        or a retry has run."""
        self._writer.listen(callback)

    def busy_for(self) -> float:
        """How long the write now on its way has taken, in seconds (0: none is)."""
        return self._writer.busy_for()

    def wait_idle(self) -> bool:
        """Wait until every write queued has run and been told (scripts and tests); True if one had to."""
        return self._writer.wait_idle()

    # ---- everything else, waited for ----

    def write(self, action: Callable[[Records], T]) -> T:
        """Run a write of the records after every one queued, and wait for it; JournalError (the fault, kept here)
        if the journal will not take it."""
        return self._writer.run(lambda: self._guarded(action))

    def read(self, action: Callable[[Records], T]) -> T:
        """Run a read of the records on the journal's connection, in turn, and wait for it."""
        return self._writer.run(lambda: action(self.records))

    def _guarded(self, action: Callable[[Records], T]) -> T:
        if self.records is None or self.fault is not None:
            raise self.fault
        try:
            return action(self.records)
        except CardFault as exc:
            self.fault = exc
            raise

    def retry(self, done: Callable[[bool], None]) -> None:
        """Open the journal, or write a probe through it, once more, in turn; ``done(True)`` once it takes writes."""
        self._writer.later(lambda: done(self._retry()))

    def _retry(self) -> bool:
        if self.records is None:
            self._open()
            return self.fault is None
        try:
            self.records.probe()
        except CardFault as exc:
            self.fault = exc
            return False
        log.warning("storage works again: %s", self.path)
        self.fault = None
        return True

    def reader(self) -> Reader | None:
        """A read-only connection for another thread (the history), or None while the journal is not open."""
        records = self.records
        return None if records is None else records.reader()

    def close(self) -> None:
        self._writer.close()
        if self.records is not None:
            self.records.close()
            self.records = None
