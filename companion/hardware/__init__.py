"""Hardware ports and their backends.

Every backend hands the session the same :class:`~companion.hardware.panel.Hardware`:
seats with lamps and a display, the table display, edges into a sink, and a
fault to watch. ``sim`` and ``gpio`` build gpiozero buttons and lamps on a pin
factory (gpiozero's MockFactory, or lgpio / RPi.GPIO) and luma devices (``dummy``,
or ssd1306/sh1106 over I2C); ``ioboard`` has the serial IO board scan the buttons
and light the lamps, with the displays on I2C (docs/ioboard.md).
"""
from __future__ import annotations

from typing import Callable

from wiring.profile import Profile

from .panel import Hardware


def open_backend(backend: str, profile: Profile, clock: Callable[[], float]) -> Hardware:
    """Build the hardware for ``backend`` (``sim``, ``gpio`` or ``ioboard``) from a wiring profile."""
    if backend == "sim":
        from .sim import open_sim
        return open_sim(profile, clock)
    if backend == "gpio":
        from .gpio import open_gpio
        return open_gpio(profile, clock)
    if backend == "ioboard":
        if profile.ioboard is None:
            raise ValueError(f"the wiring profile {profile.name} is for the {profile.backend} backend: "
                             f"use one with backend = \"ioboard\", e.g. --wiring ioboard-8")
        from .ioboard import open_ioboard
        return open_ioboard(profile, clock)
    raise ValueError(f"unknown backend {backend!r}: use sim, gpio or ioboard")
