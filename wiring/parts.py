"""``molebox wiring parts``: what to buy for a profile's box, and whether its currents stay in the limits.

The list counts from the profile (seats, displays and their addresses, the
mux, the lamp kind, buzzer, status LED, IO board) and names with each part
the choice that matters and why. The budget adds up what every supply gives
with every lamp lit at once, as a reveal can, and holds it against the Pi's
(and the Pico's) limits from ``wiring/hardware.py``; a row over its limit is a
problem that ``molebox wiring check`` reports too.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .hardware import (BULK, DECOUPLING, MATRIX_DIODE, PICO_PIXEL_SERIES, PICO_ROW_SERIES, PIXEL_FUSE, STRIP_FUSE,
                       ADDRESS_JUMPER, BUTTON_SERIES, BUZZER_BASE_OHMS, I2C0_PULLUP_OHMS, PICO_COLUMN_SERIES,
                       PICO_PIXEL_PIN, PICO_VSYS_DIODE, PIXEL_PULLDOWN, BUZZER_MA, DISPLAYS, GPIO_VOLTS, LAMP_KINDS, LEDS,
                       MIN_HEADROOM_V, MUX_MA, PI, PI_5V_SPARE_MA, PICO, PICO_COLUMN_PULLUP, PICO_COLUMNS,
                       PICO_MA, STATUS_LED,
                       STATUS_LED_MA, ULN2803A_CHANNEL_MA, WS2812_BRIGHTNESS, WS2812_MA, Controller, led_resistor,
                       PI_USB_MA)
from . import connector, i2c
from .header import I2C_GPIO, UART_PORTS
from .netlist import buzzer_supply, netlist
from .profile import HOLES_PER_SEAT, Profile

LAMP_SUPPLY_MA = 1000               # the 12 V adapter the list names
PIXEL_SUPPLY_MA = 2000              # the 5 V supply for the pixel chain (docs/ioboard.md)
BASE_VOLTS = 0.7                    # a BC337's base-emitter drop
I2C_PINS = {bus: f"GPIO{sda}/{scl}" for bus, (sda, scl) in I2C_GPIO.items()}


@dataclass(frozen=True)
class Item:
    qty: int
    part: str
    choice: str = ""                # the choice that matters, for this box
    why: str = ""


@dataclass(frozen=True)
class Row:
    """One line of the budget: what draws, how much, from what, and the limit."""

    what: str
    ma: float
    limit: float | None         # None: the maker publishes no limit (the Pi's 3V3 pins); shown, never refused
    volts: float | None = None      # a supply's voltage, for its power
    fix: str = ""

    @property
    def ok(self) -> bool:
        return self.limit is None or self.ma <= self.limit


def lamp_count(profile: Profile) -> int:
    return len(profile.seats) * HOLES_PER_SEAT


def lamp_pin_ma(profile: Profile) -> float:
    """The current one lit lamp takes from its pin (the Pi's, or the Pico's for plain lamps on the IO board)."""
    kind = LAMP_KINDS[profile.lamp.kind]
    if kind.driver:
        return kind.gpio_ma
    if profile.lamp.kind == "led":
        return led_resistor(profile.lamp.colour, profile.lamp.ma)[1]
    return 0.0


def pi_outputs(profile: Profile) -> list[tuple[str, float]]:
    """(what, mA) for every output pin of the Pi, lit: the lamps (unless the IO board has them), buzzer, LED."""
    out = [] if profile.ioboard else [("lamp", lamp_pin_ma(profile))] * lamp_count(profile)
    if profile.buzzer is not None:
        out.append(("buzzer", (GPIO_VOLTS - BASE_VOLTS) / BUZZER_BASE_OHMS * 1000))
    if profile.status_led is not None:
        out.append(("status LED", led_resistor(STATUS_LED, STATUS_LED_MA)[1]))
    return [(what, ma) for what, ma in out if ma]


def budget(profile: Profile) -> list[Row]:
    """Every supply and pin limit the box leans on, with every lamp, the buzzer and the status LED on.

    None for the simulator: its pins are mock pins.
    """
    if profile.backend == "sim":
        return []
    kind = LAMP_KINDS[profile.lamp.kind]
    lamps = lamp_count(profile)
    lamp_ma = lamp_pin_ma(profile)
    rows = []
    gpio = pi_outputs(profile)
    for what in dict.fromkeys(w for w, _ in gpio):
        rows.append(Row(f"one {what} pin (GPIO)", max(ma for w, ma in gpio if w == what), PI.pin_ma,
                        fix=_led_fix(profile, PI) if what == "lamp" else ""))
    gpio_total = sum(ma for _, ma in gpio)
    if gpio:
        rows.append(Row(f"all GPIO outputs at once ({len(gpio)} pins)", gpio_total, PI.total_ma,
                        fix=_led_fix(profile, PI)))
    if profile.ioboard and lamp_ma:
        rows.append(Row("one lamp pin (Pico GPIO)", lamp_ma, PICO.pin_ma, fix=_led_fix(profile, PICO)))
        rows.append(Row(f"all Pico lamp pins at once ({lamps} pins)", lamp_ma * lamps, PICO.total_ma,
                        fix=_led_fix(profile, PICO)))
    displays = sum(DISPLAYS[spec.driver].ma for spec in profile.displays().values())
    three = displays + MUX_MA * len(profile.muxes) + gpio_total
    if three:
        rows.append(Row("3V3 pins: displays, mux, GPIO outputs", three, None, GPIO_VOLTS))
    buzzer = {buzzer_supply(profile): BUZZER_MA} if profile.buzzer is not None else {}
    five = (lamps * profile.lamp.ma if kind.driver and kind.volts == 5 else 0) + buzzer.get("5V", 0)
    if five:
        rows.append(Row("5V pins: lamps, buzzer", five, PI_5V_SPARE_MA, 5))
    if kind.driver:
        rows.append(Row(f"one {kind.driver} channel (a lamp)", profile.lamp.ma, ULN2803A_CHANNEL_MA))
    if kind.driver and kind.volts != 5:
        extra = buzzer.get(f"{kind.volts:g}V", 0)
        rows.append(Row(f"{kind.volts:g} V adapter: {lamps} lamps{', buzzer' * bool(extra)}",
                        lamps * profile.lamp.ma + extra, LAMP_SUPPLY_MA, kind.volts))
    if profile.ioboard and profile.ioboard.port not in UART_PORTS:
        rows.append(Row("the Pi's USB ports: the Pico", PICO_MA, PI_USB_MA, 5))
    if profile.lamp.kind == "ws2812":
        rows.append(Row(f"5 V pixel supply: {lamps} pixels at {WS2812_BRIGHTNESS}/255", lamps * WS2812_MA *
                        WS2812_BRIGHTNESS / 255, PIXEL_SUPPLY_MA, 5))
    return rows


def _led_fix(profile: Profile, board: Controller) -> str:
    """How to bring plain LEDs back into the limits: a lower current that fits, or a driver."""
    if profile.lamp.kind != "led":
        return ""
    others = sum(ma for what, ma in pi_outputs(profile) if what != "lamp") if board is PI else 0
    fits = min(board.pin_ma, (board.total_ma - others) / lamp_count(profile))
    ma = int(fits * 2) / 2
    ohms, _ = led_resistor(profile.lamp.colour, ma) if ma > 0 else (0, 0)
    lower = f"lower [lamp] ma to {ma:g} (a {ohms} Ohm resistor), or " if ma > 0 else ""
    return f'{lower}drive the lamps through a ULN2803A: kind = "5v" or "12v"'


def problems(profile: Profile) -> list[tuple[str, str]]:
    """What in the profile's parts breaks a limit: (the problem, its fix)."""
    out = []
    led = LEDS[profile.lamp.colour]
    if profile.lamp.kind == "led" and GPIO_VOLTS - led.volts < MIN_HEADROOM_V:
        out.append((f"a {profile.lamp.colour} LED needs {led.volts:g} V, too close to the pin's 3.3 V for a resistor "
                    "to set its current", 'take red, orange, yellow or green LEDs, or 5 V lamps through a driver '
                    '(kind = "5v")'))
    for row in budget(profile):
        if not row.ok:
            out.append((f"{row.what} draw {row.ma:.1f} mA, more than the {row.limit:g} mA allowed",
                        row.fix or "use a larger supply, or fewer or smaller loads"))
    return out


