"""Seats played on phones: a seat with no panel, played from its seat page (docs/web.md).

A phone seat has lamps that are only states (the seat page draws them) and an OLED that is a luma
``dummy`` device the display worker draws into like any other. Its presses come from the web
panel as :class:`~companion.inputs.Edge`\\ s marked ``phone``, stamped on the box's clock, so they
are debounced and told tap from hold exactly as a finger on a panel is.
"""
from __future__ import annotations

from luma.core.device import dummy

from .panel import Hardware, Seat

WIDTH, HEIGHT = 128, 64
DRIVER = "ssd1306"              # the panel the simulator draws a phone seat's OLED as, at real size


class PhonePanel(Seat):
    phone = True

    def __init__(self, seat: int):
        screen = dummy(width=WIDTH, height=HEIGHT, mode="1")
        screen.persist = True
        super().__init__(seat, screen)

    def _show(self, changed: list[int]) -> None:
        """Nothing to light: the lamps' states are read by the seat page's stream."""


def add_phones(hardware: Hardware, count: int) -> None:
    """Seat ``count`` phones after the hardware's panels."""
    first = len(hardware.seats) + 1
    hardware.seats += [PhonePanel(seat) for seat in range(first, first + count)]
