"""Moments the whole table shares: a reveal and the end sound on the buzzer, virtual dice tumble on the table
display (a frame at each step). Never a seat's own press: a beep there would tell the table who has picked."""
from __future__ import annotations

from typing import Callable

from ..scene import ROLL_FRAMES, ROLL_S, rolls
from ..table.effects import Moment


def mark(moment: Moment, signals, *, now: float, after: Callable, redraw: Callable[[], None]) -> None:
    """Sound ``moment``, or time the tumbling dice's frames on the loop's timers."""
    if moment.kind != "roll":
        signals.beep(moment.kind)
    elif rolls(moment.game):
        for frame in range(1, ROLL_FRAMES + 1):
            after(now + frame * ROLL_S / ROLL_FRAMES, lambda now: redraw())
