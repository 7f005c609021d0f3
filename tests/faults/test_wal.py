"""A -wal found damaged or missing at start is named, with what it lost; the game goes on from what can be read.

A box (a process of its own) plays a 3-seat Whakka Mole into its second turn, seats 1 and 2
locked in again (4 decisions: a pop-up and a guard each, one commit point apiece), and is
killed (SIGKILL). Each case copies what it left, damages the -wal as a card or a hand may, and
starts a box on it: the dashboard's note and the log say what was lost, the damaged -wal is
kept aside byte for byte, and the game resumes at the last point that can be read back.
"""
from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

import pytest

from tests.running import Running
from tests.waiting import wait_for

FRAME = 24 + 4096
TURN_1 = 6                              # seat decisions of the first turn, all on the main file (turn end)


def lock_in(box: Running, seat: int, hole: int) -> None:
    box.tap(seat, f"hole{hole}", "ok", "hole5", "ok")           # pop up at a hole, guard hole 5


@pytest.fixture(scope="module")
def crashed(tmp_path_factory) -> Path:
    """What a box killed in turn 2 with seats 1 and 2 locked in left, and a copy of its -wal from turn 1."""
    where = tmp_path_factory.mktemp("crashed")
    db = where / "molebox.db"
    box = Running("--game", "whakka-mole", "--seats", "3", "--db", str(db))
    lock_in(box, 1, 1)
    assert wait_for(lambda: box.state()["view"]["locked"] == [1])
    shutil.copy(f"{db}-wal", where / "turn-1-wal")
    lock_in(box, 2, 2)
    lock_in(box, 3, 3)
    assert wait_for(lambda: box.state()["view"]["state"]["turn"] == 2)
    lock_in(box, 1, 1)
    lock_in(box, 2, 2)
    assert wait_for(lambda: box.state()["view"]["locked"] == [1, 2])
    box.kill()
    return where


def cut(size: int):
    return lambda wal: os.truncate(wal, size)


def scribble(at: int):
    def damage(wal: Path) -> None:
        with open(wal, "r+b") as f:
            f.seek(at)
            f.write(os.urandom(64))
    return damage


def older_copy(wal: Path) -> None:
    shutil.copy(wal.parent / "turn-1-wal", wal)


# damage, -shm kept, what the note says was lost, the screen's words, decisions read back in turn 2
CASES = {
    "deleted": (Path.unlink, True, "the decisions since the last turn end could not be read back",
                "-wal missing: the turn's decisions lost", 0),
    "deleted with its -shm": (Path.unlink, False, "any decisions since the last turn end could not be read back",
                              "-wal missing: the turn's decisions may be lost", 0),
    "cut short at a frame": (cut(32 + 5 * FRAME), True,
                             "the decisions of the turn in play after its first 2 could not be read back",
                             "-wal cut short: the turn's decisions lost", 2),
    "cut short mid-frame": (cut(32 + 5 * FRAME + 2000), True,
                            "1 or more decisions of the turn in play could not be read back",
                            "-wal cut short: 1+ decision lost", 2),
    "scribbled header": (scribble(0), True, "the last 4 decisions of the turn in play could not be read back",
                         "-wal damaged: 4 decisions lost", 0),
    "scribbled frame": (scribble(32 + 2 * FRAME + 100), True,
                        "the last 3 decisions of the turn in play could not be read back",
                        "-wal damaged: 3 decisions lost", 1),
    "scribbled frame, -shm deleted": (scribble(32 + 2 * FRAME + 100), False,
                                      "2 or more decisions of the turn in play could not be read back",
                                      "-wal damaged: 2+ decisions lost", 1),
    "an older copy": (older_copy, True, "the decisions since the last turn end could not be read back",
                      "-wal of another generation: the turn's decisions lost", 0),
}


def copy_of(crashed: Path, tmp_path: Path) -> Path:
    for name in ("molebox.db", "molebox.db-wal", "molebox.db-shm", "molebox.key", "molebox.db.lock", "turn-1-wal"):
        shutil.copy(crashed / name, tmp_path / name)
    return tmp_path / "molebox.db"


@pytest.mark.parametrize("case", list(CASES))
def test_a_damaged_or_missing_wal_is_named_with_what_it_lost_and_the_game_goes_on(
        case, crashed, tmp_path, box_factory, caplog):
    damage, shm, lost, words, read_back = CASES[case]
    db = copy_of(crashed, tmp_path)
    wal = Path(f"{db}-wal")
    damage(wal)
    if not shm:
        Path(f"{db}-shm").unlink()
    damaged = wal.read_bytes() if wal.exists() else None
    with caplog.at_level(logging.ERROR, logger="molebox"):
        box = box_factory(game=None, seats=None, db=db)
    [note] = box.session.public()["notes"]
    assert lost in note["text"] and note["text"] in caplog.text
    assert box.session.state.notes[0].screen == words
    kept = list(tmp_path.glob("molebox.db-wal.*.aside"))
    assert [p.read_bytes() for p in kept] == ([damaged] if damaged is not None else [])
    assert all(str(p) in note["text"] for p in kept)
    view = box.match.view(None)                      # resumed at the last point that could be read back
    assert view["state"]["turn"] == 2 and box.match.seat_records() == TURN_1 + read_back
    assert view["locked"] == ([1] if read_back >= 2 else [])
    assert box.session.public()["fault"] is None


def test_a_cut_mid_commit_is_not_damage(crashed, tmp_path, box_factory, caplog):
    """The last commit point torn by the cut (its last frame half written, never acknowledged): no note."""
    db = copy_of(crashed, tmp_path)
    Path(f"{db}-shm").unlink()                       # the index that would have counted it, lost with the cut
    cut(32 + 7 * FRAME + 2000)(Path(f"{db}-wal"))
    with caplog.at_level(logging.ERROR, logger="molebox"):
        box = box_factory(game=None, seats=None, db=db)
    assert box.session.public()["notes"] == [] and "-wal" not in caplog.text
    assert box.match.seat_records() == TURN_1 + 3 and box.match.view(None)["locked"] == [1]
    assert list(tmp_path.glob("*.aside")) == []


def test_a_box_killed_with_its_wal_whole_resumes_every_decision_without_a_note(crashed, tmp_path, box_factory):
    box = box_factory(game=None, seats=None, db=copy_of(crashed, tmp_path))
    assert box.session.public()["notes"] == []
    assert box.match.seat_records() == TURN_1 + 4 and box.match.view(None)["locked"] == [1, 2]
