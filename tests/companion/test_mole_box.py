"""Mole on the box: a whole match pressed through the mock pins, checked by hand and to the pixel.

The script (tests/companion/scripts/mole-match.txt) carries a comment for every answer and for what the
box made of each turn; the round results below were checked by hand from those comments against the
rules (docs/rules/mole.md).
"""
from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops

from companion.render import mole
from rules.match import Match
from tests.companion import scripted
from tests.companion.golden import GOLDEN, assert_frames_match, displays
from tests.random_play import random_answer

SCRIPT = scripted.SCRIPTS / "mole-match.txt"
SEED = scripted.SCRIPTED["mole-match"]["seed"]

#: Moments of the match whose every display is kept as a golden image, in the order they come: the script
#: is played up to (not including) the first line starting with the last marker, each marker found after
#: the one before it.
CHECKPOINTS = {
    "protected": ("# S2 protected: Yes",),     # knocked off a side: partly or fully in R/C? S1 may claim a push
    "taupiniere": ("# S2 call: Taupiniere",),  # S2's mole with three mignettes: three calls lit
    # S1's call in Gad with one mignette left: Flick only, and why
    "gad": ("# ROUND 41 (", "# S2 gad: Touching", "# S1 call: Flick"),
    "hitter": ("# S2 hitter: 3",),             # off a side, one mignette dead: which one hit?
}

# Checked by hand from the script's comments, round by round (M = the mole wins, G = the mignettes win,
# T = a tie), against the rules (docs/rules/mole.md) with the default settings. A few of them:
#   R1  S2 knocks the mole off a side on the first go: it goes back; S1 crosses the line killing M1: G.
#   R3  S2 knocks the mole off a side while it is partly or fully in Rosserie: it goes back.
#   R4  S1 knocks S2's mole off the back on the first go: the protection is from the sides, so M, 0-1
#       (R32 and R41 alike; R51 over the winning line on the first go: M).
#   R8  the last mignette dies as S1 knocks S2's mole off a side: recompense, T (same roles, no point);
#       R35 off the back as the last two die: T.
#   R23 S2's taupiniere kills exactly two (play goes on); S2 kills the last one later: M.
#   R52 S2 knocks S1's mole off a side, hitter M3 dies, M1 and M2 live: the mignettes do not win: M, 10-10.
#   R54 S2's mole is knocked off the back: 10-11, not two clear: play goes on. R55 S2 crosses: 10-12.
ROUNDS = "GGGMGMGTGGGGMGGMMGGGGMMGGGGGMGMMGGTGMGMGMMMMGGMGMGMMGMM"
FINAL = (10, 12)


@pytest.fixture
def played(box_factory):
    return scripted.played(box_factory, "mole-match", CHECKPOINTS, names={1: "Ada", 2: "Bob"})


def test_the_match_ends_as_checked_by_hand(played):
    state = played.match.view(None)["state"]
    assert played.match.over and played.match.result().scores == FINAL and played.match.result().winners == (2,)
    code = {"mole": "M", "mignettes": "G", "tie": "T"}
    assert "".join(code[r["winner"]] for r in state["rounds"]) == ROUNDS
    assert max(FINAL) - min(FINAL) == 2 and state["rounds"][-2]["scores"] == [10, 11]


def test_every_display_matches_its_golden_image_at_every_checkpoint(played, tmp_path):
    assert_frames_match(played.frames, "mole-match", tmp_path)


def test_the_lamps_suggest_the_legal_calls_and_light_the_answers(played):
    lamps = played.lamps_at
    assert lamps["gad"]["seat1"] == ["on", "off", "off", "off", "off"]     # Flick only: Gad, one mignette left
    assert lamps["gad"]["seat2"] == ["off"] * 5
    assert lamps["taupiniere"]["seat2"] == ["on", "on", "on", "off", "off"]
    assert lamps["protected"]["seat2"] == ["dim", "dim", "off", "off", "off"]   # No, Yes
    assert lamps["protected"]["seat1"] == ["off"] * 5                           # the push claim is not suggested
    assert lamps["hitter"]["seat2"] == ["dim", "dim", "dim", "off", "off"]      # M1, M2 and M3 were playing
    assert lamps["end"]["seat2"] == ["on"] * 5 and lamps["end"]["seat1"] == ["off"] * 5


def test_the_transcript_replays_to_the_same_match(played):
    assert Match.replay(played.match.transcript()).view(None) == played.match.view(None)


def test_a_quiet_turn_is_three_presses_of_ok(box_factory):
    box = box_factory(game="mole", seats=2)
    box.play("2 ok\n2 ok\n2 ok")
    state = box.match.view(None)["state"]
    assert (state["side"], state["flicker"], state["turn"]) == ("mole", 1, 2)
    assert box.match.seat_records() == 3


def test_a_mistaken_report_is_undone_by_seat_1_holding_ok(box_factory):
    box = box_factory(game="mole", seats=2)
    box.play("2 ok\n2 ok\n2 ok\n1 ok\n1 hole3\n1 ok")          # S1's mole 'off a side': meant 'on the board'
    assert box.match.view(None)["state"]["mole"] == 2
    box.press(1, "ok", hold=True)
    state = box.match.view(None)["state"]
    assert (state["mole"], state["round"], state["report"]) == (1, 1, {})
    assert box.match.decisions_for(1)[0].key == "where"
    box.play("1 ok\n1 ok")                                     # on the board, nobody killed
    assert box.match.view(None)["state"]["side"] == "mignettes"


