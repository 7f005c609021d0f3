"""Where the display worker draws its frames: on its own thread, or in a render process.

A frame is a pure function of its view, but drawing it is CPU work that holds the GIL. Drawn in the
session's process, a frame being drawn when a press comes delays that press's lamps until the drawing
thread lets go (in `make bench`, 40% of the slowest 2% of presses came during a draw). The service
draws in a :class:`RenderProcess`: the worker sends the render function (pickled by its name) and its
arguments, and waits, without the GIL, for the frame's pixels.

A new process first loads every game's screens and measures the letters they draw with, and says when
it is ready: on a slow machine that is seconds (tens under the system test's emulation), and no frame
waits for it: until then the worker draws its frames on its own thread, as it would without a process.

A render that raises in the process raises here as the same exception, with where it happened in the
process as a note (:func:`companion.bugs.where` prints it). A process that dies (killed, out of
memory) or stalls (stopped by SIGSTOP; swapped out or asleep: a frame not back, and no CPU had, for
seconds) is replaced, and the frame is drawn on the worker's thread; if the new one fails too before it
has drawn a frame (or a process will not start), the box draws on the display worker's thread from then
on: the screens stay right, only the presses lose the GIL headroom. One that runs but is slow, starved of
CPU by a busy box, is waited for, as long as it takes. Each of these is said in the log and to the watchers
of :meth:`~RenderProcess.watch` (the session's notes for the host).
"""
from __future__ import annotations

import logging
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Callable

from PIL import Image

log = logging.getLogger("molebox.painter")
NICE = 19           # the process's CPU priority below the box's: a press's lamps go before a frame
STALL_S = 1.5       # a frame not back this long from a stopped process (SIGSTOP): it is replaced
READY = b"ready"    # what a process says once it has warmed up
SLOW_S = 5.0        # a frame not back, and no CPU had by the process, this long (asleep, swapped out): replaced;
                    # below the display worker's STUCK_S, so the watchdog never has to restart the box for it.
                    # One that runs is starved of CPU by a busy box, and waited for


class Stalled(OSError):
    """The render process did not answer in time."""


def _state(pid: int) -> tuple[bool, int | None]:
    """Whether the process is stopped (SIGSTOP) or traced, and the clock ticks of CPU it has had, as /proc says
    (False and None where it cannot tell)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rpartition(b")")[2].split()
        return fields[0] in (b"T", b"t"), int(fields[11]) + int(fields[12])
    except (OSError, IndexError, ValueError):
        return False, None


def draw(render: Callable, args: tuple) -> Image.Image:
    """Draw on the caller's thread (scripts and tests)."""
    return render(*args)


