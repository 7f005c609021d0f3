"""The session: the box's one loop (:mod:`companion.loop`), routing what happens to the part whose job it is.

Hardware callbacks (and the simulator's presses, and the phones') hand each edge to
:meth:`Session.post`, which debounces it on their thread; the web panel asks for a host action by
name (:meth:`Session.host`). Each press goes to the table (:mod:`companion.table`: what it does to
the lobby or the match in play) and its answer to the outputs (:mod:`companion.outputs`: the lamps
first, a hole's on its own thread before the loop takes it, an OK's once its decision is on disk);
a fault goes to the pause (:mod:`companion.pause`); once the queue is empty, the table's scene is
shown on every display and its public view published for whoever listens.
"""
from __future__ import annotations

import time
from typing import Callable

from . import screens
from .alerts import Alerts
from .entry import Refuse
from .inputs import DEBOUNCE_S, HOLD_S, Edge, Gesture, Inputs
from .journal import Journal
from .journal.keeper import Keeper
from .lobby import Start
from .loop import Loop
from .outputs import Outputs
from .painter import draw
from .pause import Pause
from .phones import PhoneSeats
from .publisher import Publisher
from .table import HOST_ACTIONS, Table


class Session(Loop):
    actions = tuple(HOST_ACTIONS)       # the host's actions, by name (Session.host)

    def __init__(self, hardware, clock: Callable[[], float] = time.monotonic, *, start: Start | None = None,
                 seed: int = 0, journal: Journal | None = None, debounce_s: float = DEBOUNCE_S,
                 hold_s: float = HOLD_S, paint: Callable = draw):
        """``start``: the game the command line fixed, else seat 1 chooses in the lobby; ``paint``: where frames
        are drawn (:mod:`companion.painter`)."""
        super().__init__(Inputs(len(hardware.seats), debounce_s, hold_s), clock)
        self.hw = hardware
        self.keeper, self.news = Keeper(journal), Publisher()
        self.phones = PhoneSeats(len(hardware.seats), len(hardware.panels))
        self.out = Outputs(hardware, self.news, clock=clock, after=self.after, redraw=self._redraw,
                           on_fault=self._display_failed, paint=paint)
        self.table = Table(self.phones, self.keeper, Alerts(), clock, start=start, seed=seed,
                           table_display="table" in hardware.displays(), pin_on_request=self.out.pin_on_request,
                           panels=screens.panels(hardware.profile))
        self.pause = Pause(self.table, hardware.signals, after=self.after, call=self.call, clock=clock,
                           changed=self._changed)
        self._dirty = False
        if journal is not None:
            journal.listen(lambda: self.call(self._landed))
        self.table.hardware_fault = hardware.fault
        self.table.open()
        self._played()
        self.phones.watch(lambda gone, freed: self.call(lambda: self._phones_changed(gone, freed)))
        if hasattr(paint, "watch"):                 # a render process: the host hears when it is replaced
            paint.watch(lambda text: self.call(lambda: self._note(text, None)))
        hardware.watch(lambda fault: self.call(lambda: self.pause.hardware(fault)))
        hardware.listen(lambda text, screen: self.call(lambda: self._note(text, screen)))
        hardware.connect(self.post)
        self.refresh()

    def accepts(self, edge: Edge) -> bool:
        """A seat played on a phone takes its phone's presses only, a seat played on its panel the panel's."""
        return edge.phone == (edge.seat in self.phones)

    # ---- presses and host actions ----------------------------------------------------------------

    def answer(self, g: Gesture) -> None:
        """On the press's own thread, before the loop takes it."""
        self.out.answer_now(g)

    def gesture(self, g: Gesture) -> None:
        """A press: to the table (which refuses it while play is paused), its answer to the lamps."""
        self.out.answer(g, self.table.press(g))
        self.table.computers_answer()
        self._played()

    def host(self, action: str, **args) -> str | None:
        """Run the host action named ``action`` (:data:`companion.table.HOST_ACTIONS`, from the dashboard) on
        the table: a refusal in words, or None when done."""
        if self.table.paused:
            return f"the box is paused: {self.table.paused}"
        outcome = self.table.guarded(lambda: self.table.act(action, **args), "a host action")
        self._played()
        if self.keeper.fault is not None:
            return f"not saved: {self.table.paused}; the box tries again by itself"
        return outcome.reason if isinstance(outcome, Refuse) else outcome

    def _landed(self) -> None:
        """The journal's writer has news: each decision on disk now acknowledged on its seat's lamps, or refused."""
        for g, outcome in self.table.landed():
            self.out.answer(g, outcome)
        self._played()

    def waited(self) -> bool:
        """Scripts and tests: every write handed to the journal has run (the service's loop never waits on it)."""
        return self.keeper.wait_for_writes()

    def _played(self) -> None:
        """The table acted: its shared moments to the outputs, a journal that stopped taking writes to the pause;
        the screens drawn again as the notices it left end."""
        self.out.moments(self.table.settle())
        self.pause.check()
        if (end := self.table.notices.next_end()) is not None:
            self.after(end, self._redraw)
        self._dirty = True

    def _changed(self, resumed: bool) -> None:
        """The pause has news for the screens; when play resumes, the computer players may answer again."""
        if resumed:
            self.table.computers_answer()
            self._played()
        self._dirty = True

    def _redraw(self, *_) -> None:
        self._dirty = True

    def _phones_changed(self, gone: list[int], freed: bool) -> None:
        """Who holds a phone seat changed (the join codes on the table change); a seat the host freed says so."""
        if freed:
            for seat in gone:
                self.table.freed(seat)
            self._played()
        self._dirty = True

    def _note(self, text: str, screen: str | None) -> None:
        """Something for the host to read: from the hardware (an IO board of another firmware build) or the render
        process (replaced after a stall)."""
        self.table.alerts.add(text, screen)
        self._dirty = True

    def _display_failed(self, name: str, render_fn, args: tuple, exc: BaseException) -> None:
        """From the display worker: one display's frame failed (it shows a fault screen); told on the loop."""
        def report():
            match = self.table.match
            self.table.alerts.display_failed(name, render_fn, args, exc, match.view(None) if match else {})
            self._dirty = True
        self.call(report)

    # ---- shown and published ----------------------------------------------------------------------

    def settle(self) -> None:
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        """Bring lamps and displays in line with the table; unchanged screens are not redrawn. Whoever listens
        hears the public view, and which free phone seats the game waits for (their join codes)."""
        self._dirty = False
        scene = self.table.scene()
        self.out.show(scene)
        if self.news.listeners:
            self.news.send("state", self.table.public())
            self.news.send("joins", screens.wanted_phones(scene))

    def health(self) -> str | None:
        """None while the box can serve the table, else what is wrong (the watchdog goes unfed)."""
        return self.out.displays.health()

    def close(self) -> None:
        self.out.close()
        if self.keeper.journal is not None:
            self.keeper.journal.close()
