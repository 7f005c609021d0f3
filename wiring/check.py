"""``molebox wiring check``: a wiring profile held against the Raspberry Pi's 40-pin header.

Every problem names the profile line, the key, what is wrong and the fix, and
all of them are reported at once: the reader is at the bench with the box
open, and one round trip per mistake is one too many.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from . import connector, drc, guard, panel, parts, stripboard
from .header import (BUSES, I2C_GPIO, PINS_PER_SEAT, REFERENCE_REVISION, RESERVED_NOTE, buses_in_use, buses_taken,
                     by_gpio, reserved, uses)
from .netlist import POWER_NETS, netlist
from .profile import Locator, Profile

OLED_ADDRESSES = (0x3C, 0x3D)


@dataclass(frozen=True)
class Problem:
    where: str              # path:line
    key: str
    problem: str
    fix: str

    def __str__(self) -> str:
        return f"{self.where}: {self.key}: {self.problem}; fix: {self.fix}"


def check(profile: Profile, revision: int = REFERENCE_REVISION) -> list[Problem]:
    """Everything wrong with the profile's pins and displays, in file order (empty: good to wire)."""
    locate = Locator(profile.text, profile.path)
    pins = _pins(profile, locate, revision)
    strips = _strips(profile, locate) if not pins else []                       # strips: once wired
    plugs = _plugs(profile, locate)
    panels = _panels(profile, locate) if not pins and not plugs else []         # panels: once pins and plugs are good
    board = _board(profile, locate) if not pins and not strips else []
    problems = (pins + _seat_count(profile, locate, revision) + _i2c(profile, locate) + plugs + panels + strips
                + board + _budget(profile, locate))
    return sorted(problems, key=lambda p: _line_number(p.where))


def free_gpio(profile: Profile, header: str = "main", revision: int = REFERENCE_REVISION) -> list[int]:
    """The header's GPIO that neither the profile nor a bus in use or reserved takes, lowest first."""
    busy = buses_taken(profile)
    taken = {u.gpio for u in uses(profile) if u.header == header}
    return [g for g, pin in sorted(by_gpio(revision).items()) if g not in taken and pin.bus() not in busy]


def _pins(profile: Profile, locate: Locator, revision: int) -> list[Problem]:
    header, busy, kept = by_gpio(revision), buses_taken(profile), reserved(profile)
    seen, out = {}, []
    for use in uses(profile):
        where = locate.at(locate.line_in(use.field, use.section, use.index))
        key = f"{use.key} = {use.gpio}"
        free = ", ".join(map(str, free_gpio(profile, use.header, revision)[:6])) or "none left"
        pin = header.get(use.gpio)
        bus = pin.bus() if pin else None
        if pin is None:
            out.append(Problem(where, key, f"GPIO{use.gpio} is not on the 40-pin header (it has GPIO0-27)",
                               f"use a free GPIO ({free})"))
        elif (use.header, use.gpio) in seen:
            first = seen[use.header, use.gpio]
            out.append(Problem(where, key, f"GPIO{use.gpio} is already the {first.role} ({first.key})",
                               f"give the {use.role} its own pin ({free})"))
        elif bus in busy:
            function = next(f for f in pin.functions if BUSES[bus][0].match(f))
            _, label, enabled = BUSES[bus]
            state, enabled = ("reserved", RESERVED_NOTE) if bus in kept else ("in use", enabled)
            out.append(Problem(where, key, f"GPIO{use.gpio} (header pin {pin.physical}) is {function}, and {label} "
                               f"is {state} for {busy[bus]} ({enabled})",
                               f"move the {use.role} to a free GPIO ({free})"))
        elif pin.pull == "up" and use.output:
            out.append(Problem(where, key, f"GPIO{use.gpio} has a fixed 1.8 kOhm pull-up on the board, so the "
                               f"{use.role} lights whenever the pin is an input (at boot, when the service stops)",
                               f"put a button there instead (buttons read active-low anyway) or move the "
                               f"{use.role} ({free})"))
        seen.setdefault((use.header, use.gpio), use)
    return out


def _seat_count(profile: Profile, locate: Locator, revision: int) -> list[Problem]:
    """A header gives so many GPIO: two seats with I2C displays; the IO board serves more."""
    if profile.backend == "ioboard":
        return []                                   # the loader holds it to the board's eight seats
    busy = buses_taken(profile)
    usable = sum(1 for pin in by_gpio(revision).values() if pin.bus() not in busy)
    extras = sum(1 for u in uses(profile) if u.section is None)
    on_header = Counter(seat.header for seat in profile.seats)
    room = (usable - extras) // PINS_PER_SEAT
    out = []
    for header, count in on_header.items():
        if count <= room:
            continue
        index = [i for i, s in enumerate(profile.seats) if s.header == header][room]
        out.append(Problem(
            locate.at(locate.line_in("seats", "seats", index)), f"seats[{index + 1}]",
            f"{count} seats on header {header!r}, but it has {usable} GPIO free of the buses in use or reserved"
            f"{f' and {extras} for buzzer and status LED' if extras else ''}: room for {room} seat{'s' * (room != 1)} of "
            f"{PINS_PER_SEAT} pins",
            f"keep {room} [[seats]], or serve up to eight with the IO board (backend = \"ioboard\", "
            f"see the ioboard-8 profile)"))
    return out


