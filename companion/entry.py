"""What a seat is entering on its panel: the draft answer to its current decision.

The panel is generic over decision kinds, so a new game needs no button code:

- ``holes``: hole buttons toggle holes in the draft, OK commits the set;
- ``choice``: a choice with a ``default`` starts on it, so OK alone commits the
  usual answer; with hole-numbered options a hole picks that hole; hole numbers plus
  one other option (a die's miss) start on that option, a hole picks itself and
  a second press goes back to it; with up to five labelled options hole *k*
  picks the *k*-th; with more, hole 1/2 step back and forth through the list;
  OK commits;
- ``cell``/``edge``: a cursor on the grid; hole 1 left, 2 up, 3 down, 4 right,
  5 turns an edge cursor to the other side; OK commits a legal target, and on
  any other the game may say why not;
- ``confirm``: OK.

The draft lives here, never in the match: it is the seat's private business
until OK commits it, and only the seat's own OLED shows it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rules.model import Decision, Kind

SIDES = ("E", "S")
MOVES = {1: (-1, 0), 2: (0, -1), 3: (0, 1), 4: (1, 0)}      # hole -> (columns, rows) the cursor steps
MOVE_WORDS = {1: "left", 2: "up", 3: "down", 4: "right"}


@dataclass(frozen=True)
class Submit:
    key: str
    value: Any


@dataclass(frozen=True)
class Refuse:
    reason: str


@dataclass(frozen=True)
class Changed:
    """The draft changed; nothing was committed."""


@dataclass(frozen=True)
class Saving:
    """A decision committed, its commit point on its way to the disk: the seat's lamps answer once it is there."""


@dataclass(frozen=True)
class ShowPin:
    """Seat 1 asked to see the host PIN on its own OLED (a box with no table display, in the lobby)."""


