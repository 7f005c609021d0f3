"""The install on the Pi's own architecture: a Debian arm64 root, its programs run by qemu's user-mode emulation.

The VMs are x86-64; a Pi runs arm64. Here binfmt_misc hands every aarch64 program to Debian's
qemu-aarch64-static (registered now if it is not, as the qemu-user-static package does at boot), so
that a plain ``chroot`` runs them. In a copy of the cached root (``images.arm64_root``: Debian's
python3 and python3-venv, unpacked) install.sh's own venv and pip lines run, pip taking aarch64 wheels the host downloaded; then install.sh puts the rest in place with
``ROOT=`` (the unit, the service's user, the profiles), checking the profile with the arm64 molebox.
``molebox sim`` plays the system test's whole game, which must end as on the host, and ``molebox
doctor`` looks at the machine with the profile install.sh set. A chroot shares the host's kernel: no
arm64 kernel, systemd or device is in it, only the install and the Python code on the Pi's wheels.
"""
from __future__ import annotations

import json
import os
import platform
import resource
import shutil
import subprocess
import time
from contextlib import ExitStack
from pathlib import Path

from .life import DOCTOR, GAME_SCRIPT, ROOT, Row, _copy_checkout, doctor_verdict, host_game
from .suite import MOUNTS, _mount

BINFMT = Path("/proc/sys/fs/binfmt_misc")
QEMU_RULE = Path("/usr/lib/binfmt.d/qemu-aarch64.conf")     # Debian's qemu-user-static
LIMIT_S = 25 * 60                       # the whole part, so that CI's 90 minutes hold whatever the machine
VENV = "/opt/molebox/venv/bin"                             # install.sh's
ENV = ("env", "-i", "HOME=/root", "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG=C.UTF-8")


