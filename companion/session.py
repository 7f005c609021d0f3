"""The session loop: the one owner of the game, the panels' drafts and the lamps.

Hardware callbacks (and the simulator's presses, and the web page's) only
:meth:`Session.post` an edge. The loop turns edges into gestures, gestures
into decisions, decisions into events, and then sets lamps first (the press a
player is waiting to see) and hands displays to the display worker.
``pump`` runs one pass on the caller's thread (scripts and tests, with a fake
clock); ``run`` is the service's loop.
"""
from __future__ import annotations

import heapq
import itertools
import json
import logging
import queue
import sys
import threading
import time
import traceback
from typing import Callable

from rules.match import Header, Match
from rules.model import IllegalMove

from . import render
from .displays import DisplayWorker
from .entry import Changed, Entry, Refuse, Submit
from .lamps import Lamp
from .inputs import DEBOUNCE_S, HOLD_S, Edge, Gesture, Inputs
from .journal import Journal, short as fault_words, why_not_resumed
from .lobby import Lobby, Start
from .players import Computers
from .storage import StoreError
from .render import bot as bot_screen, fault as fault_screen, lobby as lobby_screens

log = logging.getLogger("molebox.session")

ACK_S = 0.12            # every lamp of the seat flips for this long: "got it"
SWITCH_INTERVAL_S = 0.0005
REFUSE_S = 0.6          # after the flip, the lamps flash fast for this long: "not that"
ROLL_S = 0.8            # the table shows virtual dice tumbling this long before they land
ROLL_FRAMES = 4
RETRY_S = 2.0           # while the journal refuses writes, it is tried again this often
PIN_S = 20.0            # seat 1's OLED shows the host PIN this long when asked in the lobby (hold OK)


def _where(exc: BaseException) -> str:
    """Where an error happened, without its words: those may name a secret pick, and the log must not."""
    return "Traceback (most recent call last):\n" + "".join(traceback.format_tb(exc.__traceback__)) + type(exc).__name__


def _ack(base: tuple[Lamp, ...]) -> tuple[Lamp, ...]:
    """The same flash whichever hole was pressed: every lamp flips, so a press shows, a pick does not.

    Flipping what the lamps show now (not the base) makes quick presses flash again and again.
    """
    return tuple(Lamp.OFF if lamp is Lamp.ON else Lamp.ON for lamp in base)


