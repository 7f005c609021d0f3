"""The ``gpio`` backend in the VM: the real unit, lgpio on gpio-sim lines standing for the Pi's GPIO numbers, luma
on the test's I2C bus of two displays.

What a Pi has and the VM lacks is put in by the test, from ``tests/system/pi/`` and the parts built
for the release (``piparts.py``): gpio-sim and i2c-oled-sim (a chip of GPIO0-27 and I2C1's displays, made at
every boot by ``molebox-test-header.service``, before molebox), the groups Raspberry Pi OS's udev rules give the GPIO
chip and the I2C buses, lgpio in the system's site-packages where Raspberry Pi OS's python3-lgpio
lives (the service's venv sees it), and a Pi 4's board revision bound over ``/proc/cpuinfo`` for the
service by a drop-in (gpiozero's lgpio factory asks for one). The unit, the user, its groups and
the profile are install.sh's, untouched. ``header.py`` in the guest is the finger and the eye: a press
pulls a button's line down and up again through gpio-sim, a lamp is read from its line's value
over a second (steady, blinking, or PWM's dim), and a display's frame from its RAM.

What the lamps and displays must show is what the ``sim`` backend shows for the same presses: the same
service (``molebox run --backend sim``, same profile) on the host, pressed through its web panel, its lamps
read from the simulator's stream and its frames from ``--frames`` once they are still.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from companion.inputs import HOLES
from wiring.profile import load

from .images import ROOT
from .panel import Panel, Stream
from .vm import Vm, free_ports

PROFILE = "gpio-2"                  # install.sh's default: two seats straight on the header
ARGS = f"--backend gpio --wiring {PROFILE} --listen 0.0.0.0"
LIB = "/usr/local/lib/molebox-test"             # where the test image keeps its own programs
HEADER = f"python3 {LIB}/header.py"
STILL_S = 3.0               # the sim's lamps and frames this still after a press: settled (a reveal's moment: 2.4 s)
MATCH_S = 30                # how long the VM may take to show what the sim showed


def controls() -> dict[tuple[int, str], int]:
    """Each seat's buttons by name (``hole1``..``hole5``, ``ok``): the GPIO of the profile."""
    return {(n, name): gpio for n, seat in enumerate(load(PROFILE).seats, 1)
            for name, gpio in zip(HOLES + ("ok",), seat.holes + (seat.ok,))}


def lamp_lines() -> dict[int, tuple[int, ...]]:
    """Each seat's lamps' GPIO, hole 1 to 5."""
    return {n: seat.lamps for n, seat in enumerate(load(PROFILE).seats, 1)}


def presses(script: str) -> list[tuple[int, str]]:
    """A press script's presses (``SEAT CONTROL`` lines, docs/scripts.md), ``#`` comments left out."""
    return [(int(words[0]), words[1]) for line in script.splitlines() if (words := line.split("#")[0].split())]


@dataclass(frozen=True)
class Shown:
    """What the box showed once still after a press: each seat's lamps, and each display's frame (mode "1")."""

    lamps: dict[int, list[str]]
    frames: dict[str, bytes]


def sim_replay(script: list[tuple[int, str]]) -> tuple[list[Shown], list[list[dict]]]:
    """The ``sim`` backend's answer to ``script`` from a fresh journal, on the host: what it showed once still after
    each press (its lamps from the simulator's stream, its frames from ``--frames``), and the public log then."""
    port, = free_ports(1)
    with tempfile.TemporaryDirectory() as tmp:
        frames = Path(tmp) / "frames"
        service = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--backend", "sim", "--wiring",
                                    PROFILE, "--listen", "127.0.0.1", "--port", str(port), "--db", f"{tmp}/molebox.db",
                                    "--frames", str(frames)],
                                   cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(f"{tmp}/log", "w"))
        try:
            panel = Panel(port)
            panel.wait_ready(timeout=120, alive=lambda: service.poll() is None)
            stream = Stream(port)
            seats = lamp_lines()
            try:
                assert stream.wait(lambda s: all(f"seat{n}" in s.lamps for n in seats), 30), "no lamps on the stream"
                shown, logs = [], []
                for seat, control in script:
                    panel.press(seat, control)
                    time.sleep(STILL_S)
                    lamps = {n: stream.settled(f"seat{n}", STILL_S, of="lamps") for n in seats}
                    for name in displays():
                        stream.settled(name, STILL_S)
                    shown.append(Shown(lamps, {name: _bits(Image.open(frames / f"{name}.png"))
                                               for name in displays()}))
                    logs.append(panel.get_json("/api/state").get("log", []))       # none in the lobby
            finally:
                stream.close()
            return shown, logs
        finally:
            service.terminate()
            service.wait(30)


