"""The web panel over real HTTP: bad input answers 4xx with a message, the guard refuses what it must."""
from __future__ import annotations

import asyncio
import json
import logging
import socket
import struct
import threading

import pytest
from aiohttp import web
from gpiozero.pins.mock import MockFactory, MockPWMPin
from luma.core.device import dummy
from PIL import ImageChops

from companion.hardware import gpio
from companion.render import turns, tv
from companion.web.auth import TOKEN_HEADER
from companion.web.guesses import WRONG_IN_A_ROW
from companion.port import WebPort
from companion.web import hub as topics
from companion.web.app import make_app
from tests.waiting import quiet, wait_for
from tests.webclient import Recording, frame_image

from .conftest import GAME

PRESS = {"seat": 1, "control": "hole1", "pressed": True}


def assert_refused(answer, status: int, words: str) -> None:
    assert answer.status == status, answer
    assert isinstance(answer.body, dict) and words in answer.body["error"], answer.body


# Every route of the app, and the host actions among the POSTs (they need the PIN in LAN mode).
GETS = ["/", "/dashboard", "/api/state", "/api/history", "/api/dashboard/events", "/api/sim/events", "/static/{name}",
        "/tv", "/api/tv/events", "/table", "/api/seats", "/rules/{game}"]
# A phone seat's routes: tested in test_seats.py.
SEAT_GETS = ["/seat/{seat}", "/join", "/J/{code}", "/j/{code}", "/api/seat/{seat}/events"]
HOST_GETS = ["/H/{key}", "/h/{key}"]    # the host QR code's address: tested in test_host_pin.py
SEAT_POSTS = ["/api/seat/{seat}/press"]
HOST_ACTIONS = {"/api/host/new-game": {}, "/api/host/undo": {}, "/api/host/end-game": {},
                "/api/host/take-up": {}, "/api/host/dismiss": {}}
HOST_BODIES = {**HOST_ACTIONS, "/api/host/lan-sim": {"enabled": True}, "/api/names": {"seat": 1, "name": "Ada"},
               "/api/host/free-seat": {"seat": 1}}
POSTS = ["/api/sim/press", "/api/join", *HOST_BODIES]
SESSIONS = {"/api/host/login": {"pin": "00000"}, "/api/host/logout": {}}


def test_these_tests_know_every_route(unchanged):
    routes = {(r.method, r.resource.canonical) for r in make_app(WebPort(unchanged.session), unchanged.guard)
              .router.routes() if r.method != "HEAD"}
    posts = {path for path in [*POSTS, *SESSIONS, *SEAT_POSTS] if path not in HOST_ACTIONS}
    assert routes == ({("GET", p) for p in GETS + SEAT_GETS + HOST_GETS} | {("POST", p) for p in posts}
                      | {("POST", "/api/host/{action}")})


# ---- reads -------------------------------------------------------------------------------------

def test_pages_and_the_public_state_need_nothing(unchanged):
    assert unchanged.call("GET", "/").status == 200
    page = unchanged.call("GET", "/dashboard")
    assert page.status == 200 and unchanged.guard.token in page.body
    state = unchanged.call("GET", "/api/state")
    assert state.status == 200 and state.body["view"]["seats"] == 2
    assert "held" not in json.dumps(state.body)
    assert unchanged.call("GET", "/static/app.js").status == 200
    assert unchanged.call("GET", "/tv").status == 200


def test_the_tv_view_s_old_address_leads_to_it_with_its_options(unchanged):
    """A kiosk set up when the TV view was /table keeps working."""
    moved = unchanged.call("GET", "/table?sound=on")
    assert moved.status == 301 and moved.headers["Location"] == "/tv?sound=on"


@pytest.mark.parametrize("method, path, status, words", [
    ("GET", "/nope", 404, "nothing at /nope"),
    ("GET", "/api/sim/press", 405, "use POST"),
    ("POST", "/api/state", 405, "use GET"),
    ("POST", "/api/host/reboot", 404, "no host action 'reboot'"),
    ("GET", "/static/nope.js", 404, "nothing at"),
    ("GET", "/static/..%2Fserver.py", 404, "nothing at"),
    ("GET", "/api/names", 405, "use POST"),
    ("POST", "/api/history", 405, "use GET"),
    ("POST", "/api/dashboard/events", 405, "use GET"),
])
def test_unknown_places_and_methods_answer_json(unchanged, method, path, status, words):
    assert_refused(unchanged.call(method, path, {} if method == "POST" else None), status, words)


