"""Messages with a life: a refusal shows a few seconds and goes; a change made from elsewhere is said on the seat it
changed and on the table display, with who made it; a start asked for another game starts it, and the unfinished one
waits for the start that brings it back."""
from __future__ import annotations

from companion.table.state import NOTICE_S
from rules.model import IllegalMove
from companion.render import fault as fault_screen

POPUP_1 = "1 hole1\n1 ok\n1 hole5\n1 ok"        # seat 1 pops up at hole 1, guards hole 5: locked in


def test_a_refusal_shows_a_few_seconds_then_the_question_alone(box):
    box.play("1 ok\n1 ok")                       # OK without a whack hole: refused
    assert box.session.scene().notices[1] == "choose first, then OK"
    refused = box.pixels("seat1")
    box.play(f"wait {int(1000 * NOTICE_S)}")
    assert 1 not in box.session.scene().notices and box.pixels("seat1") != refused


def test_an_answer_the_rules_refuse_past_the_draft_is_refused_in_words_and_logged_without_the_pick(box, caplog):
    def refuse(seat, key, value):
        raise IllegalMove(f"{key}: {value!r} is not a legal choice")

    box.match.submit = refuse                   # a draft that let through what the rules refuse
    box.play("1 hole1\n1 ok")
    assert box.session.scene().notices[1] == ("not allowed now", "not now")
    assert "seat 1: the rules refused its answer to popup" in caplog.text
    assert "(1,)" not in caplog.text and "[1]" not in caplog.text       # the secret pick stays out of the log


def test_seat_1_undoing_another_seat_s_lock_in_says_so_there_and_on_the_table(box_factory):
    box = box_factory(seats=3)
    box.name_players({1: "Ada"})
    box.play("2 hole2\n2 ok\n2 hole1\n2 ok")     # seat 2 locks in
    box.press(1, "ok", hold=True)                # seat 1 holds OK: undo
    assert box.match.view(None)["locked"] == []
    assert box.session.scene().notices[2][0] == "Ada undid your lock-in: pick again"
    news = ("Ada undid Seat 2's lock-in", "Seat 2's lock-in undone", "Lock-in undone")
    assert box.session.scene().table_notice == ("Undone", news)
    assert box.pixels("table") == box.drawn("table", fault_screen.table_notice, "Undone", news)
    box.play(f"wait {int(1000 * NOTICE_S)}")
    assert box.session.scene().table_notice is None and 2 not in box.session.scene().notices


def test_the_host_s_undo_says_it_was_the_host(box_factory):
    box = box_factory(seats=2)
    box.play(POPUP_1)
    assert box.session.host("undo") is None
    assert box.session.scene().notices[1][0] == "The host undid your lock-in: pick again"
    assert box.session.scene().table_notice[1][0] == "The host undid Seat 1's lock-in"


def test_a_resumed_game_says_so_on_every_seat_and_the_table(box_factory, tmp_path):
    db = tmp_path / "molebox.db"
    box = box_factory(seats=2, db=db)
    box.play(POPUP_1)
    box.pull_plug()
    again = box_factory(seats=2, db=db)
    assert again.session.scene().notices[1] == "Resumed: your lock-in is kept"
    assert again.session.scene().notices[2] == "Resumed after a restart"
    assert again.session.scene().table_notice == ("Resumed", "Game #1 goes on after a restart")


def history(db, capsys) -> str:
    """What `molebox history` prints of the journal at ``db``."""
    from companion.cli import main

    capsys.readouterr()
    assert main(["history", "--db", str(db)]) == 0
    return capsys.readouterr().out


def test_a_start_with_another_game_starts_it_and_the_unfinished_one_waits_for_a_start_without_game(
        box_factory, tmp_path, capsys):
    db = tmp_path / "molebox.db"
    box = box_factory("whakka-mole", 2, db=db)
    box.play(POPUP_1)
    box.pull_plug()
    again = box_factory("mole-hill", 2, db=db, bots={2: "strong"})    # molebox run --game mole-hill --bots 2=strong
    assert again.match.header.game == "mole-hill"                       # at once: nothing for seat 1 to read first
    (note,) = again.session.state.notes
    assert "game #1 (whakka-mole, 2 seats) waits: molebox was started with --game mole-hill --seats 2 --bots 2=strong" \
        in note.text and "start `molebox run` without --game" in note.text
    assert note.screen is None and "goes on at the next `molebox run` without --game" in history(db, capsys)
    again.play("1 hole4\n1 ok")                                          # the mole is set down
    again.pull_plug()
    third = box_factory(None, None, db=db)                     # molebox run: the game the --game start set aside
    assert third.match.header.game == "whakka-mole" and third.match.view(None)["locked"] == [1]
    assert third.session.scene().notices[1] == "Resumed: your lock-in is kept"
    assert "goes on at the next `molebox run --game mole-hill --seats 2 --bots 2=strong`" in history(db, capsys)
    third.pull_plug()
    fourth = box_factory("mole-hill", 2, db=db, bots={2: "strong"})     # the mole-hill game, as it was
    assert fourth.match.seat_records() == again.match.seat_records()
    assert "Whakka Mole: goes on at the next `molebox run` without --game" in history(db, capsys)
    fourth.play("1 ok")
    fourth.pull_plug()
    fifth = box_factory("mole-hill", 2, db=db, bots={2: "strong"})      # the same start again: as after a cut
    assert fifth.match.seat_records() == fourth.match.seat_records() and fifth.session.state.notes == ()


def test_a_restart_asked_for_the_same_game_goes_on_with_it(box_factory, tmp_path):
    db = tmp_path / "molebox.db"
    box = box_factory("whakka-mole", 2, db=db)
    box.play(POPUP_1)
    box.pull_plug()
    again = box_factory("whakka-mole", 2, db=db)     # the service's restart: the same command line
    assert again.match.view(None)["locked"] == [1] and not again.session.state.unread()
