"""Each panel's plugs: which of its lines goes to which pin, the lamp supply kept off the logic plug.

A panel joins the box through a **logic plug** (its button lines, the matrix row on the IO board, its
OLED's 3V3, SDA, SCL and ground) and, where its lamps have a supply of their own (5 V or 12 V arcade
lamps through a driver, the pixel chain), a **lamp plug** of another kind and pitch, polarised, so that
neither goes into the other's socket. A 12 V or 5 V line one pin over from a button line is a GPIO at
12 V when a plug goes in reversed or one row off. A profile's ``[connector]`` may give both pinouts, pin 1
first; without it the defaults below apply, and ``molebox wiring check`` refuses a supply on the logic
plug (``check.py``).
"""
from __future__ import annotations

from dataclasses import dataclass

from . import guard
from .hardware import LAMP_KINDS
from .profile import HOLES_PER_SEAT, Profile, SeatSpec

LOGIC, LAMP = "logic", "lamp"
PLUGS = (LOGIC, LAMP)
SHARED = ("GND", "NC")          # may stand on several pins (NC: a pin left unconnected)
HOLES = tuple(f"hole{n}" for n in range(1, HOLES_PER_SEAT + 1))
LAMPS = tuple(f"lamp{n}" for n in range(1, HOLES_PER_SEAT + 1))
DISPLAY = ("3V3", "SDA", "GND", "SCL")      # a ground between SDA and SCL (docs/build.md, section 4)


@dataclass(frozen=True)
class Plug:
    name: str                       # LOGIC or LAMP
    pins: tuple[str, ...]           # the line on each pin, pin 1 first

    @property
    def part(self) -> str:
        """The connector to buy: the logic plug a keyed IDC box header, the lamp plug a polarised JST-VH."""
        if self.name == LOGIC:
            ways = len(self.pins) + len(self.pins) % 2
            return f"{ways}-way IDC box header (2 x {ways // 2}, shrouded and keyed) and ribbon"
        return f"{len(self.pins)}-pin JST-VH (3.96 mm, polarised)"

    def neighbours(self) -> list[tuple[int, int]]:
        """Pin pairs one slip apart: each pin and the next (side by side on a one-row plug; on an IDC header
        face to face, and the ribbon's cores side by side), and on an IDC header the pin two on, along its row."""
        pairs = [(p, p + 1) for p in range(1, len(self.pins))]
        if self.name == LOGIC:
            pairs += [(p, p + 2) for p in range(1, len(self.pins) - 1)]
        return sorted(pairs)

    def pinout(self) -> str:
        """``1 GND, 2 hole1, ...``; an IDC header's last pin, when the lines leave it over, ``NC``."""
        spare = ("NC",) * (self.name == LOGIC and len(self.pins) % 2)
        return ", ".join(f"{n} {line}" for n, line in enumerate(self.pins + spare, 1))


def lines(profile: Profile, seat: SeatSpec) -> dict[str, str]:
    """Every line the seat's panel takes at its plugs, and which plug it belongs on (LOGIC or LAMP)."""
    kind = LAMP_KINDS[profile.lamp.kind]
    out = {"GND": LOGIC, **{hole: LOGIC for hole in HOLES}, "ok": LOGIC}
    if profile.ioboard:
        out["row"] = LOGIC
    if seat.display is not None:
        out.update({line: LOGIC for line in DISPLAY})
    if profile.lamp.kind == "ws2812":
        out.update({"5V": LAMP, "DIN": LAMP, "DOUT": LAMP})
    elif kind.driver:                   # the lamps' minus sits at the supply's voltage while the driver is off
        out.update({supply(profile): LAMP, **{lamp: LAMP for lamp in LAMPS}})
    else:
        out.update({lamp: LOGIC for lamp in LAMPS})
    return out


def supply(profile: Profile) -> str | None:
    """The lamps' own supply line ("12V", "5V"), None when a pin lights them itself."""
    kind = LAMP_KINDS[profile.lamp.kind]
    return f"{kind.volts:g}V" if kind.driver or profile.lamp.kind == "ws2812" else None


def hot_lines(profile: Profile) -> dict[str, str]:
    """The lines that sit at a supply above 3.3 V without being it: a driven lamp's minus (at the supply while
    its driver is off), the pixels' data; each with its supply."""
    if profile.lamp.kind == "ws2812":
        return {"DIN": supply(profile), "DOUT": supply(profile)}
    return {lamp: supply(profile) for lamp in LAMPS} if LAMP_KINDS[profile.lamp.kind].driver else {}


