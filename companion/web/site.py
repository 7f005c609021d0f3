"""What every audience of the web panel shares: the box (its port), the guard, the phone seats' keys, the event hub and
the pages."""
from __future__ import annotations

import asyncio
import html
import json
from pathlib import Path

from aiohttp import web

from companion.inputs import HOLD_S
from companion.scene import PICKS_S

from .auth import Guard, refuse
from .box import Box
from .hub import Hub, seat as seat_topics
from .phone_keys import PhoneKeys
from .words import catalogue, plurals

STATIC = Path(__file__).parent / "static"
GUESSING_EVERY_S = 1.0      # the dashboard's guessing figures, at most this often
PAGES = ("index", "dashboard", "seat", "tv")


def seat_cookie(seat: int) -> str:
    """The name of the cookie that says a device holds phone seat ``seat``."""
    return f"molebox_seat{seat}"


class Site:
    def __init__(self, box: Box, guard: Guard):
        self.box, self.guard = box, guard
        self.phones = PhoneKeys(box.phones())
        self.simulator = box.simulator
        self.seats = box.seats
        self.hub: Hub | None = None
        self.doors = None                       # the accept loop (:mod:`.doors`), once serving
        self._guessing_due = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.pages = {name: (STATIC / f"{name}.html").read_text() for name in PAGES}
        self.assets = {path.name: path for path in STATIC.iterdir() if path.suffix in (".js", ".css")}

    async def start(self, app: web.Application) -> None:
        self.loop = asyncio.get_running_loop()
        self.hub = Hub(self.box, self.loop, device_pixels=not self.guard.lan)
        self.phones.watch(self._keys_changed)
        self.box.watch_phones(self._phones_changed)
        self.box.show_joins(self.phones.joins())
        for secret in (self.guard.pin_guesses, self.guard.code_guesses):
            secret.watch(self._guessed)

    def _guessed(self) -> None:
        """A guess was counted: the dashboards hear the figures within a second (one message for a flood)."""
        if not self._guessing_due:
            self._guessing_due = True
            self.loop.call_later(GUESSING_EVERY_S, self._tell_guessing)

    def _tell_guessing(self) -> None:
        self._guessing_due = False
        self.hub.publish("guessing", {"pins": self.guard.pin_guesses.figures(), "codes": self.guard.code_guesses.figures()})

    async def stop(self, app: web.Application) -> None:
        self.hub.close()

    def _phones_changed(self, phones: frozenset[int], gone: frozenset[int]) -> None:
        """From the session's thread: the table changed which seats are played on phones."""
        self.phones.seats(phones)

    def _keys_changed(self, gone: list[int], freed: bool) -> None:
        """From any thread: the free seats' join codes go to the screens; the phones of the ``gone`` seats (back on
        their panels, or freed) lose their pages, and a freed seat says so."""
        self.box.show_joins(self.phones.joins())
        if freed:
            for seat in gone:
                self.box.freed(seat)
        if gone:
            try:
                self.loop.call_soon_threadsafe(lambda: [self.hub.close(seat_topics(seat)) for seat in gone])
            except RuntimeError:                      # the loop is closed: the server has stopped
                pass

    # ---- pages ----

    def page(self, request: web.Request, name: str, **more) -> web.Response:
        """One of the pages, with what its script needs to know in its config: its words in the box's language too."""
        config = {"token": self.guard.token, "lan": self.guard.lan, "sim": self.simulator is not None,
                  "lanSim": self.guard.lan_sim, "panels": self.seats,
                  "phones": list(self.box.phone_panels),
                  "displays": list(self.box.displays), "host": self.guard.is_host(request),
                  "glass": self.simulator.glass() if self.simulator else {}, "words": catalogue(),
                  "plural": plurals(), "picksMs": round(PICKS_S * 1000), "holdMs": round(HOLD_S * 1000), **more}
        text = self.pages[name].replace("{{config}}", html.escape(json.dumps(config)))
        return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def asset(self, request: web.Request) -> web.FileResponse:
        path = self.assets.get(request.match_info["name"])
        if path is None:
            raise refuse(web.HTTPNotFound, f"nothing at {request.path}")
        return web.FileResponse(path, headers={"Cache-Control": "no-cache"})

    # ---- what several audiences do ----

    def known(self, request: web.Request) -> bool:
        """Whether the request comes from the host's device or a device holding a phone seat."""
        return self.guard.is_host(request) or any(
            self.phones.holds(seat, request.cookies.get(seat_cookie(seat), "")) for seat in self.phones.playing)

    def seat(self, seat: int) -> int:
        """A seat number from a request, checked."""
        if not 1 <= seat <= self.seats:
            raise refuse(web.HTTPBadRequest, f"seat {seat} does not exist; seats are 1 to {self.seats}")
        return seat

    def press_as_phone(self, seat: int, control: str, pressed: bool, by_host: bool) -> None:
        """A phone's press enters the box as a panel's does: an edge on the box's clock; ``by_host``: from the
        host's device (seat 1's hold-OK undo needs it), which the press carries."""
        self.box.press(seat, control, pressed, host=by_host)