def _cpu() -> float:
    """The CPU seconds this process's finished children took: on a busy machine the wall time says little."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def venv_lines() -> str:
    """install.sh's own lines that make the service's venv and pip install the checkout into it."""
    lines = [line.strip() for line in (ROOT / "systemd/install.sh").read_text().splitlines()
             if '"$PREFIX/venv' in line and ("-m venv" in line or "/pip\" install" in line)]
    assert len(lines) == 2, f"install.sh's venv and pip lines are not where arm64.py looks: {lines}"
    return " && ".join(lines)


def _unmount_under(folder: Path) -> None:
    """Lazily unmount everything mounted at or below ``folder``, the deepest first."""
    points = [line.split()[1] for line in Path("/proc/self/mounts").read_text().splitlines()]
    for point in sorted((p for p in points if Path(p).is_relative_to(folder)), key=len, reverse=True):
        subprocess.run(["umount", "-l", point], check=False)


def register() -> str:
    """aarch64 programs run through qemu-aarch64-static (the rule's F flag opens it now, so a chroot needs no
    copy of it); what was there or done."""
    if not (BINFMT / "status").exists():
        subprocess.run(["mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT)], check=True)
    if (BINFMT / "qemu-aarch64").exists():
        return "qemu-aarch64 was registered"
    (BINFMT / "register").write_text(QEMU_RULE.read_text().strip())
    return "qemu-aarch64 registered"


class Arm64:
    """The arm64 rows: install, a whole game, doctor; each is a row, in order, on one copy of the root."""

    def __init__(self, release: str, root: Path, wheels: Path, work: Path, built_s: float):
        self.release, self.root, self.wheels, self.work, self.built_s = release, root, wheels, work, built_s
        self.tree = work / "tree"
        self.logs = work / "logs"
        self.deadline = 0.0

    def run(self) -> list[Row]:
        label = f"{self.release} arm64"
        rows = [Row(label, "install on arm64: install.sh's venv and pip in a chroot under qemu-aarch64"),
                Row(label, "a whole game: molebox sim on arm64, as on the host"),
                Row(label, "molebox doctor on arm64 (install.sh's profile, gpio-2)")]
        started = time.monotonic()
        self.deadline = started + LIMIT_S
        with ExitStack() as mounts:
            for row, step in zip(rows, (lambda: self.install(mounts), self.game, self.doctor)):
                try:
                    wall, cpu = time.monotonic(), _cpu()
                    row.figures, row.result = step(), "pass"
                    row.figures += f"; {time.monotonic() - wall:.0f} s ({_cpu() - cpu:.0f} s of CPU)"
                except Exception as exc:                    # noqa: BLE001 - the row says what went wrong
                    row.result, row.detail = "FAIL", f"{type(exc).__name__}: {exc}"[:3000]
                    break
        rows[0].figures += f"; the arm64 part {time.monotonic() - started + self.built_s:.0f} s with the root's build"
        return rows

    def sh(self, command: str, log: str) -> str:
        """``command`` in the root's shell, as root, within the part's time; its output, also in ``logs/<log>``."""
        done = subprocess.run(["chroot", str(self.tree), *ENV, "sh", "-c", command], capture_output=True, text=True,
                              timeout=max(1.0, self.deadline - time.monotonic()))
        out = done.stdout + done.stderr
        (self.logs / log).write_text(out)
        if done.returncode:
            raise RuntimeError(f"`{command}` exited {done.returncode} (see {self.logs / log}):\n{out[-2000:]}")
        return out

    def install(self, mounts: ExitStack) -> str:
        binfmt = register()
        _unmount_under(self.work)           # a run that was killed left its /dev bound in: rmtree would empty it
        shutil.rmtree(self.work, ignore_errors=True)
        self.logs.mkdir(parents=True)
        copied = time.monotonic()
        subprocess.run(["cp", "-a", str(self.root), str(self.tree)], check=True)
        copied = time.monotonic() - copied
        for source, target, kind in MOUNTS:
            _mount(mounts, self.tree, source, target, kind)
        checkout = self.tree / "root/molebox"
        checkout.mkdir(parents=True)
        _copy_checkout(checkout)
        shutil.copytree(self.wheels, self.tree / "var/cache/molebox-wheels")
        # No index: pip takes the host's wheelhouse, as in the VMs (docs/pi.md, section 10); and no byte-compiling
        # of every file it installs, under emulation: Python compiles what it imports, as it would anyway.
        # (`compile = false`: pip reads `no-compile = true` as --compile, its old quirk.)
        (self.tree / "etc/pip.conf").write_text("[global]\nno-index = true\nfind-links = /var/cache/molebox-wheels\n"
                                                "[install]\ncompile = false\n")
        started = time.monotonic()
        out = self.sh(f"PREFIX=/opt/molebox SRC=/root/molebox; {venv_lines()}", "install-venv.txt")
        took = time.monotonic() - started
        # install.sh checks the profile with the arm64 molebox, which sees the root's paths without ROOT's prefix
        launcher = self.work / "molebox-arm64"
        launcher.write_text(f"#!/bin/bash\nexec chroot {self.tree} {' '.join(ENV)} {VENV}/molebox \"${{@#{self.tree}}}\"\n")
        launcher.chmod(0o755)
        done = subprocess.run([str(ROOT / "systemd/install.sh")], capture_output=True, text=True, timeout=600,
                              env={**os.environ, "ROOT": str(self.tree), "MOLEBOX": str(launcher)})
        (self.logs / "install.txt").write_text(out + done.stdout + done.stderr)
        assert done.returncode == 0 and "molebox: dashboard:" in done.stdout, done.stdout + done.stderr
        machine, python = self.sh(f"{VENV}/python -c 'import platform, sys; "
                                  "print(platform.machine(), sys.version.split()[0])'", "python.txt").split()
        assert machine == "aarch64" and platform.machine() != "aarch64", machine
        facts = json.loads((self.root.parent / "facts.json").read_text())
        lgpio = "Debian's arm64 has python3-lgpio" if facts["python3-lgpio"] else \
            "Debian's arm64 has no python3-lgpio (Raspberry Pi OS's own)"
        return (f"{binfmt}; root copied in {copied:.0f} s; install.sh's venv and pip lines {took:.0f} s "
                f"({len(list(self.wheels.glob('*.whl')))} aarch64 wheels), the rest with ROOT= and the profile "
                f"checked on arm64; venv Python {python} on {machine}; {lgpio}")

    def game(self) -> str:
        expected = host_game()
        self.sh(f"{VENV}/molebox sim --game whakka-mole --seats 2 "
                f"--script /root/molebox/{GAME_SCRIPT.relative_to(ROOT)} --out /root/sim", "sim.txt")
        state = json.loads((self.tree / "root/sim/state.json").read_text())
        assert state["log"] == expected["log"], "the game on arm64 went otherwise than `molebox sim` on the host"
        assert state["view"] == expected["view"], "the public view differs from `molebox sim` on the host"
        return f"{len(state['log'])} events, scores {state['view']['state']['scores']}: as on the host"

    def doctor(self) -> str:
        out = self.sh(f"{DOCTOR}; echo \"exit status $?\"", "doctor.txt")
        verdict = doctor_verdict(out, "gpio-2")
        assert "pin factory" in out, out
        return f"{verdict} (a chroot has no GPIO chip or I2C bus; lgpio comes from Raspberry Pi OS)"