# ---- bodies ------------------------------------------------------------------------------------

@pytest.mark.parametrize("body, status, words", [
    (b"", 400, "not valid JSON"),
    (b"{seat: 1", 400, "not valid JSON"),
    (b"\xff\xfe", 400, "not valid JSON"),
    ([1, 2], 400, "must be a JSON object"),
    ({}, 400, "missing field 'seat'"),
    ({"control": "hole1", "pressed": True}, 400, "missing field 'seat'"),
    ({**PRESS, "seat": "1"}, 400, "'seat' must be a whole number"),
    ({**PRESS, "seat": True}, 400, "'seat' must be a whole number"),
    ({**PRESS, "seat": 1.5}, 400, "'seat' must be a whole number"),
    ({**PRESS, "seat": 0}, 400, "seats are 1 to 8"),
    ({**PRESS, "seat": 9}, 400, "seats are 1 to 8"),
    ({**PRESS, "control": "hole6"}, 400, "unknown control 'hole6'"),
    ({**PRESS, "control": None}, 400, "'control' must be a string"),
    ({**PRESS, "pressed": 1}, 400, "'pressed' must be true or false"),
    ({**PRESS, "extra": 1}, 400, "unknown field 'extra'"),
    (b"[" * 5000, 413, "too large"),
])
def test_a_bad_press_answers_400_with_the_reason(unchanged, body, status, words):
    assert_refused(unchanged.post("/api/sim/press", body), status, words)


@pytest.mark.parametrize("path", POSTS)
@pytest.mark.parametrize("body, status, words", [
    (b"seat=1", 415, "Content-Type: application/json"),
    (b"", 400, "not valid JSON"),
    (b'"pin"', 400, "must be a JSON object"),
    ({"pn": "1"}, 400, "unknown field 'pn'"),
    (b"{" * 5000, 413, "too large"),
])
def test_every_post_refuses_a_body_it_cannot_read(unchanged, path, body, status, words):
    headers = unchanged.headers(**{"Content-Type": "text/plain"}) if status == 415 else None
    assert_refused(unchanged.post(path, body, headers=headers), status, words)
    assert unchanged.session.state.match.seat_records() == 0 and unchanged.session.state.names == {}


@pytest.mark.parametrize("path, body, words", [
    ("/api/host/undo", {"pin": 1234}, "'pin' must be a string"),
    ("/api/host/undo", {"pn": "1"}, "unknown field 'pn'"),
    ("/api/host/lan-sim", {}, "missing field 'enabled'"),
    ("/api/host/lan-sim", {"enabled": "yes"}, "'enabled' must be true or false"),
])
def test_bad_host_bodies_answer_400(unchanged, path, body, words):
    assert_refused(unchanged.post(path, body), 400, words)


# ---- presses and host actions on 127.0.0.1 ------------------------------------------------------

def test_a_press_drives_the_mock_pin_and_reaches_the_lamps(live):
    assert live.session.lamps.lit()["seat1"] == ["dim"] * 5
    assert live.post("/api/sim/press", PRESS).status == 200
    assert live.hw.pin(1, "hole1").state == 0               # pulled low, as a finger does
    assert wait_for(lambda: live.session.lamps.lit()["seat1"] == ["on"] * 5)   # the ack flash
    assert live.post("/api/sim/press", {**PRESS, "pressed": False}).status == 200
    assert live.hw.pin(1, "hole1").state == 1


def test_host_actions_on_localhost_need_no_pin(live):
    assert_refused(live.post("/api/host/undo"), 409, "nothing to undo")
    assert_refused(live.post("/api/host/new-game"), 409, "not over")
    for control in ("hole1", "ok"):
        live.tap(1, control)
    assert wait_for(lambda: live.session.state.match.seat_records() == 1)
    assert live.post("/api/host/undo").status == 200
    assert wait_for(lambda: live.session.state.match.seat_records() == 0)
    seed = live.session.state.seed
    assert live.post("/api/host/end-game").status == 200
    assert live.session.state.seed == seed + 1


