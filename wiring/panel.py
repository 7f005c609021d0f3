"""Inside a seat's panel: its buttons, lamps, OLED (and on the IO board its matrix diodes), wire by wire.

Each wire runs from a pin of the panel's plugs (the panel's end, ``End("seat1", "hole1")``; a second GND pin
``GND2``, as ``connector.terminals`` names them) to a part on the panel, or from part to part (the pixel chain):
a button's COM from its line and its NO to the panel's GND (on the IO board through its diode to the seat's
row, the band towards the row), a plain LED's anode from its line and its cathode to GND, a driven lamp's
minus tag from its line and its plus tag from the lamp supply, each pixel's supply and data, the OLED's four
pins. The OLED takes the GND pin between SDA and SCL; the buttons and LEDs take the logic plug's other GND,
the pixels the lamp plug's. ``problems`` checks the result as the hub's design-rule check does the stripboard.
"""
from __future__ import annotations

from collections import defaultdict

from . import connector
from .nets import End, Netlist, Part, Wire
from .profile import Profile, SeatSpec

SUPPLIES = ("3V3", "5V", "12V", "GND")
KINDS = {"button": "buttons", "led": "LEDs", "lamp": "lamps", "pixel": "pixels", "diode": "diodes", "oled": "OLED"}
# The plug line each part's terminal must reach on the panel: "own" its own hole's (or OK's) line, "supply" the
# lamps' supply; a terminal not named here reaches a neighbouring part (the pixel chain, a switch's diode).
NEEDS = {("oled", "VCC"): "3V3", ("oled", "GND"): "GND", ("oled", "SDA"): "SDA", ("oled", "SCL"): "SCL",
         ("led", "cathode"): "GND", ("pixel", "VDD"): "5V", ("pixel", "VSS"): "GND", ("diode", "cathode"): "row",
         ("lamp", "+"): "supply", ("button", "COM"): "own", ("button", "NO"): "GND", ("led", "anode"): "own",
         ("lamp", "-"): "own"}
TERMINALS = {"button": {"COM": "COM", "NO": "NO", "NC": "NC: left bare"},
             "led": {"anode": "anode (long leg)", "cathode": "cathode (flat side)"},
             "lamp": {"+": "+ tag", "-": "- tag"}, "pixel": {"VDD": "VDD", "DIN": "DIN", "DOUT": "DOUT", "VSS": "VSS"},
             "diode": {"anode": "anode", "cathode": "cathode (band)"},
             "oled": {"VCC": "VCC", "GND": "GND", "SDA": "SDA", "SCL": "SCL"}}


def inside(profile: Profile, seat: int, spec: SeatSpec) -> tuple[list[Part], list[Wire]]:
    """The parts inside seat ``seat``'s panel and every wire from its plugs' pins to them."""
    key, kind = f"seat{seat}", profile.lamp.kind
    pins = [name for _, _, name in connector.terminals(profile, spec)]
    logic = next(plug for plug in connector.plugs(profile, spec) if plug.name == connector.LOGIC)
    grounds = _grounds(profile, spec, logic)
    parts: list[Part] = []
    wires: list[Wire] = []

    def part(what: str, name: str, short: str) -> End:
        parts.append(Part(f"{key}.{name}", short, f"seat {seat} {short}", net=key, kind=what,
                          terminals=dict(TERMINALS[what])))
        return End(f"{key}.{name}", "")

    def wire(line: str, target: End, terminal: str) -> None:
        net = "GND" if line.startswith("GND") else line if line in SUPPLIES else key
        wires.append(Wire(End(key, line), End(target.part, terminal), net,
                          f"seat {seat}: {line} to the {target.part.split('.')[1]} {terminal}"))

    for line in [p for p in pins if p.startswith("hole")] + ["ok"] * ("ok" in pins):
        what = "OK" if line == "ok" else f"hole {line[4:]}"
        button = part("button", f"{line}.button", f"{what} button")
        wire(line, button, "COM")
        if profile.ioboard:
            diode = part("diode", f"{line}.diode", f"{what} diode")
            wires.append(Wire(End(button.part, "NO"), End(diode.part, "anode"), key, f"seat {seat}: switch to diode"))
            wire("row", diode, "cathode")
        else:
            wire(grounds["switches"], button, "NO")
    lamps = [p for p in pins if p.startswith("lamp")]
    for line in lamps:
        n = line[4:]
        if kind == "led":
            led = part("led", f"{line}.led", f"hole {n} LED")
            wire(line, led, "anode")
            wire(grounds["switches"], led, "cathode")
        else:
            lamp = part("lamp", f"{line}.lamp", f"hole {n} lamp")
            wire(line, lamp, "-")
            wire(connector.supply(profile), lamp, "+")
    if kind == "ws2812":
        previous = None
        for n in range(1, sum(1 for p in pins if p.startswith("hole")) + 1):
            pixel = part("pixel", f"hole{n}.pixel", f"hole {n} pixel")
            wire("5V", pixel, "VDD")
            wire(grounds["pixels"], pixel, "VSS")
            if previous is None:
                wire("DIN", pixel, "DIN")
            else:
                wires.append(Wire(End(previous.part, "DOUT"), End(pixel.part, "DIN"), key,
                                  f"seat {seat}: pixel to pixel"))
            previous = pixel
        wires.append(Wire(End(previous.part, "DOUT"), End(key, "DOUT"), key, f"seat {seat}: the last pixel's DOUT"))
    if spec.display is not None:
        oled = part("oled", "oled", "OLED")
        for line, pin in (("3V3", "VCC"), (grounds["oled"], "GND"), ("SDA", "SDA"), ("SCL", "SCL")):
            wire(line, oled, pin)
    used = {w.a.terminal for w in wires if w.a.part == key}
    for line in pins:           # a further GND pin (a guard between two lines): joined to the panel's GND
        if line.startswith("GND") and line not in used:
            wires.append(Wire(End(key, line), End(key, grounds["switches"]), "GND",
                              f"seat {seat}: {line} joined to {grounds['switches']} on the panel"))
    return parts, wires


