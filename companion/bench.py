"""``make bench``: speed and memory figures, each next to the raw library measured in the same run.

Figures: press-to-lamp latency through the whole companion (mock pin edge ->
session loop -> lamp pin change, with every display rendering on change),
alone and with the web panel's pages open and streaming, beside gpiozero's
own ``Button.when_pressed -> LED.on`` chain; phone seats: a press over HTTP from a client process to
the lamps on that seat's stream, beside bare aiohttp answering the same requests, and panel presses
with phones and dashboards connected; time from
process start to ready; CPU used while idle; peak RSS. Run with ``--help``
for the knobs; the figures in docs/benchmarks.md come from ``make bench``.
"""
from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import platform
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager, nullcontext

from gpiozero import LED, Button
from gpiozero.pins.mock import MockFactory, MockPWMPin

BENCH_DIR = "/var/tmp"      # a disk, as the journal's card is: /tmp may be a RAM disk whose fsync costs nothing

# molebox itself is imported inside the functions that use it, so that the raw-library probe
# process loads gpiozero and luma only, and its start-up and RSS are the library's alone.


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Watch:
    """Wakes the bench when any watched pin changes; the change time is read from the pin itself."""

    def __init__(self, pins):
        self.event = threading.Event()
        for pin in pins:
            pin.on_change = lambda _pin: self.event.set()

    def wait_change(self, pins, since: float, timeout: float = 1.0) -> float | None:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            changed = [p.changed_at for p in pins if p.changed_at >= since]
            if changed:
                return min(changed) - since
            self.event.wait(0.01)
            self.event.clear()
        return None


STREAMS = ("/api/sim/events", "/api/dashboard/events")


@contextmanager
def pages_streaming(session, hw):
    """The web panel served beside the session, its simulator and dashboard streams read by another process.

    The server runs as ``molebox run`` runs it: an aiohttp loop on its own thread
    of the companion's process. The reader stands in for the browser, so its own
    work (reading, parsing) stays off the companion's CPU as a browser's does.
    Yields a dict that holds, once the server has stopped, the events and bytes the reader got.
    """
    import asyncio

    from companion.service import listen
    from companion.web.auth import Guard
    from companion.web.server import PANEL, make_app, start

    app = make_app(session, hw, Guard(lan=False))
    loop = asyncio.new_event_loop()
    server = threading.Thread(target=loop.run_forever, daemon=True)
    server.start()
    runner, port = asyncio.run_coroutine_threadsafe(start(app, listen("127.0.0.1", 0)), loop).result(10)
    reader = subprocess.Popen([sys.executable, "-m", "companion.bench", "--read-streams", str(port), *STREAMS],
                              stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 10
    while len(app[PANEL].hub.streams) < len(STREAMS):
        if time.monotonic() > deadline or reader.poll() is not None:
            raise RuntimeError("the stream reader did not connect")
        time.sleep(0.01)
    figures: dict[str, float] = {}
    try:
        yield figures
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)      # ends the streams
        loop.call_soon_threadsafe(loop.stop)
        server.join(5)
        loop.close()
        out, _ = reader.communicate(timeout=10)
        figures.update((word, float(value)) for word, value in (line.split() for line in out.splitlines()))


def read_streams(port: int, paths: list[str]) -> None:
    """Child process: read every event stream of ``paths`` to its end, as open pages do; report what came.
    It stands in for browsers on other devices, so it yields the CPU to the box it measures."""
    import urllib.request

    os.nice(19)
    got = {"events": 0, "bytes": 0}

    def read(path: str) -> None:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as stream:
            for line in stream:
                got["bytes"] += len(line)
                got["events"] += line.startswith(b"event: ")

    readers = [threading.Thread(target=read, args=(path,)) for path in paths]
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join()
    print(f"EVENTS {got['events']}\nBYTES {got['bytes']}", flush=True)


