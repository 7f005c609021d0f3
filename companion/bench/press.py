"""Press-to-lamp: a panel's press through the whole companion to its lamp pin, alone and with the web pages
streaming, and a press through the serial IO board to its pixels."""
from __future__ import annotations

import random
import subprocess
import tempfile
import time
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass

from luma.core.device import dummy

from companion.hardware import priority
from companion.hardware.fake.board import FakeBoard
from companion.hardware.ioboard import IOBoardHardware
from companion.hardware.sim import open_sim
from companion.journal import Journal
from companion.table import Start
from companion.service import listen
from companion.port import WebPort
from companion.session import Session
from companion.web.auth import Guard
from companion.web.host_pin import new_pin
from companion.web.app import SITE, make_app, start
from firmware import protocol
from wiring.profile import load

from .common import BENCH_DIR, Watch, running, steady, warm_painter
from .disk import Card, DiskWatch
from .kiosk import KIOSK_S, kiosk
from .serving import served
from .storage import finished_games
from .streams import history_read, stream_reader
from .usage import machine_busy

STREAMS = ("/api/sim/events", "/api/dashboard/events")
TV = ("/api/tv/events",)
DRAIN_S = 300       # the reader still takes what the streams sent it once the server stops: on the one-core
                    # emulated machine it had not finished 10 s after


