"""A journal that is lost, damaged, foreign or held: what the host sees, and what is left on disk.

Every start that used to exit (and, under systemd, restart for ever with dark displays)
now opens the lobby with the trouble on the table display and seat 1's OLED, on the
dashboard's state and in the log; the unfinished game is kept, set aside, never deleted.
"""
from __future__ import annotations

import logging
import sqlite3
import subprocess
from pathlib import Path

import pytest

from companion import cli
from companion.render import fault as fault_screen, lobby as lobby_screens
from companion.journal import Journal, short
from companion.journal.records import Reader, Records
from tests.running import Running

WHAKKA_TURN = "1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole2\n2 ok\n2 hole1\n2 ok"          # seat 2 whacks seat 1
LOCK_IN = "1 hole3\n1 ok\n1 hole2\n1 ok"                                        # seat 1's secret pick, held


@pytest.fixture
def half_played(box_factory, tmp_path):
    """A journal holding one finished game and one unfinished game with a secret pick held; the plug pulled."""
    db = tmp_path / "molebox.db"
    first = box_factory(seats=2, settings={"target": 7}, db=db)
    first.play(WHAKKA_TURN)
    assert first.match.over
    first.pull_plug()
    second = box_factory(seats=2, db=db)
    second.play(WHAKKA_TURN + "\n" + LOCK_IN)
    assert second.session.keeper.game_id == 2 and second.match.view(None)["locked"] == [1]
    second.pull_plug()
    return db


def sealed_rows(db) -> list[tuple[int, int]]:
    raw = sqlite3.connect(db)
    rows = raw.execute("SELECT game, seq FROM journal WHERE kind = 'sealed' ORDER BY game, seq").fetchall()
    raw.close()
    return rows


def raw_update(db, sql: str, *params) -> None:
    raw = sqlite3.connect(db)
    raw.execute(sql, params)
    raw.commit()
    raw.close()


def lose_key(db):
    db.with_suffix(".key").unlink()


def replace_key(db):
    db.with_suffix(".key").write_bytes(bytes(range(32)))


def empty_key(db):
    db.with_suffix(".key").write_bytes(b"")            # a power cut during the first start, before our writes were whole


def damage_sealed_row(db):
    game, seq = sealed_rows(db)[-1]
    raw_update(db, "UPDATE journal SET body = zeroblob(252) WHERE game = ? AND seq = ?", game, seq)


def unparseable_row(db):
    raw_update(db, "INSERT INTO journal (game, seq, kind, body) SELECT game, max(seq) + 1, 'open', X'7b6e6f7420' "
                   "FROM journal WHERE game = 2")


def unknown_game(db):
    raw_update(db, "UPDATE games SET header = json_set(header, '$.game', 'whack-a-gnome') WHERE id = "
                   "(SELECT max(id) FROM games)")


