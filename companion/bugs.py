"""Bugs told without their words: where an error happened, for the log and the host's notes.

Errors are logged by where they happened, never by their words: those may name a secret pick.
"""
from __future__ import annotations

import json
import logging
import traceback

log = logging.getLogger("molebox.session")


def where(exc: BaseException) -> str:
    """Where an error happened, without its words (and where in the render process, noted by
    :mod:`companion.painter`)."""
    frames = "".join(traceback.format_tb(exc.__traceback__))
    notes = "".join(f"\n{note}" for note in getattr(exc, "__notes__", ()))
    return f"Traceback (most recent call last):\n{frames}{type(exc).__name__}{notes}"


def display_failed(name: str, render_fn, args: tuple, exc: BaseException, public_view: dict) -> str:
    """A display could not draw its frame: log it (the table display's view, or for a seat only the public one:
    its own view is its secret); the note for the host (the display's own glass says it)."""
    drawing = getattr(render_fn, "__qualname__", render_fn)
    if name == "table":
        log.error("the table display failed to draw %s; its view: %s", drawing,
                  json.dumps(args, default=repr)[:4000], exc_info=exc)
    else:
        log.error("the %s display failed to draw %s (the seat's own view is private); the public view: %s\n%s",
                  name, drawing, json.dumps(public_view, default=repr)[:4000], where(exc))
    label = "table" if name == "table" else f"seat {name[4:]}"
    return (f"The {label} screen could not draw its frame ({type(exc).__name__}); it shows a fault screen "
            f"and the game goes on. The log has the details.")