def companion_latency(samples: int, seed: int = 1, streaming: bool = False) -> tuple[list[float], dict]:
    """Hole presses on an 8-seat Whakka Mole game, all nine displays rendering on change.

    Presses come every 4-12 ms, round the table, so no one button is pressed
    again inside its 20 ms debounce window (a finger cannot, and the debouncer
    would rightly hold such a press back). ``streaming``: with the web panel's
    pages open (see :func:`pages_streaming`); returns the latencies and what the pages got.
    """
    from companion.lamps import Lamp
    from companion.hardware.sim import open_sim
    from companion.painter import RenderProcess
    from companion.session import Session
    from wiring.profile import load

    steady_lamps = {Lamp.OFF, Lamp.ON, Lamp.DIM}
    rng = random.Random(seed)
    hw = open_sim(load("sim-8"), time.monotonic)
    session = Session(hw, time.monotonic, game="whakka-mole", seats=8, seed=seed, paint=RenderProcess())
    stop = threading.Event()
    loop = threading.Thread(target=session.run, args=(stop,), daemon=True)
    loop.start()
    watch = Watch([p for s in range(1, 9) for p in hw.lamp_pins(s)])
    out: list[float] = []
    pages = pages_streaming(session, hw) if streaming else nullcontext({})

    def tap(seat: int, control: str, measure: bool) -> None:
        steady = all(lamp in steady_lamps for lamp in hw.seats[seat - 1].lamps)
        since = time.perf_counter()
        hw.drive(seat, control, True)
        if measure and steady:
            latency = watch.wait_change(hw.lamp_pins(seat), since)
            if latency is not None:
                out.append(latency)
        time.sleep(0.002)
        hw.drive(seat, control, False)
        time.sleep(rng.uniform(0.002, 0.01))

    try:
        with pages as streamed:
            while len(out) < samples:
                if session.match.over:
                    session.call(session.table.new_game)
                    time.sleep(0.05)
                turn = {seat: [f"hole{h}" for h in rng.sample(range(1, 6), rng.randint(0, 2))]
                        + ["ok", f"hole{rng.randint(1, 5)}", "ok"] for seat in range(1, 9)}
                for step in range(max(map(len, turn.values()))):   # seats take turns, as fingers would
                    for seat, controls in turn.items():
                        if step < len(controls):
                            tap(seat, controls[step], controls[step] != "ok")
    finally:
        stop.set()
        loop.join(2)
        session.close()
    return out[:samples], streamed


# ---- phone seats: a press over HTTP to the lamps on the seat's own stream -----------------------

PHONES = 8
DASHBOARDS = 20
SETTLED_S = 0.17        # a seat's last press this long ago: its ack flash (0.12 s) is over, a new one will show


class PhoneClient:
    """Phones in one client process: each joins its seat by code, keeps the seat's stream open (a
    thread each) and presses over a keep-alive connection of its own, as the seat page does."""

    def __init__(self, port: int, codes: list[str]):
        self.port = port
        self.lamps: dict[int, list[float]] = {}           # seat -> when each of its lamps events came
        self.pressed: dict[int, float] = {}               # seat -> when it was last pressed
        self.changed = threading.Condition()
        self.seats: dict[int, tuple[object, dict, str]] = {}     # seat -> (connection, cookie, stream id)
        page = self._connection()
        page.request("GET", "/join")
        self.token = re.search(r"&quot;token&quot;: &quot;([^&]+)&quot;", page.getresponse().read().decode())[1]
        for code in codes:
            conn = self._connection()
            answer, cookie = self._post(conn, "/api/join", {"code": code}, {})
            seat, headers = answer["seat"], {"Cookie": cookie.split(";", 1)[0]} if cookie else {}
            self.lamps[seat] = []
            hello: list[str] = []
            threading.Thread(target=self._read, args=(seat, headers, hello), daemon=True).start()
            with self.changed:
                self.changed.wait_for(lambda: hello, timeout=5)
            self.seats[seat] = (conn, headers, hello[0])

    def _connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)

    def _post(self, conn, path: str, body: dict, headers: dict) -> tuple[dict, str | None]:
        conn.request("POST", path, json.dumps(body), {"Origin": f"http://127.0.0.1:{self.port}",
                                                      "X-Molebox-Token": self.token,
                                                      "Content-Type": "application/json", **headers})
        response = conn.getresponse()
        return json.loads(response.read()), response.getheader("Set-Cookie")

    def _read(self, seat: int, headers: dict, hello: list[str]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port)
        conn.request("GET", f"/api/seat/{seat}/events", headers=headers)
        kind = None
        try:
            for line in conn.getresponse():
                if line.startswith(b"event: "):
                    kind = line[7:].strip()
                elif line.startswith(b"data: ") and kind in (b"hello", b"lamps"):
                    with self.changed:
                        if kind == b"hello":
                            hello.append(json.loads(line[6:])["stream"])
                        else:
                            self.lamps[seat].append(time.perf_counter())
                        self.changed.notify_all()
        except (OSError, http.client.HTTPException):      # the box has stopped
            pass

    def steady(self, seat: int) -> bool:
        return time.perf_counter() - self.pressed.get(seat, 0.0) > SETTLED_S

    def press(self, seat: int, control: str, pressed: bool, measure: bool) -> float | None:
        """One edge; with ``measure``, the time until the seat's stream brings its lamps (None: they never came)."""
        conn, headers, stream = self.seats[seat]
        seen = len(self.lamps[seat])
        since = time.perf_counter()
        if pressed:
            self.pressed[seat] = since
        self._post(conn, f"/api/seat/{seat}/press", {"control": control, "pressed": pressed, "stream": stream},
                   headers)
        if not measure:
            return None
        with self.changed:
            self.changed.wait_for(lambda: len(self.lamps[seat]) > seen, timeout=1.0)
        return self.lamps[seat][seen] - since if len(self.lamps[seat]) > seen else None


