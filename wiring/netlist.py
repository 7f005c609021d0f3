"""What a box is made of and what connects to what: the parts and wires a wiring profile implies.

The diagram draws this. Every wire runs between two ends, each a header pin
(``End("pin", "7")``) or a part's terminal (``End("seat1", "hole1")``), and
every end carries exactly one wire. A supply or bus line that several parts
share (3V3, GND, SDA, SCL, the lamp supply) runs once from its header pin to
its strip on the hub, a piece of stripboard in the box, and from the strip to
each part. Parts are listed in the order the diagram stacks them below the
header: supplies, the hub, the mux and displays, then each seat's driver and
panel.
"""
from __future__ import annotations

from . import connector, guard, panel
from .hardware import (BUTTON_SERIES, DISPLAYS, I2C0_PULLUP_OHMS, LAMP_KINDS, PICO_COLUMN_PULLUP, PICO_COLUMN_SERIES,
                       PICO_COLUMNS, PICO_PIXEL_PIN, PICO_PIXEL_SERIES, PICO_ROW_PINS, PICO_ROW_SERIES, PICO_VSYS_DIODE,
                       PIXEL_FUSE, PIXEL_PULLDOWN, STATUS_LED,
                       led_resistor)
from .header import I2C_GPIO, pins
from .iocircuit import COLUMNS, FIRST_COLUMN, pin_ref
from .nets import End, Netlist, Part, Wire
from .profile import DisplaySpec, MuxSpec, Profile, ProfileError, builtin_names

# The header pin that feeds each shared line: SDA/SCL are I2C1's (GPIO2/3), SDA0/SCL0 I2C0's (GPIO0/1), for
# a second mux or displays on the Pi's other I2C controller.
NET_PINS = {"3V3": 1, "5V": 2, "SDA": 3, "SCL": 5, "GND": 9, "SDA0": 27, "SCL0": 28}
POWER_NETS = ("3V3", "5V", "12V", "GND", "SDA", "SCL", "SDA0", "SCL0")    # the shared lines, their wires in this order
I2C_NETS = {1: ("SDA", "SCL"), 0: ("SDA0", "SCL0")}                # each header I2C bus's two lines


def pin_end(gpio: int) -> End:
    return End("pin", str(next(p.physical for p in pins() if p.gpio == gpio)))


def netlist(profile: Profile) -> Netlist:
    """The parts and wires of the box the profile describes (a simulator profile has none)."""
    if profile.backend == "sim":
        raise ProfileError(f"{profile.path}: {profile.name} is the simulator's profile: nothing to wire or buy; "
                           f"use one of {', '.join(n for n in builtin_names() if not n.startswith('sim'))} or your own "
                           "box's profile")
    return _Builder(profile).build()


