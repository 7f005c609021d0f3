"""Each display's screen handed to the display worker, only when it changed; the pressing seat's first.

What each display shows is :mod:`companion.scene`'s to say; here it goes to the display worker
(:mod:`companion.displays`, which draws off the session loop and sends changed frames only). A panel
whose seat is played on a phone says so on its own screen; its seat's screen goes to the phone
alone. Seat 1's screen shows the host PIN for a while when asked (a box with no table display).
Whoever listens hears each screen asked of a display (its drawing and arguments) and each new frame.
"""
from __future__ import annotations

from typing import Callable

from ..displays import DisplayWorker
from ..painter import draw
from ..feed import Feed
from ..render import fault as fault_screen, lobby as lobby_screens

PARTING_S = 10.0        # the parting screen may take this long to reach every display (the unit's TimeoutStopSec is 15)
HOST_PIN_S = 20.0       # seat 1's screen shows the host PIN this long when asked in the lobby (hold OK)


class Screens:
    def __init__(self, hardware, feed: Feed, *, on_fault, paint=draw):
        """``on_fault``: a display's frame failed (the worker's thread); ``paint``: where frames are drawn."""
        self.hw, self.feed = hardware, feed
        self.worker = DisplayWorker(hardware.displays(), on_frame=lambda name, image: feed.send("frame", (name, image)),
                                    on_fault=on_fault, fault_frame=fault_screen.broken, paint=paint,
                                    wires=hardware.wires())
        self._shown: dict[str, tuple] = {}
        self._away: dict[int, object] = {}      # a panel's "played on a phone" frame, by seat
        self._pressed: set[int] = set()         # seats that pressed since the last show: their screens first
        displays = hardware.displays()
        self._host_pin_glass = next((glass for glass in (displays.get("table"), displays.get("seat1"))
                                     if hasattr(glass, "reveal")), None)

    @property
    def host_pin_on_request(self) -> bool:
        """Whether the box shows the host PIN and its QR code when seat 1 asks (a LAN box's glass)."""
        return self._host_pin_glass is not None

    def pressed(self, seat: int) -> None:
        """The seat pressed: its screen goes first at the next show (its player is looking at it)."""
        self._pressed.add(seat)

    def show_host_pin(self, now: float, after: Callable) -> None:
        """The table display (or seat 1's screen) shows the host PIN and its QR code for :data:`HOST_PIN_S` (the
        loop's timers end it)."""
        if self._host_pin_glass is not None:
            self._host_pin_glass.reveal(True)
            after(now + HOST_PIN_S, lambda now: self._host_pin_glass.reveal(False))

    def show(self, shown: dict[str, tuple | None], phones: frozenset[int]) -> None:
        """Each display's ``(render, *args)`` as ``shown`` has them (None: as it is); unchanged ones are not drawn
        again, and the screens of the seats that pressed since the last show go first. A panel whose seat is in ``phones``
        says it is played on a phone."""
        pressed, self._pressed = self._pressed, set()
        for panel in self.hw.panels:
            away = panel.seat in phones
            if away and panel.seat not in self._away:
                self._away[panel.seat] = lobby_screens.on_phone(panel.seat)
            self.worker.cover(f"seat{panel.seat}", self._away.get(panel.seat) if away else None)
        first = {f"seat{seat}" for seat in pressed}
        changed = []
        for name, screen in shown.items():
            if screen is None:                  # it keeps what it shows
                continue
            render, *args = screen
            if self._shown.get(name) != (render, *args):
                self._shown[name] = (render, *args)
                changed.append((name, render, tuple(args), name in first))
        self.worker.submit_all(changed)
        if self.feed.listeners:
            for name, render, args, _ in changed:
                self.feed.send("screen", (name, render, args))

    # ---- read by the web panel, the scripts and the tests ----

    def names(self) -> list[str]:
        return list(self.hw.displays())

    def screen(self, name: str) -> tuple | None:
        """What a display was last asked to show: its drawing and the drawing's arguments (None before the first)."""
        return self._shown.get(name)

    def rendered(self, name: str):
        """The frame last drawn for a display (None before its first): what its glass shows but the host PIN."""
        return self.worker.frames.get(name)

    def glass(self, name: str):
        """A display's own pixels (the table display's carry the host PIN)."""
        return self.hw.displays()[name].image

    def part(self) -> None:
        """Leave the parting screen on every display (the service is stopping)."""
        for name in self.hw.displays():
            self.worker.submit(name, fault_screen.parting)
        self.worker.flush(timeout=PARTING_S)         # a slow machine may still be drawing the game's last frames

    def close(self) -> None:
        self.worker.close()