def press_phones(port: int, codes: list[str], samples: int, seed: int = 3) -> list[float]:
    """Play the phones' seats round the table: ``samples`` timed hole presses as fast as they answer, or
    (0) at a table's pace, a press every 50-150 ms, until stdin closes."""
    client, rng, out = PhoneClient(port, codes), random.Random(seed), []
    done = threading.Event()
    if not samples:
        threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    while not done.is_set() and (not samples or len(out) < samples):
        turn = {seat: [f"hole{h}" for h in rng.sample(range(1, 6), rng.randint(0, 2))]
                + ["ok", f"hole{rng.randint(1, 5)}", "ok"] for seat in client.seats}
        for step in range(max(map(len, turn.values()))):
            for seat, controls in turn.items():
                if step >= len(controls):
                    continue
                measure = controls[step] != "ok" and client.steady(seat)
                latency = client.press(seat, controls[step], True, measure)
                if latency is not None:
                    out.append(latency)
                client.press(seat, controls[step], False, False)
                time.sleep(rng.uniform(0.01, 0.03) if samples else rng.uniform(0.05, 0.15))
    return out[:samples] if samples else out


def serve_phones(kind: str) -> None:
    """Child process: a box of eight phone seats in an 8-seat Whakka Mole game (or, ``raw``, a bare aiohttp
    app answering each press with a lamps event on the seat's stream), served on loopback. Prints its port
    and the seats' join codes, serves until stdin closes, then prints its peak RSS."""
    import asyncio
    import socket

    from aiohttp import web

    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    if kind == "raw":
        runner, sock = web.AppRunner(raw_phone_app()), socket.create_server(("127.0.0.1", 0))
        asyncio.run_coroutine_threadsafe(runner.setup(), loop).result(10)
        asyncio.run_coroutine_threadsafe(web.SockSite(runner, sock).start(), loop).result(10)
        port, codes, stop = sock.getsockname()[1], [str(seat) for seat in range(1, PHONES + 1)], None
    else:
        from companion.service import listen
        from companion.web.server import start

        app, codes, stop = phone_box()
        runner, port = asyncio.run_coroutine_threadsafe(start(app, listen("127.0.0.1", 0)), loop).result(10)
    print(f"PORT {port}\nCODES {' '.join(codes)}", flush=True)
    sys.stdin.read()
    asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
    rss, pss = stop() if stop else (0.0, 0.0)
    print(f"RSS {peak_rss_mb() + rss:.1f}\nPSS {pss_mb() + pss:.1f}", flush=True)


def phone_box(panels: int = 0, phones: int = PHONES):
    """A box of ``panels`` sim panels and ``phones`` phone seats in an 8-seat Whakka Mole game (no journal, as
    :func:`companion_latency`'s), its session loop running: its web app, the phones' join codes, what stops it."""
    from companion import cli, service
    from companion.painter import RenderProcess
    from companion.web.auth import Guard
    from companion.web.server import PANEL, make_app

    args = cli.parser().parse_args(["run", "--panels", str(panels), "--phones", str(phones),
                                    "--game", "whakka-mole", "--seats", "8"])
    args.wiring = cli.DEFAULT_WIRING["sim"]
    painter = RenderProcess()
    hw, session = service.build(args, service.Plan(args, "sim"), None, paint=painter)
    halt = threading.Event()
    thread = threading.Thread(target=session.run, args=(halt,), daemon=True)
    thread.start()
    app = make_app(session, hw, Guard(lan=False))

    def stop() -> tuple[float, float]:
        """Stop the box; the render process's peak RSS and PSS, since it is the box's too."""
        halt.set()
        session.call(lambda: None)
        thread.join(2)
        memory = peak_rss_mb(painter.process.pid), pss_mb(painter.process.pid)
        session.close()
        return memory
    return app, [code for _, code in app[PANEL].seats.free()], stop


