"""Who gets a connection, and for how long: the web panel's own accept loop, for a box on a crowded Wi-Fi.

Every connection costs an open file, and the box has a limit of them (the unit's ``LimitNOFILE``).
Without a bound, about a thousand idle connections took the panel down. Here:

- **Known and unknown.** A connection from the Pi itself (127.0.0.1, ::1: its kiosk, the maker's
  simulator) is known at once; any other becomes known once a request on it shows a host or a seat
  cookie (the host's dashboard, a joined phone). The rest are unknown: guests, and whoever floods.
- **Caps.** Unknown connections are ``unknown`` at most; every address but the Pi's own ``per_address``
  at most; all of them ``in_all`` at most, which leaves the box's own files (journal, render
  process, buses) room under the open-file limit. A new connection that finds the unknown ones full
  (or all of them) closes the unknown one that has gone longest without beginning a request: idle since its
  last, or holding one (a guest's event stream is never idle: 256 of them, held from 16 addresses, once kept
  every newcomer out, the host's next connection too). A new connection is unknown until its request shows
  its cookie, so it must get in, and stay in a moment, to be known: the newest are closed last. A flood can
  crowd out guests but never the host, the seats already joined, or the Pi. A connection is refused (closed
  at once) only when its address has its share, or every place is known.
- **Idle and slow.** A connection with no request in progress for ``idle_s`` is closed: one that never
  sent a request, sends its headers a byte at a time, or sits between keep-alive requests. A slow body
  is :func:`~companion.web.bodies.read_json`'s to time out; a stream whose page stopped reading, the
  hub's (:mod:`companion.web.hub`).
- **Said once.** What was refused, or closed to make room, goes to the log once a minute at most, with
  how many; an idle connection closed is housekeeping, not news.
"""
from __future__ import annotations

import asyncio
import errno
import logging
import resource
import socket
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass

from aiohttp import web

from .auth import this_machine
from .once import Once

log = logging.getLogger("molebox.web")

OWN_FILES = 64              # room under the open-file limit for the box's own files (it uses about 30)
MOST_UNKNOWN = 256          # guests' connections at once: a phone's page holds 2 to 6
PER_ADDRESS = 16
IDLE_S = 10.0
SWEEP_S = 1.0
SEND_BUFFER = 64 * 1024     # the kernel's for each connection (it doubles it): a page that stops reading shows
                            # within a few frames, and a thousand connections cost no more than 128 MB
OUT_OF_FILES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


