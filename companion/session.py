"""The session: the box's one loop (:mod:`companion.loop`); the table decides, the session carries out.

Hardware callbacks (and the simulator's presses, and the phones') hand each edge to
:meth:`Session.post`, which debounces it on their thread (a hole's press flips its lamps there); the
web panel asks for a host action by name (:meth:`Session.host`). Each becomes a move for the table
(:func:`companion.table.decide`), which answers its new state and the effects to carry out: the
journal's first, through the keeper (a write the journal refuses undoes the move), then the box's,
each once: a press answered on its seat's lamps (an OK's once its decision is on disk), a moment on
the buzzer, a line in the log. Faults go to the pause (:mod:`companion.pause`); once the queue is
empty, the table's scene is shown on every display and its public view published for whoever
listens. The web panel uses the session only through its port (:mod:`companion.port`).
"""
from __future__ import annotations

import logging
import time
from typing import Callable

from . import scene
from .bugs import display_failed, where
from .carry_out import CarryOut
from .inputs import DEBOUNCE_S, HOLD_S, Edge, Gesture, Inputs
from .journal import Journal
from .journal.card import JournalError
from .journal.keeper import Keeper
from .loop import Loop
from .outputs.lamps import Lamps
from .outputs.screens import Screens
from .painter import draw
from .pause import Pause
from .feed import Feed
from .table import ACTIONS, Start, TableState, decide, public
from .table.effects import Flash
from .table.moves import Act, Faults, Forgotten, Move, Noted, NotTaken, Opened, Press, Resumed
from .resuming import journal_opened

log = logging.getLogger("molebox.session")


_WHAT = {Press: "a press at seat {seat}", Act: "a host action", Opened: "resuming the journal's game"}   # for a bug