class RenderProcess:
    """A child process that draws frames: call it as :func:`draw`. It is a plain ``python -m
    companion.painter`` on one end of a socket pair (no multiprocessing start method: a spawned one
    brings its resource tracker, a third interpreter, and a forked one would copy a process that
    runs threads). ``process`` is None once the box draws on its own thread instead."""

    def __init__(self, nice: int = NICE):
        self.nice = nice                # how much below the box the process runs (os.nice); the tests' is 0
        self._lock = threading.Lock()
        self.process: subprocess.Popen | None = None
        self._watchers: list[Callable[[str], None]] = []
        self._failed = 0                # processes lost in a row without drawing a frame
        self._ran: float | None = None  # while a frame is on its way: when the process was last seen having CPU
        self._start()

    def watch(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(text)`` (on the drawing thread) when the process is replaced or given up, with
        what happened in words for the host."""
        self._watchers.append(callback)

    def _say(self, text: str) -> None:
        for callback in self._watchers:
            callback(text)

    def _start(self) -> None:
        ours, theirs = socket.socketpair()
        try:
            self.process = subprocess.Popen([sys.executable, "-m", __name__, str(theirs.fileno()), str(self.nice)],
                                            pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        except OSError:
            ours.close()
            raise
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())
        self._warm = False

    def warmed(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the process to be ready to draw (the bench and the tests time
        frames drawn there); whether it is."""
        with self._lock:
            return self._ready(timeout)

    def __call__(self, render: Callable, args: tuple) -> Image.Image:
        job = pickle.dumps((render, args))          # a render that cannot be pickled raises here, nothing sent
        with self._lock:
            answer = self._ask(job) if self._ready(0) else None
        if answer is None:
            return draw(render, args)
        kind, payload = answer
        if kind == "frame":
            mode, size, data, info = payload
            image = Image.frombytes(mode, size, data)
            image.info.update(info)                 # what the screen says of itself (a join screen's seat)
            return image
        exc, where = payload
        exc.add_note(where)
        raise exc

    def _ready(self, timeout: float) -> bool:
        """Whether the process has said it is ready, waiting up to ``timeout`` for it; one lost while it warmed up
        is replaced (or given up)."""
        if self.process is not None and not self._warm:
            try:
                if self._conn.poll(timeout):
                    self._warm = self._conn.recv_bytes() == READY
            except (EOFError, OSError):
                self._lost(f"stopped (exit status {self._end()})", "was started again")
        return self.process is not None and self._warm

    def _ask(self, job: bytes) -> tuple[str, object] | None:
        """The process's answer to ``job``; None when it was lost on the way (the frame is then drawn here).
        What killed or stopped it was most likely not this frame (the out-of-memory killer, a stray signal,
        swapping), so it is replaced; one lost again before drawing a frame is given up."""
        try:
            self._conn.send_bytes(job)
            answer = self._answer()
        except Stalled as exc:
            self._end(kill=True)
            self._lost(f"stalled ({exc})", "was replaced")
            return None
        except (EOFError, OSError):
            self._lost(f"stopped (exit status {self._end()})", "was started again")
            return None
        self._failed = 0
        return answer

    def _lost(self, what: str, then: str) -> None:
        """The process ``what`` (it is gone now): start another, or, the second lost in a row, draw here."""
        log.warning("the render process %s: it is replaced", what)
        self._failed += 1
        self.process = None
        if self._failed < 2:
            try:
                self._start()
                self._say(f"The render process {what} and {then}; the screens went on.")
                return
            except OSError as exc:
                log.error("the render process could not start again: %s", exc)
        log.error("the render process keeps stopping: frames are drawn in the box's own process from now on")
        self._say("The render process keeps failing: frames are drawn in the box's own process from now on, so "
                  "presses may answer a little slower. Restarting the box tries the render process again.")

    def _answer(self) -> tuple[str, object]:
        """The process's answer to the job just sent; :class:`Stalled` when a stopped process has not answered in
        ``STALL_S``, or one has had no CPU for ``SLOW_S``.

        A process that runs but has not answered is starved, not stalled: the box keeps the CPU busy (at nice 19
        it gets what the box leaves). Another would be as starved, and would first spend seconds of that CPU
        warming up while the box drew the frames itself, on the threads the presses need."""
        asked = self._ran = time.monotonic()
        _, cpu_then = _state(self.process.pid)
        try:
            while not self._conn.poll(STALL_S / 4):
                now = time.monotonic()
                stopped, cpu = _state(self.process.pid)
                if cpu != cpu_then:
                    self._ran, cpu_then = now, cpu
                if now - asked >= STALL_S and stopped or now - self._ran >= SLOW_S:
                    raise Stalled(f"no frame back in {now - asked:.1f} s")
            return self._conn.recv()
        finally:
            self._ran = None

    def working(self) -> bool:
        """Whether a frame is on its way from a process that has had CPU in the last ``SLOW_S`` (the display
        worker's watchdog does not count the time of a frame that a busy box starves)."""
        ran = self._ran
        return ran is not None and time.monotonic() - ran < SLOW_S

    def _end(self, kill: bool = False) -> int | None:
        """Close our end and see the process gone (it leaves on its own; killed if it does not, or at once
        with ``kill``: a stalled process never reads the end); its status."""
        self._conn.close()
        if kill:
            self.process.kill()
        try:
            return self.process.wait(2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(1)

    def close(self) -> None:
        """End the process: it leaves once its end of the socket closes."""
        with self._lock:
            if self.process is not None:
                self._end()


def serve(conn, nice: int) -> None:
    """The render process, ``nice`` below the box: draw each ``(render, args)`` received, answer its pixels or
    what it raised; leave when the box closes its end. A stop signal is the box's to handle (systemd sends it
    to both, and the box still has its parting screen to draw)."""
    from .bugs import where

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(nice)
    _warm_up()
    try:
        conn.send_bytes(READY)
    except OSError:                                 # the box went while this one warmed up
        return
    while True:
        try:
            job = conn.recv_bytes()
        except (EOFError, OSError):                 # the box has gone
            return
        try:
            render, args = pickle.loads(job)        # a render this process cannot import fails here, as a draw
            image = render(*args)
            reply = ("frame", (image.mode, image.size, image.tobytes(), image.info))
        except Exception as exc:
            reply = ("error", (_portable(exc), "drawn in the render process:\n" + where(exc)))
        try:
            conn.send(reply)
        except OSError:                             # the box went while this one drew (killed: no traceback)
            return


def _warm_up() -> None:
    """Every game's screens loaded and the letters of every role measured on the smallest glass, the costs
    of a first frame."""
    from .render import SCREENS, bot, fault, for_game, join, lobby  # noqa: F401 - the screens besides the games'
    from .render.fonts import Face
    from .render.reading import LEAST_PX, SMALLEST

    for game_id in SCREENS:
        for_game(game_id)
    for role in LEAST_PX:
        Face(SMALLEST.cap_px(role)).height


def _portable(exc: Exception) -> Exception:
    """``exc`` if it survives pickling, else an exception of the same name without its arguments."""
    try:
        return pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(type(exc).__name__)


if __name__ == "__main__":
    serve(Connection(int(sys.argv[1])), int(sys.argv[2]))
