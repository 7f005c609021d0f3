"""Talking to a running box over HTTP as its pages do: the token, the Origin, JSON, and its event streams."""
from __future__ import annotations

import base64
import http.client
import json
import socket
import threading
import time
from dataclasses import dataclass
from http.cookies import SimpleCookie

from PIL import Image

from tests.waiting import TIMEOUT_S, wait_for

TOKEN_HEADER = "X-Molebox-Token"
TAP_S = 0.04            # how long a finger holds a button, and the gap before the next: past the box's
                        # debouncer (20 ms), far short of a hold: the gesture itself, not a wait for the box


def tap(press, *controls: str) -> None:
    """``press(control, pressed)``, down then up, for each control in turn, as a finger does."""
    for control in controls:
        for pressed in (True, False):
            press(control, pressed)
            time.sleep(TAP_S)


def taken(answer: "Answer") -> None:
    assert answer.status == 200, answer


def frame_image(frame: dict) -> Image.Image:
    """A display's frame as the stream sends it (size and base64 packed bits), as a one-bit image."""
    return Image.frombytes("1", (frame["width"], frame["height"]), base64.b64decode(frame["bits"]))


@dataclass
class Answer:
    status: int
    body: dict | str
    headers: dict


class Client:
    """A page's view of a box on 127.0.0.1:``port`` whose pages carry ``token``.

    It keeps the cookies the box sets, as a browser does. ``source`` is the client's own address
    (127.0.0.2, 127.0.0.3...: other devices on the network, as far as the box can tell).
    """

    source: str | None = None

    def __init__(self, port: int, token: str, source: str | None = None):
        self.port, self.token, self.source = port, token, source
        self.cookies: dict[str, str] = {}

    def as_device(self, address: str) -> "Client":
        """The same pages from another device (its own address, no cookies yet)."""
        return Client(self.port, self.token, address)

    def _connect(self, timeout: float) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout,
                                          source_address=(self.source, 0) if self.source else None)

    def _cookie_header(self, headers: dict) -> dict:
        jar = self.cookies
        return {**headers, "Cookie": "; ".join(f"{k}={v}" for k, v in jar.items())} if jar else headers

    def _keep_cookies(self, response: http.client.HTTPResponse) -> None:
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                if morsel["max-age"] == "0" or not morsel.value:
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def headers(self, **extra) -> dict:
        """What the page sends with a POST."""
        return {"Origin": f"http://127.0.0.1:{self.port}", TOKEN_HEADER: self.token,
                "Content-Type": "application/json", **extra}

    def call(self, method: str, path: str, body=None, headers: dict | None = None) -> Answer:
        """One request; ``body`` is sent as JSON unless it is bytes; headers default to the page's."""
        conn = self._connect(TIMEOUT_S)
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        conn.request(method, path, data, self._cookie_header(self.headers() if headers is None else headers))
        response = conn.getresponse()
        raw = response.read().decode()
        conn.close()
        self._keep_cookies(response)
        kind = response.getheader("Content-Type", "")
        return Answer(response.status, json.loads(raw) if kind.startswith("application/json") else raw,
                      dict(response.getheaders()))

    def post(self, path: str, body=None, **kwargs) -> Answer:
        return self.call("POST", path, {} if body is None else body, **kwargs)

    def tap(self, seat: int, *controls: str) -> None:
        """Taps on a seat's controls on the simulator's page (a phone seat's: as its phone's)."""
        tap(lambda control, pressed: taken(self.post("/api/sim/press", {"seat": seat, "control": control,
                                                                        "pressed": pressed})), *controls)

    def stream(self, path: str, until, timeout: float = TIMEOUT_S, headers: dict | None = None
               ) -> list[tuple[str, str]]:
        """(event, data) pairs a stream sends, read until ``until(events)`` holds."""
        conn = self._connect(timeout)
        conn.request("GET", path, headers=self._cookie_header(headers or {}))
        response = conn.getresponse()
        assert response.status == 200, response.read()
        events: list[tuple[str, str]] = []
        try:
            for event in sse_events(response):
                events.append(event)
                if until(events):
                    return events
        except TimeoutError:
            pass
        finally:
            conn.close()
        raise AssertionError(f"{path} never sent what was awaited; it sent {[kind for kind, _ in events]}")

    def frames(self, *names: str) -> dict:
        """The newest frames of the displays ``names`` from the simulator's stream, as one-bit images by name
        (the stream starts with every display's)."""
        events = self.stream("/api/sim/events", lambda events: all(f"frame/{name}" in learnt(events) for name in names))
        return {name: frame_image(latest(events)[f"frame/{name}"]) for name in names}


def sse_events(response):
    """(kind, data) of each server-sent event in ``response``, as its lines arrive."""
    kind = None
    for line in response:
        line = line.decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            yield kind, line[6:]


