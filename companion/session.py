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
import logging
import queue
import sys
import threading
import time
from typing import Callable

from rules.match import Header, Match
from rules.model import IllegalMove

from . import render
from .displays import DisplayWorker
from .entry import Changed, Entry, Refuse, Submit
from .hardware.lamps import Lamp
from .inputs import DEBOUNCE_S, HOLD_S, Edge, Gesture, Inputs
from .lobby import Lobby, Start
from .players import Computers
from .store import Store
from .render import bot as bot_screen, fault as fault_screen, lobby as lobby_screens

log = logging.getLogger("molebox.session")

ACK_S = 0.12            # every lamp of the seat flips for this long: "got it"
SWITCH_INTERVAL_S = 0.0005
REFUSE_S = 0.6          # after the flip, the lamps flash fast for this long: "not that"
ROLL_S = 0.8            # the table shows virtual dice tumbling this long before they land
ROLL_FRAMES = 4
TABLE = 0               # the timers' seat number for the table display's own timers


def _ack(base: tuple[Lamp, ...]) -> tuple[Lamp, ...]:
    """The same flash whichever hole was pressed: every lamp flips, so a press shows, a pick does not.

    Flipping what the lamps show now (not the base) makes quick presses flash again and again.
    """
    return tuple(Lamp.OFF if lamp is Lamp.ON else Lamp.ON for lamp in base)


