"""What a Pi has and a Debian VM lacks, built for each release's kernel and Python: GPIO lines, an I2C bus of
displays, and lgpio.

- **gpio-sim**, the kernel's simulated GPIO chip, whose lines stand for the Pi's GPIO numbers. Neither
  Debian kernel builds it, nor the ``irq_sim`` helper it needs (``CONFIG_IRQ_SIM`` unset in 6.1 and
  6.12): both come from Debian's own ``linux-source`` package, built as a module against the
  ``linux-headers`` of the VM's kernel (``irq_sim.c`` calls the exported ``generic_handle_irq``, as
  ``irq_to_desc`` is not exported to modules).
- **i2c-oled-sim** (``pi/i2c-oled-sim.c``, the test's own): an I2C bus, ``i2c-1`` as a Pi's, with two
  SSD1306 displays that take luma's plain I2C writes and keep their frames for the test to read.
- **lgpio**, gpiozero's pin factory: Raspberry Pi OS packages it (``python3-lgpio``), Debian does not.
  PyPI's sdist, built with ``PYPI=1`` (the C library linked in statically) and Debian's swig.

They are built in a root of the release (``mmdebstrap``: the kernel's headers and source, gcc, swig,
the Python headers), kept in ``CACHE/kbuild-<release>-<key>/`` by its package list, and the
results in ``CACHE/pi-<release>-<key>/`` by the kernel, lgpio's version, this file and the test's own module
(``pi/i2c-oled-sim.c``), like the images.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from .images import CACHE, Image, _cached, _chroot, _key, _mmdebstrap

LGPIO = "lgpio==0.2.2.0"
TOOLS = ("gcc", "make", "libc6-dev", "xz-utils", "python3-dev", "python3-pip", "python3-setuptools",
         "python3-wheel", "swig")
KBUILD = "/root/kbuild"             # in the root: the modules' sources and Kbuild
OLED = Path(__file__).parent / "pi/i2c-oled-sim.c"


def kbuild_packages(kernel: str) -> tuple[str, ...]:
    """The build root's packages for ``kernel`` ("6.1.0-50-amd64"): its headers and its series' source."""
    series = ".".join(kernel.split(".")[:2])
    return (*TOOLS, headers_package(kernel), f"linux-source-{series}")


def headers_package(kernel: str) -> str:
    """Debian's package of ``kernel``'s headers, which the modules are built against."""
    return f"linux-headers-{kernel}"


def kbuild_root(image: Image) -> Path:
    """The release's build root for the image's kernel: its tree, built now if missing."""
    packages = kbuild_packages(image.facts["kernel"])
    headers = headers_package(image.facts["kernel"])

    def build(out: Path, log: Path) -> dict:
        try:
            _mmdebstrap(image.release, packages, out / "tree", log)
        except RuntimeError:
            if f"Unable to locate package {headers}" in log.read_text():
                raise RuntimeError(
                    f"Debian's archive no longer has {headers}, the headers of the cached {image.release} image's "
                    f"kernel: the archive moved on to a newer kernel. Remove {image.path} and run again: the image is "
                    f"built afresh with the archive's kernel, and its parts with it") from None
            raise
        return {"release": image.release, "kernel": image.facts["kernel"], "packages": list(packages)}

    return _cached("kbuild", image.release, _key(image.release, packages), build) / "tree"


def _sdist() -> Path:
    """lgpio's sdist from PyPI, kept in the cache."""
    folder = CACHE / "sdist"
    folder.mkdir(parents=True, exist_ok=True)
    name, version = LGPIO.split("==")
    found = sorted(folder.glob(f"{name}-{version}.tar.gz"))
    if not found:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                               "--no-binary", ":all:", "--no-deps", "-d", str(folder), LGPIO],
                              capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"pip could not download {LGPIO}'s sdist:\n{done.stderr[-2000:]}")
        found = sorted(folder.glob(f"{name}-{version}.tar.gz"))
    return found[0]


def _kbuild(tree: Path, kernel: str) -> str:
    """The modules' sources and their Kbuild: gpio-sim from the kernel's source tarball, with irq_sim where the
    kernel lacks it, and the test's I2C bus of two displays (``pi/i2c-oled-sim.c``)."""
    series = ".".join(kernel.split(".")[:2])
    headers = tree / f"usr/src/linux-headers-{kernel}"
    irq_sim = "CONFIG_IRQ_SIM=y" not in (headers / ".config").read_text().splitlines()
    work = tree / KBUILD.lstrip("/")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    prefix = f"linux-source-{series}"
    members = [f"{prefix}/drivers/gpio/gpio-sim.c", f"{prefix}/drivers/gpio/gpiolib.h"]
    if irq_sim:
        members.append(f"{prefix}/kernel/irq/irq_sim.c")
    subprocess.run(["tar", "-xJf", str(tree / f"usr/src/{prefix}.tar.xz"), "-C", str(work), "--strip-components=3",
                    "--wildcards", *members], check=True)
    if irq_sim:
        source = work / "irq_sim.c"
        text, found = re.subn(r"handle_simple_irq\(irq_to_desc\((\w+)\)\)", r"generic_handle_irq(\1)", source.read_text())
        assert found == 1, "irq_sim.c no longer calls what is patched here"
        source.write_text(text)
        (work / "gpio-sim.c").rename(work / "gpio-sim-main.c")
        kbuild = "obj-m += gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n"
    else:
        kbuild = "obj-m += gpio-sim.o\n"
    shutil.copy(OLED, work / OLED.name)
    (work / "Kbuild").write_text(f"{kbuild}obj-m += {OLED.stem}.o\n")
    return ("gpio-sim and irq_sim" if irq_sim else "gpio-sim (the kernel has irq_sim)") + f", {OLED.stem}"


def pi_parts(image: Image) -> Path:
    """A folder of the modules (``*.ko``) and lgpio's wheel for ``image``'s kernel and Python, built now if
    the cache has none."""
    kernel = image.facts["kernel"]
    sdist = _sdist()

    def build(out: Path, log: Path) -> dict:
        tree = kbuild_root(image)
        made = _kbuild(tree, kernel)
        _chroot(tree, "make", "-C", f"/usr/src/linux-headers-{kernel}", f"M={KBUILD}", "modules", log=log)
        for module in (tree / KBUILD.lstrip("/")).glob("*.ko"):
            shutil.copy(module, out / module.name)
        shutil.copy(sdist, tree / "root" / sdist.name)
        wheels = tree / "root/wheels"
        shutil.rmtree(wheels, ignore_errors=True)
        _chroot(tree, "env", "PYPI=1", "python3", "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                "-w", "/root/wheels", f"/root/{sdist.name}", log=log)
        for wheel in wheels.glob("*.whl"):
            shutil.copy(wheel, out / wheel.name)
        return {"release": image.release, "kernel": kernel, "modules": made, "lgpio": LGPIO,
                "files": sorted(p.name for p in out.iterdir())}

    return _cached("pi", image.release, _key(image.release, kernel, LGPIO, Path(__file__).read_text(), OLED.read_text()),
                   build)


if __name__ == "__main__":         # python -m tests.system.piparts RELEASE: build (or find) one release's parts
    from .images import vm_image
    for release in sys.argv[1:]:
        print(pi_parts(vm_image(release)))
