"""The IO board's own circuit, part by part and net by net: what joins the Pico, its level shifter and its resistors.

One list serves the IO board's stripboard (``wiring/ioboardstrip.py``), the Pico drawing (``wiring/pico.py``) and
the IO board's notes in the box's drawing (``wiring/netlist.py``), so all three name the same pin for every net.
Nets: a Pico pin's own line by its name (GP2, or RUN for a pin nothing takes); a cable line by its seat
(``seat1 row``) or, for a matrix column every seat's socket shares, by its button (``hole1``, ``ok``); the
supplies 3V3 (the Pico's 3V3(OUT)), ``5V in`` (the pixel supply, before its fuse), 5V, VSYS, VBUS and GND; the
pixel chain's DIN1 ... DIN8, DINn being seat n's DIN and seat n-1's DOUT.
"""
from __future__ import annotations

from dataclasses import dataclass

from .hardware import (BULK, DECOUPLING, PICO_COLUMN_PULLUP, PICO_COLUMN_SERIES, PICO_PIXEL_PIN, PICO_PIXEL_SERIES,
                       PICO_ROW_PINS, PICO_ROW_SERIES, PICO_VSYS_DIODE, PIXEL_FUSE, PIXEL_PULLDOWN)
from .profile import Profile

# The Pico's pins, 1 to 40 (Raspberry Pi Pico datasheet, pinout): GP numbers, or what else the pin is.
PINS = ("GP0", "GP1", "GND", "GP2", "GP3", "GP4", "GP5", "GND", "GP6", "GP7", "GP8", "GP9", "GND", "GP10", "GP11",
        "GP12", "GP13", "GND", "GP14", "GP15", "GP16", "GP17", "GND", "GP18", "GP19", "GP20", "GP21", "GND", "GP22",
        "RUN", "GP26", "GP27", "GND", "GP28", "ADC_VREF", "3V3(OUT)", "3V3_EN", "GND", "VSYS", "VBUS")
COLUMNS = ("hole1", "hole2", "hole3", "hole4", "hole5", "ok")
FIRST_COLUMN = 10
# The 74AHCT125 (DIP-14), pin 1 first: gate 1 carries the pixels' data, the other three are off (OE high) with
# their inputs held low (TI's 74AHCT125 datasheet: unused inputs to VCC or GND).
SHIFTER_PINS = ("1OE", "1A", "1Y", "2OE", "2A", "2Y", "GND", "3Y", "3A", "3OE", "4Y", "4A", "4OE", "VCC")
SHIFTER_NETS = ("GND", f"GP{PICO_PIXEL_PIN}", "1Y", "5V", "GND", "2Y", "GND", "3Y", "GND", "5V", "4Y", "GND", "5V",
                "5V")
SUPPLIES = {36: "3V3", 39: "VSYS", 40: "VBUS"}
GROUND_PIN = 38                         # the GND pin the board's ground strip is linked to (any GND pin would do)
PICO_NETS = tuple(SUPPLIES.get(n, name) for n, name in enumerate(PINS, 1))     # each pin's net, pin 1 first


@dataclass(frozen=True)
class Component:
    ref: str                        # U1 (the Pico), U2, R1 ..., D1, F1, C1, or a pad's name
    kind: str                       # "pico", "chip", "resistor", "diode", "fuse", "capacitor", "electrolytic", "pad"
    value: str
    nets: tuple[str, ...]           # each pin's net, pin 1 first (a diode: anode, cathode; an electrolytic: +, -;
    #                                 a pad: its wire's)
    label: str = ""                 # a pad: where its wire goes


def hot(profile: Profile) -> dict[str, str]:
    """The nets at the pixel supply's 5 V without being it: its input, VSYS and VBUS, the shifter's outputs, the chain."""
    nets = ["5V in", "VSYS", "VBUS", "1Y", "2Y", "3Y", "4Y"] + [f"DIN{s}" for s in range(1, len(profile.seats) + 1)]
    return dict.fromkeys(nets, "5V")


def circuit(profile: Profile) -> list[Component]:
    """Every part of the profile's IO board, the pads its wires leave from included."""
    if profile.ioboard is None or profile.lamp.kind != "ws2812":
        raise ValueError(f"{profile.name}: the IO board's circuit is drawn for the pixel chain (backend = \"ioboard\", "
                         "lamps = \"ws2812\")")
    seats = range(1, len(profile.seats) + 1)
    out = [Component("U1", "pico", "Raspberry Pi Pico", PICO_NETS)]
    refs = iter(range(1, 100))
    out += [Component(f"R{next(refs)}", "resistor", PICO_ROW_SERIES, (f"GP{PICO_ROW_PINS[s - 1]}", f"seat{s} row"))
            for s in seats]
    for c, name in enumerate(COLUMNS):
        out += [Component(f"R{next(refs)}", "resistor", PICO_COLUMN_SERIES, (f"GP{FIRST_COLUMN + c}", name)),
                Component(f"R{next(refs)}", "resistor", PICO_COLUMN_PULLUP, (name, "3V3"))]
    out += [Component("U2", "chip", "74AHCT125", SHIFTER_NETS),
            Component(f"R{next(refs)}", "resistor", PIXEL_PULLDOWN, (f"GP{PICO_PIXEL_PIN}", "GND")),
            Component(f"R{next(refs)}", "resistor", PICO_PIXEL_SERIES, ("1Y", "DIN1")),
            Component("C1", "capacitor", DECOUPLING, ("5V", "GND")),
            Component("C2", "electrolytic", BULK, ("5V", "GND")),
            Component("D1", "diode", PICO_VSYS_DIODE, ("5V", "VSYS")),
            Component("F1", "fuse", PIXEL_FUSE, ("5V in", "5V")),
            Component("5V in", "pad", "", ("5V in",), "the pixel supply's +5 V"),
            Component("GND in", "pad", "", ("GND",), "the pixel supply's 0 V")]
    for s in seats:
        out.append(Component(f"seat{s} row", "pad", "", (f"seat{s} row",), f"seat {s} logic plug: row"))
        out += [Component(f"seat{s} {name}", "pad", "", (name,), f"seat {s} logic plug: {name}") for name in COLUMNS]
        out += [Component(f"seat{s} {line}", "pad", "", (net,), f"seat {s} lamp plug: {line}")
                for line, net in (("5V", "5V"), ("DIN", f"DIN{s}"), ("DOUT", f"DIN{s + 1}"), ("GND", "GND"))
                if s < len(profile.seats) or line != "DOUT"]
    if uart(profile):
        out += [Component("TX", "pad", "", ("GP0",), "the Pi's GPIO15 (RXD)"),
                Component("RX", "pad", "", ("GP1",), "the Pi's GPIO14 (TXD)")]
    return out


def uart(profile: Profile) -> bool:
    """Whether the board talks to the Pi on UART0 (GP0, GP1) instead of USB."""
    port = profile.ioboard.port or ""
    return port.startswith(("/dev/serial", "/dev/ttyAMA", "/dev/ttyS"))


def pin_of(net: str) -> int:
    """The Pico pin a GP net or supply is on (the first, for GND)."""
    return GROUND_PIN if net == "GND" else PICO_NETS.index(net) + 1


def pin_ref(net: str) -> str:
    """``GP16 (pin 21)``: how a drawing names a Pico pin, by its datasheet name and number."""
    pin = pin_of(net)
    return f"{PINS[pin - 1]} (pin {pin})"


def joined(parts: list[Component], net: str) -> list[tuple[Component, int]]:
    """Every (part, pin index) on ``net``."""
    return [(part, i) for part in parts for i, n in enumerate(part.nets) if n == net]
