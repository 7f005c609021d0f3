"""Mole Park on the box: whole games pressed through the mock pins, checked by hand, to the pixel.

The scripts (tests/companion/scripts/mole-park-*.txt) carry a comment for everything the table saw;
the results below were worked out from those comments with the rules (docs/rules/mole-park.md).
"""
from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops

from companion import scene
from companion.render import mole_park, reveal
from companion.journal.records import Reader
from rules.match import Match
from tests.companion.golden import GOLDEN, assert_frames_match, displays
from tests.companion import scripted
from tests.companion.mole_park_scripts import GAMES
from tests.companion.scripted import SCRIPTS, box_for, script


#: Moments of each game whose every display is kept as a golden image: the script is played up to
#: (not including) the first line equal to the marker.
CHECKPOINTS = {
    "mole-park-2seat": {
        "miss": "# S1 roll-1-mallet: X",                    # a physical Mallet roll, starting on X
        "discard": "# S1 discard: 1",                       # six moles in hand, one must go
        "crown": "# S2 crown: Pass",                        # S1 has declared; S2 may respond
    },
    "mole-park-5seat": {
        "prize": "# S1 prize: King Mole's Stash 35",        # all six stands affordable: hole 1/2 step
        "crown": "# S4 crown: Go for the Crown",            # S1 and S3 declared; S4 answers last
    },
    "mole-park-8seat": {
        "order": "# S1 order: Seat 7",                      # King Mole breaks a 24-24 tie
    },
}

# Worked out by hand from the scripts' comments:
#
# 2 seats, physical dice and cards, seed 0.
#   R1: both Gloves land on hole 4 (1 mole): 2 dice, 0 each, the mole stays (the 5-mole split rule).
#   R4: S1 holds 6 moles and discards a 1; S2 cashes 2+3+4+5+5 + die 3 = 22: Inflation Station (20).
#   R8: S1 declares with 1 3 4 5 5 (18) + die 1 + prizes 20 = 39 < 40: nothing, the moles are discarded.
#       S2 cashes 1+1+3+4+4 (13) + die 1 + 20 = 34: The Dugout (30), S2 at 50 stars.
#   R11: S1 passes, S2 declares, so S1 is asked again and passes again. S2 declared with 1+1+2+3+4 (11)
#       + die 1 + 50 = 62: the crown. S1 (20 stars) cashed 37 but nobody picks when the crown is won.
# 5 seats, virtual, seed 6. R14: S1 (5 + 3 + 55 = 63), S3 (3+4 + 1 + 40 = 48) and S4 (2 + 3 + 45 = 50)
#   all reach 40: the Showdown. Three moles a hole; hole 1 gets four dice (S1 pan, S3 pan, S4 glove and
#   pan): nobody takes any; hole 2 S3's glove alone: 3 moles; hole 3 S4's mallet alone: 3; hole 4 S1's
#   glove and mallet: 1 each, 1 stays; hole 5 nobody. S1 1+3 + die 2 = 6, S3 1+1+3 + 4 = 9,
#   S4 1+2+2 + 3 = 8: S3 is King Mole, though S1 has the most prize stars (55).
# 8 seats, virtual, seed 2. Two moles a hole. R11: S7 and S8 tie at 24; King Mole (S1) lets S7 pick
#   first: Inflation Station (20), then S8 Burrowed Treasures (15). R12: S1 passes, then is asked again
#   after each of S4's and S5's declarations and passes twice more. S4 declares with 2+2+2+3 + die 2
#   + 40 = 51 and wins; S5 declares with 1+1+2+2 + die 1 + 30 = 37 and falls short.
EXPECTED = {
    "mole-park-2seat": {"winner": 2, "stars": [20, 50], "prizes": [[3], [3, 5]], "hands": [[], []],
                        "left": [10, 10, 8, 10, 9, 10], "failed": [(1, 39)], "round": 11},
    "mole-park-5seat": {"winner": 3, "stars": [55, 15, 40, 45, 0],
                        "prizes": [[3, 6], [2], [2, 4], [2, 5], []],
                        "hands": [[], [1, 2, 2, 4, 4], [], [], []],
                        "left": [10, 7, 9, 9, 9, 9], "failed": [], "round": 14,
                        "showdown": {1: 6, 3: 9, 4: 8}},
    "mole-park-8seat": {"winner": 4, "stars": [15, 10, 10, 40, 30, 10, 30, 25],
                        "prizes": [[2], [1], [1], [2, 4], [1, 3], [1], [1, 3], [1, 2]],
                        "hands": [[], [], [2, 3, 4, 4, 5], [], [], [1, 3], [1, 2, 2, 3, 4], []],
                        "left": [4, 7, 8, 9, 10, 10], "failed": [(5, 37)], "round": 12},
}


