"""A phone guessing PINs locks out only itself; the host stays the host; the PIN never leaves the box's glass.

Devices are told apart by their address, as the box tells them apart: each test client
connects from its own 127.0.0.x address.
"""
from __future__ import annotations

import json
import re

import pytest
from PIL import Image

from companion import cli
from companion.inputs import HOLD_S
from companion.render import lobby as lobby_screens, oled
from companion.web import auth
from companion.web.auth import FREE_PINS, HOST_COOKIE
from companion.web.guesses import LOCKOUT_S, WRONG_IN_A_ROW, PerAddress
from companion.render.host_pin import screen as pin_screen
from companion.web.host_pin import HostPin, pin_path
from tests.waiting import TIMEOUT_S, on_loop, wait_for
from tests.webclient import frame_image

from .conftest import GAME


@pytest.fixture
def lan(live_factory):
    return live_factory(*GAME, lan=True, lan_sim=True)


def guess_wrong(device, times: int = WRONG_IN_A_ROW) -> None:
    for _ in range(times):
        assert device.post("/api/host/login", {"pin": "x"}).status in (403, 429)


def test_the_host_who_entered_the_pin_is_never_refused_because_of_a_guessing_phone(lan):
    host, guesser, latecomer = (lan.as_device(f"127.0.0.{n}") for n in (2, 3, 4))
    answer = host.post("/api/host/login", {"pin": lan.guard.pin})
    assert answer.status == 200 and HOST_COOKIE in host.cookies
    guess_wrong(guesser)
    refused = guesser.post("/api/host/login", {"pin": lan.guard.pin})
    assert refused.status == 429 and "from this device" in refused.body["error"]
    for _ in range(3):                                   # the night goes on: no PIN asked again
        assert host.post("/api/host/end-game", {}).status == 200
    assert latecomer.post("/api/host/login", {"pin": lan.guard.pin}).status == 200


def test_the_host_cookie_is_httponly_samesite_strict_and_good_for_the_night(lan):
    host = lan.as_device("127.0.0.2")
    answer = host.post("/api/host/login", {"pin": lan.guard.pin})
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert int(re.search(r"Max-Age=(\d+)", cookie).group(1)) >= 8 * 3600
    assert '"host": true' in host.call("GET", "/dashboard").body.replace("&quot;", '"')
    assert host.post("/api/host/logout", {}).status == 200 and HOST_COOKIE not in host.cookies
    assert host.post("/api/host/end-game", {}).status == 403


def test_a_host_cookie_logged_out_is_refused_wherever_a_copy_comes_from_and_after_a_restart(lan, tmp_path):
    host, other = lan.as_device("127.0.0.2"), lan.as_device("127.0.0.3")
    assert host.post("/api/host/login", {"pin": lan.guard.pin}).status == 200
    other.cookies[HOST_COOKIE] = host.cookies[HOST_COOKIE]         # seen over plain HTTP, and kept
    assert other.post("/api/host/end-game", {}).status == 200
    assert host.post("/api/host/logout", {}).status == 200           # "Lock it again"
    refused = other.post("/api/host/end-game", {})
    assert refused.status == 403 and "host PIN needed" in refused.body["error"]
    again = lan.as_device("127.0.0.2")                              # the host itself logs in again: a new cookie
    assert again.post("/api/host/login", {"pin": lan.guard.pin}).status == 200
    assert again.post("/api/host/end-game", {}).status == 200 and other.post("/api/host/end-game", {}).status == 403

    kept = HostPin(tmp_path / "molebox.pin")                        # the box restarts on the same PIN file
    kept.revoke("0123456789abcdef")
    assert HostPin(tmp_path / "molebox.pin").revoked("0123456789abcdef")
    assert HostPin(tmp_path / "molebox.pin").pin == kept.pin


