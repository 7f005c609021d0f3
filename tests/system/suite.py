"""The project's whole test suite under another release's Python, natively, in a chroot of that release.

The chroot is Debian's own (``images.suite_root``: python3, make, chromium, systemd); the checkout
is copied in and ``make test`` runs there exactly as on a contributor's machine, installing offline
from a wheelhouse the host made for that Python.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from contextlib import ExitStack
from pathlib import Path

from .life import Row, _copy_checkout

MOUNTS = (("proc", "proc", "proc"), ("sysfs", "sys", "sysfs"), ("/dev", "dev", "bind"), ("/dev/pts", "dev/pts", "bind"),
          ("tmpfs", "dev/shm", "tmpfs"), ("tmpfs", "tmp", "tmpfs"))
SUMMARY = re.compile(r"^=* ?(\d+ (?:passed|failed)\b.*?) in ([\d.]+)s", re.M)     # pytest's closing line
FAULTS = re.compile(r"^(?:FAILED|ERROR) .*$", re.M)                                  # pytest's -ra lines
# The suite stops after five failures, and a test that hangs five minutes has every thread's stack written to
# the log: the row says why long before the suite's time is up.
ARGS = "ARGS=--maxfail=5 -o faulthandler_timeout=300"


def _mount(stack: ExitStack, root: Path, source: str, target: str, kind: str) -> None:
    where = root / target
    where.mkdir(parents=True, exist_ok=True)
    argv = ["mount", "--bind", source, str(where)] if kind == "bind" else ["mount", "-t", kind, source, str(where)]
    subprocess.run(argv, check=True)
    stack.callback(subprocess.run, ["umount", "-l", str(where)], check=False)


def run_suite(release: str, root: Path, wheels: Path, logs: Path, timeout: float = 1800) -> Row:
    """``make test`` in the chroot ``root``: a row with pytest's own count."""
    python = subprocess.run(["chroot", str(root), "python3", "-c", "import sys; print(sys.version.split()[0])"],
                            capture_output=True, text=True).stdout.strip()
    row = Row(release, f"full test suite on Python {python} (make test in a {release} chroot)")
    work = root / "root/molebox"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    _copy_checkout(work)
    shutil.rmtree(root / "root/wheels", ignore_errors=True)
    shutil.copytree(wheels, root / "root/wheels")
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"suite-{release}.txt"
    env = ["env", "-i", "HOME=/root", "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG=C.UTF-8",
           "PIP_NO_INDEX=1", "PIP_FIND_LINKS=/root/wheels", "CI=true"]
    with ExitStack() as stack:
        for source, target, kind in MOUNTS:
            _mount(stack, root, source, target, kind)
        with log.open("w") as out:
            make = subprocess.Popen(["chroot", str(root), *env, "make", "-C", "/root/molebox", "test", ARGS],
                                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
            try:
                status = make.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(make.pid, signal.SIGKILL)         # make, pytest and whatever the tests started
                make.wait()
                status = None
    text = log.read_text()
    found = SUMMARY.findall(text)
    summary = f"{found[-1][0]} in {float(found[-1][1]):.0f} s" if found else "no pytest summary"
    row.result = "pass" if status == 0 else "FAIL"
    row.figures = summary
    if status != 0:
        said = "\n    ".join(FAULTS.findall(text)) or text[-1500:]
        ended = f"was stopped after {timeout:.0f} s" if status is None else f"exited {status}"
        row.detail = f"make test {ended} (see {log}):\n    {said}"
    return row
