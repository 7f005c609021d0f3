"""Mole Hill on the box: whole games pressed through the mock pins, checked by hand, to the pixel.

The scripts (tests/companion/scripts/mole-hill-*.txt) carry a comment for every rod and every move and,
after each round, its trail numbered piece by piece with the flowers it visited; the results below were
worked out from those comments with the rules (docs/rules/mole-hill.md).
"""
from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops

from companion.render import mole_hill
from rules.match import Match
from tests.companion.golden import GOLDEN, REGOLD, assert_frames_match, displays
from tests.companion import scripted
from tests.companion.mole_hill_scripts import GAMES
from tests.companion.scripted import SCRIPTS, box_for, script


#: Moments of each game whose every display is kept as a golden image: the script is played up to
#: (not including) the first line equal to the marker.
CHECKPOINTS = {
    "mole-hill-win": {
        "rod": "# S2 rods 4,1,E (21 left)",                              # the edge cursor beside the stack
        "move": "# S1 moves (7,2) -> (8,3), leaving a light piece",      # the mole's targets among rods
        "round2": "# S2 places the stack on (9,4), red flower +2",       # round 1 scored, roles swapped
        "jump": "# S2 jumps from the centre (5,4) -> (1,4), red flower +2, leaving a light piece",
    },
    "mole-hill-draw": {
        "jump": "# S1 jumps from the centre (5,4) -> (9,4), red flower +2, leaving a dark piece",
    },
    "mole-hill-corner": {
        "start": "# S2 places the stack on (1,1)",                       # red flowers in the inner corners
    },
}

# Worked out by hand from the scripts' comments (10 light pieces, so pieces 11 on are dark; the last
# space holds the stack, whose bottom piece counts when dark):
#
# win (default flowers: red 2 at (5,1) (1,4) (9,4) (5,7), white 1 at (2,2) (8,2) (2,6) (8,6)):
#   R1 S1: 22 spaces, out of pieces on the centre (5,4), piece 22 dark: 12 dark; flowers (5,1) 2, (8,2) 1,
#       (9,4) 2, (5,7) 2, (2,6) 1, (1,4) 2, (2,2) 1 = 11: 23.
#   R2 S2: jumps from the centre to (1,4); boxed in on (9,7) after 19 spaces: 9 dark; flowers (9,4) 2,
#       (8,2) 1, (1,4) 2, (2,6) 1, (5,7) 2, (8,6) 1 = 9: 18. S1 wins 23 to 18.
# draw: R1 S1: 22 spaces, 12 dark; flowers 2+1+2+1+2+2+1 = 11: 23. R2 S2: 22 spaces, 12 dark;
#   flowers (9,4) 2, (8,6) 1, (5,7) 2, (8,2) 1, (5,1) 2, (2,2) 1, (1,4) 2 = 11: 23. A draw.
# corner (S2 is the mole first; red 2 at (2,2) (8,2) (2,6) (8,6), white 1 at the edge middles):
#   R1 S2: 22 spaces, 12 dark; flowers (2,2) 2, (5,1) 1, (8,2) 2, (9,4) 1, (8,6) 2, (2,6) 2, (5,7) 1 = 11: 23.
#   R2 S1: from the centre, no jump (a placement is not a move); boxed in on (3,1) after 18 spaces:
#       8 dark; flowers (8,6) 2, (9,4) 1, (8,2) 2, (5,1) 1, (2,2) 2 = 8: 16. S2 wins 23 to 16.
EXPECTED = {
    "mole-hill-win": {"rounds": [(1, "pieces", 22, 23), (2, "blocked", 19, 18)], "scores": [23, 18],
                      "winners": [1], "last": [(5, 4), (9, 7)], "jumps": [2]},
    "mole-hill-draw": {"rounds": [(1, "pieces", 22, 23), (2, "pieces", 22, 23)], "scores": [23, 23],
                       "winners": [1, 2], "last": [(5, 3), (1, 4)], "jumps": [1, 2]},
    "mole-hill-corner": {"rounds": [(2, "pieces", 22, 23), (1, "blocked", 18, 16)], "scores": [16, 23],
                         "winners": [2], "last": [(6, 4), (3, 1)], "jumps": [2]},
}


@pytest.fixture(params=list(GAMES))
def played(request, box_factory):
    return scripted.played(box_factory, request.param, CHECKPOINTS[request.param])


def test_each_game_ends_as_worked_out_by_hand(played):
    expected = EXPECTED[played.name]
    state = played.match.view(None)["state"]
    assert played.match.over and state["phase"] == "over"
    assert [(r["mole"], r["reason"], len(r["trail"]), r["score"]) for r in state["rounds"]] == expected["rounds"]
    assert [tuple(r["trail"][-1][:2]) for r in state["rounds"]] == expected["last"]
    assert list(played.match.result().scores) == expected["scores"] == state["scores"]
    assert played.match.view(None)["winners"] == expected["winners"]
    events = played.match.events_for(None, played.match.events)
    assert [e["seat"] for e in events if e["kind"] == "jump"] == expected["jumps"]
    for record in state["rounds"]:                      # each round's score recounted from its board
        flowers = {(c, r): p for c, r, p in state["flowers"]}
        dark = sum(colour == "dark" for *_, colour in record["trail"])
        assert record["score"] == dark + sum(flowers.get((c, r), 0) for c, r, _ in record["trail"])


