"""The journal's own thread: its writes in the order given, off the session loop, and appends that wait
together in one commit point.

The session loop hands a decision's records to the writer and goes on; the seat's lamps acknowledge
the decision once its commit point is on disk (its :class:`Ticket` says so). While one commit point
is on its way to the card, the appends that arrive meanwhile wait and go together in the next one
(group commit): a slow card costs a decision one wait, never a wait behind each decision queued
before it. Every other job (opening, undo, a probe of a card that refused) runs in its turn too,
so nothing overtakes a decision.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import deque
from typing import Any, Callable, TypeVar

log = logging.getLogger("molebox.journal")
T = TypeVar("T")


class Ticket:
    """An append on its way to the disk: ``done`` once its commit point is there, or the ``error`` that refused it."""

    __slots__ = ("done", "error", "queued_at")

    def __init__(self):
        self.done = False
        self.error: Exception | None = None
        self.queued_at = time.monotonic()

    def waited_s(self) -> float:
        """How long it has been on its way."""
        return time.monotonic() - self.queued_at


class _Reply:
    """What a job run for a waiting caller came to."""

    __slots__ = ("ready", "value", "error")

    def __init__(self):
        self.ready = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


class Writer:
    def __init__(self, append_all: Callable[[list], None], name: str = "journal"):
        """``append_all(items)`` writes a batch of appends in one commit point, on this thread."""
        self._append_all = append_all
        self._jobs: deque = deque()
        self._cv = threading.Condition()
        self._busy_since: float | None = None
        self._closing = False
        self._listeners: list[Callable[[], None]] = []
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def listen(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` on the writer's thread after each batch of appends and each job run :meth:`later`."""
        self._listeners.append(callback)

    # ---- jobs ----

    def append(self, item) -> Ticket:
        """Queue one append (an item for ``append_all``); its ticket says when it is on disk."""
        ticket = Ticket()
        self._queue(("append", item, ticket))
        return ticket

    def later(self, job: Callable[[], None]) -> None:
        """Run ``job()`` in its turn; the listeners hear when it has run."""
        self._queue(("later", job, None))

    def run(self, job: Callable[[], T]) -> T:
        """Run ``job()`` in its turn and wait for it (every job queued before it runs first): its value, or what it raised."""
        if threading.current_thread() is self._thread:
            return job()
        reply = _Reply()
        self._queue(("run", job, reply))
        reply.ready.wait()
        if reply.error is not None:
            raise reply.error
        return reply.value

    def _queue(self, job: tuple) -> None:
        with self._cv:
            if self._closing:
                raise RuntimeError("the journal is closed")
            self._jobs.append(job)
            self._cv.notify_all()

    # ---- what it is doing ----

    def busy_for(self) -> float:
        """How long the job now running has run, in seconds (0 when none is)."""
        since = self._busy_since
        return 0.0 if since is None else time.monotonic() - since

    def wait_idle(self) -> bool:
        """Wait until no job is queued or running (and the listeners have heard); True if there was one."""
        with self._cv:
            waited = bool(self._jobs) or self._busy_since is not None
            self._cv.wait_for(lambda: not self._jobs and self._busy_since is None)
        return waited

    def close(self) -> None:
        """Run what is queued, then end the thread."""
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join()

    # ---- the thread ----

    def _take(self) -> list[tuple] | None:
        with self._cv:
            self._cv.wait_for(lambda: self._jobs or self._closing)
            if not self._jobs:
                return None
            batch = [self._jobs.popleft()]
            while batch[0][0] == "append" and self._jobs and self._jobs[0][0] == "append":
                batch.append(self._jobs.popleft())
            self._busy_since = time.monotonic()
            return batch

    def _run(self) -> None:
        while (batch := self._take()) is not None:
            kind, job, reply = batch[0]
            if kind == "append":
                self._appends(batch)
            elif kind == "later":
                try:
                    job()
                except Exception:                   # a bug: the log has it, the journal's thread goes on
                    log.exception("a journal job failed")
            else:
                try:
                    reply.value = job()
                except BaseException as exc:        # handed to the waiting caller, who raises it
                    reply.error = exc
            if kind != "run":
                for callback in self._listeners:
                    callback()
            with self._cv:
                self._busy_since = None
                self._cv.notify_all()
            if kind == "run":
                reply.ready.set()

    def _appends(self, batch: list[tuple]) -> None:
        try:
            self._append_all([item for _, item, _ in batch])
        except Exception as exc:
            for _, _, ticket in batch:
                ticket.error = exc
        else:
            for _, _, ticket in batch:
                ticket.done = True
