"""Computer players on the box: chosen at game start, answering from their own seat's view, their secret
picks made only when every person has locked in, their panels lit at the reveal like anyone else's."""
from __future__ import annotations

import json

import pytest

from companion import cli
from companion.render import bot as bot_screen
from rules import bots
from rules.model import Kind

MOVES = {"left": "hole1", "up": "hole2", "down": "hole3", "right": "hole4"}


def _enter(box, seat: int, target) -> None:
    """Press the cursor of ``seat`` onto ``target`` (a cell or an edge) and commit it, as a finger would."""
    decision = box.match.decisions_for(seat)[0]
    for _ in range(40):
        draft = box.session.state.drafts[seat].follow(decision).value
        if tuple(draft) == tuple(target):
            break
        if decision.kind is Kind.EDGE and draft[2] != target[2]:
            step = "hole5"
        elif draft[0] != target[0]:
            step = MOVES["right" if draft[0] < target[0] else "left"]
        else:
            step = MOVES["down" if draft[1] < target[1] else "up"]
        box.press(seat, step)
    box.press(seat, "ok")


def test_mole_hill_against_the_strong_bot_in_both_roles(box_factory):
    """Seat 1 is a person (pressing what a casual player would), seat 2 the strong bot: mole in
    round 2, gardener in round 1. Seat 2's panel is never pressed."""
    box = box_factory("mole-hill", 2, bots={2: "strong"}, settings={"flower_layout": "none"})
    person = bots.make(box.match.game, 1, "casual", "person")
    roles = set()
    while not box.match.over:
        (decision,) = box.match.open_decisions()
        assert decision.seat == 1, "the bot answers its own turns at once"
        state = box.match.view(1)["state"]
        roles.add((state["round"], "mole" if state["mole"] == 1 else "gardener"))
        _enter(box, 1, person.choose(box.match.view(1), decision))
    assert roles == {(1, "mole"), (2, "gardener")}
    keys = {(r["seat"], r["key"]) for r in box.match.records}
    assert {(2, "rod"), (2, "place"), (2, "move")} <= keys and (1, "rod") in keys
    view = box.match.view(None)
    assert view["over"] and len(view["state"]["rounds"]) == 2
    box.session.refresh()
    assert box.pixels("seat2") == bot_screen.seat(view, 2, "strong", "waiting").tobytes()


def test_a_bot_picks_only_when_every_person_has_locked_in(box_factory):
    """Whakka Mole, seat 1 a person, seats 2 and 3 computers: nothing of theirs is held (nor shown as
    locked) until seat 1 locks in; then they pick, the turn reveals at once, and their lamps light."""
    box = box_factory("whakka-mole", 3, bots={2: "strong", 3: "casual"})
    box.play("1 hole2\n1 ok\n1 hole3")
    view = box.match.view(None)
    assert set(box.match.held) == {1} and view["locked"] == [] and view["waiting"] == [1, 2, 3]
    assert box.pixels("seat3") == bot_screen.seat(view, 3, "casual", "picks last, secretly").tobytes()
    box.play("1 ok")
    state = box.match.view(None)["state"]
    assert state["turn"] == 2 and box.match.held == {}
    reveal = next(e for e in box.session.state.match.public_log() if e["kind"] == "reveal")
    casual_popup = reveal["picks"][3]["popup"]
    assert casual_popup, "the casual bot pops up one to three holes"
    lamps = box.lamps(3)
    assert [h for h in range(1, 6) if lamps[h - 1] == "on"] == casual_popup


def test_a_bot_seats_panel_refuses_presses_and_undo_takes_back_the_person_and_the_bots(box_factory):
    box = box_factory("whakka-mole", 3, bots={2: "strong", 3: "casual"})
    box.play("2 hole1")
    assert box.session.scene().notices[2] == "a computer player has this seat"
    box.play("1 hole2\n1 ok\n1 hole3\n1 ok")
    assert box.match.view(None)["state"]["turn"] == 2
    box.play("1 ok hold\n1 ok hold")                       # undoing a reveal asks twice
    assert box.match.view(None)["state"]["turn"] == 1
    assert box.match.held == {1: {"popup": (2,)}}
    assert [r["seat"] for r in box.match.records] == [1]


def test_bots_come_back_with_a_resumed_game(box_factory, tmp_path):
    db = tmp_path / "journal.db"
    box = box_factory("mole-hill", 2, bots={1: "casual"}, db=db)
    placed = box.match.records[0]
    assert placed["seat"] == 1 and placed["key"] == "place"
    _enter(box, 2, box.match.decisions_for(2)[0].options[0])
    box.session.close()
    again = box_factory(None, None, db=db)                     # a start that asks for no game resumes it as it was
    assert again.match.header.bots == {1: "casual"} and 1 in again.session.state.computers
    assert again.match.records == box.match.records
    assert again.match.open_decisions()[0].seat == 2


