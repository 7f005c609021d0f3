"""One contract for every backend: a press comes out as that button's edges, one tap once debounced,
the presses make the game's decision, lamps show what the session sets, displays show what they are sent.

``sim`` always runs (gpiozero MockFactory pins, luma dummy displays). ``ioboard`` runs everywhere
too: the firmware's logic on a fake board behind a pty, the seat OLEDs real luma ssd1306 drivers on
fake I2C buses. ``gpio`` needs a Raspberry Pi with the panels wired: set MOLEBOX_GPIO_PROFILE
(e.g. gpio-2), run with ``-s`` and press what the terminal and the seat displays ask.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.hardware import open_backend
from companion.hardware.fake.board import FakeBoard
from companion.hardware.fake.i2c import FakeBus
from companion.hardware.fake.oled import FakeOLED
from companion.hardware.gpio import luma_device
from companion.hardware.ioboard import CODES, IOBoardHardware
from companion.lamps import Lamp
from companion.hardware.oled import ResilientDisplay
from companion.hardware.panel import PinHardware
from companion.hardware.port import HardwarePort, Simulator
from companion.hardware.sim import SimDisplay, SimHardware, SimPin
from companion.inputs import DEBOUNCE_S, Inputs
from companion.render.selftest import card
from companion.table import Start
from companion.session import Session
from wiring.profile import load
from tests.conforms import problems
from tests.waiting import wait_for

BY_CODE = {code: lamp for lamp, code in CODES.items()}
TAP_S = 0.08


def pwm_lamp(value: float) -> Lamp:
    return Lamp.ON if value == 1 else Lamp.OFF if value == 0 else Lamp.DIM


class SimRig:
    def __init__(self, tmp_path: Path):
        self.ports = SimHardware(load("gpio-2-mux"), time.monotonic)

    def press(self, seat: int, control: str) -> None:
        self.ports.drive(seat, control, True)
        time.sleep(TAP_S)
        self.ports.drive(seat, control, False)

    def lamps(self, seat: int) -> list[Lamp]:
        return [pwm_lamp(led.value) for led in self.ports.seats[seat - 1].leds]

    def glass(self, name: str) -> bytes | None:
        return self.ports.displays()[name].image.tobytes()

    def close(self) -> None:
        self.ports.close()


class IOBoardRig:
    def __init__(self, tmp_path: Path):
        self.board = FakeBoard(str(tmp_path / "ttyIO"), debounce_ms=5)
        profile = load("ioboard-8")
        self.buses = {bus: FakeBus({0x3C: FakeOLED(), 0x3D: FakeOLED()})
                      for bus in {spec.bus for spec in profile.displays().values()}}
        self.ports = IOBoardHardware(profile, time.monotonic, self._oled, find_port=lambda: self.board.path)

    def _oled(self, spec) -> ResilientDisplay:
        return ResilientDisplay(f"I2C{spec.bus}", lambda: luma_device(spec, bus=self.buses[spec.bus]))

    def press(self, seat: int, control: str) -> None:
        self.board.press(seat, control)
        time.sleep(TAP_S)
        self.board.release(seat, control)

    def lamps(self, seat: int) -> list[Lamp]:
        return [BY_CODE[code] for code in self.board.lamps(seat)[1]]

    def glass(self, name: str) -> bytes | None:
        spec = self.ports.profile.displays()[name]
        return self.buses[spec.bus].modules[spec.address].glass().tobytes()

    def close(self) -> None:
        self.ports.close()
        self.board.close()


class GPIORig:
    """The real panels: a person presses what is asked; the displays cannot be read back."""

    def __init__(self, tmp_path: Path):
        self.ports = open_backend("gpio", load(os.environ["MOLEBOX_GPIO_PROFILE"]), time.monotonic)

    def press(self, seat: int, control: str) -> None:
        print(f"\nseat {seat}: press {control}", file=sys.stderr, flush=True)
        display = self.ports.seats[seat - 1].display
        if display is not None:
            display.display(card(f"seat{seat}", [f"press {control}"]))

    def lamps(self, seat: int) -> list[Lamp]:
        return [pwm_lamp(led.value) for led in self.ports.seats[seat - 1].leds]

    def glass(self, name: str) -> bytes | None:
        return None

    def close(self) -> None:
        self.ports.close()


def gpio_skip() -> str | None:
    if not os.environ.get("MOLEBOX_GPIO_PROFILE"):
        return "no panels on GPIO here: on a Pi, set MOLEBOX_GPIO_PROFILE=gpio-2 and run with -s"
    if not any(Path("/dev").glob("gpiochip*")):
        return "no /dev/gpiochip*: not a Raspberry Pi"
    return None


RIGS = {"sim": SimRig, "ioboard": IOBoardRig, "gpio": GPIORig}


@pytest.fixture(params=list(RIGS))
def rig(request, tmp_path):
    if request.param == "gpio" and (reason := gpio_skip()):
        pytest.skip(reason)
    made = RIGS[request.param](tmp_path)
    made.wait_s = 30.0 if request.param == "gpio" else 3.0
    yield made
    made.close()


def test_a_press_is_edges_of_that_button_alone_and_one_tap_after_the_debouncer(rig):
    edges = []
    rig.ports.connect(edges.append)
    assert wait_for(lambda: rig.ports.fault is None)
    for seat, control in ((1, "hole3"), (2, "ok")):
        edges.clear()
        rig.press(seat, control)
        assert wait_for(lambda: len(edges) >= 2 and not edges[-1].pressed, rig.wait_s)
        time.sleep(0.1)                                 # a real switch may bounce: let it settle
        assert {(e.seat, e.control) for e in edges} == {(seat, control)}
        assert edges[0].pressed and not edges[-1].pressed
        assert [e.time for e in edges] == sorted(e.time for e in edges)
        inputs = Inputs(len(rig.ports.seats))
        gestures = [g for e in edges for g in inputs.edge(e)] + inputs.tick(edges[-1].time + 2 * DEBOUNCE_S)
        assert [(g.seat, g.control, g.kind) for g in gestures] == [(seat, control, "tap")]


def test_lamps_show_what_the_seat_is_set_to(rig):
    rig.ports.connect(lambda edge: None)
    assert wait_for(lambda: rig.ports.fault is None)
    for seat in rig.ports.seats[:2]:
        states = [Lamp.ON, Lamp.OFF, Lamp.DIM, Lamp.OFF, Lamp.ON][seat.seat - 1:] + [Lamp.ON] * (seat.seat - 1)
        seat.set_lamps(states)
        assert wait_for(lambda: rig.lamps(seat.seat) == states), rig.lamps(seat.seat)


def test_displays_show_what_they_are_sent(rig):
    for name, display in rig.ports.displays().items():
        display.display(card(name, ["contract"]))
        assert getattr(display, "fault", None) is None
        assert rig.glass(name) in (None, card(name, ["contract"]).tobytes()), name


def test_presses_make_the_games_decision_and_the_box_answers_on_lamps_and_display(rig):
    session = Session(rig.ports, time.monotonic, start=Start("whakka-mole", 2))
    stop = threading.Event()
    loop = threading.Thread(target=session.run, args=(stop,), daemon=True)
    loop.start()
    try:
        assert wait_for(lambda: session.state.paused is None)
        for control in ("hole1", "ok"):
            rig.press(1, control)
            time.sleep(TAP_S)
        assert wait_for(lambda: session.state.match.held.get(1) == {"popup": (1,)}, rig.wait_s)
        assert [d.key for d in session.state.match.decisions_for(1)] == ["whack"]
        assert wait_for(lambda: rig.lamps(1) == [Lamp.DIM] * 5)       # the ack flash is over; the pick stays secret
        session.screens.worker.flush()
        assert wait_for(lambda: rig.glass("seat1") in (None, session.screens.worker.frames["seat1"].tobytes()))
    finally:
        stop.set()
        session.call(lambda: None)
        loop.join(2)
        session.screens.worker.close()


def _gpio_on_mock_pins(tmp_path: Path) -> PinHardware:
    """The gpio backend's hardware (:func:`companion.hardware.gpio.open_gpio` makes the same class), on mock pins."""
    factory = MockFactory(pin_class=SimPin)
    return PinHardware(load("gpio-2-mux"), lambda header: factory, SimDisplay, time.monotonic)


BACKENDS = {"sim": lambda tmp_path: SimRig(tmp_path), "gpio": lambda tmp_path: Bare(_gpio_on_mock_pins(tmp_path)),
            "ioboard": lambda tmp_path: IOBoardRig(tmp_path)}


class Bare:
    def __init__(self, ports):
        self.ports = ports

    def close(self) -> None:
        self.ports.close()


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_every_backend_offers_the_hardware_port_name_for_name(backend, tmp_path):
    made = BACKENDS[backend](tmp_path)
    try:
        hardware = made.ports
        assert isinstance(hardware, HardwarePort) and problems(hardware, HardwarePort) == []
        if backend == "sim":
            assert isinstance(hardware.simulator, Simulator) and problems(hardware.simulator, Simulator) == []
        else:
            assert hardware.simulator is None              # a real box's pages never drive its pins
    finally:
        made.close()