def raw_phone_app():
    """aiohttp alone, with the seat page's routes: a press is answered at once by a lamps event on that
    seat's stream. No session, no rules, no displays: the HTTP and event-stream path by itself."""
    import asyncio

    from aiohttp import web

    queues: dict[int, asyncio.Queue] = {}

    async def join(request):
        return web.json_response({"seat": int((await request.json())["code"])})

    async def events(request):
        seat = int(request.match_info["seat"])
        queue = queues[seat] = asyncio.Queue()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await response.prepare(request)
        await response.write(f"event: hello\ndata: {json.dumps({'stream': str(seat)})}\n\n".encode())
        while (message := await queue.get()) is not None:
            await response.write(message)
        return response

    async def press(request):
        body = await request.json()
        if body["pressed"]:
            queues[int(request.match_info["seat"])].put_nowait(b'event: lamps\ndata: ["on"]\n\n')
        return web.json_response({"ok": True})

    async def page(request):
        return web.Response(text='<meta content="{&quot;token&quot;: &quot;raw&quot;}">', content_type="text/html")

    async def end(app):
        for queue in queues.values():
            queue.put_nowait(None)

    app = web.Application()
    app.on_shutdown.append(end)
    app.router.add_post("/api/join", join)
    app.router.add_get("/join", page)
    app.router.add_get("/api/seat/{seat}/events", events)
    app.router.add_post("/api/seat/{seat}/press", press)
    return app


@contextmanager
def dashboards(port: int, count: int = DASHBOARDS):
    """``count`` dashboards streaming from another process while the block runs."""
    reader = subprocess.Popen([sys.executable, "-m", "companion.bench", "--read-streams", str(port),
                               *["/api/dashboard/events"] * count], stdout=subprocess.DEVNULL)
    try:
        yield
    finally:
        reader.kill()
        reader.wait()


