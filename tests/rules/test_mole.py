"""Mole (the coin game): calls, reports, every round outcome, the match to 11 by two, random play."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from rules.match import Header, Match
from rules.model import IllegalMove
from tests.random_play import random_answer


def new(**settings) -> Match:
    return Match(Header("mole", 2, settings))


def state(m: Match) -> dict:
    return m.view(None)["state"]


def asked(m: Match) -> dict:
    """The flicker's open decision (not the opponent's push claim)."""
    seat = state(m)["flicker"]
    (d,) = m.decisions_for(seat)
    return d


def turn(m: Match, **answers) -> list[dict]:
    """Play one turn: the call, then every question the box asks, answered from ``answers``.

    A question not in ``answers`` takes its default (a death's cause, 'on the board', 'no').
    Returns the turn's public events.
    """
    answers = {"call": "flick", **answers}
    if "dead" in answers:
        answers["dead"] = tuple(answers["dead"])
    start, events = (state(m)["round"], state(m)["turn"]), []
    while not m.over and (state(m)["round"], state(m)["turn"]) == start:
        d = asked(m)
        value = answers[d.key] if d.key in answers else d.default if d.default is not None else ()
        events += m.submit(d.seat, d.key, value)
    return m.events_for(None, events)


def quiet(m: Match, turns: int = 1) -> None:
    """Turns in which nothing happens: the mole stays on the board, nobody dies."""
    for _ in range(turns):
        turn(m)


def ended(events: list[dict]) -> dict:
    (over,) = [e for e in events if e["kind"] == "round_over"]
    return over


def outcome(events: list[dict]) -> tuple[str, str] | None:
    overs = [e for e in events if e["kind"] == "round_over"]
    return (overs[0]["winner"], overs[0]["reason"]) if overs else None


# ---- roles, turns and calls --------------------------------------------------------------------------

def test_seat_1_is_the_mole_and_the_mignettes_flick_first_with_three_mignettes_in_the_nichee():
    m = new()
    s = state(m)
    assert (s["mole"], s["mignettes"], s["side"], s["flicker"]) == (1, 2, "mignettes", 2)
    assert s["alive"] == [1, 2, 3] and s["first_go"] and s["scores"] == [0, 0]
    d = asked(m)
    assert (d.seat, d.key, d.options, d.default) == (2, "call", ("flick", "nasdaq"), "flick")
    assert state(new(first_mole=2))["flicker"] == 1
    assert state(new(mignettes=5))["alive"] == [1, 2, 3, 4, 5]


def test_turns_alternate_and_the_first_go_is_over_after_the_mignettes_first_turn():
    m = new()
    turn(m)
    s = state(m)
    assert (s["side"], s["flicker"], s["turn"], s["first_go"]) == ("mole", 1, 2, False)
    d = asked(m)
    assert (d.key, d.options, d.default) == ("call", ("flick", "taupiniere", "nasdaq"), "flick")
    turn(m)
    assert (state(m)["side"], state(m)["flicker"], state(m)["turn"]) == ("mignettes", 2, 3)


def test_a_quiet_turn_takes_two_presses_after_the_call_each_answered_by_its_default():
    m = new()
    m.submit(2, "call", "flick")
    where = asked(m)
    assert (where.key, where.default, where.labels) == ("where", "board",
                                                        ("On board", "Touching a mignette", "Over line", "Off back", "Off side"))
    m.submit(2, "where", "board")
    dead = asked(m)
    assert (dead.key, dead.kind.value, dead.options, dead.min) == ("dead", "holes", (1, 2, 3), 0)
    m.submit(2, "dead", ())
    assert state(m)["side"] == "mole"


def test_the_mignettes_nasdaq_is_a_call_and_they_still_report_the_turn():
    m = new()
    events = turn(m, call="nasdaq")
    assert [e for e in events if e["kind"] == "call"] == [{"kind": "call", "seat": 2, "side": "mignettes",
                                                           "call": "nasdaq"}]
    assert state(m)["last"]["call"] == "nasdaq" and state(m)["side"] == "mole"


def test_the_mole_nasdaq_leaves_the_mole_where_it_is_without_a_report():
    m = new()
    quiet(m)
    m.submit(1, "call", "nasdaq")
    s = state(m)
    assert (s["side"], s["turn"], s["alive"], s["last"]["call"]) == ("mignettes", 3, [1, 2, 3], "nasdaq")


def test_no_nasdaq_from_gad_and_the_box_says_why():
    m = new()
    turn(m, where="gad", gad="touching")
    s = state(m)
    assert s["gad"] and asked(m).options == ("flick", "taupiniere")
    assert {c["call"]: c["why"] for c in s["calls"]} == {"flick": None, "taupiniere": None, "nasdaq": "touching a mignette (Gad)"}
    with pytest.raises(IllegalMove):
        m.submit(1, "call", "nasdaq")
    turn(m)                                  # the mole flicks away; Gad is over
    quiet(m)
    assert not state(m)["gad"] and "nasdaq" in asked(m).options


def test_no_taupiniere_with_one_mignette_left():
    m = new()
    turn(m, dead=[1, 2])
    s = state(m)
    assert s["alive"] == [3] and asked(m).options == ("flick", "nasdaq")
    assert {c["call"]: c["why"] for c in s["calls"]}["taupiniere"] == "one mignette left"


def test_winning_gad_a_mignette_on_top_of_the_mole_wins_for_the_mignettes():
    m = new()
    assert outcome(turn(m, where="gad", gad="on_top")) == ("mignettes", "gad")
    s = state(m)
    assert (s["mole"], s["scores"], s["round"], s["alive"]) == (2, [0, 0], 2, [1, 2, 3])


# ---- mignette deaths ---------------------------------------------------------------------------------

def test_mignettes_that_die_on_their_own_turn_are_removed_with_how_they_died():
    m = new()
    events = turn(m, dead=[2], **{"how-2": "circle"})
    assert [e for e in events if e["kind"] == "died"] == [
        {"kind": "died", "seat": 2, "mignette": 2, "how": "circle", "by": "mignettes", "alive": 2}]
    s = state(m)
    assert s["alive"] == [1, 3] and s["deaths"] == [{"mignette": 2, "how": "circle", "by": "mignettes", "turn": 1}]
    assert asked(m).key == "call"


def test_how_a_mignette_died_defaults_to_rosserie_on_their_turn_and_off_the_board_on_the_moles():
    m = new()
    m.submit(2, "call", "flick")
    m.submit(2, "where", "board")
    m.submit(2, "dead", (3,))
    d = asked(m)
    assert (d.key, d.options, d.default) == ("how-3", ("rosserie", "circle", "off"), "rosserie")
    m.submit(2, "how-3", "off")
    m.submit(1, "call", "flick")
    m.submit(1, "where", "board")
    m.submit(1, "dead", (1,))
    assert (asked(m).key, asked(m).default) == ("how-1", "off")


def test_when_every_mignette_dies_the_mole_wins_the_round_and_keeps_the_mole():
    m = new()
    assert outcome(turn(m, dead=[1, 2, 3])) == ("mole", "all_dead")
    s = state(m)
    assert (s["mole"], s["scores"], s["round"], s["alive"], s["side"]) == (1, [1, 0], 2, [1, 2, 3], "mignettes")


def test_the_round_ends_on_a_death_question_only_when_its_answer_matters():
    """A round decided by where the mole went asks nothing about the mignettes."""
    m = new()
    quiet(m)
    m.submit(1, "call", "flick")
    events = m.submit(1, "where", "side")
    assert outcome(m.events_for(None, events)) == ("mignettes", "fell_side")


# ---- the mignettes knock the mole ---------------------------------------------------------------------

def test_on_the_first_go_the_mole_cannot_be_knocked_off_it_goes_back():
    m = new()
    events = turn(m, where="side")
    assert outcome(events) is None
    assert [e for e in events if e["kind"] == "mole_back"] == [
        {"kind": "mole_back", "seat": None, "where": "side", "why": "first go"}]
    assert state(m)["side"] == "mole"


def test_text_a_mole_partly_in_rosserie_or_the_circle_cannot_be_knocked_off_a_side():
    """'knocking it off either of the two sides ... However, the mole can not be knocked off the board on
    the first go, or if he is fully OR partially encompassed in either Rosserie or the mole circle.'"""
    m = new()
    quiet(m, 2)
    m.submit(2, "call", "flick")
    m.submit(2, "where", "side")
    d = asked(m)
    assert (d.key, d.prompt, d.labels, d.default) == ("protected", "Partly or fully in Rosserie or the circle?", ("No", "Yes"), "no")
    m.submit(2, "protected", "yes")
    m.submit(2, "dead", (1,))
    events = m.events_for(None, m.submit(2, "how-1", "rosserie"))
    assert outcome(events) is None and state(m)["alive"] == [2, 3] and state(m)["side"] == "mole"
    assert [e for e in events if e["kind"] == "mole_back"] == [
        {"kind": "mole_back", "seat": None, "where": "side", "why": "partly or fully in Rosserie/circle"}]


@pytest.mark.parametrize("first_go", [True, False])
@pytest.mark.parametrize("where, dead, expected", [("line", [], ("mole", "knocked_line")),
                                                   ("back", [1], ("mole", "knocked_back")),
                                                   ("back", [1, 2, 3], ("tie", "recompense"))])
def test_text_protection_is_from_the_sides_so_over_the_line_or_off_the_back_the_mole_still_wins(
        first_go, where, dead, expected):
    """The protection qualifies the mignettes' weapon, knocking the mole off a side; 'if the mole is
    knocked over the winning line then the mole wins. If ... off the opposite end ... the mole also
    wins'. So on the first go, or partly in Rosserie, the box does not even ask."""
    m = new()
    if not first_go:
        quiet(m, 2)
    events = turn(m, where=where, dead=dead, protected="yes")
    assert outcome(events) == expected
    assert not [e for e in events if e["kind"] == "mole_back"]
    assert all(r["key"] != "protected" for r in m.records)


def test_protection_is_asked_only_where_it_can_change_the_round():
    m = new()
    quiet(m, 2)
    m.submit(2, "call", "flick")
    m.submit(2, "where", "back")
    assert asked(m).key == "dead"                                       # no "Partly/fully in R/C?"


@pytest.mark.parametrize("where", ["line", "back", "side"])
def test_with_protection_on_every_edge_a_protected_mole_goes_back_from_any_edge(where):
    m = new(protection="edges")
    quiet(m, 2)
    events = turn(m, where=where, protected="yes", dead=[1])
    assert outcome(events) is None and state(m)["alive"] == [2, 3]
    assert [e["why"] for e in events if e["kind"] == "mole_back"] == ["partly or fully in Rosserie/circle"]
    first = new(protection="edges")
    assert [e["why"] for e in turn(first, where=where) if e["kind"] == "mole_back"] == ["first go"]


def test_the_first_go_protects_every_round_by_default_or_only_the_first_of_the_match():
    for first_go, asks in (("round", False), ("match", True)):
        m = new(first_go=first_go)
        turn(m, dead=[1, 2, 3])                       # round 1 to the mole
        assert state(m)["first_go"] is not asks
        m.submit(2, "call", "flick")
        m.submit(2, "where", "side")
        assert (asked(m).key == "protected") is asks


def test_knocked_over_the_winning_line_the_mole_wins():
    m = new()
    quiet(m, 2)
    assert outcome(turn(m, where="line")) == ("mole", "knocked_line")
    assert state(m)["scores"] == [1, 0] and state(m)["mole"] == 1


def test_knocked_off_the_back_the_mole_wins():
    m = new()
    quiet(m, 2)
    assert outcome(turn(m, where="back", dead=[1])) == ("mole", "knocked_back")


def test_knocked_off_a_side_the_mignettes_win_and_the_roles_swap():
    m = new()
    quiet(m, 2)
    assert outcome(turn(m, where="side")) == ("mignettes", "knocked_side")
    assert (state(m)["mole"], state(m)["mignettes"], state(m)["scores"]) == (2, 1, [0, 0])
    assert state(m)["flicker"] == 1                                     # the new mignettes flick first


def test_off_a_side_with_the_hitter_surviving_another_mignettes_death_the_mignettes_still_win():
    m = new()
    quiet(m, 2)
    m.submit(2, "call", "flick")
    m.submit(2, "where", "side")
    m.submit(2, "protected", "no")
    m.submit(2, "dead", (3,))
    d = asked(m)
    assert (d.key, d.options) == ("hitter", (1, 2, 3))
    events = m.events_for(None, m.submit(2, "hitter", 1))
    assert outcome(events) == ("mignettes", "knocked_side")


@pytest.mark.parametrize("hitter_dies, winner", [("mole", "mole"), ("tie", "tie")])
def test_off_a_side_but_the_hitting_mignette_dies_the_mignettes_do_not_win(hitter_dies, winner):
    m = new(hitter_dies=hitter_dies)
    quiet(m, 2)
    assert outcome(turn(m, where="side", dead=[2], hitter=2)) == (winner, "hitter_died")


@pytest.mark.parametrize("where", ["back", "side"])
def test_recompense_knocked_off_a_side_or_the_back_as_every_mignette_dies_is_a_tie(where):
    m = new()
    quiet(m, 2)
    events = turn(m, where=where, dead=[1, 2, 3])
    assert outcome(events) == ("tie", "recompense")
    s = state(m)
    assert (s["mole"], s["scores"], s["round"], s["turn"], s["alive"]) == (1, [0, 0], 2, 1, [1, 2, 3])


def test_recompense_with_the_last_mignette_left_it_hit_the_mole_and_died():
    m = new()
    turn(m, dead=[1, 2])
    quiet(m)
    assert outcome(turn(m, where="side", dead=[3])) == ("tie", "recompense")


def test_the_hitter_is_not_asked_when_only_one_mignette_was_playing():
    m = new()
    turn(m, dead=[1, 2])
    quiet(m)
    assert outcome(turn(m, where="side")) == ("mignettes", "knocked_side")


# ---- the mole's flick --------------------------------------------------------------------------------

def test_text_the_mole_crossing_from_the_open_board_or_only_partly_in_rosserie_wins_a_point():
    """'If the mole traverses the winning line, and he was not fully encompossed by either Rosserie or the
    mole circle, he wins the round': the answer that wins says open board or partly in."""
    m = new()
    quiet(m)
    m.submit(1, "call", "flick")
    m.submit(1, "where", "line")
    m.submit(1, "dead", ())
    d = asked(m)
    assert (d.key, d.prompt, d.options, d.default) == ("start", "Crossed from where?", ("open", "encompassed"), "open")
    assert d.labels == ("In the open or partly in", "Fully in Rosserie or circle")
    assert outcome(m.events_for(None, m.submit(1, "start", "open"))) == ("mole", "line")
    assert state(m)["scores"] == [1, 0] and state(m)["mole"] == 1


def test_text_crossing_from_fully_inside_rosserie_or_the_circle_loses():
    """'if the mole traverses the winning line but was fully encompassed by either Rosserie or the mole
    circle, he loses the round.'"""
    m = new()
    quiet(m)
    events = turn(m, where="line", start="encompassed")
    assert outcome(events) == ("mignettes", "encompassed")
    assert ended(events)["text"] == "crossed from fully in Rosserie/circle"
    assert state(m)["mole"] == 2


def test_text_with_a_loup_line_crossing_from_behind_it_does_not_win_the_mole_goes_back():
    """'If the mole is between this line and the non-winning end then the mole is barred from winning in
    that turn': the crossing does not count, nobody scores, and the mignettes play next."""
    m = new(loup_line=True)
    quiet(m)
    m.submit(1, "call", "flick")
    m.submit(1, "where", "line")
    m.submit(1, "dead", ())
    d = asked(m)
    assert (d.options, d.labels) == (("open", "encompassed", "loup"), ("In the open or partly in", "Fully in Rosserie or circle", "Behind the loup"))
    events = m.events_for(None, m.submit(1, "start", "loup"))
    assert outcome(events) is None
    assert [e for e in events if e["kind"] == "mole_back"] == [
        {"kind": "mole_back", "seat": None, "where": "line", "why": "behind the loup line"}]
    s = state(m)
    assert (s["scores"], s["mole"], s["round"], s["side"], s["alive"]) == ([0, 0], 1, 1, "mignettes", [1, 2, 3])


def test_with_a_loup_line_set_to_lose_crossing_from_behind_it_loses_the_round():
    m = new(loup_line=True, loup_cross="lose")
    quiet(m)
    events = turn(m, where="line", start="loup")
    assert outcome(events) == ("mignettes", "loup") and state(m)["mole"] == 2


@pytest.mark.parametrize("loup_cross", ["back", "lose"])
def test_fully_in_rosserie_behind_the_loup_line_still_loses(loup_cross):
    m = new(loup_line=True, loup_cross=loup_cross)
    quiet(m)
    assert outcome(turn(m, where="line", start="encompassed")) == ("mignettes", "encompassed")


def test_killing_a_mignette_while_crossing_the_line_loses():
    m = new()
    quiet(m)
    assert outcome(turn(m, where="line", dead=[1])) == ("mignettes", "killed_crossing")


@pytest.mark.parametrize("where, reason", [("side", "fell_side"), ("back", "fell_back"), ("under", "under")])
def test_the_mole_falling_off_a_side_or_the_back_or_under_a_mignette_loses(where, reason):
    m = new()
    quiet(m)
    assert outcome(turn(m, where=where)) == ("mignettes", reason)
    assert state(m)["mole"] == 2 and state(m)["scores"] == [0, 0]


def test_the_mole_may_kill_a_single_mignette_off_the_board_or_into_rosserie():
    m = new()
    quiet(m)
    events = turn(m, dead=[2], **{"how-2": "rosserie"})
    assert outcome(events) is None
    assert state(m)["deaths"] == [{"mignette": 2, "how": "rosserie", "by": "mole", "turn": 2}]
    assert state(m)["alive"] == [1, 3] and state(m)["side"] == "mignettes"


# Every outcome of a mole's flick, with taupiniere called and not: (call, where, mignettes killed) with
# three mignettes alive -> the round's (winner, reason), or None while it goes on.
MOLE_FLICKS = [
    ("flick", "board", 0, None),
    ("flick", "board", 1, None),
    ("flick", "board", 2, ("mignettes", "too_many")),
    ("flick", "board", 3, ("mignettes", "too_many")),
    ("flick", "line", 0, ("mole", "line")),
    ("flick", "line", 1, ("mignettes", "killed_crossing")),
    ("flick", "line", 2, ("mignettes", "killed_crossing")),
    ("flick", "side", 0, ("mignettes", "fell_side")),
    ("flick", "back", 0, ("mignettes", "fell_back")),
    ("flick", "under", 0, ("mignettes", "under")),
    ("taupiniere", "board", 0, ("mignettes", "taupiniere")),
    ("taupiniere", "board", 1, ("mignettes", "taupiniere")),
    ("taupiniere", "board", 2, None),
    ("taupiniere", "board", 3, ("mignettes", "taupiniere")),
    ("taupiniere", "line", 0, ("mignettes", "taupiniere")),
    ("taupiniere", "line", 2, ("mignettes", "killed_crossing")),
    ("taupiniere", "side", 0, ("mignettes", "fell_side")),
    ("taupiniere", "back", 0, ("mignettes", "fell_back")),
    ("taupiniere", "under", 0, ("mignettes", "under")),
]


@pytest.mark.parametrize("call, where, killed, expected", MOLE_FLICKS)
def test_every_outcome_of_a_moles_flick_with_taupiniere_called_and_not(call, where, killed, expected):
    m = new()
    quiet(m)
    events = turn(m, call=call, where=where, dead=[1, 2, 3][:killed])
    assert outcome(events) == expected
    s = state(m)
    if expected is None:
        assert s["alive"] == [1, 2, 3][killed:] and s["side"] == "mignettes" and s["round"] == 1
    else:
        winner = expected[0]
        assert s["scores"] == ([1, 0] if winner == "mole" else [0, 0])
        assert s["mole"] == (1 if winner == "mole" else 2) and s["round"] == 2


@pytest.mark.parametrize("call, alive, killed, expected", [
    ("flick", 1, 1, ("mole", "all_dead")),            # the last mignette: a single kill wins
    ("flick", 2, 2, ("mignettes", "too_many")),       # both at once without the call loses
    ("taupiniere", 2, 2, ("mole", "all_dead")),       # called, and the last two: the mole wins
    ("taupiniere", 2, 1, ("mignettes", "taupiniere")),
])
def test_killing_the_last_mignettes_with_taupiniere_called_and_not(call, alive, killed, expected):
    m = new()
    turn(m, dead=[1, 2, 3][:3 - alive])
    assert len(state(m)["alive"]) == alive
    assert outcome(turn(m, call=call, dead=state(m)["alive"][:killed])) == expected


# ---- pushes ------------------------------------------------------------------------------------------

def test_the_mole_player_claims_a_mignette_push_and_the_mole_wins_the_round():
    m = new()
    assert [d.key for d in m.decisions_for(1)] == []              # no claim before anyone flicks
    m.submit(2, "call", "flick")
    (claim,) = m.decisions_for(1)
    assert (claim.key, claim.options, claim.default) == ("push", ("push",), None)
    events = m.events_for(None, m.submit(1, "push", "push"))
    assert events[0] == {"kind": "push", "seat": 1, "against": 2}
    assert outcome(events) == ("mole", "push") and state(m)["scores"] == [1, 0]


def test_the_mignette_player_claims_a_mole_push_mid_report_and_the_roles_swap():
    m = new()
    quiet(m)
    m.submit(1, "call", "taupiniere")
    m.submit(1, "where", "board")
    assert outcome(m.events_for(None, m.submit(2, "push", "push"))) == ("mignettes", "push")
    assert state(m)["mole"] == 2 and state(m)["report"] == {}


# ---- the text's own examples -------------------------------------------------------------------------

def test_text_a_later_mignette_saves_one_stranded_in_rosserie():
    """Deaths are judged at the end of the mignettes' turn, so a saved mignette is simply not reported."""
    m = new()
    turn(m, dead=[])
    assert state(m)["alive"] == [1, 2, 3]


def test_text_the_hitter_fully_in_rosserie_saved_by_another_mignette_the_mignettes_win():
    m = new()
    quiet(m, 2)
    assert outcome(turn(m, where="side", dead=[])) == ("mignettes", "knocked_side")


def test_text_the_aerial_shot_from_behind_the_loup_line_must_stop_short():
    """'With the loup line in play the aerial shot must stop short of the winning line allowing the
    mignettes one turn to conjure up an escape': a shot over it gives them that turn all the same."""
    m = new(loup_line=True)
    quiet(m)
    turn(m, call="flick", where="board")          # stops short of the line: play goes on
    assert state(m)["side"] == "mignettes"
    quiet(m)
    assert outcome(turn(m, where="line", start="loup")) is None
    assert (state(m)["side"], state(m)["turn"]) == ("mignettes", 5)
    quiet(m)
    assert outcome(turn(m, where="line", start="open")) == ("mole", "line")    # out from behind it: it wins


def test_text_if_the_mole_wins_it_scores_and_keeps_control_if_the_mignettes_win_they_swap_no_point():
    m = new()
    quiet(m)
    turn(m, where="line")                                  # S1's mole escapes
    assert (state(m)["scores"], state(m)["mole"]) == ([1, 0], 1)
    quiet(m)
    turn(m, where="side")                                  # S1's mole falls off: S2 is the mole now
    assert (state(m)["scores"], state(m)["mole"]) == ([1, 0], 2)
    assert state(m)["flicker"] == 1                        # "starting (as always) with the mignettes"


# ---- the match ---------------------------------------------------------------------------------------

def win_rounds(m: Match, seat: int, count: int) -> None:
    """``seat`` wins ``count`` rounds as the mole (taking the mole first if it must)."""
    for _ in range(count):
        if state(m)["mole"] != seat:
            turn(m, where="gad", gad="on_top")             # the mignettes win: roles swap
        quiet(m)
        turn(m, where="line")


def test_the_match_goes_to_eleven_by_a_clear_two():
    m = new()
    win_rounds(m, 1, 10)
    win_rounds(m, 2, 10)
    win_rounds(m, 1, 1)
    assert state(m)["scores"] == [11, 10] and not m.over
    win_rounds(m, 2, 1)
    win_rounds(m, 1, 1)
    assert state(m)["scores"] == [12, 11] and not m.over
    win_rounds(m, 1, 1)
    assert m.over and m.result().scores == (13, 11) and m.result().winners == (1,)
    assert m.events_for(None, m.events)[-1] == {"kind": "game_over", "seat": None, "winners": [1],
                                                "scores": [13, 11]}
    assert m.open_decisions() == [] and state(m)["phase"] == "over"


def test_eleven_nil_ends_at_eleven():
    m = new()
    win_rounds(m, 2, 11)
    assert m.over and m.result().winners == (2,) and state(m)["round"] == 12


def test_target_and_margin_are_variant_settings():
    m = new(target=5, margin=1)
    win_rounds(m, 1, 4)
    win_rounds(m, 2, 4)
    win_rounds(m, 2, 1)
    assert m.over and m.result().scores == (4, 5)


def test_a_mistaken_report_is_undone_by_replaying_all_but_the_last_answer():
    m = new()
    quiet(m)
    m.submit(1, "call", "flick")
    m.submit(1, "where", "side")                       # meant "on the board"
    assert state(m)["mole"] == 2
    back = Match.replay(m.transcript(), upto=m.seat_records() - 1)
    assert state(back)["mole"] == 1 and asked(back).key == "where"
    back.submit(1, "where", "board")
    assert asked(back).key == "dead"


def test_everything_is_public_every_seat_sees_the_public_state():
    m = new()
    turn(m, where="gad", gad="touching", dead=[1])
    assert m.view(1)["state"] == m.view(2)["state"] == state(m)


# ---- random reports ----------------------------------------------------------------------------------

def random_match(seed: int, **settings) -> Match:
    """A match of random legal reports, a seat's first open decision at a time (as the panel takes them)."""
    rng = random.Random(seed)
    m = Match(Header("mole", 2, settings, seed=seed))
    while not m.over:
        seat = rng.choice(sorted({d.seat for d in m.open_decisions()}))
        d = m.decisions_for(seat)[0]
        before = state(m)
        m.submit(seat, d.key, random_answer(d, rng))
        after = state(m)
        assert after["scores"][0] >= before["scores"][0] and after["scores"][1] >= before["scores"][1]
        assert sum(after["scores"]) - sum(before["scores"]) <= 1
        assert len(m.records) < 5000, "the match never ends"
    return m


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 ** 6), st.sampled_from([(11, 2), (11, 1), (5, 3)]),
       st.sampled_from(["mole", "tie"]), st.booleans(), st.sampled_from(["sides", "edges"]),
       st.sampled_from(["back", "lose"]))
def test_random_reports_end_only_with_the_lead_and_replay_exactly(seed, goal, hitter_dies, loup, protection,
                                                                   loup_cross):
    target, margin = goal
    m = random_match(seed, target=target, margin=margin, hitter_dies=hitter_dies, loup_line=loup,
                     protection=protection, loup_cross=loup_cross)
    scores = state(m)["scores"]
    assert max(scores) >= target and max(scores) - min(scores) >= margin
    for r in state(m)["rounds"][:-1]:                         # every earlier round left the match open
        a, b = r["scores"]
        assert max(a, b) < target or abs(a - b) < margin
    replayed = Match.replay(json.loads(json.dumps(m.transcript())))
    assert replayed.view(None) == m.view(None) and replayed.records == m.records


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10 ** 6))
def test_only_the_mole_scores_and_the_roles_swap_exactly_when_the_mignettes_win(seed):
    m = random_match(seed)
    mole, scores = 1, [0, 0]
    for r in state(m)["rounds"]:
        assert r["mole"] == mole
        if r["winner"] == "mole":
            scores[mole - 1] += 1
        elif r["winner"] == "mignettes":
            mole = 3 - mole
        assert r["scores"] == scores
