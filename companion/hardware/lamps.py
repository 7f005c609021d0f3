"""Lamp states and how a gpiozero PWMLED shows each of them."""
from __future__ import annotations

import enum

DIM_LEVEL = 0.12


class Lamp(str, enum.Enum):
    OFF = "off"
    ON = "on"
    DIM = "dim"
    BLINK = "blink"     # slow: something to look at
    FAST = "fast"       # quick: a refusal, or the whacked hole


def show(led, state: Lamp) -> None:
    """Drive one gpiozero PWMLED to ``state``."""
    if state is Lamp.OFF:
        led.off()
    elif state is Lamp.ON:
        led.on()
    elif state is Lamp.DIM:
        led.value = DIM_LEVEL
    elif state is Lamp.BLINK:
        led.blink(on_time=0.4, off_time=0.4)
    else:
        led.blink(on_time=0.08, off_time=0.08)
