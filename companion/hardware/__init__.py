"""Hardware ports and their backends.

One code path drives every backend: :class:`~companion.hardware.panel.Hardware`
builds gpiozero buttons and lamps on whatever pin factory a backend hands it,
and luma devices from whatever display maker it hands it. ``sim`` hands it
gpiozero's MockFactory and luma's ``dummy``; ``gpio`` hands it lgpio or RPi.GPIO
and luma's ssd1306/sh1106 over I2C.
"""
from __future__ import annotations

from typing import Callable

from wiring.profile import Profile

from .panel import Hardware


def open_backend(backend: str, profile: Profile, clock: Callable[[], float]) -> Hardware:
    """Build the hardware for ``backend`` (``sim`` or ``gpio``) from a wiring profile."""
    if backend == "sim":
        from .sim import open_sim
        return open_sim(profile, clock)
    if backend == "gpio":
        from .gpio import open_gpio
        return open_gpio(profile, clock)
    raise ValueError(f"unknown backend {backend!r}: use sim or gpio")
