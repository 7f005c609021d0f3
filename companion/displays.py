"""The display worker: renders frames off the session loop and sends only changed ones.

The session loop hands in *what* to draw (a render function and its view); the
worker draws it, compares the pixels with what the device already shows, and
sends a frame only when they differ, at most ``max_fps`` per display. The
newest request for a display replaces an older one still waiting, so a slow
I2C bus never queues up stale frames.

Whose frame goes first, when several wait: one that has waited ``WAIT_S``
(so no display, the table's least of all, is starved); then the screen of a
seat that has just pressed (marked ``first``, and free of the rate cap: the
player is looking at it); then the table display, which everyone watches;
then the others, longest waiting first. At a reveal every display changes: the
seat whose OK made it, then the table, then the other seats (docs/companion.md
says why, with the figures). A free-running render loop in the same process is
what wrecks button latency (the GIL), so this worker sleeps unless there is
something new to draw.

Displays on different wires (``wires``: each display's I2C controller, as
:meth:`wiring.profile.Profile.controller` gives it) are served at once, one
sender thread per wire, each choosing among its own wire's displays as above:
a wire carries one transfer at a time, two wires carry two.

Frames are drawn by ``paint`` (:mod:`companion.painter`: on the sender's
thread, or in the service's render process, off the session's GIL).

One display's failure stays on that display: a frame that raises while it is
drawn or sent is replaced there by ``fault_frame(name)``, reported once
through ``on_fault`` until that display draws again, and every other display
goes on.
"""
from __future__ import annotations

import threading
import time
from typing import Callable

from .painter import draw

STUCK_S = 10.0          # one frame taking longer than this means the worker is hung (an I2C write that never ends)
WAIT_S = 0.1            # a frame waiting this long goes before any other that has waited less
TABLE = "table"


