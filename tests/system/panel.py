"""The box's web panel as the host reaches it through qemu's forwarded port: pages, presses, the stream.

Standard library HTTP, as any client on the LAN: the page's token and the ``Origin`` for presses
(docs/web.md), and the simulator's server-sent events (the public state, every display's frame, every
seat's lamps) read on a thread of their own. What the box acknowledged is what a seat's own lamps answered:
the box holds a seat's lamps and screen as they were until its decision is on disk (the screen may say
*saving...* meanwhile), while the public state may show the decision sooner (docs/persistence.md).
"""
from __future__ import annotations

import html
import http.client
import json
import re
import threading
import time
from collections import Counter

from tests.webclient import sse_events

PRESS_S = 0.05                  # a finger's press: longer than the debounce, far shorter than a hold
DECISIONS = ("locked", "unlocked")                # the public events a seat's committed answer makes


def decisions(log: list[dict]) -> int:
    """The seats' committed answers in a public log: every lock-in and every lock-in taken back."""
    return sum(1 for event in log if event["kind"] in DECISIONS)


def lock_ins(log: list[dict]) -> dict[int, int]:
    """Each seat's lock-ins in a public log (the finger never takes one back)."""
    return dict(Counter(event["seat"] for event in log if event["kind"] == "locked"))


class PanelError(RuntimeError):
    """The web panel refused or did not answer."""


class Panel:
    def __init__(self, port: int):
        self.port = port
        self.origin = f"http://127.0.0.1:{port}"
        self.token: str | None = None

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = 20) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        headers = {}
        if body is not None:
            headers = {"Content-Type": "application/json", "Origin": self.origin, "X-Molebox-Token": self.token or ""}
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            reply = conn.getresponse()
            return reply.status, reply.read()
        finally:
            conn.close()

    def log(self) -> list[dict]:
        """The public log of the game in play, as the box holds it now."""
        return self.get_json("/api/state")["log"]

    def get_json(self, path: str) -> dict:
        status, body = self.request("GET", path)
        if status != 200:
            raise PanelError(f"GET {path}: {status} {body[:200]!r}")
        return json.loads(body)

    def wait_state(self, predicate, timeout: float = 60) -> dict:
        """The public state once ``predicate(state)`` holds, read every quarter second; the last one read if
        the time runs out first (the caller's assert says what it wanted)."""
        deadline = time.monotonic() + timeout
        while not predicate(state := self.get_json("/api/state")) and time.monotonic() < deadline:
            time.sleep(0.25)
        return state

    def wait_ready(self, timeout: float = 300, alive=lambda: True) -> None:
        """Until ``/api/state`` answers (the service said READY once it listened); the page's token then."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and alive():
            try:
                self.get_json("/api/state")
                self.refresh()
                return
            except (OSError, PanelError, http.client.HTTPException, ValueError):
                time.sleep(0.25)
        raise PanelError(f"the web panel did not answer within {timeout:.0f} s")

    def refresh(self) -> None:
        """Take the page's token afresh, as a reloaded page does (every start of the service makes a new one): the
        dashboard's, which every backend serves."""
        self.token = self.page_config("/dashboard")["token"]

    def page_config(self, path: str) -> dict:
        status, body = self.request("GET", path)
        found = re.search(rb'<meta name="molebox" content="([^"]*)">', body)
        if status != 200 or not found:
            raise PanelError(f"GET {path}: {status}, no page config")
        return json.loads(html.unescape(found.group(1).decode()))

    def press(self, seat: int, control: str, hold_s: float = PRESS_S) -> None:
        """A finger on a button: the pin goes low, and high again ``hold_s`` later."""
        for pressed in (True, False):
            status, body = self.request("POST", "/api/sim/press", {"seat": seat, "control": control, "pressed": pressed})
            if status != 200:
                raise PanelError(f"press {seat} {control}: {status} {body[:200]!r}")
            if pressed:
                time.sleep(hold_s)

    def play(self, script: str) -> None:
        """Press through a script of ``SEAT CONTROL`` lines (``#`` comments, ``wait MS``), as docs/scripts.md."""
        for line in script.splitlines():
            words = line.split("#")[0].split()
            if not words:
                continue
            if words[0] == "wait":
                time.sleep(int(words[1]) / 1000)
            else:
                self.press(int(words[0]), words[1])


class Stream:
    """The simulator's event stream, read on its own thread: the public state, and each display's frame and each
    seat's lamps with when they last changed."""

    def __init__(self, port: int):
        self.port = port
        self.state: dict | None = None
        self.frames: dict[str, tuple[str, float]] = {}      # display: (its bits, when they last changed)
        self.lamps: dict[str, tuple[list, float]] = {}     # seat1..: (its lamps, when they last changed)
        self.changed = threading.Condition()
        self.closed = False
        self._conn = http.client.HTTPConnection("127.0.0.1", port, timeout=None)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._conn.request("GET", "/api/sim/events")
            for kind, data in sse_events(self._conn.getresponse()):
                self._take(kind, json.loads(data))
        except Exception:             # the connection went (a power cut, a restart, close()): the stream ends
            pass
        finally:
            with self.changed:
                self.closed = True
                self.changed.notify_all()

    def _take(self, kind: str | None, data) -> None:
        with self.changed:
            if kind == "frame" and self.frames.get(data["name"], ("",))[0] != data["bits"]:
                self.frames[data["name"]] = (data["bits"], time.monotonic())
            elif kind == "state":
                self.state = data
            elif kind == "lamps":
                now = time.monotonic()
                for seat, lit in data.items():
                    if self.lamps.get(seat, (None,))[0] != lit:
                        self.lamps[seat] = (lit, now)
            self.changed.notify_all()

    def settled(self, display: str, quiet_s: float, timeout: float = 60, of: str = "frames"):
        """The display's frame (``of="lamps"``: the seat's lamps) once it has not changed for ``quiet_s`` (None if it
        never settles in time)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.closed:
            shown, since = getattr(self, of).get(display, (None, time.monotonic()))
            if shown and time.monotonic() - since >= quiet_s:
                return shown
            time.sleep(0.05)
        return None

    def wait(self, predicate, timeout: float = 60) -> bool:
        """Until ``predicate(self)`` holds (True) or the time is up or the stream ends (False)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    return predicate(self)
                self.changed.wait(left)
            return True

    def close(self) -> None:
        try:
            self._conn.sock and self._conn.sock.shutdown(2)
        except OSError:
            pass
        self._conn.close()
        self._thread.join(timeout=5)
