"""The card under the journal refuses writes (full, read-only, failing): play pauses, nothing acknowledged is lost.

In this process the card turns read-only under SQLite (``PRAGMA query_only``: every write
refused with SQLite's own "attempt to write a readonly database"); in a box of its own the
kernel refuses every file write (``RLIMIT_FSIZE`` set to 0 with prlimit: EFBIG, as a full
card's ENOSPC), set and lifted while the box runs, as a card filling up and being cleared.
"""
from __future__ import annotations

import errno
import resource
import subprocess
import time
from pathlib import Path

import pytest

from companion.render import fault as fault_screen
from companion.journal.records import Reader, Records
from tests.running import Running, molebox
from tests.waiting import FRAME_S, wait_for

BUZZER, LED = 14, 15
POPUP_1 = "1 hole1\n1 ok\n1 hole5\n1 ok"             # seat 1 pops up at hole 1, guards hole 5: locked in
POPUP_2 = "2 hole2\n2 ok\n2 hole1\n2 ok"             # seat 2 pops up at hole 2, whacks hole 1: the reveal


def read_only(store: Records) -> None:
    """The card turns read-only under the journal."""
    store.db.execute("PRAGMA query_only = 1")


def writable(store: Records) -> None:
    store.db.execute("PRAGMA query_only = 0")


def led_changes(box, seconds: float) -> int:
    pin, seen = box.hw.factories["main"].pin(LED), []
    pin.on_change = lambda p: seen.append(p.state)
    time.sleep(seconds)
    pin.on_change = None
    return len(seen)


def test_a_read_only_card_mid_game_pauses_every_screen_refuses_the_press_and_play_goes_on_once_it_clears(
        box_factory, tmp_path):
    db = tmp_path / "molebox.db"
    box = box_factory(seats=2, profile="gpio-2-mux", db=db)
    box.play(POPUP_1)
    assert box.match.view(None)["locked"] == [1]
    store = box.session.keeper.journal.records
    read_only(store)
    box.play("2 hole2")
    box.play("2 ok\nwait 100", settle=False)        # seat 2's pop-up: the card will not take it
    assert box.lamps(2) == ["fast"] * 5             # after the flip, the refusal's fast flashing
    assert box.match.view(None)["locked"] == [1] and box.match.view(2)["held"] == {}
    screen = {name: box.drawn(name, fault_screen.storage, "storage read-only") for name in ("table", "seat1", "seat2")}
    assert all(box.pixels(name) == screen[name] for name in screen)
    fault = box.session.public()["fault"]
    assert fault["words"] == "storage read-only" and "may be failing" in fault["text"]
    assert led_changes(box, 0.5) >= 3               # the status LED flashes
    box.play("wait 2500\n1 hole3")                  # a retry fails; presses are still refused
    assert box.session.scene().notices[1] == "paused: storage read-only"
    writable(store)
    box.play("wait 2500")                           # the next retry writes through
    assert box.session.public()["fault"] is None
    assert box.pixels("table") != screen["table"] and box.pixels("seat2") != screen["seat2"]
    assert box.hw.factories["main"].pin(LED).state == 1
    assert box.session.state.drafts[2].value == frozenset({2})     # the draft was never lost: OK again
    box.play("2 ok\n2 hole1\n2 ok")                # taken this time: seat 2 whacks seat 1 at hole 1
    assert box.match.view(None)["state"]["scores"] == [0, 7]
    box.pull_plug()
    again = box_factory(seats=2, profile="gpio-2-mux", db=db)
    assert again.match.view(None)["state"]["scores"] == [0, 7]


def test_a_read_only_card_at_a_host_action_is_refused_in_words(box_factory, tmp_path):
    box = box_factory(seats=2, db=tmp_path / "molebox.db")
    box.play(POPUP_1)
    read_only(box.session.keeper.journal.records)
    assert box.session.host("name", seat=2, name="Bo") == "not saved: storage read-only; the box tries again by itself"
    assert box.session.state.names == {}
    assert box.session.host("undo").startswith("the box is paused")