class _Builder:
    def __init__(self, profile: Profile):
        self.profile = profile
        self.parts: list[Part] = []
        self.wires: list[Wire] = []
        self.panel_parts: list[Part] = []
        self.panel_wires: list[Wire] = []
        self.needs: dict[str, list[End]] = {net: [] for net in POWER_NETS}
        self.sources = {net: End("pin", str(pin)) for net, pin in NET_PINS.items()}

    def build(self) -> Netlist:
        p, kind = self.profile, LAMP_KINDS[self.profile.lamp.kind]
        if p.ioboard:
            self.add(Part("piusb", "the Pi's USB", "Raspberry Pi: a USB-A port", terminals={"usb": "USB-A"}))
        if kind.driver and kind.volts != 5:
            supply = self.add(Part("lampsupply", "lamp supply", f"{kind.volts:g} V lamp supply (DC adapter)",
                                   terminals={"+": f"+{kind.volts:g} V", "0V": "0 V (GND)"}))
            self.sources[f"{kind.volts:g}V"] = End(supply.key, "+")
            self.needs["GND"].append(End(supply.key, "0V"))
        if p.ioboard and p.lamp.kind == "ws2812":
            self.add(Part("pixelsupply", "pixel supply", "5 V supply for the pixel chain (2 A)",
                          terminals={"+": "+5 V", "0V": "0 V (GND)"}))
        hub = self.add(Part("hub", "hub", "hub: stripboard, one strip per line"))
        for mux in p.muxes:
            self._mux(mux)
        if p.table:
            self._display(p.table)
        if p.ioboard:
            self._ioboard()
        if p.buzzer is not None:
            self._buzzer()
        if p.status_led is not None:
            self._status_led()
        for i, seat in enumerate(p.seats, 1):
            if seat.lamps and kind.driver:
                self._driver(i, seat.lamps)
            self._seat(i, seat)
        self._shared(hub)
        nets = [net for net in POWER_NETS if net in hub.bands.values()]
        hub.strips = p.strips + tuple(n for n in guard.safe_order(nets) if n not in p.strips) if p.strips \
            else guard.safe_order(nets)
        if self.needs["SDA0"]:
            hub.notes = (f"SDA0 and SCL0 (pins 27, 28): {I2C0_PULLUP_OHMS / 1000:g} kOhm from each to the 3V3 strip "
                         "(I2C0 has no pull-ups on the Pi)",)
        if not hub.terminals:
            self.parts.remove(hub)
        return Netlist(self.parts, self.wires, self.panel_parts, self.panel_wires)

    def add(self, part: Part) -> Part:
        self.parts.append(part)
        return part

    def wire(self, a: End, b: End, net: str, title: str, cable: bool = False) -> None:
        self.wires.append(Wire(a, b, net, title, cable))

    def need(self, part: Part, *nets: str) -> None:
        for net in nets:
            part.terminals.setdefault(net, net)
            self.needs[net].append(End(part.key, net))

    def need_i2c(self, part: Part, bus: int) -> None:
        """The part's SDA and SCL from the header's I2C ``bus``: I2C1's lines as they always were, I2C0's
        named with their pins, as a part's SDA/SCL terminals on SDA0/SCL0."""
        if bus not in I2C_NETS or bus == 1:
            self.need(part, "SDA", "SCL")
            return
        for line, net, gpio in zip(("SDA", "SCL"), I2C_NETS[bus], I2C_GPIO[bus]):
            part.terminals[line] = f"{line}: GPIO{gpio} (pin {self.sources[net].terminal})"
            self.needs[net].append(End(part.key, line))

    def _i2c_ends(self, spec: DisplaySpec) -> tuple[End, End] | None:
        """The mux channel's SDn/SCn for a display behind a mux; None for one on a bus of the Pi's own."""
        mux = self.profile.mux_of(spec.bus)
        if mux is None:
            return None
        key, channel = _mux_key(self.profile, mux), mux.buses.index(spec.bus)
        return End(key, f"SD{channel}"), End(key, f"SC{channel}")

    def _display(self, spec: DisplaySpec) -> None:
        part = self.add(Part("table", "table display", f"table display: {_display_note(self.profile, spec)}"))
        self._oled(part, spec)

    def _oled(self, part: Part, spec: DisplaySpec) -> None:
        """The OLED's four terminals: power from the hub, SDA/SCL from the hub or its mux channel."""
        self.need(part, "3V3", "GND")
        behind_mux = self._i2c_ends(spec)
        if behind_mux is None:
            self.need_i2c(part, spec.bus)
            return
        mux = self.part(behind_mux[0].part)
        for end, line in zip(behind_mux, ("SDA", "SCL")):
            part.terminals[line] = f"{line}: {mux.short} {end.terminal}"
            mux.terminals[end.terminal] = f"{end.terminal}: {part.short} {line}"
            self.wire(end, End(part.key, line), part.net or line, f"{mux.short} {end.terminal} to {part.short} {line}")

    def part(self, key: str) -> Part:
        return next(p for p in self.parts if p.key == key)

    def _mux(self, mux: MuxSpec) -> None:
        on = "" if len(self.profile.muxes) == 1 else f" on I2C{mux.parent}"
        part = self.add(Part(_mux_key(self.profile, mux), _mux_name(self.profile, mux),
                             f"TCA9548A I2C mux at 0x{mux.address:02X}{on}",
                             (f"channels {', '.join(f'{c}: /dev/i2c-{b}' for c, b in enumerate(mux.buses))}",
                              "A0-A2 open for 0x70; VIN on 3.3 V")))
        part.terminals.update({"3V3": "VIN (3V3)", "GND": "GND"})
        self.need(part, "3V3", "GND")
        self.need_i2c(part, mux.parent)

    def _ioboard(self) -> None:
        p = self.profile
        where = p.ioboard.port or f"USB {p.ioboard.usb_id}"
        rows = ", ".join(pin_ref(f"GP{g}") for g in PICO_ROW_PINS[:len(p.seats)])
        columns = ", ".join(pin_ref(f"GP{FIRST_COLUMN + c}") for c in range(len(COLUMNS)))
        notes = ["scans every seat's buttons and lights its lamps: docs/ioboard.md; the board on stripboard: "
                 "docs/ioboard-stripboard.png",
                 f"columns {columns}: each through {PICO_COLUMN_SERIES} to its cable line, with a {PICO_COLUMN_PULLUP} "
                 f"pull-up from there to {pin_ref('3V3')}",
                 f"rows {rows}: each through {PICO_ROW_SERIES} to its seat's cable"]
        if p.lamp.kind == "ws2812":
            notes += [f"{pin_ref(f'GP{PICO_PIXEL_PIN}')} -> 74AHCT125 1A (pin 2), {PIXEL_PULLDOWN} from there to GND; "
                      f"1Y (pin 3) -> {PICO_PIXEL_SERIES} -> seat 1's pixel DIN",
                      "74AHCT125: 1OE (pin 1) and GND (pin 7) to GND, VCC (pin 14) to 5 V; pins 4, 10, 13 to 5 V, "
                      "5, 9, 12 to GND; 100 nF from pin 14 to pin 7",
                      f"5V in -> {PIXEL_FUSE.split()[0]} polyfuse -> the chain, the 74AHCT125 and {PICO_VSYS_DIODE} (band "
                      f"to VSYS) -> {pin_ref('VSYS')}; GND in -> {pin_ref('GND')}; never {pin_ref('VBUS')}",
                      "a seat with no panel: jumper its DIN to its DOUT"]
        part = self.add(Part("ioboard", "IO board", f"IO board: Raspberry Pi Pico on {where}", tuple(notes)))
        part.terminals["usb"] = "USB (micro-B)"
        self.wire(End("piusb", "usb"), End("ioboard", "usb"), "USB", "USB cable: Pi to Pico (a data cable)", True)
        if p.lamp.kind == "ws2812":
            part.terminals.update({"5V": f"5V in: the chain, the 74AHCT125, {PICO_VSYS_DIODE} to VSYS",
                                   "0V": "GND in"})
            self.wire(End("pixelsupply", "+"), End("ioboard", "5V"), "5V", "5 V supply to the IO board")
            self.wire(End("pixelsupply", "0V"), End("ioboard", "0V"), "GND", "supply ground to the IO board")

    def _buzzer(self) -> None:
        gpio, supply = self.profile.buzzer, buzzer_supply(self.profile)
        part = self.add(Part("buzzer", "buzzer", f"buzzer: {supply[:-1]} V active buzzer and a BC337",
                             ("GPIO -> 1 kOhm -> BC337 base; emitter to GND;", f"buzzer from {supply} to the collector")))
        part.terminals["in"] = f"in: GPIO{gpio} (pin {pin_end(gpio).terminal})"
        self.wire(pin_end(gpio), End("buzzer", "in"), "signal", f"GPIO{gpio} to the buzzer")
        self.need(part, supply, "GND")

    def _status_led(self) -> None:
        gpio = self.profile.status_led
        ohms, _ = led_resistor(STATUS_LED, 3)
        part = self.add(Part("status", "status LED", f"status LED: {STATUS_LED}, {ohms} Ohm to GND"))
        part.terminals["in"] = f"in: GPIO{gpio} (pin {pin_end(gpio).terminal})"
        self.wire(pin_end(gpio), End("status", "in"), "signal", f"GPIO{gpio} to the status LED")
        self.need(part, "GND")

    def _driver(self, seat: int, lamps: tuple[int, ...]) -> None:
        kind = LAMP_KINDS[self.profile.lamp.kind]
        part = self.add(Part(f"driver{seat}", f"seat {seat} driver", f"seat {seat} lamp driver: {kind.driver}",
                             ("IN n lit: OUT n pulls its lamp to GND;", f"COM to +{kind.volts:g} V"), f"seat{seat}"))
        for k, gpio in enumerate(lamps, 1):
            part.terminals[f"IN{k}"] = f"IN{k} (chip {k}): GPIO{gpio} (pin {pin_end(gpio).terminal})"
            self.wire(pin_end(gpio), End(part.key, f"IN{k}"), f"seat{seat}", f"GPIO{gpio} to seat {seat} driver IN{k}")
        for k in range(1, len(lamps) + 1):
            part.terminals[f"OUT{k}"] = f"OUT{k} (chip {19 - k}): seat {seat} lamp {k}"
        part.terminals.update({"GND": "GND (chip 9)", f"{kind.volts:g}V": f"COM (chip 10): +{kind.volts:g} V"})
        self.need(part, "GND", f"{kind.volts:g}V")

    def _seat(self, seat: int, spec) -> None:
        p = self.profile
        kind = LAMP_KINDS[p.lamp.kind]
        notes = []
        if p.ioboard:
            notes.append(f"IO board cables: the logic plug's row GP{PICO_ROW_PINS[seat - 1]}, columns {PICO_COLUMNS}, "
                         "OLED lines and GND; the lamp plug's 5 V, pixel DIN, DOUT and GND (docs/ioboard.md)")
            if p.lamp.kind == "ws2812":
                came = f"GP{PICO_PIXEL_PIN} (level shifter)" if seat == 1 else f"seat {seat - 1}'s DOUT"
                goes = f"seat {seat + 1}'s DIN" if seat < len(p.seats) else "nothing (left open)"
                notes.append(f"pixels: DIN from {came}, DOUT to {goes}")
        else:
            notes.append(f"buttons: each line through {BUTTON_SERIES} at the box's socket")
            if kind.driver:
                notes.append(f"lamps: + to +{kind.volts:g} V, - to its lamp terminal")
            else:
                ohms, _ = led_resistor(p.lamp.colour, p.lamp.ma)
                notes.append(f"lamps: terminal -> {p.lamp.colour} LED -> GND; its {ohms} Ohm at the box's end of the "
                             "line, on the hub")
        if spec.display:
            notes.append(f"OLED: {_display_note(p, spec.display)}")
        notes += [f"{plug.name} plug, {plug.part}: {plug.pinout()}" for plug in connector.plugs(p, spec)]
        part = self.add(Part(f"seat{seat}", f"seat {seat} panel", f"seat {seat} panel", tuple(notes), f"seat{seat}"))
        if p.ioboard:
            part.terminals["cable"] = "IO board cable"
            self.part("ioboard").terminals[f"seat{seat}"] = f"seat {seat} cable"
            self.wire(End("ioboard", f"seat{seat}"), End(part.key, "cable"), f"seat{seat}",
                      f"IO board cable to seat {seat}", True)
        for field_name, numbers in (("hole", spec.holes), ("lamp", () if kind.driver else spec.lamps)):
            for k, gpio in enumerate(numbers, 1):
                name = f"{field_name}{k}"
                part.terminals[name] = f"{field_name} {k}: GPIO{gpio} (pin {pin_end(gpio).terminal})"
                self.wire(pin_end(gpio), End(part.key, name), f"seat{seat}",
                          f"GPIO{gpio} to seat {seat} {field_name} {k}")
        if spec.ok is not None:
            part.terminals["ok"] = f"OK: GPIO{spec.ok} (pin {pin_end(spec.ok).terminal})"
            self.wire(pin_end(spec.ok), End(part.key, "ok"), f"seat{seat}", f"GPIO{spec.ok} to seat {seat} OK")
        if spec.lamps and kind.driver:
            for k in range(1, len(spec.lamps) + 1):
                part.terminals[f"lamp{k}"] = f"lamp {k} -: driver OUT{k}"
                self.wire(End(f"driver{seat}", f"OUT{k}"), End(part.key, f"lamp{k}"), f"seat{seat}",
                          f"seat {seat} driver OUT{k} to lamp {k}")
            self.need(part, f"{kind.volts:g}V")
            part.terminals[f"{kind.volts:g}V"] = f"lamps + (+{kind.volts:g} V)"
        if spec.display:
            self._oled(part, spec.display)
        elif not p.ioboard:
            self.need(part, "GND")
        parts, wires = panel.inside(p, seat, spec)
        self.panel_parts += parts
        self.panel_wires += wires
        inner = Netlist([], [], parts, wires)
        grounds = [(plug, pin, name) for plug, pin, name in connector.terminals(p, spec) if name.startswith("GND")]
        part.notes += ("inside: " + "; ".join(f"GND ({plug.name} plug pin {pin}) to "
                                              f"{panel.feeds(inner, End(part.key, name))}" for plug, pin, name in grounds),)
        if not p.ioboard:           # every GND pin of the plugs with a wire of its own from the GND strip
            for plug, pin, name in grounds:
                part.terminals[name] = f"GND: {plug.name} plug pin {pin}"
                if name != "GND":
                    self.needs["GND"].append(End(part.key, name))

    def _shared(self, hub: Part) -> None:
        """Each shared line: straight from its source to a lone user, else through its strip on the hub."""
        for net in POWER_NETS:
            users = self.needs[net]
            if not users:
                continue
            source = self.sources[net]
            where = f"pin {source.terminal}" if source.part == "pin" else self.part(source.part).short
            if len(users) == 1:
                self.wire(source, users[0], net, f"{net} from {where} to {self.part(users[0].part).short}")
                continue
            hub.terminals[f"{net}:in"] = f"in: {where}"
            hub.bands[f"{net}:in"] = net
            self.wire(source, End("hub", f"{net}:in"), net, f"{net} from {where} to its strip on the hub")
            for end in users:
                name = f"{net}:{end.part}"
                if name in hub.terminals:           # a part's second pin on the line: a wire (and pad) of its own
                    name = f"{name}:{end.terminal}"
                hub.terminals[name] = f"to {self.part(end.part).short}" + (f" {end.terminal}" if name.count(":") > 1
                                                                           else "")
                hub.bands[name] = net
                self.wire(End("hub", name), end, net, f"{net} strip to {self.part(end.part).short}")


