"""The box's feed, for whoever listens (the web's hub): the public state, the free phone seats, the lamps, each
display's new screen (its drawing and arguments) and each new frame.

Listeners are called on the thread that has the news (the session loop; the display worker for
frames) and must only hand it on.
"""
from __future__ import annotations

from typing import Callable

Listener = Callable[[str, object], None]


class Feed:
    def __init__(self):
        self.listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def send(self, kind: str, payload) -> None:
        for listener in self.listeners:
            listener(kind, payload)
