"""The session's journal: the store while the card takes writes, and what is wrong while it does not.

Opening the journal at start, and any write after, may meet a card that
refuses (full, read-only, failing) or a path that holds something else. Neither
stops the box: the fault is kept here, in words for the host and in a few for
the screens; the session pauses play, and :meth:`Journal.retry` (on a timer)
opens or probes the journal again until it takes writes, when play goes on
from the last commit point. Only another molebox holding the journal
(:class:`~companion.storage.JournalBusy`) is refused outright: that box is the
one playing.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Callable, TypeVar

from .storage import JournalBusy, NotAJournal, StorageFault, StoreError
from .store import Reader, Store

log = logging.getLogger("molebox.journal")
T = TypeVar("T")


def short(fault: StoreError) -> str:
    """The fault in the few words a 128-pixel screen has room for."""
    if isinstance(fault, StorageFault):
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
        self.store: Store | None = None
        self.fault: StoreError | None = None
        self._open(at_start=True)

    def _open(self, at_start: bool = False) -> None:
        try:
            self.store = Store(self.path, self.now)
        except JournalBusy:
            if at_start:
                raise
            self.fault = JournalBusy(f"another molebox took {self.path} while this one waited for it")
        except StoreError as exc:
            self.fault = exc
        else:
            self.fault = None

    def write(self, action: Callable[[Store], T]) -> T:
        """Run a store write; StoreError (the fault, kept here) if the journal will not take it."""
        if self.store is None:
            raise self.fault
        try:
            return action(self.store)
        except StorageFault as exc:
            self.fault = exc
            raise

    def retry(self) -> bool:
        """Open the journal, or write a probe through it, once more; True when it takes writes again."""
        if self.store is None:
            self._open()
            return self.fault is None
        try:
            self.store.probe()
        except StorageFault as exc:
            self.fault = exc
            return False
        log.warning("storage works again: %s", self.path)
        self.fault = None
        return True

    def reader(self) -> Reader | None:
        """A read-only connection for another thread (the history), or None while the journal is not open."""
        store = self.store
        return None if store is None else store.reader()

    def close(self) -> None:
        if self.store is not None:
            self.store.close()
            self.store = None

