"""A seat's options as its buttons give them, from its draft (:meth:`companion.table.drafts.Draft.summary`)."""
from __future__ import annotations

from typing import Callable

from companion.words import N_, say

from .screen import Option, Words

KEYS = (("2", N_("up")), ("1", N_("left")), ("4", N_("right")), ("3", N_("down")))
#: what a finished game's OK starts, by its word: seat 1's option (longest first), the other seats' line
NEW = {"game": ((N_("new game"), N_("new")), (N_("Seat 1 OK: new game"), N_("Seat 1 OK: new"))),
       "match": ((N_("new match"), N_("new")), (N_("Seat 1 OK: new match"), N_("Seat 1 OK: new")))}


def options(entry: dict, ok: Words | None = None,
            words: Callable[[str], Words] = lambda label: label) -> tuple[Option, ...]:
    """Each button the seat may press now and what it does (OK: ``ok``, else "lock in"); ``words`` names an
    option's label as the game says it."""
    kind, holes = entry["kind"], entry["holes"]
    if kind == "holes":
        chosen = set(entry["draft"] or [])
        out = [Option(str(i), words(label), i in chosen) for i, label in enumerate(holes, 1) if label]
    elif holes is not None:
        out = [Option(str(i), words(label), label == entry["label"]) for i, label in enumerate(holes, 1) if label]
    elif kind == "choice":                          # a long list: holes 1 and 2 step through it
        out = [Option("1", say("back")), Option("2", say("next"))]
    elif kind in ("cell", "edge"):
        out = [Option(button, say(move)) for button, move in KEYS]
        out += [Option("5", say("turn"))] if kind == "edge" else []
    else:
        out = []
    return (*out, Option("OK", say("lock in") if ok is None else ok))


def new_game(you: int, *lines, what: str = "game") -> dict:
    """A finished game's last fields: seat 1's OK starts the next (its option), the other seats are told so;
    ``what`` it starts is a "game" or a "match"."""
    option, told = NEW[what]
    if you == 1:
        return {"lines": lines, "options": (Option("OK", tuple(map(say, option))),)}
    return {"lines": (*lines, tuple(map(say, told)))}
