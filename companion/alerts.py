"""What the host must know: notes the box leaves (a game set aside, a key replaced, a screen's bug).

Each note is written in full for the log and the dashboard; a note with a ``screen`` (the few words
a 128-pixel OLED has room for) is also read on the table display and seat 1 in the lobby, which waits
until seat 1 has read it. Errors are logged by where they happened, never by their words: those may
name a secret pick.
"""
from __future__ import annotations

import itertools
import json
import logging
import time
import traceback

log = logging.getLogger("molebox.session")


def where(exc: BaseException) -> str:
    """Where an error happened, without its words (and where in the render process, noted by
    :mod:`companion.painter`)."""
    frames = "".join(traceback.format_tb(exc.__traceback__))
    notes = "".join(f"\n{note}" for note in getattr(exc, "__notes__", ()))
    return f"Traceback (most recent call last):\n{frames}{type(exc).__name__}{notes}"


class Alerts:
    def __init__(self, clock=time.time):
        self.clock = clock
        self.items: list[dict] = []
        self._ids = itertools.count(1)

    def add(self, text: str, screen: str | None = None) -> None:
        log.warning("%s", text)
        self.items.append({"id": next(self._ids), "text": text, "screen": screen, "at": self.clock()})

    def unread(self) -> list[dict]:
        """The notes seat 1 reads (and OKs) in the lobby before the menu."""
        return [a for a in self.items if a["screen"]]

    def dismiss(self, alert_id: int | None = None) -> None:
        """The host has read a note (None: all of them)."""
        self.items = [a for a in self.items if alert_id is not None and a["id"] != alert_id]

    def public(self) -> list[dict]:
        return [{k: a[k] for k in ("id", "text", "at")} for a in self.items]

    def display_failed(self, name: str, render_fn, args: tuple, exc: BaseException, public_view: dict) -> None:
        """A display could not draw its frame: log it (the table's view, or for a seat only the public one:
        its own view is its secret) and tell the host on the dashboard (the display's own glass says it)."""
        drawing = getattr(render_fn, "__qualname__", render_fn)
        if name == "table":
            log.error("the table display failed to draw %s; its view: %s", drawing,
                      json.dumps(args, default=repr)[:4000], exc_info=exc)
        else:
            log.error("the %s display failed to draw %s (the seat's own view is private); the public view: %s\n%s",
                      name, drawing, json.dumps(public_view, default=repr)[:4000], where(exc))
        label = "table" if name == "table" else f"seat {name[4:]}"
        self.add(f"The {label} screen could not draw its frame ({type(exc).__name__}); it shows a fault screen "
                 f"and the game goes on. The log has the details.")
