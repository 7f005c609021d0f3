"""A netlist's data: each wire's two ends, the parts they join, and the whole (:mod:`wiring.netlist` makes one from
a profile, :mod:`wiring.panel` the panels' insides)."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class End:
    part: str                       # "pin" for the Pi's header
    terminal: str                   # the physical pin number, for the header


@dataclass(frozen=True)
class Wire:
    a: End                          # from: the header pin, or the part that feeds it
    b: End                          # to
    net: str                        # "seat1".."seat8", or a shared line: "3V3", "GND", "SDA" ...
    title: str
    cable: bool = False             # a multi-core cable (the IO board's to a seat, USB), drawn thick


@dataclass
class Part:
    key: str
    short: str                      # how other parts' labels name it: "seat 1 panel", "mux"
    title: str
    notes: tuple[str, ...] = ()
    net: str = ""                   # its seat, for its colour
    terminals: dict[str, str] = field(default_factory=dict)     # name -> label
    bands: dict[str, str] = field(default_factory=dict)         # the hub: terminal name -> its strip
    strips: tuple[str, ...] = ()                                # the hub: its strips' lines, top to bottom
    kind: str = ""                                              # a panel's part: "button", "led", "oled" ...


@dataclass
class Netlist:
    parts: list[Part]
    wires: list[Wire]
    panel_parts: list[Part] = field(default_factory=list)     # inside the seats' panels (``wiring/panel.py``)
    panel_wires: list[Wire] = field(default_factory=list)     # from their plugs' pins to those parts

    def part(self, key: str) -> Part:
        return next(p for p in self.parts + self.panel_parts if p.key == key)