def bill(profile: Profile) -> list[Item]:
    """Every part of the box, with how many, the choice that matters and why."""
    p = profile
    seats, lamps = len(p.seats), lamp_count(profile)
    items = [
        Item(1, "Raspberry Pi with the 40-pin header: 3B+, 4, 5 or Zero 2 W", "a Pi 4 with 2 GB is plenty",
             "runs the games and the web dashboard; the header is the same on every 40-pin Pi"),
        Item(1, "Pi power supply", "the official one: 5.1 V 3 A USB-C (Pi 4), 5.1 V 5 A USB-C (Pi 5), 5.1 V 2.5 A "
             "micro-USB (3B+, Zero 2 W)", "a weak supply browns out the Pi and corrupts its card; the 3V3 pins below "
             "come from it; the Pi's own input protection guards it, the box's other supplies get a fuse each"),
        Item(1, "microSD card, 16 GB or more (A1)", "Raspberry Pi OS Lite (64-bit)", "the system and the game journal"),
    ]
    items += _displays(p)
    items += _muxes(p)
    items += _controls(p, seats, lamps)
    if p.ioboard:
        items += [
            Item(1, "Raspberry Pi Pico (or Pico W)", "MicroPython 1.22 or later, with firmware/ copied onto it",
                 "scans every seat's buttons and drives the lamps: eight seats over one USB cable (docs/ioboard.md)"),
            Item(1, "USB cable, A to micro-B", "a data cable: a charge-only cable powers the Pico but shows no port",
                 "links the Pico to the Pi; molebox finds it by its USB id"),
            Item(panel_count(p, "diode"), f"{MATRIX_DIODE} Schottky diode (DO-35)", "one in series with each switch, "
                 "the band towards the row", "several buttons held at once across seats read true (no ghosting); at most "
                 "0.33 V, so a press reads 0.6 V at worst against the Pico's 0.8 V (a 1N4148 leaves no margin)"),
            Item(seats, f"{PICO_ROW_SERIES} resistor, 1/4 W", f"one in each row line (GP2-GP{1 + seats}), at the board",
                 "the row leaves the box on the panel cable: a short there takes at most 10 mA from the pin"),
            Item(6, f"{PICO_COLUMN_PULLUP} resistor, 1/4 W", f"one from each column line ({PICO_COLUMNS}) to the "
                 "Pico's 3V3 (pin 36), at the board", "a column rises again in 8 us between rows on 16 m of "
                 "cable (130 us on the internal pull-up): no phantom press on the next seat"),
            Item(6, f"{PICO_COLUMN_SERIES} resistor, 1/4 W", "one in each column line, between the Pico's pin and "
                 "its pull-up", "a fault on a panel cable (its 5 V on a column) drives at most 2.5 mA into the pin"),
        ]
    if p.buzzer is not None:
        items += [Item(1, f"{buzzer_supply(p)[:-1]} V active buzzer", "active: it sounds on steady power; rated for "
                       f"the {buzzer_supply(p)} it sits on",
                       f"{BUZZER_MA} mA is more than a pin should give: a transistor switches it"),
                  Item(1, "BC337 NPN transistor (or 2N2222A)", f"with a {BUZZER_BASE_OHMS} Ohm base resistor; flat "
                       "face towards you, legs down: a BC337 is C B E, a PN2222A (TO-92) E B C",
                       "2.6 mA from the pin switches the buzzer's current")]
    if p.status_led is not None:
        ohms, ma = led_resistor(STATUS_LED, STATUS_LED_MA)
        items.append(Item(1, f"{STATUS_LED} 5 mm LED and a {ohms} Ohm resistor", f"{ma:.1f} mA from its pin",
                          "steady while healthy, flashing while the hardware is at fault"))
    items += _wiring(p)
    return items


