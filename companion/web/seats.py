"""Phone seats at the door: join codes, each phone's seat cookie, its live stream, and its press rate.

- Every phone seat has a short join code (shown with its QR code on the table display while the
  seat is free). Joining with it gives that device a random token for that seat only, kept in
  memory (so it is good for this run of the box and 12 hours at most) and set as an HttpOnly,
  SameSite=Strict cookie. Wrong codes are counted per address as wrong PINs are.
- A held seat is not taken by another device: its code answers 409 until the host frees the seat
  from the dashboard, which retires the token and gives the seat a new code.
- A seat's page opens one event stream at a time; its presses name that stream, so a press sent
  before a reconnect (a phone that slept, or changed network) is refused, never applied late.
- Presses are rate limited per seat (a token bucket), releases never: a refused release could
  leave a button held.
"""
from __future__ import annotations

import secrets
import time

from aiohttp import web

from .auth import HOST_FOR_S, Guesses, refuse, same

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"     # no 0/O, 1/I: read off a small screen
CODE_LENGTH = 5
RATE = 20.0            # presses a second a seat may keep up (a fast thumb taps about 8)
BURST = 30.0


def cookie_name(seat: int) -> str:
    return f"molebox_seat{seat}"


def _code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


class Seats:
    def __init__(self, phones: list[int], clock=time.monotonic, wall=time.time):
        self.phones = list(phones)
        self.clock, self.wall = clock, wall
        self.codes: dict[int, str] = {}
        self.tokens: dict[int, tuple[str, float]] = {}       # seat -> (token, good until on the wall clock)
        self.streams: dict[int, str] = {}                    # seat -> id of its page's live stream
        self.buckets: dict[int, tuple[float, float]] = {}    # seat -> (presses left, when counted)
        self.guesses = Guesses(clock)
        for seat in self.phones:
            self._new_code(seat)

    def _new_code(self, seat: int) -> None:
        taken = set(self.codes.values())
        while (code := _code()) in taken:
            pass
        self.codes[seat] = code

    def free(self) -> list[tuple[int, str]]:
        """The phone seats no device holds, with their join codes, lowest first."""
        return [(seat, self.codes[seat]) for seat in self.phones if seat not in self.tokens]

    # ---- joining ----

    def join(self, code: str, address: str, cookies) -> tuple[int, str | None]:
        """The seat ``code`` joins, and the new token to set (None: this device holds it already)."""
        wait = self.guesses.wait(address)
        if wait > 0:
            raise refuse(web.HTTPTooManyRequests,
                         f"too many wrong join codes from this device: try again in {wait:.0f} s")
        code = code.strip().upper()
        seat = next((s for s, c in self.codes.items() if same(code, c)), None)
        if seat is None:
            self.guesses.wrong(address)
            raise refuse(web.HTTPForbidden, "no seat has that join code: check it on the table display")
        self.guesses.right(address)
        if seat in self.tokens:
            if self.holds(seat, cookies):
                return seat, None
            raise refuse(web.HTTPConflict, f"seat {seat} is held by another phone: the host can free it "
                                           f"from the dashboard")
        token = secrets.token_urlsafe(24)
        self.tokens[seat] = (token, self.wall() + HOST_FOR_S)
        return seat, token

    def _matches(self, seat: int, given: str) -> bool:
        """Whether ``given`` is the token seat ``seat`` was joined with (expired or not)."""
        token = self.tokens.get(seat, ("", 0.0))[0]
        return bool(token) and same(given, token)

    def holds(self, seat: int, cookies) -> bool:
        """Whether the device that sent ``cookies`` holds ``seat`` now."""
        return self._matches(seat, cookies.get(cookie_name(seat), "")) and self.tokens[seat][1] > self.wall()

    def check(self, seat: int, cookies) -> None:
        """Let a request of ``seat``'s page through only from the device that holds it; else 403 saying why."""
        if seat not in self.phones:
            raise refuse(web.HTTPNotFound, f"seat {seat} is not a phone seat; phone seats: "
                                           f"{', '.join(map(str, self.phones)) or 'none'}")
        given = cookies.get(cookie_name(seat))
        if not given:
            raise refuse(web.HTTPForbidden, f"this device has not joined seat {seat}: scan its QR code or enter "
                                            f"its join code from the table display")
        if not self._matches(seat, given):
            raise refuse(web.HTTPForbidden, f"this device does not hold seat {seat} (the host freed it, or the box "
                                            f"restarted): join again with the code on the table display")
        if self.tokens[seat][1] <= self.wall():
            raise refuse(web.HTTPForbidden, f"this device's hold on seat {seat} has expired: the host can free "
                                            f"the seat for you to join again")

    def release(self, seat: int) -> bool:
        """The host frees ``seat``: its token is void and it has a new join code. False if nobody held it."""
        if seat not in self.phones:
            raise refuse(web.HTTPBadRequest, f"seat {seat} is not a phone seat; phone seats: "
                                             f"{', '.join(map(str, self.phones)) or 'none'}")
        held = self.tokens.pop(seat, None) is not None
        self.streams.pop(seat, None)
        self._new_code(seat)
        return held

    def play_on(self, phones: list[int]) -> list[int]:
        """The seats played on phones are ``phones`` now: a new one gets a code, one back on its panel lets go
        of its phone. Returns the seats that went back to their panels."""
        gone = [seat for seat in self.phones if seat not in phones]
        for seat in gone:
            self.tokens.pop(seat, None)
            self.streams.pop(seat, None)
            self.codes.pop(seat, None)
        for seat in phones:
            if seat not in self.codes:
                self._new_code(seat)
        self.phones = sorted(phones)
        return gone

    # ---- the live stream and presses ----

    def attach(self, seat: int) -> str:
        """A new stream of ``seat``'s page: presses must name it from now on."""
        self.streams[seat] = stream = secrets.token_urlsafe(9)
        return stream

    def detach(self, seat: int, stream: str) -> bool:
        """That stream ended; True if it was the seat's live one."""
        if self.streams.get(seat) != stream:
            return False
        del self.streams[seat]
        return True

    def connected(self, seat: int) -> bool:
        return seat in self.streams

    def press(self, seat: int, stream: str, pressed: bool) -> None:
        """Let a press through, or refuse it: stale (409) or too fast (429)."""
        live = self.streams.get(seat)
        if live is None or not same(stream, live):
            raise refuse(web.HTTPConflict, "not taken: the page lost the box when this press was sent; "
                                           "it is back now: press again")
        if not pressed:
            return
        now = self.clock()
        left, at = self.buckets.get(seat, (BURST, now))
        left = min(BURST, left + (now - at) * RATE)
        if left < 1:
            self.buckets[seat] = (left, now)
            raise refuse(web.HTTPTooManyRequests, "not taken: too many presses at once; slow down")
        self.buckets[seat] = (left - 1, now)