@dataclass(frozen=True)
class Caps:
    in_all: int
    unknown: int
    per_address: int = PER_ADDRESS
    idle_s: float = IDLE_S

    @classmethod
    def for_this_process(cls) -> "Caps":
        """Caps under this process's open-file limit."""
        limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        in_all = max(16, (limit if limit != resource.RLIM_INFINITY else 65536) - OWN_FILES)
        return cls(in_all=in_all, unknown=min(MOST_UNKNOWN, in_all // 2))


class Visit:
    """One connection admitted: where from, whether known, and whether a request is in progress."""

    __slots__ = ("address", "known", "busy", "transport")

    def __init__(self, address: str, known: bool):
        self.address, self.known, self.busy = address, known, 0
        self.transport: asyncio.Transport | None = None


class _Door(asyncio.Protocol):
    """aiohttp's handler for one connection, behind which the doors see it close."""

    def __init__(self, doors: "Doors", visit: Visit, handler: asyncio.Protocol):
        self.doors, self.visit, self.handler = doors, visit, handler

    def connection_made(self, transport):
        self.doors._opened(self.visit, transport)
        self.handler.connection_made(transport)

    def data_received(self, data):
        self.handler.data_received(data)

    def eof_received(self):
        return self.handler.eof_received()

    def pause_writing(self):
        self.handler.pause_writing()

    def resume_writing(self):
        self.handler.resume_writing()

    def connection_lost(self, exc):
        self.doors._closed(self.visit)
        self.handler.connection_lost(exc)


class Doors(web.BaseSite):
    """Serve the runner's app on a listening socket through the caps above."""

    def __init__(self, runner: web.BaseRunner, sock: socket.socket, caps: Caps, clock=time.monotonic):
        super().__init__(runner)
        self._sock, self.caps, self.clock = sock, caps, clock
        self.visits: dict[asyncio.Transport, Visit] = {}
        self._idle: OrderedDict[Visit, float] = OrderedDict()      # unknown and known, idle since, oldest first
        self._unknown: OrderedDict[Visit, None] = OrderedDict()    # by when each last began idling or a request
        self.per_address: Counter[str] = Counter()
        self.unknown = 0
        self._tasks: list[asyncio.Task] = []
        self._said = Once(log, every_s=60, clock=clock)
        self.refused = self.closed = 0                             # since the log last said so
        host, port = sock.getsockname()[:2]
        self._name = f"http://{host}:{port}"

    @property
    def name(self) -> str:
        return self._name

    async def start(self) -> None:
        await super().start()
        self._tasks = [asyncio.create_task(self._accept()), asyncio.create_task(self._sweep())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._sock.close()
        await super().stop()

    # ---- at the door ----

    async def _accept(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                conn, peer = await loop.sock_accept(self._sock)
            except OSError as exc:
                if exc.errno not in OUT_OF_FILES:
                    continue                                # the client gave up before it was taken
                self._say(f"out of open files ({exc.strerror}): new connections wait")
                await asyncio.sleep(0.1)
                continue
            address = str(peer[0])
            visit = self._admit(address)
            if visit is None:
                self.refused += 1
                conn.close()
                self._say("refusing connections")
                continue
            server = self._runner.server
            try:
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
                await loop.connect_accepted_socket(lambda: _Door(self, visit, server()), conn)
            except OSError:
                conn.close()

    def _admit(self, address: str) -> Visit | None:
        """A place for a connection from ``address``, making room by closing an unknown one; None: refused."""
        known = this_machine(address)
        if not known and self.per_address[address] >= self.caps.per_address:
            return None
        if (not known and self.unknown >= self.caps.unknown) or len(self.visits) >= self.caps.in_all:
            if not self._make_room():
                return None
        visit = Visit(address, known)
        self.per_address[address] += 1
        self.unknown += not known
        return visit

    def _make_room(self) -> bool:
        """Close the unknown connection that has gone longest without beginning a request (idle, or holding a
        guest's event stream); False if every connection is known. The newest go last: one of them may be a
        known device's, not yet showing its cookie."""
        gone = next(iter(self._unknown), None)
        if gone is None:
            return False
        self._close(gone)
        self.closed += 1
        self._say("closing guests' connections to make room")
        return True

    def _close(self, visit: Visit) -> None:
        """Close a connection now: its place is free at once (the transport says it is lost later)."""
        self._closed(visit)
        visit.transport.abort()

    def _opened(self, visit: Visit, transport: asyncio.Transport) -> None:
        visit.transport = transport
        self.visits[transport] = visit
        self._idle[visit] = self.clock()
        if not visit.known:
            self._unknown[visit] = None

    def _closed(self, visit: Visit) -> None:
        if self.visits.pop(visit.transport, None) is None:
            return
        self._idle.pop(visit, None)
        self._unknown.pop(visit, None)
        self.per_address[visit.address] -= 1
        if not self.per_address[visit.address]:
            del self.per_address[visit.address]
        self.unknown -= not visit.known

    # ---- requests ----

    def request_began(self, request: web.Request, known: bool) -> Visit | None:
        """A request on one of these connections; ``known``: it showed a host or a seat cookie."""
        visit = self.visits.get(request.transport)
        if visit is None:
            return None
        if known and not visit.known:
            visit.known = True
            self.unknown -= 1
            self._unknown.pop(visit, None)
        if not visit.busy:
            self._since_now(visit)
        visit.busy += 1
        self._idle.pop(visit, None)
        return visit

    def request_ended(self, visit: Visit | None) -> None:
        if visit is None:
            return
        visit.busy -= 1
        if not visit.busy and visit.transport in self.visits:
            self._idle[visit] = self._since_now(visit)

    def _since_now(self, visit: Visit) -> float:
        """The visit begins idling or a request now: the last of the unknown to be closed for room."""
        if visit in self._unknown:
            self._unknown.move_to_end(visit)
        return self.clock()

    async def _sweep(self) -> None:
        """Close every connection idle for ``idle_s``."""
        while True:
            await asyncio.sleep(SWEEP_S)
            deadline = self.clock() - self.caps.idle_s
            while self._idle:
                visit, since = next(iter(self._idle.items()))
                if since > deadline:
                    break
                self._close(visit)

    def _say(self, what: str) -> None:
        def text() -> str:
            said = (f"the web panel is crowded: {what}; since the last word, {self.refused} refused and "
                    f"{self.closed} idle ones closed for room; {len(self.visits)} open ({self.unknown} unknown, "
                    f"{self.caps.unknown} at most; {self.caps.per_address} per address, {self.caps.in_all} in all)")
            self.refused = self.closed = 0
            return said
        self._said.warn(text)
