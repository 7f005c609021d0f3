"""The TV view (``/tv``): the table told to the room, drawn for a TV or a tablet at the end of the table (the
kiosk at boot on a Pi with HDMI, docs/pi.md) from the room's description of it (:mod:`companion.render.tv`).

Anyone who may read the dashboard may watch it. The free phone seats' join codes are for those at the table:
the stream carries them only to the Pi itself (its kiosk) and to a device that has entered the host PIN (the
page offers the PIN once); any other device gets the view without them. ``/table``, its address before, leads
to it (a kiosk set up then keeps working).
"""
from __future__ import annotations

from aiohttp import web

from .hub import TV
from .site import Site


def routes(site: Site) -> list[web.RouteDef]:
    async def page(request: web.Request) -> web.Response:
        return site.page(request, "tv", host=site.guard.sees_join_codes(request))

    async def events(request: web.Request) -> web.StreamResponse:
        return await site.hub.stream(request, TV, site.guard.sees_join_codes(request))

    async def moved(request: web.Request) -> web.Response:
        raise web.HTTPMovedPermanently(request.rel_url.with_path("/tv").with_query(request.rel_url.query))

    return [web.get("/tv", page), web.get("/api/tv/events", events), web.get("/table", moved)]
