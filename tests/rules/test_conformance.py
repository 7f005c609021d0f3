"""What every registered game does, whatever game it is: a sixth game gets all of this by registering.

Over the registry (:mod:`rules.registry`), at every seat count the game takes, from several seeds,
with virtual and with physical dice and cards: random legal play reaches the end; every answer
given is one a player can give on the panel's buttons; every view is JSON; the transcript replays
to the same views; a clone is independent of its original; a seat's unrevealed pick changes no
other seat's view, nor the public one; the box's screens for the game draw every view they are
given; and the rules doc it registers says every variant setting.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion import render
from companion.table.drafts import Draft
from companion.lamps import Lamp
from rules import registry
from rules.match import Header, Match
from rules.model import Kind, Move
from rules.settings import load_specs
from tests.conforms import problems
from tests.presses import presses_for
from tests.random_play import random_answer

ROOT = Path(__file__).parents[2]
SEEDS = 2
MAX_DECISIONS = 4000        # Mouse Madness with six always pushing can run long; random play never should
DRAW_EVERY = 7              # every 7th position (and the last) is drawn and its views read as JSON
GAMES = registry.ids()


def seat_counts(game_id: str) -> range:
    cls = registry.game_class(game_id)
    return range(cls.min_seats, cls.max_seats + 1)


def views(match: Match) -> dict:
    return {seat: json.dumps(match.view(seat), sort_keys=True)
            for seat in [None, *range(1, match.header.seats + 1)]}


def draw(match: Match, fresh: bool) -> None:
    """The game's screens for this position: every seat's OLED with its draft (and, ``fresh``, told the last few
    events as news), the table, the lamps."""
    screens = render.for_game(match.header.game)
    public = match.view(None)
    for seat in range(1, match.header.seats + 1):
        decision = next(iter(match.decisions_for(seat)), None)
        view = {**match.view(seat), "news": match.events_for(seat, match.events[-8:])} if fresh else match.view(seat)
        image = screens.seat(view, Draft().follow(decision).summary(decision), "a notice")
        assert image.size == (128, 64)
        assert all(isinstance(lamp, Lamp) for lamp in screens.lamps(public, seat, fresh))
    assert screens.table(public).size == (128, 64)
    if hasattr(screens, "rolling"):
        for frame in range(4):
            assert screens.rolling(public, frame).size == (128, 64)


def play(game_id: str, seats: int, seed: int, physical: bool, on_step=None) -> Match:
    """A whole random legal game, a seat's first open decision at a time, as the panels give them."""
    rng = random.Random(f"{game_id}/{seats}/{seed}/{physical}")
    mode = "physical" if physical else "virtual"
    match = Match(Header(game_id, seats, seed=seed, dice=mode, cards=mode))
    checked: set = set()
    steps = 0
    while not match.over:
        assert steps < MAX_DECISIONS, f"{game_id} at {seats} seats did not end in {MAX_DECISIONS} decisions"
        seat = rng.choice(sorted({d.seat for d in match.open_decisions()}))
        decision = match.decisions_for(seat)[0]
        if (decision.key, decision.kind) not in checked:           # every option of it, on the buttons
            checked.add((decision.key, decision.kind))
            if decision.kind is not Kind.HOLES:
                for option in decision.options[:60]:
                    presses_for(decision, option)
        value = random_answer(decision, rng)
        presses_for(decision, value)                               # this answer, on the buttons
        if on_step:
            on_step(match, steps)
        match.submit(seat, decision.key, value)
        steps += 1
    return match


@pytest.mark.parametrize("game_id", GAMES)
def test_random_legal_play_ends_replays_and_every_view_is_json_and_drawn(game_id):
    for seats in seat_counts(game_id):
        for seed in range(SEEDS):
            physical = bool(seed % 2)

            def check(match, step):
                if step % DRAW_EVERY == 0:
                    for text in views(match).values():
                        json.loads(text)
                    draw(match, fresh=bool(step % 2))

            match = play(game_id, seats, seed, physical, check)
            assert match.result().winners or match.result().scores is not None
            draw(match, fresh=False)
            assert views(Match.replay(match.transcript())) == views(match)


