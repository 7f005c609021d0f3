"""The dashboard (``/dashboard``, made for a phone): the public scoreboard, the turn log, the winner, past games
with their stats, and the host's actions (:mod:`companion.web.host`)."""
from __future__ import annotations

import asyncio

from aiohttp import web

from companion.history import dashboard as history_data

from .auth import refuse
from .bodies import whole_number
from .hub import DASHBOARD
from .site import Site

MAX_HISTORY = 200


class Dashboard:
    def __init__(self, site: Site):
        self.site = site

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
        games = await asyncio.to_thread(self.site.box.finished_games)    # off the loop: a press never waits
        return web.json_response(history_data(games, limit))


def routes(site: Site) -> list[web.RouteDef]:
    board = Dashboard(site)
    return [web.get("/dashboard", board.page), web.get("/api/dashboard/events", board.events),
            web.get("/api/state", board.state), web.get("/api/history", board.history)]