@pytest.fixture(params=list(GAMES))
def played(request, box_factory):
    return scripted.played(box_factory, request.param, CHECKPOINTS[request.param])


def test_each_game_ends_as_worked_out_by_hand(played):
    expected, name = EXPECTED[played.name], played.name
    state = played.match.view(None)["state"]
    assert played.match.over and state["winner"] == expected["winner"] == state["king_mole"]
    assert list(played.match.result().scores) == expected["stars"]
    assert [s["prizes"] for s in state["seats"]] == expected["prizes"]
    assert [played.match.view(s)["state"]["hand"] for s in range(1, len(expected["hands"]) + 1)] == expected["hands"]
    assert [s["left"] for s in state["stands"]] == expected["left"]
    assert state["round"] == expected["round"]
    events = played.match.events_for(None, played.match.events)
    assert [(e["seat"], e["total"]) for e in events if e["kind"] == "crown_failed"] == expected["failed"]
    assert [e["seat"] for e in events if e["kind"] == "crown_won"] == [expected["winner"]]
    showdown = {e["seat"]: e["total"] for e in events if e["kind"] == "showdown_score"}
    assert showdown == expected.get("showdown", {}), name


def test_every_display_matches_its_golden_image_at_every_checkpoint(played, tmp_path):
    assert_frames_match(played.frames, played.name, tmp_path)


def test_the_crown_lights_king_moles_lamps_and_nobody_elses(played):
    winner = EXPECTED[played.name]["winner"]
    for seat in range(1, played.match.header.seats + 1):
        assert played.lamps(seat) == ["on" if seat == winner else "off"] * 5


def test_the_transcript_replays_to_the_same_game(played):
    assert Match.replay(played.match.transcript()).view(None) == played.match.view(None)


def test_physical_dice_and_cards_are_entered_on_the_panels_and_journaled(box_factory, tmp_path):
    box = box_for(box_factory, "mole-park-2seat", db=tmp_path / "journal.db")
    box.play(script("mole-park-2seat"))
    header = box.match.transcript()["header"]
    assert (header["dice"], header["cards"]) == ("physical", "physical")
    records = box.match.transcript()["records"]
    assert not [r for r in records if r["seat"] is None]              # the box drew nothing itself
    entered = [r["key"] for r in records if r["key"].startswith(("roll-", "mole-"))]
    assert entered[:4] == ["roll-1-glove", "roll-2-glove", "roll-1-glove", "roll-2-glove"]
    finished = Reader.open(tmp_path / "journal.db").finished_games()
    assert [g["winners"] for g in finished] == [[2]] and finished[0]["game"] == "mole-park"


def test_a_printed_card_the_box_counted_none_of_is_taken_on_the_panel(box_factory):
    """The deck's make-up is the box's guess: with one 5 assumed, a table's second 5 is entered all the same."""
    box = box_factory(game="mole-park", seats=2, settings={"deck": "1:100 5:1"}, dice="physical", cards="physical")
    box.play("1 hole1\n1 ok\n2 hole2\n2 ok\n1 hole1\n1 ok\n2 ok\n1 hole5\n1 ok")   # S1's Glove on hole 1: a 5
    assert box.match.state.unseen[5] == 0
    box.play("1 hole1\n1 ok\n2 hole2\n2 ok\n1 hole2\n1 ok\n2 ok")                  # hole 2 holds two moles
    box.play("1 hole5", settle=False)
    assert box.session.scene().notices.get(1, "") == ""
    box.play("1 ok\n1 hole1\n1 ok")
    assert box.match.view(1)["state"]["hand"] == [1, 5, 5] and box.match.view(None)["state"]["round"] == 3


