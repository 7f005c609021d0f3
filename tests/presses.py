"""The presses a player makes on the panel to give an answer: the inverse of :class:`companion.table.drafts.Draft`."""
from __future__ import annotations

from companion.table.drafts import Draft
from companion.table.outcomes import Submit
from rules.model import Decision, Kind


def presses_for(decision: Decision, value) -> list[str]:
    """The controls a player presses to answer ``decision`` with ``value`` on the panel.

    Found by driving a real :class:`~companion.table.drafts.Draft`, so it stays the
    exact inverse of the panel whatever the draft's key mapping.
    """
    draft = Draft().follow(decision)
    if decision.kind is Kind.HOLES:
        return [f"hole{h}" for h in value] + ["ok"]
    if decision.kind is Kind.CONFIRM:
        return ["ok"]
    target = decision.check(value)
    presses: list[str] = []
    for control in _toward(decision, target, draft):
        presses.append(control)
        draft, _ = draft.tap(control, decision)
    if draft.tap("ok", decision)[1] != Submit(decision.key, target):
        raise ValueError(f"no presses reach {value!r} for {decision.key}")
    return presses + ["ok"]


def _toward(d: Decision, target, draft: Draft):
    """Yield presses that move the draft to ``target``, one at a time (the caller presses each)."""
    if d.kind is Kind.CHOICE:
        if draft.value == target:        # a choice that starts on its answer (a die's miss): just OK
            return
        for hole in range(1, 6):
            if Draft().follow(d).tap(f"hole{hole}", d)[0].value == target:
                yield f"hole{hole}"
                return
        for _ in range(len(d.options)):
            if draft.value == target:
                return
            draft = draft.tap("hole2", d)[0]
            yield "hole2"
        return
    for _ in range(64):
        if draft.value == target:
            return
        col, row, *side = draft.value
        if side != list(target[2:]):            # turn first: an edge cursor keeps to the edges of its side
            control = "hole5"
        elif col != target[0]:
            control = "hole4" if target[0] > col else "hole1"
        else:
            control = "hole3" if target[1] > row else "hole2"
        draft = draft.tap(control, d)[0]
        yield control
