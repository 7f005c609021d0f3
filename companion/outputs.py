"""The box's lamps, displays and sounds, kept in line with the scene: the lamps at once, each display only when
it changed.

What each shows is :mod:`companion.screens`' to say; here it is put on the hardware: a press
answered on its seat's lamps (a hole's at once, on its edge's thread; an OK's once its decision is
on disk), the seats' own lamps under the flashes of :mod:`companion.overlays` (timed on the loop's
timers, handed in), each display's frame handed to the display worker (which draws it off the
session loop) only when what it should show has changed, the host PIN on seat 1's OLED on request,
and the table's moments on the buzzer. Whoever listens (the web's hub) hears each change of the
lamps, each screen asked of a display (its drawing and arguments: the hub describes it) and each new frame.
"""
from __future__ import annotations

import threading
from typing import Callable

from . import overlays, screens
from .displays import DisplayWorker
from .entry import Refuse, Saving, ShowPin
from .inputs import Gesture
from .painter import draw
from .publisher import Publisher
from .render import fault as fault_screen, lobby as lobby_screens

PARTING_S = 10.0        # the parting screen may take this long to reach every display (the unit's TimeoutStopSec is 15)
PIN_S = 20.0            # seat 1's OLED shows the host PIN this long when asked in the lobby (hold OK)


def may_commit(g: Gesture) -> bool:
    """An OK may commit a decision, so its lamps flip once that is on disk; a hole only drafts."""
    return g.control == "ok"


