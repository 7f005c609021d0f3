"""The disk under the journal, measured beside the box in the same run, and a slow card to put it on.

- :class:`DiskWatch`: while the box plays, a raw sqlite3 commit (WAL, ``synchronous=FULL``, a
  journal row's size) every 50 ms on a file beside the journal, from a process of its own: what the disk
  did meanwhile;
- :func:`slow_card`: a directory whose writes take :data:`SLOW_MS` longer, as an SD card erasing:
  a device-mapper delay target over a loop file, where the bench may make one (root, ``dmsetup``,
  the kernel's ``dm-delay``); elsewhere the journal's own thread sleeps that long before each commit
  point, a stand-in that the rows name as one.
"""
from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Callable

from .common import BENCH_DIR

SLOW_MS = 100           # the slow card's extra time per write
PROBE_EVERY_S = 0.05    # about the journal's own rate at the bench's pace: a reference that sampled the disk more
                        # often would load it (and one slow core) more than the box does
PROBE_END_S = 60        # the probe's last commit may be on the slow card
CARD_MB = 64


class DiskWatch:
    """Raw sqlite3 commits on ``directory``'s disk while the block runs: ``raw``, their times in seconds, once the
    block has ended.

    They run in a process of their own (:func:`probe_disk`), as the disk's other users would: a thread of the
    box's would take its GIL at every commit, and the presses' figures would carry the reference's cost. The
    process says its times when it stops, as the block ends: read inside the block, ``raw`` raises rather than
    give none."""

    def __init__(self, directory: str):
        self.path = os.path.join(directory, "disk-probe.db")
        self._raw: list[float] | None = None
        self._process: subprocess.Popen | None = None

    @property
    def raw(self) -> list[float]:
        if self._raw is None:
            raise RuntimeError("the disk probe's times are read after its block: its process says them as it stops")
        return self._raw

    def __enter__(self) -> "DiskWatch":
        self._process = subprocess.Popen([sys.executable, "-m", "companion.bench", "--probe-disk", self.path],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self._process.stdout.readline() != "ready\n":      # its first commit made: the block is measured whole
            raise RuntimeError(f"the disk probe did not start (exit status {self._process.wait()})")
        return self

    def __exit__(self, *exc) -> None:
        out, _ = self._process.communicate(timeout=PROBE_END_S)     # its stdin closed: it stops and says its times
        if self._process.returncode:
            raise RuntimeError(f"the disk probe failed (exit status {self._process.returncode})")
        self._raw = [float(line) for line in out.split()]


def probe_disk(path: str) -> None:
    """Child process: a raw sqlite3 commit on ``path`` every :data:`PROBE_EVERY_S` until stdin closes ("ready" once
    the first is made); then each commit's time in seconds, a line each."""
    import sqlite3

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b BLOB)")
    times = []

    def commit() -> None:
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t (b) VALUES (?)", (b"x" * 268,))
        db.execute("COMMIT")
        times.append(time.perf_counter() - start)

    commit()
    print("ready", flush=True)
    while not select.select([sys.stdin], [], [], PROBE_EVERY_S)[0]:
        commit()
    db.close()
    print("\n".join(f"{t:.6f}" for t in times), flush=True)


@dataclass
class Card:
    """Where the journal goes: a directory, what the card under it is, and the stand-in's stall (None: a real one)."""

    directory: str
    words: str
    stall: Callable[[], None] | None = None


def _run(*command: str) -> str:
    """``command``'s output; what it said on stderr in the error when it fails."""
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise OSError(f"{' '.join(command)}: exit status {done.returncode}: {done.stderr.strip()}")
    return done.stdout.strip()


@contextmanager
def _delay_target(workdir: str):
    """A filesystem on a device-mapper delay target (writes SLOW_MS late) over a loop file in ``workdir``."""
    image, mount = os.path.join(workdir, "card.img"), os.path.join(workdir, "card")
    name = f"molebox-slow-{os.getpid()}"
    with open(image, "wb") as f:
        f.truncate(CARD_MB << 20)
    loop = _run("losetup", "--find", "--show", image)
    made = []
    try:
        sectors = _run("blockdev", "--getsz", loop)
        _run("dmsetup", "create", name, "--table", f"0 {sectors} delay {loop} 0 0 {loop} 0 {SLOW_MS}")
        made.append("dm")
        _run("mkfs.ext4", "-q", f"/dev/mapper/{name}")
        os.mkdir(mount)
        _run("mount", f"/dev/mapper/{name}", mount)
        made.append("mount")
        yield mount
    finally:
        if "mount" in made:
            subprocess.run(["umount", mount], check=False)
        if "dm" in made:
            subprocess.run(["dmsetup", "remove", name], check=False)
        subprocess.run(["losetup", "-d", loop], check=False)


@contextmanager
def slow_card():
    """A :class:`Card` whose writes take SLOW_MS longer: the kernel's, or the stand-in (with why)."""
    with tempfile.TemporaryDirectory(dir=BENCH_DIR) as workdir, ExitStack() as stack:
        card, why = None, _why_no_delay_target()
        if why is None:
            try:
                card = Card(stack.enter_context(_delay_target(workdir)),
                            f"a device-mapper delay target over a loop file, every write {SLOW_MS} ms late")
            except OSError as exc:
                why = f"making a delay target failed: {exc}"
        yield card or Card(workdir, f"a STAND-IN ({why}): the journal's thread sleeps {SLOW_MS} ms before each "
                                    f"commit point", stall=lambda: time.sleep(SLOW_MS / 1000))


def _why_no_delay_target() -> str | None:
    if os.geteuid() != 0:
        return "not root"
    missing = [tool for tool in ("dmsetup", "losetup", "blockdev", "mkfs.ext4") if shutil.which(tool) is None]
    if missing:
        return f"no {', '.join(missing)}"
    if shutil.which("modprobe"):                    # a Debian kernel has loop and dm-delay as modules
        for module in ("loop", "dm-delay"):
            subprocess.run(["modprobe", module], check=False, capture_output=True)
    if not os.path.exists("/dev/mapper/control"):
        return "no device-mapper in this kernel"
    return None
