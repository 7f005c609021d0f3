"""The real backend: gpiozero on lgpio or RPi.GPIO, luma ssd1306/sh1106 over I2C.

Only the pin factory and the display device differ from the simulator.
"""
from __future__ import annotations

from typing import Callable

from wiring.profile import DisplaySpec, Profile

from .panel import Hardware


def pin_factory(name: str):
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory
        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory
        return RPiGPIOFactory()
    raise ValueError(f"pin factory {name!r} is not for real hardware: use lgpio or rpigpio")


def oled(spec: DisplaySpec):
    from luma.core.interface.serial import i2c
    from luma.oled import device

    serial = i2c(port=spec.bus, address=spec.address)
    driver = getattr(device, spec.driver)
    return driver(serial, width=spec.width, height=spec.height, rotate=spec.rotate, persist=True)


def open_gpio(profile: Profile, clock: Callable[[], float]) -> Hardware:
    factory = pin_factory(profile.pin_factory)
    return Hardware(profile, lambda header: factory, oled, clock)
