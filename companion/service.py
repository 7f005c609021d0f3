"""``molebox run``: the box as a service, from the command line to the parting screen.

Start-up refuses what cannot work before anything is written: the wiring and the game are checked,
then the journal is taken (another box on it is refused), then the port is bound, then the hardware
opened, and only then may the session write a game row. The session loop then runs on its own
thread and the web panel on this one until SIGINT or SIGTERM. Under systemd (docs/pi.md) it says
READY once the panel listens, feeds the watchdog from the session loop while the box is healthy,
and on SIGTERM says STOPPING and leaves the parting screen on every display.
"""
from __future__ import annotations

import asyncio
import errno
import signal
import socket
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

from aiohttp import web

from rules import registry
from rules.match import Header, Match
from rules.settings import from_pairs
from wiring.profile import load as load_profile

from . import players, scene
from .hardware import open_backend, priority
from .hardware.phone import add_phones
from .journal import Journal
from .journal.card import NotAJournal
from .sd_notify import Notifier, Watchdog
from .painter import RenderProcess, draw
from .port import WebPort
from .session import Session
from .table import Start
from .web.auth import Guard, is_loopback
from .hardware.host_pin_glass import HostPinGlass
from .web.host_pin import HostPin, pin_path
from .web.app import SITE, make_app, start

BACKLOG = 1024      # connections the kernel queues for the accept loop: a burst (a flood) waits there, is taken
                    # at once and sorted by the web panel's doors, rather than dropped and retried a second later
MAX_SEATS = max(registry.game_class(game).max_seats for game in registry.ids())


class Plan:
    """What ``run`` and ``sim`` were asked to play (``args.wiring`` named), checked before anything is opened."""

    def __init__(self, args, backend: str):
        self.backend = backend
        self.profile = load_profile(args.wiring)
        panels, self.phones = getattr(args, "panels", None), getattr(args, "phones", 0)
        if panels is not None:
            if not 0 <= panels <= len(self.profile.seats):
                raise ValueError(f"--panels {panels}: the wiring profile {self.profile.name} has "
                                 f"{len(self.profile.seats)} panels")
            self.profile = replace(self.profile, seats=self.profile.seats[:panels])
        if not 0 <= self.phones <= MAX_SEATS - len(self.profile.seats):
            raise ValueError(f"--phones {self.phones}: {len(self.profile.seats)} panels and the phones make "
                             f"{MAX_SEATS} seats at most")
        if not self.profile.seats and not self.phones:
            raise ValueError("no seats: give --phones, or a wiring profile with panels")
        self.settings = from_pairs(args.set)
        self.seats = args.seats
        self.computers: dict[int, str] = {}
        if args.game:
            if self.seats is None:
                self.seats = registry.game_class(args.game).min_seats
            Match(Header(args.game, self.seats, self.settings))          # bad seats or settings say so here
            if self.seats > len(self.profile.seats) + self.phones:
                raise ValueError(f"--seats {self.seats}: the wiring profile {self.profile.name} has "
                                 f"{len(self.profile.seats)} panels" + f" and {self.phones} phones" * bool(self.phones))
            self.computers = players.parse(args.bots, self.seats, args.game)
        elif args.bots:
            raise ValueError("--bots needs --game; without it seat 1 chooses the players in the lobby")
        elif args.seats is not None:
            raise ValueError("--seats needs --game; without it seat 1 chooses the seats in the lobby")
        if getattr(args, "frames", None) and backend != "sim":
            raise ValueError(f"--frames {args.frames}: only the sim backend writes its frames to files")

    def start(self, args) -> Start | None:
        """The game the command line fixed (None: seat 1 chooses in the lobby)."""
        if not args.game:
            return None
        return Start(args.game, self.seats, args.dice, args.cards, dict(self.computers), dict(self.settings))


def build(args, plan: Plan, journal: Journal | None, clock=time.monotonic, host_pin: HostPin | None = None,
          paint=draw):
    """The hardware and the session; with a host PIN, the glass that shows it: the table display, or
    seat 1's OLED on request where the profile has no table display. ``paint``: where frames are drawn
    (:mod:`companion.painter`)."""
    hardware = open_backend(plan.backend, plan.profile, clock)
    add_phones(hardware, plan.phones)
    if getattr(args, "frames", None):
        hardware.simulator.record_frames(Path(args.frames))
    glass = dict(scene.panels(plan.profile))
    if host_pin is not None and hardware.table is not None:
        hardware.table = HostPinGlass(hardware.table, host_pin, panel=glass.get("table"))
    elif host_pin is not None and hardware.seats and not hardware.seats[0].phone and hardware.seats[0].display:
        hardware.seats[0].display = HostPinGlass(hardware.seats[0].display, host_pin, on_request=True,
                                             panel=glass.get("seat1"))
    session = Session(hardware, clock, start=plan.start(args), seed=args.seed, journal=journal, paint=paint)
    return hardware, session


