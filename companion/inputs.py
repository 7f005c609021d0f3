"""Button edges to gestures: our own debounce and tap/hold, on an injected clock.

gpiozero's bounce handling differs per pin factory (and the mock ignores it), so
pins are opened with ``bounce_time=None`` and every edge comes here with the
time it was seen. A :class:`Control` is pure: times come in, gestures go out, and
the caller asks :meth:`Control.due` when to call back. :class:`Inputs` takes edges on any
thread and ticks on one; each control has a lock of its own, so an edge waits only for its own control.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

DEBOUNCE_S = 0.02
HOLD_S = 1.0


@dataclass(frozen=True)
class Edge:
    """A raw level change of one control, as a backend saw it."""

    time: float
    seat: int
    control: str          # "hole1".."hole5" or "ok"
    pressed: bool
    phone: bool = False   # from a phone's seat page, not a panel's pin
    host: bool = False    # from the host's device (a phone's page on the device that entered the host PIN)


@dataclass(frozen=True)
class Gesture:
    """What a player did: ``tap`` or ``hold`` of one control, and where the press came from (as its first edge)."""

    time: float
    seat: int
    control: str
    kind: str
    phone: bool = False
    host: bool = False


class Control:
    """One button's debouncer and gesture classifier.

    Instant controls (the holes) tap on the press edge, so the lamp answers at
    once; OK taps on release. A control that ``holds`` (OK, and hole 5: a taught
    game's hint) also holds once held ``hold_s``: OK then does not tap.
    """

    def __init__(self, seat: int, name: str, instant: bool, holds: bool,
                 debounce_s: float = DEBOUNCE_S, hold_s: float = HOLD_S):
        self.seat, self.name, self.instant, self.holds = seat, name, instant, holds
        self.debounce_s, self.hold_s = debounce_s, hold_s
        self.level = False          # debounced level
        self.raw = False            # last raw level seen
        self.changed_at = float("-inf")
        self.held_fired = False
        self.origin = (False, False)    # (phone, host) of the edge that began the press
        self.lock = threading.Lock()    # held by Inputs while an edge or a tick uses the control

    def edge(self, time: float, pressed: bool, origin: tuple[bool, bool] = (False, False)) -> list[Gesture]:
        self.raw = pressed
        if pressed:
            self.origin = origin
        if pressed == self.level or time - self.changed_at < self.debounce_s:
            return []
        return self._accept(time, pressed)

    def due(self) -> float | None:
        """When :meth:`tick` has something to do: a settled bounce or a hold."""
        if self.raw != self.level:
            return self.changed_at + self.debounce_s
        if self.holds and self.level and not self.held_fired:
            return self.changed_at + self.hold_s
        return None

    def tick(self, now: float) -> list[Gesture]:
        if self.raw != self.level and now >= self.changed_at + self.debounce_s:
            return self._accept(self.changed_at + self.debounce_s, self.raw)
        if self.holds and self.level and not self.held_fired and now >= self.changed_at + self.hold_s:
            self.held_fired = True
            return [Gesture(self.changed_at + self.hold_s, self.seat, self.name, "hold", *self.origin)]
        return []

    def _accept(self, time: float, pressed: bool) -> list[Gesture]:
        self.level, self.changed_at = pressed, time
        if pressed:
            self.held_fired = False
            return [Gesture(time, self.seat, self.name, "tap", *self.origin)] if self.instant else []
        if not self.instant and not self.held_fired:
            return [Gesture(time, self.seat, self.name, "tap", *self.origin)]
        return []


HOLES = tuple(f"hole{i}" for i in range(1, 6))
CONTROLS = HOLES + ("ok",)
HOLDS = ("ok", "hole5")         # the controls a hold means something on: undo or take back; a hint


class Inputs:
    """Every control of every seat; only those with something due (a bounce to settle, a hold to time) are
    looked at by :meth:`due` and :meth:`tick`, which the loop calls after every pass (48 controls on 8 seats,
    nearly all at rest).

    Edges come on any thread, ticks on the loop's. Each control is used under its own lock, never one for all:
    on one busy core a loop preempted while it ticked one control kept a press of any other waiting for it
    (milliseconds, docs/companion.md)."""

    def __init__(self, seats: int, debounce_s: float = DEBOUNCE_S, hold_s: float = HOLD_S):
        self.controls = {
            (seat, name): Control(seat, name, name != "ok", name in HOLDS, debounce_s, hold_s)
            for seat in range(1, seats + 1) for name in CONTROLS
        }
        self._waiting: set[Control] = set()

    def edge(self, edge: Edge) -> list[Gesture]:
        control = self.controls.get((edge.seat, edge.control))
        if control is None:
            return []
        with control.lock:
            gestures = control.edge(edge.time, edge.pressed, (edge.phone, edge.host))
            self._wait(control)
        return gestures

    def due(self) -> float | None:
        times = []
        for control in tuple(self._waiting):
            with control.lock:
                times.append(control.due())
        return min((t for t in times if t is not None), default=None)

    def tick(self, now: float) -> list[Gesture]:
        out: list[Gesture] = []
        for control in tuple(self._waiting):
            with control.lock:
                out += control.tick(now)
                self._wait(control)
        return sorted(out, key=lambda g: (g.time, g.seat, g.control))

    def _wait(self, control: Control) -> None:
        """Under the control's lock: whether the loop must look at it again."""
        if control.due() is None:
            self._waiting.discard(control)
        else:
            self._waiting.add(control)
