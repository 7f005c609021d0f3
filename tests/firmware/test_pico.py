"""The firmware under a real MicroPython: compiled for the Pico, and main.py run against the unchanged host.

``mpy-cross -march=armv6m`` compiles every file as for the RP2040; the board's
logic runs the same under the MicroPython unix port (from those compiled
files) as under CPython; and main.py runs on a simulated Pico (pico.py: the
stub ``machine``, ``neopixel`` and ``time`` of tests/firmware/rp2/) at one
end of a pty, with the host's own IOBoardHardware at the other, on real timings. The
board's clock wraps at 2**30 ms as the rp2's does, and moves on by days where
a test says so: the box is left plugged in for a month.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from companion import doctor
from companion.hardware import iolink
from companion.hardware.ioboard import IOBoardHardware
from companion.lamps import Lamp
from companion.render import fault as fault_screen
from companion.selftest import Result, SelfTest
from companion.session import Session
from firmware import protocol as p
from firmware.board import DIM_LEVEL, IDLE_LEVEL
from tests.firmware.conftest import display
from companion.firmware import FILES, SOURCE as FIRMWARE
from tests.firmware.pico import PIXEL_PIN, TIMEOUT, Pico, tool
from tests.waiting import wait_for
from wiring.profile import parse

BRIGHTNESS = 64                     # main.py's WS2812 cap
SCENARIO = Path(__file__).parent / "scenario.py"
PLAIN = 'backend = "ioboard"\n\n[ioboard]\nlamps = "plain"\n\n[[seats]]\n\n[[seats]]\n'


def level(colour: int, lamp_level: int, brightness: int = BRIGHTNESS) -> int:
    """A channel as the board renders it: scaled, and rounded up so that a lit lamp never goes dark."""
    return -(-colour * lamp_level * brightness // 65025)


# ---- compiled for the Pico, and the same logic under both interpreters --------------------------

def test_every_firmware_file_compiles_for_the_rp2040(tmp_path):
    for name in FILES:
        out = tmp_path / name.replace(".py", ".mpy")
        result = subprocess.run([tool("mpy-cross"), "-march=armv6m", "-o", str(out), str(FIRMWARE / name)],
                                capture_output=True, text=True)
        assert result.returncode == 0 and out.stat().st_size > 0, result.stderr
        assert out.read_bytes()[:2] == b"M\x06"             # an .mpy of bytecode version 6


def test_the_boards_logic_runs_the_same_under_micropython_from_the_compiled_files(tmp_path):
    for name in ("protocol.py", "board.py"):
        subprocess.run([tool("mpy-cross"), "-march=armv6m", "-o", str(tmp_path / name.replace(".py", ".mpy")),
                        str(FIRMWARE / name)], check=True)
    cpython = subprocess.run([sys.executable, str(SCENARIO)], capture_output=True, text=True, check=True)
    micro = subprocess.run([tool("micropython"), str(SCENARIO)], capture_output=True, text=True,
                           env={"MICROPYPATH": str(tmp_path)})
    assert micro.returncode == 0, micro.stderr or micro.stdout
    assert "board.mpy" not in cpython.stdout and cpython.stdout.count("frame") > 500
    assert micro.stdout == cpython.stdout


# ---- main.py on the simulated Pico, against the host's IOBoardHardware ----------------------------------

@pytest.mark.parametrize("link", ["usb", "uart"])
def test_presses_arrive_exactly_once_and_the_lamps_show_exact_pixels(iobox, link):
    b = iobox(options={"LINK": f'"{link}"'})
    made = Counter()
    for n in range(40):                             # every seat, every button, some held together
        seat, bits = 1 + n % 8, (n * 37) % 63 + 1
        b.pico.hold(seat, bits)
        b.pico.hold(seat, 0)
        made.update((seat, c) for i, c in enumerate(("hole1", "hole2", "hole3", "hole4", "hole5", "ok"))
                    if bits >> i & 1)
    b.delivered(made)
    b.hw.seats[2].set_lamps((Lamp.ON, Lamp.DIM, Lamp.OFF, Lamp.BLINK, Lamp.FAST))    # seat 3: blue
    blue = (0, 0, 255)
    on = bytes(level(c, 255) for c in blue)
    want = on + bytes(level(c, DIM_LEVEL) for c in blue) + bytes(3)

    def seat3() -> bytes:
        return b.pico.pixels.get(PIXEL_PIN, bytes(120))[30:45]

    assert b.pico.wait(lambda: seat3()[:9] == want), seat3().hex()
    assert want == bytes((0, 0, 64, 0, 0, 8, 0, 0, 0))
    assert b.pico.wait(lambda: seat3()[9:12] == on) and b.pico.wait(lambda: seat3()[9:12] == bytes(3))  # blinks
    assert not any(b.pico.pixels[PIXEL_PIN][:30] + b.pico.pixels[PIXEL_PIN][45:])      # no other seat lit


def test_plain_lamps_on_pwm_pins(iobox):
    b = iobox(profile=parse(PLAIN, "plain.toml"), options={"LAMPS": '"plain"', "SEATS": "2"})
    b.hw.seats[1].set_lamps((Lamp.OFF, Lamp.ON, Lamp.DIM, Lamp.OFF, Lamp.OFF))          # seat 2: green
    assert b.pico.wait(lambda: b.pico.pwm.get(22) == 255 * 257 and b.pico.pwm.get(26) == 31 * 257), b.pico.pwm
    assert all(b.pico.pwm.get(gp, 0) == 0 for gp in (16, 17, 18, 19, 20, 21, 27, 28))
    b.pico.tap(2, "ok")
    b.delivered(Counter({(2, "ok"): 1}))


def test_a_board_built_for_other_lamps_is_refused_naming_the_firmware_to_flash(iobox):
    b = iobox(options={"LAMPS": '"plain"', "SEATS": "2"}, connect=False)
    b.connect(link=False)
    assert wait_for(lambda: b.hw.fault and "lamps" in b.hw.fault), b.faults
    assert b.hw.fault == 'IO board is built for plain lamps: flash main.py with LAMPS = "ws2812"'
    assert not b.hw.link.linked.is_set()


def test_a_board_of_another_protocol_version_is_refused(iobox):
    b = iobox(version=p.VERSION + 7, connect=False)
    b.connect(link=False)
    assert wait_for(lambda: b.hw.fault and "protocol" in b.hw.fault), b.faults
    assert b.hw.fault == f"IO board speaks protocol v{p.VERSION + 7}, molebox v{p.VERSION}: flash this molebox's firmware/"


@pytest.mark.parametrize("cause, fault", [("power", iolink.RESTARTED), ("watchdog", iolink.WATCHDOG)])
def test_a_board_restart_is_told_apart_and_costs_no_press(iobox, cause, fault):
    b = iobox()
    b.hw.seats[0].set_lamps((Lamp.ON,) * 5)
    red = bytes((level(255, 255), 0, 0)) * 5
    assert b.pico.wait(lambda: b.pico.pixels.get(PIXEL_PIN, b"")[:15] == red)
    b.pico.tap(1, "hole1")
    linked = len(b.faults)
    b.pico.restart(cause)
    assert wait_for(lambda: b.faults[linked:linked + 2] == [fault, None]), b.faults
    assert b.pico.wait(lambda: b.pico.pixels.get(PIXEL_PIN, b"")[:15] == red)     # the lamps sent again
    b.pico.tap(1, "hole1")
    b.delivered(Counter({(1, "hole1"): 2}))


def test_a_board_that_hangs_until_its_watchdog_resets_it(iobox):
    """The host calls it silent after 1 s; the BOOT after the reset says why it was."""
    b = iobox()
    linked = len(b.faults)
    b.pico.process.send_signal(signal.SIGSTOP)      # hung
    assert wait_for(lambda: b.faults[linked:] == [iolink.SILENT]), b.faults
    b.pico.restart("watchdog")
    assert wait_for(lambda: b.faults[linked:linked + 3] == [iolink.SILENT, iolink.WATCHDOG, None]), b.faults
    b.pico.tap(7, "hole5")
    b.delivered(Counter({(7, "hole5"): 1}))


def test_a_board_that_gave_up_on_a_quiet_host_says_so_and_relinks(iobox):
    b = iobox()
    linked = len(b.faults)
    b.pico.jump(1500, with_host=False)              # the board hears nothing for 1.5 s
    assert wait_for(lambda: b.faults[linked:linked + 2] == [iolink.GAVE_UP, None]), b.faults
    b.pico.tap(4, "ok")
    b.delivered(Counter({(4, "ok"): 1}))


def test_a_press_while_the_line_from_the_host_is_cut_is_delivered_when_it_mends(iobox):
    b = iobox(options={"LINK": '"uart"'})
    linked = len(b.faults)
    b.pico.rx(False)                                # the Pi's TX wire comes loose
    assert wait_for(lambda: b.faults[linked:] == [iolink.GAVE_UP]), b.faults
    b.pico.tap(6, "hole3")                          # counted by the board, unlinked
    time.sleep(0.5)
    assert b.presses() == Counter()
    b.pico.rx(True)                                 # well within Timing.catch_up
    assert wait_for(lambda: b.faults[-1] is None), b.faults
    b.delivered(Counter({(6, "hole3"): 1}))


def test_the_host_away_and_back(iobox):
    b = iobox()
    b.hw.seats[1].set_lamps((Lamp.ON,) * 5)         # seat 2: green
    b.pico.tap(2, "hole2")
    b.delivered(Counter({(2, "hole2"): 1}))
    b.leave()
    dim_green = bytes((0, level(255, IDLE_LEVEL), 0))

    def idle() -> list[bytes]:                      # seat 2's lamps: one walks along at the idle level
        return [b.pico.pixels.get(PIXEL_PIN, bytes(120))[15 + 3 * h:18 + 3 * h] for h in range(5)]

    assert b.pico.wait(lambda: sorted(idle()) == [bytes(3)] * 4 + [dim_green]), idle()
    b.pico.tap(2, "hole2")                          # nobody there: not delivered later either
    b.come_back()
    b.hw.seats[1].set_lamps((Lamp.ON,) * 5)         # as the session does when it starts
    assert b.pico.wait(lambda: idle() == [bytes((0, level(255, 255), 0))] * 5)
    b.pico.tap(2, "ok")
    b.delivered(Counter({(2, "hole2"): 1, (2, "ok"): 1}))


def test_presses_across_the_tick_wrap(iobox):
    b = iobox(ticks=(1 << 30) - 1500)                 # 1.5 s before the rp2's ticks_ms wraps
    made = Counter()
    for n in range(12):
        b.pico.tap(1 + n % 8, "hole1")
        made[(1 + n % 8, "hole1")] += 1
        time.sleep(0.25)
    b.delivered(made)
    assert b.losses() <= 1, b.faults                # no flapping across the wrap


def test_the_matrix_settles_between_rows(iobox):
    """Six 4.7 kOhm pull-ups: a column recovers in 8 us, inside SETTLE_US. Without them, 130 us: a phantom."""
    b = iobox(recover_us=8)
    b.pico.press(1, "hole1")
    b.delivered(Counter({(1, "hole1"): 1}))
    weak = iobox(recover_us=130)
    weak.pico.press(1, "hole1")
    assert wait_for(lambda: weak.presses()[(2, "hole1")] == 1)      # the next seat's phantom press
    slow = iobox(recover_us=130, options={"SETTLE_US": "300"})
    slow.pico.press(1, "hole1")
    slow.delivered(Counter({(1, "hole1"): 1}))


def test_seat_1_ok_held_at_power_up_keeps_the_repl(tmp_path):
    pico = Pico(tmp_path, held=bytes((0x20, 0, 0, 0, 0, 0, 0, 0)))
    try:
        assert pico.process.wait(TIMEOUT) == 0, pico.errors()
        os.set_blocking(pico._slave, False)
        assert b"seat 1 OK held, staying at the REPL" in os.read(pico._slave, 4096)
    finally:
        pico.close()


def test_a_board_restarted_while_the_host_sends_hellos_carrying_ctrl_c_still_links(tmp_path):
    """Every HELLO here carries a 0x03 (about 1.9% of an older host's did), back to back, as the board restarts
    ten times: each time it comes up and answers with Ctrl-C off; none stops at the REPL, deaf to the host. (A
    Ctrl-C in the microseconds before main.py's first line switches it off waits, on the rp2, for the jump in
    main.py's ``try`` just after it: rig.run holds the unix port to that.)"""
    pico = Pico(tmp_path)
    hello = p.frame(p.HELLO, 0, p.hello(0x0303))
    welcomes: list[int] = []                        # each WELCOME's boot id
    stop = threading.Event()

    def host() -> None:
        decoder = p.Decoder()
        os.set_blocking(pico._slave, False)
        while not stop.is_set():
            try:
                os.write(pico._slave, hello)
                pico.ctrl_c()
                frames = decoder.feed(os.read(pico._slave, 4096))
            except BlockingIOError:         # nothing to read, or the line full while the board is down
                continue
            with pico._changed:
                welcomes.extend(p.parse_welcome(body)[4] for kind, _, body in frames if kind == p.WELCOME)
                pico._changed.notify_all()

    sender = threading.Thread(target=host, daemon=True)
    sender.start()
    try:
        for _ in range(10):
            before = welcomes[-1] if welcomes else None
            pico.restart()
            assert pico.wait(lambda: welcomes and welcomes[-1] != before or not pico.alive()), "no answer"
            assert pico.alive(), (pico.process.returncode, pico.errors())
            assert not pico.ctrl_c(), "the running board would take a 0x03 for Ctrl-C"
    finally:
        stop.set()
        sender.join()
        pico.close()


def test_a_board_of_another_firmware_build_is_shown_by_doctor_selftest_seat_1_and_the_dashboard(iobox):
    """It links and plays, and every place the host looks says which build it runs and how to update it."""
    other = p.BUILD ^ 0x10
    b = iobox(build=other, connect=False)
    found = doctor._firmware(b.profile, doctor.System(), b.pico.path)            # doctor greets it while nothing holds the port
    assert not found.ok and f"firmware build {other:06x}" in found.detail and found.fix == iolink.UPDATE
    assert "molebox firmware ~/pico" in iolink.UPDATE and "mpremote connect" in iolink.UPDATE
    b.hw = IOBoardHardware(b.profile, time.monotonic, display, find_port=lambda: b.pico.path)
    session = Session(b.hw, time.monotonic)                     # the service's lobby
    try:
        assert wait_for(lambda: b.hw.link.linked.is_set())
        held = doctor._firmware(b.profile, doctor.System(), b.pico.path)         # the service holds the port now
        assert held.ok and "running service holds its port" in held.detail
        assert wait_for(lambda: (session.pump(), session.state.unread())[1])
        text, words = iolink.other_build(other)
        assert [a["text"] for a in session.public()["notes"]] == [text]    # the dashboard's notes
        session.screens.worker.flush()
        assert b.hw.displays()["seat1"].image.tobytes() == fault_screen.note(words, 1, "OK: got it").tobytes()
        b.pico.restart()                                        # a relink: the note is not given again
        assert wait_for(lambda: b.hw.link.linked.is_set() and b.hw.link.build == other)
        session.pump()
        assert len(session.state.notes) == 1
    finally:
        session.close()
    b.hw = IOBoardHardware(b.profile, time.monotonic, display, find_port=lambda: b.pico.path)
    try:
        results = SelfTest(b.hw, wait_s=3, lamp_s=0, prompt=b.pico.tap).run()
    finally:
        b.hw.close()
    assert [r for r in results if not r.ok] == [Result("IO board", False, text)]      # the rest all answered


def test_no_hello_from_the_host_carries_a_ctrl_c():
    """A board that is just starting takes a 0x03 for Ctrl-C: the host's nonces skip the HELLOs that have one."""
    hellos = [p.frame(p.HELLO, 0, p.hello(iolink.next_nonce(n))) for n in range(1 << 16)]
    assert not any(iolink.CTRL_C in frame for frame in hellos)
    assert len({iolink.next_nonce(n) for n in range(1 << 16)}) > 60000          # nearly every nonce still used
    plain = sum(iolink.CTRL_C in p.frame(p.HELLO, 0, p.hello(n)) for n in range(1 << 16))
    assert 0.018 < plain / (1 << 16) < 0.02                                     # without: about 1.9% of them
