"""The Raspberry Pi's 40-pin header as gpiozero describes it, and what a wiring profile puts on it.

The header (J8) is the same on every 40-pin Pi (3, 4, 5, Zero 2 W: a test
holds gpiozero to that), so one board's data serves them all. The buses a
profile may switch on (I2C1, SPI0, the UART, and I2C0 for a second display bus) and the HAT ID
EEPROM's I2C0 are found in gpiozero's own pin-function tables, not typed in here again.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import gpiozero.pins.data as board_data
from gpiozero.pins.pi import PiBoardInfo

from .profile import HOLES_PER_SEAT, Profile

REFERENCE_REVISION = 0xC03111       # a Raspberry Pi 4 B: its J8 stands for every 40-pin header
PINS_PER_SEAT = 2 * HOLES_PER_SEAT + 1     # five holes, five lamps, OK
UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0")     # the IO board on GPIO14/15, not on USB

# A bus, the pin functions that make it up (as gpiozero names them), and how config.txt switches it on.
BUSES = {
    "i2c": (re.compile(r"I2C1 (SDA|SCL)$"), "I2C1", "dtparam=i2c_arm=on"),
    "spi": (re.compile(r"SPI0 (MOSI|MISO|SCLK|CE\d)$"), "SPI0", "dtparam=spi=on"),
    "uart": (re.compile(r"UART\d (TXD|RXD)$"), "the UART", "enable_uart=1"),
    "i2c0": (re.compile(r"I2C0 (SDA|SCL)$"), "I2C0", "dtparam=i2c_vc=on"),
}
# Never a GPIO of the profile's: a HAT's EEPROM answers on I2C0 and the firmware probes it at boot. A profile
# may still put a mux or displays on I2C0 (a box with no HAT), and then the bus is in use for them instead.
RESERVED = {"i2c0": "the HAT ID EEPROM"}
RESERVED_NOTE = "the firmware probes it at boot"
I2C_GPIO = {1: (2, 3), 0: (0, 1)}       # the header's I2C buses: their SDA and SCL GPIO


@dataclass(frozen=True)
class HeaderPin:
    physical: int                   # 1..40
    name: str                       # GPIO17, 3V3, GND
    gpio: int | None
    pull: str                       # "up": a fixed pull-up resistor on the board (GPIO2/3)
    functions: tuple[str, ...]      # gpiozero's alternate functions of the pin, e.g. ("I2C1 SDA", ...)

    def bus(self) -> str | None:
        """The bus (a key of BUSES) this pin belongs to, if any."""
        return next((bus for bus, (pattern, _, _) in BUSES.items() if any(map(pattern.match, self.functions))), None)


@dataclass(frozen=True)
class Use:
    """One GPIO a profile uses, with the profile key that says so."""

    header: str
    gpio: int
    key: str                        # e.g. seats[2].lamps[3]
    role: str                       # e.g. seat 2 lamp 3
    output: bool
    section: str | None             # where the key is in the file: its [section] and index
    index: int
    field: str


@cache
def pins(revision: int = REFERENCE_REVISION) -> tuple[HeaderPin, ...]:
    """The 40 pins of J8, by physical number, from gpiozero's board data."""
    info = PiBoardInfo.from_revision(revision)
    out = []
    for number, pin in sorted(info.headers["J8"].pins.items()):
        gpio = int(pin.name[4:]) if re.fullmatch(r"GPIO\d+", pin.name) else None
        functions = tuple(getattr(board_data, f"PI1_GPIO{gpio}").values()) if gpio is not None else ()
        out.append(HeaderPin(number, pin.name, gpio, pin.pull, functions))
    return tuple(out)


def by_gpio(revision: int = REFERENCE_REVISION) -> dict[int, HeaderPin]:
    return {p.gpio: p for p in pins(revision) if p.gpio is not None}


def buses_taken(profile: Profile) -> dict[str, str]:
    """The buses whose pins are no plain GPIO: the reserved ones and those the profile uses, with why."""
    return {**RESERVED, **buses_in_use(profile)}


def reserved(profile: Profile) -> dict[str, str]:
    """The reserved buses the profile leaves alone, with why."""
    used = buses_in_use(profile)
    return {bus: why for bus, why in RESERVED.items() if bus not in used}


def controllers(profile: Profile) -> set[int]:
    """The Pi's own I2C buses whose wires the profile's displays and muxes travel on."""
    if profile.backend == "sim":
        return set()
    return {profile.controller(spec.bus) for spec in profile.displays().values()} | {m.parent for m in profile.muxes}


def buses_in_use(profile: Profile) -> dict[str, str]:
    """The Pi's buses the profile switches on, each with the reason."""
    used = {}
    wires = controllers(profile)
    if wires - {0}:                     # I2C1, or a bus that `molebox wiring check` refuses
        used["i2c"] = "the displays"
    if 0 in wires:
        used["i2c0"] = "the displays"
    if profile.ioboard is not None and profile.ioboard.port in UART_PORTS:
        used["uart"] = f"the IO board on {profile.ioboard.port}"
    for bus in profile.interfaces:
        used.setdefault(bus, "interfaces")
    return used


def uses(profile: Profile) -> list[Use]:
    """Every GPIO the profile puts to use, in file order."""
    out = []
    for i, seat in enumerate(profile.seats):
        for field, numbers, output in (("holes", seat.holes, False), ("lamps", seat.lamps, True)):
            for k, gpio in enumerate(numbers, 1):
                role = f"seat {i + 1} {'hole' if field == 'holes' else 'lamp'} {k}"
                out.append(Use(seat.header, gpio, f"seats[{i + 1}].{field}[{k}]", role, output, "seats", i, field))
        if seat.ok is not None:
            out.append(Use(seat.header, seat.ok, f"seats[{i + 1}].ok", f"seat {i + 1} OK", False, "seats", i, "ok"))
    for field, role in (("buzzer", "buzzer"), ("status_led", "status LED")):
        gpio = getattr(profile, field)
        if gpio is not None:
            out.append(Use("main", gpio, field, role, True, None, 0, field))
    return out

