"""The journal: every game on disk, before anyone sees it answered. Its layers, one word each:

- :mod:`~companion.journal.card`: the file and the card under it: whether it is a molebox journal,
  who writes it, what a refusal means (:class:`~companion.journal.card.CardFault`: full,
  read-only, failing, unreachable);
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
from pathlib import Path
from typing import Callable, TypeVar

from .card import CardFault, JournalBusy, JournalError, NotAJournal
from .records import Reader, Records

log = logging.getLogger("molebox.journal")
T = TypeVar("T")


def short(fault: JournalError) -> str:
    """The fault in the few words a 128-pixel screen has room for."""
    if isinstance(fault, CardFault):
        return fault.short
    if isinstance(fault, NotAJournal):
        return "not a journal"
    if isinstance(fault, JournalBusy):
        return "journal in use"
    return "journal unusable"


class Journal:
    def __init__(self, path: Path | str, now: Callable[[], float] = time.time):
        self.path = Path(path)
        self.now = now
        self.records: Records | None = None
        self.fault: JournalError | None = None
        self._open(at_start=True)

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

    def write(self, action: Callable[[Records], T]) -> T:
        """Run a write of the records; JournalError (the fault, kept here) if the journal will not take it."""
        if self.records is None:
            raise self.fault
        try:
            return action(self.records)
        except CardFault as exc:
            self.fault = exc
            raise

    def retry(self) -> bool:
        """Open the journal, or write a probe through it, once more; True when it takes writes again."""
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
        if self.records is not None:
            self.records.close()
            self.records = None

