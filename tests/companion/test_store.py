"""The journal: commit points, sealed secrets, undo, resume, migrations, and files that are not ours."""
from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from companion.journal.opening import MIGRATIONS, SCHEMA_VERSION
from companion.journal.records import Reader, Records
from companion.table.state import NOTICE_S


def journal_of(store: Records, game_id: int) -> list[tuple]:
    return store.db.execute("SELECT seq, kind, body FROM journal WHERE game = ? ORDER BY seq", (game_id,)).fetchall()


def test_records_round_trip_and_secret_picks_are_sealed(tmp_path):
    store = Records(tmp_path / "m.db")
    game = store.begin({"game": "whakka-mole", "seats": 2})
    store.append(game, [(0, {"seat": 1, "key": "popup", "value": [1, 3]}, True),
                        (1, {"seat": 1, "key": "whack", "value": 4}, True)])
    raw = b"".join(bytes(body) for _, _, body in journal_of(store, game))
    assert b"popup" not in raw and b"whack" not in raw
    sizes = {len(body) for _, _, body in journal_of(store, game)}
    assert len(sizes) == 1                       # padded: the size tells nothing either
    assert store.unfinished().transcript["records"][0] == {"seat": 1, "key": "popup", "value": [1, 3]}


def test_another_process_reading_the_file_without_the_key_learns_nothing(tmp_path):
    a = Records(tmp_path / "m.db")
    game = a.begin({"game": "whakka-mole", "seats": 2})
    a.append(game, [(0, {"seat": 2, "key": "whack", "value": 5}, True)])
    a.close()
    (tmp_path / "m.key").unlink()
    (tmp_path / "m.key").write_bytes(b"\0" * 32)
    with pytest.raises(Exception, match="cannot be opened"):
        Records(tmp_path / "m.db").load(game)


def test_key_file_is_private(tmp_path):
    Records(tmp_path / "m.db")
    assert (tmp_path / "m.key").stat().st_mode & 0o077 == 0


def test_undo_is_journaled_and_folded_on_load(tmp_path):
    store = Records(tmp_path / "m.db")
    game = store.begin({"game": "x", "seats": 2})
    recs = [{"seat": 1, "key": "a", "value": 1}, {"seat": None, "key": "roll", "value": 3},
            {"seat": 2, "key": "b", "value": 2}, {"seat": 1, "key": "c", "value": 3}]
    store.append(game, [(i, r, False) for i, r in enumerate(recs)])
    store.undo(game, 1)
    assert store.load(game).transcript["records"] == recs[:2]
    store.append(game, [(2, {"seat": 2, "key": "b", "value": 9}, False)])
    assert store.load(game).transcript["records"][-1]["value"] == 9


