"""The simulated backend: gpiozero MockFactory pins and luma ``dummy`` displays.

Each distinct ``header`` of the profile gets its own MockFactory, so the
eight-panel simulator profile gives every panel its own mock header, and a
real two-seat GPIO profile runs here pin for pin.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable

from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.device import dummy

from wiring.hardware import DISPLAYS
from wiring.profile import DisplaySpec, Profile

from .panel import PinHardware
from .phone import DRIVER as PHONE_DRIVER


class SimPin(MockPWMPin):
    """gpiozero's MockPWMPin, keeping a short history and the time of its last change.

    MockPin appends every change to ``states`` forever; a blinking lamp in a
    simulator left running all evening would grow without bound.
    """

    HISTORY = 32

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.changed_at = 0.0
        self.on_change: Callable[["SimPin"], None] | None = None

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            self.changed_at = time.perf_counter()
            del self.states[:-self.HISTORY]
            if self.on_change is not None:
                self.on_change(self)
        return changed


class SimHardware(PinHardware):
    """The panels on mock pins, with a way to press their buttons as a finger would (it is its own
    :class:`~companion.hardware.port.Simulator`).

    The displays are luma ``dummy`` devices unless ``make_display`` builds others
    (the fault tests put real drivers on a fake I2C bus).
    """

    def __init__(self, profile: Profile, clock: Callable[[], float],
                 make_display: Callable[[DisplaySpec], object] | None = None):
        self.factories: dict[str, MockFactory] = {}
        super().__init__(profile, self._factory, make_display or _dummy, clock)
        self.simulator = self

    def _factory(self, header: str) -> MockFactory:
        if header not in self.factories:
            self.factories[header] = MockFactory(pin_class=SimPin)
        return self.factories[header]

    def pin(self, seat: int, control: str) -> SimPin:
        """The mock pin behind a seat's control (``hole1``..``hole5``, ``ok``)."""
        return self.seats[seat - 1].buttons[control].pin

    def lamp_pins(self, seat: int) -> list[SimPin]:
        return [led.pin for led in self.seats[seat - 1].leds]

    def drive(self, seat: int, control: str, pressed: bool) -> None:
        """Drive a button's pin as a finger would: pressed pulls the line low (nothing, once the box is closed)."""
        pin = self.pin(seat, control)
        if pin is not None:
            pin.drive_low() if pressed else pin.drive_high()

    def glass(self) -> dict[str, tuple[float, float]]:
        """Each display's lit area in mm, as the panel its profile names has it (the simulator's real-size view);
        a phone seat's as the common 0.96" panel."""
        panels = {name: DISPLAYS[spec.driver].glass_mm for name, spec in self.profile.displays().items()}
        return {**panels, **{f"seat{seat.seat}": DISPLAYS[PHONE_DRIVER].glass_mm for seat in self.phones}}

    def record_frames(self, directory: Path) -> None:
        """Keep each display's latest frame as ``directory/NAME.png`` (``molebox run --frames``)."""
        directory.mkdir(parents=True, exist_ok=True)
        for name, device in self.displays().items():
            if isinstance(device, SimDisplay):
                device.record_to = directory / f"{name}.png"

    def close(self) -> None:
        super().close()
        for factory in self.factories.values():
            factory.reset()


class SimDisplay(dummy):
    """A luma ``dummy`` keeping the last frame at close, as the real displays do, and writing each
    frame it shows to ``record_to`` when set (a whole PNG put in place by rename: never half a frame)."""

    def __init__(self, spec: DisplaySpec):
        super().__init__(width=spec.width, height=spec.height, rotate=spec.rotate, mode="1")
        self.persist = True
        self.record_to: Path | None = None

    def display(self, image) -> None:
        super().display(image)
        if self.record_to is not None:
            partial = self.record_to.with_name(self.record_to.name + ".part")
            self.image.save(partial, format="PNG")
            os.replace(partial, self.record_to)


def _dummy(spec: DisplaySpec) -> SimDisplay:
    return SimDisplay(spec)


def open_sim(profile: Profile, clock: Callable[[], float], make_display=None) -> SimHardware:
    return SimHardware(profile, clock, make_display)
