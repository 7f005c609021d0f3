"""The raw references: each library alone, doing what molebox does with it, timed in the same run.

gpiozero's own ``Button.when_pressed -> LED.on`` chain; the pins and display a
bare gpiozero and luma program holds (the raw probe's process); aiohttp alone
answering the phone seat's requests; sqlite3 alone committing and reading rows.
(The OLED figures' reference is luma's own driver, every frame whole:
``luma_device(full_frames=True)``, which the tests compare the box's drivers with too.)

Each reference imports its library inside itself, so that a process running
one (the raw probe, the raw phone server) loads that library alone.
"""
from __future__ import annotations

import json
import time

from .common import Watch


def press_to_lamp(samples: int) -> list[float]:
    """gpiozero alone: Button.when_pressed -> LED.on on mock pins (molebox's, for their change time)."""
    from gpiozero import LED, Button
    from gpiozero.pins.mock import MockFactory

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


def probe_devices() -> list:
    """What a bare gpiozero and luma program holds: a button, a PWM lamp, a display."""
    from gpiozero import LED, Button
    from gpiozero.pins.mock import MockFactory, MockPWMPin
    from luma.core.device import dummy

    factory = MockFactory(pin_class=MockPWMPin)
    return [Button(4, pin_factory=factory), LED(6, pin_factory=factory), dummy(mode="1")]


def phone_app():
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


def serve_phones() -> None:
    """Child process: :func:`phone_app` served on loopback by bare aiohttp, its seats' codes their numbers."""
    import socket

    from aiohttp import web

    from .phone_client import PHONES
    from .serving import serve_until_stdin_closes

    async def starting():
        runner, sock = web.AppRunner(phone_app()), socket.create_server(("127.0.0.1", 0))
        await runner.setup()
        await web.SockSite(runner, sock).start()
        return runner, sock.getsockname()[1]

    serve_until_stdin_closes(starting(), [str(seat) for seat in range(1, PHONES + 1)])


def sqlite_commits(path: str, count: int) -> list[float]:
    """sqlite3 alone: ``count`` inserts of a journal row's size, each committed (WAL, synchronous FULL)."""
    import sqlite3

    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b BLOB)")
    out = []
    for _ in range(count):
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t (b) VALUES (?)", (b"x" * 268,))
        db.execute("COMMIT")
        out.append(time.perf_counter() - start)
    db.close()
    return out


def sqlite_read(path: str) -> float:
    """sqlite3 alone: seconds to read every row of the journal at ``path``."""
    import sqlite3

    start = time.perf_counter()
    sqlite3.connect(path).execute("SELECT * FROM journal").fetchall()
    return time.perf_counter() - start
