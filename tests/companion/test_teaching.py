"""A taught game (docs/teaching.md): on for newcomers, the journal knowing who has finished which game; each rule's
why the first time it fires, on the seat it concerns and in the room's turn list, never again; what a decision means
until the seat has answered one like it; a hint from the strong computer player on the seat's own screen alone."""
from __future__ import annotations

import json
import random
import re

import pytest

from companion import scene
from companion.render import describe, for_game, how, mole_park, turns, tv
from companion.render.screen import wordings
from companion.table import decide
from companion.table.moves import Act
from companion.table.state import GOAL_S
from rules import bots, registry
from rules.match import Header, Match
from tests.random_play import random_answer

NAMES = {1: "Adelheid", 2: "Bartholomew", 3: "Cy"}
TURN = "1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole1\n2 ok\n2 hole5\n2 ok\n3 hole1\n3 ok\n3 hole5\n3 ok"   # three misses


def lines(box, seat: int) -> list[str]:
    """Every line of the seat's screen, in its longest wording (what its phone shows), once a new game's goal has
    had its moment."""
    if box.clock() < box.session.state.started_at + GOAL_S:
        box.play(f"wait {int(GOAL_S * 1000)}", settle=False)
    render_fn, *args = scene.screens(box.session.scene())[f"seat{seat}"]
    return [wordings(line)[0] for line in describe(render_fn, tuple(args)).lines]


def whys(said: list[str]) -> list[str]:
    return [line for line in said if line.startswith("Because")]


def test_a_table_with_a_newcomer_is_taught_and_one_that_has_finished_the_game_is_not(box_factory, tmp_path):
    db = tmp_path / "journal.db"
    box = box_factory("whakka-mole", 2, db=db, settings={"target": 3})
    assert box.session.state.teaching                      # nobody named: the box cannot tell, so it teaches
    box.name_players({1: "Adelheid", 2: "Bartholomew"})
    box.play("1 hole1\n1 hole2\n1 hole3\n1 ok\n1 hole5\n1 ok\n2 hole1\n2 hole2\n2 hole3\n2 ok\n2 hole5\n2 ok")
    assert box.match.over and box.session.state.veterans == {("whakka-mole", "Adelheid"),
                                                              ("whakka-mole", "Bartholomew")}
    box.play("1 ok")                                      # the same game again: both have finished it
    assert not box.session.state.teaching
    box.pull_plug()
    again = box_factory("whakka-mole", 2, db=db)           # the journal remembers after a restart
    assert ("whakka-mole", "Adelheid") in again.session.state.veterans


def test_the_host_turns_teaching_on_and_off(box_factory):
    box = box_factory("whakka-mole", 3)
    assert box.session.host("skip-teaching") is None and not box.session.state.teaching
    assert not whys(lines(box, 1)) and not any("hint" in line for line in lines(box, 1))
    assert box.session.host("teach") is None and box.session.state.teaching
    assert "Hold 5 for a hint" in lines(box, 1)


def test_each_rule_is_told_why_the_first_time_it_fires_and_never_again(box_factory):
    box = box_factory("whakka-mole", 3)
    box.name_players(NAMES)
    means = wordings(how.means("whakka-mole", "popup"))[0]
    assert means in lines(box, 1)                          # what popping up means, before the seat has done it
    box.play(TURN)
    said = lines(box, 1)
    assert whys(said) == [wordings(how.because("whakka-mole", kind))[0] for kind in ("whack", "score")][-2:]
    assert means not in said                               # answered once: the seat knows
    view = tv.named(box.session.public())
    first, = turns.told(view, box.session.public()["log"])
    assert [line for line in first["lines"] if line.startswith("Because")] == [
        wordings(how.because("whakka-mole", kind))[0] for kind in ("popup", "whack", "score")]
    box.play(TURN)
    assert not whys(lines(box, 1))
    second = turns.told(view | {"teaching": True}, box.session.public()["log"])[1]
    assert not [line for line in second["lines"] if line.startswith("Because")]


def test_mole_park_says_why_no_prize_was_won():
    event = {"kind": "no_prize", "seat": 1, "total": 11, "least": 15}
    assert mole_park.tell({"game": "mole-park", "names": {}}, event) == \
        "won no prize at 11 stars: the cheapest prize asks 15"


def test_a_hint_is_the_strong_computer_s_pick_on_the_seat_s_own_screen_alone(box_factory):
    asked, quiet = box_factory("whakka-mole", 3, seed=2), box_factory("whakka-mole", 3, seed=2)
    heard: tuple[list, list] = ([], [])

    def hear(said: list, kind: str, payload) -> None:
        """The public state and the other displays' screens, as anyone but seat 2 may hear them (a repeat dropped)."""
        if kind == "state" or kind == "screen" and payload[0] != "seat2":
            told = json.dumps(payload if kind == "state" else payload[::2], sort_keys=True, default=repr)
            if said[-1:] != [told]:
                said.append(told)
    for box, said in zip((asked, quiet), heard):
        box.session.feed.subscribe(lambda kind, payload, said=said: hear(said, kind, payload))
    asked.press(2, "hole5", hold=True)
    quiet.press(2, "hole5")
    decision = asked.match.decisions_for(2)[0]
    pick = bots.make(asked.match.game, 2, "strong", asked.session.state.seed).choose(asked.match.view(2), decision)
    assert sorted(asked.session.state.drafts[2].value) == sorted(pick)
    assert wordings(asked.session.state.notices[2].words)[0] == "Hint: the strong computer's pick. OK takes it"
    for name in ("seat1", "seat3", "table"):
        assert asked.pixels(name) == quiet.pixels(name), name
    assert {seat: lit for seat, lit in asked.session.lamps.lit().items() if seat != "seat2"} == \
        {seat: lit for seat, lit in quiet.session.lamps.lit().items() if seat != "seat2"}
    assert json.dumps(asked.session.public(), sort_keys=True) == json.dumps(quiet.session.public(), sort_keys=True)
    assert heard[0] == heard[1] and heard[0]
    asked.play("2 ok")                                      # OK takes it
    assert asked.match.held[2]["popup"] == tuple(sorted(pick))


