"""The web panel's app: one aiohttp app on an event loop beside the session loop (docs/web.md).

Each audience has its module: the simulator (:mod:`.simulator`), the dashboard (:mod:`.dashboard`)
and the host's actions (:mod:`.host`), the phone seats (:mod:`.phone_pages`), the table view on a
TV (:mod:`.tv`), the rules docs (:mod:`.rules_docs`); what they share is the :class:`~companion.web.site.Site`.
Nothing here changes the game itself: a press enters the session as an edge (the simulator's drives a mock pin,
the path a finger takes on real hardware), and a host action runs on the session loop by name.
"""
from __future__ import annotations

import logging
import socket

from aiohttp import web

from . import dashboard, host, malformed, phone_pages, rules_docs, simulator, tv
from .auth import Guard
from .bodies import MAX_BODY
from .box import Box
from .doors import Caps, Doors
from .phone_keys import Refused
from .site import Site

log = logging.getLogger("molebox.web")

REFUSED = {"no-such-seat": 404, "not-a-phone": 400, "wrong-code": 403, "denied": 403, "held": 409, "stale": 409,
           "too-fast": 429}      # a phone seat's refusal (companion.web.phone_keys.Refused) as HTTP


@web.middleware
async def _errors(request: web.Request, handler):
    """Every error answers JSON ``{"error": ...}``, including the router's 404 and 405 and a phone seat's refusal."""
    try:
        return await handler(request)
    except Refused as exc:
        return web.json_response({"error": str(exc)}, status=REFUSED[exc.kind])
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
async def _counted(request: web.Request, handler):
    """A request in progress keeps its connection from being closed as idle; one that shows a host or a seat
    cookie makes its connection known (:mod:`.doors`)."""
    site = request.app[SITE]
    visit = site.doors.request_began(request, site.known(request)) if site.doors else None
    try:
        return await handler(request)
    finally:
        if visit is not None:
            site.doors.request_ended(visit)


@web.middleware
async def _guarded(request: web.Request, handler):
    request.app[SITE].guard.check_request(request)
    return await handler(request)


SITE = web.AppKey("site", Site)


def make_app(box: Box, guard: Guard) -> web.Application:
    """The web panel on ``box`` (:class:`companion.port.WebPort`: the session as the web may use it)."""
    site = Site(box, guard)
    app = web.Application(middlewares=[_counted, _errors, _guarded], client_max_size=MAX_BODY)
    app[SITE] = site
    app.on_startup.append(site.start)
    app.on_shutdown.append(site.stop)
    # host last: /api/host/{action} catches all
    for audience in (simulator, phone_pages, tv, rules_docs, dashboard, host):
        app.router.add_routes(audience.routes(site))
    app.router.add_get("/static/{name}", site.asset)
    return app


async def start(app: web.Application, sock: socket.socket, caps: Caps | None = None) -> tuple[web.AppRunner, int]:
    """Serve ``app`` on a listening socket (:func:`companion.service.listen`) through the doors' ``caps`` (by
    default, under this process's open-file limit); returns the runner and the port."""
    caps = caps or Caps.for_this_process()
    address, port = sock.getsockname()[:2]
    site = app[SITE]
    site.phones.serve_at(join_base(address, port))             # before any page: no QR code without the address
    if site.guard.host_pin is not None:
        site.guard.host_pin.serve_at(join_base(address, port))
    # handler_cancellation: a page that goes away ends its stream at once (a phone seat shows "away"
    # and its held buttons are let go), not at the next keep-alive.
    # auto_decompress off: a body is never inflated (a compressed one is refused, read_json), so a
    # garbled gzip body is the client's 415, not a parser error with a traceback in the log.
    # A malformed request's traceback would be nine lines of the log for each (companion/web/malformed.py).
    malformed.quiet()
    runner = web.AppRunner(app, access_log=None, handler_cancellation=True, auto_decompress=False,
                           keepalive_timeout=caps.idle_s)
    await runner.setup()
    doors = Doors(runner, sock, caps)
    await doors.start()
    app[SITE].doors = doors
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
