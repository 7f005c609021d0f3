"""Messages with a life: a refusal shows a few seconds and goes; a change made from elsewhere is said on the seat it
changed and on the table display, with who made it; a restart asked for another game sets the unfinished one aside."""
from __future__ import annotations

from companion.table.state import NOTICE_S
from companion.render import fault as fault_screen

POPUP_1 = "1 hole1\n1 ok\n1 hole5\n1 ok"        # seat 1 pops up at hole 1, guards hole 5: locked in


def test_a_refusal_shows_a_few_seconds_then_the_question_alone(box):
    box.play("1 ok\n1 ok")                       # OK without a whack hole: refused
    assert box.session.scene().notices[1] == "choose first, then OK"
    refused = box.pixels("seat1")
    box.play(f"wait {int(1000 * NOTICE_S)}")
    assert 1 not in box.session.scene().notices and box.pixels("seat1") != refused


def test_seat_1_undoing_another_seat_s_lock_in_says_so_there_and_on_the_table(box_factory):
    box = box_factory(seats=3)
    box.name_players({1: "Ada"})
    box.play("2 hole2\n2 ok\n2 hole1\n2 ok")     # seat 2 locks in
    box.press(1, "ok", hold=True)                # seat 1 holds OK: undo
    assert box.match.view(None)["locked"] == []
    assert box.session.scene().notices[2] == "Ada undid your lock-in"
    assert box.session.scene().table_notice == ("Undone", "Ada undid Seat 2's lock-in")
    assert box.pixels("table") == box.drawn("table", fault_screen.table_notice, "Undone", "Ada undid Seat 2's lock-in")
    box.play(f"wait {int(1000 * NOTICE_S)}")
    assert box.session.scene().table_notice is None and 2 not in box.session.scene().notices


def test_the_host_s_undo_says_it_was_the_host(box_factory):
    box = box_factory(seats=2)
    box.play(POPUP_1)
    assert box.session.host("undo") is None
    assert box.session.scene().notices[1] == "The host undid your lock-in"
    assert box.session.scene().table_notice == ("Undone", "The host undid Seat 1's lock-in")


def test_a_resumed_game_says_so_on_every_seat_and_the_table(box_factory, tmp_path):
    db = tmp_path / "molebox.db"
    box = box_factory(seats=2, db=db)
    box.play(POPUP_1)
    box.pull_plug()
    again = box_factory(seats=2, db=db)
    assert again.session.scene().notices[1] == "Resumed: your lock-in is kept"
    assert again.session.scene().notices[2] == "Resumed after a restart"
    assert again.session.scene().table_notice == ("Resumed", "Game #1 goes on after a restart")


def test_a_restart_asked_for_another_game_sets_the_unfinished_one_aside_and_says_so(box_factory, tmp_path):
    db = tmp_path / "molebox.db"
    box = box_factory("whakka-mole", 2, db=db)
    box.play(POPUP_1)
    box.pull_plug()
    again = box_factory("mole-hill", 2, db=db)   # molebox run --game mole-hill: not the game in the journal
    assert again.match is None                   # the host reads why first
    (note,) = again.session.state.unread()
    assert "game #1 (whakka-mole, 2 seats) was set aside" in note.text and "--game mole-hill" in note.text
    assert again.pixels("seat1") == again.drawn("seat1", fault_screen.note, note.screen, 1, "OK: got it")
    again.play("1 ok")                           # seat 1 reads it: the asked game starts
    assert again.match.header.game == "mole-hill"
    again.pull_plug()
    third = box_factory(None, None, db=db)       # the set-aside game stays aside: nothing unfinished but the new one
    assert third.match.header.game == "mole-hill"


def test_a_restart_asked_for_the_same_game_goes_on_with_it(box_factory, tmp_path):
    db = tmp_path / "molebox.db"
    box = box_factory("whakka-mole", 2, db=db)
    box.play(POPUP_1)
    box.pull_plug()
    again = box_factory("whakka-mole", 2, db=db)     # the service's restart: the same command line
    assert again.match.view(None)["locked"] == [1] and not again.session.state.unread()