def test_no_hint_outside_a_taught_game_or_where_no_computer_can_be_asked(box_factory):
    box = box_factory("whakka-mole", 3)
    box.session.host("skip-teaching")
    box.press(2, "hole5", hold=True)
    assert box.session.state.drafts[2].value == {5} and 2 not in box.session.state.notices    # a tap, no more
    mole = box_factory("mole", 2)
    assert mole.session.state.teaching
    mole.press(2, "hole5", hold=True)
    assert wordings(mole.session.state.notices[2].words)[0] == "no computer player to ask in this game"


def test_the_teach_action_is_pure(box_factory):
    box = box_factory("whakka-mole", 3)
    state = box.session.state
    after, effects = decide(state, Act("skip-teaching"))
    assert state.teaching and not after.teaching


def first_rounds():
    """Every game at its smallest and largest seat count."""
    for game_id in registry.ids():
        cls = registry.game_class(game_id)
        for seats in sorted({cls.min_seats, cls.max_seats}):
            yield game_id, seats


@pytest.mark.parametrize("game_id, seats", list(first_rounds()))
def test_a_taught_first_round_says_how_to_play_first_and_each_rule_s_why_once(game_id, seats):
    """Random legal play, as first-timers press (tests/random_play.py), through three turns: before the first
    decision the room reads the goal and how you score; each kind of event the turns met is told why once, in
    the turn it first happened, and never again."""
    match = Match(Header(game_id, seats, seed=seats))
    public = {"mode": "play", "view": match.view(None), "names": {}, "bots": {}, "teaching": True, "log": []}
    said = how.told(game_id)
    before = [line for turn in tv.describe(public, [])["turns"] for line in turn["lines"]]
    assert said["goal"] in before and all(line in before for line in said["scoring"])
    rng = random.Random(game_id)
    while not match.over and len(turns.starts(for_game(game_id), match.public_log())) < 4:
        seat = min(d.seat for d in match.open_decisions())
        decision = match.decisions_for(seat)[0]
        match.submit(seat, decision.key, random_answer(decision, rng))
    log = match.public_log()
    told = turns.told({**match.view(None), "names": {}, "teaching": True}, log)
    whys = [(number, line) for number, turn in enumerate(told) for line in turn["lines"] if line.startswith("Because")]
    kinds = {event["kind"] for event in log if how.because(game_id, event["kind"])}
    assert kinds and sorted(line for _, line in whys) == sorted(wordings(how.because(game_id, kind))[0]
                                                                for kind in kinds)
    edges = turns.starts(for_game(game_id), log) + [len(log)]
    for number, line in whys:               # in the turn holding the kind's first event
        kind = next(kind for kind in kinds if wordings(how.because(game_id, kind))[0] == line)
        first = next(i for i, event in enumerate(log) if event["kind"] == kind)
        assert edges[number] <= first < edges[number + 1], (kind, number)
    explains_each_word_once_where_it_is_first_said(game_id, told)


def explains_each_word_once_where_it_is_first_said(game_id: str, told: list[dict]) -> None:
    """Each of the rule text's own words is explained in the turn that first says it, after what it says, and never
    again; a word no turn says is not explained."""
    words = dict(how.jargon(game_id))
    said = [(number, line) for number, turn in enumerate(told) for line in turn["lines"] if line not in words.values()]
    explained = [(number, line) for number, turn in enumerate(told) for line in turn["lines"] if line in words.values()]
    firsts = {term: next((number for number, line in said if re.search(rf"\b{re.escape(term)}", line, re.I)), None)
              for term in words}
    assert sorted(explained) == sorted((number, words[term]) for term, number in firsts.items() if number is not None)
    assert all(turn["lines"][-len(turn["terms"]):] == [words[term] for term in turn["terms"]]
               for turn in told if turn["terms"])


def test_the_rules_own_words_are_explained_where_a_taught_game_first_says_them_and_told_alike_from_any_turn():
    """A taught Mole (the game of most words: Nasdaq, mignettes...) told whole, and from each turn on as the streams
    tell it (the words the turns before explained known): the same turns; told untaught, no word explained."""
    match = Match(Header("mole", 2, seed=2))
    rng = random.Random(2)
    while not match.over and len(turns.starts(for_game("mole"), match.public_log())) < 6:
        seat = min(d.seat for d in match.open_decisions())
        decision = match.decisions_for(seat)[0]
        match.submit(seat, decision.key, random_answer(decision, rng))
    view, log = {**match.view(None), "names": {}, "teaching": True}, match.public_log()
    told = turns.told(view, log)
    assert sum(len(turn["terms"]) for turn in told) >= 3
    for first in range(len(told)):
        assert turns.told(view, log, first, [term for turn in told[:first] for term in turn["terms"]]) == told[first:]
    assert not any(turn["terms"] for turn in turns.told({**view, "teaching": False}, log))