def series(profile: Profile, end: End) -> str | None:
    """The resistor in a line from a GPIO that leaves the box for a panel, at the box's end: a button's 2.2 kOhm,
    a plain LED's own resistor (so a short on the cable takes no more from the pin than the LED does)."""
    if profile.backend != "gpio" or not end.part.startswith("seat"):
        return None
    if end.terminal.startswith(("hole", "ok")):
        return BUTTON_SERIES
    if end.terminal.startswith("lamp") and profile.lamp.kind == "led":
        return f"{led_resistor(profile.lamp.colour, profile.lamp.ma)[0]} Ohm"
    return None


def buzzer_supply(profile: Profile) -> str:
    """The buzzer's supply: the lamp adapter's (12V) where the box has one, so that the Pi's 5 V pins (2 and 4,
    beside 3V3 and SDA on the header) need not reach the hub; else the Pi's 5V."""
    kind = LAMP_KINDS[profile.lamp.kind]
    return f"{kind.volts:g}V" if kind.driver and kind.volts != 5 else "5V"


def _mux_key(profile: Profile, mux: MuxSpec) -> str:
    """The part's key: ``mux`` for a box's one mux, ``mux1``, ``mux2`` ... in file order for more."""
    return "mux" if len(profile.muxes) == 1 else f"mux{profile.muxes.index(mux) + 1}"


def _mux_name(profile: Profile, mux: MuxSpec) -> str:
    """How labels name it: ``mux``, or ``mux 1``, ``mux 2`` ..."""
    return _mux_key(profile, mux).replace("mux", "mux ").strip()


def _display_note(profile: Profile, spec: DisplaySpec) -> str:
    mux = profile.mux_of(spec.bus)
    where = (f"{_mux_name(profile, mux)} channel {mux.buses.index(spec.bus)} (/dev/i2c-{spec.bus})" if mux
             else f"I2C{spec.bus}")
    display = DISPLAYS[spec.driver]
    return f"{display.controller} {display.size} at 0x{spec.address:02X} on {where}"
