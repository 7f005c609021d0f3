"""The web panel's app: pages, event streams, presses and host actions (docs/web.md).

One aiohttp app on an event loop beside the session loop. Nothing here changes
the game itself: a press drives the simulator's mock pin (the path a finger
takes on real hardware), and a host action runs on the session loop through
:meth:`~companion.session.Session.call`.
"""
from __future__ import annotations

import asyncio
import html
import json
import logging
import socket
from pathlib import Path
from typing import Callable

from aiohttp import web

from wiring.hardware import DISPLAYS

from companion.hardware.phone import DRIVER as PHONE_DRIVER
from companion.hardware.sim import SimHardware
from companion.history import clean_name, dashboard as history_data
from companion.inputs import CONTROLS, Edge

from .auth import HOST_COOKIE, HOST_FOR_S, Guard, refuse
from .hub import DASHBOARD, SIM, TABLE, Hub, seat as seat_topics
from .seats import Seats, cookie_name

log = logging.getLogger("molebox.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
ACTION_TIMEOUT_S = 2.0
MAX_HISTORY = 200
PHONE_GLASS_MM = DISPLAYS[PHONE_DRIVER].glass_mm
TYPE_NAMES = {int: "a whole number", str: "a string", bool: "true or false"}


# ---- host actions: each runs on the session loop, on the table, and returns a refusal, or None when done ----

def _new_game(table) -> str | None:
    if table.match is None or not table.match.over:
        return "the game is not over: end it first"
    table.new_game()
    return None


def _undo(table) -> str | None:
    return None if table.undo() else "nothing to undo"


def _end_game(table) -> str | None:
    return table.end_game()


def _take_up(table) -> str | None:
    return table.take_up_ended()


def _dismiss(table) -> str | None:
    table.dismiss()
    return None


HOST_ACTIONS = {"new-game": _new_game, "undo": _undo, "end-game": _end_game, "take-up": _take_up, "dismiss": _dismiss}


# ---- request bodies --------------------------------------------------------------------------

async def read_json(request: web.Request, fields: dict[str, tuple[type, bool]]) -> dict:
    """The request's JSON object, checked against ``fields``: name -> (type, required)."""
    if request.content_type != "application/json":
        raise refuse(web.HTTPUnsupportedMediaType, "send a JSON body (Content-Type: application/json)")
    try:
        data = await request.json()
    except ValueError:
        raise refuse(web.HTTPBadRequest, "the body is not valid JSON") from None
    except RecursionError:
        raise refuse(web.HTTPBadRequest, "the body's JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise refuse(web.HTTPBadRequest, "the body must be a JSON object")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise refuse(web.HTTPBadRequest, f"unknown field {', '.join(map(repr, unknown))}; "
                                         f"fields: {', '.join(fields)}")
    for name, (kind, required) in fields.items():
        if name not in data:
            if required:
                raise refuse(web.HTTPBadRequest, f"missing field {name!r}")
            continue
        value = data[name]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
            raise refuse(web.HTTPBadRequest, f"{name!r} must be {TYPE_NAMES[kind]}, not {json.dumps(value)[:40]}")
    return data


# ---- middlewares -----------------------------------------------------------------------------

@web.middleware
async def _errors(request: web.Request, handler):
    """Every error answers JSON ``{"error": ...}``, including the router's 404 and 405."""
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400 or exc.content_type == "application/json":
            raise
        message = {
            404: f"nothing at {request.path}",
            405: f"{request.method} is not allowed on {request.path}; use {exc.headers.get('Allow', '')}",
            413: f"the request body is too large ({MAX_BODY} bytes at most)",
        }.get(exc.status, exc.reason)
        headers = {"Allow": exc.headers["Allow"]} if "Allow" in exc.headers else None
        return web.json_response({"error": message}, status=exc.status, headers=headers)
    except Exception:
        log.exception("%s %s failed", request.method, request.path)
        return web.json_response({"error": "internal error: see the companion's log"}, status=500)


@web.middleware
async def _guarded(request: web.Request, handler):
    request.app[PANEL].guard.check_request(request)
    return await handler(request)


# ---- the app ---------------------------------------------------------------------------------

class Panel:
    """The handlers, over one session, its hardware and the guard."""

    def __init__(self, session, hardware, guard: Guard):
        self.session, self.hw, self.guard = session, hardware, guard
        self.sim = isinstance(hardware, SimHardware)
        self.hub: Hub | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.seats = Seats([seat.seat for seat in hardware.phones])
        self.join_base = ""                  # the address phones join by (:meth:`serving`)
        self.pages = {name: (STATIC / f"{name}.html").read_text() for name in ("index", "dashboard", "seat", "table")}
        self.assets = {path.name: path for path in STATIC.iterdir() if path.suffix in (".js", ".css")}

    async def start(self, app: web.Application) -> None:
        self.loop = asyncio.get_running_loop()
        self.session.subscribe(self._news)
        self.hub = Hub(self.session, self.loop, device_pixels=not self.guard.lan)

    def _news(self, kind: str, payload) -> None:
        """From the session's thread: the seats played on phones, handed to the web loop."""
        if kind == "phones":
            try:
                self.loop.call_soon_threadsafe(self._phones, payload)
            except RuntimeError:                      # the loop is closed: the server has stopped
                pass

    def _phones(self, phones: list[int]) -> None:
        """The seats played on phones changed (the lobby turned a panel seat to a phone, or back)."""
        for seat in self.seats.play_on(phones):         # a seat back on its panel: its phone is cut off
            self.hub.close(seat_topics(seat))
        self._tell_joins()

    def serving(self, address: str, port: int) -> None:
        """The server listens on ``address``:``port``: the table shows the free phone seats' join codes there."""
        self.join_base = join_base(address, port)
        self._tell_joins()

    def _tell_joins(self) -> None:
        joins = [(seat, code, f"{self.join_base}/J/{code}") for seat, code in self.seats.free()]
        self.session.call(lambda: self.session.set_joins(joins))

    async def stop(self, app: web.Application) -> None:
        self.hub.close()

    # ---- pages and reads ----

    def _page(self, request: web.Request, name: str, **more) -> web.Response:
        config = {"token": self.guard.token, "lan": self.guard.lan, "sim": self.sim,
                  "lanSim": self.guard.lan_sim, "panels": len(self.hw.seats),
                  "phones": [seat.seat for seat in self.hw.phones],
                  "displays": list(self.hw.displays()), "host": self.guard.is_host(request),
                  "glass": self.hw.glass() if self.sim else {}, **more}
        text = self.pages[name].replace("{{config}}", html.escape(json.dumps(config)))
        return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def simulator(self, request: web.Request) -> web.Response:
        if not (self.sim and self.guard.sim_open()):
            raise web.HTTPFound("/dashboard")
        return self._page(request, "index")

    async def dashboard(self, request: web.Request) -> web.Response:
        return self._page(request, "dashboard")

    async def table_page(self, request: web.Request) -> web.Response:
        return self._page(request, "table")

    async def seat_page(self, request: web.Request) -> web.Response:
        """A phone seat's page: that seat's OLED, lamps and buttons; the join form when this device holds
        no seat yet (``/J/CODE``, the QR code's address, joins at once)."""
        seat = request.match_info.get("seat")
        if seat is not None and not (seat.isdigit() and int(seat) in self.seats.phones):
            raise refuse(web.HTTPNotFound, f"seat {seat[:10]} is not a phone seat; phone seats: "
                                           f"{', '.join(map(str, self.seats.phones)) or 'none'}")
        held = seat is not None and self.seats.holds(int(seat), request.cookies)
        return self._page(request, "seat", seat=int(seat) if held else None, asked=int(seat) if seat else None,
                          code=request.match_info.get("code", ""), glassMm=PHONE_GLASS_MM)

    async def asset(self, request: web.Request) -> web.FileResponse:
        path = self.assets.get(request.match_info["name"])
        if path is None:
            raise refuse(web.HTTPNotFound, f"nothing at {request.path}")
        return web.FileResponse(path, headers={"Cache-Control": "no-cache"})

    async def state(self, request: web.Request) -> web.Response:
        if self.hub.public is None:
            raise refuse(web.HTTPServiceUnavailable, "starting up: try again in a moment")
        return web.json_response(self.hub.public)

    async def history(self, request: web.Request) -> web.Response:
        """``GET /api/history?limit=20``: the latest finished games and the stats of them all."""
        unknown = sorted(set(request.query) - {"limit"})
        if unknown:
            raise refuse(web.HTTPBadRequest, f"unknown parameter {', '.join(map(repr, unknown))}; parameters: limit")
        limit = request.query.get("limit", "20")
        if not (limit.isdigit() and 1 <= int(limit) <= MAX_HISTORY):
            raise refuse(web.HTTPBadRequest, f"limit must be a whole number from 1 to {MAX_HISTORY}, not {limit[:20]!r}")
        games = await asyncio.to_thread(self.session.finished_games)     # off the loop: a press never waits
        return web.json_response(history_data(games, int(limit)))

    async def dashboard_events(self, request: web.Request) -> web.StreamResponse:
        return await self.hub.stream(request, DASHBOARD)

    async def sim_events(self, request: web.Request) -> web.StreamResponse:
        self._check_sim()
        return await self.hub.stream(request, SIM)

    async def table_events(self, request: web.Request) -> web.StreamResponse:
        return await self.hub.stream(request, TABLE)

    async def seat_events(self, request: web.Request) -> web.StreamResponse:
        """A phone seat's stream: opened by ``hello`` (the stream's id, which its presses name), then the
        public state, the seat's lamps and its OLED's frames. A newer stream of the seat takes its presses over."""
        seat = self._phone(request)
        stream = self.seats.attach(seat)
        try:
            return await self.hub.stream(request, seat_topics(seat),
                                         first=("hello", json.dumps({"seat": seat, "stream": stream})))
        finally:
            if self.seats.detach(seat, stream):
                for control in CONTROLS:          # a button held when the phone went away is let go
                    self._phone_press(seat, control, False)

    def _phone(self, request: web.Request) -> int:
        """The phone seat a request is for, once its device is known to hold it."""
        seat = request.match_info["seat"]
        if not seat.isdigit():
            raise refuse(web.HTTPNotFound, f"nothing at {request.path}")
        self.seats.check(int(seat), request.cookies)
        return int(seat)

    async def join(self, request: web.Request) -> web.Response:
        """``POST /api/join`` with ``{"code": "ABCDE"}``: this device holds that seat from now on (a cookie)."""
        data = await read_json(request, {"code": (str, True)})
        seat, token = self.seats.join(data["code"][:20], request.remote or "unknown", request.cookies)
        response = web.json_response({"ok": True, "seat": seat, "page": f"/seat/{seat}"})
        if token is not None:
            response.set_cookie(cookie_name(seat), token, max_age=HOST_FOR_S, path="/", httponly=True,
                                samesite="Strict")
            self._tell_joins()
        return response

    async def seat_press(self, request: web.Request) -> web.Response:
        """``POST /api/seat/{n}/press`` with ``{"control": "hole3", "pressed": true, "stream": "..."}``."""
        seat = self._phone(request)
        data = await read_json(request, {"control": (str, True), "pressed": (bool, True), "stream": (str, True)})
        if data["control"] not in CONTROLS:
            raise refuse(web.HTTPBadRequest, f"unknown control {data['control'][:20]!r}: hole1..hole5 or ok")
        self.seats.press(seat, data["stream"], data["pressed"])
        self._phone_press(seat, data["control"], data["pressed"])
        return web.json_response({"ok": True})

    def _phone_press(self, seat: int, control: str, pressed: bool) -> None:
        """A phone's press enters the session as a panel's does: an edge on the box's clock."""
        self.session.post(Edge(self.session.clock(), seat, control, pressed, phone=True))

    async def free_seat(self, request: web.Request) -> web.Response:
        """``POST /api/host/free-seat`` with ``{"seat": 3}`` (and the PIN in LAN mode): a lost phone's seat
        is free to join again, by a new code; the old device's page is cut off."""
        data = await read_json(request, {"seat": (int, True), "pin": (str, False)})
        cookie = self.guard.authorise(request, data.get("pin"))
        seat = self._seat(data["seat"])
        held = self.seats.release(seat)
        self.hub.close(seat_topics(seat))
        self._tell_joins()
        return _host_answer({"ok": True, "seat": seat, "held": held}, cookie)

    async def phones(self, request: web.Request) -> web.Response:
        """``GET /api/seats``: each phone seat free, held by a connected phone, or held by one away (no codes)."""
        free = {seat for seat, _ in self.seats.free()}
        return web.json_response({str(seat): "free" if seat in free else "connected" if self.seats.connected(seat)
                                  else "away" for seat in self.seats.phones})

    # ---- changes ----

    def _check_sim(self) -> None:
        if not self.sim:
            raise refuse(web.HTTPNotFound, "no simulator: this box runs on real panels")
        if not self.guard.sim_open():
            raise refuse(web.HTTPForbidden, "the simulator is off in LAN mode: the host can turn it on "
                                            "from the dashboard, or start molebox with --lan-sim")

    def _seat(self, seat: int) -> int:
        if not 1 <= seat <= len(self.hw.seats):
            raise refuse(web.HTTPBadRequest, f"seat {seat} does not exist; seats are 1 to {len(self.hw.seats)}")
        return seat

    async def press(self, request: web.Request) -> web.Response:
        """Drive one mock pin: ``{"seat": 1, "control": "hole3", "pressed": true}`` (a phone seat: its phone's press)."""
        self._check_sim()
        data = await read_json(request, {"seat": (int, True), "control": (str, True), "pressed": (bool, True)})
        seat, control = self._seat(data["seat"]), data["control"]
        if control not in CONTROLS:
            raise refuse(web.HTTPBadRequest, f"unknown control {control[:20]!r}: hole1..hole5 or ok")
        if seat in self.seats.phones:              # the simulator plays a phone seat as its phone would
            self._phone_press(seat, control, data["pressed"])
        else:
            self.hw.drive(seat, control, data["pressed"])
        return web.json_response({"ok": True})

    async def host(self, request: web.Request) -> web.Response:
        """``POST /api/host/{new-game,undo,end-game}`` with ``{"pin": "..."}`` in LAN mode."""
        action = HOST_ACTIONS.get(request.match_info["action"])
        if action is None:
            raise refuse(web.HTTPNotFound, f"no host action {request.match_info['action'][:30]!r}; "
                                           f"actions: {', '.join(HOST_ACTIONS)}")
        data = await read_json(request, {"pin": (str, False)})
        cookie = self.guard.authorise(request, data.get("pin"))
        refusal = await self._on_session(action)
        if refusal:
            raise refuse(web.HTTPConflict, refusal)
        return _host_answer({"ok": True}, cookie)

    async def login(self, request: web.Request) -> web.Response:
        """``POST /api/host/login`` with ``{"pin": "..."}``: this device is the host's for the night."""
        data = await read_json(request, {"pin": (str, True)})
        cookie = self.guard.authorise(request, data["pin"])
        return _host_answer({"ok": True, "host": True}, cookie)

    async def logout(self, request: web.Request) -> web.Response:
        """``POST /api/host/logout``: this device is no longer the host's (a phone passed round the table)."""
        await read_json(request, {})
        response = web.json_response({"ok": True, "host": not self.guard.lan})
        response.del_cookie(HOST_COOKIE, path="/")
        return response

    async def name(self, request: web.Request) -> web.Response:
        """``POST /api/names`` with ``{"seat": 2, "name": "Ada"}`` (and the PIN in LAN mode); "" takes it away."""
        data = await read_json(request, {"seat": (int, True), "name": (str, True), "pin": (str, False)})
        cookie = self.guard.authorise(request, data.get("pin"))
        seat = self._seat(data["seat"])
        try:
            name = clean_name(data["name"])
        except ValueError as exc:
            raise refuse(web.HTTPBadRequest, str(exc)) from None
        refusal = await self._on_session(lambda table: table.set_name(seat, name))
        if refusal:
            raise refuse(web.HTTPConflict, refusal)
        return _host_answer({"ok": True, "seat": seat, "name": name}, cookie)

    async def lan_sim(self, request: web.Request) -> web.Response:
        """``POST /api/host/lan-sim`` with ``{"enabled": bool, "pin": "..."}``."""
        data = await read_json(request, {"enabled": (bool, True), "pin": (str, False)})
        cookie = self.guard.authorise(request, data.get("pin"))
        if not self.sim:
            raise refuse(web.HTTPNotFound, "no simulator: this box runs on real panels")
        self.guard.lan_sim = data["enabled"]
        if not self.guard.sim_open():
            self.hub.close(SIM)
        return _host_answer({"ok": True, "lanSim": self.guard.lan_sim}, cookie)

    async def _on_session(self, action: Callable) -> str | None:
        """Run ``action(session)`` on the session loop and wait for its answer."""
        loop = asyncio.get_running_loop()
        done = loop.create_future()

        def job():
            try:
                outcome, error = self.session.host(action), None
            except Exception as exc:          # a bug: the loop goes on, the request answers 500
                outcome, error = None, exc
            loop.call_soon_threadsafe(_settle, done, outcome, error)

        self.session.call(job)
        try:
            return await asyncio.wait_for(done, ACTION_TIMEOUT_S)
        except asyncio.TimeoutError:
            raise refuse(web.HTTPServiceUnavailable, "the session loop did not answer in time") from None


def _host_answer(body: dict, cookie: str | None) -> web.Response:
    """A host action's answer; with the cookie that makes this device the host's when the PIN was just entered."""
    response = web.json_response(body)
    if cookie is not None:
        response.set_cookie(HOST_COOKIE, cookie, max_age=HOST_FOR_S, path="/", httponly=True, samesite="Strict")
    return response


def _settle(future: asyncio.Future, outcome, error: Exception | None) -> None:
    if future.done():
        return
    future.set_exception(error) if error else future.set_result(outcome)


PANEL = web.AppKey("panel", Panel)


def make_app(session, hardware, guard: Guard) -> web.Application:
    panel = Panel(session, hardware, guard)
    app = web.Application(middlewares=[_errors, _guarded], client_max_size=MAX_BODY)
    app[PANEL] = panel
    app.on_startup.append(panel.start)
    app.on_shutdown.append(panel.stop)
    app.router.add_get("/", panel.simulator)
    app.router.add_get("/dashboard", panel.dashboard)
    app.router.add_get("/table", panel.table_page)
    app.router.add_get("/seat/{seat}", panel.seat_page)
    app.router.add_get("/join", panel.seat_page)
    app.router.add_get("/J/{code}", panel.seat_page)
    app.router.add_get("/j/{code}", panel.seat_page)
    app.router.add_post("/api/join", panel.join)
    app.router.add_get("/api/seats", panel.phones)
    app.router.add_get("/api/seat/{seat}/events", panel.seat_events)
    app.router.add_post("/api/seat/{seat}/press", panel.seat_press)
    app.router.add_get("/api/table/events", panel.table_events)
    app.router.add_post("/api/host/free-seat", panel.free_seat)
    app.router.add_get("/api/state", panel.state)
    app.router.add_get("/api/history", panel.history)
    app.router.add_post("/api/names", panel.name)
    app.router.add_get("/api/dashboard/events", panel.dashboard_events)
    app.router.add_get("/api/sim/events", panel.sim_events)
    app.router.add_post("/api/sim/press", panel.press)
    app.router.add_post("/api/host/lan-sim", panel.lan_sim)
    app.router.add_post("/api/host/login", panel.login)
    app.router.add_post("/api/host/logout", panel.logout)
    app.router.add_post("/api/host/{action}", panel.host)
    app.router.add_get("/static/{name}", panel.asset)
    return app


# ---- serving it ------------------------------------------------------------------------------

async def start(app: web.Application, sock: socket.socket) -> tuple[web.AppRunner, int]:
    """Serve ``app`` on a listening socket (:func:`listen`); returns the runner and the port."""
    # handler_cancellation: a page that goes away ends its stream at once (a phone seat shows "away"
    # and its held buttons are let go), not at the next keep-alive.
    runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    address, port = sock.getsockname()[:2]
    app[PANEL].serving(address, port)
    return runner, port


def join_base(address: str, port: int) -> str:
    """The address a phone on the network opens the box by: ``HTTP://IP:PORT`` in capitals (a QR code's
    alphanumeric mode is half the size). Listening on every interface, the address of the one that
    routes out (no packet is sent); else the one listened on."""
    if address in ("0.0.0.0", "::", ""):
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.connect(("192.0.2.1", 9))       # TEST-NET-1: only picks the route
            address = probe.getsockname()[0]
        except OSError:
            address = f"{socket.gethostname()}.local"
        finally:
            probe.close()
    host = f"[{address}]" if ":" in address else address
    return f"HTTP://{host}:{port}".upper()