class Entry:
    """The draft of one seat's current decision."""

    def __init__(self, seat: int):
        self.seat = seat
        self.key: str | None = None
        self.draft: Any = None
        self._summary: tuple = (None, None, None)      # the last summary made: (its decision, its draft, it)

    def follow(self, decision: Decision | None) -> None:
        """Start a fresh draft when the seat's current decision changes."""
        key = None if decision is None else (decision.key, decision.kind, decision.options)
        if key == self.key:
            return
        self.key = key
        self.draft = self._initial(decision)

    @staticmethod
    def _initial(d: Decision | None) -> Any:
        if d is None:
            return None
        if d.kind is Kind.HOLES:
            return frozenset()
        if d.kind in (Kind.CELL, Kind.EDGE):
            return d.options[0] if d.options else None
        if d.kind is Kind.CHOICE and d.default is not None:
            return d.default
        if d.kind is Kind.CHOICE and _list_mode(d) == "step":
            return d.options[0]
        if d.kind is Kind.CHOICE and _list_mode(d) == "spare":
            return _spare(d)
        return None

    def tap(self, control: str, d: Decision | None,
            why: Callable[[str, Any], str | None] | None = None) -> Submit | Refuse | Changed:
        """One press; ``why(key, value)`` may say in a few words why OK on an illegal target is refused."""
        if d is None:
            return Refuse("nothing to decide now")
        if control == "ok":
            return self._commit(d, why)
        hole = int(control[4:])
        if d.kind is Kind.HOLES:
            return self._toggle(d, hole)
        if d.kind is Kind.CHOICE:
            return self._choose(d, hole)
        if d.kind in (Kind.CELL, Kind.EDGE):
            return self._move(d, hole)
        return Refuse("press OK")

    def _toggle(self, d: Decision, hole: int):
        if hole not in d.options:
            return Refuse(f"hole {hole} cannot be chosen")
        if hole in self.draft:
            self.draft = self.draft - {hole}
        elif len(self.draft) >= d.max:
            return Refuse(f"{d.max} hole{'s' if d.max != 1 else ''} at most")
        else:
            self.draft = self.draft | {hole}
        return Changed()

    def _choose(self, d: Decision, hole: int):
        mode = _list_mode(d)
        if mode == "step":
            if hole not in (1, 2):
                return Refuse("hole 1 and 2 step through the list")
            i = d.options.index(self.draft) if self.draft in d.options else 0
            self.draft = d.options[(i + (1 if hole == 2 else -1)) % len(d.options)]
            return Changed()
        option = _option_at(d, mode, hole)
        if option is None:
            return Refuse(f"only {len(d.options)} choices" if mode == "index" else f"hole {hole} cannot be chosen")
        self.draft = _spare(d) if mode == "spare" and self.draft == option else option
        return Changed()

    def _move(self, d: Decision, hole: int):
        """Step the cursor (or turn an edge cursor), kept inside the box of the options on its side."""
        col, row, *side = self.draft
        dc, dr = MOVES.get(hole, (0, 0))
        if hole == 5:
            if d.kind is not Kind.EDGE:
                return Refuse("hole 5 turns an edge cursor only")
            side = [SIDES[(SIDES.index(side[0]) + 1) % len(SIDES)]]
        box = [o for o in d.options if list(o[2:]) == side] or d.options
        cols, rows = [o[0] for o in box], [o[1] for o in box]
        moved = (min(max(col + dc, min(cols)), max(cols)), min(max(row + dr, min(rows)), max(rows)), *side)
        if moved == self.draft:
            return Refuse(f"nothing further {MOVE_WORDS[hole]}")
        self.draft = moved
        return Changed()

    def _commit(self, d: Decision, why=None):
        if d.kind is Kind.HOLES:
            if len(self.draft) < d.min:
                return Refuse(f"choose at least {d.min} hole{'s' if d.min != 1 else ''}")
            return Submit(d.key, tuple(sorted(self.draft)))
        if d.kind is Kind.CONFIRM:
            return Submit(d.key, d.options[0])
        if self.draft is None:
            return Refuse("choose first, then OK")
        if self.draft not in d.options:
            return Refuse((why and why(d.key, self.draft)) or "not a legal choice")
        return Submit(d.key, self.draft)

    def summary(self, d: Decision | None) -> dict:
        """The draft as the seat's own OLED shows it: read it, never change it. Made again only when the decision
        or the draft is another (the box asks every seat's at every redraw, and a press changes one draft)."""
        if d is None:
            return {"key": None}
        made_for, made_of, made = self._summary
        if made_for is d and made_of is self.draft:
            return made
        draft = sorted(self.draft) if isinstance(self.draft, frozenset) else self.draft
        made = {"key": d.key, "kind": d.kind.value, "prompt": d.prompt, "draft": draft,
                "label": None if draft is None or d.kind is Kind.HOLES else d.label(self.draft),
                "options": [d.label(o) for o in d.options] if d.kind is Kind.CHOICE else None,
                "holes": _hole_labels(d),
                "legal": self.draft in d.options if d.kind in (Kind.CELL, Kind.EDGE) else None}
        self._summary = (d, self.draft, made)
        return made


def _is_hole(option: Any) -> bool:
    return isinstance(option, int) and 1 <= option <= 5


def _spare(d: Decision) -> Any:
    """The one option of a ``spare`` choice that is not a hole (a die's miss)."""
    return next(o for o in d.options if not _is_hole(o))


def _list_mode(d: Decision) -> str:
    if d.labels is None:
        others = [o for o in d.options if not _is_hole(o)]
        if not others:
            return "holes"
        if len(others) == 1 and len(d.options) > 1 and not isinstance(others[0], int):
            return "spare"
    return "index" if len(d.options) <= 5 else "step"


def _option_at(d: Decision, mode: str, hole: int) -> Any:
    """The option hole ``hole`` picks in a choice (None: nothing)."""
    if mode == "index":
        return d.options[hole - 1] if hole <= len(d.options) else None
    return hole if hole in d.options else None


def _hole_labels(d: Decision) -> list[str | None] | None:
    """What each of the five holes picks, as the OLED labels it; None when holes step through a list."""
    if d.kind is Kind.HOLES:
        return [str(h) if h in d.options else None for h in range(1, 6)]
    if d.kind is not Kind.CHOICE or _list_mode(d) == "step":
        return None
    mode = _list_mode(d)
    picks = [_option_at(d, mode, hole) for hole in range(1, 6)]
    return [None if o is None else d.label(o) for o in picks]
