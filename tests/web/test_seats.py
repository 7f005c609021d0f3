"""Phone seats over real HTTP: joining by the table display's QR code, each seat's stream its own,
presses by the panel's path, bad input refused, reconnects, the host freeing a seat, and the
non-interference of every seat's stream and the dashboard's."""
from __future__ import annotations

import json
import time

import pytest
from PIL import Image

from companion.inputs import HOLD_S
from companion.web.phone_keys import BURST, CODE_LENGTH, RATE
from companion.render import describe
from companion.render.screen import as_dict
from companion.table.press import HOST_UNDO
from companion.web.site import seat_cookie
from tests.waiting import TIMEOUT_S, wait_for
from tests.webclient import Phone, Recording, frame_image, note

from .test_http import assert_refused

zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp reads the QR codes as a phone's camera does")

MIXED = ("--panels", "1", "--phones", "2", "--game", "whakka-mole", "--seats", "3", "--set", "target=12")


def table_qr(live) -> str | None:
    """The address in the QR code the table display shows now (None: no QR code, or nothing drawn yet),
    read off the frame a dashboard opened now is shown."""
    frame = live.now("/api/dashboard/events").get("table")
    if frame is None:
        return None
    image = frame_image(frame).convert("L").resize((512, 256), Image.NEAREST)
    found = zxingcpp.read_barcodes(image)
    return found[0].text if found else None


def offered(live, besides: str | None = None) -> str:
    """The join address the table display's QR code offers, once there is one other than ``besides``."""
    read: list[str | None] = []
    assert wait_for(lambda: read.append(table_qr(live)) or read[-1] not in (None, besides), TIMEOUT_S), read[-1:]
    return read[-1]


def described(live, name: str) -> dict:
    """What the box shows on a display now, as a page is sent it: the description of the screen last asked of it."""
    drawing, *args = live.session.screens.screen(name)
    return as_dict(describe(drawing, tuple(args)))


def code_of(url: str) -> str:
    """What a phone that scans the QR code joins with: the seat's code and its key."""
    return url.rsplit("/", 1)[1]


def joins_at(live, seat: int) -> str:
    """The end of the address a free seat's QR code says: its code, then its key."""
    return f"/J/{live.site.phones.codes[seat]}{live.site.phones.keys[seat]}"


def typed(url: str) -> str:
    """What a phone whose player types the code joins with: the code the table display shows."""
    return code_of(url)[:CODE_LENGTH]


def phone(live, address: str | None = None) -> Phone:
    return Phone(live.port, live.token, address)


def seated(live, *seats: int) -> list[Phone]:
    """Phones joined at the table display's seats in order, each with its stream open."""
    phones, url = [], None
    for _ in seats:
        url = offered(live, url)
        p = phone(live)
        assert p.join(code_of(url)).status == 200
        p.connect()
        phones.append(p)
    assert [p.seat for p in phones] == list(seats)
    return phones


@pytest.fixture
def mixed(live_factory):
    return live_factory(*MIXED)


# ---- joining -----------------------------------------------------------------------------------

def test_the_table_display_offers_each_free_phone_seat_by_qr_code_until_all_are_taken(mixed):
    url = offered(mixed)
    assert url.startswith(f"HTTP://127.0.0.1:{mixed.port}/J/")
    page = mixed.call("GET", url.split(str(mixed.port), 1)[1])          # the address a camera opens
    assert page.status == 200 and mixed.guard.token in page.body
    first = phone(mixed)
    answer = first.join(code_of(url).lower())                  # typed in small letters: still good
    assert answer.status == 200 and answer.body == {"ok": True, "seat": 2, "page": "/seat/2"}
    cookie = answer.headers["Set-Cookie"]
    assert cookie.startswith(seat_cookie(2) + "=") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert phone(mixed).join(code_of(offered(mixed, url))).body["seat"] == 3
    assert wait_for(lambda: table_qr(mixed) is None)                     # every seat taken: the game's table
    assert mixed.call("GET", "/api/seats").body == {"2": "away", "3": "away"}