def phone_latency(samples: int, kind: str = "molebox") -> tuple[list[float], dict[str, float]]:
    """Phone press to lamps on the seat's stream, from this process, with eight phone seats and (molebox)
    twenty dashboards streaming from another; the box in a process of its own. Returns the latencies
    and the box's memory (``rss``: peak RSS, ``pss``: PSS at the end, render process included)."""
    box = subprocess.Popen([sys.executable, "-m", "companion.bench", "--serve-phones", kind],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    port = int(box.stdout.readline().split()[1])
    codes = box.stdout.readline().split()[1:]
    with dashboards(port, DASHBOARDS if kind == "molebox" else 0):
        time.sleep(0.5)
        out = press_phones(port, codes, samples)
    box.stdin.close()
    memory = {word.lower(): float(value) for word, value in (box.stdout.readline().split() for _ in range(2))}
    box.wait()
    return out, memory


def mixed_panel_latency(samples: int, seed: int = 4) -> list[float]:
    """Panel press-to-lamp at a table of four panels and four phones: the phones pressing from another
    process, twenty dashboards streaming from a third; the panels timed as :func:`companion_latency` does."""
    import asyncio

    from companion.lamps import Lamp
    from companion.service import listen
    from companion.web.server import PANEL, start

    steady_lamps = {Lamp.OFF, Lamp.ON, Lamp.DIM}
    rng, seats = random.Random(seed), itertools.cycle(range(1, 5))
    app, codes, stop = phone_box(panels=4, phones=4)
    hw = app[PANEL].hw
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()
    runner, port = asyncio.run_coroutine_threadsafe(start(app, listen("127.0.0.1", 0)), loop).result(10)
    watch = Watch([p for s in range(1, 5) for p in hw.lamp_pins(s)])
    phones = subprocess.Popen([sys.executable, "-m", "companion.bench", "--press-phones", str(port), *codes],
                              stdin=subprocess.PIPE)
    out: list[float] = []
    try:
        with dashboards(port):
            time.sleep(0.5)
            while len(out) < samples:                       # round the panels: no button again inside 20 ms
                seat, hole = next(seats), f"hole{rng.randint(1, 5)}"
                steady = all(lamp in steady_lamps for lamp in hw.seats[seat - 1].lamps)
                since = time.perf_counter()
                hw.drive(seat, hole, True)
                latency = watch.wait_change(hw.lamp_pins(seat), since)
                if steady and latency is not None:
                    out.append(latency)
                time.sleep(0.002)
                hw.drive(seat, hole, False)
                time.sleep(rng.uniform(0.01, 0.03))
    finally:
        phones.stdin.close()
        phones.wait(10)
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        stop()
    return out


def ioboard_latency(samples: int, baud: int, seed: int = 2) -> tuple[list[float], float]:
    """Hole presses through the serial IO board: the fake board (the firmware's own logic) behind a pty.

    A press is one matrix scan on the board; the latency runs to the first
    change of that seat's pixels, so it holds the REPORT to the host, the
    session's answer and the LAMPS command back. The pty has no baud rate: the
    fake board paces its reads and writes as a wire of ``baud`` would (10 bits
    a byte). Returns the latencies and the wire time of those two frames alone.
    """
    from luma.core.device import dummy

    from companion.hardware.fake.board import FakeBoard
    from companion.hardware.ioboard import IOBoardHardware
    from companion.lamps import Lamp
    from companion.session import Session
    from firmware import protocol
    from wiring.profile import load

    eight = bytes(protocol.MAX_SEATS)
    frames = len(protocol.frame(protocol.REPORT, 0, protocol.state(eight, bytes(6 * protocol.MAX_SEATS))))
    frames += len(protocol.frame(protocol.LAMPS, 0, protocol.lamps(1, (0, 0, 0), (0,) * 5)))
    wire = frames * 10 / baud
    rng = random.Random(seed)
    out: list[float] = []
    with tempfile.TemporaryDirectory() as workdir, FakeBoard(f"{workdir}/ttyIO", baud=baud) as fake:
        hw = IOBoardHardware(load("ioboard-8"), time.monotonic, lambda spec: dummy(width=spec.width, height=spec.height,
                                                                          mode="1"), find_port=lambda: fake.path)
        session = Session(hw, time.monotonic, game="whakka-mole", seats=8, seed=seed)
        stop = threading.Event()
        loop = threading.Thread(target=session.run, args=(stop,), daemon=True)
        loop.start()
        hw.link.linked.wait(2)
        try:
            for press in range(4 * samples):
                if len(out) == samples:
                    break
                seat, hole = press % 8 + 1, f"hole{rng.randint(1, 5)}"
                steady = all(lamp in (Lamp.OFF, Lamp.ON, Lamp.DIM) for lamp in hw.seats[seat - 1].lamps)
                since = time.perf_counter()
                fake.press(seat, hole)
                latency = fake.wait_lamps(seat, since)
                if steady and latency is not None:
                    out.append(latency)
                time.sleep(0.015)                   # past the board's 10 ms debounce
                fake.release(seat, hole)
                time.sleep(rng.uniform(0.005, 0.015) + wire)
        finally:
            stop.set()
            loop.join(2)
            session.close()
    return out, wire


def raw_latency(samples: int) -> list[float]:
    """gpiozero alone: Button.when_pressed -> LED.on on mock pins."""
    from companion.hardware.sim import SimPin

    factory = MockFactory(pin_class=SimPin)
    button = Button(4, bounce_time=None, pin_factory=factory)
    led = LED(6, pin_factory=factory)
    button.when_pressed = led.on
    button.when_released = led.off
    watch = Watch([led.pin])
    out = []
    for _ in range(samples):
        since = time.perf_counter()
        button.pin.drive_low()
        out.append(watch.wait_change([led.pin], since))
        button.pin.drive_high()
        time.sleep(0.001)
    button.close()
    led.close()
    factory.reset()
    return out


def random_game(decisions: int, seed: int = 7):
    """A 4-seat Whakka Mole game of ``decisions`` random legal seat decisions, and its commit points:
    for each decision, the journal rows it adds and whether it ended a turn (no secret pick held after it)."""
    from rules.match import Header, Match

    rng = random.Random(seed)
    match = Match(Header("whakka-mole", 4, {"target": 500, "tokens": 2}))
    commits = []
    while match.seat_records() < decisions:
        d = match.decisions_for(rng.choice(sorted({x.seat for x in match.open_decisions()})))[0]
        start = len(match.records)
        match.submit(d.seat, d.key, rng.sample(d.options, rng.randint(0, min(2, d.max)))
                     if d.kind.value == "holes" else rng.choice(d.options))
        rows = [(i, match.records[i], i in match.secret_records) for i in range(start, len(match.records))]
        commits.append((rows, not match.held))
    return match, commits


def commit_points(samples: int, workdir: str) -> dict[str, list[float]]:
    """Every commit point of a game through the Store, as the session makes them: ``emptied``, the WAL emptied
    into the main file at each turn end (what a lost -wal costs: at most the turn in play); ``kept``, the WAL
    left to SQLite's own checkpoints (before that change); ``raw``, a bare sqlite3 insert+commit (WAL, FULL)."""
    import sqlite3

    from companion.store import Store

    match, commits = random_game(samples)
    out: dict[str, list[float]] = {}
    for mode in ("kept", "emptied"):
        store = Store(f"{workdir}/{mode}.db")
        game = store.begin(match.transcript()["header"])
        times = out[mode] = []
        for rows, turn_end in commits:
            start = time.perf_counter()
            store.append(game, rows)
            if turn_end and mode == "emptied":
                store.checkpoint()
            times.append(time.perf_counter() - start)
        store.close()
    raw_db = sqlite3.connect(f"{workdir}/raw.db", isolation_level=None)
    raw_db.execute("PRAGMA journal_mode=WAL")
    raw_db.execute("PRAGMA synchronous=FULL")
    raw_db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b BLOB)")
    raw = out["raw"] = []
    for _ in commits:
        start = time.perf_counter()
        raw_db.execute("BEGIN IMMEDIATE")
        raw_db.execute("INSERT INTO t (b) VALUES (?)", (b"x" * 268,))
        raw_db.execute("COMMIT")
        raw.append(time.perf_counter() - start)
    raw_db.close()
    return out


