"""The presses a player makes on the panel to give an answer: the inverse of :class:`companion.entry.Entry`."""
from __future__ import annotations

from companion.entry import Entry, Submit
from rules.model import Decision, Kind


def presses_for(decision: Decision, value) -> list[str]:
    """The controls a player presses to answer ``decision`` with ``value`` on the panel.

    Found by driving a real :class:`~companion.entry.Entry`, so it stays the
    exact inverse of the panel whatever the entry's key mapping.
    """
    entry = Entry(0)
    entry.follow(decision)
    if decision.kind is Kind.HOLES:
        return [f"hole{h}" for h in value] + ["ok"]
    if decision.kind is Kind.CONFIRM:
        return ["ok"]
    target = decision.check(value)
    presses: list[str] = []
    for control in _toward(decision, target, entry):
        presses.append(control)
    if entry.tap("ok", decision) != Submit(decision.key, target):
        raise ValueError(f"no presses reach {value!r} for {decision.key}")
    return presses + ["ok"]


def _toward(d: Decision, target, entry: Entry):
    """Yield presses that move the entry's draft to ``target``, one at a time."""
    if d.kind is Kind.CHOICE:
        if entry.draft == target:        # a choice that starts on its answer (a die's miss): just OK
            return
        for hole in range(1, 6):
            trial = Entry(0)
            trial.follow(d)
            trial.tap(f"hole{hole}", d)
            if trial.draft == target:
                entry.tap(f"hole{hole}", d)
                yield f"hole{hole}"
                return
        for _ in range(len(d.options)):
            if entry.draft == target:
                return
            entry.tap("hole2", d)
            yield "hole2"
        return
    for _ in range(64):
        if entry.draft == target:
            return
        col, row, *side = entry.draft
        if side != list(target[2:]):            # turn first: an edge cursor keeps to the edges of its side
            control = "hole5"
        elif col != target[0]:
            control = "hole4" if target[0] > col else "hole1"
        else:
            control = "hole3" if target[1] > row else "hole2"
        entry.tap(control, d)
        yield control
