"""The host's end of the IO board link: one thread that owns the serial port.

It finds the board, greets it, keeps every seat's lamps in the state the
session asked for (resending until the board acknowledges), turns the board's
button reports into edges, and when the board goes away it says so, lets go of
every held button and reconnects with backoff. The codec is the firmware's own
(firmware/protocol.py); docs/ioboard.md has the rules.

Every time here is ``time.monotonic()``: float seconds that never wrap, so a
difference is right however long the box has been up. A link's timers (when
the board was last heard, when each lamp command went out) are set afresh at
every (re)link; the HELLO and PING times only ever decide to send sooner.

The link's faults are English data (logged, compared, watched): the few words of each are marked for the
catalogue, and said where the box shows them (:meth:`companion.pause.Pause.faults`). A board the wiring
profile or this molebox cannot use says why in English, as the fix is a developer's: flash its firmware.
"""
from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import Callable

import serial

from companion.firmware import MPREMOTE
from companion.inputs import CONTROLS, Edge
from companion.words import N_, say
from firmware import protocol as p

from . import priority

log = logging.getLogger("molebox.ioboard")

CONNECTING = N_("IO board: connecting")
NOT_FOUND = N_("IO board not found")
LOST = N_("IO board disconnected")
SILENT = N_("IO board not answering")
RESTARTED = N_("IO board restarted")
WATCHDOG = N_("IO board restarted by its watchdog (its firmware hung)")
GAVE_UP = N_("IO board gave up on molebox (heard nothing for 1 s)")
BOOT_FAULTS = {p.RESET: RESTARTED, p.SILENCE: GAVE_UP, p.WATCHDOG: WATCHDOG}
CTRL_C = 0x03                   # MicroPython's interrupt character, until the board's main.py switches it off


@dataclass(frozen=True)
class Timing:
    retry: float = 0.04         # resend an unacknowledged lamp command or HELLO after this long
    heartbeat: float = 0.2      # PING when nothing else went out for this long
    silence: float = 1.0        # no good frame for this long: the board is gone
    backoff: float = 0.05       # first wait before opening the port again; doubles up to backoff_max
    backoff_max: float = 2.0
    read: float = 0.005         # serial read timeout: how often the timers are looked at
    catch_up: float = 5.0       # presses the board counted while unlinked for less than this are delivered


def next_nonce(nonce: int) -> int:
    """The nonce after ``nonce`` whose HELLO frame holds no 0x03: a board that is just starting takes that
    byte for Ctrl-C (about 1.9% of HELLOs would carry one, and the host greets every 40 ms)."""
    nonce = (nonce + 1) & 0xFFFF
    while CTRL_C in p.frame(p.HELLO, 0, p.hello(nonce)):
        nonce = (nonce + 1) & 0xFFFF
    return nonce


UPDATE = ("sudo systemctl stop molebox; molebox firmware ~/pico; pixel supply off, hold seat 1's OK while plugging "
          "the board in; "
          f"{MPREMOTE} connect /dev/ttyACM0 cp ~/pico/protocol.py ~/pico/board.py ~/pico/main.py : + reset; "
          "sudo systemctl start molebox (docs/ioboard.md, Flashing)")


def other_build(build: int) -> tuple[str, str]:
    """The note for a board of another firmware build: in full (for the log and the host, in English), and in the
    words an OLED has room for (said)."""
    return (f"The IO board runs firmware build {build:06x}, this molebox's is {p.BUILD:06x}: it works, but update "
            f"it: {UPDATE}", say("IO board: other firmware: update it"))


def lamp_name(lamp_type: int) -> str:
    """The lamps a board's WELCOME says its firmware drives ("ws2812", "plain")."""
    return p.LAMP_TYPES[lamp_type] if lamp_type < len(p.LAMP_TYPES) else f"type-{lamp_type}"


def identify(path: str, baud: int, timeout: float = 1.0) -> tuple:
    """Greet the board on ``path`` once: its WELCOME as ``protocol.parse_welcome`` reads it (all but the version
    None for another protocol). The port is opened exclusively, as the service does: SerialException while the
    service holds it; TimeoutError when nothing answers."""
    nonce = next_nonce(random.getrandbits(16))
    hello = p.frame(p.HELLO, 0, p.hello(nonce))
    decoder = p.Decoder()
    with serial.Serial(path, baud, timeout=0.05, write_timeout=0.5, exclusive=True) as port:
        port.write(hello)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for ftype, _, payload in decoder.feed(port.read(port.in_waiting or 1)):
                welcome = p.parse_welcome(payload) if ftype == p.WELCOME else None
                if welcome is not None and (welcome[0] != p.VERSION or welcome[1] == nonce):
                    return welcome
                boot = p.parse_boot(payload) if ftype == p.BOOT else None
                if boot is not None and boot[0] != p.VERSION:
                    return (boot[0],) + (None,) * 6
                if boot is not None:
                    port.write(hello)           # it has just started: greet it again
    raise TimeoutError(f"no answer on {path} within {timeout:g} s")