def displays() -> dict[str, str]:
    """The profile's displays by name (``seat1``...), each with its address on I2C1 as the debugfs file names it."""
    return {f"seat{n}": f"{seat.display.address:02x}" for n, seat in enumerate(load(PROFILE).seats, 1)}


def _bits(image: Image.Image) -> bytes:
    return image.convert("1").tobytes()


def ram_image(ram: bytes, width: int = 128, pages: int = 8) -> Image.Image:
    """An SSD1306's RAM as the glass shows it: page p, column x, bit b is the pixel (x, 8p + b)."""
    image = Image.new("1", (width, pages * 8))
    pixels = image.load()
    for page in range(pages):
        for x in range(width):
            byte = ram[page * width + x]
            for bit in range(8):
                pixels[x, page * 8 + bit] = (byte >> bit) & 1
    return image


class Header:
    """The VM's header as the test touches it: presses on the buttons' lines, the lamps read from theirs and the
    displays from their RAM."""

    def __init__(self, vm: Vm):
        self.vm = vm
        self.buttons = controls()
        self.lamps_of = lamp_lines()

    def install(self, share: str) -> None:
        """The modules, lgpio, the udev rule, the header's unit and the revision's drop-in, from the parts in
        ``share`` and the checkout; the header made now, as at every boot."""
        self.vm.sh(f"mkdir -p {LIB} /lib/modules/$(uname -r)/updates /etc/systemd/system/molebox.service.d && "
                   f"cp {share}/*.ko /lib/modules/$(uname -r)/updates/ && depmod -a && "
                   f"python3 -m zipfile -e {share}/lgpio-*.whl /usr/lib/python3/dist-packages && "
                   f"cd /root/molebox/tests/system/pi && cp header.py cpuinfo {LIB}/ && "
                   "cp 99-molebox-test-pi.rules /etc/udev/rules.d/ && udevadm control --reload && "
                   "cp molebox-test-header.service /etc/systemd/system/ && "
                   "cp pi-revision.conf /etc/systemd/system/molebox.service.d/ && "
                   "systemctl daemon-reload && systemctl enable --now molebox-test-header.service", timeout=120)

    def press(self, seat: int, control: str) -> None:
        self.vm.sh(f"{HEADER} press {self.buttons[seat, control]}")

    def look(self, seats=None) -> tuple[Shown, dict[str, Image.Image]]:
        """What the seats' lamps show now (over a second, from their lines), and the displays (a frame switched off
        is ``b""``); the displays' frames as images too."""
        seats = seats or list(self.lamps_of)
        lines = [gpio for n in seats for gpio in self.lamps_of[n]]
        seen = json.loads(self.vm.sh(f"{HEADER} look {' '.join(map(str, lines))}", timeout=60))
        images = {name: ram_image(bytes.fromhex(seen["displays"][address]["ram"])) for name, address in displays().items()}
        frames = {name: _bits(image) if seen["displays"][displays()[name]]["on"] else b""
                  for name, image in images.items()}
        return Shown({n: [seen["lamps"][str(gpio)] for gpio in self.lamps_of[n]] for n in seats}, frames), images

    def wait_shown(self, wanted: Shown, dark: tuple[str, ...] = ()) -> tuple[Shown, dict[str, Image.Image]]:
        """What the lamps and the displays but the ``dark`` ones show once it is ``wanted``; the last look if it is
        not within ``MATCH_S``."""
        def lit(shown: Shown) -> Shown:
            return Shown(shown.lamps, {name: frame for name, frame in shown.frames.items() if name not in dark})

        deadline = time.monotonic() + MATCH_S
        while lit((seen := self.look())[0]) != lit(wanted) and time.monotonic() < deadline:
            pass
        return lit(seen[0]), seen[1]

    def plug(self, name: str, present: bool) -> None:
        """Unplug the display ``name`` (``seat2``) from I2C1, or plug it back."""
        self.vm.sh(f"{HEADER} plug {displays()[name]} {'Y' if present else 'N'}")