@contextmanager
def pages_streaming(session, paths: tuple[str, ...] = STREAMS, tv: bool = False):
    """The web panel served beside the session, the event streams of ``paths`` read by another process, and
    (``tv``) the table view open in headless chromium, as a TV's kiosk shows it.

    The server runs as ``molebox run`` runs it: an aiohttp loop on its own thread
    of the companion's process. The reader stands in for the browser, so its own
    work (reading, parsing) stays off the companion's CPU as a browser's does; the
    kiosk is a browser, on the same machine as on a Pi with a TV.
    Yields a dict that holds, once the server has stopped, the events and bytes the reader got.
    """
    app = make_app(WebPort(session), Guard(lan=False))
    figures: dict[str, float] = {}
    with served(start(app, listen("127.0.0.1", 0))) as port, \
            kiosk(f"http://127.0.0.1:{port}/tv") if tv else nullcontext():
        reader = stream_reader(port, paths, stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + KIOSK_S
        while len(app[SITE].hub.streams) < len(paths) + tv:
            if time.monotonic() > deadline or reader.poll() is not None:
                raise RuntimeError("the stream reader or the kiosk did not connect")
            time.sleep(0.01)
        yield figures
    out, _ = reader.communicate(timeout=DRAIN_S)
    figures.update((word, float(value)) for word, value in (line.split() for line in out.splitlines()))


@contextmanager
def history_flood(session):
    """The web panel served beside the session, and guests' pages reading its history in a loop from another
    process (:func:`~.streams.history_read`); yields what they read, once they have stopped."""
    app = make_app(WebPort(session), Guard(lan=True, pin=new_pin()))     # on a LAN: the guests are other devices
    with served(start(app, listen("127.0.0.1", 0))) as port, history_read(port) as figures:
        yield figures


@contextmanager
def pin_factory_thread():
    """The calling thread at the priority a gpio box gives its pin factory's callback thread
    (:mod:`companion.hardware.priority`; the simulator's panels leave the thread that drives them as it is),
    and back to an ordinary one after."""
    priority.press_thread()
    try:
        yield
    finally:
        priority.ordinary()


@dataclass
class Presses:
    """What a run of presses measured: each hole's press to its lamps, what the pages got, the journal's commit
    points meanwhile and the disk's own (raw sqlite3 commits beside them), and how busy the machine was (%)."""

    lamps: list[float]
    streamed: dict
    commits: list[float]
    disk: list[float]
    busy: float


def companion_latency(samples: int, seed: int = 1, streaming: bool = False, card: Card | None = None,
                      tv: bool = False, history: bool = False) -> Presses:
    """Hole presses on an 8-seat Whakka Mole game, all nine displays rendering on change, every OK journaled
    (on ``card``; None: a directory of the bench's disk).

    Presses come every 4-12 ms, round the table, so no one button is pressed
    again inside its 20 ms debounce window (a finger cannot, and the debouncer
    would rightly hold such a press back). The presses come on this thread, as
    a gpio box's come on its pin factory's, and at the same priority
    (:func:`pin_factory_thread`). ``streaming``: with the web panel's
    pages open; ``tv``: with the TV view's stream read and its page open in chromium
    (see :func:`pages_streaming`); ``history``: with guests reading the history of
    :data:`~.storage.HISTORY_GAMES` finished games in a loop (:func:`history_flood`).
    """
    rng = random.Random(seed)
    workdir = tempfile.TemporaryDirectory(dir=card.directory if card else BENCH_DIR)
    if history:
        finished_games(f"{workdir.name}/molebox.db")
    hw = open_sim(load("sim-8"), time.monotonic)
    journal = Journal(f"{workdir.name}/molebox.db")
    journal.stall = card.stall if card else None
    session = Session(hw, time.monotonic, start=Start("whakka-mole", 8), seed=seed, journal=journal,
                      paint=warm_painter())
    watch = Watch([p for s in range(1, 9) for p in hw.lamp_pins(s)])
    out: list[float] = []
    pages = pages_streaming(session) if streaming else pages_streaming(session, TV, tv=True) if tv else \
        history_flood(session) if history else nullcontext({})

    def tap(seat: int, control: str, measure: bool) -> None:
        was_steady = steady(hw, seat)
        since = time.perf_counter()
        hw.drive(seat, control, True)
        if measure and was_steady:
            latency = watch.wait_change(hw.lamp_pins(seat), since)
            if latency is not None:
                out.append(latency)
        time.sleep(0.002)
        hw.drive(seat, control, False)
        time.sleep(rng.uniform(0.002, 0.01))

    with workdir, running(session), pages as streamed, DiskWatch(workdir.name) as disk, machine_busy() as cpu, \
            pin_factory_thread():
        while len(out) < samples:
            if session.state.match.over:
                session.call(lambda: session.host("new-game"))
                time.sleep(0.05)
            turn = {seat: [f"hole{h}" for h in rng.sample(range(1, 6), rng.randint(0, 2))]
                    + ["ok", f"hole{rng.randint(1, 5)}", "ok"] for seat in range(1, 9)}
            for step in range(max(map(len, turn.values()))):   # seats take turns, as fingers would
                for seat, controls in turn.items():
                    if step < len(controls):
                        tap(seat, controls[step], controls[step] != "ok")
        commits = list(journal.commit_s)
    return Presses(out[:samples], streamed, commits, disk.raw, cpu["busy"])


def ioboard_latency(samples: int, baud: int, seed: int = 2) -> tuple[list[float], float]:
    """Hole presses through the serial IO board: the fake board (the firmware's own logic) behind a pty.

    A press is one matrix scan on the board; the latency runs to the first
    change of that seat's pixels, so it holds the REPORT to the host, the
    session's answer and the LAMPS command back. The pty has no baud rate: the
    fake board paces its reads and writes as a wire of ``baud`` would (10 bits
    a byte). Returns the latencies and the wire time of those two frames alone.
    """
    eight = bytes(protocol.MAX_SEATS)
    frames = len(protocol.frame(protocol.REPORT, 0, protocol.state(eight, bytes(6 * protocol.MAX_SEATS))))
    frames += len(protocol.frame(protocol.LAMPS, 0, protocol.lamps(1, (0, 0, 0), (0,) * 5)))
    wire = frames * 10 / baud
    rng = random.Random(seed)
    out: list[float] = []
    with tempfile.TemporaryDirectory() as workdir, FakeBoard(f"{workdir}/ttyIO", baud=baud) as fake:
        hw = IOBoardHardware(load("ioboard-8"), time.monotonic, lambda spec: dummy(width=spec.width, height=spec.height,
                                                                          mode="1"), find_port=lambda: fake.path)
        session = Session(hw, time.monotonic, start=Start("whakka-mole", 8), seed=seed)
        with running(session):
            hw.link.linked.wait(2)
            for press in range(4 * samples):
                if len(out) == samples:
                    break
                seat, hole = press % 8 + 1, f"hole{rng.randint(1, 5)}"
                was_steady = steady(hw, seat)
                since = time.perf_counter()
                fake.press(seat, hole)
                latency = fake.wait_lamps(seat, since)
                if was_steady and latency is not None:
                    out.append(latency)
                time.sleep(0.015)                   # past the board's 10 ms debounce
                fake.release(seat, hole)
                time.sleep(rng.uniform(0.005, 0.015) + wire)
    return out, wire