def resume_time(workdir: str, decisions: int = 200) -> tuple[float, float]:
    """Open the journal and rebuild a game of ``decisions`` seat decisions, beside reading its rows raw."""
    import sqlite3

    from companion.store import Store
    from rules.match import Match

    match, _ = random_game(decisions)
    path = f"{workdir}/resume.db"
    store = Store(path)
    game = store.begin(match.transcript()["header"])
    store.append(game, [(i, r, i in match.secret_records) for i, r in enumerate(match.records)])
    store.close()
    start = time.perf_counter()
    store = Store(path)
    replayed = Match.replay(store.unfinished().transcript)
    ours = time.perf_counter() - start
    store.close()
    assert replayed.view(None) == match.view(None)
    start = time.perf_counter()
    sqlite3.connect(path).execute("SELECT * FROM journal").fetchall()
    return ours, time.perf_counter() - start


# ---- a separate process for start-up, idle CPU and RSS ---------------------------------------

def probe(kind: str, idle_s: float) -> None:
    """Child process: get ready, say READY, play, idle, report CPU and peak RSS."""
    if kind == "raw":
        from luma.core.device import dummy
        factory = MockFactory(pin_class=MockPWMPin)
        devices = [Button(4, pin_factory=factory), LED(6, pin_factory=factory), dummy(mode="1")]
        print("READY", flush=True)
    else:
        from companion.hardware.sim import open_sim
        from companion.painter import RenderProcess
        from companion.session import Session
        from wiring.profile import load

        hw = open_sim(load("sim-8"), time.monotonic)
        painter = RenderProcess()
        session = Session(hw, time.monotonic, game="whakka-mole", seats=8, paint=painter)
        stop = threading.Event()
        threading.Thread(target=session.run, args=(stop,), daemon=True).start()
        session.displays.flush()
        print("READY", flush=True)
        rng = random.Random(0)
        while not session.match.over:
            seat = rng.randint(1, 8)
            for control in rng.sample(["hole1", "hole2", "hole3", "hole4", "hole5", "ok"], 3):
                hw.drive(seat, control, True)
                time.sleep(0.001)
                hw.drive(seat, control, False)
                time.sleep(0.001)
        session.displays.flush()
        time.sleep(1.5)                  # let the last flashes end
    children = [painter.process.pid] if kind == "ours" else []     # the render process is the box's too
    before = cpu_seconds(children)
    time.sleep(idle_s)
    cpu = cpu_seconds(children) - before
    print(f"IDLE {100 * cpu / idle_s:.3f}", flush=True)
    print(f"RSS {sum(map(peak_rss_mb, ['self', *children])):.1f}", flush=True)
    print(f"PSS {sum(map(pss_mb, ['self', *children])):.1f}", flush=True)


def pss_mb(pid: int | str = "self") -> float:
    """A process's proportional set size now: its private pages, and its share of those it shares (the
    interpreter and libraries the render process maps too)."""
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        return next(int(line.split()[1]) for line in rollup if line.startswith("Pss:")) / 1024