def test_a_seat_s_stream_carries_that_seat_alone(mixed):
    two, three = seated(mixed, 2, 3)
    assert mixed.call("GET", "/api/seats").body == {"2": "connected", "3": "connected"}
    two.tap("hole2")
    mixed.quiet(two.stream, three.stream)
    for p in (two, three):
        assert {kind for kind, _ in p.events} == {"hello", "lamps", "screen", "tv"}   # never a frame or the state
        assert all(len(json.loads(data)) == 5 for kind, data in p.events if kind == "lamps")
        assert p.latest("screen") == described(mixed, f"seat{p.seat}")               # its own screen, in words
    assert two.latest("screen") != three.latest("screen")
    assert two.latest("tv") == three.latest("tv") == mixed.now("/api/tv/events")["tv"]   # the room's table


def test_phones_and_a_panel_play_a_turn_by_the_panel_s_path(mixed):
    two, three = seated(mixed, 2, 3)
    mixed.tap(1, "hole1", "ok", "hole5", "ok")                          # the panel seat, on its mock pins
    two.tap("hole2", "ok", "hole1", "ok")
    three.tap("hole3", "ok", "hole1", "ok")
    assert wait_for(lambda: any(e["kind"] == "reveal" for e in mixed.session.state.match.public_log()))
    reveal = next(e for e in mixed.session.state.match.public_log() if e["kind"] == "reveal")
    assert set(reveal["picks"]) == {1, 2, 3} or set(reveal["picks"]) == {"1", "2", "3"}


# ---- bad input: refused with 4xx, nothing applied ---------------------------------------------------

def test_a_seat_needs_its_own_token(mixed):
    two, three = seated(mixed, 2, 3)
    before = mixed.session.public()
    stranger = phone(mixed, "127.0.0.2")
    stranger.seat = 2
    assert_refused(stranger.call("GET", "/api/seat/2/events"), 403, "has not joined seat 2")
    stranger.cookies[seat_cookie(2)] = "forged" + "x" * 26
    assert_refused(stranger.call("GET", "/api/seat/2/events"), 403, "does not hold seat 2")
    assert_refused(stranger.press("hole1", True, two.stream_id), 403, "does not hold seat 2")
    two_for_three = two.post("/api/seat/3/press", {"control": "hole1", "pressed": True, "stream": two.stream_id})
    assert_refused(two_for_three, 403, "has not joined seat 3")
    assert_refused(two.press("hole9", True), 400, "unknown control")
    assert_refused(two.call("GET", "/api/seat/1/events"), 404, "seat 1 is not a phone seat")
    assert mixed.session.public() == before
    assert mixed.session.state.drafts[2].summary(None) == mixed.session.state.drafts[3].summary(None)


def test_an_expired_seat_token_is_refused(mixed):
    two, = seated(mixed, 2)
    mixed.site.phones.clock = lambda: time.monotonic() + 13 * 3600
    assert_refused(two.press("hole1", True), 403, "has expired")
    assert_refused(two.call("GET", "/api/seat/2/events"), 403, "has expired")


def test_a_wall_clock_stepped_a_day_on_mid_game_leaves_every_phone_seat_held(mixed, monkeypatch):
    """A Pi boots on its last saved time and NTP steps it, often by hours or days, after the box started."""
    two, = seated(mixed, 2)
    stepped = time.time() + 24 * 3600
    monkeypatch.setattr(time, "time", lambda: stepped)                       # the wall clock, whoever reads it
    monkeypatch.setattr(mixed.site.phones, "wall", lambda: stepped, raising=False)
    assert two.press("hole1", True).status == 200
    assert two.press("hole1", False).status == 200


def test_a_held_seat_is_not_taken_by_a_second_device(mixed):
    code = code_of(offered(mixed))
    first = phone(mixed)
    assert first.join(code).status == 200
    first.connect()
    thief = phone(mixed, "127.0.0.3")
    assert_refused(thief.join(code), 409, "seat 2 is held by another phone: the host can free it")
    assert first.join(code).status == 200 and "Set-Cookie" not in first.join(code).headers   # its own: no change
    first.tap("hole1")                                                   # still the holder's


