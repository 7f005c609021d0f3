"""The TV view (``/table``): the table told to the room, drawn for a TV or a tablet at the end of the table (the
kiosk at boot on a Pi with HDMI, docs/pi.md) from the room's description of it (:mod:`companion.render.tv`).

The free phone seats' join codes are for those at the table: the stream carries them only to the host's
device and to the Pi itself (its kiosk); any other device on the LAN gets the view without them.
"""
from __future__ import annotations

from aiohttp import web

from .hub import TV, TV_HOST
from .site import Site


def routes(site: Site) -> list[web.RouteDef]:
    async def page(request: web.Request) -> web.Response:
        return site.page(request, "table")

    async def events(request: web.Request) -> web.StreamResponse:
        return await site.hub.stream(request, TV_HOST if site.guard.sees_join_codes(request) else TV)

    return [web.get("/table", page), web.get("/api/table/events", events)]