def _i2c(profile: Profile, locate: Locator) -> list[Problem]:
    out = _muxes(profile, locate)
    muxes = profile.muxes
    channels = {bus for mux in muxes for bus in mux.buses}
    taken: dict[tuple[int, int], str] = {(mux.parent, mux.address): "the mux" for mux in muxes}
    # Displays on a parent bus first: they answer on every channel its mux has switched on too.
    ordered = sorted(profile.displays().items(), key=lambda item: item[1].bus in channels)
    for name, spec in ordered:
        section, index = ("table", 0) if name == "table" else ("seats", int(name[4:]) - 1)
        prefix = "table" if name == "table" else f"seats[{index + 1}].display"

        def at(field: str) -> str:
            return locate.at(locate.line_in(field, section, index))
        label = "the table display" if name == "table" else f"seat {index + 1}'s display"
        if spec.address not in OLED_ADDRESSES:
            out.append(Problem(at("address"), f"{prefix}.address = 0x{spec.address:02X}",
                               "SSD1306 and SH1106 modules answer at 0x3C or 0x3D only",
                               "write address = 0x3C, or 0x3D for a module with its address jumper moved"))
            continue
        if spec.bus not in I2C_GPIO and spec.bus not in channels:
            if not muxes:
                fix = "use bus = 1 (GPIO2/3), or add a [mux] table whose buses list this channel"
            elif len(muxes) == 1:
                fix = f"use bus = {muxes[0].parent} or one of the mux's buses {list(muxes[0].buses)}"
            else:
                fix = f"use bus = 1 or one of the muxes' buses {[bus for mux in muxes for bus in mux.buses]}"
            out.append(Problem(at("bus"), f"{prefix}.bus = {spec.bus}",
                               f"bus {spec.bus} is neither I2C1 nor a channel of a TCA9548A mux", fix))
            continue
        mux = profile.mux_of(spec.bus)
        clash = taken.get((spec.bus, spec.address)) or (taken.get((mux.parent, spec.address)) if mux else None)
        if clash:
            same = clash if (spec.bus, spec.address) in taken else f"{clash} on the mux's parent bus {mux.parent}"
            out.append(Problem(at("address"), f"{prefix}.address = 0x{spec.address:02X}",
                               f"0x{spec.address:02X} on bus {spec.bus} is already {same}: both would answer",
                               "move one module's address jumper (0x3C/0x3D), or give it its own mux channel"))
            continue
        taken[spec.bus, spec.address] = label
    return out


def _muxes(profile: Profile, locate: Locator) -> list[Problem]:
    """Each mux on one of the header's I2C buses, and each of its channels a bus of its own."""
    out, muxes = [], profile.muxes
    parents = {mux.parent for mux in muxes}
    for index, mux in enumerate(muxes):
        name = "mux" if len(muxes) == 1 else f"mux[{index + 1}]"
        if mux.parent not in I2C_GPIO:
            out.append(Problem(locate.at(locate.line_in("parent", "mux", index)), f"{name}.parent = {mux.parent}",
                               f"I2C{mux.parent} has no pins on the 40-pin header",
                               "write parent = 1 (I2C1 on GPIO2/3) or parent = 0 (I2C0 on GPIO0/1)"))
        where = locate.at(locate.line_in("buses", "mux", index))
        key = f"{name}.buses = {list(mux.buses)}"
        for bus, count in Counter(mux.buses).items():
            other = next((m for m in muxes[:index] if bus in m.buses), None)
            if count > 1 or bus == mux.parent:
                problem = f"bus {bus} is listed twice or is the mux's own parent bus"
            elif bus in parents or bus in I2C_GPIO:
                problem = f"bus {bus} is I2C{bus} itself, the Pi's own bus, not a mux channel"
            elif other is not None:
                problem = f"bus {bus} is already a channel of the mux at 0x{other.address:02X} on I2C{other.parent}"
            else:
                continue
            out.append(Problem(where, key, problem,
                               "list each channel's own /dev/i2c-N once, as `molebox doctor` shows them"))
    return out


def _plugs(profile: Profile, locate: Locator) -> list[Problem]:
    """Each panel's plugs (``[connector]``, else the defaults): no lamp supply on the logic plug, every line on one."""
    if profile.backend == "sim":
        return []
    out = []
    for seat in profile.seats:
        for plug, pin, problem, fix in connector.problems(profile, seat):
            if pin and profile.connector:
                key = f"connector.{plug}[{pin}] = {profile.connector[plug][pin - 1]!r}"
            else:
                key = f"connector.{plug}" if profile.connector else "the panels' default plugs"
            where = locate.at(locate.line_in(plug, "connector") if profile.connector else None)
            found = Problem(where, key, problem, fix)
            if found not in out:
                out.append(found)
    return out


