"""Press scripts: a game as a list of button presses, for ``molebox sim`` and the tests.

One step per line::

    # a comment
    2 hole3          seat 2 taps hole 3
    2 ok             seat 2 taps OK
    1 ok hold        seat 1 holds OK (a long press)
    wait 500         nothing happens for 500 ms

Every press goes through the mock pins of the simulated panel: the pin is
driven low, time passes on the script's clock, the pin is driven high.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .inputs import CONTROLS
from .scene import PICKS_S, ROLL_S
from .table import public

TAP_S = 0.05
GAP_S = 0.05
SETTLE_S = PICKS_S + ROLL_S + 0.4   # a script's end: flashes and blinks end, a reveal's picks give way to what
                                    # they did, the dice rolled at it land
FORMAT = "expected 'SEAT CONTROL [hold]' (CONTROL: hole1..hole5 or ok) or 'wait MS'"


class ScriptError(ValueError):
    """A script line that cannot be run; says which line and why."""


@dataclass(frozen=True)
class Press:
    line: int
    seat: int
    control: str
    hold: bool = False


@dataclass(frozen=True)
class Wait:
    line: int
    ms: int


def parse(text: str, name: str = "<script>", panels: int = 8) -> list[Press | Wait]:
    steps: list[Press | Wait] = []
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{name}:{number}"
        if words[0] == "wait":
            if len(words) != 2 or not words[1].isdigit():
                raise ScriptError(f"{where}: {raw.strip()!r}: 'wait' takes a whole number of milliseconds")
            steps.append(Wait(number, int(words[1])))
            continue
        if len(words) not in (2, 3) or not words[0].isdigit():
            raise ScriptError(f"{where}: {raw.strip()!r}: {FORMAT}")
        seat, control = int(words[0]), words[1].lower()
        if not 1 <= seat <= panels:
            raise ScriptError(f"{where}: seat {seat} does not exist; seats are 1 to {panels}")
        if control not in CONTROLS:
            raise ScriptError(f"{where}: unknown control {words[1]!r}; {FORMAT}")
        if len(words) == 3 and words[2].lower() != "hold":
            raise ScriptError(f"{where}: {words[2]!r} after the control can only be 'hold'")
        steps.append(Press(number, seat, control, len(words) == 3))
    return steps


class FakeClock:
    """Script time: starts at zero and moves only when told."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def run(session, hardware, clock: FakeClock, steps, settle: bool = True) -> None:
    """Play ``steps`` on a session built on ``hardware`` (the sim backend) and ``clock``.

    ``settle`` lets :data:`SETTLE_S` pass at the end, as at the end of a script.
    """
    hold_s = session.inputs.controls[(1, "ok")].hold_s
    for step in steps:
        if isinstance(step, Wait):
            clock.advance(step.ms / 1000)
            session.pump()
            continue
        hardware.drive(step.seat, step.control, True)
        session.pump()
        clock.advance(hold_s + TAP_S if step.hold else TAP_S)
        session.pump()
        hardware.drive(step.seat, step.control, False)
        session.pump()
        clock.advance(GAP_S)
        session.pump()
    if settle:
        clock.advance(SETTLE_S)
        session.pump()
    session.screens.worker.flush()


def write_outputs(session, out: Path) -> None:
    """state.json (public), lamps.json, transcript.json and one PNG per display."""
    out.mkdir(parents=True, exist_ok=True)
    session.screens.worker.flush()
    (out / "state.json").write_text(json.dumps(public(session.state), indent=1, sort_keys=True) + "\n")
    (out / "lamps.json").write_text(json.dumps(session.lamps.lit(), indent=1, sort_keys=True) + "\n")
    if session.state.match is not None:
        (out / "transcript.json").write_text(json.dumps(session.state.match.transcript(), indent=1) + "\n")
    for name, device in session.hw.displays().items():
        device.image.save(out / f"{name}.png")
