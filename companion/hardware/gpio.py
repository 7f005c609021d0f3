"""The real backend: gpiozero on lgpio or RPi.GPIO, luma ssd1306/sh1106 over I2C.

Only the pin factory and the display device differ from the simulator. The
factory is the profile's ``pin_factory`` unless ``GPIOZERO_PIN_FACTORY`` names
another (gpiozero's own variable). Buttons are opened with ``bounce_time=None``
(panel.py): lgpio's debounce delays every press by that much, so our own
debouncer works on the edges' timestamps (companion/inputs.py). lgpio writes
its ``.lgd-nfy*`` pipes into ``$LG_WD`` or else the working directory (the
service's is its state directory). Each display is a
:class:`~companion.hardware.oled.ResilientDisplay`: unplugged mid-game, it is
re-created with backoff while the game goes on. The bus speed (400 kHz) is set
in config.txt, not here (docs/pi.md).
"""
from __future__ import annotations

import os
from typing import Callable, Mapping

from wiring.profile import DisplaySpec, Profile

from .oled import ResilientDisplay
from .panel import PinHardware

FACTORIES = ("lgpio", "rpigpio")


def factory_name(profile: Profile, env: Mapping[str, str] = os.environ) -> str:
    """``GPIOZERO_PIN_FACTORY`` if set, else the profile's choice; refuses what is no real pin factory."""
    name = env.get("GPIOZERO_PIN_FACTORY") or profile.pin_factory
    if name not in FACTORIES:
        source = "GPIOZERO_PIN_FACTORY" if env.get("GPIOZERO_PIN_FACTORY") else f"the profile {profile.name}"
        raise ValueError(f"pin factory {name!r} (from {source}) is not for real hardware: use lgpio (Bookworm, "
                         f"any Pi) or rpigpio (Pi 4 and older)")
    return name


def pin_factory(name: str):
    """gpiozero's factory ``name``; a library that will not load is named with how to get it."""
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory
            return LGPIOFactory()
        from gpiozero.pins.rpigpio import RPiGPIOFactory
        return RPiGPIOFactory()
    except (ImportError, RuntimeError) as exc:      # RPi.GPIO installs on a PC, then refuses to load
        package = "python3-lgpio" if name == "lgpio" else "python3-rpi.gpio"
        raise ValueError(f"pin factory {name}: {exc}. On a Raspberry Pi: sudo apt install {package}, in a venv "
                         f"made with --system-site-packages (systemd/install.sh does both); `molebox doctor` "
                         f"checks the rest") from None


def luma_device(spec: DisplaySpec, bus=None, full_frames: bool = False):
    """The driver for ``spec`` on I2C ``spec.bus`` (or on ``bus``, a fake one: companion/hardware/fake/i2c.py).

    It sends only what changed (changed_pages.py); ``full_frames``: luma's own driver, which
    sends every frame whole (the bench's baseline). ``persist`` keeps the last screen (the
    parting screen) when the service stops; luma's drivers ignore it as a keyword, so it is
    set on the device.
    """
    from luma.core.interface.serial import i2c
    from luma.oled import device

    from .changed_pages import DRIVERS

    kind = getattr(device, spec.driver) if full_frames else DRIVERS[spec.driver]
    serial = i2c(port=spec.bus, address=spec.address) if bus is None else bus.serial(spec.address)
    try:
        oled = kind(serial, width=spec.width, height=spec.height, rotate=spec.rotate)
    except BaseException:
        serial.cleanup()                            # the module did not answer its set-up: let go of the bus
        raise
    oled.persist = True
    return oled


def oled(spec: DisplaySpec) -> ResilientDisplay:
    return ResilientDisplay(f"I2C{spec.bus} 0x{spec.address:02X}", lambda: luma_device(spec),
                            spec.width, spec.height)


def open_gpio(profile: Profile, clock: Callable[[], float]) -> PinHardware:
    factory = pin_factory(factory_name(profile))
    return PinHardware(profile, lambda header: factory, oled, clock, press_priority=True)