def level_changes(was: bool, now: bool, presses: int) -> list[bool]:
    """The edges (True: pressed) that take a button from ``was`` to ``now`` through ``presses`` new presses."""
    if not presses:
        return [now] if now != was else []
    out = [False] if was else []
    out += [True, False] * presses
    if now:
        out.pop()
    return out


class Buttons:
    """What the board last reported of every button: its level and how many presses it has counted; a report
    answers the edges that lead there."""

    def __init__(self, seats: int, clock: Callable[[], float]):
        self.seats, self.clock = seats, clock
        self.levels = bytearray(seats)
        self.counts = bytearray(seats * p.BUTTONS)

    def apply(self, levels: bytes, counts: bytes, edges: list[Edge]) -> None:
        """Edges for every press counted and every level changed since the last report."""
        for s in range(self.seats):
            seat = slice(p.BUTTONS * s, p.BUTTONS * (s + 1))
            if levels[s] == self.levels[s] and counts[seat] == self.counts[seat]:
                continue
            for b, control in enumerate(CONTROLS):
                i = s * p.BUTTONS + b
                was, now = bool(self.levels[s] >> b & 1), bool(levels[s] >> b & 1)
                for pressed in level_changes(was, now, (counts[i] - self.counts[i]) & 0xFF):
                    edges.append(Edge(self.clock(), s + 1, control, pressed))
                self.counts[i] = counts[i]
            self.levels[s] = levels[s]

    def let_go(self) -> list[Edge]:
        """Every button still down let go (the link is gone)."""
        edges = []
        for s in range(self.seats):
            for b, control in enumerate(CONTROLS):
                if self.levels[s] >> b & 1:
                    edges.append(Edge(self.clock(), s + 1, control, False))
            self.levels[s] = 0
        return edges


class LampsSent:
    """Each seat's lamps: what the session wants shown, what was sent and not yet acknowledged, what the board has."""

    def __init__(self, retry: float):
        self.retry = retry
        self.want: dict[int, bytes] = {}                       # seat -> LAMPS payload the session asked for
        self.have: dict[int, bytes] = {}                       # seat -> what the board acknowledged, while
                                                               # nothing sent since may have replaced it
        self.sent: dict[int, tuple[int, bytes, float]] = {}    # seat -> (seq, payload, when) awaiting an ack
        self._seq = 0

    def due(self, seat: int, now: float) -> bytes | None:
        """The LAMPS frame to send for the seat now, unless the board has its lamps or they went out less than
        ``retry`` ago."""
        want, sent = self.want[seat], self.sent.get(seat)
        if want == self.have.get(seat) or (sent and sent[1] == want and now - sent[2] < self.retry):
            return None
        self._seq = (self._seq + 1) & 0xFF
        self.sent[seat] = (self._seq, want, now)
        self.have.pop(seat, None)       # the board may take this frame and lose its ack: then it shows neither
        return p.frame(p.LAMPS, self._seq, want)

    def acked(self, seq: int) -> int | None:
        """The board acknowledged frame ``seq``: the seat whose lamps it has now (None: no such frame)."""
        seat = next((seat for seat, sent in self.sent.items() if sent[0] == seq), None)
        if seat is not None:
            self.have[seat] = self.sent.pop(seat)[1]
        return seat

    def forget(self) -> None:
        """A new link: the board has nothing of ours."""
        self.have.clear()
        self.sent.clear()