def _displays(p: Profile) -> list[Item]:
    groups = Counter((spec.driver, spec.address) for spec in p.displays().values())
    out = []
    for (driver, address), count in sorted(groups.items()):
        display = DISPLAYS[driver]
        names = [n for n, s in p.displays().items() if (s.driver, s.address) == (driver, address)]
        out.append(Item(count, f"{display.controller} {display.size} 128x64 I2C OLED module, 4 pins",
                        f"at 0x{address:02X}: {ADDRESS_JUMPER[address]}; for {_names(names)}",
                        f"{display.why}; an SSD1306 or SH1106 answers at 0x3C or 0x3D only, so two per bus "
                        f"(more behind a mux)"))
    return out


def _muxes(p: Profile) -> list[Item]:
    """One line per mux address: its jumpers, and with more than one mux which bus each sits on."""
    out = []
    for address, count in sorted(Counter(mux.address for mux in p.muxes).items()):
        choice = f"at 0x{address:02X}: its A0-A2 jumpers open; VIN on 3.3 V"
        why = ("every seat's OLED keeps address 0x3C on a channel of its own; dtoverlay=i2c-mux,pca9548 makes each "
               "channel a bus of its own")
        if len(p.muxes) > 1:
            buses = [f"I2C{mux.parent} ({I2C_PINS.get(mux.parent, 'no header pins')})"
                     for mux in p.muxes if mux.address == address]
            choice += f"; {' and '.join(f'one on {bus}' for bus in buses)}"
            why += "; each I2C bus carries its own displays, at the same time as the other"
        out.append(Item(count, "TCA9548A I2C multiplexer breakout", choice, why))
    return out