def test_wrong_join_codes_lock_the_guesser_out(mixed):
    guesser = phone(mixed, "127.0.0.4")
    for code in ("ZZZZZ", "zzzzz", "ÄÖÜ✓\udcff", "", "A" * 500):
        assert_refused(guesser.join(code), 403, "no seat has that join code")
    assert_refused(guesser.join(typed(offered(mixed))), 429, "too many wrong join codes")
    assert guesser.join(code_of(offered(mixed))).status == 200     # its QR code's key is no guess: it joins


def test_a_flood_of_presses_from_one_phone_is_cut_off(mixed):
    two, = seated(mixed, 2)
    edges, post = [], mixed.session.post

    def counted(edge):
        edges.append(edge)
        post(edge)
    mixed.session.post = counted
    now = [100.0]                                      # the flood comes all at once, however busy the machine
    mixed.site.phones.clock = lambda: now[0]
    downs = [two.press("hole1", pressed).status for _ in range(int(BURST) + 20) for pressed in (True, False)][::2]
    assert downs == [200] * int(BURST) + [429] * 20
    assert len([edge for edge in edges if edge.pressed]) == downs.count(200)     # a refused press is not applied
    assert_refused(two.press("hole1", True), 429, "too many presses at once; slow down")
    now[0] += 2 / RATE
    assert two.press("hole1", True).status == 200                           # a moment later it plays again


# ---- reconnects ------------------------------------------------------------------------------

def test_a_phone_that_drops_comes_back_to_its_seat_and_screen_and_a_stale_press_is_refused(mixed):
    two, three = seated(mixed, 2, 3)
    two.tap("hole4")
    old = two.stream_id
    two.drop()
    assert wait_for(lambda: mixed.call("GET", "/api/seats").body["2"] == "away")
    assert_refused(two.press("hole2", True, old), 409, "lost the box")        # sent while away: never applied
    two.connect()                                                             # its cookie: the same seat
    assert two.stream_id != old
    assert_refused(two.press("ok", True, old), 409, "press again")            # a late one from before: refused
    mixed.quiet(two.stream)
    assert two.latest("screen") == described(mixed, "seat2")                  # the screen it came back to
    assert two.latest("screen")["board"]["marked"] == [4]                     # hole 4 popped up, as it left it
    two.tap("ok")


# ---- the host frees a seat ---------------------------------------------------------------------

def test_the_host_frees_a_lost_phone_s_seat_for_another_device(live_factory):
    box = live_factory(*MIXED, lan=True)
    two, = seated(box, 2)
    assert_refused(box.post("/api/host/free-seat", {"seat": 2}), 403, "host PIN needed")
    assert two.press("hole1", True).status == 200
    answer = box.post("/api/host/free-seat", {"seat": 2, "pin": box.guard.pin})
    assert answer.status == 200 and answer.body == {"ok": True, "seat": 2, "held": True}
    assert wait_for(lambda: not two.stream.open)                    # its page is cut off
    assert_refused(two.press("hole1", True), 403, "does not hold seat 2")
    assert wait_for(lambda: (table_qr(box) or "").endswith(joins_at(box, 2)), TIMEOUT_S)
    newcomer = phone(box, "127.0.0.5")                              # the table display offers seat 2 again
    assert newcomer.join(code_of(table_qr(box))).body["seat"] == 2
    newcomer.connect()
    newcomer.tap("hole1")


# ---- secrets: every other seat's stream and the dashboard's are the same whatever one seat picks ----

PHONES_ONLY = ("--panels", "0", "--phones", "3", "--game", "whakka-mole", "--seats", "3", "--set", "target=12")


