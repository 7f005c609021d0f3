"""What the table decided, done: its effects carried out, each once (:mod:`companion.table.effects`).

The journal's first, in order, by the keeper: a commit point handed to the journal's writer (with the
press whose answer waits for it), the waited-for writes of a game's life. Then the box's: a press
answered on its seat's lamps, a moment on the buzzer or the table display, a line in the log, the
phone seats told to whoever listens, a redraw timed, a host action's reply.
"""
from __future__ import annotations

import logging
from typing import Callable

from .inputs import Gesture
from .journal.keeper import Keeper
from .outputs import moments
from .outputs.lamps import Lamps
from .outputs.screens import Screens
from .table import effects as fx

log = logging.getLogger("molebox.session")


class CarryOut:
    def __init__(self, keeper: Keeper, lamps: Lamps, screens: Screens, signals, *, clock: Callable[[], float],
                 after: Callable, redraw: Callable):
        """``after``: the loop's timers; ``redraw``: ask the loop to draw the screens again."""
        self.keeper, self.lamps, self.screens, self.signals = keeper, lamps, screens, signals
        self.clock, self.after, self.redraw = clock, after, redraw
        self.seating: list[Callable[[frozenset[int], frozenset[int]], None]] = []   # who hears of the phone seats

    def journal(self, effects: list, match) -> set[Gesture]:
        """The journal's effects, in order (``match``: the one in play after them); the presses whose answers wait
        for their commit points. A write the journal refuses raises its JournalError."""
        keeper, waiting = self.keeper, set()
        for effect in effects:
            if isinstance(effect, fx.Commit):
                waiter = None if effect.gesture is None else (effect.gesture, effect.draft)
                if keeper.commit(match, waiter) and waiter is not None:
                    waiting.add(effect.gesture)
            elif isinstance(effect, fx.Begin):
                keeper.begin(effect.match, effect.names)
            elif isinstance(effect, fx.Undo):
                keeper.undone(effect.match, effect.upto)
            elif isinstance(effect, fx.Abandon):
                keeper.abandon(effect.match, effect.ended)
            elif isinstance(effect, fx.Reopen):
                keeper.reopen(effect.match)
            elif isinstance(effect, fx.Wait):
                keeper.put_waiting(effect.until)
            elif isinstance(effect, fx.Wake):
                keeper.wake(effect.game_id, effect.match)
            elif isinstance(effect, fx.Name):
                keeper.name(effect.seat, effect.name)
        return waiting

    def box(self, effects: list, waiting: set[Gesture]) -> str | None:
        """The box's effects, in order; a host action's reply (None: done, or no host action)."""
        reply, now = None, self.clock()
        for effect in effects:
            if isinstance(effect, (fx.Flash, fx.Refuse, fx.ShowHostPin, fx.Commit)):
                if effect.gesture is not None:
                    self.answer(effect, effect.gesture in waiting, now)
            elif isinstance(effect, fx.Moment):
                moments.mark(effect, self.signals, now=now, after=self.after, redraw=self.redraw)
            elif isinstance(effect, fx.Log):
                log.log(logging.getLevelName(effect.level.upper()), effect.message, *effect.args)
            elif isinstance(effect, fx.Seating):
                for heard in self.seating:
                    heard(effect.phones, effect.gone)
            elif isinstance(effect, fx.Redraw):
                self.after(effect.at, self.redraw)
            elif isinstance(effect, fx.Reply):
                reply = effect.refusal
        return reply

    def answer(self, effect, saving: bool, now: float) -> None:
        """A press answered on its seat's lamps: an OK's flip now, unless its decision is on its way to the disk (it
        is answered once there); a refusal's blink; the host PIN shown on request; the flash's steps timed."""
        g = effect.gesture
        self.screens.pressed(g.seat)
        if saving:
            return
        if g.control == "ok":
            self.lamps.flip(g, now)
        if isinstance(effect, fx.Refuse):
            self.lamps.refused(g, now)
        elif isinstance(effect, fx.ShowHostPin):
            self.screens.show_host_pin(now, self.after)
        self.lamps.time_flash(g.seat)
