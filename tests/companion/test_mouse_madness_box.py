"""Mouse Madness on the box: whole games pressed through the mock pins, checked by hand, to the pixel.

The 3-seat game (scripts/mouse-3seat.txt, seed 344, the box rolls) has a jump, a push chain that ends
in a mouse hole, a fall by a move, three jumps and an exact landing on the cheese. The 4-seat game
(scripts/mouse-4seat-dice.txt) is played with physical dice entered on the panels: a tie in the start
rolls, push chains, a falling token pushing the one it lands on, a mover falling onto a token, a
bounce-back off the cheese. Each script's comments work every turn out from the rules
(docs/rules/mouse-madness.md); the results below come from those comments.
"""
from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops

from companion.render import mouse_madness
from rules.match import Match
from tests.companion import scripted
from tests.companion.golden import GOLDEN, assert_frames_match, displays
from tests.companion.scripted import MOUSE, SCRIPTS, box_for, script, until


# Worked out by hand from the scripts' comments:
EXPECTED = {
    "mouse-3seat": {"winner": 1, "positions": [30, 10, 26], "turns": 16, "moves": [
        ("move", 1, 0, 5), ("move", 2, 0, 4), ("jump", 2, 4, 6),                        # T1, T2
        ("move", 3, 0, 5), ("push", 1, 5, 6), ("push", 2, 6, 7), ("fall", 2, 7, 2),     # T3
        ("move", 1, 6, 11), ("move", 2, 2, 3), ("move", 3, 5, 9), ("move", 1, 11, 15),
        ("move", 2, 3, 8), ("jump", 2, 8, 10), ("move", 3, 9, 15), ("push", 1, 15, 14),  # T8, T9
        ("move", 1, 14, 20), ("move", 2, 10, 13), ("move", 3, 15, 18), ("move", 1, 20, 25),
        ("move", 2, 13, 17), ("fall", 2, 17, 10), ("move", 3, 18, 24), ("jump", 3, 24, 26),
        ("move", 1, 25, 30)]},
    "mouse-4seat-dice": {"winner": 2, "positions": [24, 30, 19, 26], "turns": 32, "moves": [
        ("move", 3, 0, 6), ("move", 4, 0, 5),                                           # T1, T2
        ("move", 1, 0, 4), ("jump", 1, 4, 6), ("push", 3, 6, 7), ("fall", 3, 7, 2),     # T3
        ("move", 2, 0, 2), ("push", 3, 2, 1),                                           # T4
        ("move", 3, 1, 4), ("jump", 3, 4, 6), ("push", 1, 6, 5), ("push", 4, 5, 4),     # T5
        ("move", 4, 4, 5), ("push", 1, 5, 6), ("push", 3, 6, 7), ("fall", 3, 7, 2), ("push", 2, 2, 1),
        ("move", 1, 6, 12), ("fall", 1, 12, 8), ("move", 2, 1, 5), ("push", 4, 5, 6),   # T7, T8
        ("move", 3, 2, 7), ("fall", 3, 7, 2),                                           # T9
        ("move", 4, 6, 12), ("fall", 4, 12, 8), ("push", 1, 8, 7), ("fall", 1, 7, 2), ("push", 3, 2, 1),
        ("move", 1, 2, 4), ("jump", 1, 4, 6), ("move", 2, 5, 11), ("move", 3, 1, 5),    # T11-T13
        ("move", 4, 8, 14), ("move", 1, 6, 10), ("move", 2, 11, 16), ("move", 3, 5, 11),
        ("move", 4, 14, 20), ("move", 1, 10, 16), ("push", 2, 16, 17), ("fall", 2, 17, 10),
        ("move", 2, 10, 13), ("move", 3, 11, 15), ("move", 4, 20, 26), ("move", 1, 16, 21),
        ("move", 2, 13, 19), ("move", 3, 15, 21), ("push", 1, 21, 22), ("fall", 1, 22, 16),
        ("move", 4, 26, 20),                                                            # T26: bounce
        ("move", 1, 16, 21), ("push", 3, 21, 22), ("fall", 3, 22, 16), ("move", 2, 19, 25),
        ("move", 3, 16, 19), ("move", 4, 20, 26), ("move", 1, 21, 27), ("fall", 1, 27, 24),
        ("move", 2, 25, 30)]},
}

