"""Who may do what: the Host check, CSRF, the host PIN and its cookie, and the LAN switch for the simulator.

- Every request must name this box in its ``Host`` header (a loopback name on
  127.0.0.1; an IP address, ``localhost``, this machine's name or a ``.local``
  name in LAN mode), so a DNS-rebinding page cannot read the token.
- Every POST (any method that may change something) needs the page's token in ``X-Molebox-Token`` and an ``Origin``
  equal to this server's.
- In LAN mode host actions need the host: a device that has entered the PIN (shown only on the
  box's own glass) holds an HttpOnly, SameSite=Strict cookie signed with the box's key, good for
  the night and never refused because of anyone else's guesses. The night is measured on the monotonic
  clock while the Pi stays up (NTP steps its wall clock, often by hours, after the box has started), on
  the wall clock after a reboot. Each cookie has an id of its own: "Lock it again" logs that one out on
  the box (kept in the PIN file), so a copy replayed from anywhere is refused. Wrong PINs (and wrong join codes)
  cost per address and from every address together (:mod:`companion.web.guesses`). The simulator
  (its stream carries every seat's OLED, its presses play for anyone) is off
  until the host turns it on.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import math
import secrets
import socket
import time

from aiohttp import web

from companion.tokens import same
from companion.words import say

from .guesses import Secret
from .host_pin import HostPin, Served

TOKEN_HEADER = "X-Molebox-Token"
HOST_COOKIE = "molebox_host"
HOST_FOR_S = 12 * 3600              # a game night
BOOT_ID = "/proc/sys/kernel/random/boot_id"     # the kernel's id of this boot: the monotonic clock's era
FREE_PINS, MOST_PIN_WAIT_S = 10, 300.0      # 100 000 PINs: past 10 wrong an hour, 12 guesses an hour at most
FREE_CODES, MOST_CODE_WAIT_S = 30, 30.0     # 33 million codes: a joining phone waits half a minute at most


def refuse(cls: type[web.HTTPException], message: str) -> web.HTTPException:
    """An HTTP error whose body is ``{"error": message}``."""
    return cls(text=json.dumps({"error": message}), content_type="application/json")


def too_many(message: str, wait: float) -> web.HTTPException:
    """429 with ``message``, and the seconds to wait in ``Retry-After``."""
    exc = refuse(web.HTTPTooManyRequests, message)
    exc.headers["Retry-After"] = str(math.ceil(wait))
    return exc


def is_loopback(listen: str) -> bool:
    """True when ``listen`` only answers this machine (the default, 127.0.0.1)."""
    if listen == "localhost":
        return True
    try:
        return ipaddress.ip_address(listen).is_loopback
    except ValueError:
        return False


def this_machine(address: str) -> bool:
    """Whether a client at ``address`` is the Pi itself: 127.0.0.1 or ::1 (an IPv4-mapped one too). Other
    127.x addresses are left to stand for other devices, as the tests use them."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    ip = getattr(ip, "ipv4_mapped", None) or ip
    return str(ip) in ("127.0.0.1", "::1")



