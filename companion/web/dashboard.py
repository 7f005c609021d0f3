"""The dashboard (``/dashboard``, made for a phone): the public scoreboard, the turn log, the winner, past games
with their stats, and the host's actions (:mod:`companion.web.host`)."""
from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from typing import Callable

from aiohttp import web

from companion.history import dashboard as history_data

from .auth import refuse, this_machine, too_many
from .bodies import whole_number
from .hub import DASHBOARD
from .pace import Pace
from .site import Site

MAX_HISTORY = 200
FRESH_S = 2.0           # a history answer is worked out at most this often (and whenever a game is finished)
GUEST_READS = {"rate": 1.0, "burst": 5.0, "most_s": 10.0}     # a guest's history reads: one a second after five
KEPT = 8                # answers kept, one a limit asked for, the least recently asked for going first


class Histories:
    """The history's answers, each worked out off the loop and shared by every request that asks for it while it is
    fresh: 32 guests reading the history in a loop once slowed the presses tenfold, each reading the journal and
    working out the stats. An answer is fresh for :data:`FRESH_S` and while no game has been finished since."""

    def __init__(self, games: Callable[[], list[dict]], clock=time.monotonic):
        self._games, self.clock = games, clock
        self._made: OrderedDict[int, tuple[float, object, asyncio.Future]] = OrderedDict()

    async def answer(self, limit: int, stamp: object) -> bytes:
        """The answer for ``limit`` as JSON; ``stamp`` changes whenever a game is finished."""
        made = self._made.get(limit)
        if made is None or made[1] != stamp or made[2].done() and self.clock() - made[0] >= FRESH_S:
            made = (self.clock(), stamp, asyncio.ensure_future(asyncio.to_thread(self._make, limit)))
            self._made[limit] = made
        self._made.move_to_end(limit)
        while len(self._made) > KEPT:
            self._made.popitem(last=False)
        return await asyncio.shield(made[2])

    def _make(self, limit: int) -> bytes:
        return json.dumps(history_data(self._games(), limit)).encode()


class Dashboard:
    def __init__(self, site: Site):
        self.site = site
        self.histories = Histories(site.box.finished_games)
        self.reads = Pace(**GUEST_READS)

    async def page(self, request: web.Request) -> web.Response:
        return self.site.page(request, "dashboard")

    async def events(self, request: web.Request) -> web.StreamResponse:
        return await self.site.hub.stream(request, DASHBOARD, self.site.guard.sees_join_codes(request))

    async def state(self, request: web.Request) -> web.Response:
        """``GET /api/state``: the public state as the streams last had it."""
        if self.site.hub.public is None:
            raise refuse(web.HTTPServiceUnavailable, "starting up: try again in a moment")
        return web.json_response(self.site.hub.public)

    async def history(self, request: web.Request) -> web.Response:
        """``GET /api/history?limit=20``: the latest finished games and the stats of them all."""
        unknown = sorted(set(request.query) - {"limit"})
        if unknown:
            raise refuse(web.HTTPBadRequest, f"unknown parameter {', '.join(map(repr, unknown))}; parameters: limit")
        text = request.query.get("limit", "20")
        limit = whole_number(text)
        if limit is None or not 1 <= limit <= MAX_HISTORY:
            raise refuse(web.HTTPBadRequest, f"limit must be a whole number from 1 to {MAX_HISTORY}, not {text[:20]!r}")
        address = request.remote or "unknown"
        if not (self.site.known(request) or this_machine(address)):
            wait = await self.reads.turn(address)
            if wait is not None:
                raise too_many(f"too many history reads from this device: try again in {wait:.0f} s", wait)
        public = self.site.hub.public or {}
        body = await self.histories.answer(limit, (public.get("mode"), public.get("finished")))
        return web.Response(body=body, content_type="application/json")


def routes(site: Site) -> list[web.RouteDef]:
    board = Dashboard(site)
    return [web.get("/dashboard", board.page), web.get("/api/dashboard/events", board.events),
            web.get("/api/state", board.state), web.get("/api/history", board.history)]