def cpu_seconds(children: list[int]) -> float:
    """CPU time of this process and of ``children`` (their pids)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    total = usage.ru_utime + usage.ru_stime
    for pid in children:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()        # from field 3, the state
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def peak_rss_mb(pid: int | str = "self") -> float:
    """A process's peak RSS. Not ``ru_maxrss``: that survives exec, so a child reports the bench's own."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except OSError:                     # not Linux
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_process(kind: str, idle_s: float) -> dict[str, float]:
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "companion.bench", "--probe", kind, "--idle", str(idle_s)],
                             stdout=subprocess.PIPE, text=True)
    figures = {}
    for line in child.stdout:
        word, *value = line.split()
        if word == "READY":
            figures["ready"] = 1000 * (time.perf_counter() - start)
        else:
            figures[word.lower()] = float(value[0])
    child.wait()
    return figures


def bot_think(games: int) -> dict[tuple[str, int, str], list[float]]:
    """CPU seconds per bot answer, by (game, seats, level): whole games, casual and strong taking the seats
    in turn, at two seats and at the game's largest table (the strong bots weigh every seat's pick).
    CPU time, not wall time: a bot is pure computation, and other work on the machine must not count."""
    from rules import arena, bots, registry

    times: dict[tuple[str, int, str], list[float]] = {}
    for game_id in [game for game, registration in registry.games().items() if registration.bots]:
        for seats in sorted({2, registry.game_class(game_id).max_seats}):
            def timed(level, think, key=(game_id, seats)):
                start = time.thread_time()
                value = think()
                times.setdefault((*key, level), []).append(time.thread_time() - start)
                return value

            for i in range(games):
                arena.play(game_id, arena.lineup(bots.TABLE_LEVELS, seats, i), seed=i, observe=timed)
    return times


def row(name: str, ours: float, raw: float | None, target: str, fmt: str = "{:.3f}") -> str:
    ratio = "-" if not raw else f"{ours / raw:.2f}x" if ours < raw else f"{ours / raw:.1f}x"
    raw_text = fmt.format(raw) if raw is not None else "-"
    return f"| {name} | {fmt.format(ours)} | {raw_text} | {ratio} | {target} |"


def print_bot_rows(games: int) -> None:
    """Think time per decision of every computer player, at two seats and at the game's largest table
    (no raw library to compare with)."""
    for (game_id, seats, level), seconds in sorted(bot_think(games).items()):
        ms = [1000 * x for x in seconds]
        print(row(f"bot think p50, {game_id} {seats} seats {level} (ms)", statistics.median(ms), None, ""))
        print(row(f"bot think p99, {game_id} {seats} seats {level} (ms)", percentile(ms, 0.99), None, "< 100 ms"))


