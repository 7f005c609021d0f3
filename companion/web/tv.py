"""The table view (``/table``): the table display's picture as large as a TV or a tablet at the end of the
table shows it (the kiosk at boot on a Pi with HDMI, docs/pi.md).

The picture offers free phone seats' join codes, so in LAN mode the view is the host's: the kiosk on
the Pi itself, or a device that has entered the host PIN (the page asks for it once).
"""
from __future__ import annotations

from aiohttp import web

from .auth import refuse
from .hub import TABLE
from .site import Site


def routes(site: Site) -> list[web.RouteDef]:
    async def page(request: web.Request) -> web.Response:
        return site.page(request, "table", host=site.guard.sees_join_codes(request))

    async def events(request: web.Request) -> web.StreamResponse:
        if not site.guard.sees_join_codes(request):
            raise refuse(web.HTTPForbidden, "the table view shows the join codes: it is the host's; enter the host "
                                            "PIN once on this device")
        return await site.hub.stream(request, TABLE, sees=True)

    return [web.get("/table", page), web.get("/api/table/events", events)]
