"""Whatever a client sends, every route answers 4xx or better, never 5xx, a refused request changes nothing, and
the log has no traceback.

Hypothesis draws the method, the body (JSON of any shape and depth within the 4 KB cap, past
the cap, or raw bytes), the Content-Type and its charset (unknown, compressed, not UTF-8), a
Content-Encoding, the token and Origin (right, wrong or missing), a PIN, odd characters in the
path and the query, for every route of the app, on a box on 127.0.0.1 and on one in LAN mode.
"""
from __future__ import annotations

import http.client
import json
import logging

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.port import WebPort
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
          | st.integers(1, 1300).map(lambda n: b'{"a":' * n + b"1" + b"}" * n) | st.just(b"{" * 4000)
          | st.integers(4097, 200_000).map(lambda n: b"[" + b"1," * (n // 2) + b"1]"))
PATHS = ["/", "/dashboard", "/api/state", "/api/history", "/api/dashboard/events", "/api/sim/events",
         "/api/sim/press", "/api/names", "/api/host/undo", "/api/host/end-game", "/api/host/take-up",
         "/api/host/new-game", "/api/host/dismiss", "/api/host/lan-sim", "/api/host/login", "/api/host/logout", "/api/host/%00",
         "/static/app.js", "/static/..%2f..%2fetc%2fpasswd", "/nope",
         "/tv", "/table", "/api/tv/events", "/join", "/api/join", "/api/seats", "/api/host/free-seat"]
# A phone seat's routes, as the fuzzer sends them, and the route each is.
SEAT_PATHS = {"/seat/2": "/seat/{seat}", "/seat/x": "/seat/{seat}", "/J/ABCDE": "/J/{code}", "/j/abcde": "/j/{code}",
              "/H/ABCDEFGHJKL": "/H/{key}", "/h/abcdefghjkl": "/h/{key}",
              "/api/seat/2/events": "/api/seat/{seat}/events", "/api/seat/2/press": "/api/seat/{seat}/press",
              "/api/seat/x/press": "/api/seat/{seat}/press", "/api/seat/1/press": "/api/seat/{seat}/press"}
RULES_PATHS = {"/rules/mole": "/rules/{game}", "/rules/nope": "/rules/{game}", "/rules/%00": "/rules/{game}"}
PATHS += list(SEAT_PATHS) + list(RULES_PATHS)
# Odd characters where a number or a name is read: digits that are not ASCII ("²" is a digit to str.isdigit,
# not to int), a NUL, bytes that are not UTF-8, a dot-dot, a very long segment.
ODD = ["%C2%B2", "%D9%A3", "%00", "%FF%FE", "..", "%2e%2e%2f", "9" * 40, "-1", "%20", "x" * 3000, "%F0%9F%90%B9"]
ODD_PATHS = ([f"/seat/{odd}" for odd in ODD] + [f"/api/seat/{odd}/events" for odd in ODD]
             + [f"/api/seat/{odd}/press" for odd in ODD] + [f"/J/{odd}" for odd in ODD] + [f"/H/{odd}" for odd in ODD] + [f"/static/{odd}" for odd in ODD]
             + [f"/api/host/{odd}" for odd in ODD])
STREAMS = ("/api/dashboard/events", "/api/sim/events", "/api/tv/events", "/api/seat/2/events")


def snapshot(live) -> str:
    """What a refused request must leave as it was."""
    session = live.session
    return json.dumps({"public": session.public(), "lamps": session.lamps.lit(), "seed": session.state.seed,
                       "records": session.state.match.records if session.state.match else None,
                       "lan_sim": live.guard.lan_sim, "pins": [live.hw.pin(p.seat, c).state for p in live.hw.panels
                                                              for c in ("hole1", "ok")],
                       "seats": live.site.phones.tokens}, sort_keys=True, default=str)


def send(live, method: str, path: str, body: bytes, headers: dict) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=TIMEOUT_S)
    try:
        conn.request(method, path, body if method in ("POST", "PUT", "PATCH") else None, headers)
        response = conn.getresponse()
        if method != "HEAD" and (path.split("?")[0] not in STREAMS or response.status != 200):
            response.read()
        return response.status
    finally:
        conn.close()


def request_for(live):
    """A request; the page's own token, Origin and Content-Type are the likelier draws, so that most bodies
    get past the guard to the handlers (a refusal at the door tells nothing about what lies behind it)."""
    origin = f"http://127.0.0.1:{live.port}"
    return st.fixed_dictionaries({
        "method": st.sampled_from(["POST"] * 4 + ["GET", "GET", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]),
        "path": st.sampled_from(PATHS) | st.sampled_from(ODD_PATHS),
        "query": st.sampled_from(["", "", "?limit=5", "?limit=-1", "?limit=abc", "?x=1", "?limit=" + "9" * 40]
                                 + [f"?limit={odd}" for odd in ODD] + ["?limit=1&limit=2", "?%FF=1", "?&&=&"]),
        "body": BODIES,
        "content_type": st.sampled_from(["application/json"] * 4 + ["text/plain", "", "application/json; charset=latin-1"]
                                        + [f"application/json; charset={charset}" for charset in
                                           ("rot13", "zlib_codec", "bz2", "utf-16", "UTF-8", "nope", "", '"utf-8"')]),
        "encoding": st.sampled_from([None] * 6 + ["gzip", "deflate", "br", "identity", "zstd", "nope"]),
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
                                      "Origin": r["origin"], "Content-Encoding": r["encoding"]}.items() if v}
        before = snapshot(live)
        status = send(live, r["method"], r["path"] + r["query"], r["body"], headers)
        assert status < 500, r
        if status >= 400:
            assert snapshot(live) == before, r
    one()


@pytest.fixture
def quiet_log(caplog):
    """Whatever the fuzzer sent, the log has no traceback and no error: a refusal is the client's, not a fault."""
    with caplog.at_level(logging.WARNING):
        yield
    said = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR or "Traceback" in r.getMessage()]
    assert not said, [r.getMessage() for r in said]


