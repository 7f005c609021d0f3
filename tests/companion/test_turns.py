"""The public log told in words, turn by turn: every event of every scripted game, and the room's description."""
from __future__ import annotations

import json

import pytest

from companion.render import for_game, tv
from companion.render.turns import QUIET, told
from tests.companion.scripted import SCRIPTED, SCRIPTS


def played(box_factory, name: str):
    box = box_factory(**SCRIPTED[name])
    box.name_players({1: "Ada Lovelace", 2: "Bo"})
    box.play((SCRIPTS / f"{name}.txt").read_text())
    return box, tv.named(box.session.public())


@pytest.mark.parametrize("name", list(SCRIPTED))
def test_every_public_event_of_a_scripted_game_is_told(box_factory, name):
    box, view = played(box_factory, name)
    log = box.session.state.match.public_log()
    game = for_game(view["game"])
    untold = {e["kind"] for e in log if e["kind"] not in QUIET | {"game_over"} and game.tell(view, e) is None}
    assert not untold
    turns = told(view, log)
    lines = [line for turn in turns for line in turn["lines"]]
    assert lines and not any(mark in line for line in lines for mark in ("{", "None", "[", "_")), lines
    assert turns[1:] == told(view, log, 1)                  # told from a turn on, as the streams send it
    assert json.dumps(tv.describe(box.session.public(), turns))


def test_a_whakka_mole_turn_is_a_sentence_a_seat_and_its_reveal_keeps_the_picks(box_factory):
    box, view = played(box_factory, "whakka-3seat")
    first = told(view, box.session.state.match.public_log())[0]
    assert first["title"] == "Turn 1"
    ada = "Ada\N{NO-BREAK SPACE}Lovelace"                      # whole, kept on one line
    assert first["lines"] == [f"{ada} popped up holes 1, 2 and 3, whacked Bo's hole 5: a miss, +0 = 0",
                              "Bo popped up hole 1, whacked Seat 3's hole 1: a miss, +1 = 1",
                              f"Seat 3 popped up holes 4 and 5, whacked {ada}'s hole 2: a hit, 3 tokens out, +8 = 8"]
    assert [(p["name"], p["words"]) for p in first["reveal"]["picks"]] == [
        ("Ada Lovelace", "holes 1, 2 and 3 up, whacks hole 5"), ("Bo", "hole 1 up, whacks hole 1"),
        ("Seat 3", "holes 4 and 5 up, whacks hole 2")]


def test_the_room_sees_names_scores_and_who_has_locked_in_never_what(box_factory):
    box = box_factory(seats=3)
    box.name_players({1: "Ada Lovelace", 2: "Bo"})
    box.play("1 hole2\n1 ok\n1 hole4\n1 ok")
    public = box.session.public()
    room = tv.describe(public, told(tv.named(public), box.session.state.match.public_log()))
    assert [(p["name"], p["score"], p["doing"]) for p in room["players"]] == [
        ("Ada Lovelace", "0", "locked in"), ("Bo", "0", "choosing"), ("Seat 3", "0", "choosing")]
    assert room["screen"]["prompt"] == "Waiting for Bo, Seat 3" and room["screen"]["status"] == "turn 1"
    assert "popup" not in json.dumps(room) and "held" not in json.dumps(room)