@pytest.mark.parametrize("pick_a, pick_b", [
    (("hole1", "hole2", "ok", "hole3", "ok"), ("hole5", "ok", "hole1", "ok")),     # seat 1 locked in
    (("hole4", "ok", "hole4"), ("ok", "hole2")),                                  # seat 1 mid-draft
])
def test_every_other_seat_the_dashboard_and_the_table_learn_the_same_whatever_one_seat_picks_until_the_reveal(
        live_factory, pick_a, pick_b):
    """Two games that differ only in seat 1's picks. Each listener is compared by what it could learn: what
    its stream had shown it of every topic (a phone: its lamps, its screen in words and the room's table; the
    TV: the room's table and the join codes; the dashboard: the state, the turns told and the table
    display's frame) each time the box was quiet, one press at a time. Whole event sequences are not compared: the hub sends each topic at its
    latest when its loop is free, so how news is batched, and whether a 120 ms lamp flash shows at all,
    depends on the machine's load."""
    learnt_by = []
    for pick in (pick_a, pick_b):
        box = live_factory(*PHONES_ONLY)
        phones = seated(box, 1, 2, 3)
        assert wait_for(lambda: table_qr(box) is None, TIMEOUT_S)
        heard = {"seat1": phones[0].stream, "seat2": phones[1].stream, "seat3": phones[2].stream,
                 "dashboard": Recording(box, "/api/dashboard/events"), "table": Recording(box, "/api/tv/events")}
        timelines: dict[str, list] = {name: [] for name in heard}
        presses = [(phones[1], control) for control in ("hole1", "ok", "hole2")]      # seat 2 mid-draft, alike
        presses += [(phones[0], control) for control in pick]
        for seat, control in [(None, None)] + presses:      # one at a time: each listener shown all of each
            if seat is not None:
                seat.tap(control)
            box.quiet(*heard.values())
            for name, stream in heard.items():
                note(timelines[name], stream.events)
        assert not any(e["kind"] == "reveal" for e in box.session.state.match.public_log())
        learnt_by.append(timelines)
    for listener in ("seat2", "seat3", "dashboard", "table"):
        assert learnt_by[0][listener] == learnt_by[1][listener], listener
    locked = "locked in" if pick_a[-1] == "ok" else "choosing"
    for listener in ("seat2", "seat3", "table"):                   # each was shown the table as it went on
        assert [player["doing"] for player in learnt_by[0][listener][-1]["tv"]["players"]] == [locked, "choosing",
                                                                                              "choosing"]
    assert learnt_by[0]["seat1"] != learnt_by[1]["seat1"]            # the seat itself sees its own pick


def test_without_a_table_display_seat_1_s_lobby_offers_each_phone_seat_as_it_steps_through_the_players(
        live_factory):
    box = live_factory("--wiring", "gpio-2", "--panels", "1", "--phones", "2")

    def seat1_qr():
        image = box.frames("seat1")["seat1"].convert("L").resize((512, 256), Image.NEAREST)
        found = zxingcpp.read_barcodes(image)
        return found[0].text if found else None

    box.tap(1, "hole1", "ok", "hole2", "ok")           # Whakka Mole, 3 seats, on to the players
    assert wait_for(lambda: box.session.state.lobby.stage == "players")
    assert seat1_qr() is None                          # seat 1 itself: the players menu
    box.tap(1, "hole2")
    assert wait_for(lambda: (seat1_qr() or "").endswith(joins_at(box, 2)))
    assert phone(box).join(box.site.phones.codes[2]).body["seat"] == 2
    assert wait_for(lambda: seat1_qr() is None)        # seat 2 is held now
    box.tap(1, "hole2")
    assert wait_for(lambda: (seat1_qr() or "").endswith(joins_at(box, 3)))