def test_a_bot_whose_answer_is_not_saved_answers_again_once_the_card_takes_writes(box_factory, tmp_path):
    box = box_factory("mole-hill", 2, bots={1: "casual"}, db=tmp_path / "molebox.db")
    read_only(box.session.keeper.journal.records)
    seat2 = box.match.decisions_for(2)[0]
    box.play("2 ok")                                 # the person answers: refused, nothing saved
    assert box.match.decisions_for(2)[0] == seat2 and box.session.state.paused == "storage read-only"
    writable(box.session.keeper.journal.records)
    box.play("wait 2500\n2 ok")
    assert box.match.seat_records() >= 2             # the person's answer, and the bot's after it


@pytest.fixture
def immutable():
    """Make a file immutable (``chattr +i``), or mutable again; every file made so is mended afterwards.

    What binds root too the way a file's permissions bind the service's user: SQLite opens the file,
    silently read-only, and every write is refused (a read-only mount would be a read-only card)."""
    made = []

    def mark(path: Path, fixed: bool) -> None:
        subprocess.run(["chattr", "+i" if fixed else "-i", str(path)], check=True)
        made.append(path)
    yield mark
    for path in made:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_journal_that_may_not_be_written_at_start_resumes_once_it_is_mended(box_factory, tmp_path, immutable):
    db = tmp_path / "molebox.db"
    first = box_factory(seats=2, db=db)
    first.play(POPUP_1)
    first.pull_plug()
    immutable(db, True)
    box = box_factory(game=None, seats=None, db=db)
    fault = box.session.public()["fault"]
    assert fault["words"] == "journal read-only" and f"molebox may not write {db}" in fault["text"]
    assert "may be failing" not in fault["text"]
    assert box.pixels("table") == fault_screen.storage("journal read-only").tobytes()
    box.play("wait 2500")                           # a retry: still refused
    assert box.session.public()["fault"]["words"] == "journal read-only"
    immutable(db, False)                            # the host mends it
    box.play("wait 2500")
    assert box.session.public()["fault"] is None
    assert box.match.view(None)["locked"] == [1]    # the game, resumed where it was
    assert box.pixels("table") != fault_screen.storage("journal read-only").tobytes()


@pytest.fixture
def no_writes():
    """Make a box's process unable to write any file, and let it again (soft RLIMIT_FSIZE 0 / unlimited)."""
    def block(pid: int, blocked: bool) -> None:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (0 if blocked else resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    return block


def shows(box: Running, screen) -> bool:
    """Whether the table display shows ``screen`` now (its frame is drawn on the display's own thread, a
    moment after the state that asked for it is published)."""
    return box.frames("table")["table"].tobytes() == screen.tobytes()


def test_a_card_that_stops_taking_writes_mid_game_loses_nothing_acknowledged(tmp_path, no_writes):
    db = tmp_path / "molebox.db"
    box = Running("--game", "whakka-mole", "--seats", "2", "--db", str(db))
    try:
        for seat, control in [(1, "hole1"), (1, "ok"), (1, "hole5"), (1, "ok")]:
            box.tap(seat, control)
        assert wait_for(lambda: box.state()["view"]["locked"] == [1])
        no_writes(box.proc.pid, True)
        box.tap(2, "hole2")
        box.tap(2, "ok")                          # seat 2's pop-up: not saved, refused
        assert wait_for(lambda: box.state()["fault"] is not None)
        state = box.state()
        assert state["view"]["locked"] == [1] and state["view"]["state"]["turn"] == 1
        assert state["fault"]["words"] == "storage full" and "free some space" in state["fault"]["text"]
        assert wait_for(lambda: shows(box, fault_screen.storage("storage full")), FRAME_S)
        no_writes(box.proc.pid, False)
        assert wait_for(lambda: box.state()["fault"] is None)
        for seat, control in [(2, "ok"), (2, "hole1"), (2, "ok")]:      # the draft is still hole 2
            box.tap(seat, control)
        assert wait_for(lambda: box.state()["view"]["state"]["scores"] == [0, 7])
    finally:
        box.kill()
    again = Running("--game", "whakka-mole", "--seats", "2", "--db", str(db))
    try:
        assert again.state()["view"]["state"]["scores"] == [0, 7]
    finally:
        again.stop()


def test_a_box_started_on_a_card_that_takes_no_writes_says_so_and_opens_the_lobby_when_it_does(
        tmp_path, no_writes):
    db = tmp_path / "state" / "molebox.db"
    box = Running("--db", str(db), limit="fsize=0:unlimited")
    try:
        state = box.state()
        assert state["fault"]["words"] == "storage full" and state["mode"] == "lobby"
        assert wait_for(lambda: shows(box, fault_screen.storage("storage full")), FRAME_S)
        no_writes(box.proc.pid, False)
        assert wait_for(lambda: box.state()["fault"] is None)
        assert box.state()["mode"] == "lobby"
        code, err = box.stop()
    finally:
        if box.proc.poll() is None:
            box.kill()
    assert code == 0 and "Traceback" not in err and "moved it aside" not in err
    assert Reader.open(db).finished_games() == []


@pytest.fixture
def small_card(tmp_path):
    """A card of its own, 4 MB (a tmpfs), for a test to fill up."""
    card = tmp_path / "card"
    card.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(card)], check=True)
    yield card
    subprocess.run(["umount", "--lazy", str(card)], check=True)