def test_the_host_stays_the_host_when_the_wall_clock_steps_a_day_on_and_a_cookie_of_another_boot_goes_by_it(
        lan, monkeypatch):
    """A Pi boots on its last saved time and NTP steps it, often by hours or days, after the box started: while
    the Pi stays up the night is measured on the monotonic clock; a cookie from before a reboot, on the wall's."""
    host = lan.as_device("127.0.0.2")
    assert host.post("/api/host/login", {"pin": lan.guard.pin}).status == 200
    monkeypatch.setattr(lan.guard, "wall", lambda: auth.time.time() + 24 * 3600)
    assert host.post("/api/host/end-game", {}).status == 200          # the same boot: still the host
    monkeypatch.setattr(lan.guard, "boot", "another-boot")
    assert host.post("/api/host/end-game", {}).status == 403          # rebooted, and its night is over by the wall
    monkeypatch.undo()
    assert host.post("/api/host/end-game", {}).status == 200


@pytest.mark.parametrize("forged", ["9999999999.00", "1.{sig}", "{signed}.{sig}x", "{signed}", "{signed}.{sig}",
                                    "{until}.{sig}"])
def test_a_forged_or_expired_cookie_is_refused(lan, forged):
    until = "9999999999"
    signed = f"{until}.{lan.guard.boot}.{until}.0123456789abcdef"
    sig = auth.hmac.new(b"not the box's key", signed.encode(), auth.hashlib.sha256).hexdigest()
    device = lan.as_device("127.0.0.2")
    device.cookies[HOST_COOKIE] = forged.format(until=until, signed=signed, sig=sig)
    assert device.post("/api/host/end-game", {}).status == 403
    assert lan.session.state.seed == 0


def test_lockouts_grow_for_a_device_that_keeps_guessing():
    now = [0.0]
    guesses = PerAddress(lambda: now[0])
    waits = []
    for _ in range(4):
        for _ in range(WRONG_IN_A_ROW):
            guesses.wrong("10.0.0.9")
        waits.append(guesses.wait("10.0.0.9"))
        now[0] += waits[-1]
    assert waits == [LOCKOUT_S, 2 * LOCKOUT_S, 4 * LOCKOUT_S, 8 * LOCKOUT_S]
    assert guesses.wait("10.0.0.10") == 0


