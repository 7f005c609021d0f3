"""Join codes only where the table is: the table display's glass, seat 1's OLED, the TV view and the host's
dashboard; never a page or a stream any LAN client reads without the PIN.

A guest is a device on the LAN (127.0.0.x) that never entered the PIN: it reads every page and every
stream it may open, looks for the codes' text, and reads every frame it was sent as a camera would
(zxing-cpp). The host's device and the Pi itself (127.0.0.1, the TV's kiosk) see the QR code.
"""
from __future__ import annotations

import html
import json
import re

import pytest
from PIL import Image

from companion.render import join as join_screen
from tests.waiting import wait_for
from tests.webclient import frame_image

from .test_seats import glass_qr, joins_at

zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp reads the QR codes as a phone's camera does")

MIXED = ("--panels", "1", "--phones", "2", "--game", "whakka-mole", "--seats", "3")
STREAMS = ("/api/dashboard/events", "/api/sim/events", "/api/tv/events")


def qr_codes(image: Image.Image) -> list[str]:
    return [found.text for found in zxingcpp.read_barcodes(image.convert("L").resize(
        (image.width * 4, image.height * 4), Image.NEAREST))]


def everything_read(box, device) -> tuple[list[str], list[Image.Image]]:
    """Every page's and stream's text that ``device`` may read, and every frame it was sent."""
    texts, frames = [], []
    for path in ("/", "/dashboard", "/tv", "/join", "/seat/2", "/seat/3", "/api/state", "/api/seats",
                 "/api/history"):
        answer = device.call("GET", path, headers={})
        texts.append(answer.body if isinstance(answer.body, str) else json.dumps(answer.body))
    for path in STREAMS:
        for kind, data in box.opened(path, device, sees=False):
            texts.append(data)
            if kind in ("frame", "table"):
                frames.append(frame_image(json.loads(data)))
    return texts, frames


@pytest.fixture
def box(live_factory):
    box = live_factory(*MIXED, lan=True, lan_sim=True)
    assert wait_for(lambda: glass_qr(box) is not None)          # the table display offers seat 2
    return box


def test_a_guest_on_the_lan_reads_no_join_code_anywhere_and_the_table_s_glass_shows_it(box):
    codes = set(box.site.phones.codes.values()) | set(box.site.phones.keys.values())
    texts, frames = everything_read(box, box.as_device("127.0.0.7"))
    assert frames and not any(code in text for text in texts for code in codes)
    assert not any(code.lower() in text.lower() for text in texts for code in codes)
    assert [qr for frame in frames for qr in qr_codes(frame)] == []
    public = join_screen.elsewhere(2).tobytes()
    assert any(frame.tobytes() == public for frame in frames)          # "Seat 2 is free to join: its code is on
    url = glass_qr(box)                                                #  the table display", and there it is
    assert url.endswith(joins_at(box, 2))


def offered_on_the_tv(box, device) -> list[str]:
    """The join addresses the TV view's stream offers ``device`` (its QR codes')."""
    joins = [json.loads(data) for kind, data in box.opened("/api/tv/events", device) if kind == "joins"]
    return [free["board"]["url"] for free in joins[-1]] if joins else []


def test_the_host_s_dashboard_and_the_pi_s_own_tv_view_show_the_qr_code(box):
    url = glass_qr(box)
    host = box.as_device("127.0.0.8")
    assert host.post("/api/host/login", {"pin": box.guard.pin}).status == 200
    kiosk = box.as_device("127.0.0.1")
    tables = [frame_image(json.loads(data)) for kind, data in box.opened("/api/dashboard/events", host)
              if kind == "table"]
    assert qr_codes(tables[-1]) == [url]
    for device in (host, kiosk):
        assert url in offered_on_the_tv(box, device), device.source


def test_the_tv_view_on_another_device_shows_the_table_and_its_codes_once_the_pin_is_entered(box):
    tv = box.as_device("127.0.0.9")
    config = json.loads(html.unescape(re.search(r'name="molebox" content="([^"]*)"', tv.call("GET", "/tv").body).group(1)))
    assert config["host"] is False                                  # the page offers the PIN for the codes
    watched = box.opened("/api/tv/events", tv, sees=False)
    assert {kind for kind, _ in watched} == {"tv"}                  # the table, without the codes
    assert tv.post("/api/host/login", {"pin": box.guard.pin}).status == 200
    config = json.loads(html.unescape(re.search(r'name="molebox" content="([^"]*)"', tv.call("GET", "/tv").body).group(1)))
    assert config["host"] is True
    assert glass_qr(box) in offered_on_the_tv(box, tv)

