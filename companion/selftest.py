"""``molebox selftest``: every display, lamp and button of a box tried in turn, and a report of what did not answer.

Each display is drawn a test card (a display that does not take it says why);
each seat's lamps light one after the other; then each button is asked for
with its lamp lit and the prompt on the seat's own display, and its press has
to come through the same debouncer the game uses. A press of another button
while waiting is named in the report (crossed wires). On the simulator a
``prompt`` callback presses the buttons, so the test runs unattended.
"""
from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass
from typing import Callable

from .lamps import Lamp
from .hardware.panel import Hardware
from .inputs import CONTROLS, HOLES, Edge, Inputs
from .render.selftest import card
from .words import say


@dataclass(frozen=True)
class Result:
    part: str           # "seat1 display", "seat2 hole3", "IO board"
    ok: bool
    note: str


class SelfTest:
    def __init__(self, ports: Hardware, *, tell: Callable[[str], None] = print, wait_s: float = 10.0,
                 lamp_s: float = 0.3, prompt: Callable[[int, str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.ports, self.tell, self.wait_s, self.lamp_s, self.prompt = ports, tell, wait_s, lamp_s, prompt
        self.clock = clock
        self.edges: queue.SimpleQueue[Edge] = queue.SimpleQueue()
        self.inputs = Inputs(len(ports.seats))
        self._linked = threading.Event()

    def run(self) -> list[Result]:
        results = self.displays()
        self.ports.watch(lambda fault: self._linked.set() if fault is None else self._linked.clear())
        if self.ports.fault is None:
            self._linked.set()
        self.ports.connect(self.edges.put)
        if not self._linked.wait(self.wait_s):
            return results + [Result("IO board", False, self.ports.fault or "no link")]
        results += [Result("IO board", False, text) for text, _ in self.ports.notes]     # another firmware build
        self.lamps()
        self.signals()
        results += self.buttons()
        for name, device in self.ports.displays().items():
            device.display(card(name, [say("done"), say("see the report")]))
        return results

    def displays(self) -> list[Result]:
        out = []
        for name, device in self.ports.displays().items():
            label = getattr(device, "name", "")
            device.display(card(name, [say("test card"), label]))
            fault = getattr(device, "fault", None)
            out.append(Result(f"{name} display", fault is None, fault or f"test card shown {label}".strip()))
        return out

    def lamps(self) -> None:
        for seat in self.ports.seats:
            self.tell(f"seat {seat.seat}: its lamps light one after the other")
            for i in range(len(seat.lamps)):
                seat.set_lamps([Lamp.ON if j == i else Lamp.OFF for j in range(len(seat.lamps))])
                time.sleep(self.lamp_s)
            seat.set_lamps([Lamp.OFF] * len(seat.lamps))

    def signals(self) -> None:
        signals = self.ports.signals
        if signals.buzzer is not None:
            self.tell("the buzzer beeps twice")
            signals.beep("reveal")
        if signals.led is not None:
            self.tell("the status LED flashes, then stays on")
            signals.health("selftest")
            time.sleep(max(self.lamp_s, 0.5))
            signals.health(None)

    def buttons(self) -> list[Result]:
        out = []
        for seat in self.ports.seats:
            for control in CONTROLS:
                out.append(self._ask(seat, control))
            seat.set_lamps([Lamp.OFF] * len(seat.lamps))
        return out

    def _ask(self, seat, control: str) -> Result:
        """Light the button's lamp (all dim for OK), ask on the seat's display, wait for its tap."""
        n = seat.seat
        seat.set_lamps([Lamp.ON if control == hole else Lamp.DIM if control == "ok" else Lamp.OFF
                        for hole in HOLES[:len(seat.lamps)]])
        if seat.display is not None:
            seat.display.display(card(f"seat{n}", [say("press {control}", control=control),
                                                   say("(its lamp is lit)") if control != "ok" else ""]))
        self.tell(f"seat {n}: press {control}")
        if self.prompt is not None:
            self.prompt(n, control)
        others: list[str] = []
        deadline = self.clock() + self.wait_s
        while self.clock() < deadline:
            try:
                edge = self.edges.get(timeout=0.02)
            except queue.Empty:
                edge = None
            gestures = (self.inputs.edge(edge) if edge else []) + self.inputs.tick(self.clock())
            for g in gestures:
                if (g.seat, g.control) == (n, control):
                    return Result(f"seat{n} {control}", True, "answered")
                others.append(f"seat{g.seat} {g.control}")
        note = f"no press within {self.wait_s:g} s"
        if others:
            note += f"; {', '.join(dict.fromkeys(others))} answered instead: crossed wires?"
        return Result(f"seat{n} {control}", False, note)


def report(results: list[Result]) -> str:
    lines = [f"  {'ok  ' if r.ok else 'FAIL'}  {r.part:<15} {r.note}" for r in results]
    failed = [r.part for r in results if not r.ok]
    lines.append(f"{len(failed)} of {len(results)} did not answer: {', '.join(failed)}" if failed
                 else f"all {len(results)} answered")
    return "\n".join(lines)


def finger(hardware, skip: set[tuple[int, str]] = frozenset(), wrong: dict[tuple[int, str], str] | None = None,
           delay_s: float = 0.02, hold_s: float = 0.06) -> Callable[[int, str], None]:
    """A prompt for the simulator: presses the asked-for button on its mock pin, unless told to skip it
    (a dead switch) or to press another (``wrong``: crossed wires)."""
    wrong = wrong or {}

    def press(seat: int, control: str) -> None:
        if (seat, control) in skip:
            return
        target = wrong.get((seat, control), control)

        def tap():
            time.sleep(delay_s)
            hardware.drive(seat, target, True)
            time.sleep(hold_s)
            hardware.drive(seat, target, False)
        threading.Thread(target=tap, daemon=True).start()
    return press