def test_the_pin_and_the_hosts_cookie_survive_a_restart_and_molebox_pin_prints_it(tmp_path, capsys):
    db = tmp_path / "molebox.db"
    first = HostPin(pin_path(db))
    again = HostPin(pin_path(db))
    assert again.pin == first.pin and again.key == first.key
    assert pin_path(db).stat().st_mode & 0o077 == 0
    assert cli.main(["pin", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == f"host PIN: {first.pin}"
    old_key = first.key
    assert cli.main(["pin", "--db", str(db), "--new"]) == 0
    renewed = capsys.readouterr().out.split()[3]
    assert renewed.isdigit() and first.pin == renewed and first.key != old_key    # a running box takes it
    assert cli.main(["pin", "--db", str(tmp_path / "other.db")]) == 2
    assert "no host PIN" in capsys.readouterr().err


def test_no_page_or_stream_carries_the_pin_in_lan_mode(lan):
    pin = lan.guard.pin
    phone = lan.as_device("127.0.0.7")
    texts = [phone.call("GET", path).body for path in ("/", "/dashboard")]
    texts += [json.dumps(phone.call("GET", path).body) for path in ("/api/state", "/api/history")]
    frames = {}
    for path in ("/api/sim/events", "/api/dashboard/events"):
        for kind, data in lan.opened(path, phone):
            if kind in ("frame", "table"):
                frame = json.loads(data)
                frames[frame.get("name", "table/public")] = frame_image(frame)
                data = json.dumps({k: v for k, v in frame.items() if k != "bits"})
            texts.append(data)
    assert not any(pin in text or lan.guard.host_pin.login in text for text in texts)
    glass = lan.hw.displays()["table"].image                   # the box's own glass shows it ...
    assert glass.tobytes() != frames["table"].tobytes()
    assert frames["table"].tobytes() == lan.session.screens.worker.frames["table"].tobytes()   # ... no stream does
    assert frames["table/public"].tobytes() == frames["table"].tobytes()


def test_without_a_table_display_seat_1_shows_the_pin_on_request_and_no_stream_does(live_factory):
    box = live_factory("--wiring", "gpio-2", lan=True, lan_sim=True)
    box.quiet()
    menu = box.frames("seat1")["seat1"]
    assert menu.tobytes() == lobby_screens.menu(box.session.state.lobby.view(), "", True).tobytes()   # "hold OK: PIN"
    box.post("/api/sim/press", {"seat": 1, "control": "ok", "pressed": True})     # seat 1 holds OK...
    pin = pin_screen(box.guard.pin, box.guard.host_pin.login_url).tobytes()
    assert wait_for(lambda: box.hw.displays()["seat1"].image.tobytes() == pin, HOLD_S + TIMEOUT_S)
    box.post("/api/sim/press", {"seat": 1, "control": "ok", "pressed": False})   # ... until its PIN shows
    on_loop(box.session, lambda: None)                 # the release taken (the PIN's 20 s are running)
    box.session.screens.worker.flush()
    glass = box.hw.displays()["seat1"].image
    assert glass.tobytes() == pin
    streamed = box.frames("seat1")["seat1"]
    assert streamed.tobytes() == menu.tobytes() and streamed.tobytes() != glass.tobytes()


def qr_on(image) -> str | None:
    """The address in a glass's QR code, read as a camera reads it."""
    zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp reads the QR codes as a phone's camera does")
    found = zxingcpp.read_barcodes(image.convert("L").resize((512, 256), Image.NEAREST))
    return found[0].text if found else None


def test_the_host_qr_code_on_the_table_display_makes_a_new_device_the_host_at_once_through_a_pin_flood(
        live_factory):
    lan = live_factory(lan=True, lan_sim=True)                      # the lobby, on a box with a table display
    lan.quiet()
    assert lan.session.state.lobby is not None and lan.session.state.host_pin_on_request   # "hold OK: PIN"
    for n in range(2, 2 + FREE_PINS + 3):                           # a flood: every PIN guess now waits, for all
        assert lan.as_device(f"127.0.3.{n}").post("/api/host/login", {"pin": "x"}).status in (403, 429)
    latecomer = lan.as_device("127.0.0.60")
    assert latecomer.post("/api/host/login", {"pin": lan.guard.pin}).status == 429
    lan.post("/api/sim/press", {"seat": 1, "control": "ok", "pressed": True})       # seat 1 holds OK in the lobby
    table = lan.hw.displays()["table"]
    assert wait_for(lambda: qr_on(table.image) is not None, HOLD_S + TIMEOUT_S), "the table display shows no QR code"
    lan.post("/api/sim/press", {"seat": 1, "control": "ok", "pressed": False})
    url = qr_on(table.image)
    with oled.recording() as placed:
        assert table.image.tobytes() == pin_screen(lan.guard.pin, url).tobytes()
    assert url == lan.guard.host_pin.login_url and lan.guard.pin in [p["asked"] for p in placed]   # the PIN beside
    assert qr_on(lan.frames("table")["table"]) is None              # no stream carries it

    scanned = latecomer.call("GET", "/" + url.split("/", 3)[3])     # the camera opens the address
    assert scanned.status == 200 and HOST_COOKIE in latecomer.cookies
    assert '"host": true' in scanned.body.replace("&quot;", '"')    # the dashboard, unlocked
    assert latecomer.post("/api/host/lan-sim", {"enabled": True}).status == 200      # a host action, no PIN asked
    guesser = lan.as_device("127.0.0.61")
    assert guesser.call("GET", "/H/" + "A" * 11).status == 404 and HOST_COOKIE not in guesser.cookies