#: Moments whose every display is kept as a golden image: the script up to its line ``# @name...``.
CHECKPOINTS = {"mouse-3seat": ["push"], "mouse-4seat-dice": ["reroll", "chain", "bounce"]}


@pytest.fixture(params=list(MOUSE))
def played(request, box_factory):
    """The whole game, with every display's frame and every seat's lamps kept at each checkpoint."""
    return scripted.played(box_factory, request.param,
                           {checkpoint: f"# @{checkpoint}" for checkpoint in CHECKPOINTS[request.param]})


def _moves(box) -> list:
    """The public log's movements: (kind, seat, from, to)."""
    return [(e["kind"], e["seat"], e["from"], e["to"]) for e in box.session.state.match.public_log()
            if e["kind"] in ("move", "push", "fall", "jump")]


def test_each_game_reaches_the_cheese_by_the_moves_worked_out_by_hand(played):
    expected, view = EXPECTED[played.name], played.match.view(None)
    assert view["over"] and view["winners"] == [expected["winner"]]
    assert view["state"]["positions"] == expected["positions"] and view["state"]["turns"] == expected["turns"]
    assert _moves(played) == expected["moves"]
    history = view["state"]["history"]                             # the dashboard charts it
    assert len(history) == expected["turns"] and history[-1] == expected["positions"]


def test_the_transcript_replays_to_the_same_game(played):
    assert Match.replay(json.loads(json.dumps(played.match.transcript()))).view(None) == played.match.view(None)


def test_every_display_matches_its_golden_image_at_every_checkpoint(played, tmp_path):
    assert_frames_match(played.frames, played.name, tmp_path)


def test_the_winner_s_lamps_light_and_nobody_else_s(played):
    winner = EXPECTED[played.name]["winner"]
    for seat in range(1, played.match.header.seats + 1):
        assert played.lamps(seat) == ["on" if seat == winner else "off"] * 5


def test_the_mover_s_lamps_glow_on_the_holes_it_may_press(box_factory):
    box = box_for(box_factory, "mouse-3seat")
    lines = script("mouse-3seat").splitlines()
    box.play("\n".join(lines[:until(lines, "# @push")]))
    assert box.lamps(3) == ["dim", "dim", "dim", "off", "off"]          # push forward, push back, jump
    assert box.lamps(1) == box.lamps(2) == ["off"] * 5


def test_mis_presses_leave_a_notice_and_nothing_in_the_transcript(box_factory):
    box = box_for(box_factory, "mouse-3seat")
    box.play("2 hole4")
    assert box.session.scene().notices == {2: "only 2 choices"}              # stay or jump
    box.play("2 hole2\n2 ok\n1 hole1")
    assert box.session.scene().notices == {1: ("nothing to decide now", "not now")}
    assert [r for r in box.match.transcript()["records"] if r["seat"] is not None] == [
        {"seat": 2, "key": "jump", "value": "jump-forward"}]


def test_physical_dice_are_entered_on_the_panels_and_the_box_rolls_nothing(box_factory):
    box = box_for(box_factory, "mouse-4seat-dice")
    box.play("1 hole2\n1 hole2")                                     # seat 1 dials a 3 for its start roll
    assert box.session.state.drafts[1].value == 3
    assert [box.lamps(s) for s in (1, 2)] == [["dim", "dim", "off", "off", "off"]] * 2
    box.play("1 hole4")
    assert box.session.scene().notices[1] == "hole 1 and 2 step through the list"
    box.play("1 hole1\n1 hole1\n1 hole1\n1 ok")                       # down from 3 past 1 round to 6
    assert box.match.view(None)["state"]["start_rolls"] == [[[1, 6]]]
    full = box_for(box_factory, "mouse-4seat-dice")
    full.play(script("mouse-4seat-dice"))
    records = full.match.transcript()["records"]
    assert records and all(r["seat"] is not None for r in records)
    assert full.match.transcript()["header"]["dice"] == "physical"