class Outputs:
    def __init__(self, hardware, news: Publisher, *, clock: Callable[[], float], after: Callable,
                 redraw: Callable[[], None], on_fault, paint=draw):
        """``after``: the loop's timers (a flash's steps end on them); ``redraw``: ask the loop for a new scene
        (the frames of virtual dice tumbling); ``on_fault``: a display's frame failed (the worker's thread)."""
        self.hw, self.news, self.clock, self.after, self.redraw = hardware, news, clock, after, redraw
        self._overlays = overlays.Overlays()
        # by seat, held to decide what its lamps show, never while they are written: one lock a seat, so a press
        # never waits for the loop deciding another seat's
        self._lamps = {seat.seat: threading.Lock() for seat in hardware.seats}
        self._flipped: dict[int, Gesture] = {}  # by seat, the gesture whose flip the seat's flash began with
        self._own: dict[int, tuple] = {}        # by seat, its own lamps as the last scene had them
        self._decided: dict[int, tuple[int, tuple]] = {}    # by seat, its lamps' latest decision: (its number, lamps)
        self.displays = DisplayWorker(hardware.displays(), on_frame=lambda name, image: news.send("frame", (name, image)),
                                      on_fault=on_fault, fault_frame=fault_screen.broken, paint=paint,
                                      wires=hardware.wires())
        self._shown: dict[str, tuple] = {}
        self._away: dict[int, object] = {}      # a panel's "played on a phone" frame, by seat
        self._pressed: set[int] = set()         # seats that pressed since the last show: their screens first
        seat1 = hardware.displays().get("seat1")
        self._pin_glass = seat1 if getattr(seat1, "on_request", False) else None

    @property
    def pin_on_request(self) -> bool:
        """Whether seat 1's OLED shows the host PIN when asked (a LAN box with no table display)."""
        return self._pin_glass is not None

    # ---- a press answered ----

    def answer_now(self, g: Gesture) -> None:
        """On the press's own thread, before the loop takes it: a hole's press flips its seat's lamps now."""
        if not may_commit(g):
            self._flip(g, self.clock())

    def answer(self, g: Gesture, outcome) -> None:
        """On the loop, once the table has the press: an OK's flip once its decision is on disk (until then the press
        is Saving, and it comes back here when it lands); a refusal's blink (its reason is on the seat's OLED); the
        host PIN shown on request; the flash's steps timed."""
        self._pressed.add(g.seat)
        if isinstance(outcome, Saving):
            return
        now = self.clock()
        if may_commit(g):
            self._flip(g, now)
        if isinstance(outcome, Refuse):
            self._refuse(g, now)
        elif isinstance(outcome, ShowPin) and self._pin_glass is not None:
            self._pin_glass.reveal(True)
            self.after(now + PIN_S, lambda now: self._pin_glass.reveal(False))
        with self._lamps[g.seat]:
            ends = self._overlays.ends(g.seat)
        for end in ends:
            self.after(end, lambda now, seat=g.seat: self._expire(seat, now))

    def moments(self, moments: list[str]) -> None:
        """Moments the whole table shares: virtual dice tumble on the table display (a frame at each step), a
        reveal and the end sound on the buzzer."""
        for moment in moments:
            if moment == "roll":
                now = self.clock()
                for frame in range(1, screens.ROLL_FRAMES + 1):
                    self.after(now + frame * screens.ROLL_S / screens.ROLL_FRAMES, lambda now: self.redraw())
            else:
                self.hw.signals.beep(moment)

    # ---- the scene shown ----

    def show(self, scene: screens.Scene) -> None:
        """Lamps and displays as the scene has them; unchanged screens are not redrawn, and the
        screens of the seats that pressed since the last show go first. A panel whose seat is played
        on a phone says so on its OLED; its seat's screen goes to the phone alone. A seat whose decision
        is on its way to the disk keeps its own lamps as they were: they answer it once it is there
        (unless play is paused, which every screen says)."""
        pressed, self._pressed = self._pressed, set()
        held = () if scene.storage_fault or scene.hardware_fault else scene.saving
        self.set_lamps(scene, held)
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
        if self.news.listeners:
            for name, render, args, _ in changed:
                self.news.send("screen", (name, render, args))

    def set_lamps(self, scene: screens.Scene, held=()) -> None:
        """Each seat's own lamps as the scene has them (under any flash), but the ``held`` seats'."""
        for panel in self.hw.seats:
            if panel.seat in held:
                continue
            own = screens.lamps(scene, panel.seat)      # worked out before the lamps are held: a press may wait on them
            if self._own.get(panel.seat) == own:        # as shown (a flash shows over it, and ends on it)
                continue
            with self._lamps[panel.seat]:
                self._own[panel.seat] = own
                decision = self._decide(panel)
            self._write(panel, decision)
        self._lamps_changed()

    def _showing(self, panel) -> tuple:
        """Under the seat's lock: what the seat's lamps show as decided now, its flash's step, else its own lamps."""
        return self._overlays.showing(panel.seat) or self._own.get(panel.seat, tuple(panel.lamps))

    def _decide(self, panel) -> tuple[int, tuple]:
        """Under the seat's lock: the seat's lamps decided again, numbered."""
        self._decided[panel.seat] = decision = (self._decided.get(panel.seat, (0,))[0] + 1, self._showing(panel))
        return decision

    def _write(self, panel, decision: tuple[int, tuple]) -> None:
        """A decision of the seat's lamps written, outside the lock: a press never waits for the loop to write a
        seat's lamps (on one busy core the loop, preempted while it wrote, waited milliseconds for the CPU
        again). Two threads' writes may cross, so whoever finds that a later decision was made while it
        wrote writes that one again, whole: its own writer may have finished first and been written over."""
        panel.set_lamps(decision[1])
        while True:
            with self._lamps[panel.seat]:
                latest = self._decided[panel.seat]
            if latest[0] == decision[0]:
                return
            decision = latest
            panel.set_lamps(decision[1], again=True)

    def _lamps_changed(self) -> None:
        if self.news.listeners:
            self.news.send("lamps", self.lamps())

    def _flip(self, gesture: Gesture, now: float) -> None:
        """A press shown, on any thread: every lamp of its seat flips (an acknowledgement, or the start of a
        refusal: the loop says which); unless a later press of the seat has been answered already."""
        panel = self.hw.seats[gesture.seat - 1]
        with self._lamps[panel.seat]:
            if (latest := self._flipped.get(gesture.seat)) is not None and latest.time > gesture.time:
                return
            self._overlays.start(gesture.seat, overlays.acknowledged(self._showing(panel)), now)
            self._flipped[gesture.seat] = gesture
            decision = self._decide(panel)
        self._write(panel, decision)

    def _refuse(self, gesture: Gesture, now: float) -> None:
        """The table refused ``gesture``: its seat's lamps flash fast once its flip ends (unless a later press
        has flipped them since: that one's answer shows)."""
        panel = self.hw.seats[gesture.seat - 1]
        with self._lamps[panel.seat]:
            if self._flipped.get(gesture.seat) is gesture:
                self._overlays.then(gesture.seat, overlays.refused(len(panel.lamps)), now)

    def _expire(self, seat: int, now: float) -> None:
        """A step of the seat's flash has ended: its lamps show the next step, or its own lamps again."""
        panel = self.hw.seats[seat - 1]
        with self._lamps[seat]:
            if not self._overlays.expire(seat, now):
                return
            decision = self._decide(panel)
        self._write(panel, decision)
        self._lamps_changed()

    def lamps(self) -> dict[str, list[str]]:
        """Each seat's lamps as they are lit now, in lists made for this call (a listener may keep them)."""
        return {f"seat{p.seat}": [lamp.value for lamp in p.lamps] for p in self.hw.seats}

    def names(self) -> list[str]:
        return list(self.hw.displays())

    def screen(self, name: str) -> tuple | None:
        """What a display was last asked to show: its drawing and the drawing's arguments (None before the first)."""
        return self._shown.get(name)

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
        self.displays.flush(timeout=PARTING_S)         # a slow machine may still be drawing the game's last frames

    def close(self) -> None:
        self.displays.close()
        self.hw.close()
