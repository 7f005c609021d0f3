"""A fake IO board for the tests, the bench and a maker without one: the firmware's own logic behind a pty.

:class:`firmware.board.Board` runs on a thread at the master end of a pty; the
host opens the slave end with pyserial through a symlink at ``path``, as it
opens /dev/serial/by-id/... on a Pi. A finger presses buttons (every press or
release is one matrix scan; while the matrix shows a change the debouncer has not
taken yet, it is scanned again at every tick, as main.py scans it all the time),
``tamper_out``/``tamper_in`` can spoil the bytes either way, and the board can be
reset, unplugged and plugged back in.

A pty has no baud rate: with ``baud`` set, every write to the host and every
read from it is held back until a wire of that speed (10 bits a byte) would
have carried it, one frame after the other in each direction.
"""
from __future__ import annotations

import collections
import os
import random
import select
import threading
import time
import tty
from typing import Callable

from companion.inputs import CONTROLS
from firmware import protocol
from firmware.board import Board

TICK_S = 0.002          # the board's loop wakes at least this often, as its matrix scan would


def ticks_ms() -> int:
    return int(time.monotonic() * 1000) & 0x3FFFFFFF


class FakeBoard:
    def __init__(self, path: str, seats: int = protocol.MAX_SEATS, baud: int | None = None, **board_args):
        self.path, self.seats, self.board_args = path, seats, board_args
        self.byte_s = 10 / baud if baud else 0.0
        self.tamper_out: Callable[[bytes], bytes] | None = None    # each frame to the host
        self.tamper_in: Callable[[bytes], bytes] | None = None     # each chunk read from the host
        self.pixels = bytearray(seats * protocol.HOLES * 3)
        self.lamps_changed = [0.0] * seats          # perf_counter() of each seat's last pixel change
        self.dropped = 0                            # bytes the pty would not take
        self._changed = threading.Condition()
        self._scans: collections.deque[bytes] = collections.deque()
        self._held = bytearray(seats)
        self._rows = bytes(seats)                   # what the matrix shows: the finger's last scan
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        self._master: int | None = None
        self._slave: int | None = None
        self._wire_in = self._wire_out = 0.0
        self._closing = False
        self.plug()
        self._thread = threading.Thread(target=self._run, name="fakeboard", daemon=True)
        self._thread.start()

    def __enter__(self) -> "FakeBoard":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- the finger and the hands ---------------------------------------------------------------

    def press(self, seat: int, control: str) -> None:
        self.hold(seat, self._held[seat - 1] | 1 << CONTROLS.index(control))

    def release(self, seat: int, control: str) -> None:
        self.hold(seat, self._held[seat - 1] & ~(1 << CONTROLS.index(control)))

    def hold(self, seat: int, bits: int) -> None:
        """Hold down exactly the buttons of ``bits`` (bit i: control i) on ``seat``: one matrix scan."""
        self._held[seat - 1] = bits
        self._scans.append(bytes(self._held))
        os.write(self._wake_w, b"!")

    def idle(self, timeout: float = 5.0) -> bool:
        """Wait until the board has scanned everything the finger did."""
        deadline = time.monotonic() + timeout
        while self._scans and time.monotonic() < deadline:
            time.sleep(0.001)
        return not self._scans

    def lamps(self, seat: int) -> tuple[bytes, bytes]:
        """The seat's colour and lamp codes as the board holds them."""
        board, s = self.board, seat - 1
        return bytes(board.colours[3 * s:3 * s + 3]), bytes(board.lamps[5 * s:5 * s + 5])

    def wait_lamps(self, seat: int, since: float, timeout: float = 1.0) -> float | None:
        """Seconds from ``since`` (perf_counter) to the seat's first pixel change after it, or None."""
        with self._changed:
            self._changed.wait_for(lambda: self.lamps_changed[seat - 1] >= since, timeout)
        changed = self.lamps_changed[seat - 1]
        return changed - since if changed >= since else None

    def reset(self) -> None:
        """The board restarts (a brown-out, the watchdog): all its state is new, the USB link stays."""
        with self._lock:
            self.board = self._start()

    def unplug(self) -> None:
        with self._lock:
            if self._master is not None:
                os.close(self._master)
                os.close(self._slave)
                self._master = self._slave = None
            if os.path.lexists(self.path):
                os.unlink(self.path)

    def plug(self) -> None:
        """Plug the board in: a new pty at ``path`` and a freshly started board."""
        with self._lock:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)                 # no echo before the host opens its end
            os.set_blocking(self._master, False)
            staging = f"{self.path}.new"
            if os.path.lexists(staging):
                os.unlink(staging)
            os.symlink(os.ttyname(self._slave), staging)
            os.replace(staging, self.path)
            self.board = self._start()
            self._scans.append(bytes(self._held))  # its first scan finds what the finger holds

    def _start(self) -> Board:
        """A freshly started board: new state, and a new boot id as main.py draws one."""
        return Board(ticks_ms(), self.seats, boot_id=random.getrandbits(16), **self.board_args)

    def close(self) -> None:
        self._closing = True
        os.write(self._wake_w, b"!")
        self._thread.join(timeout=2)
        self.unplug()
        os.close(self._wake_r)
        os.close(self._wake_w)

    # ---- the board's loop -----------------------------------------------------------------------

    def _run(self) -> None:
        while not self._closing:
            master = self._master
            fds = [self._wake_r] if master is None else [self._wake_r, master]
            try:
                ready = select.select(fds, [], [], TICK_S)[0]
            except OSError:                         # unplugged while we waited
                continue
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            with self._lock:
                if self._master is None:
                    self._scans.clear()             # unplugged: the finger presses a dead board
                elif self._master == master:
                    self._step(master, master in ready)

    def _step(self, master: int, readable: bool) -> None:
        board = self.board
        if readable:
            try:
                data = os.read(master, 4096)
            except OSError:                         # the host's end is not open
                data = b""
            if data:
                self._wire_in = self._pace(self._wire_in, len(data))
                board.feed(self.tamper_in(data) if self.tamper_in else data, ticks_ms())
        if self._scans:
            while self._scans:
                self._rows = self._scans.popleft()
                board.scan(self._rows, ticks_ms())
        elif self._rows != board.levels:        # a change the debouncer ignored: the matrix still shows it,
            board.scan(self._rows, ticks_ms())  # and main.py scans it every few ms until it is taken
        board.poll(ticks_ms())
        for frame in board.take():
            data = self.tamper_out(frame) if self.tamper_out else frame
            self._wire_out = self._pace(self._wire_out, len(data))
            self._write(master, data)
        before = bytes(self.pixels)
        if board.render(ticks_ms(), self.pixels):
            now = time.perf_counter()
            with self._changed:
                for s in range(self.seats):
                    if self.pixels[15 * s:15 * s + 15] != before[15 * s:15 * s + 15]:
                        self.lamps_changed[s] = now
                self._changed.notify_all()

    def _pace(self, wire_free: float, size: int) -> float:
        """Sleep until ``size`` more bytes would have crossed the wire; the time the wire is free again."""
        if not self.byte_s:
            return 0.0
        done = max(time.perf_counter(), wire_free) + size * self.byte_s
        while (left := done - time.perf_counter()) > 0:
            time.sleep(left)
        return done

    def _write(self, master: int, data: bytes) -> None:
        try:
            written = os.write(master, data)
        except OSError:                             # the pty is full, or its host end is not open
            written = 0
        self.dropped += len(data) - written