def test_a_game_ended_by_mistake_is_taken_up_where_it_was(live):
    for control in ("hole1", "ok"):
        live.tap(1, control)                                  # seat 1's pick, held
    assert wait_for(lambda: live.session.state.match.seat_records() == 1)
    ended = live.session.keeper.game_id
    assert live.post("/api/host/end-game").status == 200
    assert wait_for(lambda: live.call("GET", "/api/state").body["ended"] is True)
    assert live.session.keeper.game_id != ended                # the same game fixed: a fresh deal
    assert live.post("/api/host/take-up").status == 200
    live.quiet()                                               # and the page's reads say so
    assert live.session.keeper.game_id == ended
    assert live.session.state.match.seat_records() == 1 and list(live.session.state.match.held) == [1]
    assert live.call("GET", "/api/state").body["ended"] is False
    assert_refused(live.post("/api/host/take-up"), 409, "no ended game")
    assert live.session.keeper.journal.records.unfinished_id() == ended


def test_an_ended_game_stays_ended_once_the_next_one_is_played(live):
    assert live.post("/api/host/end-game").status == 200
    for control in ("hole2", "ok"):
        live.tap(2, control)                                  # someone has decided in the new game
    assert wait_for(lambda: live.session.state.match.seat_records() == 1)
    assert_refused(live.post("/api/host/take-up"), 409, "a new game has started since")


def test_a_box_on_real_panels_has_no_simulator(live_factory, monkeypatch):
    """The gpio backend, its pins on gpiozero's MockFactory and its OLEDs luma dummies: the dashboard only."""
    monkeypatch.setattr(gpio, "pin_factory", lambda name: MockFactory(pin_class=MockPWMPin))
    monkeypatch.setattr(gpio, "oled", lambda spec: dummy(width=spec.width, height=spec.height, mode="1"))
    box = live_factory(*GAME, backend="gpio")
    assert box.call("GET", "/").status == 302
    assert box.call("GET", "/dashboard").status == 200
    assert_refused(box.post("/api/sim/press", PRESS), 404, "no simulator: this box runs on real panels")
    assert_refused(box.call("GET", "/api/sim/events"), 404, "no simulator")
    assert_refused(box.post("/api/host/lan-sim", {"enabled": True}), 404, "no simulator")
    assert box.post("/api/names", {"seat": 2, "name": "Bo"}).status == 200
    assert wait_for(lambda: box.call("GET", "/api/state").body["names"] == {"2": "Bo"})


# ---- CSRF and the Host check ---------------------------------------------------------------------

@pytest.mark.parametrize("change, words", [
    ({TOKEN_HEADER: None}, "missing or wrong X-Molebox-Token"),
    ({TOKEN_HEADER: "not-the-token"}, "missing or wrong X-Molebox-Token"),
    ({TOKEN_HEADER: "tökén"}, "missing or wrong X-Molebox-Token"),
    ({"Origin": None}, "Origin"),
    ({"Origin": "http://evil.example"}, "Origin"),
    ({"Origin": "http://127.0.0.1:1"}, "Origin"),
    ({"Origin": "null"}, "Origin"),
])
def test_cross_site_posts_are_refused(live, change, words):
    headers = {k: v for k, v in {**live.headers(), **change}.items() if v is not None}
    for path, body in (("/api/sim/press", PRESS), ("/api/host/end-game", {})):
        assert_refused(live.post(path, body, headers=headers), 403, words)
    assert live.session.state.match.seat_records() == 0 and live.hw.pin(1, "hole1").state == 1


def test_a_rebound_host_name_is_refused(unchanged):
    """DNS rebinding: a page on evil.example resolved to 127.0.0.1 cannot read the token."""
    answer = unchanged.call("GET", "/dashboard", headers={"Host": f"evil.example:{unchanged.port}"})
    assert_refused(answer, 403, "unknown Host 'evil.example")
    assert unchanged.call("GET", "/dashboard", headers={"Host": f"localhost:{unchanged.port}"}).status == 200


# ---- LAN mode -----------------------------------------------------------------------------------

@pytest.fixture
def lan(live_factory):
    return live_factory(*GAME, lan=True)


def test_lan_reads_need_no_pin(lan):
    assert lan.call("GET", "/dashboard").status == 200
    assert lan.call("GET", "/api/state").status == 200
    assert "state" in {kind for kind, _ in lan.opened("/api/dashboard/events")}


