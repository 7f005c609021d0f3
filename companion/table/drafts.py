"""What a seat is entering on its panel: the draft answer to its current decision, as a value.

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

A :class:`Draft` never changes: a press answers a new one beside its outcome. The draft lives
here, never in the match: it is the seat's private business until OK commits it, and only the
seat's own screen shows it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rules.model import Decision, Kind

from ..words import N_, say, says, translate
from .outcomes import Changed, Refusal, Submit

SIDES = ("E", "S")
MOVES = {1: (-1, 0), 2: (0, -1), 3: (0, 1), 4: (1, 0)}      # hole -> (columns, rows) the cursor steps
AT_THE_EDGE = {1: N_("nothing further left"), 2: N_("nothing further up"), 3: N_("nothing further down"),
               4: N_("nothing further right")}             # hole -> why the cursor does not step
Why = Callable[[str, Any], "str | None"]


def decision_key(decision: Decision | None) -> tuple | None:
    """What tells one decision from the next: a draft follows a decision while this stays the same."""
    return None if decision is None else (decision.key, decision.kind, decision.options)


@dataclass(frozen=True)
class Draft:
    """The draft of one seat's current decision (``key``: :func:`decision_key` of it)."""

    key: tuple | None = None
    value: Any = None

    def follow(self, decision: Decision | None) -> "Draft":
        """This draft while ``decision`` is the one it answers, else a fresh one for it."""
        key = decision_key(decision)
        return self if key == self.key else Draft(key, _initial(decision))

    def tap(self, control: str, d: Decision | None, why: Why | None = None) -> tuple["Draft", Submit | Refusal | Changed]:
        """One press: the draft after it, and what it did; ``why(key, value)`` may say in a few words why OK on an
        illegal target is refused."""
        if d is None:
            return self, Refusal((say("nothing to decide now"), say("not now")))
        if control == "ok":
            return self, self._commit(d, why)
        hole = int(control[4:])
        if d.kind is Kind.HOLES:
            return self._toggle(d, hole)
        if d.kind is Kind.CHOICE:
            return self._choose(d, hole)
        if d.kind in (Kind.CELL, Kind.EDGE):
            return self._move(d, hole)
        return self, Refusal(say("press OK"))

    def _to(self, value: Any) -> tuple["Draft", Changed]:
        return Draft(self.key, value), Changed()

    def _toggle(self, d: Decision, hole: int):
        if hole not in d.options:
            return self, Refusal(say("hole {hole} cannot be chosen", hole=hole))
        if hole in self.value:
            return self._to(self.value - {hole})
        if len(self.value) >= d.max:
            return self, Refusal(says("{n} hole at most", "{n} holes at most", d.max))
        return self._to(self.value | {hole})

    def _choose(self, d: Decision, hole: int):
        mode = _list_mode(d)
        if mode == "step":
            if hole not in (1, 2):
                return self, Refusal(say("hole 1 and 2 step through the list"))
            i = d.options.index(self.value) if self.value in d.options else 0
            return self._to(d.options[(i + (1 if hole == 2 else -1)) % len(d.options)])
        option = _option_at(d, mode, hole)
        if option is None:
            return self, Refusal(says("only {n} choice", "only {n} choices", len(d.options)) if mode == "index"
                                 else say("hole {hole} cannot be chosen", hole=hole))
        return self._to(_spare(d) if mode == "spare" and self.value == option else option)

    def _move(self, d: Decision, hole: int):
        """Step the cursor (or turn an edge cursor), kept inside the box of the options on its side."""
        col, row, *side = self.value
        dc, dr = MOVES.get(hole, (0, 0))
        if hole == 5:
            if d.kind is not Kind.EDGE:
                return self, Refusal(say("hole 5 turns an edge cursor only"))
            side = [SIDES[(SIDES.index(side[0]) + 1) % len(SIDES)]]
        box = [o for o in d.options if list(o[2:]) == side] or d.options
        cols, rows = [o[0] for o in box], [o[1] for o in box]
        moved = (min(max(col + dc, min(cols)), max(cols)), min(max(row + dr, min(rows)), max(rows)), *side)
        if moved == self.value:
            return self, Refusal(say(AT_THE_EDGE[hole]))
        return self._to(moved)

    def _commit(self, d: Decision, why: Why | None = None) -> Submit | Refusal:
        if d.kind is Kind.HOLES:
            if len(self.value) < d.min:
                return Refusal(says("choose at least {n} hole", "choose at least {n} holes", d.min))
            return Submit(d.key, tuple(sorted(self.value)))
        if d.kind is Kind.CONFIRM:
            return Submit(d.key, d.options[0])
        if self.value is None:
            return Refusal(say("choose first, then OK"))
        if self.value not in d.options:
            reason = why and why(d.key, self.value)            # the rules' own words, English: said here
            return Refusal(translate(reason) if reason else say("not a legal choice"))
        return Submit(d.key, self.value)

    def summary(self, d: Decision | None) -> dict:
        """The draft as the seat's own screen shows it (the screens keep it while the decision and draft are the
        same: :class:`companion.scene.Made`)."""
        if d is None:
            return {"key": None}
        draft = sorted(self.value) if isinstance(self.value, frozenset) else self.value
        return {"key": d.key, "kind": d.kind.value, "prompt": d.question(translate), "draft": draft,
                "label": None if draft is None or d.kind is Kind.HOLES else d.label(self.value, translate),
                "options": [d.label(o, translate) for o in d.options] if d.kind is Kind.CHOICE else None,
                "holes": _hole_labels(d),
                "legal": self.value in d.options if d.kind in (Kind.CELL, Kind.EDGE) else None}


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
    """What each of the five holes picks, as the screen labels it; None when holes step through a list."""
    if d.kind is Kind.HOLES:
        return [str(h) if h in d.options else None for h in range(1, 6)]
    if d.kind is not Kind.CHOICE or _list_mode(d) == "step":
        return None
    mode = _list_mode(d)
    picks = [_option_at(d, mode, hole) for hole in range(1, 6)]
    return [None if o is None else d.label(o, translate) for o in picks]
