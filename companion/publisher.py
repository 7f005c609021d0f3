"""The session's news for whoever listens (the web's hub): the public state, the lamps and each new frame.

Listeners are called on the thread that has the news (the session loop; the display worker for
frames) and must only hand it on. The public log is built on from the last call rather than from
the first event: a long game's log would otherwise be rebuilt at every refresh while pages stream.
"""
from __future__ import annotations

from typing import Callable

from rules.match import Match

Listener = Callable[[str, object], None]


class Publisher:
    def __init__(self):
        self.listeners: list[Listener] = []
        self._log: tuple[Match | None, list[dict], int] = (None, [], 0)

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def send(self, kind: str, payload) -> None:
        for listener in self.listeners:
            listener(kind, payload)

    def log(self, match: Match | None) -> list[dict]:
        """The public log of the match: every event anyone may see, in order. The list handed out is never
        changed afterwards, so any thread may read it; a new, undone or resumed match starts it afresh."""
        if match is None:
            return []
        of, events, seen = self._log
        if of is not match:
            events, seen = [], 0
        if seen < len(match.events):
            events = events + match.events_for(None, match.events[seen:])
            self._log = (match, events, len(match.events))
        return events