def test_the_lobby_seats_computer_players(box_factory):
    box = box_factory(game=None, seats=None)
    games = box.session.state.lobby.games
    box.play(f"1 hole{games.index('mole-hill') + 1}\n1 ok\n1 ok")
    assert box.session.state.lobby.view()["stage"] == "players"
    box.play("1 hole2\n1 hole3\n1 hole3")             # seat 2: casual, then strong
    assert box.session.state.lobby.view()["bots"] == {"2": "strong"}
    box.play("1 hole1\n1 hole3\n1 ok")                # seat 1 a computer too: nobody left to play
    assert box.session.scene().notices[1] == "one seat must be a person"
    box.play("1 hole3\n1 hole3\n1 ok")                # seat 1: strong, back to a person; start
    assert box.match.header.bots == {2: "strong"}
    assert box.match.open_decisions()[0].seat == 1    # seat 1 places; the bot waits for its turn


def test_the_lobby_offers_no_computer_player_for_mole(box_factory):
    box = box_factory(game=None, seats=None)
    games = box.session.state.lobby.games
    box.play(f"1 hole{games.index('mole') + 1}\n1 ok\n1 ok\n1 hole3")       # players stage: hole 3 refused
    assert box.session.state.lobby.bots == {} and box.session.state.lobby.view()["bot_levels"] == []
    box.play("1 ok")
    assert box.match is not None and box.match.header.game == "mole" and box.match.header.bots == {}


@pytest.mark.parametrize("argv, error", [
    (["--game", "mole-hill", "--bots", "3=strong"], "bot seat 3: seats are 1 to 2"),
    (["--game", "mole-hill", "--bots", "2=fixed"], "the table chooses casual or strong"),
    (["--game", "mole-hill", "--bots", "1=strong,2=casual"], "leave at least one seat to a person"),
    (["--game", "mole-hill", "--bots", "two=strong"], "write SEAT=LEVEL, e.g. --bots 2=strong"),
    (["--game", "mole", "--bots", "2=strong"], "no computer flicks"),
    (["--bots", "2=strong"], "--bots needs --game"),
])
def test_bad_bots_on_the_command_line_say_the_fix(tmp_path, capsys, argv, error):
    command = ["sim", *argv, "--out", str(tmp_path)] if "--game" in argv else ["run", *argv, "--port", "0"]
    assert cli.main(command) == 2
    assert error in capsys.readouterr().err


def test_sim_with_a_bot_seat_writes_its_answers_to_the_transcript(tmp_path, capsys):
    script = tmp_path / "s.txt"
    script.write_text("1 ok\n")                       # seat 1 places its stack on the first space
    assert cli.main(["sim", "--game", "mole-hill", "--bots", "2=strong", "--script", str(script),
                     "--out", str(tmp_path / "out")]) == 0
    transcript = json.loads((tmp_path / "out" / "transcript.json").read_text())
    assert transcript["header"]["bots"] == {"2": "strong"}
    assert [(r["seat"], r["key"]) for r in transcript["records"]] == [(1, "place"), (2, "rod")]


def test_a_computer_has_no_hands_so_the_box_rolls_its_dice(box_factory):
    """Mouse Madness with physical dice: seat 1 enters its own rolls; seat 2's are the box's."""
    box = box_factory("mouse-madness", 2, dice="physical", bots={2: "strong"})
    (start,) = box.match.open_decisions()
    assert (start.seat, start.key) == (1, "start-1")            # seat 2 rolled already, virtually
    assert {"seat": None, "key": "start-2", "value": box.match.records[0]["value"]} == box.match.records[0]
    for _ in range(30):
        if box.match.over:
            break
        decisions = box.match.open_decisions()
        assert {d.seat for d in decisions} == {1}, "only the person is ever asked, rolls included"
        box.press(1, "ok")                                       # the die's first face, or the first option
    chance_keys = {r["key"] for r in box.match.records if r["seat"] is None}
    assert "start-2" in chance_keys and "roll" in chance_keys  # the box rolled for seat 2
    assert any(r["seat"] == 1 and r["key"] in ("start-1", "roll") for r in box.match.records)


def test_a_bot_that_answers_wrong_leaves_the_game_waiting_not_the_box_dead(box_factory, monkeypatch, caplog):
    from rules.bots.mole_hill import Strong

    monkeypatch.setattr(Strong, "choose", lambda self, view, decision: (0, 0, "E"))    # no such edge
    box = box_factory("mole-hill", 2, bots={2: "strong"})
    box.play("1 ok")                                                  # seat 1 places; the bot's rod fails
    assert [r["key"] for r in box.match.records] == ["place"]
    assert "computer player at seat 2" in caplog.text
    box.session.refresh()
    assert box.pixels("seat2") == bot_screen.seat(box.match.view(None), 2, "strong", "thinking",
                                                  ("stuck: a bot error", "stuck")).tobytes()
    box.play("1 ok hold")                                             # seat 1 undoes the placement
    assert box.match.records == []
    assert 2 not in box.session.scene().notices