def test_virtual_dice_tumble_on_the_table_before_the_forced_move_shows(box_factory):
    """S2's jump ends its turn; the box rolls S3 a 5, which takes it from the start onto S1 at once."""
    box = box_for(box_factory, "mouse-3seat")
    box.play("2 hole2\n2 ok", settle=False)
    view = box.match.view(None)
    assert view["state"]["positions"] == [5, 6, 5] and view["state"]["trail"] == [["move", 3, 0, 5]]
    frames = [mouse_madness.rolling(view, frame).tobytes() for frame in range(4)]
    assert box.pixels("table") in frames
    before = json.loads(json.dumps(view))
    before["state"]["positions"], before["state"]["trail"] = [5, 6, 0], []
    assert frames[0] == mouse_madness.rolling(before, 0).tobytes()       # S3 still on the start
    box.clock.advance(1)
    box.session.pump()
    assert box.pixels("table") == mouse_madness.table(view).tobytes() not in frames


def test_physical_dice_land_at_once(box_factory):
    box = box_for(box_factory, "mouse-4seat-dice")
    lines = script("mouse-4seat-dice").splitlines()
    box.play("\n".join(lines[:until(lines, "# T2 ")]), settle=False)
    assert box.pixels("table") == mouse_madness.table(box.match.view(None)).tobytes()


@pytest.mark.parametrize("name", list(MOUSE))
def test_molebox_sim_plays_each_script_and_replays_its_transcript(name, tmp_path, capsys):
    from companion.cli import main

    seats, seed, dice = MOUSE[name]
    expected, out = EXPECTED[name], tmp_path / "out"
    assert main(["sim", "--game", "mouse-madness", "--seats", str(seats), "--seed", str(seed), "--dice", dice,
                 "--script", str(SCRIPTS / f"{name}.txt"), "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out) == expected["positions"]
    state = json.loads((out / "state.json").read_text())
    winner = expected["winner"]
    assert state["view"]["winners"] == [winner]
    assert json.loads((out / "lamps.json").read_text())[f"seat{winner}"] == ["on"] * 5
    for display in displays(seats):
        golden = Image.open(GOLDEN / f"{name}-end-{display}.png").convert("1")
        assert ImageChops.difference(Image.open(out / f"{display}.png").convert("1"), golden).getbbox() is None
    assert main(["replay", str(out / "transcript.json")]) == 0
    assert json.loads(capsys.readouterr().out)["state"]["positions"] == expected["positions"]


def test_a_draft_shows_on_its_own_seat_only(box_factory):
    """Two boxes that differ only in seat 3's draft look the same everywhere else, to the pixel."""
    lines = script("mouse-3seat").splitlines()
    first = "\n".join(lines[:until(lines, "# @push")])
    a, b = box_for(box_factory, "mouse-3seat"), box_for(box_factory, "mouse-3seat")
    a.play(first)
    assert first.endswith("\n3 hole1")                                  # push forward; hole 3 is the jump
    b.play(first.removesuffix("hole1") + "hole3")
    assert json.dumps(a.session.public(), sort_keys=True) == json.dumps(b.session.public(), sort_keys=True)
    for name in ("seat1", "seat2", "table"):
        assert a.pixels(name) == b.pixels(name), name
    assert a.session.lamps.lit() == b.session.lamps.lit()
    assert a.pixels("seat3") != b.pixels("seat3")


def test_the_lobby_lists_mouse_madness_and_starts_it(box_factory):
    box = box_factory(game=None, seats=None)
    hole = box.session.state.lobby.games.index("mouse-madness") + 1
    box.play(f"1 hole{hole}\n1 ok\n1 hole2\n1 hole3\n1 ok\n1 ok")   # 3 seats, physical dice, all people
    header = box.match.header
    assert (header.game, header.seats, header.dice) == ("mouse-madness", 3, "physical")
    assert box.lamps(1) == box.lamps(2) == box.lamps(3) == ["dim", "dim", "off", "off", "off"]