@pytest.mark.parametrize("game_id", GAMES)
def test_its_screens_offer_what_the_box_asks_of_a_game_s_screens(game_id):
    """Every game's screens module offers :class:`~companion.render.GameScreens`, name for name and parameter for
    parameter; a game with secret picks tells them at the reveal; a tumble comes with its description."""
    screens = render.for_game(game_id)
    assert problems(screens, render.GameScreens) == []
    match = play(game_id, registry.game_class(game_id).min_seats, 0, False)
    if any(event.kind == "reveal" for event in match.events):
        assert problems(screens, render.Reveals) == []
    if hasattr(screens, "rolling") or hasattr(screens, "describe_rolling"):
        assert problems(screens, render.Tumbles) == []


@pytest.mark.parametrize("game_id", GAMES)
def test_a_view_handed_out_is_never_changed_by_who_reads_it(game_id):
    """A match hands every caller the same view until it changes: the screens, the lamps and the computer
    players read it and leave it as it was made."""
    from rules import bots

    seats = registry.game_class(game_id).min_seats

    def check(match, step):
        if step % DRAW_EVERY:
            return
        before = views(match)
        draw(match, fresh=True)
        for decision in match.open_decisions():
            for level in bots.levels(game_id):
                bots.make(match.game, decision.seat, level).choose(match.view(decision.seat), decision)
        assert views(match) == before == views(Match.replay(match.transcript()))

    play(game_id, seats, 0, False, check)


def states_along(game_id: str, seats: int, seed: int):
    """Matches at positions along a random game (each a replay of the game so far)."""
    found = []
    play(game_id, seats, seed, False, lambda match, step: found.append(Match.replay(match.transcript()))
         if step % 5 == 0 else None)
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_a_clone_is_independent_of_its_original(game_id):
    rng = random.Random(game_id)
    for match in states_along(game_id, registry.game_class(game_id).min_seats, 0):
        state = match.state
        before = [json.dumps(state.view(s), sort_keys=True) for s in [None, *range(1, match.header.seats + 1)]]
        pending = [d for d in state.pending()]
        clone = state.clone()
        decision = rng.choice(pending)
        value = random_answer(decision, rng) if decision.kind is not Kind.CHANCE else rng.choice(decision.options)
        clone.apply(Move(decision.seat if decision.kind is not Kind.CHANCE else None, decision.key, value))
        after = [json.dumps(state.view(s), sort_keys=True) for s in [None, *range(1, match.header.seats + 1)]]
        assert after == before and state.pending() == pending


@pytest.mark.parametrize("game_id", GAMES)
def test_a_seats_unrevealed_pick_changes_no_other_view(game_id):
    """Non-interference at the rules level: two matches that differ only in one held pick look the same to
    every other seat and to the public, events included."""
    compared = 0
    cls = registry.game_class(game_id)
    positions = states_along(game_id, min(max(3, cls.min_seats), cls.max_seats), 1)
    for match in positions:
        for decision in match.open_decisions():
            if not decision.secret or decision.kind is Kind.CONFIRM:
                continue
            answers = [[], [decision.options[0]]] if decision.kind is Kind.HOLES else decision.options[:2]
            answers = [a for a in answers if decision.kind is not Kind.HOLES or decision.min <= len(a) <= decision.max]
            if len(answers) < 2:
                continue
            pair = []
            for answer in answers:
                twin = Match.replay(match.transcript())
                events = twin.submit(decision.seat, decision.key, answer)
                pair.append((twin, twin.events_for(None, events)))
            (a, events_a), (b, events_b) = pair
            if not a.held:                       # the pick completed the group: it was revealed, as it should be
                continue
            others = [None, *(s for s in range(1, match.header.seats + 1) if s != decision.seat)]
            assert [json.dumps(a.view(s), sort_keys=True) for s in others] == \
                   [json.dumps(b.view(s), sort_keys=True) for s in others]
            assert events_a == events_b
            compared += 1
    if any(d.secret for m in positions for d in m.open_decisions()):
        assert compared > 0


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_doc_it_registers_says_every_variant_setting(game_id):
    """``molebox variants`` sends the host to the registered doc for what each setting decides."""
    text = (ROOT / registry.get(game_id).doc).read_text()
    assert [name for name in load_specs(game_id) if f"`{name}`" not in text] == []