@pytest.mark.parametrize("path, body", HOST_BODIES.items())
def test_lan_host_actions_without_the_pin_are_refused_and_change_nothing(lan, path, body):
    before = lan.call("GET", "/api/state").body, lan.session.state.seed
    assert_refused(lan.post(path, body), 403, "host PIN needed")
    assert_refused(lan.post(path, {**body, "pin": ""}), 403, "wrong host PIN")
    assert_refused(lan.post(path, {**body, "pin": lan.guard.pin + "0"}), 403, "wrong host PIN")
    assert (lan.call("GET", "/api/state").body, lan.session.state.seed) == before
    assert not lan.guard.lan_sim


def test_lan_host_actions_need_the_pin(lan):
    seed = lan.session.state.seed
    assert lan.post("/api/host/end-game", {"pin": lan.guard.pin}).status == 200
    assert lan.session.state.seed == seed + 1


def test_lan_wrong_pins_lock_host_actions_for_a_while(lan):
    for _ in range(WRONG_IN_A_ROW):
        assert lan.post("/api/host/undo", {"pin": "nope"}).status == 403
    assert_refused(lan.post("/api/host/undo", {"pin": lan.guard.pin}), 429, "too many wrong PINs")


def test_lan_refuses_the_simulator_until_the_host_opens_it(lan):
    assert_refused(lan.post("/api/sim/press", PRESS), 403, "simulator is off in LAN mode")
    assert_refused(lan.call("GET", "/api/sim/events"), 403, "simulator is off")
    assert lan.call("GET", "/").status == 302
    assert lan.hw.pin(1, "hole1").state == 1
    assert_refused(lan.post("/api/host/lan-sim", {"enabled": True}), 403, "host PIN needed")
    assert lan.post("/api/host/lan-sim", {"enabled": True, "pin": lan.guard.pin}).body["lanSim"] is True
    assert lan.post("/api/sim/press", PRESS).status == 200
    assert lan.call("GET", "/").status == 200
    assert lan.post("/api/host/lan-sim", {"enabled": False, "pin": lan.guard.pin}).status == 200
    assert lan.post("/api/sim/press", {**PRESS, "pressed": False}).status == 403


def test_lan_sim_flag_opens_the_simulator_from_the_start(live_factory):
    box = live_factory(*GAME, lan=True, lan_sim=True)
    assert box.post("/api/sim/press", PRESS).status == 200


def test_lan_accepts_addresses_and_local_names_but_not_other_names(lan):
    for host in ("192.168.1.20", "[fe80::1]", "molebox.local", "localhost"):
        assert lan.call("GET", "/api/state", headers={"Host": f"{host}:{lan.port}"}).status == 200, host
    assert lan.call("GET", "/api/state", headers={"Host": "evil.example"}).status == 403


def test_the_pin_is_on_the_table_display_and_never_on_the_dashboard(lan):
    events = lan.opened("/api/dashboard/events")
    assert {kind for kind, _ in events} == {"state", "turns", "table"}
    streamed = frame_image(next(json.loads(data) for kind, data in events if kind == "table"))
    rendered = lan.session.screens.worker.frames["table"].convert("1")
    device = lan.hw.displays()["table"].image.convert("1")
    assert ImageChops.difference(streamed, rendered).getbbox() is None
    corner = ImageChops.difference(device, rendered).getbbox()
    assert corner is not None and corner[2:] == (128, 64) and corner[1] >= 32   # only the bottom-right stamp differs


# ---- streams ------------------------------------------------------------------------------------

def test_a_page_gone_before_its_stream_begins_is_let_go_without_an_error(live, caplog):
    """A guest's phone that drops its connection while the box is busy: the box comes to its stream after the
    connection went, and lets it go as aiohttp does any page that left (no error, no stream kept)."""
    hub, handled = live.site.hub, threading.Event()

    async def late(request):            # the box's stream, begun only once the page has gone
        try:
            while request.transport is not None and not request.transport.is_closing():
                await asyncio.sleep(0.005)
            return await hub.stream(request, topics.DASHBOARD, False)
        finally:
            handled.set()

    async def serve():
        app = web.Application()
        app.router.add_get("/late", late)
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return runner, runner.addresses[0][1]

    runner, port = asyncio.run_coroutine_threadsafe(serve(), hub.loop).result(10)
    streams = len(hub.streams)
    try:
        with caplog.at_level(logging.DEBUG), socket.create_connection(("127.0.0.1", port)) as page:
            page.sendall(b"GET /late HTTP/1.1\r\nHost: molebox\r\n\r\n")
            page.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))     # gone at once: a reset
        assert handled.wait(10)
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0), hub.loop).result(10)     # what the handler left, done
        assert len(hub.streams) == streams
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), hub.loop).result(10)