def _panels(profile: Profile, locate: Locator) -> list[Problem]:
    """The wiring inside each panel (``wiring/panel.py``): every part's terminal and every plug pin wired, no two
    lines joined, each part on its line."""
    if profile.backend == "sim":
        return []
    return [Problem(locate.at(None), "the panels' wiring", line, "see docs/build.md, Every wire, pin to pin")
            for line in panel.problems(profile, netlist(profile))]


def _strips(profile: Profile, locate: Locator) -> list[Problem]:
    """The hub's strips (``[hub] strips``, else the safe order): each shared line on one, no supply above 3.3 V
    beside a logic strip or another supply."""
    hub = next((p for p in netlist(profile).parts if p.key == "hub"), None) if profile.backend != "sim" else None
    if hub is None:
        return []
    where = locate.at(locate.line_in("strips", "hub") if profile.strips else None)
    key = f"hub.strips = {list(profile.strips)}" if profile.strips else "the hub's strips"
    lines = [net for net in POWER_NETS if net in hub.bands.values()]
    safe = f"strips = {list(guard.safe_order(lines))}".replace("'", '"')
    out = [Problem(where, key, f"a {net} strip, but no part of this box takes {net} from the hub (its strips carry "
                   f"{', '.join(lines)})", f"leave it out: {safe}")
           for net in dict.fromkeys(profile.strips) if net not in lines]
    out += [Problem(where, key, f"no strip carries {net}", f"add it: {safe}")
            for net in lines if profile.strips and net not in profile.strips]
    order = profile.strips or hub.strips
    for a, b in guard.clashes(zip(order, order[1:])):
        hot, other = (a, b) if guard.domain(a) in guard.HOT else (b, a)
        out.append(Problem(where, key, f"the {hot} strip sits beside the {other} strip: one solder bridge between "
                           f"them puts {hot} on {other}" + (" and the Pi" if guard.domain(other) == guard.LOGIC else ""),
                           f"put a GND strip between them: {safe}"))
    return out


def _board(profile: Profile, locate: Locator) -> list[Problem]:
    """The hub as ``molebox wiring stripboard`` lays it out, held to its design-rule check: the Pi's 5 V pins
    (2 and 4) face 3V3 (pin 1) and SDA (pin 3) across the header's cut, so a box that takes them is refused."""
    if profile.backend == "sim" or not any(p.key == "hub" for p in netlist(profile).parts):
        return []
    found = drc.check(stripboard.layout(profile))
    if any(f"the Pi's pin {pin})" in line for line in found for pin in stripboard.PULLED):
        if profile.lamp.kind == "5v":
            where, key = locate.at(locate.line_in("kind", "lamp")), '[lamp] kind = "5v"'
        else:
            where, key = locate.at(locate.line_in("buzzer", None)), f"buzzer = {profile.buzzer}"
        return [Problem(where, key, "the box takes the Pi's 5 V from header pin 2, which faces pin 1 (3V3) across the "
                        "hub's box header, as pin 4 faces SDA (pin 3): one solder bridge across that cut puts 5 V on "
                        "3V3 and the Pi", "give the lamps a supply of their own: kind = \"12v\" and a 12 V adapter, "
                        "as gpio-2-mux, whose buzzer then takes the adapter's 12 V too (or kind = \"led\", and no "
                        "buzzer); the Pi's 5 V pins then stay pulled out of the box header")]
    return [Problem(locate.at(None), "the hub's stripboard", line, "see `molebox wiring stripboard` and docs/build.md, "
                    "The hub on stripboard") for line in found]


def _budget(profile: Profile, locate: Locator) -> list[Problem]:
    """The parts' currents against the Pi's limits (``molebox wiring parts`` shows the whole budget)."""
    where = locate.at(locate.line_in("ma", "lamp"))
    key = f"[lamp] {profile.lamp.kind}, {profile.lamp.colour}, {profile.lamp.ma:g} mA"
    return [Problem(where, key, problem, fix) for problem, fix in parts.problems(profile)]


def _line_number(where: str) -> int:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def report(profile: Profile, problems: list[Problem]) -> str:
    """What ``molebox wiring check`` prints."""
    if problems:
        noun = "problem" if len(problems) == 1 else "problems"
        return "\n".join([*map(str, problems), f"{profile.path}: {len(problems)} {noun}"])
    gpio = len({(u.header, u.gpio) for u in uses(profile)})
    displays = len(profile.displays())
    in_use = ", ".join(BUSES[b][1] for b in buses_in_use(profile)) or "none"
    kept = ", ".join(f"{BUSES[b][1]} ({why})" for b, why in reserved(profile).items()) or "none"
    return (f"{profile.path}: ok: {profile.title}: {len(profile.seats)} seats, {gpio} GPIO, "
            f"{displays} display{'s' if displays != 1 else ''}, buses in use: {in_use}; reserved: {kept}")
