"""The IO board's three files as they go onto the Pico, main.py's build options set from the wiring profile.

``molebox firmware DIR`` writes them, so a builder never edits the checkout: ``SEATS`` is the profile's
seat count, ``LAMPS`` its ``[ioboard] lamps``, ``LINK`` "uart" for a port on the Pi's own UART, and
``--set NAME=VALUE`` sets any other option at the top of main.py (``SETTLE_US=300``). docs/ioboard.md,
Flashing, copies them on with mpremote, from the venv of its own that its step 2 makes (``MPREMOTE``): a
bare ``mpremote`` is on no PATH on Raspberry Pi OS.
"""
from __future__ import annotations

import re
from pathlib import Path

import firmware
from wiring.profile import Profile

SOURCE = Path(firmware.__file__).parent
FILES = ("protocol.py", "board.py", "main.py")
MPREMOTE = "~/mpremote/bin/mpremote"        # docs/ioboard.md, Flashing, step 2: python3 -m venv ~/mpremote
UART_PORTS = ("/dev/serial", "/dev/ttyAMA", "/dev/ttyS")


def profile_options(profile: Profile) -> dict[str, str]:
    """The build options a profile decides, as Python source: ``{"SEATS": "8", "LAMPS": '"ws2812"'}``."""
    spec = profile.ioboard
    if spec is None:
        raise ValueError(f"{profile.path}: {profile.name} has no IO board (backend = \"ioboard\")")
    link = "uart" if spec.port and spec.port.startswith(UART_PORTS) else "usb"
    return {"SEATS": str(len(profile.seats)), "LAMPS": f'"{spec.lamps}"', "LINK": f'"{link}"'}


def set_options(main: str, options: dict[str, str]) -> str:
    """main.py's text with each build option's value replaced (its comment kept)."""
    for option, value in options.items():
        main, n = re.subn(rf"^{option} = [^#\n]*?(\s*#|$)", rf"{option} = {value}\1", main, count=1, flags=re.M)
        if n != 1:
            raise ValueError(f"main.py has no build option {option}")
    return main


def write(folder: Path, options: dict[str, str], source: Path = SOURCE) -> list[Path]:
    """The three files flat in ``folder``, main.py with ``options``; their paths, in the order to copy them."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in FILES:
        text = (source / name).read_text()
        (folder / name).write_text(set_options(text, options) if name == "main.py" else text)
        out.append(folder / name)
    return out