class Link:
    """The serial link to one board; ``start`` it, then ``lamps`` from any thread, ``close`` at the end."""

    def __init__(self, find_port: Callable[[], str], baud: int, clock: Callable[[], float], seats: int,
                 on_fault: Callable[[str | None], None], timing: Timing = Timing(), lamp_type: str = "ws2812",
                 on_note: Callable[[str, str], None] = lambda text, screen: None):
        self.find_port, self.baud, self.clock, self.seats = find_port, baud, clock, seats
        self.on_fault, self.timing, self.lamp_type, self.on_note = on_fault, timing, lamp_type, on_note
        self.sink: Callable[[Edge], None] | None = None
        self.fault: str | None = CONNECTING
        self.linked = threading.Event()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ioboard", daemon=True)
        self._port: serial.Serial | None = None
        self._nonce = next_nonce(random.getrandbits(16))
        self.build: int | None = None       # the firmware build of the board last linked
        self._lamps = LampsSent(timing.retry)
        self._buttons = Buttons(seats, clock)
        self._heard = self._hello_at = self._wrote_at = self._linked_at = 0.0
        self._lost_at: float | None = None      # when the last link went
        self._boot_id: int | None = None        # the board's run (boot id) that our counters follow
        self._hello_every = timing.retry
        self._refused = False       # the board answered, and its answer rules it out (version, lamps, seats)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread.ident is not None:          # closed before it was started: nothing to wait for
            self._thread.join(timeout=2)

    def lamps(self, seat: int, payload: bytes) -> None:
        """Any thread: have the board show this LAMPS payload for ``seat``, now and after every reconnect."""
        with self._lock:
            self._lamps.want[seat] = payload
            if self.linked.is_set():
                try:
                    self._push(seat, time.monotonic())
                except (OSError, serial.SerialException):
                    pass            # unplugged: the link's thread sees it on its next read

    # ---- the thread -----------------------------------------------------------------------------

    def _run(self) -> None:
        """Connect, and again after every failure: soon after a link that worked, then less and less often. The
        board's presses come on this thread, paced by the wire: it runs at the press priority."""
        priority.press_thread()
        delay = self.timing.backoff
        while not self._stop.is_set():
            if self._connect():
                delay = self.timing.backoff
            self._stop.wait(delay)
            delay = min(2 * delay, self.timing.backoff_max)

    def _connect(self) -> bool:
        """Open the port and serve it until it fails or the link closes; True if the board linked meanwhile."""
        try:
            path = self.find_port()
            port = serial.Serial(path, self.baud, timeout=self.timing.read, write_timeout=0.5, exclusive=True)
        except (LookupError, OSError, serial.SerialException) as exc:
            if self.fault == CONNECTING:
                self._set_fault(NOT_FOUND)
            log.debug("IO board: cannot open: %s", exc)
            return False
        log.info("IO board: opened %s", path)
        opened = time.monotonic()
        try:
            self._serve(port)
        except (OSError, serial.SerialException) as exc:
            log.warning("IO board: %s", exc)
        with self._lock:
            edges = [] if self._stop.is_set() else self._lose(LOST)
            self._port = None
        self._emit(edges)
        port.close()
        return self._linked_at > opened

    def _serve(self, port: serial.Serial) -> None:
        decoder = p.Decoder()
        with self._lock:
            self._port = port
            self._heard = time.monotonic()
            self._greet(self._heard, fresh=True)
        while not self._stop.is_set():
            data = port.read(port.in_waiting or 1)
            now = time.monotonic()
            edges: list[Edge] = []
            with self._lock:
                for ftype, seq, payload in decoder.feed(data):
                    self._heard = now
                    self._frame(ftype, seq, payload, now, edges)
                self._timers(now, edges)
            self._emit(edges)

    def _emit(self, edges: list[Edge]) -> None:
        if self.sink is not None:
            for edge in edges:
                self.sink(edge)

    # ---- everything below runs with the lock held --------------------------------------------------

    def _frame(self, ftype: int, seq: int, payload: bytes, now: float, edges: list[Edge]) -> None:
        linked = self.linked.is_set()
        if ftype == p.REPORT:
            self._write(p.frame(p.ACK, 0, bytes((seq,))), now)
            state = p.parse_state(payload)
            if linked and state is not None and len(state[0]) >= self.seats:
                self._buttons.apply(*state, edges)
        elif ftype == p.ACK and linked and len(payload) == 1:
            self._acked(payload[0], now)
        elif ftype == p.WELCOME and not linked:
            self._welcome(payload, now, edges)
        elif ftype == p.BOOT:
            self._boot(payload, now, edges)

    def _boot(self, payload: bytes, now: float, edges: list[Edge]) -> None:
        """The board wants a HELLO; while linked, its reason says why the link went."""
        boot = p.parse_boot(payload)
        if boot is None:
            return
        version, reason = boot
        if reason != p.SILENCE:
            self._boot_id = None            # the board has started again: its counters with it
        if version != p.VERSION:
            self._refuse_version(version)
        elif self.linked.is_set():
            edges += self._lose(BOOT_FAULTS.get(reason, RESTARTED))
            self._greet(now, fresh=True)
        else:
            if self.fault == SILENT and reason != p.SILENCE and self._lost_at is not None:    # a link went quiet,
                # and now the board says why: it restarted (a board slow to answer at first is no restart)
                log.warning("%s", BOOT_FAULTS.get(reason, RESTARTED))
                self._set_fault(BOOT_FAULTS.get(reason, RESTARTED))
            if now - self._hello_at >= self.timing.retry:       # a reflashed board is greeted at once
                self._greet(now, fresh=False)

    def _welcome(self, payload: bytes, now: float, edges: list[Edge]) -> None:
        welcome = p.parse_welcome(payload)
        if welcome is None:
            return
        version, nonce, build, lamp_type, boot_id, levels, counts = welcome
        if version != p.VERSION:
            self._refuse_version(version)
            return
        if nonce != self._nonce:
            return                      # the answer to an older HELLO
        lamps = lamp_name(lamp_type)
        if lamps != self.lamp_type:
            self._refuse(f'IO board is built for {lamps} lamps: flash main.py with LAMPS = "{self.lamp_type}"',
                         f"the wiring profile has lamps = \"{self.lamp_type}\" (docs/ioboard.md, Build options)")
            return
        if len(levels) < self.seats:
            self._refuse(f"IO board scans {len(levels)} seats; the wiring profile has {self.seats}")
            return
        self._hello_every, self._refused = self.timing.retry, False
        if boot_id != self._boot_id or self._lost_at is None or now - self._lost_at >= self.timing.catch_up:
            self._buttons.counts[:] = counts[:len(self._buttons.counts)]    # a new baseline: what was counted
        self._boot_id = boot_id                                              # meanwhile is void
        self._buttons.apply(levels, counts, edges)     # a button held right now goes down; a press made meanwhile too
        self._lamps.forget()
        if build != p.BUILD and build != self.build:        # told once a build, not at every relink
            self.on_note(*other_build(build))
        self.build = build
        self.linked.set()
        self._linked_at = now
        self._set_fault(None)
        log.info("IO board: linked (protocol v%d, firmware build %06x, %s lamps, %d seats)",
                 version, build, lamps, len(levels))
        for seat in self._lamps.want:
            self._push(seat, now)

    def _refuse_version(self, version: int) -> None:
        self._refuse(f"IO board speaks protocol v{version}, molebox v{p.VERSION}: flash this molebox's firmware/",
                     "see docs/ioboard.md, Flashing")

    def _refuse(self, fault: str, more: str = "") -> None:
        """The board cannot serve this molebox: say why, and ask again only now and then."""
        if not self._refused:
            log.error("%s%s", fault, f" ({more})" if more else "")
        self._hello_every, self._refused = self.timing.backoff_max, True
        self._set_fault(fault)

    def _acked(self, seq: int, now: float) -> None:
        seat = self._lamps.acked(seq)
        if seat is not None:
            self._push(seat, now)

    def _push(self, seat: int, now: float) -> None:
        """Send the seat's wanted lamps unless the board has them or they went out less than ``retry`` ago."""
        frame = self._lamps.due(seat, now)
        if frame is not None:
            self._write(frame, now)

    def _timers(self, now: float, edges: list[Edge]) -> None:
        if not self.linked.is_set():
            if now - self._hello_at >= self._hello_every:
                self._greet(now, fresh=False)
            if now - self._heard >= self.timing.silence and not self._refused:
                self._set_fault(SILENT)
            return
        if now - self._heard >= self.timing.silence:
            edges += self._lose(SILENT)
            self._greet(now, fresh=True)
            return
        for seat in self._lamps.want:
            self._push(seat, now)
        if now - self._wrote_at >= self.timing.heartbeat:
            self._write(p.frame(p.PING, 0), now)

    def _greet(self, now: float, fresh: bool) -> None:
        """HELLO; a fresh one (a new link) carries a new nonce, a repeat the same."""
        if fresh:
            self._nonce = next_nonce(self._nonce)
        self._hello_at = now
        self._write(p.frame(p.HELLO, 0, p.hello(self._nonce)), now)

    def _lose(self, fault: str) -> list[Edge]:
        """The link is gone: say so first, then let go of every button still down."""
        self._set_fault(fault)
        edges = []
        if self.linked.is_set():
            self.linked.clear()
            self._lost_at = time.monotonic()
            log.warning("%s", fault)
            edges = self._buttons.let_go()
        return edges

    def _set_fault(self, fault: str | None) -> None:
        if fault != self.fault:
            self.fault = fault
            self.on_fault(fault)

    def _write(self, frame: bytes, now: float) -> None:
        if self._port is None:
            return
        self._port.write(frame)
        self._wrote_at = now
