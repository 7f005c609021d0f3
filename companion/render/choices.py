"""A seat's options as its buttons give them, from its draft (:meth:`companion.table.drafts.Draft.summary`)."""
from __future__ import annotations

from typing import Callable

from .screen import Option, Words

KEYS = (("2", "up"), ("1", "left"), ("4", "right"), ("3", "down"))


def options(entry: dict, ok: Words = "lock in", words: Callable[[str], Words] = lambda label: label) -> tuple[Option, ...]:
    """Each button the seat may press now and what it does; ``words`` names an option's label as the game says it."""
    kind, holes = entry["kind"], entry["holes"]
    if kind == "holes":
        chosen = set(entry["draft"] or [])
        out = [Option(str(i), words(label), i in chosen) for i, label in enumerate(holes, 1) if label]
    elif holes is not None:
        out = [Option(str(i), words(label), label == entry["label"]) for i, label in enumerate(holes, 1) if label]
    elif kind == "choice":                          # a long list: holes 1 and 2 step through it
        out = [Option("1", "back"), Option("2", "next")]
    elif kind in ("cell", "edge"):
        out = [Option(button, move) for button, move in KEYS] + ([Option("5", "turn")] if kind == "edge" else [])
    else:
        out = []
    return (*out, Option("OK", ok))


def new_game(you: int, *lines, what: str = "game") -> dict:
    """A finished game's last fields: seat 1's OK starts the next (its option), the other seats are told so."""
    if you == 1:
        return {"lines": lines, "options": (Option("OK", (f"new {what}", "new")),)}
    return {"lines": (*lines, (f"Seat 1 OK: new {what}", "Seat 1 OK: new"))}
