"""The box's lamps and displays, kept in line with the scene: the lamps at once, each display only when it changed.

What each shows is :mod:`companion.screens`' to say; here it is put on the hardware: the seats'
own lamps under the flashes of :mod:`companion.overlays`, and each display's frame handed to the
display worker (which draws it off the session loop) only when what it should show has changed.
Whoever listens (the web's hub) hears each change of the lamps and each new frame.
"""
from __future__ import annotations

import threading
from collections.abc import Iterable

from . import overlays, screens
from .displays import DisplayWorker
from .painter import draw
from .publisher import Publisher
from .render import fault as fault_screen, lobby as lobby_screens


class Outputs:
    def __init__(self, hardware, news: Publisher, on_fault, paint=draw):
        self.hw, self.news = hardware, news
        self._overlays = overlays.Overlays()
        self._lamps = threading.Lock()          # a press flips a seat's lamps on its edge's thread, the loop sets them
        self._flipped: dict[int, object] = {}   # by seat, the gesture whose flip the seat's flash began with
        self.displays = DisplayWorker(hardware.displays(), on_frame=lambda name, image: news.send("frame", (name, image)),
                                      on_fault=on_fault, fault_frame=fault_screen.broken, paint=paint,
                                      wires=hardware.wires())
        self._shown: dict[str, tuple] = {}
        self._away: dict[int, object] = {}      # a panel's "played on a phone" frame, by seat

    def show(self, scene: screens.Scene, pressed: Iterable[int] = ()) -> None:
        """Lamps and displays as the scene has them; unchanged screens are not redrawn, and the
        screens of the seats that ``pressed`` since the last show go first. A panel whose seat is played
        on a phone says so on its OLED; its seat's screen goes to the phone alone."""
        self.set_lamps(scene)
        for panel in self.hw.panels:
            away = panel.seat in scene.phones
            if away and panel.seat not in self._away:
                self._away[panel.seat] = lobby_screens.on_phone(panel.seat)
            self.displays.cover(f"seat{panel.seat}", self._away.get(panel.seat) if away else None)
        first = {f"seat{seat}" for seat in pressed}
        changed = []
        for name, (render, *args) in screens.screens(scene).items():
            if self._shown.get(name) != (render, *args):
                self._shown[name] = (render, *args)
                changed.append((name, render, tuple(args), name in first))
        self.displays.submit_all(changed)

    def set_lamps(self, scene: screens.Scene) -> None:
        for panel in self.hw.seats:
            own = screens.lamps(scene, panel.seat)      # worked out before the lamps are held: a press may wait on them
            with self._lamps:
                panel.set_lamps(self._overlays.showing(panel.seat) or own)
        if self.news.listeners:
            self.news.send("lamps", self.lamps())

    def flip(self, gesture, now: float) -> None:
        """A press shown, on any thread: every lamp of its seat flips (an acknowledgement, or the start of a
        refusal: the loop says which); unless a later press of the seat has been answered already."""
        panel = self.hw.seats[gesture.seat - 1]
        with self._lamps:
            if (latest := self._flipped.get(gesture.seat)) is not None and latest.time > gesture.time:
                return
            steps = overlays.acknowledged(tuple(panel.lamps))
            self._overlays.start(gesture.seat, steps, now)
            self._flipped[gesture.seat] = gesture
            panel.set_lamps(steps[0][0])

    def refuse(self, gesture, now: float) -> None:
        """The table refused ``gesture``: its seat's lamps flash fast once its flip ends (unless a later press
        has flipped them since: that one's answer shows)."""
        panel = self.hw.seats[gesture.seat - 1]
        with self._lamps:
            if self._flipped.get(gesture.seat) is gesture:
                self._overlays.then(gesture.seat, overlays.refused(len(panel.lamps)), now)

    def flash_ends(self, seat: int) -> list[float]:
        """When each step of the seat's flash ends."""
        with self._lamps:
            return self._overlays.ends(seat)

    def expire_flash(self, seat: int, now: float) -> bool:
        """Drop the steps of the seat's flash that have ended; True when its lamps are to change."""
        with self._lamps:
            return self._overlays.expire(seat, now)

    def lamps(self) -> dict[str, list[str]]:
        """Each seat's lamps as they are lit now, in lists made for this call (a listener may keep them)."""
        return {f"seat{p.seat}": [lamp.value for lamp in p.lamps] for p in self.hw.seats}

    def names(self) -> list[str]:
        return list(self.hw.displays())

    def rendered(self, name: str):
        """The frame last drawn for a display (None before its first): what its glass shows but the PIN."""
        return self.displays.frames.get(name)

    def glass(self, name: str):
        """A display's own pixels (the table's carry the host PIN)."""
        return self.hw.displays()[name].image

    def part(self) -> None:
        """Leave the parting screen on every display (the service is stopping)."""
        for name in self.hw.displays():
            self.displays.submit(name, fault_screen.parting)
        self.displays.flush()

    def close(self) -> None:
        self.displays.close()
        self.hw.close()
