"""A page open in headless chromium, as the TV's kiosk on the Pi shows the table view (docs/pi.md), and what
chromium's processes use meanwhile."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from .usage import process_cpu_seconds, pss_mb

CHROMIUM = "/usr/bin/chromium"
KIOSK_S = 60.0          # how long a page may take to open its stream: chromium starts slowly on a busy machine
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--mute-audio", "--remote-debugging-port=0"]


def have_chromium() -> bool:
    return shutil.which(CHROMIUM) is not None


@contextmanager
def kiosk(url: str) -> Iterator[int]:
    """Headless chromium showing ``url`` while the block runs, in a profile of its own; yields its browser
    process's pid (the page's renderer, the GPU and the utility processes are its descendants)."""
    with tempfile.TemporaryDirectory(prefix="molebox-kiosk-", ignore_cleanup_errors=True) as profile:
        browser = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", url],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            yield browser.pid
        finally:
            family = tree(browser.pid)
            browser.terminate()
            browser.wait(10)
            deadline = time.monotonic() + 10          # its other processes follow it: then its profile is free
            while any(alive(pid) for pid in family) and time.monotonic() < deadline:
                time.sleep(0.05)


def alive(pid: int) -> bool:
    """Whether ``pid`` is still running (a zombie has finished)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def tree(pid: int) -> list[int]:
    """``pid`` and every process descended from it."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:                     # gone meanwhile
                continue
            parents.setdefault(parent, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        out.append(todo.pop())
        todo.extend(parents.get(out[-1], []))
    return out


def usage(pid: int, seconds: float, meanwhile: Callable[[float], None] | None = None) -> dict[str, float]:
    """What the process tree of ``pid`` uses over ``seconds``: ``cpu``, the share of one core; ``pss``, its
    proportional set size at the end (MB, pages shared between its processes split among them).
    ``meanwhile(until)``: what to do during the window (a game played), else the tree is left at rest."""
    def cpu() -> dict[int, float]:
        out = {}
        for process in tree(pid):
            try:
                out[process] = process_cpu_seconds(process)
            except OSError:
                pass
        return out

    before, start = cpu(), time.monotonic()
    if meanwhile is None:
        time.sleep(seconds)
    else:
        meanwhile(start + seconds)
    after, spent = cpu(), time.monotonic() - start
    pss = 0.0
    for process in after:
        try:
            pss += pss_mb(process)
        except OSError:
            pass
    used = sum(seconds - before.get(process, 0.0) for process, seconds in after.items())
    return {"cpu": 100 * used / spent, "pss": pss}
