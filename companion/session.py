"""The session: the box's one loop (:mod:`companion.loop`) and the game it owns.

Hardware callbacks (and the simulator's presses, and the web page's) hand each edge to
:meth:`Session.post`, which debounces it on their thread; host actions :meth:`Session.call` a
function. Each gesture goes to the table (:mod:`companion.table`: what a press does to the lobby or
the match in play), is answered on the lamps first (a hole's press flips them on its own thread,
before the loop takes it; an OK's, once its decision is on disk; a refusal then blinks), and then
every display is brought in line (:mod:`companion.screens` says what each shows,
:mod:`companion.outputs` puts it on the glass).
While the journal refuses writes or the hardware is at fault, play pauses and every screen says why.
"""
from __future__ import annotations

import logging
import time
from typing import Callable

from . import screens
from .alerts import Alerts, where
from .entry import Refuse
from .inputs import DEBOUNCE_S, HOLD_S, Gesture, Inputs
from .journal import Journal, short as fault_words
from .keeper import Keeper
from .loop import Loop
from .outputs import Outputs
from .painter import draw
from .publisher import Publisher
from .storage import StoreError
from .table import Table

log = logging.getLogger("molebox.session")

RETRY_S = 2.0           # while the journal refuses writes, it is tried again this often
PIN_S = 20.0            # seat 1's OLED shows the host PIN this long when asked in the lobby (hold OK)


def _may_commit(g: Gesture) -> bool:
    """An OK may commit a decision, so its lamps flip once that is on disk; a hole only drafts."""
    return g.control == "ok"