def print_press_rows(ours: list[float], paged: list[float], raw: list[float], more: str) -> None:
    """The table's head and its press-to-lamp rows (ms), each beside the raw chain's."""
    print(f"molebox bench: {platform.machine()}, Python {platform.python_version()}, {len(ours)} presses{more}\n")
    print("| figure | molebox | raw library | ratio | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    print(row("press-to-lamp p50 (ms)", statistics.median(ours), statistics.median(raw), ""))
    print(row("press-to-lamp p99 (ms)", percentile(ours, 0.99), percentile(raw, 0.99), "< 1 ms, < 10x"))
    print(row("press-to-lamp p50, web pages streaming (ms)", statistics.median(paged), statistics.median(raw), ""))
    print(row("press-to-lamp p99, web pages streaming (ms)", percentile(paged, 0.99), percentile(raw, 0.99),
              "< 1 ms, < 10x"))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.bench", description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=2000, help="presses to time")
    p.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure CPU over")
    p.add_argument("--probe", choices=["ours", "raw"], help=argparse.SUPPRESS)
    p.add_argument("--read-streams", nargs="+", metavar="PORT PATH", help=argparse.SUPPRESS)
    p.add_argument("--serve-phones", choices=["molebox", "raw"], help=argparse.SUPPRESS)
    p.add_argument("--press-phones", nargs="+", metavar="PORT CODE", help=argparse.SUPPRESS)
    p.add_argument("--bot-games", type=int, default=10, help="games per game to time the computer players over")
    p.add_argument("--bots-only", action="store_true", help="print only the computer players' think times")
    p.add_argument("--oled-only", action="store_true", help="print only the OLED figures on the timed I2C wire")
    p.add_argument("--press-only", action="store_true",
                   help="print only the press-to-lamp rows beside the raw chain's: the quick check of another machine")
    args = p.parse_args(argv)
    from companion import bench_oled

    if args.bots_only:
        print_bot_rows(args.bot_games)
        return 0
    if args.oled_only:
        bench_oled.print_rows()
        return 0
    if args.probe:
        probe(args.probe, args.idle)
        return 0
    if args.read_streams:
        read_streams(int(args.read_streams[0]), args.read_streams[1:])
        return 0
    if args.serve_phones:
        serve_phones(args.serve_phones)
        return 0
    if args.press_phones:
        port, *codes = args.press_phones
        press_phones(int(port), codes, 0)
        return 0
    ours = [1000 * x for x in companion_latency(args.samples)[0]]
    latencies, streamed = companion_latency(args.samples, streaming=True)
    paged = [1000 * x for x in latencies]
    raw = [1000 * x for x in raw_latency(args.samples)]
    if args.press_only:
        print_press_rows(ours, paged, raw, "")
        return 0
    proc, raw_proc = measure_process("ours", args.idle), measure_process("raw", args.idle)
    print_press_rows(ours, paged, raw, f", idle {args.idle:g} s")
    print(row("ready after start (ms)", proc["ready"], raw_proc["ready"], "< 1000 ms", "{:.0f}"))
    print(row("idle CPU (%)", proc["idle"], raw_proc["idle"], "< 1 %", "{:.2f}"))
    print(row("peak RSS, box and render process (MB)", proc["rss"], raw_proc["rss"], "", "{:.1f}"))
    print(row("PSS after the game, box and render process (MB)", proc["pss"], raw_proc["pss"], "< 60 MB", "{:.1f}"))
    phone, phone_memory = phone_latency(min(args.samples, 1000))
    raw_phone, raw_phone_memory = phone_latency(min(args.samples, 1000), "raw")
    phone, raw_phone = [1000 * x for x in phone], [1000 * x for x in raw_phone]
    mixed = [1000 * x for x in mixed_panel_latency(args.samples)]
    print(row(f"phone press-to-lamp p50, {PHONES} phones, {DASHBOARDS} dashboards (ms)", statistics.median(phone),
              statistics.median(raw_phone), ""))
    print(row(f"phone press-to-lamp p99, {PHONES} phones, {DASHBOARDS} dashboards (ms)", percentile(phone, 0.99),
              percentile(raw_phone, 0.99), "< 20 ms"))
    print(row(f"panel press-to-lamp p50, 4 panels, 4 phones, {DASHBOARDS} dashboards (ms)", statistics.median(mixed),
              statistics.median(raw), ""))
    print(row(f"panel press-to-lamp p99, 4 panels, 4 phones, {DASHBOARDS} dashboards (ms)", percentile(mixed, 0.99),
              percentile(raw, 0.99), "< 1 ms"))
    print(row(f"peak RSS, {PHONES} phones, {DASHBOARDS} dashboards (MB)", phone_memory["rss"],
              raw_phone_memory["rss"], "", "{:.1f}"))
    print(row(f"PSS, {PHONES} phones, {DASHBOARDS} dashboards (MB)", phone_memory["pss"], raw_phone_memory["pss"],
              "< 80 MB", "{:.1f}"))
    with tempfile.TemporaryDirectory(dir=BENCH_DIR) as workdir:
        commits = {mode: [1000 * x for x in xs] for mode, xs in commit_points(min(args.samples, 500), workdir).items()}
        resume, raw_resume = resume_time(workdir)
    for mode, words, target in (("kept", "WAL left to SQLite (before)", ""),
                                ("emptied", "WAL emptied at turn ends", "p99 < 5 ms")):
        print(row(f"commit point p50, {words} (ms)", statistics.median(commits[mode]),
                  statistics.median(commits["raw"]), ""))
        print(row(f"commit point p99, {words} (ms)", percentile(commits[mode], 0.99),
                  percentile(commits["raw"], 0.99), target))
    print(row("resume 200 decisions (ms)", 1000 * resume, 1000 * raw_resume, "", "{:.1f}"))
    for link, baud in (("115200 baud", 115_200), ("12 Mbit/s", 12_000_000)):   # raw: the frames' wire time
        latencies, wire = ioboard_latency(min(args.samples, 300), baud)
        ms = [1000 * x for x in latencies]
        print(row(f"ioboard press-to-lamp p50, {link} (ms)", statistics.median(ms), 1000 * wire, ""))
        print(row(f"ioboard press-to-lamp p99, {link} (ms)", percentile(ms, 0.99), 1000 * wire, ""))
    print_bot_rows(args.bot_games)
    bench_oled.print_rows()
    print(f"\nWeb pages streaming: the simulator's and the dashboard's event streams, read over HTTP by another "
          f"process, got {streamed['EVENTS']:.0f} events ({streamed['BYTES'] / 1e6:.1f} MB) during the rows' presses.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
