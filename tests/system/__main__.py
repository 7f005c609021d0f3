"""``make test-system``: the box's whole life under a real systemd, in VMs of Debian bookworm and trixie.

Builds (or takes from the cache) the images, runs each release's life in its own VM (both at once:
each emulated CPU takes one core), then the project's test suite under trixie's Python 3.13, then the
install, a game and doctor in a trixie root for arm64 under qemu's user-mode emulation, and prints one
table: release, test, result, figures. Exit status 0 only when every row passed. Needs root
(mmdebstrap, chroot, mount, binfmt_misc) and Debian's qemu-system-x86, qemu-user-static, mmdebstrap
and e2fsprogs.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from . import images
from .arm64 import Arm64
from .gpio import sim_replay
from .life import Life, Row, gpio_script
from .piparts import pi_parts
from .suite import run_suite
from .vm import accelerator
from .wheels import wheelhouse

CUTS = {"bookworm": 30, "trixie": 20}          # 50 across both releases
TOOLS = {"qemu-system-x86_64": "qemu-system-x86", "mmdebstrap": "mmdebstrap", "e2fsck": "e2fsprogs",
         "mke2fs": "e2fsprogs", "chroot": "coreutils", "qemu-aarch64-static": "qemu-user-static"}
PARTS = ("vms", "gpio", "suite", "arm64")       # each release's life in a VM (gpio: its install and gpio rows
                                                # alone); the suite on 3.13; the arm64 root
ARM64 = "trixie"


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m tests.system", description=__doc__.split("\n")[0])
    p.add_argument("--release", action="append", choices=list(images.PYTHONS),
                   help="only this release (again for more); default: all")
    p.add_argument("--cuts", type=int, help="power cuts per release (default: 30 on bookworm, 20 on trixie, whose "
                                            "emulated boot is slower, so that both finish together)")
    p.add_argument("--no-suite", action="store_true", help="skip the test suite under trixie's Python")
    p.add_argument("--only", action="append", choices=PARTS,
                   help="only this part (again for more): vms (each release's life, the gpio rows in it), gpio (each "
                        "release's install and gpio rows alone), suite (make test on 3.13), arm64 (install, game and "
                        "doctor on arm64 under qemu-user); default: all")
    p.add_argument("--serial", action="store_true", help="one VM at a time (default: the releases side by side)")
    p.add_argument("--bench", type=int, metavar="PRESSES",
                   help="instead of the tests: `make bench`'s press-to-lamp rows (--press-only, this many presses) "
                        "in the service's venv of each release's VM, one at a time: a slower machine (under "
                        "software emulation several times slower than this one), its raw chain measured beside")
    p.add_argument("--bench-runs", type=int, default=1, metavar="N",
                   help="with --bench: run the rows N times in a row in the same VM (default 1)")
    p.add_argument("--cpus", type=int, default=1, help="the VMs' virtual CPUs (default 1; under software emulation "
                                                       "each is a thread of this machine)")
    return p.parse_args(argv)


def table(rows: list[Row]) -> str:
    heads = ("release", "test", "result", "figures")
    cells = [(r.release, r.test, r.result, r.figures) for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads[:3])]
    lines = ["  ".join(h.ljust(w) for h, w in zip(heads[:3], widths)) + "  figures"]
    lines.append("  ".join("-" * w for w in widths) + "  -------")
    lines += ["  ".join(c.ljust(w) for c, w in zip(cell[:3], widths)) + "  " + cell[3] for cell in cells]
    return "\n".join(lines)


def _timed(build, *args):
    """``build(*args)`` and the seconds it took (a cached image: about none)."""
    started = time.monotonic()
    return build(*args), time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if os.geteuid() != 0:
        print("tests.system: run it as root (it builds root filesystems and mounts a chroot)", file=sys.stderr)
        return 2
    missing = sorted({pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None})
    if missing:
        print(f"tests.system: apt-get install {' '.join(missing)} (CI installs them from .ci/apt-packages-system)",
              file=sys.stderr)
        return 2
    parts = set(args.only or PARTS) - ({"suite"} if args.no_suite else set())
    lives_of = {"vms", "gpio"} & parts
    releases = (args.release or list(images.PYTHONS)) if lives_of or args.bench else []
    run_dir = images.CACHE / "run"
    started = time.monotonic()

    replay = ThreadPoolExecutor(1)                  # the sim's answer to the gpio rows' presses, while the VMs boot
    with ThreadPoolExecutor(4) as pool:             # downloads: the images and the wheels at once
        vm_images = {r: pool.submit(images.vm_image, r) for r in releases}
        suite = pool.submit(images.suite_root, "trixie") if "suite" in parts and not args.bench else None
        wheels = {r: pool.submit(wheelhouse, images.PYTHONS[r], images.CACHE / f"wheels-{images.PYTHONS[r]}")
                  for r in releases}
        suite_wheels = None if suite is None else pool.submit(
            wheelhouse, "3.13", images.CACHE / "wheels-3.13-test", ("test",))
        arm64 = pool.submit(_timed, images.arm64_root, ARM64) if "arm64" in parts and not args.bench else None
        arm64_wheels = None if arm64 is None else pool.submit(
            wheelhouse, images.PYTHONS[ARM64], images.CACHE / f"wheels-{images.PYTHONS[ARM64]}-aarch64",
            machine="aarch64")
        pi = {r: pool.submit(lambda f: pi_parts(f.result()), vm_images[r]) for r in releases if not args.bench}
        sim_answer = replay.submit(sim_replay, gpio_script()) if pi else None
        vm_images = {r: f.result() for r, f in vm_images.items()}
        wheels = {r: f.result() for r, f in wheels.items()}
        pi = {r: f.result() for r, f in pi.items()}
        arm64_root = None if arm64 is None else arm64.result()
    built = time.monotonic() - started
    accel = accelerator(str(next(iter(vm_images.values())).kernel)) if vm_images else None
    print(f"tests.system: images, wheels and the Pi's parts ready in {built:.0f} s" + ("" if accel is None else f"; {accel.upper()} "
          f"({'a KVM guest booted' if accel == 'kvm' else 'software emulation: a KVM guest does not boot here'})"),
          flush=True)

    lives = [Life(vm_images[r], wheels[r], run_dir / r, args.cuts or CUTS[r], cpus=args.cpus, pi=pi.get(r),
                  sim_answer=sim_answer and sim_answer.result, only_gpio=lives_of == {"gpio"}) for r in releases]
    if args.bench:
        for life in lives:
            print(f"\n{life.release}:", flush=True)
            for run in life.bench(args.bench, args.bench_runs):
                print(run, flush=True)
        return 0
    with ThreadPoolExecutor(max(1, 1 if args.serial else len(lives))) as pool:
        results = [pool.submit(life.run) for life in lives]
        rows = [row for f in results for row in f.result()]
    replay.shutdown()
    if suite is not None:
        rows.append(run_suite("trixie", suite.result(), suite_wheels.result(), run_dir / "logs"))
    if arm64_root is not None:
        root, built_s = arm64_root
        rows += Arm64(ARM64, root, arm64_wheels.result(), run_dir / "arm64", built_s).run()

    print()
    print(table(rows))
    failed = sum(r.result != "pass" for r in rows)
    for r in rows:
        if r.detail:
            print(f"\n{r.release}: {r.test}: {r.result}\n  {r.detail}")
    print(f"\nlogs and consoles: {run_dir}; whole run {time.monotonic() - started:.0f} s")
    print(f"system: {len(rows) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
