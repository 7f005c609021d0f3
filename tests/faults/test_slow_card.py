"""A card that stalls (an SD card erasing): the table goes on, only the seat whose decision waits sees it wait.

The box runs as the service runs it, its loop on a thread of its own and the real clock; the card's
stall is the journal's ``stall`` hook holding the commit point on the journal's own thread until
the test lets it go (a kernel's delay target does the same below SQLite: ``make bench``'s slow-card
rows). A power cut during a stall is ``tests/faults/stalled_child.py`` killed.
"""
from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from companion.hardware.sim import open_sim
from companion.journal import Journal
from companion.journal.records import Records
from companion.table import Start
from companion.overlays import ACK_S
from companion.session import Session
from companion.pause import STALL_S
from companion.scene import SAVING
from tests.waiting import wait_for
from wiring.profile import load

ROOT = Path(__file__).resolve().parents[2]
STALL = 1.0                 # the card holds a commit point this long


class LiveBox:
    """A session on its own thread, on sim-8's mock pins, journaling to ``db`` through a card the test stalls."""

    def __init__(self, db: Path, game: str = "whakka-mole", seats: int = 3):
        self.hw = open_sim(load("sim-8"), time.monotonic)
        self.journal = Journal(db)
        self.card = threading.Event()           # set: the card takes writes; clear: each commit point waits
        self.card.set()
        self.journal.stall = self.card.wait
        self.session = Session(self.hw, time.monotonic, start=Start(game, seats), journal=self.journal)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self.session.run, args=(self._stop,), daemon=True)
        self._thread.start()

    def tap(self, seat: int, control: str) -> float:
        """A finger's tap on a seat's button (a hole answers as it goes down, OK as it is let go); when it began."""
        began = time.perf_counter()
        self.hw.drive(seat, control, True)
        time.sleep(0.06)
        self.hw.drive(seat, control, False)
        return began

    def whack_drafted(self) -> None:
        """Seat 1 pops up at hole 1 (the card takes it) and drafts its whack at hole 5, the hole's flash over."""
        self.tap(1, "hole1")
        ok = self.tap(1, "ok")
        assert wait_for(lambda: self.lamps_changed_since(1, ok), timeout=10)
        self.tap(1, "hole5")
        assert wait_for(lambda: self.lamps_still(1), timeout=10)

    def lamps_changed_since(self, seat: int, since: float) -> bool:
        return any(pin.changed_at > since for pin in self.hw.lamp_pins(seat))

    def lamps_still(self, seat: int) -> bool:
        """The seat's lamps have not changed for longer than a press's flash (ACK_S): they show its own state."""
        return not self.lamps_changed_since(seat, time.perf_counter() - 2 * ACK_S)

    def glass(self, name: str) -> bytes:
        return self.hw.displays()[name].image.tobytes()

    def notice(self, seat: int) -> str | None:
        """What the seat's screen is asked to say below its question now (read on the loop)."""
        said = queue.SimpleQueue()
        self.session.call(lambda: said.put(self.session.scene().notices.get(seat)))
        return said.get(timeout=10)

    def close(self) -> None:
        self.card.set()
        self._stop.set()
        self.session.call(lambda: None)
        self._thread.join(5)
        self.session.close()


