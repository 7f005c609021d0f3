"""The phone seats' keys, in one place: each free seat's join code, the device holding each seat, its page's live
stream and its press rate. Which seats are played on phones is the table's to say (the lobby's hole 4, and
every seat after the panels); the web panel hears it through the box's port.

Every phone seat has a short join code (the table display shows it, with its QR code, while the seat
is free); the QR code's address carries the code and a key after it (:data:`KEY_LENGTH` more letters), so
a scanned join is never guessed and never waits on anyone's wrong guesses (:mod:`companion.web.guesses`).
Joining with it gives that device a random token for that seat only, kept in memory (good
for this run of the box and :data:`HOLD_S` at most, on the monotonic clock: a Pi's wall clock is stepped
by NTP, often by hours, after the box has started): the web panel sets it as the device's seat cookie.

- A held seat is not taken by another device: its code is refused until the host frees the
  seat, which retires the token and gives the seat a new code.
- A seat's page opens one live stream at a time; its presses name that stream, so a press sent
  before a reconnect (a phone that slept, or changed network) is refused, never applied late.
- Presses are rate limited per seat (a token bucket), releases never: a refused release could
  leave a button held.

The web panel joins, checks and frees seats on its loop; the table's news of the phone seats
comes on the session's: everything here is under one lock, and whoever :meth:`watch`\\ es hears each
change (the free seats' join codes go to the screens; a phone whose seat went back to its panel, or
was freed, is cut off). A refusal is a :class:`Refused` whose ``kind`` the web panel answers as HTTP.
"""
from __future__ import annotations

import secrets
import threading
import time
from typing import Callable

from companion.tokens import same
from companion.words import say

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"     # no 0/O, 1/I: read off a small screen
CODE_LENGTH = 5
KEY_LENGTH = 11        # the QR code's key: 55 bits, and the join address still fits a 25-module QR code
HOLD_S = 12 * 3600     # a game night
RATE = 20.0            # presses a second a seat may keep up (a fast thumb taps about 8)
BURST = 30.0
KINDS = ("no-such-seat", "not-a-phone", "wrong-code", "denied", "held", "stale", "too-fast")


class Refused(Exception):
    """A phone seat request refused, with what to do; ``kind`` is one of :data:`KINDS`."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


def _code(length: int = CODE_LENGTH) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def keyed(code: str) -> bool:
    """Whether ``code`` is as long as a QR code's (the join code and its key); anything else is a typed code."""
    return len(code.strip()) == CODE_LENGTH + KEY_LENGTH


