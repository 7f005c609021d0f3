"""``molebox doctor``: is this Pi ready for a wiring profile? Each finding says what to do about it.

It looks, it does not touch: the screens' letters (the fonts and Pillow's Raqm layout that the
tests' frames are drawn with), groups of the user running it, the device nodes
(``/dev/gpiochip*``, ``/dev/i2c-N``, the serial port), the I2C bus speeds the
device tree reports (I2C1's, and I2C0's where a profile uses it), whether each
display and each mux (on its own parent bus) answers at its address, and
whether the pin factory's library can be imported. It never opens the pins;
the IO board's serial port it opens only when the service does not hold it, to
greet the board once and read which firmware build it runs.
"""
from __future__ import annotations

import grp
import importlib.util
import os
import pwd
import shlex
from dataclasses import dataclass
from pathlib import Path

from wiring.header import I2C_GPIO, by_gpio
from wiring.profile import MuxSpec, Profile

from .hardware.gpio import factory_name
from .render.fonts import CHAIN, LAYOUT_PACKAGE, PACKAGES

SERVICE_USER = "molebox"
I2C_HZ = 400_000
OLED_ADDRESSES = (0x3C, 0x3D)
LIBRARIES = {"lgpio": ("lgpio", "sudo apt install python3-lgpio"),
             "rpigpio": ("RPi.GPIO", "sudo apt install python3-rpi.gpio (a Pi 4 or older; a Pi 5 needs lgpio)")}
VENV_NOTE = ", in a venv made with --system-site-packages so it sees apt's packages (systemd/install.sh does both)"


@dataclass(frozen=True)
class Finding:
    what: str
    ok: bool
    detail: str
    fix: str = ""