class DisplayWorker:
    def __init__(self, devices: dict[str, object], max_fps: float = 30.0,
                 on_frame: Callable[[str, object], None] | None = None,
                 on_fault: Callable[[str, Callable, tuple, BaseException], None] | None = None,
                 fault_frame: Callable[[str], object] | None = None, paint: Callable = draw,
                 wires: dict[str, object] | None = None):
        self.devices, self.paint = devices, paint
        self._wire = {name: (wires or {}).get(name) for name in devices}      # None: the one wire of the rest
        self.interval = 1.0 / max_fps
        self.on_frame, self.on_fault, self.fault_frame = on_frame, on_fault, fault_frame
        self.frames: dict[str, object] = {}
        self._pixels: dict[str, bytes] = {}     # each frame's pixels, as sent: a new frame is compared with them
        self.failing: set[str] = set()          # displays whose last frame failed
        self._wanted: dict[str, tuple] = {}
        self._since: dict[str, float] = {}      # when each display's oldest unsent request came
        self._first: dict[str, float] = {}      # seats that pressed, and when
        self._covers: dict[str, object] = {}    # display -> the frame its device shows instead of what is drawn
        self._repaint: set[str] = set()         # displays whose device must be sent its frame again
        self._sent_at: dict[str, float] = {}
        self._busy: dict[object, float] = {}    # wire -> since when its sender has been on one frame
        self._painting: set[object] = set()     # wires whose sender is in ``paint`` (not sending)
        self.stuck_s = STUCK_S
        self._cond = threading.Condition()
        self._stopped = False
        self._threads = [threading.Thread(target=self._run, args=(wire,), name=f"displays {wire}", daemon=True)
                         for wire in dict.fromkeys(self._wire.values())] or \
                        [threading.Thread(target=self._run, args=(None,), name="displays", daemon=True)]
        for thread in self._threads:
            thread.start()

    def submit(self, name: str, render: Callable, *args) -> None:
        """Draw ``render(*args)`` on ``name``."""
        self.submit_all([(name, render, args, False)])

    def submit_all(self, requests: list[tuple[str, Callable, tuple, bool]]) -> None:
        """One refresh's frames at once, so the worker chooses among all of them: (name, render, args,
        first), ``first`` when the display's seat just pressed."""
        with self._cond:
            now = time.monotonic()
            for name, render, args, first in requests:
                if name not in self.devices:
                    continue
                self._wanted[name] = (render, args)
                self._since.setdefault(name, now)
                if first:
                    self._first.setdefault(name, now)
            self._cond.notify_all()

    def cover(self, name: str, image) -> None:
        """Show ``image`` on the display's device instead of its frames (None: its frames again). The frames
        are still drawn, kept and handed on: a panel seat played on a phone shows them there alone."""
        if self._covers.get(name) is image or name not in self.devices:     # as it is (only the loop sets covers)
            return
        with self._cond:
            if image is None:
                self._covers.pop(name, None)
            else:
                self._covers[name] = image
            if name in self.frames:                 # the device shows the change now, not at the next frame
                self._repaint.add(name)
                self._wanted.setdefault(name, (None, ()))       # None: the frame it has
                self._since.setdefault(name, time.monotonic())
                self._cond.notify_all()

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until every requested frame has been drawn and sent."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (self._wanted or self._busy) and time.monotonic() < deadline:
                self._cond.wait(0.01)

    def health(self) -> str | None:
        """None while frames flow, else what is wrong: the worker died, or one frame has hung it (not one that a
        render process is still drawing, starved of CPU by a busy box: :meth:`RenderProcess.working`)."""
        if not self._stopped and not all(thread.is_alive() for thread in self._threads):
            return "the display worker has stopped"
        now, starved = time.monotonic(), getattr(self.paint, "working", lambda: False)()
        for wire, since in list(self._busy.items()):
            if now - since > self.stuck_s and not (starved and wire in self._painting):
                return f"one frame has been drawing for {now - since:.0f} s"
        return None

    def close(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        for thread in self._threads:
            thread.join(timeout=2)
        if hasattr(self.paint, "close"):
            self.paint.close()

    def _next(self, wire) -> tuple[str, tuple] | None:
        now = time.monotonic()
        ready = [n for n in self._wanted if self._wire[n] == wire and
                 (n in self._first or now - self._sent_at.get(n, 0.0) >= self.interval)]
        if not ready:
            return None
        name = min(ready, key=lambda n: self._rank(n, now))
        del self._since[name]
        self._first.pop(name, None)
        return name, self._wanted.pop(name)

    def _free_in(self, wire) -> float | None:
        """Seconds until the first display waiting on ``wire`` is free of the rate cap; None when none waits."""
        waiting = [n for n in self._wanted if self._wire[n] == wire]
        if not waiting:
            return None
        now = time.monotonic()
        return max(0.001, min(self._sent_at.get(n, 0.0) + self.interval - now for n in waiting))

    def _rank(self, name: str, now: float) -> tuple[int, float, int]:
        """Frames that waited ``WAIT_S`` first, oldest first; then the seat that pressed, the table, the rest. Among
        frames asked for together (a reveal's), the order holds however long they waited: on a busy machine every
        one of them may have waited ``WAIT_S`` by the time the first is sent."""
        since = self._since[name]
        order = 1 if name in self._first else 2 if name == TABLE else 3
        if now - since >= WAIT_S:
            return 0, since, order
        return order, self._first.get(name, since), 0

    def _run(self, wire) -> None:
        """One wire's sender: its displays' frames, one at a time."""
        while True:
            with self._cond:
                self._busy.pop(wire, None)
                self._cond.notify_all()
                job = None
                while not self._stopped and (job := self._next(wire)) is None:
                    self._cond.wait(self._free_in(wire))
                if self._stopped:
                    return
                self._busy[wire] = time.monotonic()
            name, (render, args) = job
            self._sent_at[name] = time.monotonic()
            try:
                self._send(name, self.frames[name] if render is None else self._painted(wire, render, args))
            except Exception as exc:            # a renderer's bug, or a device that raises what it should not
                self._failed(name, render, args, exc)
            else:
                self.failing.discard(name)

    def _painted(self, wire, render: Callable, args: tuple):
        self._painting.add(wire)
        try:
            return self.paint(render, args)
        finally:
            self._painting.discard(wire)

    def _send(self, name: str, image) -> None:
        pixels = image.tobytes()
        changed = self._pixels.get(name) != pixels
        if not changed and name not in self._repaint:
            return
        self._repaint.discard(name)
        self.devices[name].display(self._covers.get(name) or image)
        self.frames[name], self._pixels[name] = image, pixels
        if changed and self.on_frame is not None:
            self.on_frame(name, image)

    def _failed(self, name: str, render: Callable, args: tuple, exc: Exception) -> None:
        """Show the fault frame on that display alone, and report the first failure of a run of them."""
        if name not in self.failing:
            self.failing.add(name)
            if self.on_fault is not None:
                self.on_fault(name, render, args, exc)
        if self.fault_frame is not None:
            try:
                self._send(name, self.fault_frame(name))
            except Exception:                   # the device itself is broken: it keeps what it shows
                pass