def learnt(events) -> dict[str, list]:
    """What a page could learn from a stream's ``(kind, data)`` events: for each topic (a frame's by its
    display's name) every value it was shown, in order, each repeat of the value before it dropped; the turns
    as the page holds them after each append. Not in it: how the box batched its news (a stream is sent the
    latest of each topic when the web loop is free), and the stream's own ``hello``."""
    shown: dict[str, list] = {}
    turns: list = []
    for kind, data in events:
        if kind == "hello":
            continue
        value = json.loads(data)
        if kind == "turns":
            turns = value = turns[:value["from"]] + value["turns"]
        values = shown.setdefault(f"frame/{value['name']}" if kind == "frame" else kind, [])
        if not values or values[-1] != value:
            values.append(value)
    return shown


def latest(events) -> dict:
    """The latest value of each topic a stream's events showed."""
    return {topic: values[-1] for topic, values in learnt(events).items()}


def note(timeline: list[dict], events) -> None:
    """Add to ``timeline`` what a stream's ``events`` have left its page knowing (the latest of each topic),
    unless the page knew just that when it was last noted. Noted each time the box is quiet, a timeline
    holds what the page could learn, whatever the load: the values a topic took only for a moment (a
    lamp's 120 ms flash) may reach a page or not, as the web loop is free or busy then."""
    knows = latest(events)
    if not timeline or timeline[-1] != knows:
        timeline.append(knows)


class Recording:
    """An event stream read on a thread of its own, every event kept in ``events`` as (kind, data)."""

    def __init__(self, client: Client, path: str, sees: bool = True):
        """``sees``: the client may see join codes (the host's device, the Pi's own TV view)."""
        self.path, self.sees = path, sees
        self.events: list[tuple[str, str]] = []
        self._conn = client._connect(60)
        self._conn.request("GET", path, headers=client._cookie_header({}))
        response = self._conn.getresponse()
        assert response.status == 200, response.read()
        self._reader = threading.Thread(target=self._read, args=(response,), daemon=True)
        self._reader.start()

    def _read(self, response) -> None:
        try:
            for event in sse_events(response):     # seen by the test as each arrives
                self.events.append(event)
        except (OSError, ValueError, http.client.HTTPException):
            pass

    @property
    def open(self) -> bool:
        return self._reader.is_alive()

    def first(self, kind: str, timeout: float = TIMEOUT_S):
        """The first event of ``kind``, parsed, once it has come."""
        self._wait_for(kind, timeout)
        return json.loads(next(data for k, data in self.events if k == kind))

    def latest(self, kind: str, timeout: float = TIMEOUT_S):
        """The newest event of ``kind``, parsed, once one has come (a stream just opened may not
        have sent its first yet)."""
        self._wait_for(kind, timeout)
        return json.loads(next(data for k, data in reversed(self.events) if k == kind))

    def _wait_for(self, kind: str, timeout: float) -> None:
        assert wait_for(lambda: any(k == kind for k, _ in self.events), timeout), f"no {kind} event came"

    def close(self) -> None:
        """Cut the connection, as a phone that loses the network does."""
        self._conn.sock.shutdown(socket.SHUT_RDWR)
        self._reader.join(3)
        self._conn.close()


class Phone(Client):
    """A phone at a seat: it joins by a code, keeps its seat's event stream open (``stream``, a
    :class:`Recording`) and presses by that stream's id, as the seat page does."""

    def __init__(self, port: int, token: str, source: str | None = None):
        super().__init__(port, token, source)
        self.seat: int | None = None
        self.stream: Recording | None = None
        self.stream_id: str | None = None

    def join(self, code: str) -> Answer:
        answer = self.post("/api/join", {"code": code})
        if answer.status == 200:
            self.seat = answer.body["seat"]
        return answer

    def connect(self) -> None:
        """Open the seat's stream and wait for its ``hello``."""
        self.stream = Recording(self, f"/api/seat/{self.seat}/events")
        self.stream_id = self.stream.first("hello")["stream"]

    def drop(self) -> None:
        """The phone loses the box (its screen locked, its network changed): the stream is cut."""
        self.stream.close()

    @property
    def events(self) -> list[tuple[str, str]]:
        return self.stream.events

    def latest(self, kind: str, timeout: float = TIMEOUT_S):
        return self.stream.latest(kind, timeout)

    def press(self, control: str, pressed: bool, stream: str | None = None) -> Answer:
        return self.post(f"/api/seat/{self.seat}/press",
                         {"control": control, "pressed": pressed, "stream": stream or self.stream_id or ""})

    def tap(self, *controls: str) -> None:
        """Taps on the phone's own seat."""
        tap(lambda control, pressed: taken(self.press(control, pressed)), *controls)
