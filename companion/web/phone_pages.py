"""Phone seats' pages: joining by code, the seat's page, its live stream and its presses (docs/web.md).

Who holds which seat is :mod:`companion.web.phone_keys`' to know; here a device proves it with its seat
cookie, and wrong join codes cost as wrong PINs do (:mod:`companion.web.guesses`).
"""
from __future__ import annotations

import json

from aiohttp import web

from companion.inputs import CONTROLS
from companion.render import how
from .phone_keys import CODE_LENGTH, HOLD_S, Refused, keyed

from .auth import refuse, too_many
from .bodies import read_json, whole_number
from .hub import seat as seat_topics
from .site import Site, seat_cookie


def _token(request: web.Request, seat: int) -> str:
    return request.cookies.get(seat_cookie(seat), "")


class PhonePages:
    def __init__(self, site: Site):
        self.site, self.phones = site, site.phones
        self.guesses = site.guard.code_guesses

    async def page(self, request: web.Request) -> web.Response:
        """A phone seat's page: that seat's screen, lamps and buttons, the table, and how to play each game (its
        config's ``how``, :func:`companion.render.how.every`); the join form when this device holds no seat yet
        (``/J/CODE``, the QR code's address, joins at once)."""
        asked = request.match_info.get("seat")
        seat = None if asked is None else whole_number(asked)
        if asked is not None and seat not in self.phones:
            raise refuse(web.HTTPNotFound, f"seat {asked[:10]} is not a phone seat; phone seats: "
                                           f"{', '.join(map(str, sorted(self.phones.playing))) or 'none'}")
        held = seat is not None and self.phones.holds(seat, _token(request, seat))
        scanned = request.match_info.get("code", "")
        return self.site.page(request, "seat", seat=seat if held else None, asked=seat,
                              code=scanned[:CODE_LENGTH], key=scanned[CODE_LENGTH:], how=how.every() if held else {})

    def _seat(self, request: web.Request) -> int:
        """The phone seat a request is for, once its device is known to hold it."""
        seat = whole_number(request.match_info["seat"])
        if seat is None:
            raise refuse(web.HTTPNotFound, f"nothing at {request.path}")
        self.phones.check(seat, _token(request, seat))
        return seat

    async def join(self, request: web.Request) -> web.Response:
        """``POST /api/join`` with ``{"code": "ABCDE"}``: this device holds that seat from now on (a cookie)."""
        data = await read_json(request, {"code": (str, True)})
        address, scanned = request.remote or "unknown", keyed(data["code"])
        refusal = None if scanned else self.guesses.refusal(address)    # a key is never guessed: never waits
        if refusal:
            raise too_many(refusal, self.guesses.wait(address))
        try:
            seat, token = self.phones.join(data["code"][:20], lambda seat: _token(request, seat))
        except Refused as exc:
            if exc.kind == "wrong-code" and not scanned:
                self.guesses.wrong(address)
            raise
        response = web.json_response({"ok": True, "seat": seat, "page": f"/seat/{seat}"})
        if token is not None:
            response.set_cookie(seat_cookie(seat), token, max_age=HOLD_S, path="/", httponly=True, samesite="Strict")
        return response

    async def events(self, request: web.Request) -> web.StreamResponse:
        """A phone seat's stream: opened by ``hello`` (the stream's id, which its presses name), then the seat's
        lamps, its screen's description and the room's table. A newer stream of the seat takes its presses over."""
        seat = self._seat(request)
        stream = self.phones.attach(seat)
        try:
            return await self.site.hub.stream(request, seat_topics(seat), sees=True,
                                              first=("hello", json.dumps({"seat": seat, "stream": stream})))
        finally:
            if self.phones.detach(seat, stream):
                for control in CONTROLS:          # a button held when the phone went away is let go
                    self.site.press_as_phone(seat, control, False, by_host=False)

    async def press(self, request: web.Request) -> web.Response:
        """``POST /api/seat/{n}/press`` with ``{"control": "hole3", "pressed": true, "stream": "..."}``."""
        seat = self._seat(request)
        data = await read_json(request, {"control": (str, True), "pressed": (bool, True), "stream": (str, True)})
        if data["control"] not in CONTROLS:
            raise refuse(web.HTTPBadRequest, f"unknown control {data['control'][:20]!r}: hole1..hole5 or ok")
        self.phones.press(seat, data["stream"], data["pressed"])
        self.site.press_as_phone(seat, data["control"], data["pressed"], self.site.guard.is_host(request))
        return web.json_response({"ok": True})

    async def seats(self, request: web.Request) -> web.Response:
        """``GET /api/seats``: each phone seat free, held by a connected phone, or held by one away (no codes)."""
        free = {seat for seat, _ in self.phones.free()}
        return web.json_response({str(seat): "free" if seat in free else "connected" if self.phones.connected(seat)
                                  else "away" for seat in sorted(self.phones.playing)})


def routes(site: Site) -> list[web.RouteDef]:
    seats = PhonePages(site)
    return [web.get("/seat/{seat}", seats.page), web.get("/join", seats.page), web.get("/J/{code}", seats.page),
            web.get("/j/{code}", seats.page), web.post("/api/join", seats.join), web.get("/api/seats", seats.seats),
            web.get("/api/seat/{seat}/events", seats.events), web.post("/api/seat/{seat}/press", seats.press)]