def test_every_display_matches_its_golden_image_at_every_checkpoint(played, tmp_path):
    assert_frames_match(played.frames, played.name, tmp_path)


def test_the_winners_lamps_light_at_the_end(played):
    for seat in (1, 2):
        assert played.lamps(seat) == ["on" if seat in EXPECTED[played.name]["winners"] else "off"] * 5


def test_the_transcript_replays_to_the_same_board(played):
    replayed = Match.replay(json.loads(json.dumps(played.match.transcript())))
    assert replayed.view(None) == played.match.view(None)
    assert replayed.state.rounds == played.match.state.rounds


def test_the_seat_to_act_has_its_cursor_holes_lit(box_factory):
    box = box_for(box_factory, "mole-hill-win")
    assert box.lamps(1) == ["dim"] * 4 + ["off"] and box.lamps(2) == ["off"] * 5       # S1 places
    box.play("1 ok")                                                                     # on (1, 1)
    assert box.lamps(1) == ["off"] * 5 and box.lamps(2) == ["dim"] * 5                  # S2 rods: 5 turns
    box.play("2 ok")
    assert box.lamps(1) == ["dim"] * 4 + ["off"]


def test_an_illegal_press_blinks_and_says_why_on_that_seat_only(box_factory):
    box = box_for(box_factory, "mole-hill-win")
    box.play("1 hole4\n1 ok\n2 ok")               # S1 on (2, 1), S2 rods the edge (1, 1)-(2, 1)
    state = box.match.view(None)["state"]
    assert state["position"] == [2, 1] and state["rods"] == [[1, 1, "E"]]
    before = box.pixels("seat2"), box.pixels("table")
    box.play("1 hole1\n1 hole1", settle=False)    # the cursor starts on (3, 1); (1, 1) is across the rod
    box.press(1, "ok")
    box.clock.advance(0.2)
    box.session.pump()
    assert box.session.scene().notices[1] == "a rod is in the way" and box.lamps(1) == ["fast"] * 5
    assert (box.pixels("seat2"), box.pixels("table")) == before
    assert box.match.view(None)["state"]["position"] == [2, 1]
    box.session.screens.worker.flush()
    golden = GOLDEN / "mole-hill-refused-seat1.png"
    image = box.hw.displays()["seat1"].image.convert("1")
    if REGOLD:
        image.save(golden)
    assert ImageChops.difference(image, Image.open(golden).convert("1")).getbbox() is None
    box.play("1 hole1")                           # already at the left edge
    assert box.session.scene().notices[1] == "nothing further left"
    box.play("1 hole4\n1 ok")                     # (2, 1) is the mole's own space
    assert box.session.scene().notices[1] == "the mole is here"
    box.play("1 hole4\n1 ok")
    assert 1 not in box.session.scene().notices and box.match.view(None)["state"]["position"] == [3, 1]
    assert box.lamps(1) == ["off"] * 5 and box.lamps(2) == ["dim"] * 5


def test_the_table_shows_both_rounds_scores(box_factory):
    box = box_for(box_factory, "mole-hill-win")
    lines = script("mole-hill-win").splitlines()
    box.play("\n".join(lines[:lines.index(CHECKPOINTS["mole-hill-win"]["round2"])]))
    view = box.match.view(None)
    assert view["state"]["rounds"][0]["score"] == 23 and view["state"]["mole"] == 2
    assert box.pixels("table") == mole_hill.table(view).tobytes()


def test_the_cli_plays_a_whole_game(tmp_path, capsys):
    from companion.cli import main

    out = tmp_path / "out"
    assert main(["sim", "--game", "mole-hill", "--script", str(SCRIPTS / "mole-hill-draw.txt"),
                 "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out) == [23, 23]
    state = json.loads((out / "state.json").read_text())
    assert state["view"]["winners"] == [1, 2]
    replayed = Match.replay(json.loads((out / "transcript.json").read_text()))
    assert replayed.view(None) == state["view"]
    for display in displays(2):
        golden = Image.open(GOLDEN / f"mole-hill-draw-end-{display}.png").convert("1")
        assert ImageChops.difference(Image.open(out / f"{display}.png").convert("1"), golden).getbbox() is None


def test_a_cursor_moves_only_on_its_own_seats_oled(box_factory):
    """A draft is the seat's own business until OK: the other OLED, the table and the lamps stay put."""
    a, b = (box_for(box_factory, "mole-hill-win") for _ in range(2))
    for box, steps in ((a, "1 hole4"), (b, "1 hole4\n1 hole1")):        # cursor on (2, 2) or (1, 2)
        box.play("1 ok\n2 ok\n" + steps)
    assert a.match.view(None) == b.match.view(None)
    assert (a.pixels("seat2"), a.pixels("table")) == (b.pixels("seat2"), b.pixels("table"))
    assert a.session.lamps.lit() == b.session.lamps.lit()
    assert a.pixels("seat1") != b.pixels("seat1")