CASES = {
    "lost key": (lose_key, "key lost or row damaged"),
    "replaced key": (replace_key, "key lost or row damaged"),
    "zero-length key": (empty_key, "key lost or row damaged"),
    "damaged sealed row": (damage_sealed_row, "key lost or row damaged"),
    "unparseable row": (unparseable_row, "damaged row"),
    "unknown game": (unknown_game, "unknown game"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_game_that_cannot_be_resumed_is_set_aside_and_the_lobby_says_so(case, half_played, box_factory, caplog):
    damage, words = CASES[case]
    db = half_played
    damage(db)
    with caplog.at_level(logging.WARNING, logger="molebox"):
        box = box_factory(game=None, seats=None, db=db)            # the service: no game fixed, the lobby
    # the dashboard's state says it all, where the game was kept included; so does the log
    notes = box.session.public()["notes"]
    assert any("#2 could not be resumed" in a["text"] and str(db) in a["text"] for a in notes)
    assert "could not be resumed" in caplog.text
    # the journal keeps the game, set aside, and the finished one in the history
    reader = Reader.open(db)
    [aside] = reader.set_aside_games()
    assert aside["id"] == 2 and aside["why"]
    assert [g["id"] for g in reader.finished_games()] == [1]
    reader.close()
    # the table display and seat 1 show each alert in turn (seat 1 reads on with OK); then the lobby
    screens = [a.screen for a in box.session.state.notes]
    assert screens[-1] == f"game #2 set aside: {words}; kept in the journal"
    for left, screen in zip(range(len(screens), 0, -1), screens):
        assert box.pixels("table") == fault_screen.note(screen, left, "seat 1 OK: got it").tobytes()
        assert box.pixels("seat1") == fault_screen.note(screen, left, "OK: got it").tobytes()
        assert box.pixels("seat2") == lobby_screens.waiting(2).tobytes()
        box.play("1 ok")
    assert box.session.state.notes == ()
    assert box.pixels("seat1") == lobby_screens.menu(box.session.state.lobby.view()).tobytes()


def test_a_set_aside_game_is_kept_row_for_row_and_listed_by_history(half_played, box_factory, capsys):
    db = half_played
    before = sqlite3.connect(db).execute("SELECT game, seq, kind, body FROM journal WHERE game = 2").fetchall()
    lose_key(db)
    box = box_factory(game=None, seats=None, db=db)
    box.pull_plug()
    assert sqlite3.connect(db).execute("SELECT game, seq, kind, body FROM journal WHERE game = 2").fetchall() == before
    assert cli.main(["history", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "1 unfinished game set aside" in out and "#2" in out and "key file (molebox.key) was lost" in out


def test_a_zero_length_key_is_moved_aside_and_a_new_one_made(half_played, box_factory):
    db = half_played
    empty_key(db)
    box = box_factory(game=None, seats=None, db=db)
    [aside] = db.parent.glob("molebox.key.*.aside")
    assert aside.read_bytes() == b""
    assert len(db.with_suffix(".key").read_bytes()) == 32
    texts = [a["text"] for a in box.session.public()["notes"]]
    assert any("key file was damaged" in t and str(aside) in t for t in texts)


def test_with_a_game_fixed_on_the_command_line_it_starts_once_the_host_has_read_the_alert(half_played, box_factory):
    db = half_played
    lose_key(db)
    box = box_factory(game="whakka-mole", seats=2, db=db)
    assert box.match is None and box.session.state.notes
    box.play("1 ok")
    assert box.match is not None and box.match.seat_records() == 0
    assert box.session.keeper.game_id == 3


def another_programs(path, *statements: str) -> None:
    """An SQLite database another program made at ``path``, with what its statements leave in it."""
    other = sqlite3.connect(path)
    for statement in statements:
        other.execute(statement)
    other.commit()
    other.close()


FOREIGN = {
    "directory": lambda path: (path.mkdir(), (path / "notes.txt").write_text("keep me")),
    "another program's database": lambda path: another_programs(
        path, "CREATE TABLE recipes (name TEXT)", "INSERT INTO recipes VALUES ('soup')"),
    "another program's empty database": lambda path: another_programs(path, "PRAGMA user_version = 7"),
    "not SQLite": lambda path: path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200)),
}


def files(directory) -> dict:
    """Every file under ``directory`` and its bytes (None for a directory)."""
    return {p.name: (p.read_bytes() if p.is_file() else None) for p in directory.rglob("*")}


@pytest.mark.parametrize("kind", list(FOREIGN))
@pytest.mark.parametrize("command", [["history"], ["stats"], ["sim", "--game", "whakka-mole", "--out", "OUT"]])
def test_commands_refuse_what_is_not_a_molebox_journal_and_leave_it_alone(kind, command, tmp_path, capsys):
    path = tmp_path / "thing"
    FOREIGN[kind](path)
    before = files(tmp_path)
    args = [a.replace("OUT", str(tmp_path / "out")) for a in command]
    assert cli.main([*args, "--db", str(path)]) == 2
    err = capsys.readouterr().err
    assert str(path) in err and "not a molebox journal" in err
    after = {name: data for name, data in files(tmp_path).items() if name != "out"}
    assert after == before                          # nothing renamed, nothing written beside it


@pytest.mark.parametrize("kind", ["another program's empty database", "not SQLite"])
def test_a_box_serving_the_lan_on_a_refused_file_writes_nothing_beside_it(kind, tmp_path):
    path = tmp_path / "recipes.db"
    FOREIGN[kind](path)
    for neighbour in ("recipes.pin", "recipes.db.lock"):
        (tmp_path / neighbour).write_text("another program's\n")
    before = files(tmp_path)
    box = Running("--listen", "0.0.0.0", "--db", str(path))
    try:
        fault = box.state()["fault"]
        assert fault["words"] == "not a journal" and str(path) in fault["text"]
    finally:
        code, err = box.stop()
    assert code == 0 and "Traceback" not in err
    assert files(tmp_path) == before                # byte for byte, and nothing new beside them


def test_a_lock_file_that_is_not_molebox_s_is_left_as_it_is_and_the_journal_refused(tmp_path):
    db = tmp_path / "molebox.db"
    (tmp_path / "molebox.db.lock").write_text("held by the backup script\n")
    before = files(tmp_path)
    box = Running("--listen", "0.0.0.0", "--db", str(db))
    try:
        fault = box.state()["fault"]
        assert fault["words"] == "not a journal" and "molebox.db.lock is not molebox's lock file" in fault["text"]
    finally:
        code, err = box.stop()
    assert code == 0 and files(tmp_path) == before


def test_a_pin_file_that_is_not_molebox_s_is_left_as_it_is_and_the_pin_kept_for_this_run(tmp_path, capsys):
    db = tmp_path / "molebox.db"
    (tmp_path / "molebox.pin").write_text("1234\n")
    box = Running("--listen", "0.0.0.0", "--db", str(db))
    try:
        assert box.state()["fault"] is None
    finally:
        code, err = box.stop()
    assert code == 0 and "molebox.pin is not molebox's PIN file" in err and "it changes at every start" in err
    assert cli.main(["pin", "--db", str(db)]) == 2                 # no made-up PIN printed
    assert cli.main(["pin", "--new", "--db", str(db)]) == 2        # nor one written over it
    assert capsys.readouterr().err.count("is not molebox's PIN file") == 2
    assert (tmp_path / "molebox.pin").read_text() == "1234\n"


# ---- the storage corners: each refusal names its real cause and its fix ----------------------------------------

def journal_then(path, mend) -> None:
    """A molebox journal at ``path`` with a game begun, closed cleanly, nothing beside it; then ``mend(path)``."""
    records = Records(path)
    records.begin({"game": "whakka-mole", "seats": 2})
    records.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    mend(path)


def newer_schema(path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def test_a_journal_newer_than_this_molebox_is_refused_and_left_as_it_was_found(tmp_path):
    path = tmp_path / "molebox.db"
    journal_then(path, newer_schema)
    before = files(tmp_path)
    journal = Journal(path)
    assert "newer than this molebox" in str(journal.fault) and "update molebox" in str(journal.fault)
    journal.close()
    assert {name: data for name, data in files(tmp_path).items() if name != "molebox.db.lock"} == \
        {name: data for name, data in before.items() if name != "molebox.db.lock"}     # no -wal, no -shm made


def test_a_journal_the_box_may_not_write_gets_nothing_made_beside_it_so_mending_it_is_enough(tmp_path):
    """A journal the service's user may not write: SQLite opens it read-only and makes a -shm as the journal's own
    mode, so a chmod 0444 journal used to get a 0444 -shm that refused the box once the journal was mended (root
    is bound by an immutable file as the service's user is by a mode)."""
    path = tmp_path / "molebox.db"
    journal_then(path, lambda path: subprocess.run(["chattr", "+i", str(path)], check=True))
    try:
        journal = Journal(path)
        assert short(journal.fault) == "journal read-only" and "sudo chmod u+rw" in str(journal.fault)
        journal.close()
        assert not any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm"))
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    journal = Journal(path)
    assert journal.fault is None
    journal.close()


def test_a_key_path_that_is_a_directory_is_named_not_blamed_on_the_card(tmp_path):
    path = tmp_path / "molebox.db"
    (tmp_path / "molebox.key").mkdir()
    journal = Journal(path)
    assert "something else stands where molebox keeps its file" in str(journal.fault)
    assert "failing" not in str(journal.fault) and str(tmp_path / "molebox.key") in str(journal.fault)
    journal.close()


def test_a_card_mounted_read_only_at_start_is_said_to_be_read_only(tmp_path):
    card = tmp_path / "card"
    card.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(card)], check=True)
    try:
        journal_then(card / "molebox.db", lambda path: subprocess.run(["mount", "-o", "remount,ro", str(card)],
                                                                      check=True))
        journal = Journal(card / "molebox.db")
        assert short(journal.fault) == "storage read-only", journal.fault
        journal.close()
    finally:
        subprocess.run(["umount", str(card)], check=True)


def test_sim_on_a_full_card_says_so_without_promising_to_try_again(tmp_path, capsys):
    """``molebox sim`` is one shot: it says the fault and its fix, and exits 2; only a running box tries again."""
    card = tmp_path / "card"
    card.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(card)], check=True)
    try:
        subprocess.run(["dd", "if=/dev/zero", f"of={card / 'filler'}", "bs=4k", "count=64"], capture_output=True)
        assert cli.main(["sim", "--game", "whakka-mole", "--db", str(card / "molebox.db"),
                         "--out", str(tmp_path / "out")]) == 2
    finally:
        subprocess.run(["umount", str(card)], check=True)
    err = capsys.readouterr().err
    assert "the storage is full" in err and "free some space" in err and "tries again" not in err