def fill(card: Path) -> Path:
    """Fill the card to its last page, as photos copied onto it would; the file that did."""
    photos = card / "photos.bin"
    with open(photos, "wb", buffering=0) as f:
        for size in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    f.write(bytes(size))
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
    return photos


def test_a_box_started_on_a_full_card_with_its_journal_says_storage_full_and_resumes_once_there_is_room(
        small_card):
    db = small_card / "molebox.db"
    first = Running("--game", "whakka-mole", "--seats", "2", "--db", str(db))
    first.tap(1, "hole1", "ok", "hole5", "ok")
    assert wait_for(lambda: first.state()["view"]["locked"] == [1])
    assert first.stop()[0] == 0                      # the host switches it off for the night
    photos = fill(small_card)
    box = Running("--game", "whakka-mole", "--seats", "2", "--db", str(db))
    try:
        fault = box.state()["fault"]
        assert fault["words"] == "storage full" and "free some space" in fault["text"], fault
        assert wait_for(lambda: shows(box, fault_screen.storage("storage full")), FRAME_S)
        photos.unlink()                              # the host makes room
        assert wait_for(lambda: box.state()["fault"] is None)
        assert box.state()["view"]["locked"] == [1]  # the game, as it was
    finally:
        box.stop()


@pytest.mark.parametrize("lock_file", ["kept", "deleted"])
def test_a_second_box_on_the_same_journal_is_refused_before_it_writes_anything(lock_file, tmp_path):
    db = tmp_path / "molebox.db"
    first = Running("--game", "whakka-mole", "--seats", "2", "--db", str(db))
    try:
        first.tap(1, "hole1")
        if lock_file == "deleted":                  # the lock is on the journal itself: its name file goes for nothing
            (tmp_path / "molebox.db.lock").unlink()
        files = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
        second = molebox("run", "--backend", "sim", "--port", "0", "--game", "whakka-mole", "--db", str(db))
        out, err = second.communicate(timeout=30)
        assert second.returncode == 2
        assert f"another molebox is using {db}" in err and f"pid {first.proc.pid}" in err
        assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == files
    finally:
        first.stop()
    assert Reader.open(db).db.execute("SELECT count(*) FROM games").fetchone()[0] == 1


def test_a_second_box_that_cannot_have_its_port_writes_no_game(tmp_path):
    first = Running("--db", str(tmp_path / "first.db"))
    try:
        second = molebox("run", "--backend", "sim", "--port", str(first.port), "--game", "whakka-mole",
                         "--db", str(tmp_path / "second.db"))
        _, err = second.communicate(timeout=30)
        assert second.returncode == 2 and f"cannot listen on 127.0.0.1:{first.port}" in err
        assert "another molebox running" in err and "Traceback" not in err
    finally:
        first.stop()
    reader = Reader.open(tmp_path / "second.db")
    assert reader.db.execute("SELECT count(*) FROM games").fetchone()[0] == 0
