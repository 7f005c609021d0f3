"""How a gpiozero PWMLED shows each lamp state."""
from __future__ import annotations

from companion.lamps import Lamp

DIM_LEVEL = 0.12


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
