"""Whakka Mole's rules, the seed's phases one by one, and properties over random legal play."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from rules.match import Header, Match
from rules.model import IllegalMove


def play_turn(match: Match, picks: dict[int, tuple]) -> list:
    events = []
    for seat, (popup, whack) in picks.items():
        events += match.submit(seat, "popup", list(popup))
        events += match.submit(seat, "whack", whack)
    return events


def new(seats=2, **settings) -> Match:
    return Match(Header("whakka-mole", seats, settings))


def test_pop_up_puts_a_token_in_every_chosen_hole_and_tokens_stay():
    m = new()
    play_turn(m, {1: ((1, 3), 5), 2: ((), 5)})
    play_turn(m, {1: ((1,), 5), 2: ((), 5)})
    assert m.view(None)["state"]["sheets"][0] == [2, 0, 1, 0, 0]
    assert m.view(None)["state"]["scores"] == [2 + 3, 0]


def test_a_hit_scores_six_and_clears_the_whole_sheet():
    m = new()
    play_turn(m, {1: ((1, 2, 3), 5), 2: ((), 2)})
    state = m.view(None)["state"]
    assert state["sheets"][0] == [0, 0, 0, 0, 0]
    assert state["scores"] == [0, 6]
    assert state["last"][1]["hit"] and state["last"][0]["whacked_by"] == 2


def test_a_whack_on_an_empty_hole_misses():
    m = new()
    play_turn(m, {1: ((1,), 5), 2: ((), 2)})
    assert m.view(None)["state"]["scores"] == [1, 0]


def test_whacks_are_simultaneous_so_two_seats_can_hit_each_other():
    m = new()
    play_turn(m, {1: ((1,), 2), 2: ((2,), 1)})
    assert m.view(None)["state"]["scores"] == [6, 6]


def test_you_whack_the_seat_to_your_left_and_the_direction_is_a_variant():
    m = new(3)
    play_turn(m, {1: ((), 1), 2: ((), 1), 3: ((1,), 1)})
    assert m.view(None)["state"]["scores"] == [0, 6, 0]  # seat 2 whacks seat 3
    m = new(3, whack_direction="right")
    play_turn(m, {1: ((), 1), 2: ((), 1), 3: ((1,), 1)})
    assert m.view(None)["state"]["scores"] == [6, 0, 0]  # seat 1 whacks seat 3


def test_the_game_ends_after_the_turn_someone_reaches_50_and_ties_share_the_win():
    m = new(target=4)
    play_turn(m, {1: ((1, 2), 5), 2: ((3, 4), 5)})
    assert not m.over
    events = play_turn(m, {1: ((), 5), 2: ((), 5)})
    assert m.over and m.result().winners == (1, 2) and m.result().scores == (4, 4)
    assert events[-1].kind == "game_over"
    with pytest.raises(IllegalMove, match="over"):
        m.submit(1, "popup", [])


def test_the_token_supply_limits_pop_ups():
    m = new(tokens=3)
    play_turn(m, {1: ((1, 2), 5), 2: ((), 5)})
    with pytest.raises(IllegalMove, match="choose 0 to 1"):
        m.submit(1, "popup", [3, 4])
    m.submit(1, "popup", [3])


def test_without_stacking_a_hole_holds_one_token():
    m = new(stack_tokens=False)
    play_turn(m, {1: ((1,), 5), 2: ((), 5)})
    with pytest.raises(IllegalMove, match="hole 1 is not one of"):
        m.submit(1, "popup", [1])


def test_a_whack_must_name_exactly_one_existing_hole():
    m = new(holes=4)
    with pytest.raises(IllegalMove):
        m.submit(1, "whack", 5)
    with pytest.raises(IllegalMove):
        m.submit(1, "whack", [1, 2])


def test_picks_are_held_until_everyone_locks_in_and_can_be_taken_back():
    m = new()
    m.submit(1, "popup", [1])
    m.submit(1, "whack", 2)
    assert m.view(None)["locked"] == [1] and m.view(None)["state"]["sheets"][0] == [0] * 5
    with pytest.raises(IllegalMove, match="locked in"):
        m.submit(1, "whack", 3)
    m.retract(1)
    assert m.view(None)["locked"] == [] and m.view(1)["held"] == {}
    play_turn(m, {1: ((2,), 3), 2: ((), 3)})
    assert m.view(None)["state"]["sheets"][0] == [0, 1, 0, 0, 0]


# ---- properties over random legal play --------------------------------------------------------

@st.composite
def games(draw):
    seats = draw(st.integers(2, 5))
    tokens = draw(st.integers(1, 12))
    seed = draw(st.integers(0, 2**16))
    return seats, tokens, seed


def random_play(seats: int, tokens: int, seed: int, turns: int = 400):
    import random

    rng = random.Random(seed)
    m = Match(Header("whakka-mole", seats, {"tokens": tokens}, seed=seed))
    snapshots = []
    for _ in range(turns):
        if m.over:
            break
        for d in m.open_decisions():
            if d.key == "popup":
                m.submit(d.seat, d.key, rng.sample(d.options, rng.randint(0, d.max)))
            else:
                m.submit(d.seat, d.key, rng.choice(d.options))
        snapshots.append(m.view(None)["state"])
    return m, snapshots


@settings(max_examples=60, deadline=None)
@given(games())
def test_scores_never_fall_tokens_are_conserved_and_the_game_ends(game):
    seats, tokens, seed = game
    m, snapshots = random_play(seats, tokens, seed)
    assert m.over
    for before, after in zip(snapshots, snapshots[1:]):
        assert all(b <= a for b, a in zip(before["scores"], after["scores"]))
    for snap in snapshots:
        for sheet, supply in zip(snap["sheets"], snap["supply"]):
            assert sum(sheet) + supply == tokens and supply >= 0


@settings(max_examples=40, deadline=None)
@given(games())
def test_a_transcript_replays_to_the_same_state(game):
    m, _ = random_play(*game)
    replayed = Match.replay(json.loads(json.dumps(m.transcript())))
    assert json.dumps(replayed.view(None), sort_keys=True) == json.dumps(m.view(None), sort_keys=True)
    for seat in range(1, m.header.seats + 1):
        assert replayed.view(seat) == m.view(seat)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(1, 5), st.sets(st.integers(1, 5)), st.sets(st.integers(1, 5)),
       st.integers(1, 5), st.integers(1, 5))
def test_non_interference_an_unrevealed_pick_changes_no_other_view(seats, seat, pop_a, pop_b, whack_a, whack_b):
    seat = min(seat, seats)
    a, b = new(seats), new(seats)
    a.submit(seat, "popup", sorted(pop_a))
    b.submit(seat, "popup", sorted(pop_b))
    a.submit(seat, "whack", whack_a)
    b.submit(seat, "whack", whack_b)
    for viewer in [None] + [s for s in range(1, seats + 1) if s != seat]:
        assert json.dumps(a.view(viewer), sort_keys=True) == json.dumps(b.view(viewer), sort_keys=True)
    assert a.events_for(None, a.events) == b.events_for(None, b.events)
