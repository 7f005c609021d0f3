"""Guessing the PIN or a join code from many addresses: every wrong guess from anywhere makes the next one
wait longer, a right answer resets nothing, the host's device is never locked out, and the host reads it
on the dashboard and in the log, said once.

Devices are told apart by their address, as the box tells them apart: each connects from its own
127.0.0.x. The guard's clock is the test's, so an hour of guessing takes no time.
"""
from __future__ import annotations

import itertools
import json
import logging
import threading
import time
from collections import Counter

from companion.web.auth import FREE_CODES, MOST_PIN_WAIT_S
from companion.web.site import GUESSING_EVERY_S
from tests.waiting import wait_for
from tests.webclient import Recording

from .conftest import GAME
from .test_seats import MIXED, code_of, offered, phone, typed


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_guessing_the_pin_from_50_addresses_makes_every_guess_wait_longer(live_factory, caplog):
    clock = Clock()
    box = live_factory(*GAME, lan=True, clock=clock)
    host = box.as_device("127.0.0.200")
    assert host.post("/api/host/login", {"pin": box.guard.pin}).status == 200
    board = Recording(box.as_device("127.0.0.201"), "/api/dashboard/events")
    wrong = next(pin for pin in ("00000", "11111") if pin != box.guard.pin)
    waits, guessed = [], []                           # the waits told, when each wrong PIN was checked
    with caplog.at_level(logging.WARNING, logger="molebox.web"):
        for n in range(2, 52):                        # 50 devices, one guess each: no one address is ever locked
            guesser = box.as_device(f"127.0.0.{n}")
            answer = guesser.post("/api/host/login", {"pin": wrong})
            if answer.status == 429:
                assert "wrong PINs on this network" in answer.body["error"]
                waits.append(int(answer.headers["Retry-After"]))
                clock.now += waits[-1]                # the guesser waits it out, then guesses
                answer = guesser.post("/api/host/login", {"pin": wrong})
            assert answer.status == 403, answer
            guessed.append(clock.now)
    print(f"\nPIN waits from 50 addresses, guess by guess (s): {waits}")
    growing = waits[:int(MOST_PIN_WAIT_S).bit_length()]
    assert growing == [2 ** n for n in range(len(growing))] and max(waits) == MOST_PIN_WAIT_S    # 1 s, 2 s ... 5 min
    assert waits[len(growing):len(growing) + 10] == [MOST_PIN_WAIT_S] * 10      # and stays there for the hour
    assert sum(waits) > 2 * 3600                      # 50 guesses took hours, not the 13 s they took before

    latecomer = box.as_device("127.0.0.60")           # even the right PIN waits: a guess is not checked early
    assert latecomer.post("/api/host/login", {"pin": box.guard.pin}).status == 429
    assert host.post("/api/host/end-game", {}).status == 200       # the host's device was never locked out

    said = [r.getMessage() for r in caplog.records if "wrong PINs in the last hour" in r.getMessage()]
    assert said[0].startswith("11 wrong PINs in the last hour from 11 addresses: each guess now waits 1 s")

    clock.now += GUESSING_EVERY_S
    assert wait_for(lambda: any(kind == "guessing" for kind, _ in board.events), 3 + GUESSING_EVERY_S)
    figures = json.loads([data for kind, data in board.events if kind == "guessing"][-1])["pins"]
    last_hour = sum(1 for at in guessed if clock.now - at <= 3600)
    assert figures == {"wrong": last_hour, "addresses": last_hour, "refused": figures["refused"],
                       "wait": MOST_PIN_WAIT_S - GUESSING_EVERY_S}
    assert 1 <= figures["refused"] <= len(waits) + 1
    board.close()


def test_the_dashboard_says_how_many_wrong_pins_came_in_the_last_hour(live_factory, pages):
    box = live_factory(*GAME, lan=True)
    for n in range(2, 5):
        assert box.as_device(f"127.0.0.{n}").post("/api/host/login", {"pin": "x"}).status == 403
    page = pages(box.url + "dashboard")
    note = page.locator("#guessing")
    note.wait_for()
    assert note.text_content().startswith("3 wrong PINs in the last hour, from 3 addresses.")


def test_a_right_join_code_resets_nothing(live_factory):
    mixed = live_factory(*MIXED)
    guesser = phone(mixed, "127.0.0.4")
    code = typed(offered(mixed))
    assert guesser.join(code).status == 200                          # its own seat's code, rightly
    for n in range(4):
        assert guesser.join("ZZZZZ").status == 403
        assert guesser.join(code).status == 200                      # still its seat: and still counted
    assert guesser.join("ZZZZZ").status == 403
    answer = guesser.join(code)
    assert answer.status == 429 and "too many wrong join codes from this device" in answer.body["error"]


def test_wrong_join_codes_from_many_addresses_make_everyone_wait_and_the_log_says_so_once(live_factory, caplog):
    clock = Clock()
    mixed = live_factory(*MIXED, clock=clock)
    with caplog.at_level(logging.WARNING, logger="molebox.web"):
        statuses = [phone(mixed, f"127.0.0.{n}").join("ZZZZZ").status for n in range(2, 2 + FREE_CODES + 20)]
    assert statuses[:FREE_CODES + 1] == [403] * (FREE_CODES + 1) and set(statuses[FREE_CODES + 1:]) == {429}
    said = [r.getMessage() for r in caplog.records]
    assert said == [f"{FREE_CODES + 1} wrong join codes in the last hour from {FREE_CODES + 1} addresses: each guess "
                    f"now waits 1 s, for everyone (the host's device never does)"]
    answer = phone(mixed, "127.0.0.100").join(typed(offered(mixed)))
    assert answer.status == 429 and "join codes on this network" in answer.body["error"]
    assert "scan the seat's QR code" in answer.body["error"]
    clock.now += int(answer.headers["Retry-After"])
    assert phone(mixed, "127.0.0.100").join(typed(offered(mixed))).status == 200


def test_a_scanned_seat_joins_at_once_through_a_flood_of_wrong_codes_from_rotating_addresses(live_factory):
    """Four loops of wrong codes, each from a new address every time: typed codes wait, for everyone (a guess is
    not checked early), but the QR code's address carries the seat's key, which no flood can guess."""
    mixed = live_factory(*MIXED)
    url, stop, answers = offered(mixed), threading.Event(), Counter()

    def flood(loop: int) -> None:
        for n in itertools.count():
            if stop.is_set():
                return
            answers[phone(mixed, f"127.0.{10 + loop}.{n % 250 + 1}").join("ZZZZZ").status] += 1

    loops = [threading.Thread(target=flood, args=(loop,), daemon=True) for loop in range(4)]
    for loop in loops:
        loop.start()
    try:
        assert wait_for(lambda: answers[429] >= 20, 30), answers        # the flood has everyone waiting
        assert phone(mixed, "127.0.0.50").join(typed(url)).status == 429     # a typed code waits with the rest
        began = time.monotonic()
        scanned = phone(mixed, "127.0.0.51").join(code_of(url))
        took = time.monotonic() - began
    finally:
        stop.set()
        for loop in loops:
            loop.join()
    print(f"\njoined by its QR code in {took * 1000:.0f} ms through {sum(answers.values())} wrong codes: {answers}")
    assert scanned.status == 200 and scanned.body["seat"] == 2 and took < 5
    scanned_code = code_of(url)
    wrong = scanned_code[:-1] + ("Z" if scanned_code[-1] != "Z" else "Y")      # one letter off (a key ending in Z too)
    assert phone(mixed, "127.0.0.52").join(wrong).status == 403                   # a key is all or nothing