def test_while_the_card_stalls_the_other_seats_go_on_and_the_waiting_seat_answers_when_its_commit_lands(tmp_path):
    box = LiveBox(tmp_path / "molebox.db")
    try:
        box.whack_drafted()
        box.card.clear()                                        # the card stalls
        ok = box.tap(1, "ok")                                   # seat 1 whacks hole 5: on its way, held
        assert wait_for(lambda: box.journal.busy_for() > 0, timeout=10)
        seat2_glass = box.glass("seat2")
        hole = box.tap(2, "hole3")                              # meanwhile seat 2 drafts its pop-up
        assert wait_for(lambda: box.lamps_changed_since(2, hole), timeout=10)      # its lamps answer
        assert wait_for(lambda: box.glass("seat2") != seat2_glass, timeout=10)     # and its screen
        assert wait_for(lambda: box.session.state.match.view(None)["locked"] == [1], timeout=10)
        assert wait_for(lambda: box.notice(1) == SAVING, timeout=10)                # its screen says why
        stalled_until = time.perf_counter() + STALL
        while time.perf_counter() < stalled_until:              # the card holds seat 1's decision a second:
            assert not box.lamps_changed_since(1, ok)           # its lamps do not acknowledge it
            time.sleep(0.01)
        released = time.perf_counter()
        box.card.set()
        assert wait_for(lambda: box.lamps_changed_since(1, ok), timeout=10)        # now they do
        assert min(p.changed_at for p in box.hw.lamp_pins(1) if p.changed_at > ok) >= released
        assert box.session.state.paused is None                 # a second is no fault: only after STALL_S
        assert wait_for(lambda: box.notice(1) is None, timeout=10)
    finally:
        box.close()
    assert Records(tmp_path / "molebox.db").unfinished().transcript["records"][-1]["key"] == "whack"


def test_the_waiting_seat_is_not_told_locked_in_before_its_decision_is_on_disk(tmp_path):
    box = LiveBox(tmp_path / "molebox.db")
    try:
        box.whack_drafted()
        asked = box.session.screens.screen("seat1")
        box.card.clear()                                        # the card stalls
        box.tap(1, "ok")
        assert wait_for(lambda: box.session.state.match.view(None)["locked"] == [1], timeout=10)    # the table has it
        # the seat's screen says why (asked for at the end of the loop's pass that found the card slow: the scene
        # says it a moment sooner)
        assert wait_for(lambda: box.session.screens.screen("seat1")[3] == SAVING, timeout=10)
        render, view, draft, _, glass = box.session.screens.screen("seat1")
        assert (render, view, draft, glass) == (asked[0], asked[1], asked[2], asked[4])   # and is as before OK
        box.card.set()
        assert wait_for(lambda: box.session.screens.screen("seat1")[1]["locked"] == [1], timeout=10)
        assert box.notice(1) is None
    finally:
        box.close()


def test_a_card_stalled_past_the_limit_pauses_every_screen_and_play_goes_on_when_it_answers(tmp_path):
    box = LiveBox(tmp_path / "molebox.db")
    try:
        box.tap(1, "hole1")
        box.card.clear()
        box.tap(1, "ok")
        assert wait_for(lambda: box.session.state.paused == "storage not answering", timeout=STALL_S + 10)
        fault = box.session.public()["fault"]
        assert fault["words"] == "storage not answering" and "has not taken a commit point" in fault["text"]
        box.tap(2, "hole1")                                     # presses are refused while it stalls
        assert wait_for(lambda: box.session.scene().notices.get(2) == "paused: storage not answering", timeout=10)
        assert wait_for(lambda: box.session.lamps.lit()["seat2"] == ["fast"] * 5, timeout=10)     # the refusal's blink
        box.card.set()
        assert wait_for(lambda: box.session.state.paused is None, timeout=10)
        assert wait_for(lambda: box.session.public()["fault"] is None, timeout=10)
    finally:
        box.close()


def test_a_power_cut_while_the_card_stalls_loses_nothing_acknowledged(tmp_path):
    db = tmp_path / "molebox.db"
    child = subprocess.Popen([sys.executable, "-m", "tests.faults.stalled_child", str(db)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    lines = []
    try:
        for line in child.stdout:
            lines.append(line.split())
            if lines[-1][0] == "STALLED":
                break
    finally:
        child.kill()                                            # the plug is pulled during the stall
        child.wait()
    acked = [tuple(words[1:]) for words in lines if words[0] == "ACK"]
    assert ("1", "popup") in acked and ("1", "whack") in acked and ("2", "popup") not in acked
    assert ["ON", "3", "lamps"] in lines and ["ON", "3", "screen"] in lines     # seat 3 went on meanwhile
    records = Records(db).unfinished().transcript["records"]
    saved = {(str(r["seat"]), r["key"]) for r in records if r["seat"] is not None}
    assert set(acked) <= saved
