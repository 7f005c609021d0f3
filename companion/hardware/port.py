"""What the session drives, declared: :class:`HardwarePort`, which every backend offers (``sim``, ``gpio``,
``ioboard``), and :class:`Simulator`, the powers of the simulated one alone.

``tests/contract/test_backends.py`` holds every backend to them, name for name and parameter for parameter.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Protocol, runtime_checkable

from companion.inputs import Edge
from wiring.profile import Profile

from .signals import Signals


@runtime_checkable
class Simulator(Protocol):
    """What the simulator page (and ``molebox run --frames``) may do that a real box never can."""

    def drive(self, seat: int, control: str, pressed: bool) -> None:
        """Press or let go of a seat's button as a finger would (its pin, as the hardware reads it)."""

    def glass(self) -> dict[str, tuple[float, float]]:
        """Each display's lit area in mm, to draw it at its real size."""

    def record_frames(self, directory: Path) -> None:
        """Keep each display's latest frame as ``directory/NAME.png``."""


@runtime_checkable
class HardwarePort(Protocol):
    """Every seat and the table display of a backend, the box's signals, and its fault: None, or what is wrong."""

    profile: Profile | None             # the wiring profile the backend was opened on
    simulator: Simulator | None         # the sim backend's powers, else None
    seats: list                         # each seat's lamps and display (:class:`~companion.hardware.panel.Seat`)
    table: object | None                # the table display's device
    fault: str | None
    signals: Signals                    # the buzzer and the status LED

    @property
    def panels(self) -> list:
        """The seats with a panel of buttons (the others are phones)."""

    @property
    def phones(self) -> list:
        """The seats played on a phone's page."""

    def connect(self, sink: Callable[[Edge], None]) -> None:
        """Hand the panels' edges to ``sink``, on whichever thread sees them."""

    def displays(self) -> dict[str, object]:
        """Display devices by name: ``seat1``..``seatN`` and ``table``."""

    def wires(self) -> dict[str, object]:
        """Each display's wire, as the display worker sends on them."""

    def watch(self, callback: Callable[[str | None], None]) -> None:
        """Call ``callback(fault)`` from any thread whenever the fault changes."""

    def listen(self, callback: Callable[[str, str | None], None]) -> None:
        """Call ``callback(text, screen)`` from any thread for every note for the host, those so far first."""

    def close(self) -> None:
        """Let go of every pin, port and bus; each display keeps its last frame."""