def _grounds(profile: Profile, spec: SeatSpec, logic: connector.Plug) -> dict[str, str]:
    """Which GND pin feeds what: the OLED the one between SDA and SCL, the switches and LEDs the logic plug's
    other, the pixels the lamp plug's (each its first, should a plug have no other)."""
    named = connector.terminals(profile, spec)
    on_logic = [(pin, name) for plug, pin, name in named if plug.name == connector.LOGIC and name.startswith("GND")]
    on_lamp = [name for plug, _, name in named if plug.name == connector.LAMP and name.startswith("GND")]
    sda = logic.pins.index("SDA") + 1 if "SDA" in logic.pins else None
    oled = next((name for pin, name in on_logic if sda and pin in (sda + 1, sda - 1)), None)
    others = [name for _, name in on_logic if name != oled]
    return {"oled": oled or (others or on_lamp or ["GND"])[0], "switches": (others or [oled or "GND"])[0],
            "pixels": (on_lamp or others or [oled or "GND"])[0]}


def feeds(net: Netlist, end: End) -> str:
    """What a plug pin reaches inside its panel: ``hole 1 button COM``, ``6 buttons' NO, 5 LEDs' cathodes``,
    ``joined to GND`` (a guard GND pin)."""
    reached = [w.b if w.a == end else w.a for w in net.panel_wires if end in (w.a, w.b)]
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for far in reached:
        if far.part != end.part:
            part = net.part(far.part)
            groups[(part.kind, far.terminal)].append(part.short)
    out = []
    for (kind, terminal), shorts in groups.items():
        say = {"+": "+ tag", "-": "- tag"}.get(terminal, terminal)
        out.append(f"{shorts[0]} {say}" if len(shorts) == 1 else
                   f"{len(shorts)} {KINDS[kind]}' {say}{'s' if say[-1].islower() else ''}")
    out += [f"joined to {far.terminal}" for far in reached if far.part == end.part]
    return ", ".join(out) or "nothing"


def problems(profile: Profile, net: Netlist) -> list[str]:
    """Every fault of the panels' wiring, one line each: a part's terminal with no wire, a plug pin that feeds
    nothing, two lines joined on a panel, a part on the wrong line."""
    out = []
    ends = defaultdict(list)
    for wire in net.panel_wires:
        ends[wire.a].append(wire)
        ends[wire.b].append(wire)
    for part in net.panel_parts:
        out += [f"{part.title} {terminal} has no wire" for terminal in part.terminals
                if terminal != "NC" and End(part.key, terminal) not in ends]
    for seat, spec in enumerate(profile.seats, 1):
        out += [f"seat {seat} {plug.name} plug pin {pin} ({name}) feeds nothing on the panel"
                for plug, pin, name in connector.terminals(profile, spec) if End(f"seat{seat}", name) not in ends]
    parent: dict[End, End] = {}

    def root(end: End) -> End:
        while parent.setdefault(end, end) != end:
            end = parent[end]
        return end

    for wire in net.panel_wires:
        parent[root(wire.a)] = root(wire.b)
    lines = defaultdict(set)
    for end in ends:
        if end.part.startswith("seat") and "." not in end.part:
            lines[root(end)].add(end.terminal.rstrip("0123456789") if end.terminal.startswith("GND") else end.terminal)
    out += [f"{' and '.join(sorted(found))} are joined on a panel" for found in lines.values() if len(found) > 1]
    supply = connector.supply(profile)
    for part in net.panel_parts:
        for terminal in part.terminals:
            need = NEEDS.get((part.kind, terminal))
            on = next(iter(lines.get(root(End(part.key, terminal)), ())), None)
            if need is None or on is None:
                continue
            want = {"supply": supply, "own": part.key.split(".")[1]}.get(need, need)
            if on != want:
                out.append(f"{part.title} {terminal} is on {on}, not {want}")
    return out
