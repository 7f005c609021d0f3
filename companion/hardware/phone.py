"""Seats played on phones: a seat with no panel, pressed from its seat page (docs/web.md).

A phone seat is an input source like a panel: its presses become :class:`~companion.inputs.Edge`\\ s
handed to the session's sink, stamped on the box's clock, so they are debounced and told tap from
hold exactly as a finger on a panel is. Its lamps are only states (the seat page draws them) and
its OLED is a luma ``dummy`` device the display worker draws into like any other.
"""
from __future__ import annotations

from typing import Callable

from luma.core.device import dummy

from companion.inputs import CONTROLS, Edge

from .panel import Hardware, Sink, Seat

WIDTH, HEIGHT = 128, 64
DRIVER = "ssd1306"              # the panel a phone's real-size view is drawn as


class PhoneSeat(Seat):
    phone = True

    def __init__(self, seat: int, clock: Callable[[], float]):
        screen = dummy(width=WIDTH, height=HEIGHT, mode="1")
        screen.persist = True
        super().__init__(seat, screen)
        self._clock = clock
        self._sink: Sink | None = None

    def connect(self, sink: Sink) -> None:
        self._sink = sink

    def press(self, control: str, pressed: bool) -> None:
        """A control of this seat's page went down or up."""
        if control not in CONTROLS:
            raise ValueError(f"unknown control {control!r}")
        if self._sink is not None:
            self._sink(Edge(self._clock(), self.seat, control, pressed))

    def _show(self, changed: list[int]) -> None:
        """Nothing to light: the lamps' states are read by the seat page's stream."""


def add_phones(hardware: Hardware, count: int, clock: Callable[[], float]) -> None:
    """Seat ``count`` phones after the hardware's panels."""
    first = len(hardware.seats) + 1
    hardware.seats += [PhoneSeat(seat, clock) for seat in range(first, first + count)]