def test_a_damaged_molebox_journal_is_moved_aside_whole_with_a_note_for_the_host(tmp_path, caplog):
    path = tmp_path / "m.db"
    store = Records(path)
    game = store.begin({"game": "whakka-mole", "seats": 2})
    store.append(game, [], {"scores": [1, 0], "winners": [1]})
    store.close()
    data = bytearray(path.read_bytes())
    data[4096 + 8:4096 + 200] = b"\xff" * 192           # page 2's header and cells: garbage
    path.write_bytes(bytes(data))
    with caplog.at_level(logging.ERROR):
        store = Records(path)
    [aside] = tmp_path.glob("m.db.*.aside")
    assert aside.read_bytes() == bytes(data)                # kept byte for byte, never deleted
    assert store.notes and str(aside) in store.notes[0][0] and "new one started" in store.notes[0][0]
    assert "moved it to" in caplog.text
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_migration_from_the_first_schema_version_keeps_the_games(tmp_path):
    path = tmp_path / "m.db"
    v1 = sqlite3.connect(path)
    v1.executescript(MIGRATIONS[0])
    v1.execute("PRAGMA application_id = 1297042501")
    v1.execute("PRAGMA user_version = 1")
    v1.execute("INSERT INTO games (header, started, finished, result) VALUES (?, 0, 60, ?)",
               (json.dumps({"game": "whakka-mole", "seats": 2}), json.dumps({"scores": [50, 3], "winners": [1]})))
    v1.commit()
    v1.close()
    store = Records(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    [game] = store.finished_games()
    assert game["scores"] == [50, 3] and game["names"] == ["seat 1", "seat 2"] and game["duration"] == 60
    store.set_name(game["id"], 1, "Ada")
    assert store.finished_games()[0]["names"][0] == "Ada"


def test_a_reader_sees_finished_games_while_the_writer_holds_a_transaction_and_cannot_write(tmp_path):
    """The web panel reads the history on its own connection: neither it nor the session loop waits."""
    store = Records(tmp_path / "m.db")
    game = store.begin({"game": "whakka-mole", "seats": 2})
    store.set_name(game, 2, "Bo")
    store.append(game, [], {"scores": [3, 12], "winners": [2]})
    store.db.execute("BEGIN IMMEDIATE")
    store.db.execute("UPDATE games SET result = '{}'")           # not committed: the reader must not see it
    reader = store.reader()
    [seen] = reader.finished_games()
    assert (seen["names"], seen["scores"]) == (["seat 1", "Bo"], [3, 12])
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        reader.db.execute("DELETE FROM games")
    store.db.execute("ROLLBACK")
    reader.close()


def test_a_restarted_box_resumes_mid_turn_with_lock_ins_kept_and_picks_hidden(box_factory, tmp_path):
    db = tmp_path / "m.db"
    box = box_factory(seats=3, db=db)
    box.play("1 hole1\n1 ok\n1 hole2\n1 ok\n2 hole3\n2 ok\n2 hole2\n2 ok\n3 hole5\n3 ok\n3 hole1\n3 ok")
    box.play("1 hole4\n1 ok\n1 hole3\n1 ok\n2 ok")      # seat 1 locked in, seat 2 half-way
    before, lamps, table = box.match.view(None), box.session.lamps.lit(), box.pixels("table")
    box.pull_plug()
    again = box_factory(seats=3, db=db)                    # the plug was pulled; the box starts again
    assert again.match.view(None) == before
    assert again.match.view(None)["locked"] == [1]
    assert again.match.view(1)["held"] == {"popup": [4], "whack": 3}
    assert again.match.view(2)["held"] == {"popup": []}
    assert again.session.lamps.lit() == lamps
    assert again.session.scene().table_notice == ("Resumed", "Game #1 goes on after a restart")   # the table says so
    assert again.session.scene().notices[1] == "Resumed: your lock-in is kept"
    again.play(f"wait {int(1000 * NOTICE_S) + 100}")         # a few seconds later the table shows the game as it was
    assert again.pixels("table") == table
    again.play("2 hole1\n2 ok\n3 ok\n3 hole2\n3 ok")
    assert again.match.view(None)["state"]["turn"] == 3


def test_undo_across_a_reveal_needs_a_second_hold_and_survives_a_restart(box_factory, tmp_path):
    db = tmp_path / "m.db"
    box = box_factory(seats=2, db=db)
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole2\n2 ok\n2 hole1\n2 ok")   # seat 2 hits seat 1
    assert box.match.view(None)["state"]["scores"] == [0, 7]
    box.press(1, "ok", hold=True)
    assert box.session.scene().notices[1] == "hold OK again to undo the reveal"
    assert box.match.view(None)["state"]["turn"] == 2
    box.press(1, "ok", hold=True)
    view = box.match.view(None)
    assert view["state"]["turn"] == 1 and view["locked"] == [1] and view["state"]["scores"] == [0, 0]
    box.pull_plug()
    again = box_factory(seats=2, db=db)
    assert again.match.view(None) == view and again.match.view(2)["held"] == {"popup": [2]}
    again.play("2 hole3\n2 ok")                       # this time seat 2 whacks hole 3: a miss
    assert again.match.view(None)["state"]["scores"] == [1, 1]


def test_finished_games_go_to_history_with_scores_and_winner(box_factory, tmp_path):
    db = tmp_path / "m.db"
    box = box_factory(seats=2, settings={"target": 2}, db=db)
    box.play("1 hole1\n1 hole2\n1 ok\n1 hole5\n1 ok\n2 ok\n2 hole5\n2 ok")
    [game] = Reader.open(db).finished_games()
    assert game["scores"] == [2, 0] and game["winners"] == [1] and game["history"] == [[2, 0]]


def test_secret_picks_never_reach_the_logs(box_factory, tmp_path, caplog):
    texts = []
    for pick in ("1 hole1\n1 hole2\n1 ok\n1 hole3\n1 ok", "1 hole5\n1 ok\n1 hole4\n1 hole9"[:-7] + "\n1 ok"):
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="molebox"):
            box = box_factory(seats=2, db=tmp_path / f"{len(texts)}.db")
            box.play(pick + "\n1 hole1\n1 hole1")          # a refused press too: locked in
        texts.append([r.getMessage() for r in caplog.records if "resumed" not in r.getMessage()])
    assert texts[0] == texts[1]
