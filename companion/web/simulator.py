"""The simulator's page (``/``, the sim backend only): every seat's panel and OLED, pressed by mouse or keyboard.

It shows every seat's secrets, so it answers only this machine unless the host opens it to the LAN
(``/api/host/lan-sim``, or ``molebox run --lan-sim``).
"""
from __future__ import annotations

from aiohttp import web

from companion.inputs import CONTROLS

from .auth import refuse
from .bodies import read_json
from .host import answer as host_answer
from .hub import SIM
from .site import Site


class SimulatorPage:
    def __init__(self, site: Site):
        self.site = site

    def _check(self) -> None:
        if self.site.simulator is None:
            raise refuse(web.HTTPNotFound, "no simulator: this box runs on real panels")
        if not self.site.guard.sim_open():
            raise refuse(web.HTTPForbidden, "the simulator is off in LAN mode: the host can turn it on "
                                            "from the dashboard, or start molebox with --lan-sim")

    async def page(self, request: web.Request) -> web.Response:
        if self.site.simulator is None or not self.site.guard.sim_open():
            raise web.HTTPFound("/dashboard")
        return self.site.page(request, "index")

    async def events(self, request: web.Request) -> web.StreamResponse:
        self._check()
        return await self.site.hub.stream(request, SIM, self.site.guard.sees_join_codes(request))

    async def press(self, request: web.Request) -> web.Response:
        """Drive one mock pin: ``{"seat": 1, "control": "hole3", "pressed": true}`` (a phone seat: its phone's press)."""
        self._check()
        data = await read_json(request, {"seat": (int, True), "control": (str, True), "pressed": (bool, True)})
        seat, control = self.site.seat(data["seat"]), data["control"]
        if control not in CONTROLS:
            raise refuse(web.HTTPBadRequest, f"unknown control {control[:20]!r}: hole1..hole5 or ok")
        if seat in self.site.phones:              # the simulator plays a phone seat as its phone would
            self.site.press_as_phone(seat, control, data["pressed"], self.site.guard.is_host(request))
        else:
            self.site.simulator.drive(seat, control, data["pressed"])
        return web.json_response({"ok": True})

    async def lan_sim(self, request: web.Request) -> web.Response:
        """``POST /api/host/lan-sim`` with ``{"enabled": bool, "pin": "..."}``: the host opens the simulator to the
        LAN, or closes it."""
        data = await read_json(request, {"enabled": (bool, True), "pin": (str, False)})
        guard = self.site.guard
        cookie = guard.authorise(request, data.get("pin"))
        if self.site.simulator is None:
            raise refuse(web.HTTPNotFound, "no simulator: this box runs on real panels")
        guard.lan_sim = data["enabled"]
        if not guard.sim_open():
            self.site.hub.close(SIM)
        return host_answer({"ok": True, "lanSim": guard.lan_sim}, cookie)


def routes(site: Site) -> list[web.RouteDef]:
    sim = SimulatorPage(site)
    return [web.get("/", sim.page), web.get("/api/sim/events", sim.events), web.post("/api/sim/press", sim.press),
            web.post("/api/host/lan-sim", sim.lan_sim)]