def test_a_seat_that_passed_is_asked_again_on_its_panel_when_another_declares(box_factory):
    """R11 of the two-seat game: S1 passes, S2 goes for the Crown, and S1's panel asks again."""
    lines = script("mole-park-2seat").splitlines()
    box = box_for(box_factory, "mole-park-2seat")
    box.play("\n".join(lines[:lines.index("# S2 crown: Go for the Crown")]))
    assert box.match.decisions_for(1) == [] and box.lamps(1) == ["off"] * 5
    box.play("2 hole2\n2 ok")
    (d,) = box.match.decisions_for(1)
    assert (d.key, d.options) == ("crown", ("pass", "declare"))
    assert box.lamps(1) == ["dim", "dim", "off", "off", "off"]
    assert box.match.view(None)["state"]["seats"][0]["crown"] == "passed"


def test_dice_physical_with_cards_virtual_asks_only_for_the_rolls(box_factory):
    box = box_factory(game="mole-park", seats=2, seed=0, dice="physical", cards="virtual")
    box.play("1 hole1\n1 ok\n2 hole1\n2 ok\n1 hole1\n1 ok\n2 hole3\n2 ok")      # Gloves on holes 1 and 3
    records = box.match.transcript()["records"]
    assert [r["key"] for r in records if r["seat"] is None] == ["mole-1", "mole-2"]   # the box drew the cards
    assert [len(box.match.view(s)["state"]["hand"]) for s in (1, 2)] == [1, 1]


def test_the_picks_show_then_the_virtual_dice_tumble_then_they_land(box_factory):
    box = box_factory(game="mole-park", seats=3, seed=4)
    box.play("1 hole1\n1 ok\n2 hole2\n2 ok\n3 hole3\n3 ok", settle=False)
    view = box.match.view(None)
    assert view["state"]["round"] == 2                      # the dice are rolled and the next round dealt
    picks = next(e for e in reversed(box.match.public_log()) if e["kind"] == "reveal")["picks"]
    assert box.pixels("table") == reveal.picks(view, picks).tobytes()
    picked = [["on" if die == picks[seat]["die"] else "off" for die in ("glove", "pan", "mallet")] + ["off"] * 2
              for seat in (1, 2, 3)]
    assert [box.lamps(seat) for seat in (1, 2)] == picked[:2]          # each seat's die, not where the dice land
    box.clock.advance(scene.PICKS_S)
    box.session.pump()
    assert [box.lamps(seat) for seat in (1, 2, 3)] == picked           # nor while they tumble
    rolling = box.pixels("table")
    assert rolling in [mole_park.rolling(view, frame).tobytes() for frame in range(4)]
    box.clock.advance(scene.ROLL_S)
    box.session.pump()
    assert box.pixels("table") == mole_park.table(view).tobytes() != rolling
    landed = [[lamp.value for lamp in mole_park.lamps(view, seat, True)] for seat in (1, 2, 3)]
    assert [box.lamps(seat) for seat in (1, 2, 3)] == landed != picked  # then the holes the dice landed on


def test_physical_dice_land_as_the_picks_give_way(box_factory):
    box = box_for(box_factory, "mole-park-2seat")
    box.play("1 hole1\n1 ok\n2 hole1\n2 ok\n1 hole4\n1 ok\n2 hole4\n2 ok", settle=False)
    box.clock.advance(scene.PICKS_S)
    box.session.pump()
    assert box.pixels("table") == mole_park.table(box.match.view(None)).tobytes()


def test_the_lobby_sets_dice_and_cards_on_seat_ones_panel(box_factory):
    box = box_factory(game=None, seats=None)
    games = box.session.state.lobby.games
    box.play(f"1 hole{games.index('mole-park') + 1}\n1 ok\n1 hole2\n1 hole4")
    box.session.screens.worker.flush()
    assert box.session.state.lobby.view()["cards"] == "physical"
    box.play("1 ok\n1 ok")
    header = box.match.header
    assert (header.game, header.seats, header.dice, header.cards) == ("mole-park", 3, "virtual", "physical")


def test_a_wrong_hole_blinks_and_says_why_on_that_seat_only(box_factory):
    box = box_for(box_factory, "mole-park-2seat")
    before = box.pixels("seat2"), box.pixels("table")
    box.press(1, "hole5")                       # three dice before anyone holds a mole
    box.clock.advance(0.2)
    box.session.pump()
    assert box.session.scene().notices[1] == "only 3 choices" and box.lamps(1) == ["fast"] * 5
    assert (box.pixels("seat2"), box.pixels("table")) == before
    box.clock.advance(1)
    box.session.pump()
    assert box.lamps(1) == ["dim", "dim", "dim", "off", "off"]      # Glove, Pan, Mallet
    box.play("1 hole3\n1 ok\n2 hole3\n2 ok\n1 hole1")              # both Mallets; no 1 on a Mallet
    assert box.session.scene().notices[1] == "hole 1 cannot be chosen"
    assert box.match.view(None)["state"]["phase"] == "roll"