class System:
    """The machine the doctor examines; tests hand it a fake one under ``root``."""

    def __init__(self, root: Path = Path("/")):
        self.root = root

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")

    def user(self) -> str:
        return pwd.getpwuid(os.geteuid()).pw_name

    def user_exists(self, name: str) -> bool:
        try:
            pwd.getpwnam(name)
        except KeyError:
            return False
        return True

    def members(self, group: str) -> list[str]:
        """The users the group database lists in ``group`` (what a fresh login of theirs gets)."""
        try:
            return list(grp.getgrnam(group).gr_mem)
        except KeyError:
            return []

    def groups(self) -> set[str]:
        """The groups of this process."""
        out = set()
        for gid in {*os.getgroups(), os.getegid()}:
            try:
                out.add(grp.getgrgid(gid).gr_name)
            except KeyError:
                pass
        return out

    def group_exists(self, name: str) -> bool:
        try:
            grp.getgrnam(name)
        except KeyError:
            return False
        return True

    def usable(self, path: Path) -> bool:
        return os.access(path, os.R_OK | os.W_OK)

    def library(self, name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except ImportError:
            return False

    def raqm(self) -> bool:
        """Whether Pillow lays text out with Raqm here (it needs FriBiDi from the system)."""
        from PIL import features
        return bool(features.check("raqm"))

    def greet(self, port: str, baud: int) -> tuple:
        """The IO board's answer to one HELLO (``iolink.identify``); SerialException while the service holds it."""
        from .hardware.iolink import identify
        return identify(str(self.path(port)), baud)

    def answers(self, bus: int, address: int) -> bool:
        """An SMBus quick write, as ``i2cdetect`` probes these addresses."""
        from smbus2 import SMBus
        try:
            with SMBus(bus) as smbus:
                smbus.write_quick(address)
        except OSError:
            return False
        return True


def service_wiring(system: System) -> str | None:
    """The ``--wiring`` the installed service runs with (/etc/default/molebox), if any."""
    defaults = system.path("/etc/default/molebox")
    words = shlex.split(defaults.read_text(), comments=True) if defaults.exists() else []
    args = " ".join(w.partition("=")[2] if w.startswith("MOLEBOX_ARGS=") else w for w in words).split()
    return args[args.index("--wiring") + 1] if "--wiring" in args[:-1] else None


def examine(profile: Profile, system: System) -> list[Finding]:
    return [_letters(system), *_groups(profile, system), *_gpio(profile, system), *_i2c(profile, system),
            *_serial(profile, system)]


def _letters(system: System) -> Finding:
    """The faces every name is drawn in, and Raqm's layout: without them names in some scripts are empty boxes,
    and letters are spaced otherwise than in the frames the tests check."""
    missing = [PACKAGES[face] for face in CHAIN if not system.path(str(face)).exists()]
    if not system.raqm():
        missing.append(LAYOUT_PACKAGE)
    if not missing:
        return Finding("letters", True, f"{', '.join(face.stem for face in CHAIN)}; Raqm layout")
    return Finding("letters", False, f"missing: {', '.join(missing)}",
                   f"sudo apt install {' '.join(dict.fromkeys(missing))} (systemd/install.sh installs them)")


def _needs_gpio(profile: Profile) -> bool:
    return profile.backend == "gpio" or profile.buzzer is not None or profile.status_led is not None


def _groups(profile: Profile, system: System) -> list[Finding]:
    needed = [("gpio", _needs_gpio(profile)), ("i2c", bool(profile.displays())),
              ("spi", "spi" in profile.interfaces), ("dialout", profile.ioboard is not None)]
    user, out = system.user(), []
    if user == "root" and system.user_exists(SERVICE_USER):      # run with sudo: check the service's user
        user, mine = SERVICE_USER, {g for g, _ in needed if SERVICE_USER in system.members(g)}
    else:
        mine = system.groups()
    for group, wanted in needed:
        if not wanted:
            continue
        if user == "root" or group in mine:
            out.append(Finding(f"group {group}", True, f"{user} is in it" if user != "root" else "root needs none"))
        elif not system.group_exists(group):
            out.append(Finding(f"group {group}", False, "no such group on this system",
                               "Raspberry Pi OS makes it and gives it the devices: is this Raspberry Pi OS Bookworm?"))
        else:
            out.append(Finding(f"group {group}", False, f"{user} is not in it",
                               f"sudo usermod -aG {group} {user}, then log in again (or restart the service)"))
    return out


def _device(system: System, what: str, path: Path, missing: str, group: str) -> Finding:
    if not path.exists():
        return Finding(what, False, f"no /{path.relative_to(system.root).as_posix()}", missing)
    if not system.usable(path):
        return Finding(what, False, f"{path.name} is not readable and writable for {system.user()}",
                       f"join the {group} group (see above)")
    return Finding(what, True, path.name)


def _gpio(profile: Profile, system: System) -> list[Finding]:
    if not _needs_gpio(profile):
        return []
    chips = sorted(system.path("/dev").glob("gpiochip*"))
    out = [_device(system, "GPIO", chips[0] if chips else system.path("/dev/gpiochip0"),
                   "not a Raspberry Pi, or a kernel without the GPIO character device", "gpio")]
    try:
        name = factory_name(profile)
    except ValueError as exc:
        return out + [Finding("pin factory", False, str(exc), "set pin_factory in the profile or unset "
                              "GPIOZERO_PIN_FACTORY")]
    module, install = LIBRARIES[name]
    if system.library(module):
        out.append(Finding("pin factory", True, f"{name} ({module} imports)"))
    else:
        out.append(Finding("pin factory", False, f"{name}: {module} is not importable", install + VENV_NOTE))
    return out


def mux_overlay(mux: MuxSpec) -> str:
    """The config.txt line that makes the mux's channels buses of their own (its parent named unless I2C1)."""
    bus = "" if mux.parent == 1 else f",i2c{mux.parent}"
    return f"dtoverlay=i2c-mux,pca9548,addr=0x{mux.address:02x}{bus}"


def _i2c(profile: Profile, system: System) -> list[Finding]:
    displays, muxes = profile.displays(), profile.muxes
    buses = sorted({spec.bus for spec in displays.values()} | {mux.parent for mux in muxes})
    out, usable = [], set()
    for bus in buses:
        mux = profile.mux_of(bus)
        if mux is not None:
            missing = (f"the mux's channels appear with {mux_overlay(mux)} in /boot/firmware/config.txt; reboot, "
                       f"then `ls /dev/i2c-*` lists their numbers for the profile")
        elif bus == 0:
            missing = ("switch I2C0 on (GPIO0/1): dtparam=i2c_vc=on and dtparam=i2c_vc_baudrate=400000 in "
                       "/boot/firmware/config.txt, before any dtoverlay line, then reboot")
        else:
            missing = ("switch I2C on: sudo make install does it (dtparam=i2c_arm=on in /boot/firmware/config.txt), "
                       "then reboot")
        found = _device(system, f"I2C{bus}", system.path(f"/dev/i2c-{bus}"), missing, "i2c")
        out.append(found)
        if found.ok:
            usable.add(bus)
    for bus, setting, installed in ((1, "i2c_arm_baudrate", "; sudo make install sets it"), (0, "i2c_vc_baudrate", "")):
        speed = _speed(system, bus)
        if bus in usable and speed is not None:
            hz = int.from_bytes(speed.read_bytes()[:4], "big")
            out.append(Finding(f"I2C{bus} speed", hz >= I2C_HZ, f"{hz // 1000} kHz", "" if hz >= I2C_HZ else
                               f"dtparam={setting}=400000 in /boot/firmware/config.txt, then reboot (a frame "
                               f"takes 93 ms at 100 kHz, 23 ms at 400 kHz){installed}"))
    for mux in muxes:
        if mux.parent not in usable:
            continue
        there = system.answers(mux.parent, mux.address)
        sda, scl = I2C_GPIO.get(mux.parent, I2C_GPIO[1])
        where = f"TCA9548A at 0x{mux.address:02X} on I2C{mux.parent}"
        out.append(Finding("mux" if len(muxes) == 1 else f"mux I2C{mux.parent}", there,
                           where + ("" if there else " does not answer"),
                           "" if there else f"check the mux's VCC, GND, SDA (GPIO{sda}), SCL (GPIO{scl}) and its "
                           "A0-A2 address pins"))
    for name, spec in displays.items():
        if spec.bus in usable:
            taken = {s.address for s in displays.values() if s.bus == spec.bus}
            out.append(_display(system, name, spec, profile.mux_of(spec.bus), taken))
    return out


def _speed(system: System, bus: int) -> Path | None:
    """The bus's clock-frequency in the device tree: its adapter's own node, else (I2C0, which the Pi's
    device tree reaches through a pin mux) the controller's node, found by its label."""
    own = system.path(f"/sys/class/i2c-adapter/i2c-{bus}/of_node/clock-frequency")
    if own.exists() or bus != 0:
        return own if own.exists() else None
    label = system.path("/sys/firmware/devicetree/base/__symbols__/i2c0if")
    if not label.exists():
        return None
    node = system.path("/sys/firmware/devicetree/base") / label.read_bytes().rstrip(b"\0").decode().lstrip("/")
    return node / "clock-frequency" if (node / "clock-frequency").exists() else None


def _display(system: System, name: str, spec, mux, taken: set[int]) -> Finding:
    """Does the display answer? If not, is it at the other OLED address (not another display's)?"""
    where = f"{spec.driver} at 0x{spec.address:02X} on I2C{spec.bus}"
    if system.answers(spec.bus, spec.address):
        return Finding(f"{name} display", True, where)
    others = [a for a in OLED_ADDRESSES if a not in taken and system.answers(spec.bus, a)]
    if others:
        fix = (f"something answers at 0x{others[0]:02X} instead: set address = 0x{others[0]:02X} for {name} in the "
               f"profile, or move the module's address jumper (two displays on one bus need 0x3C and 0x3D)")
    else:
        sda, scl = I2C_GPIO.get(spec.bus, I2C_GPIO[1])
        header = by_gpio()
        lines = ("its mux channel's SDA and SCL" if mux is not None else
                 f"SDA to GPIO{sda} (pin {header[sda].physical}), SCL to GPIO{scl} (pin {header[scl].physical})")
        fix = f"check its wiring: VCC to 3.3 V, GND, {lines}"
    return Finding(f"{name} display", False, f"nothing answers: {where}", fix)


def _serial(profile: Profile, system: System) -> list[Finding]:
    if profile.ioboard is None:
        return []
    from .hardware.ioboard import port_finder
    try:
        port = port_finder(profile.ioboard)()
    except LookupError as exc:
        return [Finding("IO board", False, str(exc), "plug the Pico in with a data cable (not a charging-only "
                        "one), or set port = \"/dev/ttyACM0\" in the profile's [ioboard]")]
    found = _device(system, "IO board", system.path(port),
                    "set port in the profile's [ioboard] to the board's port (`ls /dev/ttyACM* /dev/serial0`)",
                    "dialout")
    return [found, _firmware(profile, system, port)] if found.ok else [found]


def _firmware(profile: Profile, system: System, port: str) -> Finding:
    """Which firmware the board runs: it is greeted once, unless the running service holds its port."""
    from firmware import protocol as p
    from serial import SerialException

    from .hardware.iolink import UPDATE, lamp_name
    try:
        version, _, build, lamp_type, _, levels, _ = system.greet(port, profile.ioboard.baud)
    except SerialException as exc:
        if "lock" in str(exc):
            return Finding("IO board code", True, "not greeted: the running service holds its port (its dashboard "
                           "and seat 1's screen say if the board runs another firmware build)")
        return Finding("IO board code", False, f"cannot open {port}: {exc}", "unplug the board and plug it in again")
    except TimeoutError:
        return Finding("IO board code", False, "no answer to a HELLO within 1 s: no molebox firmware on it, or it "
                       "is held at the REPL", "flash it: docs/ioboard.md, Flashing; then unplug it and plug it in")
    if version != p.VERSION:
        return Finding("IO board code", False, f"speaks protocol v{version}, molebox v{p.VERSION}", UPDATE)
    what = f"firmware build {build:06x}, {lamp_name(lamp_type)} lamps, {len(levels)} seats"
    if build != p.BUILD:
        return Finding("IO board code", False, f"{what}; this molebox's build is {p.BUILD:06x}", UPDATE)
    return Finding("IO board code", True, f"{what} (this molebox's build)")


def report(profile: Profile, user: str, findings: list[Finding]) -> str:
    lines = [f"molebox doctor: {profile.name} ({profile.backend} backend), as {user}"]
    for f in findings:
        lines.append(f"  {'ok ' if f.ok else 'FIX'}  {f.what:<15} {f.detail}")
        if f.fix:
            lines.append(f"       -> {f.fix}")
    problems = sum(not f.ok for f in findings)
    lines.append(f"{problems} problem{'s' if problems != 1 else ''} to fix" if problems else "all is well")
    return "\n".join(lines)