class Session:
    def __init__(self, hardware, clock: Callable[[], float] = time.monotonic, *, game: str | None = None,
                 seats: int | None = None, seed: int = 0, settings: dict | None = None,
                 dice: str = "virtual", cards: str = "virtual", debounce_s: float = DEBOUNCE_S, hold_s: float = HOLD_S,
                 store: Store | None = None, bots: dict[int, str] | None = None):
        self.hw = hardware
        self.store = store
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
        self.displays = DisplayWorker(hardware.displays(), on_frame=self._frame)
        self.match: Match | None = None
        self.computers: Computers | None = None
        self.lobby: Lobby | None = None
        self.entries = {s: Entry(s) for s in range(1, self.panels + 1)}
        self.notices: dict[int, str] = {}
        self.names: dict[int, str] = {}      # players' names, from the dashboard; kept for the next game
        self.fresh: set[int] = set()
        self._public_log: tuple[Match | None, list[dict], int] = (None, [], 0)   # see :attr:`log`
        self._overlays: dict[int, list[tuple[float, tuple[Lamp, ...]]]] = {}
        self._timers: list[tuple[float, int, int]] = []
        self._rolled_at = float("-inf")      # when the box last rolled virtual dice
        self._seq = itertools.count()
        self._shown: dict[str, object] = {}
        self._dirty = False
        self._confirm_undo_until = float("-inf")
        saved = store.unfinished() if store else None
        if saved is not None:
            self.resume(saved)
        elif self.fixed:
            self.start(*self.fixed)
        else:
            self.lobby = Lobby(self.panels)
        hardware.watch(lambda fault: self.call(lambda: self._fault(fault)))
        self.fault: str | None = hardware.fault     # while set, the game is paused and every display says why
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
        expired = False
        while self._timers and self._timers[0][0] <= now:
            _, _, seat = heapq.heappop(self._timers)
            if seat == TABLE:
                self._dirty = True
                continue
            steps = self._overlays.get(seat, [])
            while steps and steps[0][0] <= now:
                steps.pop(0)
                expired = True
            if not steps:
                self._overlays.pop(seat, None)
        if expired:
            self._set_lamps()

    # ---- gestures -------------------------------------------------------------------------

    def _gesture(self, g: Gesture) -> None:
        if self.fault:
            return
        self.notices.pop(g.seat, None)
        if self.lobby is not None:
            outcome = self.lobby.tap(g.seat, g.control) if g.kind == "tap" else Refuse("tap, don't hold")
            if isinstance(outcome, Start):
                self.start(outcome.game, outcome.seats, outcome.dice, outcome.cards, outcome.bots)
                outcome = Changed()
            self._answer(g, outcome)
            return
        self._answer(g, self._play(g))
        self._computers_play()

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
            heapq.heappush(self._timers, (until, next(self._seq), seat))
        self._overlays[seat] = timed
        self.hw.seats[seat - 1].set_lamps(steps[0][0])

    def _computers_play(self) -> None:
        """Let the computer players answer whatever is theirs to answer now.

        They think on the loop: at the moments they answer, nobody else is choosing (their secret
        picks wait for every person's lock-in), and the bench keeps their think time in bounds.
        A refused answer is a bug in a bot: it is logged and shown on the bot's OLED, and the
        game waits (seat 1 can undo or end it) rather than the service failing.
        """
        while self.match is not None and (move := self.computers.next_move(self.match)) is not None:
            try:
                events = self.match.submit(*move)
            except IllegalMove as exc:
                log.error("computer player at seat %d: %s", move[0], exc)
                self.notices[move[0]] = "stuck: a bot error"
                self._dirty = True
                return
            self._events(events)
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

    def _journal(self) -> None:
        """Put every new record of the match on disk (one commit point) before anyone sees it answered."""
        if self.store is None or self.game_id is None:
            return
        match = self.match
        new = [(i, match.records[i], i in match.secret_records) for i in range(self._saved, len(match.records))]
        if not new:
            return
        self.store.append(self.game_id, new)
        self._saved = len(match.records)
        result = match.result()
        if result is not None:
            history = match.view(None)["state"].get("history", [])
            self.store.finish(self.game_id, {"scores": list(result.scores), "winners": list(result.winners),
                                             "history": history})

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

    def start(self, game: str, seats: int, dice: str = "virtual", cards: str = "virtual",
              bots: dict[int, str] | None = None) -> None:
        self.match = Match(Header(game=game, seats=seats, settings=self.settings if self.fixed else {},
                                  seed=self.seed, dice=dice, cards=cards, bots=dict(bots or {})))
        self.computers = Computers(self.match)
        self.lobby = None
        self.fresh = set()
        self.notices.clear()
        self.names = {s: n for s, n in self.names.items() if s <= seats}
        if self.store is not None:
            self.game_id = self.store.begin(self.match.transcript()["header"])
            self._saved = 0
            self._journal()
            for seat, name in self.names.items():
                self.store.set_name(self.game_id, seat, name)
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
        self.names = self.store.names(saved.game_id)
        self.seed = self.match.header.seed
        self.lobby = None
        revealed = any(e.kind == "reveal" for e in self.match.events)
        self.fresh = {s for s in range(1, self.match.header.seats + 1) if revealed and not self.match.held.get(s)}
        log.warning("resumed %s (game %d) after %d decisions", self.match.header.game, saved.game_id,
                    self.match.seat_records())
        self._computers_play()

    def new_game(self) -> None:
        """After a game: the same game again (fixed by the command line) or back to the lobby."""
        if self.store is not None and self.game_id is not None and not self.match.over:
            self.store.abandon(self.game_id)
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
        if self.store is not None and self.game_id is not None:
            self.store.undo(self.game_id, upto)
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
        if name:
            self.names[seat] = name
        else:
            self.names.pop(seat, None)
        if self.store is not None and self.game_id is not None:
            self.store.set_name(self.game_id, seat, name)
        self._dirty = True
        return None

    def end_game(self) -> None:
        """Abandon the current game: back to the lobby (or a fresh game when fixed)."""
        if self.match is not None:
            self.new_game()
            self.refresh()

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
            heapq.heappush(self._timers, (self._rolled_at + frame * ROLL_S / ROLL_FRAMES, next(self._seq), TABLE))

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
        if self.lobby is not None:
            self._show("table", lobby_screens.menu, self.lobby.view())
        else:
            self._show("table", *self._table_screen())
        if self.listeners:
            self._notify("state", self.public())

    def _seat_screen(self, seat: int) -> tuple:
        notice = self.notices.get(seat, "")
        if self.lobby is not None:
            return (lobby_screens.menu, self.lobby.view(), notice) if seat == 1 else (lobby_screens.waiting, seat)
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

    def _fault(self, fault: str | None) -> None:
        """The hardware's fault changed (an IO board unplugged or back): pause or resume, and show it."""
        log.info("hardware: %s", fault or "back")
        self.fault = fault
        self.hw.signals.health(fault)
        if fault:
            self.hw.signals.beep("fault")
        self._dirty = True

    def _show(self, name: str, render_fn, *args) -> None:
        if self.fault:
            render_fn, args = fault_screen.paused, (self.fault,)
        key = (render_fn, args)
        if self._shown.get(name) == key:
            return
        self._shown[name] = key
        self.displays.submit(name, render_fn, *args)

    def public(self) -> dict:
        """What anyone may see: the lobby or the match's public view, and the public log."""
        if self.lobby is not None:
            return {"mode": "lobby", "lobby": self.lobby.view()}
        return {"mode": "play", "view": self.match.view(None), "log": self.log, "names": self.names,
                "bots": self.match.header.bots}

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