def default_plugs(profile: Profile, seat: SeatSpec) -> tuple[Plug, ...]:
    """The built-in pinouts: buttons, then the lamps a pin lights itself, then the display's lines."""
    need = lines(profile, seat)
    logic = ("row",) if profile.ioboard else ("GND",)
    logic += HOLES + ("ok",) + tuple(lamp for lamp in LAMPS if need.get(lamp) == LOGIC)
    if seat.display is not None:
        logic += DISPLAY
    elif profile.ioboard:
        logic += ("GND",)
    if profile.lamp.kind == "ws2812":
        return Plug(LOGIC, logic), Plug(LAMP, ("5V", "DIN", "DOUT", "GND"))
    if need.get("lamp1") == LAMP:
        return Plug(LOGIC, logic), Plug(LAMP, (supply(profile),) + LAMPS)
    return (Plug(LOGIC, logic),)


def plugs(profile: Profile, seat: SeatSpec) -> tuple[Plug, ...]:
    """The seat's plugs: the profile's ``[connector]`` pinouts, else the defaults."""
    if not profile.connector:
        return default_plugs(profile, seat)
    return tuple(Plug(name, profile.connector[name]) for name in PLUGS if name in profile.connector)


def terminals(profile: Profile, seat: SeatSpec) -> list[tuple[Plug, int, str]]:
    """Each wired pin of the seat's plugs as (plug, pin, the panel's terminal there): the pin's line, a second
    or later GND numbered from 2 (``GND2``), so that every GND pin has a wire of its own; NC pins left out."""
    out, grounds = [], 0
    for plug in plugs(profile, seat):
        for pin, line in enumerate(plug.pins, 1):
            if line == "GND":
                grounds += 1
                line = f"GND{grounds}" if grounds > 1 else line
            if line != "NC":
                out.append((plug, pin, line))
    return out


def problems(profile: Profile, seat: SeatSpec) -> list[tuple[str, int, str, str]]:
    """What is wrong with the seat's plugs: (plug, pin (0: the plug as a whole), problem, fix)."""
    need, out, seen = lines(profile, seat), [], {}
    for plug in plugs(profile, seat):
        for pin, line in enumerate(plug.pins, 1):
            if line in SHARED:
                continue
            if line not in need:
                out.append((plug.name, pin, f"{line!r} is not a line of this box's panels (they have "
                            f"{', '.join(need)})", "name each pin after one of those, or NC"))
            elif line in seen:
                out.append((plug.name, pin, f"{line} is already on the {seen[line][0]} plug's pin {seen[line][1]}",
                            "give each line one pin (GND may have several)"))
            elif plug.name == LOGIC and need[line] == LAMP:
                out.append((plug.name, pin, _why_not(profile, line), "move it to the lamp plug: a polarised "
                            "plug of another kind, which cannot go into the logic plug's socket"))
            seen.setdefault(line, (plug.name, pin))
    hot = hot_lines(profile)
    for plug in plugs(profile, seat):
        for a, b in plug.neighbours():
            pair = (plug.pins[a - 1], plug.pins[b - 1])
            misplaced = plug.name == LOGIC and LAMP in (need.get(pair[0]), need.get(pair[1]))   # refused above
            if guard.clash(*pair, hot) and not misplaced:
                low = b if guard.domain(pair[0], hot) in guard.HOT else a
                out.append((plug.name, low, f"pin {a} ({guard.describe(pair[0], hot)}) sits beside pin {b} "
                            f"({guard.describe(pair[1], hot)}): a plug one row off or two cores touching joins "
                            "them", f"put a GND (or NC) pin between them, or move {plug.pins[low - 1]} to the "
                            f"{LOGIC if guard.domain(plug.pins[low - 1], hot) == guard.LOGIC else LAMP} plug"))
    missing = [line for line in need if line not in seen and line not in SHARED]
    missing += ["GND"] * (not any("GND" in plug.pins for plug in plugs(profile, seat)))
    if missing:
        out.append((LOGIC, 0, f"no pin carries {', '.join(missing)}", "add each to the logic or the lamp plug"))
    return out


def _why_not(profile: Profile, line: str) -> str:
    volts = LAMP_KINDS[profile.lamp.kind].volts
    what = {"DIN": "the pixels' 5 V data", "DOUT": "the pixels' 5 V data"}.get(
        line, f"the {volts:g} V lamp supply" if line == supply(profile) else f"a lamp's minus, at {volts:g} V "
        "while its driver is off")
    return (f"the logic plug carries {what} ({line}) beside button and I2C lines: a plug put in reversed or one "
            f"row off puts {volts:g} V on a GPIO")
