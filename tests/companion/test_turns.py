"""The public log told in words, turn by turn: every event of every scripted game, and the room's description."""
from __future__ import annotations

import json
import re

import pytest

from companion.render import for_game, naming, tv
from companion.render.turns import QUIET, told
from tests.companion.scripted import SCRIPTED, SCRIPTS


def played(box_factory, name: str):
    """The scripted game played untaught (the teaching's lines: tests/companion/test_teaching.py), and the room's view."""
    box = box_factory(**SCRIPTED[name])
    box.name_players({1: "Ada Lovelace", 2: "Bo"})
    box.session.host("skip-teaching")
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


def test_a_deed_a_language_begins_with_a_capital_still_follows_its_player_s_name(box_factory, monkeypatch):
    box, view = played(box_factory, "whakka-3seat")
    monkeypatch.setattr(for_game("whakka-mole"), "tell", lambda view, e: None if e["seat"] is None else "Tat")
    first = told(view, box.session.state.match.public_log())[0]
    assert first["lines"] == ["Ada\N{NO-BREAK SPACE}Lovelace Tat, Tat, Tat", "Bo Tat, Tat, Tat", "Seat 3 Tat, Tat, Tat"]


def test_a_round_s_end_stands_as_a_sentence_of_its_own(box_factory):
    box, view = played(box_factory, "mole-hill-win")
    lines = [line for turn in told(view, box.session.state.match.public_log()) for line in turn["lines"]]
    assert any(line.startswith("Round 1 over (") for line in lines), lines


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


#: a whole scripted game of each of the five, every seat named
WHOLE_GAMES = ["whakka-3seat", "mole-park-5seat", "mole-match", "mole-hill-win", "mouse-3seat"]
NAMED = {1: "Ada Lovelace", 2: "Bo", 3: "Cy Young", 4: "Di Fox", 5: "Ed Wood"}
CODES = re.compile(r"\bSeat \d|\bS\d\b")


@pytest.mark.parametrize("name", WHOLE_GAMES)
def test_the_tv_turn_list_holds_every_public_event_of_every_turn_in_words_with_names_under_its_title(
        box_factory, name):
    box = box_factory(**SCRIPTED[name])
    box.name_players({seat: NAMED[seat] for seat in range(1, SCRIPTED[name]["seats"] + 1)})
    box.play((SCRIPTS / f"{name}.txt").read_text())
    public = box.session.public()
    view, log = tv.named(public), box.session.state.match.public_log()
    game = for_game(view["game"])
    openers, word = game.TURN
    turns = told(view, log)
    assert len([turn for turn in turns if turn["reveal"] or len(turn["lines"]) > 1]) >= 2, turns    # scored turns
    assert tv.describe(public, turns)["turns"] == turns[-tv.TURNS:]           # the room is sent the latest
    lead = int(turns[0]["title"] == "Before the first turn")
    assert [turn["title"] for turn in turns[lead:]] == [f"{word} {n}" for n in range(1, len(turns) + 1 - lead)]
    assert len(turns) - lead == sum(event["kind"] in openers for event in log)
    if view["game"] == "mole-park":                                           # a round is told under its number
        assert not lead and len(turns) == view["state"]["round"]
    at = 0                                                                    # each event, told in its own turn
    for number, turn in enumerate(turns):
        opened = number < lead                                                # the lead ends at the first opener
        for event in log[at:]:
            if event["kind"] in openers and opened:
                break
            opened, at = opened or event["kind"] in openers, at + 1
            words = None if event["kind"] in QUIET | {"game_over"} else game.tell(view, event)
            if words is None:
                continue
            who = naming.who(view, event["seat"]) if event.get("seat") is not None and words[0].islower() else None
            assert any(words in line and (who is None or line.startswith(who + " ")) for line in turn["lines"]), \
                (turn["title"], words, turn["lines"])
    assert at == len(log)
    lines = [line for turn in turns for line in turn["lines"]]
    assert not [line for line in lines if CODES.search(line)]               # names, never seat codes
    if view["game"] == "mole-park":                                           # each round its deal and rolls
        for turn in turns:
            assert any(line.startswith("Moles dealt to the holes") for line in turn["lines"]), turn
            assert any(" rolled the " in line for line in turn["lines"]), turn
        assert any(" cashed in " in line for line in lines) and any(re.match(r"Hole \d: .* takes? ", line) for line in lines)
