"""A whole 3-seat Whakka Mole game, pressed through the mock pins, checked against the rules by hand."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from rules.match import Match
from tests.companion.golden import GOLDEN, REGOLD

HERE = Path(__file__).parent
SCRIPT = HERE / "scripts" / "whakka-3seat.txt"

# Worked out from the rules (docs/rules/whakka-mole.md): seat 1 whacks seat 2, 2 whacks 3, 3 whacks 1.
# T1: S3 hits S1's hole 2 (+6), S3 keeps 2 tokens, S2 keeps 1.        -> 0, 1, 8
# T2: every whack hits: each +6, every sheet cleared.                  -> 6, 7, 14
# T3: S1 hits S2's hole 3 (+6) and keeps 2; S3 keeps 1.               -> 14, 7, 15
# T4..T12: no hits; S1 keeps 4 tokens, S2 3, S3 1 out.                -> ... 50, 34, 24
HISTORY = [[0, 1, 8], [6, 7, 14], [14, 7, 15], [18, 10, 16]] + [
    [18 + 4 * n, 10 + 3 * n, 16 + n] for n in range(1, 9)]


@pytest.fixture
def played(box_factory):
    box = box_factory(seats=3)
    box.name_players({1: "Ada", 2: "Bartholomew"})        # seat 3 plays unnamed
    box.play(SCRIPT.read_text())
    box.session.screens.worker.flush()
    return box


def test_the_game_reaches_its_winner_with_the_scores_the_rules_give(played):
    view = played.match.view(None)
    assert view["state"]["history"] == HISTORY
    assert view["state"]["scores"] == [50, 34, 24]
    assert view["over"] and view["winners"] == [1]


def test_the_take_back_and_the_mis_press_left_no_trace_but_the_transcript(played):
    records = played.match.transcript()["records"]
    assert {"seat": 2, "key": "@retract"} in records
    assert Match.replay(played.match.transcript()).view(None) == played.match.view(None)


def test_lamps_at_the_end_show_each_sheet(played):
    assert played.lamps(1) == ["on", "on", "on", "on", "off"]
    assert played.lamps(2) == ["on", "on", "on", "off", "off"]
    assert played.lamps(3) == ["off", "off", "off", "off", "on"]
    assert played.lamps(4) == ["off"] * 5


@pytest.mark.parametrize("display", ["seat1", "seat2", "seat3", "table"])
def test_final_frames_match_the_golden_images(played, display, tmp_path):
    """Regenerate with: MOLEBOX_REGOLD=1 make test ARGS=tests/companion/test_scripted_game.py"""
    image = played.hw.displays()[display].image.convert("1")
    golden = GOLDEN / f"whakka-3seat-{display}.png"
    if REGOLD:
        image.save(golden)
    expected = Image.open(golden).convert("1")
    diff = ImageChops.difference(image, expected).getbbox()
    assert diff is None, f"{display} differs from {golden.name} in box {diff}; see {tmp_path}"


def test_state_json_and_pngs_from_the_cli(tmp_path, capsys):
    from companion.cli import main

    out = tmp_path / "out"
    code = main(["sim", "--game", "whakka-mole", "--seats", "3", "--script", str(SCRIPT), "--out", str(out),
                 "--name", "1=Ada", "--name", "2=Bartholomew"])
    assert code == 0
    state = json.loads((out / "state.json").read_text())
    assert state["view"]["state"]["scores"] == [50, 34, 24] and state["view"]["winners"] == [1]
    lamps = json.loads((out / "lamps.json").read_text())
    assert lamps["seat3"] == ["off", "off", "off", "off", "on"]
    frame = Image.open(out / "seat1.png")
    assert frame.size == (128, 64)
    golden = Image.open(GOLDEN / "whakka-3seat-seat1.png").convert("1")
    assert ImageChops.difference(frame.convert("1"), golden).getbbox() is None
    capsys.readouterr()
    assert main(["replay", str(out / "transcript.json")]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["state"]["scores"] == [50, 34, 24]