def test_the_cli_plays_a_five_seat_game_to_its_showdown(tmp_path, capsys):
    from companion.cli import main

    out = tmp_path / "out"
    assert main(["sim", "--game", "mole-park", "--seats", "5", "--seed", "6",
                 "--script", str(SCRIPTS / "mole-park-5seat.txt"), "--out", str(out)]) == 0
    assert json.loads(capsys.readouterr().out) == EXPECTED["mole-park-5seat"]["stars"]
    state = json.loads((out / "state.json").read_text())
    assert state["view"]["winners"] == [3] and state["view"]["state"]["showdown"] == [1, 3, 4]
    for display in displays(5):
        golden = Image.open(GOLDEN / f"mole-park-5seat-end-{display}.png").convert("1")
        assert ImageChops.difference(Image.open(out / f"{display}.png").convert("1"), golden).getbbox() is None


def test_the_cli_journals_physical_cards(tmp_path, capsys):
    from companion.cli import main

    db = tmp_path / "j.db"
    assert main(["sim", "--game", "mole-park", "--seats", "2", "--dice", "physical", "--cards", "physical",
                 "--script", str(SCRIPTS / "mole-park-2seat.txt"), "--out", str(tmp_path / "o"),
                 "--db", str(db)]) == 0
    header = json.loads((tmp_path / "o" / "transcript.json").read_text())["header"]
    assert header["cards"] == "physical" and header["dice"] == "physical"
    assert Reader.open(db).finished_games()[0]["winners"] == [2]


# ---- non-interference: nothing a seat keeps secret reaches another seat's pixels or any lamp ----------

def _same_to_everyone_else(a, b, seat: int) -> None:
    assert json.dumps(a.session.public(), sort_keys=True) == json.dumps(b.session.public(), sort_keys=True)
    others = [n for n in displays(a.match.header.seats) if n != f"seat{seat}"]
    for name in others:
        assert a.pixels(name) == b.pixels(name), name
    for other in range(1, a.match.header.seats + 1):
        if other != seat:
            assert a.match.view(other) == b.match.view(other)
    assert a.session.lamps.lit() == b.session.lamps.lit()
    assert _drawn_large(a, f"seat{seat}") != _drawn_large(b, f"seat{seat}")   # the seat itself sees its own secret


def _drawn_large(box, name: str) -> bytes:
    """A display's frame drawn for a 2.42" glass, which has room for the seat's hand beside its question (a 0.96"
    one shows the question and its options, the hand once it waits: docs/scene.md)."""
    render, *args = box.session.screens._shown[name]
    return render(*args[:-1], scene.panel_of("ssd1309")).tobytes()


@pytest.mark.parametrize("pick_a, pick_b", [
    ("1 hole1\n1 ok", "1 hole3\n1 ok"),             # Glove or Mallet, locked in
    ("1 hole2", "1 hole3"),                          # still drafting
])
def test_a_die_pick_changes_nothing_for_the_others_before_the_reveal(box_factory, pick_a, pick_b):
    a, b = (box_factory(game="mole-park", seats=3, seed=4) for _ in range(2))
    for box, pick in ((a, pick_a), (b, pick_b)):
        box.play("2 hole2\n2 ok\n" + pick)
        box.clock.advance(2)
        box.session.pump()
    _same_to_everyone_else(a, b, seat=1)


def test_the_stars_of_a_hand_never_reach_another_seat(box_factory):
    """With physical cards seat 1 enters a 5 in one box and a 1 in the other: only its own OLED differs."""
    lines = script("mole-park-2seat").splitlines()
    prefix = "\n".join(lines[:lines.index("# S1 mole-1: 5")])
    a, b = (box_for(box_factory, "mole-park-2seat") for _ in range(2))
    for box, stars in ((a, 5), (b, 1)):
        box.play(f"{prefix}\n1 hole{stars}\n1 ok")
        box.clock.advance(2)
        box.session.pump()
    assert a.match.view(1)["state"]["hand"] == [5] and b.match.view(1)["state"]["hand"] == [1]
    _same_to_everyone_else(a, b, seat=1)