def test_the_lobby_plays_a_panel_seat_on_a_phone_and_the_panel_then_keeps_the_seat_s_screen_off_its_glass(
        live_factory):
    from companion.render.lobby import on_phone

    box = live_factory("--panels", "3")

    box.press(1, "hole1", "ok", "hole2", "ok", "hole2", "hole4")   # Whakka Mole, 3 seats, players: seat 2 on a phone
    assert wait_for(lambda: box.call("GET", "/api/seats").body == {"2": "free"})
    two = phone(box)
    assert two.join(code_of(offered(box))).body["seat"] == 2
    two.connect()
    box.session.screens.worker.flush()
    assert box.hw.displays()["seat2"].image.convert("1").tobytes() == on_phone(2).tobytes()    # the panel's glass
    box.quiet(two.stream)
    assert two.latest("screen") == described(box, "seat2") and "On a phone" not in json.dumps(two.latest("screen"))
    lamps = box.session.lamps.lit()["seat2"]
    box.press(2, "hole1")                                          # the panel no longer plays seat 2...
    box.quiet()
    assert box.session.lamps.lit()["seat2"] == lamps and box.session.scene().notices.get(2) is None
    two.tap("hole1")                                           # ... its phone does (seat 1 chooses: refused)
    assert wait_for(lambda: box.session.scene().notices.get(2) == "seat 1 chooses the game")

    box.press(1, "hole4")                                          # seat 2 back on its panel
    assert wait_for(lambda: box.call("GET", "/api/seats").body == {})
    assert wait_for(lambda: not two.stream.open)
    assert_refused(two.press("hole1", True), 404, "seat 2 is not a phone seat")
    box.session.screens.worker.flush()
    assert box.hw.displays()["seat2"].image.convert("1").tobytes() == box.session.screens.rendered("seat2").tobytes()


# ---- host actions from a phone -------------------------------------------------------------------

def glass_qr(live) -> str | None:
    """The address in the QR code on the table display's own glass (None: none), as a player's camera reads it."""
    live.session.screens.worker.flush()
    image = live.hw.displays()["table"].image.convert("L").resize((512, 256), Image.NEAREST)
    found = zxingcpp.read_barcodes(image)
    return found[0].text if found else None


def joined_at_the_table(live, *addresses: str) -> list[Phone]:
    """Phones from ``addresses`` (other devices on the LAN), each joined by the code on the table's glass."""
    phones, url = [], None
    for address in addresses:
        read: list[str | None] = []
        assert wait_for(lambda: read.append(glass_qr(live)) or read[-1] not in (None, url))
        url = read[-1]
        p = phone(live, address)
        assert p.join(code_of(url)).status == 200
        p.connect()
        phones.append(p)
    return phones


def hold_ok(p: Phone) -> None:
    assert p.press("ok", True).status == 200
    time.sleep(HOLD_S + 0.3)
    assert p.press("ok", False).status == 200


def seat_screen(p: Phone, live) -> dict:
    """What the phone's seat page says once the box has shown its seat's screen for the scene it is in now."""
    live.quiet(p.stream)
    assert p.latest("screen") == described(live, f"seat{p.seat}")
    return p.latest("screen")


def test_seat_1_s_phone_undoes_the_table_s_decisions_only_from_the_host_s_device(live_factory):
    live = live_factory("--panels", "0", "--phones", "3", "--game", "whakka-mole", "--seats", "3", "--set",
                        "target=12", lan=True)
    one, two, three = joined_at_the_table(live, "127.0.0.2", "127.0.0.3", "127.0.0.4")
    for p, holes in ((one, ("hole1", "hole5")), (two, ("hole2", "hole1")), (three, ("hole4", "hole3"))):
        p.tap(holes[0], "ok", holes[1], "ok")
    session = live.session
    assert wait_for(lambda: any(e["kind"] == "reveal" for e in session.public()["log"]))
    records = len(session.state.match.records)

    hold_ok(one)                                         # the phone at seat 1 is a player's, not the host's
    assert wait_for(lambda: session.scene().notices.get(1) == HOST_UNDO)
    before = seat_screen(one, live)
    assert len(session.state.match.records) == records
    assert two.post("/api/host/undo", {}).status == 403       # as the dashboard's Undo asks for the PIN

    assert one.post("/api/host/login", {"pin": live.guard.pin}).status == 200     # the host's own phone
    hold_ok(one)
    assert wait_for(lambda: session.scene().notices.get(1) == "hold OK again to undo the reveal")
    hold_ok(one)
    assert wait_for(lambda: len(session.state.match.records) < records)
    assert not any(e["kind"] == "reveal" for e in session.public()["log"])
    assert seat_screen(one, live) != before