class Session(Loop):
    def __init__(self, hardware, clock: Callable[[], float] = time.monotonic, *, game: str | None = None,
                 seats: int | None = None, seed: int = 0, settings: dict | None = None,
                 dice: str = "virtual", cards: str = "virtual", debounce_s: float = DEBOUNCE_S, hold_s: float = HOLD_S,
                 journal: Journal | None = None, bots: dict[int, str] | None = None, paint: Callable = draw):
        super().__init__(Inputs(len(hardware.seats), debounce_s, hold_s), clock)
        self.hw = hardware
        self.keeper, self.alerts, self.news = Keeper(journal), Alerts(), Publisher()
        self.table = Table(len(hardware.seats), self.keeper, self.alerts, clock, seed=seed, settings=settings,
                           wired=len(hardware.panels),
                           fixed=(game, seats, dice, cards, dict(bots or {})) if game else None)
        self.out = Outputs(hardware, self.news, on_fault=self._display_failed, paint=paint)
        self.displays = self.out.displays
        self.hw_fault: str | None = hardware.fault     # while set, the game is paused and every display says why
        self.joins: tuple[tuple[int, str, str], ...] = ()   # free phone seats: the table shows how to join them
        self._phones_sent: list[int] | None = None          # the seats played on phones, as last published
        self._rolled_at = float("-inf")
        self._dirty = self._lamps_due = self._retrying = False
        self._pressed: set[int] = set()                 # seats that pressed since the last refresh: their screens first
        for text, words in self.keeper.notes():
            self.alerts.add(text, words)
        if self.keeper.fault is not None:
            self._storage_failed()                      # the table is restored once the journal opens
        else:
            self._guarded(self.table.restore, "resuming the journal's game")
            self._after_play()
        hardware.watch(lambda fault: self.call(lambda: self._hardware_fault(fault)))
        hardware.listen(lambda text, screen: self.call(lambda: self.alerts.add(text, screen)))
        hardware.connect(self.post)
        self.refresh()

    @property
    def match(self):
        """The match in play (None in the lobby)."""
        return self.table.match

    @property
    def lobby(self):
        return self.table.lobby

    def accepts(self, edge) -> bool:
        """A seat played on a phone takes its phone's presses only, a seat played on its panel the panel's."""
        return edge.phone == (edge.seat in self.table.phones)

    def settle(self) -> None:
        if self._lamps_due:
            self._lamps_due = False
            self.out.set_lamps(self.scene())
        if self._dirty:
            self.refresh()

    # ---- presses ----------------------------------------------------------------------------

    def gesture(self, g: Gesture) -> None:
        """A press: to the table unless play is paused; lamps answer at once, either way."""
        glass = self._pin_glass()
        if self.fault:
            outcome = Refuse(f"paused: {self.fault}")
        elif glass is not None and self.lobby is not None and (g.seat, g.control, g.kind) == (1, "ok", "hold"):
            glass.reveal(True)
            self.after(self.clock() + PIN_S, lambda now: glass.reveal(False))
            outcome = None
        else:
            outcome = self._guarded(lambda: self.table.press(g), f"a press at seat {g.seat}")
        self._answer(g, outcome)
        if not self.fault:
            self._guarded(self.table.computers_play, "a computer player")
        self._after_play()

    def _guarded(self, action: Callable, what: str):
        """Run a table action: a journal that refuses pauses play, a bug is logged by where, never by its
        words (they may name a secret pick); either way the game is as the journal has it."""
        try:
            return action()
        except StoreError:
            self._storage_failed()
            return Refuse(f"not saved: {self.fault}")
        except Exception as exc:
            log.error("%s hit a bug:\n%s", what, where(exc))
            self.table.forget_unsaved()
            self.alerts.add(f"{what.capitalize()} hit a bug ({type(exc).__name__}); it was not taken and the game "
                            f"is as the journal has it. The log has where.")
            return Refuse("not taken: a bug")

    def answer(self, g: Gesture) -> None:
        """On the press's own thread, before the loop takes it: a hole's press flips its seat's lamps now."""
        if not _may_commit(g):
            self.out.flip(g, self.clock())

    def _answer(self, g: Gesture, outcome) -> None:
        """On the loop, once the table has the press (and the journal its decision): an OK's flip; a refusal's
        blink, with its reason on the seat's OLED; the flash's steps timed."""
        if _may_commit(g):
            self.out.flip(g, self.clock())
        refused = isinstance(outcome, Refuse)
        if refused:
            log.info("seat %d: a %s was refused", g.seat, g.kind)   # the reason may tell a secret
            self.table.notices[g.seat] = outcome.reason
            self.out.refuse(g, self.clock())
        else:
            self.table.notices.pop(g.seat, None)
        for end in self.out.flash_ends(g.seat):
            self.after(end, lambda now, seat=g.seat: self._expire(seat, now))
        self._pressed.add(g.seat)
        self._dirty = True

    def _expire(self, seat: int, now: float) -> None:
        self._lamps_due |= self.out.expire_flash(seat, now)

    def _after_play(self) -> None:
        """Empty the journal's WAL if a turn ended (the lamps have answered); sound and show the moments the
        table shares; notice a journal that stopped taking writes."""
        self.keeper.settle()
        for moment in self.table.moments:
            if moment == "roll" and screens.rolls(self.match.header.game):
                self._rolled_at = self.clock()
                for frame in range(1, screens.ROLL_FRAMES + 1):
                    self.after(self._rolled_at + frame * screens.ROLL_S / screens.ROLL_FRAMES, self._redraw)
            elif moment != "roll":
                self.hw.signals.beep(moment)
        self.table.moments.clear()
        if self.keeper.fault is not None:
            self._storage_failed()
        self._dirty = True

    def _redraw(self, now: float) -> None:
        self._dirty = True

    def host(self, action: Callable[[Table], str | None]) -> str | None:
        """Run a host action (from the dashboard) on the table: a refusal in words, or None when done."""
        if self.fault:
            return f"the box is paused: {self.fault}"
        outcome = self._guarded(lambda: action(self.table), "a host action")
        self._after_play()
        if self.keeper.fault is not None:
            return f"not saved: {self.fault}; the box tries again by itself"
        return outcome.reason if isinstance(outcome, Refuse) else outcome

    def _pin_glass(self):
        """Seat 1's OLED where it shows the host PIN on request (a LAN box with no table display), else None."""
        device = self.hw.displays().get("seat1")
        return device if getattr(device, "on_request", False) else None

    # ---- faults -------------------------------------------------------------------------------

    @property
    def fault(self) -> str | None:
        """Why play is paused, in a few words (the journal's fault first, then the hardware's), or None."""
        return fault_words(self.keeper.fault) if self.keeper.fault is not None else self.hw_fault

    def _storage_failed(self) -> None:
        """The journal refused a write (or would not open): forget in memory what it did not take, pause
        play on every screen, flash the status LED, and try the journal again every few seconds."""
        self.table.forget_unsaved()
        if not self._retrying:
            self._retrying = True
            log.error("the journal cannot be written, play is paused: %s", self.keeper.fault)
            self.hw.signals.health(self.fault)
            self.hw.signals.beep("fault")
            self.after(self.clock() + RETRY_S, self._retry_journal)
        self._dirty = True

    def _retry_journal(self, now: float) -> None:
        opened = self.keeper.journal.store is None
        self._dirty = True                      # the screens say what is wrong now, or play again
        if not self.keeper.retry():
            self.after(now + RETRY_S, self._retry_journal)
            return
        self._retrying = False
        self.table.notices.clear()              # "paused: ..." is over
        self.hw.signals.health(self.fault)
        if opened:                              # the journal opened at last: what did it hold?
            for text, words in self.keeper.notes():
                self.alerts.add(text, words)
            self._guarded(self.table.restore, "resuming the journal's game")
        self._guarded(self.table.computers_play, "a computer player")
        self._after_play()

    def _hardware_fault(self, fault: str | None) -> None:
        """The hardware's fault changed (an IO board unplugged or back): pause or resume, and show it."""
        log.info("hardware: %s", fault or "back")
        self.hw_fault = fault
        self.hw.signals.health(self.fault)
        if fault:
            self.hw.signals.beep("fault")
        self._dirty = True

    def _display_failed(self, name: str, render_fn, args: tuple, exc: BaseException) -> None:
        """From the display worker: one display's frame failed (it shows a fault screen); told on the loop."""
        def report():
            self.alerts.display_failed(name, render_fn, args, exc, self.match.view(None) if self.match else {})
            self._dirty = True
        self.call(report)

    # ---- what the table sees --------------------------------------------------------------------

    def scene(self) -> screens.Scene:
        """What is true now, for the screens and the lamps."""
        table = self.table
        return screens.Scene(
            seats=tuple(p.seat for p in self.hw.seats), lobby=table.lobby, match=table.match,
            computers=table.computers, entries=table.entries, notices=table.notices, fresh=frozenset(table.fresh),
            unread=tuple(self.alerts.unread()) if table.lobby is not None else (),
            storage_fault=None if self.keeper.fault is None else fault_words(self.keeper.fault),
            hardware_fault=self.hw_fault, since_roll=self.clock() - self._rolled_at,
            pin_hint=self._pin_glass() is not None, names=tuple(sorted(table.names.items())), joins=self.joins,
            table="table" in self.hw.displays(), phones=frozenset(table.phones))

    def set_joins(self, joins) -> None:
        """The free phone seats, each ``(seat, join code, join address)``, lowest first (from the web panel)."""
        self.joins = tuple(joins)
        self._dirty = True

    def refresh(self) -> None:
        """Bring lamps and displays in line with the state; unchanged screens are not redrawn."""
        self._dirty = False
        match = self.match
        if match is not None and self.lobby is None:      # each draft follows its seat's decision now
            for seat, entry in self.table.entries.items():
                if seat <= match.header.seats and seat not in self.table.computers:
                    entry.follow(next(iter(match.decisions_for(seat)), None))
        self.out.show(self.scene(), self._pressed)
        self._pressed = set()
        if self.news.listeners:
            self.news.send("state", self.public())
            phones = sorted(self.table.phones)
            if phones != self._phones_sent:
                self._phones_sent = phones
                self.news.send("phones", phones)

    # ---- published: for the web, the service, the scripts ------------------------------------------

    def public(self) -> dict:
        """What anyone may see: the lobby or the match's public view, the public log, and what the host must know."""
        fault = self.keeper.fault
        box = {"alerts": self.alerts.public(), "fault": {"words": fault_words(fault), "text": str(fault)}
               if fault is not None else {"words": self.hw_fault, "text": self.hw_fault} if self.hw_fault else None}
        state = self.table.public()
        if self.match is not None and self.lobby is None:
            state["log"] = self.log
        return {**state, **box}

    @property
    def log(self) -> list[dict]:
        """The public log of the match in play (:meth:`companion.publisher.Publisher.log`)."""
        return self.news.log(self.match)

    def subscribe(self, listener: Callable[[str, object], None]) -> None:
        """Hear ``(kind, payload)``: ``state``, ``lamps`` and ``phones`` (the seats played on phones) from the
        loop, ``frame`` from the display worker."""
        self.news.subscribe(listener)

    def lamps(self) -> dict[str, list[str]]:
        return self.out.lamps()

    def display_names(self) -> list[str]:
        return self.out.names()

    def rendered(self, name: str):
        return self.out.rendered(name)

    def glass(self, name: str):
        return self.out.glass(name)

    def finished_games(self) -> list[dict]:
        """The journal's finished games, read on a connection of their own: call it off the loop."""
        return self.keeper.finished_games()

    def health(self) -> str | None:
        """None while the box can serve the table, else what is wrong (the watchdog goes unfed)."""
        return self.displays.health()

    def part(self) -> None:
        self.out.part()

    def close(self) -> None:
        self.out.close()
        if self.keeper.journal is not None:
            self.keeper.journal.close()