def test_the_dashboard_stream_carries_the_public_state_and_the_table_only(live):
    live.tap(1, "hole3")
    events = live.opened("/api/dashboard/events")
    assert {kind for kind, _ in events} == {"state", "turns", "table"}
    assert all(json.loads(data) for _, data in events)


def test_the_dashboard_turns_come_as_appends_each_from_the_turn_that_changed(live):
    dashboard = Recording(live, "/api/dashboard/events")

    def told() -> list[dict]:
        return [json.loads(data) for kind, data in list(dashboard.events) if kind == "turns"]

    def shown() -> list[dict]:
        turns_shown = []
        for message in told():
            turns_shown = turns_shown[:message["from"]] + message["turns"]
        return turns_shown

    def shows(count: int) -> bool:
        expected = turns.told(tv.named(live.session.public()), live.session.state.match.public_log())
        return len(expected) == count and shown() == expected

    assert wait_for(lambda: told() == [{"from": 0, "turns": []}])
    for seat, control in WINNING_GAME[:8]:
        live.tap(seat, control)
    assert wait_for(lambda: shows(1))
    first_turn = len(told())
    for seat, control in WINNING_GAME[8:16]:
        live.tap(seat, control)
    assert wait_for(lambda: shows(2))
    assert live.post("/api/host/undo").status == 200          # the second turn's reveal taken back
    assert wait_for(lambda: shows(1))
    dashboard.close()
    assert all(message["from"] == 1 for message in told()[first_turn:])   # the first turn is never told again
    assert shown()[0]["title"] == "Turn 1" and shown()[0]["lines"][0].startswith("Seat 1 popped up")
    assert shown() == turns.told(tv.named(live.session.public()), live.call("GET", "/api/state").body["log"])


def test_the_sim_stream_carries_lamps_and_every_display_in_use(live):
    events = live.opened("/api/sim/events")
    kinds = [kind for kind, _ in events]
    assert {"state", "lamps", "frame"} == set(kinds)
    names = {json.loads(data)["name"] for kind, data in events if kind == "frame"}
    assert {"seat1", "seat2", "table"} <= names


def test_news_that_came_while_the_web_loop_was_busy_reaches_a_page_once_at_its_latest(live):
    published: list[str] = []                              # each public state the session sent, as JSON

    def heard(kind: str, payload) -> None:
        if kind == "state":
            published.append(json.dumps({key: value for key, value in payload.items() if key != "log"},
                                        sort_keys=True))

    live.session.feed.subscribe(heard)
    sim = Recording(live, "/api/sim/events")
    live.quiet(sim)                                        # its opening snapshot is sent, the lamps are steady
    opening = len(sim.events)
    before = len(published)
    busy = threading.Event()
    live.site.loop.call_soon_threadsafe(busy.wait, 60)    # the web loop is busy until the presses are over
    try:
        for seat, control in WINNING_GAME[:8]:             # seat 1 decides, then seat 2: the turn is revealed
            live.press(seat, control)
        quiet(live.session)                                # every flip has ended, the web loop still busy
        during = len(set(published[before:]))
    finally:
        busy.set()
    live.quiet(sim)
    states = [json.loads(data) for kind, data in sim.events[opening:] if kind == "state"]
    assert during >= 3 and len(states) == 1                # the latest alone
    latest = {key: value for key, value in live.call("GET", "/api/state").body.items() if key != "log"}
    assert states[-1] == latest != json.loads(next(data for kind, data in sim.events if kind == "state"))


# ---- names, history and stats ----------------------------------------------------------------------

WINNING_GAME = [(1, "hole1"), (1, "ok"), (1, "hole5"), (1, "ok"), (2, "hole2"), (2, "ok"), (2, "hole1"), (2, "ok"),
                (1, "hole1"), (1, "ok"), (1, "hole3"), (1, "ok"), (2, "hole4"), (2, "ok"), (2, "hole1"), (2, "ok")]


