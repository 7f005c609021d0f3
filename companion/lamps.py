"""What a hole lamp can show: one word per state, shared by the screens that choose it and the hardware that shows it."""
from __future__ import annotations

import enum


class Lamp(str, enum.Enum):
    OFF = "off"
    ON = "on"
    DIM = "dim"
    BLINK = "blink"     # slow: something to look at
    FAST = "fast"       # quick: a refusal, or the whacked hole