class PhoneKeys:
    def __init__(self, phones: frozenset[int], clock=time.monotonic):
        """``phones``: the seats played on phones now."""
        self.clock = clock
        self.address = ""                                    # where phones open the box (the web panel says)
        self._lock = threading.Lock()
        self._phones: set[int] = set()
        self.codes: dict[int, str] = {}
        self.keys: dict[int, str] = {}                       # seat -> its QR code's key, after its code
        self.tokens: dict[int, tuple[str, float]] = {}       # seat -> (token, good until on the monotonic clock)
        self.streams: dict[int, str] = {}                    # seat -> id of its page's live stream
        self._buckets: dict[int, tuple[float, float]] = {}   # seat -> (presses left, when counted)
        self._watchers: list[Callable[[list[int], bool], None]] = []
        self.seats(phones)

    def watch(self, callback: Callable[[list[int], bool], None]) -> None:
        """Call ``callback(gone, freed)`` on whichever thread made a change: ``gone``, the seats whose phone was
        cut off (back on their panels, or ``freed`` by the host)."""
        self._watchers.append(callback)

    def _changed(self, gone: list[int] = (), freed: bool = False) -> None:
        for callback in self._watchers:
            callback(list(gone), freed)

    # ---- which seats are phones ----

    def __contains__(self, seat: int) -> bool:
        return seat in self._phones

    @property
    def playing(self) -> frozenset[int]:
        """The seats played on phones now."""
        return frozenset(self._phones)

    def seats(self, phones: frozenset[int]) -> None:
        """The table says which seats are played on phones now: a new one has a join code, one back on its panel
        has none and its phone is cut off."""
        with self._lock:
            gone = sorted(self._phones - phones)
            for seat in gone:
                self._let_go(seat)
                self.codes.pop(seat, None)
                self.keys.pop(seat, None)
            for seat in sorted(phones - self._phones):
                self._new_code(seat)
            changed = self._phones != phones
            self._phones = set(phones)
        if changed:
            self._changed(gone)

    # ---- joining ----

    def _new_code(self, seat: int) -> None:
        taken = set(self.codes.values())
        while (code := _code()) in taken:
            pass
        self.codes[seat], self.keys[seat] = code, _code(KEY_LENGTH)

    def free(self) -> list[tuple[int, str]]:
        """The phone seats no device holds, with their join codes, lowest first."""
        with self._lock:
            return [(seat, self.codes[seat]) for seat in sorted(self._phones) if seat not in self.tokens]

    def serve_at(self, address: str) -> None:
        """Phones open the box at ``address`` (``HTTP://IP:PORT``): the join codes' QR codes say so."""
        self.address = address
        self._changed()

    def joins(self) -> tuple[tuple[int, str, str], ...]:
        """The free phone seats as the table shows them: ``(seat, join code, join address)``, the address with the
        seat's key; none before the web panel serves (a QR code without the box's address leads nowhere)."""
        if not self.address:
            return ()
        with self._lock:
            keys = dict(self.keys)
        return tuple((seat, code, f"{self.address}/J/{code}{keys[seat]}") for seat, code in self.free())

    def join(self, code: str, token_of: Callable[[int], str]) -> tuple[int, str | None]:
        """The seat ``code`` joins (typed, or with its key from the QR code), and the new token to set (None: the
        device holds it already: ``token_of(seat)`` is the token it gives for a seat). Refused ``wrong-code`` for a
        code no seat has, ``held`` for a seat another device holds."""
        code, scanned = code.strip().upper(), keyed(code)
        with self._lock:
            seat = next((s for s, c in self.codes.items() if same(code, c + self.keys[s] if scanned else c)), None)
            if seat is None:
                raise Refused("wrong-code", say("no seat has that join code: check it on the table display"))
            if seat in self.tokens:
                if self._holds(seat, token_of(seat)):
                    return seat, None
                raise Refused("held", say("seat {seat} is held by another phone: the host can free it from "
                                          "the dashboard", seat=seat))
            token = secrets.token_urlsafe(24)
            self.tokens[seat] = (token, self.clock() + HOLD_S)
        self._changed()
        return seat, token

    def _matches(self, seat: int, given: str) -> bool:
        """Whether ``given`` is the token seat ``seat`` was joined with (expired or not)."""
        token = self.tokens.get(seat, ("", 0.0))[0]
        return bool(token) and same(given, token)

    def _holds(self, seat: int, given: str) -> bool:
        return self._matches(seat, given) and self.tokens[seat][1] > self.clock()

    def holds(self, seat: int, given: str) -> bool:
        """Whether the device that gave the token ``given`` holds ``seat`` now."""
        with self._lock:
            return self._holds(seat, given)

    def _phone_seats(self) -> str:
        return ", ".join(map(str, sorted(self._phones))) or "none"

    def check(self, seat: int, given: str) -> None:
        """Let a request of ``seat``'s page through only from the device that holds it; else Refused saying why."""
        with self._lock:
            if seat not in self._phones:
                raise Refused("no-such-seat", f"seat {seat} is not a phone seat; phone seats: {self._phone_seats()}")
            if not given:
                raise Refused("denied", say("this device has not joined seat {seat}: scan its QR code or enter "
                                            "its join code from the table display", seat=seat))
            if not self._matches(seat, given):
                raise Refused("denied", say("this device does not hold seat {seat} (the host freed it, or the box "
                                            "restarted): join again with the code on the table display", seat=seat))
            if self.tokens[seat][1] <= self.clock():
                raise Refused("denied", say("this device's hold on seat {seat} has expired: the host can free the "
                                            "seat for you to join again", seat=seat))

    def release(self, seat: int) -> bool:
        """The host frees ``seat``: its token is void and it has a new join code. False if nobody held it."""
        with self._lock:
            if seat not in self._phones:
                raise Refused("not-a-phone", f"seat {seat} is not a phone seat; phone seats: {self._phone_seats()}")
            held = seat in self.tokens
            self._let_go(seat)
            self._new_code(seat)
        self._changed([seat], freed=True)
        return held

    def _let_go(self, seat: int) -> None:
        self.tokens.pop(seat, None)
        self.streams.pop(seat, None)

    # ---- the live stream and presses ----

    def attach(self, seat: int) -> str:
        """A new stream of ``seat``'s page: presses must name it from now on."""
        with self._lock:
            self.streams[seat] = stream = secrets.token_urlsafe(9)
        return stream

    def detach(self, seat: int, stream: str) -> bool:
        """That stream ended; True if it was the seat's live one."""
        with self._lock:
            if self.streams.get(seat) != stream:
                return False
            del self.streams[seat]
        return True

    def connected(self, seat: int) -> bool:
        return seat in self.streams

    def press(self, seat: int, stream: str, pressed: bool) -> None:
        """Let a press through, or refuse it: ``stale`` (an old stream's) or ``too-fast``."""
        with self._lock:
            live = self.streams.get(seat)
            if live is None or not same(stream, live):
                raise Refused("stale", say("not taken: the page lost the box when this press was sent; it is back "
                                           "now: press again"))
            if not pressed:
                return
            now = self.clock()
            left, at = self._buckets.get(seat, (BURST, now))
            left = min(BURST, left + (now - at) * RATE)
            if left < 1:
                self._buckets[seat] = (left, now)
                raise Refused("too-fast", say("not taken: too many presses at once; slow down"))
            self._buckets[seat] = (left - 1, now)