class Session(Loop):
    actions = tuple(ACTIONS)       # the host's actions, by name (Session.host)

    def __init__(self, hardware, clock: Callable[[], float] = time.monotonic, *, start: Start | None = None,
                 seed: int = 0, journal: Journal | None = None, debounce_s: float = DEBOUNCE_S,
                 hold_s: float = HOLD_S, paint: Callable = draw, wall: Callable[[], float] = time.time):
        """``start``: the game the command line fixed, else seat 1 chooses in the lobby; ``paint``: where frames
        are drawn (:mod:`companion.painter`)."""
        super().__init__(Inputs(len(hardware.seats), debounce_s, hold_s), clock)
        self.hw, self.wall = hardware, wall
        self.keeper, self.feed = Keeper(journal), Feed()
        self.lamps = Lamps(hardware.seats, self.feed, after=self.after)
        self.screens = Screens(hardware, self.feed, on_fault=self._display_failed, paint=paint)
        self.state = TableState.new(len(hardware.seats), len(hardware.panels), fixed=start, seed=seed,
                                    table_display="table" in hardware.displays(),
                                    host_pin_on_request=self.screens.host_pin_on_request)
        self.pause = Pause(self.keeper, hardware.signals, after=self.after, call=self.call, clock=clock,
                           changed=self._faulted, forget=self._forget, opened=self._open)
        self.pause.hardware_fault = hardware.fault
        self.carry_out = CarryOut(self.keeper, self.lamps, self.screens, hardware.signals, clock=clock,
                                  after=self.after, redraw=self._redraw)
        self.panels = scene.panels(hardware.profile)
        self.joins: tuple[tuple[int, str, str], ...] = ()     # the free phone seats' join codes (the web panel's)
        self._made = scene.Made()             # what the scenes' screens and lamps were last made of
        self._held: dict[int, tuple] = {}       # seats whose decision is on its way to the disk: their screens
                                                # before it
        self._dirty = False
        if journal is not None:
            journal.listen(lambda: self.call(self._landed))
        self._open()
        if hasattr(paint, "watch"):                 # a render process: the host hears when it is replaced
            paint.watch(lambda text: self.call(lambda: self.note(text, None)))
        hardware.watch(lambda fault: self.call(lambda: self.pause.hardware(fault)))
        hardware.listen(lambda text, screen: self.call(lambda: self.note(text, screen)))
        hardware.connect(self.post)
        self.refresh()

    def accepts(self, edge: Edge) -> bool:
        """A seat played on a phone takes its phone's presses only, a seat played on its panel the panel's."""
        return edge.phone == (edge.seat in self.state.phones)

    # ---- moves: presses, host actions, notes ------------------------------------------------------

    def answer(self, g: Gesture) -> None:
        """On the press's own thread, before the loop takes it: a hole's press flips its seat's lamps now (an OK's
        flip means "saved": it waits for the table)."""
        if g.control != "ok":
            self.lamps.flip(g, self.clock())

    def gesture(self, g: Gesture) -> None:
        self._decide(Press(g))
        self._played()

    def host(self, action: str, **args) -> str | None:
        """Run the host action named ``action`` (:data:`companion.table.ACTIONS`, from the dashboard): a refusal in
        words, or None when done."""
        reply = self._decide(Act(action, args, self.clock()))
        self._played()
        return reply

    def note(self, text: str, screen: str | None) -> None:
        """Something for the host to read: from the hardware (an IO board of another firmware build), the render
        process (replaced after a stall) or a display's fault."""
        self.move(Noted(text, screen, self.clock(), self.wall()))

    def move(self, move: Move) -> None:
        """On the loop: a move from elsewhere (a note, a phone seat freed), decided and shown."""
        self._decide(move)
        self._played()

    def show_joins(self, joins: tuple[tuple[int, str, str], ...]) -> None:
        """On the loop: the free phone seats' join codes (the web panel's), for the screens to offer."""
        self.joins = joins
        self._dirty = True

    def _decide(self, move: Move) -> str | None:
        """The table decides ``move``; its effects carried out, the journal's first. A write the journal refuses
        leaves the table as it was (what the journal did not take forgotten) and the move refused; so does a bug,
        logged by where. A host action's reply, else None. The caller then sees to the journal and the pause
        (:meth:`_played`)."""
        if not isinstance(move, Faults):
            self._faults_now()
        before = self.state
        kept = self._keep(move)
        try:
            self.state, effects = decide(before, move)
            waiting = self.carry_out.journal(effects, self.state.match)
            if kept is not None and move.gesture in waiting:
                self._held[move.gesture.seat] = kept
        except JournalError:
            return self._undone(before, move, f"not saved: {self.pause.paused}")
        except Exception as exc:
            what = _WHAT.get(type(move), "a move of the table")
            what = what.format(seat=move.gesture.seat) if isinstance(move, Press) else what
            log.error("%s hit a bug:\n%s", what, where(exc))
            reply = self._undone(before, move, "not taken: a bug")
            self.note(f"{what.capitalize()} hit a bug ({type(exc).__name__}); it was not taken and the game is as "
                      f"the journal has it. The log has where.", None)
            return reply
        return self.carry_out.box(effects, waiting)

    def _keep(self, move: Move) -> tuple | None:
        """The screen an OK's seat keeps should its decision wait for the disk (None: nothing to keep, or it keeps
        one already)."""
        if not isinstance(move, Press) or move.gesture.control != "ok" or self.state.match is None:
            return None
        return None if move.gesture.seat in self._held else scene.kept(self.scene(), move.gesture.seat)

    def _undone(self, before: TableState, move: Move, reason: str) -> str | None:
        """The move was not taken: the table as it was before it, as the journal holds it; a press is refused."""
        self.state = before
        self._forget()
        if isinstance(move, Press):
            self._decide(NotTaken(move.gesture, reason))
        if isinstance(move, Act):
            return f"{reason}; the box tries again by itself" if self.keeper.fault is not None else reason
        return None

    def _played(self) -> None:
        """The table acted: a turn's end empties the WAL, a journal that stopped taking writes pauses play; the
        screens are drawn again."""
        self.keeper.settle()
        self.pause.check()
        self._dirty = True

    # ---- the journal and the pause ----------------------------------------------------------------

    def _landed(self) -> None:
        """The journal's writer has news: each decision on disk now acknowledged on its seat's lamps, or refused."""
        error, saved, refused = self.keeper.landed()
        if error is not None:
            self._forget()
        now = self.clock()
        for g, _ in saved:
            self.carry_out.answer(Flash(g), False, now)
        for g, draft in refused:                # the draft comes back: OK again once the card takes writes
            self._faults_now()
            self._decide(NotTaken(g, f"not saved: {self.state.paused}", draft))
        self._played()

    def _forget(self) -> None:
        """The journal stopped taking writes: the match as it holds it."""
        if self.state.match is not None:
            self._decide(Forgotten(self.keeper.as_saved(self.state.match), self.clock()))

    def _faults_now(self) -> None:
        """The table told what pauses play now, if that changed."""
        faults = self.pause.faults()
        if faults != (self.state.storage_fault, self.state.storage_text, self.state.hardware_fault):
            self._decide(Faults(*faults, self.clock()))

    def _faulted(self, resumed: bool) -> None:
        """The pause has news for the screens; when play resumes, the computer players may answer again."""
        self._faults_now()
        if resumed:
            self._decide(Resumed(self.clock()))
        self._dirty = True

    def _open(self) -> None:
        """At start, or once the journal opens at last: its notes for the host, then the game this start asks for."""
        try:
            move = journal_opened(self.keeper, self.state.fixed, self.clock(), self.wall())
        except JournalError:
            self._played()                      # the pause tries the journal again
            return
        self._decide(move)
        self._played()

    def waited(self) -> bool:
        """Scripts and tests: every write handed to the journal has run (the service's loop never waits on it)."""
        return self.keeper.wait_for_writes()

    def _display_failed(self, name: str, render_fn, args: tuple, exc: BaseException) -> None:
        """From the display worker: one display's frame failed (it shows a fault screen); told on the loop."""
        def report():
            match = self.state.match
            self.note(display_failed(name, render_fn, args, exc, match.view(None) if match else {}), None)
        self.call(report)

    # ---- shown and published ----------------------------------------------------------------------

    def _redraw(self, *_) -> None:
        self._dirty = True

    def settle(self) -> None:
        if self._dirty:
            self.refresh()

    def public(self) -> dict:
        """What anyone may see of the table now (:func:`companion.table.public`)."""
        return public(self.state, not self.keeper.on_the_way, self.clock())

    def scene(self) -> scene.Scene:
        """What is true now, for every display and lamp; a seat whose decision is on its way to the disk keeps the
        screen it had before it."""
        saving = frozenset(g.seat for g, _ in self.keeper.waiting())
        if self._held:                      # what a seat keeps goes once its decision has landed
            self._held = {seat: before for seat, before in self._held.items() if seat in saving}
        return scene.Scene(self.state, self.clock(), saving, self.pause.slow(), self.joins, self.panels,
                           tuple(self._held.items()), self._made)

    def refresh(self) -> None:
        """Bring lamps and displays in line with the table; unchanged screens are not redrawn. Whoever listens
        hears the public view, and which free phone seats the game waits for (their join codes). A seat whose
        decision is on its way to the disk keeps its own lamps as they were: they answer it once it is there
        (unless play is paused, which every screen says)."""
        self._dirty = False
        now = self.scene()
        self.lamps.show(lambda seat: scene.lamps(now, seat), () if self.state.paused else now.saving)
        self.screens.show(scene.screens(now), self.state.phones)
        if self.feed.listeners:
            self.feed.send("state", self.public())
            self.feed.send("joins", scene.wanted_phones(now))

    def health(self) -> str | None:
        """None while the box can serve the table, else what is wrong (the watchdog goes unfed)."""
        return self.screens.worker.health()

    def close(self) -> None:
        self.screens.close()
        self.hw.close()
        if self.keeper.journal is not None:
            self.keeper.journal.close()