class Session:
    def __init__(self, hardware, clock: Callable[[], float] = time.monotonic, *, game: str | None = None,
                 seats: int | None = None, seed: int = 0, settings: dict | None = None,
                 dice: str = "virtual", cards: str = "virtual", debounce_s: float = DEBOUNCE_S, hold_s: float = HOLD_S,
                 journal: Journal | None = None, bots: dict[int, str] | None = None):
        self.hw = hardware
        self.journal = journal
        self.game_id: int | None = None
        self._saved = 0                      # how many match records are in the journal
        self.clock = clock
        self.panels = len(hardware.seats)
        self.seed = seed
        self.settings = dict(settings or {})
        self.fixed = (game, seats, dice, cards, dict(bots or {})) if game else None
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.inputs = Inputs(self.panels, debounce_s, hold_s)
        self.listeners: list[Callable[[str, object], None]] = []
        self.displays = DisplayWorker(hardware.displays(), on_frame=self._frame, on_fault=self._display_failed,
                                      fault_frame=fault_screen.broken)
        self.match: Match | None = None
        self.computers: Computers | None = None
        self.lobby: Lobby | None = None
        self.entries = {s: Entry(s) for s in range(1, self.panels + 1)}
        self.notices: dict[int, str] = {}     # a seat's own one-line notice (a refusal's reason), on its OLED only
        self.alerts: list[dict] = []          # what the host must know (a game set aside...), until dismissed
        self.names: dict[int, str] = {}      # players' names, from the dashboard; kept for the next game
        self.fresh: set[int] = set()
        self._public_log: tuple[Match | None, list[dict], int] = (None, [], 0)   # see :attr:`log`
        self._overlays: dict[int, list[tuple[float, tuple[Lamp, ...]]]] = {}
        self._timers: list[tuple[float, int, Callable[[float], None]]] = []
        self._lamps_due = False
        self._rolled_at = float("-inf")      # when the box last rolled virtual dice
        self._seq = itertools.count()
        self._shown: dict[str, object] = {}
        self._dirty = False
        self._confirm_undo_until = float("-inf")
        self._alert_ids = itertools.count(1)
        self._retrying = False
        self.hw_fault: str | None = hardware.fault     # while set, the game is paused and every display says why
        self.lobby = Lobby(self.panels)
        for text, words in journal.store.notes if journal is not None and journal.store is not None else ():
            self.alert(text, words)
        if journal is not None and journal.fault is not None:
            self._storage_failed()                      # _restore once the journal opens
        else:
            self._restore()
        hardware.watch(lambda fault: self.call(lambda: self._hardware_fault(fault)))
        hardware.connect(self.post)
        self.refresh()

    # ---- input side -----------------------------------------------------------------------

    def post(self, edge: Edge) -> None:
        """Called from any thread: queue an edge for the loop."""
        self.queue.put(edge)

    def call(self, action: Callable[[], object]) -> None:
        """Called from any thread: run ``action`` on the loop (host actions from the web page)."""
        self.queue.put(action)

    def _take(self, item) -> None:
        if isinstance(item, Edge):
            for gesture in self.inputs.edge(item):
                self._gesture(gesture)
        else:
            item()

    def pump(self, now: float | None = None) -> None:
        """Process every queued edge and every timer due by ``now``."""
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                break
            self._take(item)
        self._tick(self.clock() if now is None else now)
        if self._dirty:
            self.refresh()

    def run(self, stop: threading.Event, heartbeat: Callable[[], None] | None = None) -> None:
        """The service loop: block until an edge or a timer, never spin.

        The GIL switch interval drops from 5 ms to 0.5 ms: a woken loop would
        otherwise wait up to 5 ms for a rendering thread to let go of the GIL.
        """
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        while not stop.is_set():
            due = self.next_due()
            timeout = 0.5 if due is None else min(max(due - self.clock(), 0.0), 0.5)
            try:
                self._take(self.queue.get(timeout=timeout))
            except queue.Empty:
                pass
            self.pump()
            if heartbeat is not None:
                heartbeat()

    def next_due(self) -> float | None:
        times = [t for t in (self.inputs.due(), self._timers[0][0] if self._timers else None) if t is not None]
        return min(times, default=None)

    def _tick(self, now: float) -> None:
        for gesture in self.inputs.tick(now):
            self._gesture(gesture)
        while self._timers and self._timers[0][0] <= now:
            heapq.heappop(self._timers)[2](now)
        if self._lamps_due:
            self._lamps_due = False
            self._set_lamps()

    def _after(self, at: float, action: Callable[[float], None]) -> None:
        """Run ``action(now)`` on the loop once the clock reaches ``at``."""
        heapq.heappush(self._timers, (at, next(self._seq), action))

    def _redraw(self, now: float) -> None:
        self._dirty = True

    def _expire(self, seat: int, now: float) -> None:
        """An overlay step of the seat's lamps has run its time."""
        steps = self._overlays.get(seat, [])
        while steps and steps[0][0] <= now:
            steps.pop(0)
            self._lamps_due = True
        if not steps:
            self._overlays.pop(seat, None)

    # ---- gestures -------------------------------------------------------------------------

    def _gesture(self, g: Gesture) -> None:
        if self.fault:
            self._answer(g, Refuse(f"paused: {self.fault}"))
            return
        self.notices.pop(g.seat, None)
        try:
            outcome = self._lobby(g) if self.lobby is not None else self._play(g)
        except StoreError:
            self._storage_failed()
            outcome = Refuse(f"not saved: {self.fault}")
        except Exception as exc:        # a bug: the press is not taken, the game is as the journal has it
            log.error("seat %d's %s of %s hit a bug:\n%s", g.seat, g.kind, g.control, _where(exc))
            self._forget_unsaved()
            self.alert(f"A press at seat {g.seat} hit a bug ({type(exc).__name__}); it was not taken and the game "
                       f"is as the journal has it. The log has where.", None)
            outcome = Refuse("not taken: a bug")
        self._answer(g, outcome)
        self._computers_play()

    def _lobby(self, g: Gesture):
        glass = self._pin_glass()
        if glass is not None and (g.seat, g.control, g.kind) == (1, "ok", "hold"):
            glass.reveal(True)
            self._after(self.clock() + PIN_S, lambda now: glass.reveal(False))
            return Changed()
        if self._to_read():
            if g.seat == 1 and g.control == "ok" and g.kind == "tap":
                self.dismiss(self._to_read()[0]["id"])
                return Changed()
            return Refuse("seat 1: OK to read on")
        outcome = self.lobby.tap(g.seat, g.control) if g.kind == "tap" else Refuse("tap, don't hold")
        if isinstance(outcome, Start):
            self.start(outcome.game, outcome.seats, outcome.dice, outcome.cards, outcome.bots)
            return Changed()
        return outcome

    def _play(self, g: Gesture):
        match, seat = self.match, g.seat
        if seat > match.header.seats:
            return Refuse("this seat is not playing")
        if seat in self.computers and not (seat == 1 and (g.kind == "hold" or match.over)):
            return Refuse("a computer player has this seat")
        self.fresh.discard(seat)
        if g.kind == "hold":
            if g.control == "ok" and match.held.get(seat):
                self._events(match.retract(seat))
                return Changed()
            if g.control == "ok" and seat == 1:
                return self._host_undo()
            return Refuse("nothing to take back")
        if match.over:
            if seat == 1 and g.control == "ok":
                self.new_game()
                return Changed()
            return Refuse("game over: seat 1 OK for a new game")
        decision = next(iter(match.decisions_for(seat)), None)
        entry = self.entries[seat]
        entry.follow(decision)
        outcome = entry.tap(g.control, decision, match.refusal)
        if isinstance(outcome, Submit):
            try:
                self._events(match.submit(seat, outcome.key, outcome.value))
            except IllegalMove as exc:
                return Refuse(str(exc))
            entry.follow(None)          # committed: the next decision starts a fresh draft, even if it looks the same
            return Changed()
        return outcome

    def _answer(self, g: Gesture, outcome) -> None:
        """Lamps first: an ack flash or the refusal blink now; the rest once the queue is empty."""
        if isinstance(outcome, Refuse):
            log.info("seat %d: a %s was refused", g.seat, g.kind)   # the reason may tell a secret
            self.notices[g.seat] = outcome.reason
            flip = _ack(tuple(self.hw.seats[g.seat - 1].lamps))
            self._overlay(g.seat, [(flip, ACK_S), ((Lamp.FAST,) * 5, REFUSE_S)])
        else:
            self._overlay(g.seat, [(_ack(tuple(self.hw.seats[g.seat - 1].lamps)), ACK_S)])
        self._dirty = True

    def _overlay(self, seat: int, steps: list[tuple[tuple[Lamp, ...], float]]) -> None:
        """Show ``steps`` (lamps, seconds) one after the other over the seat's own lamps, starting now."""
        until, timed = self.clock(), []
        for lamps, seconds in steps:
            until += seconds
            timed.append((until, lamps))
            self._after(until, lambda now, seat=seat: self._expire(seat, now))
        self._overlays[seat] = timed
        self.hw.seats[seat - 1].set_lamps(steps[0][0])

    def _computers_play(self) -> None:
        """Let the computer players answer whatever is theirs to answer now.

        They think on the loop: at the moments they answer, nobody else is choosing (their secret
        picks wait for every person's lock-in), and the bench keeps their think time in bounds.
        A refused answer is a bug in a bot: it is logged and shown on the bot's OLED, and the
        game waits (seat 1 can undo or end it) rather than the service failing.
        """
        while not self.fault and self.match is not None and (move := self.computers.next_move(self.match)) is not None:
            try:
                events = self.match.submit(*move)
            except IllegalMove as exc:
                log.error("computer player at seat %d: %s", move[0], exc)
                self.notices[move[0]] = "stuck: a bot error"
                self._dirty = True
                return
            try:
                self._events(events)
            except StoreError:
                self._storage_failed()          # it answers again once the journal takes writes
                return
            self._dirty = True

    def _last_person_record(self) -> int | None:
        """The index in the match records of the last answer a person gave (bots' answers follow it)."""
        people = [i for i, r in enumerate(self.match.records)
                  if r["seat"] is not None and r["seat"] not in self.computers]
        return people[-1] if people else None

    def _host_undo(self):
        """Seat 1 holding OK with nothing of its own to take back: undo the last decision.

        Undoing a reveal takes a second hold within five seconds, as the whole table saw it.
        """
        match = self.match
        last = self._last_person_record()
        if last is None:
            return Refuse("nothing to undo")
        reveal = last in match.secret_records and not match.held
        if reveal and self.clock() > self._confirm_undo_until:
            self._confirm_undo_until = self.clock() + 5.0
            return Refuse("hold OK again to undo the reveal")
        self._confirm_undo_until = float("-inf")
        self.undo()
        return Changed()

    def _write(self, action: Callable):
        """Run a journal write (nothing without a journal); StoreError if the journal will not take it."""
        return None if self.journal is None else self.journal.write(action)

    @staticmethod
    def _rows(match: Match, start: int) -> list[tuple[int, dict, bool]]:
        return [(i, match.records[i], i in match.secret_records) for i in range(start, len(match.records))]

    def _journal(self) -> None:
        """Put every new record of the match on disk (one commit point) before anyone sees it answered.

        At a turn end (no secret pick held) the WAL is checkpointed too, so a lost ``-wal`` costs at
        most the turn in play. StoreError if the journal refuses the records: nothing is acknowledged.
        """
        match = self.match
        if self.game_id is None or len(match.records) == self._saved:
            return
        result = match.result()
        summary = None if result is None else {"scores": list(result.scores), "winners": list(result.winners),
                                                "history": match.view(None)["state"].get("history", [])}
        self._write(lambda store: store.append(self.game_id, self._rows(match, self._saved), summary))
        self._saved = len(match.records)
        if not match.held:
            try:
                self._write(lambda store: store.checkpoint())
            except StoreError:                  # the records are on disk all the same: pause from the next press
                self._storage_failed()

    def _events(self, events) -> None:
        self._journal()
        public = self.match.events_for(None, events)
        kinds = {e["kind"] for e in public}
        if "reveal" in kinds:
            self.fresh = set(range(1, self.match.header.seats + 1))
        if self.match.over:
            self.hw.signals.beep("over")
        elif "reveal" in kinds:
            self.hw.signals.beep("reveal")
        if self.match.header.dice == "virtual" and "roll" in kinds:
            self._roll()
        for event in public:
            log.info("event %s", event)

    @property
    def log(self) -> list[dict]:
        """The public log of the match: every event anyone may see, in order.

        Built on from the last call rather than from the first event (a long game's log is rebuilt on
        every refresh while the web pages stream); a new, undone or resumed match starts it afresh.
        The list handed out is never changed afterwards, so any thread may read it.
        """
        match = self.match
        if match is None:
            return []
        of, log, seen = self._public_log
        if of is not match:
            log, seen = [], 0
        if seen < len(match.events):
            log = log + match.events_for(None, match.events[seen:])
            self._public_log = (match, log, len(match.events))
        return log

    # ---- game lifecycle -------------------------------------------------------------------

    def _restore(self) -> None:
        """At start (or once the journal opens): resume the unfinished game, else open the lobby or the fixed game.

        A game that cannot be resumed (its key lost, a row damaged, a game this molebox does not know)
        is set aside in the journal, never deleted, the host is told, and the lobby opens.
        """
        store = None if self.journal is None else self.journal.store
        game_id = None if store is None else store.unfinished_id()
        if game_id is not None:
            try:
                self.resume(store.load(game_id))
                return
            except Exception as exc:             # whatever one damaged game holds, the box starts
                why, words = why_not_resumed(exc)
                log.error("game %d cannot be resumed (%s)", game_id, why, exc_info=exc)
                self._write(lambda store: store.set_aside(game_id, why))
                self.alert(f"The unfinished game #{game_id} could not be resumed: {why}. It is kept in the "
                           f"journal ({self.journal.path}), set aside: `molebox history` lists it.",
                           f"game #{game_id} set aside: {words}; kept in the journal")
        self._lobby_or_fixed()

    def _pin_glass(self):
        """Seat 1's OLED where it shows the host PIN on request (a LAN box with no table display), else None."""
        device = self.hw.displays().get("seat1")
        return device if getattr(device, "on_request", False) else None

    def _lobby_or_fixed(self) -> None:
        """The lobby, or the game fixed by the command line once the host has read every alert."""
        self.match, self.game_id = None, None
        if self.fixed and not self._to_read():
            self.start(*self.fixed)
        else:
            self.lobby = self.lobby or Lobby(self.panels)

    def start(self, game: str, seats: int, dice: str = "virtual", cards: str = "virtual",
              bots: dict[int, str] | None = None) -> None:
        """Deal a new game; it is journaled (header, first chance, names) before anyone sees it."""
        match = Match(Header(game=game, seats=seats, settings=self.settings if self.fixed else {},
                             seed=self.seed, dice=dice, cards=cards, bots=dict(bots or {})))
        names = {s: n for s, n in self.names.items() if s <= seats}
        self.game_id = self._write(lambda store: store.begin(match.transcript()["header"], self._rows(match, 0), names))
        self.match, self.names, self._saved = match, names, len(match.records)
        self.computers = Computers(match)
        self.lobby = None
        self.fresh = set()
        self.notices.clear()
        log.info("started %s for %d seats (seed %d, computer players %s)", game, seats, self.seed, bots or "none")
        self._computers_play()

    def resume(self, saved) -> None:
        """Carry on a game the journal holds: seats locked in stay locked in, the others pick again.

        Drafts are not journaled (nothing was committed), so a seat that had not committed anything
        since the last reveal is shown the reveal again.
        """
        self.match = Match.replay(saved.transcript)
        self.computers = Computers(self.match)
        self.game_id, self._saved = saved.game_id, len(self.match.records)
        self.names = self.journal.store.names(saved.game_id)
        self.seed = self.match.header.seed
        self.lobby = None
        revealed = any(e.kind == "reveal" for e in self.match.events)
        self.fresh = {s for s in range(1, self.match.header.seats + 1) if revealed and not self.match.held.get(s)}
        log.warning("resumed %s (game %d) after %d decisions", self.match.header.game, saved.game_id,
                    self.match.seat_records())
        self._computers_play()

    def new_game(self) -> None:
        """After a game: the same game again (fixed by the command line) or back to the lobby."""
        if self.game_id is not None and not self.match.over:
            self._write(lambda store: store.abandon(self.game_id))
        self.game_id = None
        self.seed += 1
        if self.fixed:
            self.start(*self.fixed)
        else:
            previous = self.match.header
            self.match = None
            self.lobby = Lobby(self.panels, previous.game, previous.seats, previous.bots)

    def undo(self) -> bool:
        """Take back the last decision a person made (a held pick, or the pick that completed a reveal),
        and the computer players' answers after it (they answer again when it is their turn)."""
        last = None if self.match is None else self._last_person_record()
        if last is None:
            return False
        upto = sum(1 for r in self.match.records[:last] if r["seat"] is not None)
        if self.game_id is not None:
            self._write(lambda store: store.undo(self.game_id, upto))
        self.match = Match.replay(self.match.transcript(), upto=upto)
        self.computers = Computers(self.match)
        self._saved = len(self.match.records)
        self.fresh = set()
        self.notices.clear()
        for entry in self.entries.values():
            entry.follow(None)
        log.info("undo: back to %d decisions", self.match.seat_records())
        self._computers_play()
        self.refresh()
        return True

    def set_name(self, seat: int, name: str | None) -> str | None:
        """Name the player at ``seat`` for this game and the next ones (None: no name); a refusal, or None."""
        if self.match is None:
            return "no game yet: names belong to a game, and seat 1 is choosing one"
        if not 1 <= seat <= self.match.header.seats:
            return f"seat {seat} is not playing; seats are 1 to {self.match.header.seats}"
        if self.game_id is not None:
            self._write(lambda store: store.set_name(self.game_id, seat, name))
        if name:
            self.names[seat] = name
        else:
            self.names.pop(seat, None)
        self._dirty = True
        return None

    def end_game(self) -> None:
        """Abandon the current game: back to the lobby (or a fresh game when fixed)."""
        if self.match is not None:
            self.new_game()
            self.refresh()

    def host(self, action: Callable[["Session"], str | None]) -> str | None:
        """Run a host action (from the dashboard) on the loop: a refusal in words, or None when done."""
        if self.fault:
            return f"the box is paused: {self.fault}"
        try:
            return action(self)
        except StoreError:
            self._storage_failed()
            return f"not saved: {self.fault}; the box tries again by itself"

    # ---- what the host must know ----------------------------------------------------------

    def alert(self, text: str, screen: str | None) -> None:
        """Tell the host: the log and the dashboard until dismissed; with ``screen`` (the few words an OLED has
        room for) the table display and seat 1 in the lobby too, which waits until seat 1 has read it."""
        log.warning("%s", text)
        self.alerts.append({"id": next(self._alert_ids), "text": text, "screen": screen, "at": time.time()})
        self._dirty = True

    def dismiss(self, alert_id: int | None = None) -> None:
        """The host has read an alert (None: all of them)."""
        self.alerts = [a for a in self.alerts if alert_id is not None and a["id"] != alert_id]
        if self.lobby is not None and self.match is None and not self._to_read():
            self._lobby_or_fixed()
        self._dirty = True

    def _to_read(self) -> list[dict]:
        """The alerts seat 1 reads (and OKs) in the lobby before the menu."""
        return [a for a in self.alerts if a["screen"]]

    def _forget_unsaved(self) -> None:
        """Bring the match back to what the journal holds (an answer it did not take, or a half-applied one)."""
        match = self.match
        if match is not None and len(match.records) > self._saved:
            self.match = Match.replay({**match.transcript(), "records": match.records[:self._saved]})
            self.computers = Computers(self.match)

    def _storage_failed(self) -> None:
        """The journal refused a write (or would not open): forget in memory what it did not take, pause
        play on every screen, flash the status LED, and try the journal again every few seconds."""
        self._forget_unsaved()
        if not self._retrying:
            self._retrying = True
            log.error("the journal cannot be written, play is paused: %s", self.journal.fault)
            self.hw.signals.health(self.fault)
            self.hw.signals.beep("fault")
            self._after(self.clock() + RETRY_S, self._retry_journal)
        self._dirty = True

    def _retry_journal(self, now: float) -> None:
        opened = self.journal.store is None
        if not self.journal.retry():
            self._after(now + RETRY_S, self._retry_journal)
            self._dirty = True                  # the screens say what is wrong now
            return
        self._retrying = False
        self.hw.signals.health(self.fault)
        if opened:                              # the journal opened at last: what did it hold?
            for text, words in self.journal.store.notes:
                self.alert(text, words)
            self.lobby = None
            self._restore()
        self._computers_play()
        self._dirty = True

    def _display_failed(self, name: str, render_fn, args: tuple, exc: BaseException) -> None:
        """From the display worker: one display's frame failed (it shows a fault screen); log it once, tell the host."""
        self.call(lambda: self._report_display(name, render_fn, args, exc))

    def _report_display(self, name: str, render_fn, args: tuple, exc: BaseException) -> None:
        """Log the failure once: the table's view and the whole error; for a seat (its view and the error's
        words may hold its secret) the public view and where it failed."""
        if name == "table":
            log.error("the table display failed to draw %s; its view: %s",
                      getattr(render_fn, "__qualname__", render_fn), json.dumps(args, default=repr)[:4000],
                      exc_info=exc)
        else:
            public = self.match.view(None) if self.match is not None else self.public()
            log.error("the %s display failed to draw %s (the seat's own view is private); the public view: %s\n%s",
                      name, getattr(render_fn, "__qualname__", render_fn), json.dumps(public, default=repr)[:4000],
                      _where(exc))
        label = "table" if name == "table" else f"seat {name[4:]}"
        self.alert(f"The {label} screen could not draw its frame ({type(exc).__name__}); it shows a fault "
                   f"screen and the game goes on. The log has the details.", None)

    # ---- output side ----------------------------------------------------------------------

    def _base_lamps(self, seat: int) -> tuple[Lamp, ...]:
        if self.lobby is not None:
            return lobby_screens.lamps(self.lobby.view(), seat)
        if seat > self.match.header.seats:
            return (Lamp.OFF,) * 5
        return render.for_game(self.match.header.game).lamps(self.match.view(None), seat, seat in self.fresh)

    def _roll(self) -> None:
        """Let the table show the virtual dice tumbling for a moment (games with a ``rolling`` screen)."""
        if not hasattr(render.for_game(self.match.header.game), "rolling"):
            return
        self._rolled_at = self.clock()
        for frame in range(1, ROLL_FRAMES + 1):
            self._after(self._rolled_at + frame * ROLL_S / ROLL_FRAMES, self._redraw)

    def _table_screen(self) -> tuple:
        screens, view = render.for_game(self.match.header.game), self.match.view(None)
        elapsed = self.clock() - self._rolled_at
        if elapsed < ROLL_S and hasattr(screens, "rolling"):
            return (screens.rolling, view, int(elapsed * ROLL_FRAMES / ROLL_S))
        return (screens.table, view)

    def _set_lamps(self) -> None:
        for panel in self.hw.seats:
            overlay = self._overlays.get(panel.seat)
            panel.set_lamps(overlay[0][1] if overlay else self._base_lamps(panel.seat))
        if self.listeners:
            self._notify("lamps", self.lamps())

    def lamps(self) -> dict[str, list[str]]:
        return {f"seat{p.seat}": [lamp.value for lamp in p.lamps] for p in self.hw.seats}

    def refresh(self) -> None:
        """Bring lamps and displays in line with the state; unchanged screens are not redrawn."""
        self._dirty = False
        self._set_lamps()
        for panel in self.hw.seats:
            self._show(f"seat{panel.seat}", *self._seat_screen(panel.seat))
        unread = self._to_read() if self.lobby is not None else []
        if unread:
            self._show("table", fault_screen.alert, unread[0]["screen"], len(unread), "seat 1 OK: got it")
        elif self.lobby is not None:
            self._show("table", lobby_screens.menu, self.lobby.view())
        else:
            self._show("table", *self._table_screen())
        if self.listeners:
            self._notify("state", self.public())

    def _seat_screen(self, seat: int) -> tuple:
        notice = self.notices.get(seat, "")
        if self.lobby is not None:
            if seat != 1:
                return (lobby_screens.waiting, seat)
            unread = self._to_read()
            if unread:
                return (fault_screen.alert, unread[0]["screen"], len(unread), "OK: got it")
            return (lobby_screens.menu, self.lobby.view(), notice, self._pin_glass() is not None)
        if seat > self.match.header.seats:
            return (lobby_screens.waiting, seat)
        if seat in self.computers:
            return (bot_screen.seat, self.match.view(None), seat, self.match.header.bots[seat],
                    self._computer_status(seat), notice)
        decision = next(iter(self.match.decisions_for(seat)), None)
        entry = self.entries[seat]
        entry.follow(decision)
        screens = render.for_game(self.match.header.game)
        return (screens.seat, self.match.view(seat), entry.summary(decision), notice)

    def _computer_status(self, seat: int) -> str:
        """What a bot seat's OLED says it is doing; only what the table may know."""
        mine = self.match.decisions_for(seat)
        if self.match.locked(seat):
            return "locked in"
        if any(d.secret for d in mine):
            return "picks last, secretly"
        return "thinking" if mine else "waiting"

    @property
    def fault(self) -> str | None:
        """Why play is paused, in a few words (the journal's fault first, then the hardware's), or None."""
        if self.journal is not None and self.journal.fault is not None:
            return fault_words(self.journal.fault)
        return self.hw_fault

    def _hardware_fault(self, fault: str | None) -> None:
        """The hardware's fault changed (an IO board unplugged or back): pause or resume, and show it."""
        log.info("hardware: %s", fault or "back")
        self.hw_fault = fault
        self.hw.signals.health(self.fault)
        if fault:
            self.hw.signals.beep("fault")
        self._dirty = True

    def _show(self, name: str, render_fn, *args) -> None:
        if self.journal is not None and self.journal.fault is not None:
            render_fn, args = fault_screen.storage, (fault_words(self.journal.fault),)
        elif self.hw_fault:
            render_fn, args = fault_screen.paused, (self.hw_fault,)
        key = (render_fn, args)
        if self._shown.get(name) == key:
            return
        self._shown[name] = key
        self.displays.submit(name, render_fn, *args)

    def public(self) -> dict:
        """What anyone may see: the lobby or the match's public view, the public log, and what the host must know."""
        box = {"alerts": [{k: a[k] for k in ("id", "text", "at")} for a in self.alerts], "fault": None}
        if self.journal is not None and self.journal.fault is not None:
            box["fault"] = {"words": fault_words(self.journal.fault), "text": str(self.journal.fault)}
        elif self.hw_fault:
            box["fault"] = {"words": self.hw_fault, "text": self.hw_fault}
        if self.lobby is not None:
            return {"mode": "lobby", "lobby": self.lobby.view(), **box}
        return {"mode": "play", "view": self.match.view(None), "log": self.log, "names": self.names,
                "bots": self.match.header.bots, **box}

    def subscribe(self, listener: Callable[[str, object], None]) -> None:
        self.listeners.append(listener)

    def _notify(self, kind: str, payload) -> None:
        for listener in self.listeners:
            listener(kind, payload)

    def _frame(self, name: str, image) -> None:
        self._notify("frame", (name, image))

    def health(self) -> str | None:
        """None while the box can serve the table, else what is wrong (the watchdog goes unfed)."""
        return self.displays.health()

    def part(self) -> None:
        """Leave the parting screen on every display (the service is stopping)."""
        for name in self.hw.displays():
            self.displays.submit(name, fault_screen.parting)
        self.displays.flush()

    def close(self) -> None:
        self.displays.close()
        self.hw.close()
        if self.journal is not None:
            self.journal.close()