def panel_count(profile: Profile, kind: str, name: str = "") -> int:
    """How many parts of ``kind`` the panels' wiring holds (``wiring/panel.py``): only those ``name`` keys, if given."""
    return sum(1 for part in netlist(profile).panel_parts if part.kind == kind and f".{name}" in part.key)


def _controls(p: Profile, seats: int, lamps: int) -> list[Item]:
    kind = LAMP_KINDS[p.lamp.kind]
    out = []
    if kind.driver:
        out.append(Item(panel_count(p, "lamp"), f"{kind.part} (hole)", f"{p.lamp.ma:g} mA per lamp at {kind.volts:g} V",
                        kind.why))
        out.append(Item(seats, f"{kind.driver} driver (with an 18-pin DIP socket)",
                        "one per seat: IN1-IN5 from the lamp pins, OUT1-OUT5 to the lamps' minus, COM to the "
                        "lamp supply; channels 6-8 spare",
                        f"{kind.gpio_ma:g} mA from each pin switches up to {ULN2803A_CHANNEL_MA} mA; its diodes "
                        "clamp the lamp wiring"))
        if kind.volts != 5:
            out.append(Item(1, f"{kind.volts:g} V DC adapter, {LAMP_SUPPLY_MA / 1000:g} A, and a DC barrel socket",
                            "its minus joined to the Pi's ground on the hub", "the lamps take "
                            f"{lamps * p.lamp.ma:g} mA at {kind.volts:g} V"))
            out.append(Item(1, STRIP_FUSE[f"{kind.volts:g}V"], f"radial: F1 on the hub, where the {kind.volts:g} V "
                            f"enters its strip", f"above the lamps' {lamps * p.lamp.ma:g} mA, below the adapter's "
                            f"{LAMP_SUPPLY_MA / 1000:g} A: a short on a lamp cable trips it, not the wiring"))
    elif p.lamp.kind == "led":
        ohms, ma = led_resistor(p.lamp.colour, p.lamp.ma)
        out.append(Item(panel_count(p, "button", "hole"), "arcade push button, 30 mm, with room for a 5 mm LED (hole)",
                        "unlit, or with its "
                        "built-in lamp left unwired", "the holes"))
        out.append(Item(panel_count(p, "led"), f"{p.lamp.colour} 5 mm LED, plain (no built-in resistor)",
                        f"{LEDS[p.lamp.colour].volts:.1f} V forward", kind.why))
        out.append(Item(lamps, f"{ohms} Ohm resistor, 1/4 W", f"{ma:.1f} mA per lamp from a 3.3 V pin "
                        f"((3.3 V - {LEDS[p.lamp.colour].volts:.1f} V) / {ohms} Ohm); one in each lamp line on the hub, "
                        "at the box's end", f"sets each LED's current; every lamp lit takes {ma * lamps:.1f} mA of the "
                        "50 mA the Pi's pins may give in all; at the box's end it also limits a short on the cable"))
    else:
        out.append(Item(panel_count(p, "button", "hole"), "arcade push button, 30 mm (hole)", "unlit: a pixel under it "
                        "lights it", "the holes"))
        out.append(Item(panel_count(p, "pixel"), "WS2812B pixel", f"one chain, seat by seat; the firmware caps it at "
                        f"{WS2812_BRIGHTNESS}/255", kind.why))
        out += [Item(1, f"74AHCT125 (or 74HCT125), a 14-pin DIP socket, a {PICO_PIXEL_SERIES} and a {PIXEL_PULLDOWN} "
                     f"resistor, a {DECOUPLING} ceramic capacitor",
                     f"GP{PICO_PIXEL_PIN} into 1A (pin 2), {PIXEL_PULLDOWN} from 1A to GND, 1OE (pin 1) and GND (pin 7) "
                     f"to GND, VCC (pin 14) to 5 V and through {DECOUPLING} to pin 7, beside the chip; 1Y (pin 3) through "
                     f"{PICO_PIXEL_SERIES} to the chain's DIN; the other three gates' OE (pins 4, 10, 13) to 5 V, their "
                     "inputs (5, 9, 12) to GND",
                     "lifts the Pico's 3.3 V data to the pixels' 5 V; the pull-down keeps the data low, the pixels "
                     "dark, while the Pico resets (a floating input lights them uncapped: about 2.4 A); at most 8.2 kOhm, as "
                     "RP2350 erratum E9 asks (Pico 2); the series resistor guards the data line that leaves the box"),
                Item(1, f"{PICO_VSYS_DIODE} Schottky diode", "the pixel supply's 5 V to the Pico's VSYS (pin 39), "
                     "the band towards VSYS; never to VBUS (pin 40)", "the Pico runs from either supply; on VBUS the "
                     "pixel supply would feed back into the Pi's USB port"),
                Item(1, f"{BULK} electrolytic capacitor", "C2 on the IO board, across 5 V and GND at the chain's start; "
                     "its + leg on the 5 V strip, the stripe (-) on GND", "steadies the pixels' supply"),
                Item(1, "5 V 2 A supply for the pixels", "its ground joined to the Pico's",
                     f"{lamps} pixels under the cap take about "
                     f"{lamps * WS2812_MA * WS2812_BRIGHTNESS / 255 / 1000:.1f} A"),
                Item(1, PIXEL_FUSE, "radial, in the pixel supply's 5 V where it enters the IO board",
                     f"holds the capped chain's {lamps * WS2812_MA * WS2812_BRIGHTNESS / 255 / 1000:.1f} A, trips on "
                     f"the uncapped {lamps * WS2812_MA / 1000:.1f} A of a Pico resetting or a short on a lamp cable")]
    out.append(Item(panel_count(p, "button", "ok"), "arcade push button, 30 mm (OK)", "any colour; unlit",
                    "confirms a pick; hold to undo"))
    return out


