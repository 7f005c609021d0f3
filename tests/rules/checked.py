"""A game's state answered as a match answers it: each move checked against what is pending, then applied."""
from __future__ import annotations

from rules.match import checked
from rules.model import Move, State


def apply_checked(state: State, seat: int | None, key: str, value) -> list:
    """Apply the move ``seat`` makes by ``key``, once :func:`rules.match.checked` finds it legal (IllegalMove if not)."""
    return state.apply(Move(seat, key, checked(state.pending(), seat, key, value)[1]))
