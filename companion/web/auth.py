"""Who may do what: the Host check, CSRF, the host PIN and the LAN switch for the simulator.

- Every request must name this box in its ``Host`` header (a loopback name on
  127.0.0.1; an IP address, ``localhost``, this machine's name or a ``.local``
  name in LAN mode), so a DNS-rebinding page cannot read the token.
- Every POST (any method that may change something) needs the page's token in ``X-Molebox-Token`` and an ``Origin``
  equal to this server's.
- In LAN mode host actions need the PIN shown on the table display, and five
  wrong PINs lock them for half a minute; the simulator (its stream carries
  every seat's OLED, its presses play for anyone) is off until the host turns
  it on.
"""
from __future__ import annotations

import ipaddress
import json
import secrets
import socket
import time

from aiohttp import web

TOKEN_HEADER = "X-Molebox-Token"
MAX_WRONG_PINS = 5
LOCKOUT_S = 30.0


def refuse(cls: type[web.HTTPException], message: str) -> web.HTTPException:
    """An HTTP error whose body is ``{"error": message}``."""
    return cls(text=json.dumps({"error": message}), content_type="application/json")


def is_loopback(listen: str) -> bool:
    """True when ``listen`` only answers this machine (the default, 127.0.0.1)."""
    if listen == "localhost":
        return True
    try:
        return ipaddress.ip_address(listen).is_loopback
    except ValueError:
        return False


def _hostname(host: str) -> str:
    """The name in a Host header, without its port."""
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _same(given: str, wanted: str) -> bool:
    """Constant-time comparison that takes any text (``compare_digest`` refuses non-ASCII str)."""
    return secrets.compare_digest(given.encode("utf-8", "surrogatepass"), wanted.encode())


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    def __init__(self, lan: bool, pin: str | None = None, lan_sim: bool = False,
                 clock=time.monotonic):
        if lan and not pin:
            raise ValueError("LAN mode needs a host PIN")
        self.lan = lan
        self.pin = pin
        self.lan_sim = lan_sim
        self.token = secrets.token_urlsafe(24)
        self.clock = clock
        self.wrong = 0
        self.locked_until = 0.0
        self.machine = socket.gethostname().lower()

    def host_allowed(self, host: str) -> bool:
        name = _hostname(host.lower())
        if not self.lan:
            return name == "localhost" or _is_ip(name) and ipaddress.ip_address(name).is_loopback
        return _is_ip(name) or name in ("localhost", self.machine) or name.endswith(".local")

    def check_request(self, request: web.Request) -> None:
        host = request.headers.get("Host", "")
        if not self.host_allowed(host):
            raise refuse(web.HTTPForbidden, f"unknown Host {host!r}: open the box by its address")
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return
        origin = request.headers.get("Origin")
        if origin is None or origin.lower() != f"http://{host.lower()}":
            raise refuse(web.HTTPForbidden, "cross-site request refused: the Origin header must be this box's page")
        if not _same(request.headers.get(TOKEN_HEADER, ""), self.token):
            raise refuse(web.HTTPForbidden, f"missing or wrong {TOKEN_HEADER}: reload the page")

    def check_pin(self, given: str | None) -> None:
        """Host actions: free on 127.0.0.1, the table display's PIN in LAN mode."""
        if not self.lan:
            return
        wait = self.locked_until - self.clock()
        if wait > 0:
            raise refuse(web.HTTPTooManyRequests, f"too many wrong PINs: try again in {wait:.0f} s")
        if given is None:
            raise refuse(web.HTTPForbidden, "host PIN needed: it is on the table display")
        if not _same(given, self.pin):
            self.wrong += 1
            if self.wrong >= MAX_WRONG_PINS:
                self.wrong, self.locked_until = 0, self.clock() + LOCKOUT_S
            raise refuse(web.HTTPForbidden, "wrong host PIN: it is on the table display")
        self.wrong = 0

    def sim_open(self) -> bool:
        return not self.lan or self.lan_sim