def _wiring(p: Profile) -> list[Item]:
    net = netlist(p)
    hub = next((part for part in net.parts if part.key == "hub"), None)
    strips = ", ".join(hub.strips) if hub else "none"
    out = [Item(1, "stripboard, 0.1 inch pitch, about 10 strips of 25 holes, and pin headers or screw terminals",
                f"the hub: one strip per shared line, top to bottom {strips}",
                "each line leaves the header once and reaches every part from its strip; ground between any supply "
                "above 3.3 V and the rest, so one solder bridge cannot reach the Pi"),
           Item(1, "40-way IDC ribbon cable, a 2 x 20 IDC socket at each end, under 30 cm, and a 2 x 20 shrouded "
                "(keyed) box header on the hub", "the striped core on pin 1 at both ends: on the Pi the pin with the "
                "square solder pad, on the hub the box header's triangle", "one keyed piece instead of loose jumper "
                "wires: no single wire can move one pin over (a jumper moved from pin 1 to pin 2 puts 5 V on the "
                "3V3 strip); no solder on the Pi")]
    if hub and {"3V3", "GND"} <= set(hub.strips):
        out.append(Item(1, f"{DECOUPLING} ceramic capacitor", "C1 on the hub, across its 3V3 and GND strips",
                        "steadies the 3.3 V where every display's and the mux's wire leaves"))
    if p.backend == "gpio":
        out.append(Item(len(p.seats) * (HOLES_PER_SEAT + 1), f"{BUTTON_SERIES} resistor, 1/4 W", "one in each "
                        "button line (holes and OK), on the hub", "a fault on a panel cable (a lamp supply "
                        "on a button line) drives at most a few mA into the pin"))
    if 0 in {bus.number for bus in i2c.buses(p)}:
        out.append(Item(2, f"{I2C0_PULLUP_OHMS / 1000:g} kOhm resistor, 1/4 W", "on the hub, from the strips of pins 27 "
                        "(SDA0) and 28 (SCL0) to its 3V3 strip", "I2C0 has no pull-ups on the Pi: with the mux's and a module's alone "
                        "(3.2 kOhm) under a metre of cable in all would do at 400 kHz"))
    for plug in connector.plugs(p, p.seats[0]):
        out.append(Item(len(p.seats), f"{plug.part}, plug and socket", f"the {plug.name} plug: {plug.pinout()}",
                        _PLUG_WHY[plug.name]))
    return out


