"""Lamp flashes over a seat's own lamps: a press acknowledged, a press refused, each step for its time.

Every lamp of the seat flips for :data:`ACK_S`, whichever hole was pressed, so a press shows and a
pick does not; a refusal then flashes all five fast for :data:`REFUSE_S`. Flipping what the lamps
show now (not what they would show) makes quick presses flash again and again.
"""
from __future__ import annotations

from .lamps import Lamp

ACK_S = 0.12
REFUSE_S = 0.6
Lamps = tuple[Lamp, ...]


def _flip(lamps: Lamps) -> Lamps:
    return tuple(Lamp.OFF if lamp is Lamp.ON else Lamp.ON for lamp in lamps)


def acknowledged(current: Lamps) -> list[tuple[Lamps, float]]:
    """Every press: the lamps flip."""
    return [(_flip(current), ACK_S)]


def refused(lamps: int) -> list[tuple[Lamps, float]]:
    """After the flip, for a press refused: every lamp flashes fast."""
    return [((Lamp.FAST,) * lamps, REFUSE_S)]


class Overlays:
    """The flashes running on each seat: (lamps, until) steps, the first one showing."""

    def __init__(self):
        self._steps: dict[int, list[tuple[float, Lamps]]] = {}

    def start(self, seat: int, steps: list[tuple[Lamps, float]], now: float) -> None:
        """Run ``steps`` (lamps, seconds) from ``now`` on the seat, replacing any running."""
        self._steps[seat] = []
        self.then(seat, steps, now)

    def then(self, seat: int, steps: list[tuple[Lamps, float]], now: float) -> None:
        """Run ``steps`` once the seat's running ones have ended (from ``now`` if none is running)."""
        timed = self._steps.setdefault(seat, [])
        until = timed[-1][0] if timed else now
        for lamps, seconds in steps:
            until += seconds
            timed.append((until, lamps))

    def ends(self, seat: int) -> list[float]:
        """When each of the seat's running steps ends."""
        return [end for end, _ in self._steps.get(seat, [])]

    def showing(self, seat: int) -> Lamps | None:
        """What the seat's flash shows now, or None: its own lamps."""
        steps = self._steps.get(seat)
        return steps[0][1] if steps else None

    def expire(self, seat: int, now: float) -> bool:
        """Drop the seat's steps that have ended by ``now``; True when what it shows changed."""
        steps = self._steps.get(seat, [])
        changed = False
        while steps and steps[0][0] <= now:
            steps.pop(0)
            changed = True
        if not steps:
            self._steps.pop(seat, None)
        return changed
