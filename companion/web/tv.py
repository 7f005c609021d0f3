"""The table view (``/table``): the table display's picture as large as a TV or a tablet at the end of the
table shows it (the kiosk at boot on a Pi with HDMI, docs/pi.md)."""
from __future__ import annotations

from aiohttp import web

from .hub import TABLE
from .site import Site


def routes(site: Site) -> list[web.RouteDef]:
    async def page(request: web.Request) -> web.Response:
        return site.page(request, "table")

    async def events(request: web.Request) -> web.StreamResponse:
        return await site.hub.stream(request, TABLE)

    return [web.get("/table", page), web.get("/api/table/events", events)]