def test_the_oled_names_what_each_hole_picks_and_the_draft(box_factory):
    box = box_factory(game="mole", seats=2)
    box.play("2 ok\n2 hole5", settle=False)
    entry = box.session.state.drafts[2].summary(box.match.decisions_for(2)[0])
    assert entry["holes"] == ["On board", "Touching a mignette", "Over line", "Off back", "Off side"] and entry["label"] == "Off side"
    assert box.pixels("seat2") == mole.seat(box.match.view(2), entry).tobytes()


def test_a_push_claim_needs_hole_1_then_ok_on_the_other_panel(box_factory):
    box = box_factory(game="mole", seats=2)
    box.play("2 ok\n1 ok")
    assert box.session.scene().notices[1] == "choose first, then OK" and box.match.view(None)["state"]["round"] == 1
    box.play("1 hole1\n1 ok")
    state = box.match.view(None)["state"]
    assert (state["round"], state["scores"], state["last"]["reason"]) == (2, [1, 0], "push")


def test_the_lobby_offers_mole(box_factory):
    box = box_factory(game=None, seats=None)
    games = box.session.state.lobby.games
    box.play(f"1 hole{games.index('mole') + 1}\n1 ok\n1 ok\n1 ok")          # the game, setup, players
    assert (box.match.header.game, box.match.header.seats) == ("mole", 2)


def test_a_mole_seat_can_be_played_on_a_phone_from_the_lobby():
    from companion.table import Lobby, Start

    lobby = Lobby.open(2, 2, frozenset(), game="mole")
    for control in ("ok", "ok", "hole2", "hole4"):               # setup, players, seat 2, on a phone
        lobby, _ = lobby.tap(1, control)
    assert lobby.phones == {2}
    assert lobby.tap(1, "ok")[1] == Start("mole", 2, "virtual", "virtual")


def test_the_cli_plays_the_whole_match(tmp_path, capsys):
    from companion.cli import main

    out = tmp_path / "out"
    assert main(["sim", "--game", "mole", "--seed", str(SEED), "--script", str(SCRIPT), "--out", str(out),
                 "--name", "1=Ada", "--name", "2=Bob"]) == 0
    assert json.loads(capsys.readouterr().out) == list(FINAL)
    state = json.loads((out / "state.json").read_text())
    assert state["view"]["winners"] == [2] and len(state["view"]["state"]["rounds"]) == len(ROUNDS)
    for display in displays(2):
        golden = Image.open(GOLDEN / f"mole-match-end-{display}.png").convert("1")
        assert ImageChops.difference(Image.open(out / f"{display}.png").convert("1"), golden).getbbox() is None


def test_every_question_and_answer_fits_the_smallest_oled_uncut():
    """Each question has a wording that fits one line of the prompt on a 0.96" glass, each answer one that fits
    an option's line with its button (random matches under every setting)."""
    import random

    from companion.render.oled import MARGIN, WIDTH, face
    from companion.render.reading import SMALLEST
    from companion.render.screen import wordings
    from rules.match import Header

    seen = {}
    for settings in ({}, {"loup_line": True, "protection": "edges", "loup_cross": "lose"}):
        rng = random.Random(5)
        m = Match(Header("mole", 2, settings))
        while not m.over:
            for d in m.open_decisions():
                seen[(d.key.split("-")[0], d.prompt)] = d.labels or tuple(str(o) for o in d.options)
            d = m.decisions_for(m.view(None)["state"]["flicker"])[0]      # no push claims: long rounds
            m.submit(d.seat, d.key, random_answer(d, rng))
    assert ("protected", "Partly or fully in Rosserie or the circle?") in seen and ("start", "Crossed from where?") in seen
    prompt, option = face(SMALLEST, "prompt"), face(SMALLEST, "option")
    for (key, asked), labels in seen.items():
        if key == "push":
            continue                                    # the waiting seat's claim: its prompt says who flicks
        assert any(prompt.width(w) <= WIDTH - 2 for w in (asked, *mole.ASKS[key])), asked
        for label in labels:
            assert any(option.width(f"5 {w}") <= WIDTH - 2 * MARGIN for w in wordings(mole._words(label))), label


@pytest.mark.parametrize("settings", [{}, {"mignettes": 5, "loup_line": True, "first_mole": 2},
                                      {"mignettes": 1, "target": 3, "margin": 1}])
def test_every_screen_of_random_matches_draws_and_the_lamps_follow_the_question(settings):
    """Random reports under other settings: every OLED and table frame draws, and lamps light only answers."""
    import random

    from companion.table.drafts import Draft
    from rules.match import Header

    rng = random.Random(3)
    m = Match(Header("mole", 2, settings))
    while not m.over:
        view = m.view(None)
        for seat in (1, 2):
            decision = next(iter(m.decisions_for(seat)), None)
            draft = Draft().follow(decision)
            mole.seat(m.view(seat), draft.summary(decision))
            lit = [h for h, lamp in enumerate(mole.lamps(view, seat, False), 1) if lamp.value != "off"]
            if seat == view["state"]["flicker"] and decision is not None:
                answers = draft.summary(decision)["holes"]
                assert lit == [h for h in range(1, 6) if answers and answers[h - 1] is not None], decision
            else:
                assert lit == []
        mole.table(view)
        seat = rng.choice(sorted({d.seat for d in m.open_decisions()}))
        d = m.decisions_for(seat)[0]
        if d.key == "push" and rng.random() < 0.9:
            continue
        m.submit(seat, d.key, random_answer(d, rng))
    assert m.over
    mole.table(m.view(None))