def _hostname(host: str) -> str:
    """The name in a Host header, without its port."""
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    def __init__(self, lan: bool, pin=None, lan_sim: bool = False, clock=time.monotonic, wall=time.time):
        """``pin``: a :class:`~companion.web.host_pin.HostPin` (or the PIN's text, for a PIN of this run only)."""
        if lan and not pin:
            raise ValueError("LAN mode needs a host PIN")
        self.lan = lan
        self.host_pin = pin if pin is None or isinstance(pin, HostPin) else _Fixed(pin)
        self.lan_sim = lan_sim
        self.token = secrets.token_urlsafe(24)
        self.clock, self.wall = clock, wall
        self.boot = _boot_id()
        self.pin_guesses = Secret("PIN", clock, FREE_PINS, MOST_PIN_WAIT_S)
        self.code_guesses = Secret("join code", clock, FREE_CODES, MOST_CODE_WAIT_S)
        self.machine = socket.gethostname().lower()

    @property
    def pin(self) -> str | None:
        return None if self.host_pin is None else self.host_pin.pin

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
        if not same(request.headers.get(TOKEN_HEADER, ""), self.token):
            raise refuse(web.HTTPForbidden, f"missing or wrong {TOKEN_HEADER}: reload the page")

    # ---- the host -------------------------------------------------------------------------

    def is_host(self, request: web.Request) -> bool:
        """Free on 127.0.0.1; in LAN mode, a device holding a good host cookie."""
        if not self.lan:
            return True
        return self._host_cookie(request) is not None

    def _host_cookie(self, request: web.Request) -> str | None:
        """The id of the request's host cookie, if it is good now: signed by this box, not expired, not logged out."""
        cookie = request.cookies.get(HOST_COOKIE, "")
        signed, _, signature = cookie.rpartition(".")
        fields = signed.split(".")
        if len(fields) != 4 or not all(f.isascii() and f.isdigit() for f in fields[:3:2]):
            return None
        wall_until, boot, clock_until, cookie_id = fields
        now_good = int(clock_until) > self.clock() if boot == self.boot else int(wall_until) > self.wall()
        if not (now_good and hmac.compare_digest(signature, self._sign(signed))):
            return None
        return None if self.host_pin.revoked(cookie_id) else cookie_id

    def logout(self, request: web.Request) -> None:
        """The device is no longer the host's: its cookie is refused from now on, wherever a copy of it comes from
        (this writes the PIN file: call it off the loop)."""
        if self.lan and (cookie_id := self._host_cookie(request)) is not None:
            self.host_pin.revoke(cookie_id)

    def sees_join_codes(self, request: web.Request) -> bool:
        """The host's device, or the Pi itself (its kiosk on a TV): those may see the join codes the table shows."""
        return self.is_host(request) or this_machine(request.remote or "")

    def authorise(self, request: web.Request, given: str | None) -> str | None:
        """Let a host action through: a host's device, or the right PIN now. Returns a new cookie to set
        when the PIN was just entered (None otherwise); raises 403 or 429 with what to do."""
        if self.is_host(request):
            return None
        if given is None:
            raise refuse(web.HTTPForbidden, say("host PIN needed: it is on the box (the table display, seat 1's "
                                                "screen in the lobby, or `molebox pin` on the Pi)"))
        address = request.remote or "unknown"
        refusal = self.pin_guesses.refusal(address)
        if refusal:
            raise too_many(refusal, self.pin_guesses.wait(address))
        if not same(given, self.pin):
            self.pin_guesses.wrong(address)
            raise refuse(web.HTTPForbidden, say("wrong host PIN: it is on the box (the table display, seat 1's "
                                                "screen in the lobby, or `molebox pin` on the Pi)"))
        return self.host_cookie()

    def logs_in(self, key: str) -> bool:
        """Whether ``key`` is the host QR code's login key: never counted as a guess, and never waits."""
        return self.lan and same(key.strip().upper(), self.host_pin.login)

    def host_cookie(self) -> str:
        """A new host cookie, good for the night, with an id of its own."""
        signed = f"{int(self.wall() + HOST_FOR_S)}.{self.boot}.{int(self.clock() + HOST_FOR_S)}.{secrets.token_hex(8)}"
        return f"{signed}.{self._sign(signed)}"

    def _sign(self, signed: str) -> str:
        return hmac.new(self.host_pin.key, signed.encode(), hashlib.sha256).hexdigest()

    def sim_open(self) -> bool:
        return not self.lan or self.lan_sim


def _boot_id() -> str:
    """This boot's id (letters, digits and dashes), or this process's where the kernel has none to say."""
    try:
        with open(BOOT_ID) as found:
            return found.read().strip()
    except OSError:
        return secrets.token_hex(16)


class _Fixed(Served):
    """A PIN given as text: for this run only, with a cookie key of its own."""

    def __init__(self, pin: str):
        self.pin, self.key = pin, secrets.token_bytes(32)
        self._revoked: set[str] = set()

    def revoke(self, cookie: str) -> None:
        self._revoked.add(cookie)

    def revoked(self, cookie: str) -> bool:
        return cookie in self._revoked
