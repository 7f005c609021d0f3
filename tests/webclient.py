"""Talking to a running box over HTTP as its pages do: the token, the Origin, JSON, and its event streams."""
from __future__ import annotations

import base64
import http.client
import json
from dataclasses import dataclass
from http.cookies import SimpleCookie

from PIL import Image

TOKEN_HEADER = "X-Molebox-Token"


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
        conn = self._connect(5)
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

    def stream(self, path: str, seconds: float, headers: dict | None = None) -> list[tuple[str, str]]:
        """(event, data) pairs a stream sends within ``seconds``."""
        conn = self._connect(seconds)
        conn.request("GET", path, headers=self._cookie_header(headers or {}))
        response = conn.getresponse()
        assert response.status == 200, response.read()
        events, kind = [], None
        try:
            for line in response:
                line = line.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: "):
                    events.append((kind, line[6:]))
        except TimeoutError:
            pass
        conn.close()
        return events

    def frames(self, seconds: float = 0.5) -> dict:
        """Every display's newest frame from the simulator's stream, as one-bit images by name."""
        shown = {}
        for kind, data in self.stream("/api/sim/events", seconds):
            if kind == "frame":
                frame = json.loads(data)
                shown[frame["name"]] = frame_image(frame)
        return shown