def test_no_request_gets_a_5xx_or_changes_anything_it_was_refused(live_factory, quiet_log):
    fuzz(live_factory(*GAME), 400)


def test_in_lan_mode_too(live_factory, quiet_log):
    fuzz(live_factory(*GAME, lan=True, lan_sim=True), 300)


def test_with_phone_seats_too(live_factory, quiet_log):
    fuzz(live_factory("--panels", "1", "--phones", "2", "--game", "whakka-mole", "--seats", "3"), 300)


@pytest.mark.parametrize("method, path, headers, body, status, words", [
    ("POST", "/api/sim/press", {"Content-Type": "application/json; charset=rot13"}, b"{}", 415, "as UTF-8"),
    ("POST", "/api/names", {"Content-Type": "application/json; charset=zlib_codec"}, b"{}", 415, "as UTF-8"),
    ("POST", "/api/join", {"Content-Type": "application/json; charset=nope"}, b"{}", 415, "as UTF-8"),
    ("POST", "/api/join", {"Content-Encoding": "gzip"}, b"not gzip", 415, "uncompressed"),
    ("GET", "/seat/%C2%B2", {}, None, 404, "is not a phone seat"),
    ("GET", "/api/seat/%C2%B2/events", {}, None, 404, "nothing at"),
    ("GET", "/api/history?limit=%C2%B2", {}, None, 400, "limit must be a whole number"),
])
def test_what_answered_500_before_answers_what_is_wrong(unchanged, quiet_log, method, path, headers, body, status,
                                                        words):
    answer = unchanged.call(method, path, body, headers=unchanged.headers(**headers) if method == "POST" else headers)
    assert answer.status == status and words in answer.body["error"], answer


def test_these_paths_cover_every_route(live_factory):
    live = live_factory(*GAME)
    canonical = {r.resource.canonical for r in make_app(WebPort(live.session), live.guard).router.routes()}
    covered = {"/api/host/{action}" if p.startswith("/api/host/") and p.count("/") == 3 and
               p not in ("/api/host/lan-sim", "/api/host/login", "/api/host/logout", "/api/host/free-seat") else
               "/static/{name}" if p.startswith("/static/") else {**SEAT_PATHS, **RULES_PATHS}.get(p, p) for p in PATHS}
    assert canonical <= covered
