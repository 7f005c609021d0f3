"""A live box for the web tests: the session loop and the web panel on their own threads, on 127.0.0.1.

The box is built by the CLI's own builder from ``molebox run`` arguments, on the
sim backend and the real clock, and served on a free port of 127.0.0.1. LAN
mode is tested on 127.0.0.1 too: the guard is told it is on the LAN.
"""
from __future__ import annotations

import asyncio
import io
import re
import shutil
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from companion import cli, service
from companion.journal import Journal
from companion.service import listen
from companion.web import hub as topics
from companion.web.auth import Guard
from companion.web.host_pin import HostPin, pin_path
from companion.port import WebPort
from companion.web.app import SITE, make_app, start
from tests.waiting import TIMEOUT_S, quiet, wait_for
from tests.webclient import Client, Recording, latest, sse_events, tap

from .browsing import DESKTOP, watch

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@dataclass
class Live(Client):
    """A box served in this process: its session, hardware and guard at hand."""

    session: object
    hw: object
    guard: Guard
    port: int
    close: Callable[[], None]
    site: object = None               # what the app's handlers share: its hub, the loop it runs on

    def __post_init__(self):
        self.cookies = {}

    @property
    def token(self) -> str:
        return self.guard.token

    def press(self, seat: int, *controls: str) -> None:
        """Taps on a panel seat's own buttons, on their mock pins."""
        tap(lambda control, pressed: self.hw.drive(seat, control, pressed), *controls)

    def now(self, path: str, sees: bool = True) -> dict:
        """What a page opening the event stream at ``path`` now is shown first: the latest of each topic (``sees``:
        as the host's device, join codes too)."""
        hub = self.site.hub

        async def snapshot():
            return hub.snapshot(stream_topics(path), sees)
        messages = asyncio.run_coroutine_threadsafe(snapshot(), hub.loop).result(TIMEOUT_S)
        return latest(sse_events(io.BytesIO(b"".join(messages))))

    def opened(self, path: str, client: Client | None = None, sees: bool = True) -> list[tuple[str, str]]:
        """The events a stream opened now (by ``client``, else this page; ``sees``: one shown join codes) sends
        until it has shown the box as it is, the box quiet."""
        self.quiet()
        recording = Recording(client or self, path, sees)
        self.quiet(recording)
        recording.close()
        return recording.events

    def quiet(self, *recordings) -> None:
        """Wait until the box has nothing left to do, the web loop has taken all it published (so its
        reads answer as the box is), and each of ``recordings`` has been shown all of it: its latest of
        every topic is what a page opening its stream now is shown first."""
        quiet(self.session)
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), self.site.hub.loop).result(TIMEOUT_S)
        for recording in recordings:
            assert wait_for(lambda: latest(recording.events) == self.now(recording.path, recording.sees), TIMEOUT_S), \
                f"{recording.path} was never shown the box as it is"


STREAMS = {"/api/dashboard/events": topics.DASHBOARD, "/api/sim/events": topics.SIM,
           "/api/tv/events": topics.TV}


def stream_topics(path: str) -> frozenset:
    """The topics the event stream at ``path`` carries."""
    seat = re.fullmatch(r"/api/seat/(\d+)/events", path)
    return topics.seat(int(seat.group(1))) if seat else STREAMS[path]


@contextmanager
def boxes(workdir: Path):
    """Start boxes: ``build(*run_args, lan=False, lan_sim=False, backend="sim", clock=None)``; all stopped on leaving
    (``clock``: the guard's, for its waits; ``caps``: the doors', :mod:`companion.web.doors`).

    Each box journals in its own database under ``workdir`` (two boxes on one
    journal would be one box resuming the other's game).
    """
    made: list[Live] = []

    def build(*run_args: str, lan: bool = False, lan_sim: bool = False, backend: str = "sim", clock=time.monotonic,
              caps=None) -> Live:
        db = workdir / f"box{len(made) + 1}.db"
        args = cli.parser().parse_args(["run", "--db", str(db), *run_args])
        args.wiring = args.wiring or cli.DEFAULT_WIRING[backend]
        pin = HostPin(pin_path(db)) if lan else None
        hardware, session = service.build(args, service.Plan(args, backend), Journal(db), host_pin=pin)
        guard = Guard(lan=lan, pin=pin, lan_sim=lan_sim, clock=clock)
        stop = threading.Event()
        session_thread = threading.Thread(target=session.run, args=(stop,), daemon=True)
        session_thread.start()
        loop = asyncio.new_event_loop()
        loop_thread = threading.Thread(target=loop.run_forever, daemon=True)
        loop_thread.start()
        app = make_app(WebPort(session), guard)
        runner, port = asyncio.run_coroutine_threadsafe(start(app, listen("127.0.0.1", 0), caps), loop).result(TIMEOUT_S)
        assert wait_for(lambda: "state" in app[SITE].hub.latest), \
            "the session loop never sent its first state"       # until then reads answer 503 "starting up"

        def stop_all():
            asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(TIMEOUT_S)
            loop.call_soon_threadsafe(loop.stop)
            loop_thread.join(5)
            loop.close()
            stop.set()
            session.call(lambda: None)           # wake the loop to see the stop
            session_thread.join(5)
            session.close()

        made.append(Live(session, hardware, guard, port, stop_all, app[SITE]))
        return made[-1]

    try:
        yield build
    finally:
        for live in made:
            live.close()


@pytest.fixture
def live_factory(tmp_path):
    with boxes(tmp_path) as build:
        yield build


GAME = ("--game", "whakka-mole", "--seats", "2", "--set", "target=12")


@pytest.fixture
def live(live_factory) -> Live:
    return live_factory(*GAME)


@pytest.fixture(scope="module")
def unchanged(tmp_path_factory):
    """One box for a module's tests that change nothing (refused requests, reads)."""
    with boxes(tmp_path_factory.mktemp("unchanged")) as build:
        yield build(*GAME)


@pytest.fixture(scope="package")
def browser():
    """Debian's chromium driven by Playwright; the tests skip when either is missing. Playwright's sync API runs
    an event loop on the main thread while it is open: closed with tests/web, so no later test meets it."""
    if shutil.which(CHROMIUM) is None:
        pytest.skip(f"no {CHROMIUM}: apt-get install chromium (CI installs it from .ci/apt-packages)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def pages(browser):
    """``pages(url, viewport, *scripts, touch=False, record=False)``: a page in a fresh context (a device of its
    own), once its stream is live, ``scripts`` run before the page's own; every context closed afterwards."""
    contexts = []

    def open_page(url: str, viewport: dict = DESKTOP, *scripts: str, touch: bool = False, record: bool = False):
        contexts.append(browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch))
        page = contexts[-1].new_page()
        watch(page, record)
        for script in scripts:
            page.add_init_script(script)
        page.goto(url)
        page.wait_for_function("document.getElementById('status').textContent === 'live'")
        return page

    yield open_page
    for context in contexts:
        context.close()
