"""The hardware the session drives, and the seat panels and displays built on gpiozero and luma devices.

:class:`Hardware` and :class:`Seat` are what every backend offers the session;
:class:`PinHardware` and :class:`SeatPanel` are those on gpiozero pins (the
``sim`` and ``gpio`` backends). Hardware callbacks do one thing: hand an
:class:`~companion.inputs.Edge` with its timestamp to the sink (the session,
which answers it there and queues it for its loop); on a real box's pins that callback's thread
runs at the press priority (:mod:`companion.hardware.priority`). The lamps are set on
whichever thread asks; the blinking ones are toggled by the box's one
:class:`~companion.hardware.blinker.Blinker`.
"""
from __future__ import annotations

import threading
from typing import Callable

from gpiozero import PWMLED, DigitalInputDevice

from companion.inputs import HOLES, Edge
from companion.lamps import Lamp
from wiring.profile import DisplaySpec, Profile

from . import priority
from .blinker import Blinker
from .port import Simulator
from .signals import Signals

Sink = Callable[[Edge], None]
PHONES = "phones"           # the display worker's lane for the phones' screens


class Seat:
    """One seat as the session sees it: its number, its hole lamps and its OLED."""

    phone = False           # played on a phone's seat page rather than a panel

    def __init__(self, seat: int, display, holes: int = len(HOLES)):
        self.seat, self.display = seat, display
        self.lamps: list[Lamp] = [Lamp.OFF] * holes

    def set_lamps(self, states, *, again: bool = False) -> None:
        """Show ``states`` (one per hole); lamps already in their state are left alone, unless ``again``: a
        write from another thread may have overtaken this one's last, so every lamp is written."""
        changed = []
        for i, state in enumerate(states):
            if again or self.lamps[i] is not state:
                self.lamps[i] = state
                changed.append(i)
        if changed:
            self._show(changed)

    def _show(self, changed: list[int]) -> None:
        """Make the lamps at these indexes show their new state."""
        raise NotImplementedError


class SeatPanel(Seat):
    """One seat on gpiozero pins: five hole buttons with lamps, the OK button, the seat's OLED."""

    def __init__(self, seat: int, spec, factory, display, clock: Callable[[], float], blinker: Blinker,
                 press_priority: bool = False):
        """``press_priority``: the thread an edge comes on is the pin factory's (a real box's), and runs at the
        press priority; not the simulator's, whose edges come on whichever thread drives its pins."""
        super().__init__(seat, display, len(spec.lamps))
        self.spec, self.factory = spec, factory
        self._clock, self._blinker, self._press_priority = clock, blinker, press_priority
        self._sink: Sink | None = None
        # DigitalInputDevice, not Button: tap/hold is ours, and each Button runs a thread that wakes
        # ten times a second to look for a hold (48 buttons: 480 wake-ups a second, idle).
        self.buttons = {
            name: DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=factory)
            for name, pin in zip(HOLES + ("ok",), spec.holes + (spec.ok,))
        }
        self.leds = [PWMLED(pin, pin_factory=factory) for pin in spec.lamps]
        for name, button in self.buttons.items():
            button.when_activated = self._edge(name, True)
            button.when_deactivated = self._edge(name, False)

    def _edge(self, name: str, pressed: bool):
        def callback():
            if self._press_priority:
                priority.press_thread()
            if self._sink is not None:
                self._sink(Edge(self._clock(), self.seat, name, pressed))
        return callback

    def connect(self, sink: Sink) -> None:
        self._sink = sink

    def _show(self, changed: list[int]) -> None:
        for i in changed:
            self._blinker.show(self.leds[i], self.lamps[i])

    def devices(self) -> list:
        return [*self.buttons.values(), *self.leds]


class Hardware:
    """Every seat and the table display of a backend, the box's signals, and its fault: None, or what is wrong:
    the :class:`~companion.hardware.port.HardwarePort` every backend offers, built in."""

    profile: Profile | None = None          # the wiring profile the backend was opened on
    simulator: Simulator | None = None      # the simulator's powers (the sim backend's only)

    def __init__(self, seats: list[Seat], table, fault: str | None = None, signals: Signals | None = None):
        self.seats, self.table, self.fault = seats, table, fault
        self.signals = signals or Signals()
        self.notes: list[tuple[str, str | None]] = []       # (text, screen): what the host should read
        self._watchers: list[Callable[[str | None], None]] = []
        self._listeners: list[Callable[[str, str | None], None]] = []
        self._notes_lock = threading.Lock()

    @property
    def panels(self) -> list[Seat]:
        """The seats with a panel of buttons (the others are phones: :mod:`companion.hardware.phone`)."""
        return [seat for seat in self.seats if not seat.phone]

    @property
    def phones(self) -> list[Seat]:
        return [seat for seat in self.seats if seat.phone]

    def connect(self, sink: Sink) -> None:
        """Hand the panels' edges to ``sink`` (a phone's come from the web panel)."""
        raise NotImplementedError

    def displays(self) -> dict[str, object]:
        """Display devices by name: ``seat1``..``seatN`` and ``table``."""
        out = {f"seat{s.seat}": s.display for s in self.seats if s.display is not None}
        if self.table is not None:
            out["table"] = self.table
        return out

    def wires(self) -> dict[str, object]:
        """Each display's wire, as the display worker sends on them: the Pi's I2C controller a profile's
        display hangs on (:meth:`~wiring.profile.Profile.controller`); the phones' screens, which have no
        wire, share a lane of their own."""
        specs = self.profile.displays() if self.profile else {}
        return {name: self.profile.controller(specs[name].bus) if name in specs else PHONES
                for name in self.displays()}

    def watch(self, callback: Callable[[str | None], None]) -> None:
        """Call ``callback(fault)`` from any thread whenever the fault changes."""
        self._watchers.append(callback)

    def listen(self, callback: Callable[[str, str | None], None]) -> None:
        """Call ``callback(text, screen)`` from any thread for every note for the host (:class:`companion.table.state.Note`),
        the notes given so far first."""
        with self._notes_lock:
            self._listeners.append(callback)
            notes = list(self.notes)
        for note in notes:
            callback(*note)

    def _note(self, text: str, screen: str | None) -> None:
        with self._notes_lock:
            self.notes.append((text, screen))
            listeners = list(self._listeners)
        for callback in listeners:
            callback(text, screen)

    def _report(self, fault: str | None) -> None:
        self.fault = fault
        for callback in self._watchers:
            callback(fault)

    def close(self) -> None:
        raise NotImplementedError

    def _close_displays(self) -> None:
        """Let go of every display's bus; each keeps its last frame (``persist``)."""
        for display in self.displays().values():
            display.cleanup()


class PinHardware(Hardware):
    """Every panel and display of a profile, on a backend's pin factories and display maker."""

    def __init__(self, profile: Profile, factory_for: Callable[[str], object],
                 make_display: Callable[[DisplaySpec], object], clock: Callable[[], float],
                 press_priority: bool = False):
        self.profile = profile
        self.blinker = Blinker()
        super().__init__([
            SeatPanel(i + 1, spec, factory_for(spec.header),
                      make_display(spec.display) if spec.display else None, clock, self.blinker, press_priority)
            for i, spec in enumerate(profile.seats)
        ], make_display(profile.table) if profile.table else None,
            signals=Signals.on_pins(profile.buzzer, profile.status_led, factory_for("main")))

    def connect(self, sink: Sink) -> None:
        for seat in self.panels:
            seat.connect(sink)

    def close(self) -> None:
        self.blinker.close()
        for seat in self.panels:
            for device in seat.devices():
                device.close()
        self.signals.close()
        self._close_displays()
