"""How to play, where a table first meets a game: the lobby says each game's goal, seats and length; every seat's
screen says the goal during the first turn, and no longer; ``molebox variants`` and the rules docs' first section
say the same words (the rules' own, :data:`rules.how_to_play.HOW_TO_PLAY`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion import cli, scene
from companion.table.state import GOAL_S
from companion.render import describe, for_game, how, oled
from companion.render.screen import wordings
from rules import registry
from rules.how_to_play import HOW_TO_PLAY
from rules.match import Header, Match
from tests.companion.test_layout import PANELS

GAMES = [module.rsplit(".", 1)[1].replace("_", "-") for module in registry.MODULES]
ROOT = Path(__file__).resolve().parents[2]


def test_every_game_is_taught_in_whole_short_sentences():
    assert sorted(HOW_TO_PLAY) == sorted(registry.games())
    for game_id, taught in HOW_TO_PLAY.items():
        assert 2 <= len(taught.turn) <= 5 and 1 <= len(taught.scoring) <= 3, game_id
        assert len(taught.buttons) <= 40, game_id
        assert oled.fitted(oled.face(PANELS[-1], "body"), how.goal(game_id)[-1], oled.WIDTH - 2 * oled.MARGIN)[1]
        said = how.told(game_id)
        assert all(len(sentence) <= 110 for sentence in (said["goal"], *said["scoring"], *said["turn"])), game_id
        assert taught.minutes[0] < taught.minutes[1], game_id


@pytest.mark.parametrize("game_id", sorted(HOW_TO_PLAY))
def test_the_rules_doc_and_molebox_variants_begin_with_the_same_words(game_id, capsys):
    doc = (ROOT / registry.get(game_id).doc).read_text()
    section = doc.split("\n## How to play\n\n", 1)[1].split("\n## ", 1)[0]
    said = [line for line in section.splitlines() if line]
    assert said == [line for line in how.lines(game_id) if line], f"docs/rules: run `make how-to-play` ({game_id})"
    assert cli.main(["variants", game_id]) == 0
    printed = capsys.readouterr().out
    assert "\n".join(how.lines(game_id)) in printed and printed.index(how.told(game_id)["goal"]) < printed.index("=")


def test_the_lobby_says_each_game_s_goal_seats_and_length(box_factory):
    box = box_factory(game=None, seats=None)
    for index, game_id in enumerate(box.session.state.lobby.view()["ids"][:5]):
        box.play(f"1 hole{index + 1}", settle=False)
        render_fn, *args = scene.screens(box.session.scene())["seat1"]
        lines = describe(render_fn, tuple(args)).lines
        assert lines == (how.goal(game_id), how.size(game_id)), game_id
        assert "minutes" in how.size(game_id)


def test_a_new_game_shows_each_seat_its_goal_and_buttons_until_its_first_press_or_a_moment(box_factory):
    box = box_factory("whakka-mole", 3, settings={"target": 12})

    def shown(seat: int):
        return scene.screens(box.session.scene())[f"seat{seat}"]

    card = describe(*shown(2)[:1], tuple(shown(2)[1:]))
    assert wordings(card.title)[0] == "Seat 2: the goal" and wordings(card.prompt)[0] == \
        "Most points when someone reaches 12"
    assert wordings(card.lines[0])[0] == "1-5 pop up or whack, OK lock in"
    for panel in PANELS:                                 # the goal whole on every glass, the 0.96" too
        with oled.recording() as placed:
            shown(2)[0](*shown(2)[1:-1], panel)
        prompts = [" ".join(p["lines"]) for p in placed if p["role"] == "prompt"]
        assert len(prompts) == 1 and prompts[0] in wordings(card.prompt) and all(p["whole"] for p in placed), panel
    kept, *args = scene.kept(box.session.scene(), 2)     # what an OK as its first press keeps while it is saved
    assert kept is how.goal_card and describe(kept, (*args, "saving...", PANELS[0])).notice == "saving..."
    kept(*args, "saving...", PANELS[0])
    box.press(1, "hole1")                                # a seat that presses has read it: its question
    assert shown(1)[0] is not how.goal_card and shown(2)[0] is how.goal_card
    box.play(f"wait {int(GOAL_S * 1000)}", settle=False)
    assert shown(2)[0] is not how.goal_card


def test_a_seat_s_screen_says_the_goal_during_the_first_turn_and_then_no_longer(box_factory):
    box = box_factory("whakka-mole", 3)

    def last_line(seat: int) -> str:
        render_fn, *args = scene.screens(box.session.scene())[f"seat{seat}"]
        return wordings(describe(render_fn, tuple(args)).lines[-1])[0] if describe(render_fn, tuple(args)).lines else ""

    goal = wordings(how.goal("whakka-mole"))[0]
    box.play(f"wait {int(GOAL_S * 1000)}")               # the goal's moment over: the question, the goal under it
    assert all(last_line(seat) == goal for seat in (1, 2, 3))
    box.play("\n".join(f"{s} hole1\n{s} ok\n{s} hole5\n{s} ok" for s in (1, 2, 3)))       # the first turn
    assert box.match.view(None)["state"]["turn"] == 2
    assert not any(last_line(seat) == goal for seat in (1, 2, 3))


def test_a_turn_the_box_plays_alone_is_no_player_s_first():
    """Mouse Madness moves every mouse off the start by itself (a forced move): the table is still to play its first
    turn, and is taught until it has."""
    match = Match(Header("mouse-madness", 3, seed=1))
    game = for_game("mouse-madness")
    assert any(event.get("forced") for event in match.public_log()) and how.first_turn(game, match.public_log())
    while how.first_turn(game, match.public_log()):
        decision = next(iter(match.open_decisions()))
        match.submit(decision.seat, decision.key, decision.options[0])
    assert any(event["kind"] == "move" and not event.get("forced") for event in match.public_log()) or \
        any(event["kind"] in ("push", "jump") for event in match.public_log())
