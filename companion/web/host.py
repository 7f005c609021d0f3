"""The host's actions, from the dashboard: the PIN's login and logout, the table's named actions, players'
names, and freeing a lost phone's seat. In LAN mode each needs the host (the PIN, once per device)."""
from __future__ import annotations

import asyncio

from aiohttp import web

from companion.history import clean_name
from companion.words import say

from .auth import HOST_COOKIE, HOST_FOR_S, refuse
from .bodies import read_json
from .site import Site

ACTION_TIMEOUT_S = 2.0


def answer(body: dict, cookie: str | None) -> web.Response:
    """A host action's answer; with the cookie that makes this device the host's when the PIN was just entered."""
    response = web.json_response(body)
    if cookie is not None:
        response.set_cookie(HOST_COOKIE, cookie, max_age=HOST_FOR_S, path="/", httponly=True, samesite="Strict")
    return response


class Host:
    def __init__(self, site: Site):
        self.site = site

    async def login(self, request: web.Request) -> web.Response:
        """``POST /api/host/login`` with ``{"pin": "..."}``: this device is the host's for the night."""
        data = await read_json(request, {"pin": (str, True)})
        cookie = self.site.guard.authorise(request, data["pin"])
        return answer({"ok": True, "host": True}, cookie)

    async def scanned(self, request: web.Request) -> web.Response:
        """``GET /H/{key}``, the host QR code's address: this device is the host's for the night, at once (no PIN,
        no wait for anyone's wrong guesses), and the dashboard opens. The page is the answer itself, not a
        redirect: a camera app opened it, and a browser sends no SameSite=Strict cookie on such a redirect."""
        if not self.site.guard.logs_in(request.match_info["key"]):
            raise refuse(web.HTTPNotFound, say("no such host login: scan the QR code the box shows again"))
        response = self.site.page(request, "dashboard", host=True)
        response.set_cookie(HOST_COOKIE, self.site.guard.host_cookie(), max_age=HOST_FOR_S, path="/", httponly=True,
                            samesite="Strict")
        return response

    async def logout(self, request: web.Request) -> web.Response:
        """``POST /api/host/logout``: this device is no longer the host's (a phone passed round the table)."""
        await read_json(request, {})
        await asyncio.to_thread(self.site.guard.logout, request)
        response = web.json_response({"ok": True, "host": not self.site.guard.lan})
        response.del_cookie(HOST_COOKIE, path="/")
        return response

    async def act(self, request: web.Request) -> web.Response:
        """``POST /api/host/{new-game,undo,end-game,take-up,dismiss,teach,skip-teaching}`` with ``{"pin": "..."}`` in
        LAN mode."""
        action, named = request.match_info["action"], [a for a in self.site.box.actions if a != "name"]
        if action not in named:      # "name" takes more than the PIN: POST /api/names
            raise refuse(web.HTTPNotFound, f"no host action {action[:30]!r}; actions: {', '.join(named)}")
        data = await read_json(request, {"pin": (str, False)})
        cookie = self.site.guard.authorise(request, data.get("pin"))
        await self._on_box(action)
        return answer({"ok": True}, cookie)

    async def name(self, request: web.Request) -> web.Response:
        """``POST /api/names`` with ``{"seat": 2, "name": "Ada"}`` (and the PIN in LAN mode); "" takes it away."""
        data = await read_json(request, {"seat": (int, True), "name": (str, True), "pin": (str, False)})
        cookie = self.site.guard.authorise(request, data.get("pin"))
        seat = self.site.seat(data["seat"])
        try:
            name = clean_name(data["name"])
        except ValueError as exc:
            raise refuse(web.HTTPBadRequest, str(exc)) from None
        await self._on_box("name", seat=seat, name=name)
        return answer({"ok": True, "seat": seat, "name": name}, cookie)

    async def free_seat(self, request: web.Request) -> web.Response:
        """``POST /api/host/free-seat`` with ``{"seat": 3}`` (and the PIN in LAN mode): a lost phone's seat is
        free to join again, by a new code; the old device's page is cut off."""
        data = await read_json(request, {"seat": (int, True), "pin": (str, False)})
        cookie = self.site.guard.authorise(request, data.get("pin"))
        seat = self.site.seat(data["seat"])
        held = self.site.phones.release(seat)
        return answer({"ok": True, "seat": seat, "held": held}, cookie)

    async def _on_box(self, action: str, **args) -> None:
        """Run the host action on the session loop and wait for it: 409 with the table's refusal, if any."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self.site.box.act(action, args, lambda outcome, error: loop.call_soon_threadsafe(_settle, done, outcome, error))
        try:
            refusal = await asyncio.wait_for(done, ACTION_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise refuse(web.HTTPServiceUnavailable, "the session loop did not answer in time") from None
        if refusal:
            raise refuse(web.HTTPConflict, refusal)


def _settle(future: asyncio.Future, outcome, error: Exception | None) -> None:
    if future.done():
        return
    future.set_exception(error) if error else future.set_result(outcome)


def routes(site: Site) -> list[web.RouteDef]:
    """The host's routes; ``/api/host/{action}`` last, after the fixed names it would otherwise catch."""
    host = Host(site)
    return [web.get("/H/{key}", host.scanned), web.get("/h/{key}", host.scanned),
            web.post("/api/names", host.name), web.post("/api/host/login", host.login),
            web.post("/api/host/logout", host.logout), web.post("/api/host/free-seat", host.free_seat),
            web.post("/api/host/{action}", host.act)]
