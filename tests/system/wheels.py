"""The wheelhouse the host builds for a guest's Python: the VM and the suite chroot install offline from it.

Every requirement of ``pyproject.toml`` (the build system's, the dependencies, and optional extras)
is downloaded by the host's pip as binary wheels for the guest's CPython version on x86-64 Linux, or
on aarch64 for the arm64 root (``arm64.py``);
the project itself is built from the copied checkout inside the guest, as ``make install`` does.
"""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLATFORMS = {"x86_64": ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64",
                        "manylinux_2_5_x86_64", "manylinux1_x86_64", "linux_x86_64"),
             "aarch64": ("manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64", "linux_aarch64")}


def requirements(extras: tuple[str, ...] = ()) -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = list(project["build-system"]["requires"]) + list(project["project"]["dependencies"])
    for extra in extras:
        wanted += project["project"]["optional-dependencies"][extra]
    return wanted


def wheelhouse(python: str, out: Path, extras: tuple[str, ...] = (), machine: str = "x86_64") -> Path:
    """Wheels for CPython ``python`` ("3.13") on ``machine`` in ``out``; pip leaves the ones already there alone."""
    out.mkdir(parents=True, exist_ok=True)
    tag = python.replace(".", "")
    argv = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--only-binary=:all:",
            "--python-version", python, "--implementation", "cp", "--abi", f"cp{tag}", "--abi", "abi3",
            "--abi", "none", *(f"--platform={p}" for p in PLATFORMS[machine]), "--platform=any", "-d", str(out),
            *requirements(extras)]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"pip could not download the wheels for Python {python}:\n{done.stderr[-3000:]}")
    return out