def run(args) -> int:
    """``molebox run``: a journal the card will not take leaves the box running, paused, saying why."""
    plan = Plan(args, args.backend)
    journal = Journal(args.db)
    sock = listen(args.listen, args.port)
    refused = isinstance(journal.fault, NotAJournal)     # nothing of molebox's is written beside what it refused
    pin = None if is_loopback(args.listen) else HostPin(None if refused else pin_path(journal.path))
    hardware, session = build(args, plan, journal, host_pin=pin, paint=RenderProcess())
    return serve(session, sock, args.listen, pin=pin, lan_sim=args.lan_sim)


def listen(address: str, port: int) -> socket.socket:
    """A socket bound and listening on ``address``:``port`` (0: any free port), or an OSError that says what to do.

    ``molebox run`` binds before anything else is opened, so a second box on a busy port writes nothing.
    """
    try:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
    except OSError as exc:
        raise OSError(f"cannot listen on {address}:{port}: {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((address, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        hint = " (is another molebox running? choose another with --port)" if exc.errno == errno.EADDRINUSE else ""
        raise OSError(f"cannot listen on {address}:{port}: {exc.strerror or exc}{hint}") from None
    except (socket.gaierror, OverflowError) as exc:
        sock.close()
        raise OSError(f"cannot listen on {address}:{port}: {exc}") from None
    sock.setblocking(False)
    return sock


def base_url(listen: str, port: int) -> str:
    """The address to open: the machine's name when listening on every interface."""
    host = f"{socket.gethostname()}.local" if listen in ("0.0.0.0", "::", "") else listen
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def serve(session, sock: socket.socket, listen: str, *, pin=None, lan_sim: bool = False) -> int:
    """``molebox run``: the session loop on its thread, the web panel on this one, until a signal.

    Under systemd (docs/pi.md) it says READY once the panel listens, feeds the
    watchdog from the session loop while the box is healthy, and on SIGTERM says
    STOPPING and leaves the parting screen on every display.
    """
    guard = Guard(lan=not is_loopback(listen), pin=pin, lan_sim=lan_sim)
    app = make_app(WebPort(session), guard)
    notifier = Notifier()
    stop = threading.Event()
    loop_thread = threading.Thread(target=session.run, args=(stop, Watchdog(notifier, session.health)),
                                   name="session", daemon=True)
    loop_thread.start()
    try:
        asyncio.run(_serve(app, sock, listen, notifier))
    finally:
        notifier.stopping()
        stop.set()
        session.call(lambda: None)               # wake the loop to see the stop
        loop_thread.join(timeout=2)
        session.screens.part()
        session.close()
        notifier.close()
    return 0


async def _serve(app: web.Application, sock: socket.socket, listen: str, notifier: Notifier) -> None:
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):          # before READY: systemd may stop us the moment we say it
        loop.add_signal_handler(sig, done.set)
    runner, port = await start(app, sock)
    site, url = app[SITE], base_url(listen, port)
    print(f"molebox: {url}", flush=True)
    if site.simulator:
        print(f"  simulator  {url}{'' if site.guard.sim_open() else '  (off on the LAN: see the dashboard)'}")
    print(f"  dashboard  {url}dashboard")
    print(f"  TV view    {url}tv")
    for seat, code, address in site.phones.joins():        # a seat's key: kept off the log, as the PIN is
        shown = address.lower() if sys.stdout.isatty() else "code on the table display"
        print(f"  seat {seat}     phone: {shown} (join at {url}join)")
    if site.guard.lan:
        where = "on the table display" if "table" in site.box.displays else "on seat 1's screen in the lobby"
        shown = site.guard.pin if sys.stdout.isatty() else "kept off the log"
        print(f"  host PIN   {shown} ({where}; `molebox pin` prints it), listening on {listen}:{port}")
    print(f"  presses    {priority.describe()}")
    print("  Ctrl-C stops.", flush=True)
    notifier.ready(f"serving {url}")
    try:
        await done.wait()
    finally:
        await runner.cleanup()
