"""Moments the whole table shares: a reveal and the end sound on the buzzer and show a reveal's picks a while, virtual
dice tumble on the table display (a frame at each step). Never a seat's own press: a beep there would tell the table
who has picked."""
from __future__ import annotations

from typing import Callable

from ..scene import PICKS_S, ROLL_FRAMES, ROLL_S, rolls
from ..table.effects import Moment


def mark(moment: Moment, signals, *, now: float, after: Callable, redraw: Callable[[], None]) -> None:
    """Sound ``moment`` and time the screens' turn from the picks to what they did, or time the tumbling dice's
    frames, on the loop's timers."""
    if moment.kind != "roll":
        signals.beep(moment.kind)
        after(now + PICKS_S, lambda now: redraw())
    elif rolls(moment.game):
        start = now + (PICKS_S if moment.after_picks else 0)
        for frame in range(1, ROLL_FRAMES + 1):
            after(start + frame * ROLL_S / ROLL_FRAMES, lambda now: redraw())