def play_the_winning_game(live) -> None:
    """Seat 2 hits seat 1's pop-up twice: 0 to 15 after two turns (target 12)."""
    for seat, control in WINNING_GAME:
        live.tap(seat, control)
    assert wait_for(lambda: live.session.state.match.over)


def test_names_show_on_the_state_the_history_and_the_terminal(live, capsys):
    from companion import cli

    assert live.call("GET", "/api/history").body == {"games": [], "stats": {"players": {}, "games": {}}}
    assert live.post("/api/names", {"seat": 1, "name": "  Ada   Lovelace "}).body["name"] == "Ada Lovelace"
    assert live.post("/api/names", {"seat": 2, "name": "Bo"}).status == 200
    assert wait_for(lambda: live.call("GET", "/api/state").body["names"] == {"1": "Ada Lovelace", "2": "Bo"})
    play_the_winning_game(live)
    assert wait_for(lambda: live.call("GET", "/api/history").body["games"])
    history = live.call("GET", "/api/history").body
    [game] = history["games"]
    assert (game["names"], game["scores"], game["winners"], game["title"]) == (
        ["Ada Lovelace", "Bo"], [0, 15], [2], "Whakka Mole")
    assert game["history"] == [[0, 7], [0, 15]]
    assert history["stats"]["players"] == {"Bo": {"wins": 1, "games": 1}, "Ada Lovelace": {"wins": 0, "games": 1}}
    assert cli.main(["history", "--db", str(live.session.keeper.journal.path)]) == 0
    assert "Ada Lovelace (0), Bo (15) | Bo |" in capsys.readouterr().out
    assert cli.main(["stats", "--db", str(live.session.keeper.journal.path)]) == 0
    assert "| Bo | 1 | 1 |" in capsys.readouterr().out


def test_names_carry_over_to_the_next_game_and_can_be_taken_away(live):
    live.post("/api/names", {"seat": 2, "name": "Bo"})
    assert live.post("/api/host/end-game").status == 200
    assert wait_for(lambda: live.call("GET", "/api/state").body["names"] == {"2": "Bo"})
    assert live.session.keeper.journal.records.names(live.session.keeper.game_id) == {2: "Bo"}
    assert live.post("/api/names", {"seat": 2, "name": " "}).body["name"] is None
    assert wait_for(lambda: live.call("GET", "/api/state").body["names"] == {})
    assert live.session.keeper.journal.records.names(live.session.keeper.game_id) == {}


@pytest.mark.parametrize("body, status, words", [
    ({"seat": 1}, 400, "missing field 'name'"),
    ({"seat": 1, "name": "x" * 17}, 400, "at most 16 characters"),
    ({"seat": 1, "name": "a|b"}, 400, "other than |"),
    ({"seat": 1, "name": "tab\tbell\x07"}, 400, "punctuation"),
    ({"seat": 9, "name": "Ada"}, 400, "seats are 1 to 8"),
    ({"seat": 3, "name": "Ada"}, 409, "seat 3 is not playing; seats are 1 to 2"),
    ({"seat": "1", "name": "Ada"}, 400, "'seat' must be a whole number"),
])
def test_bad_names_answer_4xx_with_the_reason(unchanged, body, status, words):
    assert_refused(unchanged.post("/api/names", body), status, words)
    assert unchanged.call("GET", "/api/state").body["names"] == {}


@pytest.mark.parametrize("query, words", [
    ("?limit=0", "limit must be a whole number from 1 to 200, not '0'"),
    ("?limit=-1", "not '-1'"),
    ("?limit=ten", "not 'ten'"),
    ("?limit=201", "from 1 to 200"),
    ("?since=1", "unknown parameter 'since'"),
])
def test_a_bad_history_query_answers_400(unchanged, query, words):
    assert_refused(unchanged.call("GET", "/api/history" + query), 400, words)


def test_names_in_the_lobby_are_refused_until_a_game_starts(live_factory):
    box = live_factory()
    assert_refused(box.post("/api/names", {"seat": 1, "name": "Ada"}), 409, "seat 1 is choosing one")


def test_lan_names_need_the_pin(lan):
    assert_refused(lan.post("/api/names", {"seat": 1, "name": "Ada"}), 403, "host PIN needed")
    assert lan.post("/api/names", {"seat": 1, "name": "Ada", "pin": lan.guard.pin}).status == 200
    assert lan.call("GET", "/api/history").status == 200           # reads need none
