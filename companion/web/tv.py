"""The TV view (``/table``): the table told to the room, drawn for a TV or a tablet at the end of the table (the
kiosk at boot on a Pi with HDMI, docs/pi.md) from the room's description of it (:mod:`companion.render.tv`).

Anyone who may read the dashboard may watch it. The free phone seats' join codes are for those at the table:
the stream carries them only to the Pi itself (its kiosk) and to a device that has entered the host PIN (the
page offers the PIN once); any other device gets the view without them.
"""
from __future__ import annotations

from aiohttp import web

from .hub import TV
from .site import Site


def routes(site: Site) -> list[web.RouteDef]:
    async def page(request: web.Request) -> web.Response:
        return site.page(request, "table", host=site.guard.sees_join_codes(request))

    async def events(request: web.Request) -> web.StreamResponse:
        return await site.hub.stream(request, TV, site.guard.sees_join_codes(request))

    return [web.get("/table", page), web.get("/api/table/events", events)]
