"""Whatever a client sends, every route answers 4xx or better, never 5xx, and a refused request changes nothing.

Hypothesis draws the method's body (JSON of any shape and depth within the 4 KB cap, or raw
bytes), the Content-Type, the token and Origin (right, wrong or missing), a PIN, and a
query string, for every route of the app, on a box on 127.0.0.1 and on one in LAN mode.
"""
from __future__ import annotations

import http.client
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.web.app import make_app
from tests.waiting import TIMEOUT_S

from .conftest import GAME

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=20)
FIELDS = st.fixed_dictionaries({}, optional={
    "seat": st.integers(-2, 10) | JSON, "control": st.sampled_from(["hole1", "ok", "hole9", ""]) | JSON,
    "pressed": st.booleans() | JSON, "pin": st.text(max_size=8) | JSON, "name": st.text(max_size=30) | JSON,
    "enabled": st.booleans() | JSON, "code": st.sampled_from(["ABCDE", "", "äöü"]) | JSON,
    "stream": st.text(max_size=12) | JSON})
BODIES = (FIELDS.map(lambda d: json.dumps(d).encode()) | JSON.map(lambda d: json.dumps(d).encode())
          | st.binary(max_size=300) | st.integers(1, 2040).map(lambda n: b"[" * n + b"]" * n)
          | st.integers(1, 1300).map(lambda n: b'{"a":' * n + b"1" + b"}" * n) | st.just(b"{" * 4000))
PATHS = ["/", "/dashboard", "/api/state", "/api/history", "/api/dashboard/events", "/api/sim/events",
         "/api/sim/press", "/api/names", "/api/host/undo", "/api/host/end-game", "/api/host/take-up",
         "/api/host/new-game", "/api/host/dismiss", "/api/host/lan-sim", "/api/host/login", "/api/host/logout", "/api/host/%00",
         "/static/app.js", "/static/..%2f..%2fetc%2fpasswd", "/nope",
         "/table", "/api/table/events", "/join", "/api/join", "/api/seats", "/api/host/free-seat"]
# A phone seat's routes, as the fuzzer sends them, and the route each is.
SEAT_PATHS = {"/seat/2": "/seat/{seat}", "/seat/x": "/seat/{seat}", "/J/ABCDE": "/J/{code}", "/j/abcde": "/j/{code}",
              "/api/seat/2/events": "/api/seat/{seat}/events", "/api/seat/2/press": "/api/seat/{seat}/press",
              "/api/seat/x/press": "/api/seat/{seat}/press", "/api/seat/1/press": "/api/seat/{seat}/press"}
PATHS += list(SEAT_PATHS)
STREAMS = ("/api/dashboard/events", "/api/sim/events", "/api/table/events", "/api/seat/2/events")


def snapshot(live) -> str:
    """What a refused request must leave as it was."""
    session = live.session
    return json.dumps({"public": session.table.public(), "lamps": session.out.lamps(), "seed": session.table.seed,
                       "records": session.table.match.records if session.table.match else None,
                       "lan_sim": live.guard.lan_sim, "pins": [live.hw.pin(p.seat, c).state for p in live.hw.panels
                                                              for c in ("hole1", "ok")],
                       "seats": live.session.phones.tokens}, sort_keys=True, default=str)


def send(live, method: str, path: str, body: bytes, headers: dict) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=TIMEOUT_S)
    try:
        conn.request(method, path, body if method == "POST" else None, headers)
        response = conn.getresponse()
        if path.split("?")[0] not in STREAMS or response.status != 200:
            response.read()
        return response.status
    finally:
        conn.close()


def request_for(live):
    """A request; the page's own token, Origin and Content-Type are the likelier draws, so that most bodies
    get past the guard to the handlers (a refusal at the door tells nothing about what lies behind it)."""
    origin = f"http://127.0.0.1:{live.port}"
    return st.fixed_dictionaries({
        "method": st.sampled_from(["POST"] * 4 + ["GET", "GET", "PUT", "DELETE"]),
        "path": st.sampled_from(PATHS),
        "query": st.sampled_from(["", "", "?limit=5", "?limit=-1", "?limit=abc", "?x=1", "?limit=" + "9" * 40]),
        "body": BODIES,
        "content_type": st.sampled_from(["application/json"] * 4 + ["text/plain", "",
                                                                    "application/json; charset=latin-1"]),
        "token": st.sampled_from([live.guard.token] * 4 + ["", "wrong"]),
        "origin": st.sampled_from([origin] * 4 + ["", "http://evil.example"]),
    })


def fuzz(live, examples: int) -> None:
    @settings(max_examples=examples, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                            HealthCheck.too_slow])
    @given(st.data())
    def one(data):
        r = data.draw(request_for(live))
        headers = {k: v for k, v in {"Content-Type": r["content_type"], "X-Molebox-Token": r["token"],
                                      "Origin": r["origin"]}.items() if v}
        before = snapshot(live)
        status = send(live, r["method"], r["path"] + r["query"], r["body"], headers)
        assert status < 500, r
        if status >= 400:
            assert snapshot(live) == before, r
    one()


def test_no_request_gets_a_5xx_or_changes_anything_it_was_refused(live_factory):
    fuzz(live_factory(*GAME), 400)


def test_in_lan_mode_too(live_factory):
    fuzz(live_factory(*GAME, lan=True, lan_sim=True), 300)


def test_with_phone_seats_too(live_factory):
    fuzz(live_factory("--panels", "1", "--phones", "2", "--game", "whakka-mole", "--seats", "3"), 300)


def test_these_paths_cover_every_route(live_factory):
    live = live_factory(*GAME)
    canonical = {r.resource.canonical for r in make_app(live.session, live.guard).router.routes()}
    covered = {"/api/host/{action}" if p.startswith("/api/host/") and p.count("/") == 3 and
               p not in ("/api/host/lan-sim", "/api/host/login", "/api/host/logout", "/api/host/free-seat") else
               "/static/{name}" if p.startswith("/static/") else SEAT_PATHS.get(p, p) for p in PATHS}
    assert canonical <= covered
