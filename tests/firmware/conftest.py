"""The IO board on a simulated Pico (pico.py) and the host's own IOBoardHardware, which may come and go."""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

import pytest
from luma.core.device import dummy

from companion.hardware.ioboard import IOBoardHardware
from companion.hardware.iolink import SILENT
from companion.inputs import Edge
from tests.firmware.pico import Pico
from tests.waiting import TIMEOUT_S, wait_for
from wiring.profile import Profile, load


def display(spec):
    return dummy(width=spec.width, height=spec.height, mode="1")


@dataclass
class IOBox:
    """A board and the host that comes and goes: every edge and fault it reported, across its comings."""

    pico: Pico
    profile: Profile
    hw: IOBoardHardware | None = None
    edges: list[Edge] = field(default_factory=list)
    faults: list[str | None] = field(default_factory=list)

    def connect(self, link: bool = True) -> None:
        self.hw = IOBoardHardware(self.profile, time.monotonic, display, find_port=lambda: self.pico.path)
        self.hw.watch(self.faults.append)
        self.hw.connect(self.edges.append)
        assert not link or self.hw.link.linked.wait(TIMEOUT_S), f"no link; faults {self.faults}; {self.pico.errors()}"

    def leave(self) -> None:
        """The host goes (the service stops): the board is on its own."""
        self.hw.close()
        self.hw = None
        self.pico.away()

    def come_back(self) -> None:
        self.pico.back()
        self.connect()

    def losses(self) -> int:
        """How often the host called the linked board silent: once may be a stall of this loaded machine,
        twice or more in a few seconds is a link that flaps."""
        linked = self.faults.index(None) if None in self.faults else len(self.faults)
        return self.faults[linked:].count(SILENT)

    def presses(self) -> Counter:
        return Counter((e.seat, e.control) for e in list(self.edges) if e.pressed)

    def delivered(self, made: Counter) -> None:
        """Every press made came out once, and nothing more comes after a few heartbeats."""
        assert wait_for(lambda: self.presses() == made), f"made {made}, delivered {self.edges}"
        time.sleep(0.3)
        assert self.presses() == made, "a phantom press"
        assert self.pico.alive(), self.pico.errors()


@pytest.fixture
def iobox(tmp_path):
    made: list[IOBox] = []

    def build(profile: Profile | None = None, connect: bool = True, **pico) -> IOBox:
        made.append(IOBox(Pico(tmp_path / f"pico{len(made)}", **pico), profile or load("ioboard-8")))
        if connect:
            made[-1].connect()
        return made[-1]

    yield build
    for b in made:
        if b.hw is not None:
            b.hw.close()
        b.pico.close()
