"""The bench's phones, in a client process: each joins its seat by code, keeps the seat's stream open and
presses over HTTP, timing each press to the lamps on its own stream."""
from __future__ import annotations

import http.client
import json
import random
import re
import sys
import threading
import time

PHONES = 8
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
