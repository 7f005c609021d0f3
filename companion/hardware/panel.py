"""The seat panels and displays, built on gpiozero devices and luma devices.

Hardware callbacks do one thing: hand an :class:`~companion.inputs.Edge` with
its timestamp to the sink. Everything else happens on the session loop.
"""
from __future__ import annotations

from typing import Callable

from gpiozero import PWMLED, DigitalInputDevice

from companion.inputs import HOLES, Edge
from wiring.profile import DisplaySpec, Profile

from .lamps import Lamp, show

Sink = Callable[[Edge], None]


class SeatPanel:
    """One seat: five hole buttons with lamps, the OK button, the seat's OLED."""

    def __init__(self, seat: int, spec, factory, display, clock: Callable[[], float]):
        self.seat, self.spec, self.factory, self.display = seat, spec, factory, display
        self._clock = clock
        self._sink: Sink | None = None
        # DigitalInputDevice, not Button: tap/hold is ours, and each Button runs a thread that wakes
        # ten times a second to look for a hold (48 buttons: 480 wake-ups a second, idle).
        self.buttons = {
            name: DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=factory)
            for name, pin in zip(HOLES + ("ok",), spec.holes + (spec.ok,))
        }
        self.leds = [PWMLED(pin, pin_factory=factory) for pin in spec.lamps]
        self.lamps: list[Lamp] = [Lamp.OFF] * len(self.leds)
        for name, button in self.buttons.items():
            button.when_activated = self._edge(name, True)
            button.when_deactivated = self._edge(name, False)

    def _edge(self, name: str, pressed: bool):
        def callback():
            if self._sink is not None:
                self._sink(Edge(self._clock(), self.seat, name, pressed))
        return callback

    def connect(self, sink: Sink) -> None:
        self._sink = sink

    def set_lamps(self, states) -> None:
        """Show ``states`` (one per hole); lamps already in their state are left alone."""
        for i, state in enumerate(states):
            if self.lamps[i] is not state:
                self.lamps[i] = state
                show(self.leds[i], state)

    def devices(self) -> list:
        return [*self.buttons.values(), *self.leds]


class Hardware:
    """Every panel and display of a profile, on a backend's pin factories and display maker."""

    def __init__(self, profile: Profile, factory_for: Callable[[str], object],
                 make_display: Callable[[DisplaySpec], object], clock: Callable[[], float]):
        self.profile = profile
        self.seats = [
            SeatPanel(i + 1, spec, factory_for(spec.header),
                      make_display(spec.display) if spec.display else None, clock)
            for i, spec in enumerate(profile.seats)
        ]
        self.table = make_display(profile.table) if profile.table else None

    def connect(self, sink: Sink) -> None:
        for seat in self.seats:
            seat.connect(sink)

    def displays(self) -> dict[str, object]:
        """Display devices by name: ``seat1``..``seatN`` and ``table``."""
        out = {f"seat{s.seat}": s.display for s in self.seats if s.display is not None}
        if self.table is not None:
            out["table"] = self.table
        return out

    def close(self) -> None:
        for seat in self.seats:
            for device in seat.devices():
                device.close()