_PLUG_WHY = {connector.LOGIC: "keyed: it goes in one way only; keep each cable under 1 m (docs/build.md, section 4)",
             connector.LAMP: "the lamp supply on a plug of its own, of another pitch: it cannot meet a GPIO"}


def _names(names: list[str]) -> str:
    return ", ".join(n.replace("seat", "seat ").replace("table", "the table") for n in names)


def report(profile: Profile) -> str:
    """What ``molebox wiring parts`` prints: the parts list, then the budget with each row's verdict."""
    out = [f"Parts for {profile.name}: {profile.title}", ""]
    for item in bill(profile):
        out.append(f"{item.qty:>3} x {item.part}")
        out += [f"        {text}" for text in (item.choice, f"why: {item.why}" if item.why else "") if text]
    out += ["", "Current budget, every lamp lit at once (a reveal can light them all):",
            f"  {'what':<52} {'draw':>9} {'limit':>8}"]
    for row in budget(profile):
        power = f"  {row.ma * row.volts / 1000:.2f} W" if row.volts else ""
        limit = f"{row.limit:>5g} mA" if row.limit is not None else "   none"
        verdict = ("ok" if row.ok else "OVER") if row.limit is not None else "(no published limit)"
        out.append(f"  {row.what:<52} {row.ma:>6.1f} mA {limit}  {verdict}{power}")
    pulled = i2c.buses(profile) if profile.backend != "sim" else []
    out += ["", "I2C pull-ups, each line to 3.3 V (docs/build.md, section 4):"] * bool(pulled)
    out += [f"  {bus.summary()}" for bus in pulled]
    found = problems(profile)
    out += ["", *(f"problem: {problem}; fix: {fix}" for problem, fix in found)] if found else []
    return "\n".join(out) + "\n"
