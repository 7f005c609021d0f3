"""What may sit beside what: a line above 3.3 V only beside ground or its own supply's lines.

One solder bridge joins two neighbouring strips of the hub; a plug put in one row off, or two cores of
a ribbon nicked together, join two neighbouring pins. Whatever sits beside a 5 V or 12 V line is what
that supply reaches after one such slip. So every line has a **domain**: ground (GND, and NC, a pin
left unconnected), a supply above the Pi's 3.3 V with the lines that sit at its voltage (a lamp's
minus while its driver is off, the pixels' data), or logic (3V3, the GPIO and I2C lines). Two
neighbours clash when neither is ground and they are not of one domain with no hot supply between
them: a hot line beside logic, or 5 V beside 12 V.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

GROUND, LOGIC = "ground", "logic"
GROUNDS = ("GND", "NC")
GROUND_NET = "GND"
HOT = {"5V": 5.0, "12V": 12.0}          # the supplies above 3.3 V a box may carry, by their line names
LOGIC_SUPPLY = "3V3"


def domain(line: str, hot: Mapping[str, str] | None = None) -> str:
    """GROUND, LOGIC, or the hot supply ("5V", "12V") the line sits at; ``hot`` names the lines that sit at
    a supply's voltage without being it (a lamp's minus: {"lamp1": "12V"})."""
    if line in GROUNDS:
        return GROUND
    if line in HOT:
        return line
    return (hot or {}).get(line, LOGIC)


def clash(a: str, b: str, hot: Mapping[str, str] | None = None) -> bool:
    """Whether one bridge between lines ``a`` and ``b`` puts a supply above 3.3 V where it does not belong."""
    da, db = domain(a, hot), domain(b, hot)
    return GROUND not in (da, db) and da != db


def clashes(pairs: Iterable[tuple[str, str]], hot: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """The neighbouring pairs that clash, each once, in order."""
    return list(dict.fromkeys((a, b) for a, b in pairs if clash(a, b, hot)))


def safe_order(nets: Iterable[str]) -> tuple[str, ...]:
    """The hub's strips top to bottom so that no two clash: the logic lines, 3V3, then ground, and each
    supply above 3.3 V after a ground strip of its own (a second ground strip is linked to the first)."""
    nets = list(dict.fromkeys(nets))
    logic = [n for n in nets if domain(n) == LOGIC and n != LOGIC_SUPPLY]
    out = logic + [LOGIC_SUPPLY] * (LOGIC_SUPPLY in nets)
    hot = [n for n in nets if domain(n) not in (LOGIC, GROUND)]
    if GROUND_NET in nets or hot:
        out.append(GROUND_NET)
    for n, net in enumerate(hot):
        out += [GROUND_NET] * (n > 0) + [net]
    return tuple(out)



def describe(line: str, hot: Mapping[str, str] | None = None) -> str:
    """``12V`` or ``lamp1 (at 12V)``: how a problem names a line and its level."""
    d = domain(line, hot)
    return line if d in (line, LOGIC, GROUND) else f"{line} (at {d})"
