"""Mole Hill's rules: placement, rods, every kind of mole move, round ends, scoring, and random legal play."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from rules.match import Header, Match
from rules.model import IllegalMove, Move
from rules.mole_hill import MoleHill
from rules.settings import resolve

CENTRE = (5, 4)
FAR = (1, 7, "E")            # a rod nowhere near the action
ALL_CELLS = {(c, r) for c in range(1, 10) for r in range(1, 8)}
EDGE_MIDDLES = {(5, 1), (5, 7), (1, 4), (9, 4)}
INNER_CORNERS = {(2, 2), (8, 2), (2, 6), (8, 6)}
FLOWERS = {
    "edge-red": {**dict.fromkeys(EDGE_MIDDLES, 2), **dict.fromkeys(INNER_CORNERS, 1)},
    "corner-red": {**dict.fromkeys(EDGE_MIDDLES, 1), **dict.fromkeys(INNER_CORNERS, 2)},
    "none": {},
}


def new(**settings) -> Match:
    return Match(Header("mole-hill", 2, settings))


def play(match: Match, *values) -> list:
    """Answer the one open decision with each value in turn; return the events."""
    events = []
    for value in values:
        (decision,) = match.open_decisions()
        events += match.submit(decision.seat, decision.key, value)
    return events


def options(match: Match) -> set:
    (decision,) = match.open_decisions()
    return set(decision.options)


def board(match: Match) -> dict:
    return match.view(None)["state"]


def neighbours(cell) -> set:
    return {(cell[0] + dc, cell[1] + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1) if dc or dr} & ALL_CELLS


def snake(count: int = 22) -> list:
    """A boustrophedon walk from (1, 1) along the top rows: every step straight."""
    cells = [(c if r % 2 else 10 - c, r) for r in range(1, 8) for c in range(1, 10)]
    return cells[:count]


def far_rods(count: int) -> list:
    """Rods in the bottom three rows, out of the snake's way."""
    return [(c, r, "E") for r in (5, 6, 7) for c in range(1, 9)][:count]


# ---- placement and rods ----------------------------------------------------------------------

def test_the_mole_of_round_one_places_its_stack_on_any_of_the_63_spaces():
    m = new()
    (decision,) = m.open_decisions()
    assert (decision.seat, decision.key, decision.kind.value) == (1, "place", "cell")
    assert set(decision.options) == ALL_CELLS and len(decision.options) == 63
    assert new(first_mole=2).open_decisions()[0].seat == 2


def test_the_gardener_may_rod_any_of_the_110_edges_between_two_spaces_each_by_one_name():
    m = new()
    play(m, (3, 3))
    (decision,) = m.open_decisions()
    assert (decision.seat, decision.key, decision.kind.value) == (2, "rod", "edge")
    edges = set(decision.options)
    assert len(edges) == 8 * 7 + 9 * 6 == 110
    assert {(c, r, s) for c, r, s in edges if s == "E"} == {(c, r, "E") for c in range(1, 9) for r in range(1, 8)}
    assert {(c, r, s) for c, r, s in edges if s == "S"} == {(c, r, "S") for c in range(1, 10) for r in range(1, 7)}
    for bad in [(4, 3, "W"), (3, 4, "N"), (9, 2, "E"), (2, 7, "S"), (0, 1, "E")]:
        with pytest.raises(IllegalMove, match="not a legal choice"):
            m.submit(2, "rod", bad)


def test_a_rod_stays_and_its_edge_cannot_be_rodded_again():
    m = new()
    events = play(m, (3, 3), [3, 3, "E"])
    assert events[-1].kind == "rod" and events[-1].data == {"edge": [3, 3, "E"], "rods_left": 21}
    play(m, (3, 4))
    assert (3, 3, "E") not in options(m) and len(options(m)) == 109
    with pytest.raises(IllegalMove):
        m.submit(2, "rod", (3, 3, "E"))
    assert board(m)["rods"] == [[3, 3, "E"]] and board(m)["rods_left"] == 21


def test_only_the_seat_whose_turn_it_is_may_answer():
    m = new()
    with pytest.raises(IllegalMove, match="nothing to decide"):
        m.submit(2, "place", (1, 1))
    play(m, (1, 1))
    with pytest.raises(IllegalMove, match="nothing to decide"):
        m.submit(1, "move", (2, 1))


# ---- straight and diagonal moves ------------------------------------------------------------

def test_the_mole_moves_to_any_of_its_eight_neighbours_when_no_rod_is_near():
    m = new()
    play(m, (3, 3), FAR)
    assert options(m) == neighbours((3, 3))
    play(m, (4, 4), (1, 1, "E"))
    assert options(m) == neighbours((4, 4)) - {(3, 3)}


def test_a_corner_mole_has_three_neighbours():
    m = new()
    play(m, (9, 7), FAR)
    assert options(m) == {(8, 7), (9, 6), (8, 6)}


@pytest.mark.parametrize("rod, blocked", [((3, 3, "E"), (4, 3)), ((2, 3, "E"), (2, 3)),
                                          ((3, 3, "S"), (3, 4)), ((3, 2, "S"), (3, 2))])
def test_a_straight_move_never_crosses_a_rod(rod, blocked):
    m = new()
    play(m, (3, 3), rod)
    assert options(m) == neighbours((3, 3)) - {blocked}
    with pytest.raises(IllegalMove, match="not a legal choice"):
        m.submit(1, "move", blocked)


# From (3, 3), each diagonal target has two L-paths round the shared corner, two edges each.
DIAGONALS = {
    (4, 4): [((3, 3, "E"), (4, 3, "S")), ((3, 3, "S"), (3, 4, "E"))],
    (2, 2): [((2, 3, "E"), (2, 2, "S")), ((3, 2, "S"), (2, 2, "E"))],
    (4, 2): [((3, 3, "E"), (4, 2, "S")), ((3, 2, "S"), (3, 2, "E"))],
    (2, 4): [((2, 3, "E"), (2, 3, "S")), ((3, 3, "S"), (2, 4, "E"))],
}


def mole_on_33_with(first, second) -> Match:
    """The mole on (3, 3), jumped there from the centre past any rod, with two rods down round it."""
    m = new()
    play(m, (6, 4), FAR, CENTRE, first, (3, 3), second)
    return m


@pytest.mark.parametrize("target", DIAGONALS)
def test_a_diagonal_is_open_while_both_edges_of_one_l_path_are_free(target):
    (a1, a2), (b1, b2) = DIAGONALS[target]
    assert target in options(mole_on_33_with((1, 1, "E"), (1, 2, "E")))      # neither path blocked
    for one in (a1, a2, b1, b2):
        assert target in options(mole_on_33_with(one, (1, 1, "E")))         # one path blocked
    assert target in options(mole_on_33_with(a1, a2))                       # one path blocked twice
    assert target in options(mole_on_33_with(b1, b2))


@pytest.mark.parametrize("target", DIAGONALS)
def test_a_diagonal_is_closed_when_both_l_paths_cross_a_rod(target):
    (a1, a2), (b1, b2) = DIAGONALS[target]
    for rods in [(a1, b1), (a1, b2), (a2, b1), (a2, b2)]:
        m = mole_on_33_with(*rods)
        assert board(m)["position"] == [3, 3] and board(m)["phase"] == "move"
        assert target not in options(m)
        with pytest.raises(IllegalMove):
            m.submit(1, "move", target)


def test_an_l_path_may_dodge_past_a_visited_space_unless_the_variant_closes_it():
    for past_visited, legal in [(True, True), (False, False)]:
        m = new(diagonal_past_visited=past_visited)
        play(m, (3, 4), (3, 3, "E"), (3, 3), FAR)   # path via (4, 3) is rodded, (3, 4) is visited
        assert ((4, 4) in options(m)) is legal


def test_the_mole_never_returns_to_a_visited_space():
    m = new()
    play(m, (3, 3), FAR, (4, 3), (1, 1, "E"), (4, 4), (1, 2, "E"))
    assert not options(m) & {(3, 3), (4, 3)}
    with pytest.raises(IllegalMove):
        m.submit(1, "move", (4, 3))


def test_each_refused_target_says_why_in_a_few_words():
    m = new()
    play(m, (3, 3), (3, 3, "E"), (3, 4), (3, 4, "S"))      # mole on (3, 4); rods east of (3, 3), south of (3, 4)
    state = m.state
    assert state.refusal("move", (3, 4)) == "the mole is here"
    assert state.refusal("move", [3, 3]) == "visited already"
    assert state.refusal("move", (5, 4)) == "too far away"
    assert state.refusal("move", (3, 5)) == "a rod is in the way"
    assert state.refusal("rod", (3, 4, "S")) == "a rod is there"
    assert state.refusal("rod", (9, 4, "E")) == "no edge there"
    for reason in ("the mole is here", "visited already", "too far away", "a rod is in the way",
                   "rods block both ways", "both ways blocked", "a rod is there", "no edge there"):
        assert len(reason) <= 20                             # two lines beside the board on the OLED


@pytest.mark.parametrize("target", DIAGONALS)
def test_a_diagonal_closed_by_rods_is_refused_for_them(target):
    (a1, a2), (b1, b2) = DIAGONALS[target]
    assert mole_on_33_with(a1, b2).state.refusal("move", target) == "rods block both ways"


def test_a_diagonal_closed_by_a_rod_and_a_visited_side_space_is_refused_for_both():
    m = new(diagonal_past_visited=False)
    play(m, (3, 4), (3, 3, "E"), (3, 3), FAR)          # via (4, 3) rodded, via (3, 4) visited
    assert m.state.refusal("move", (4, 4)) == "both ways blocked"


def test_the_rod_cursor_starts_beside_the_mole():
    m = new()
    play(m, (6, 3))
    (decision,) = m.open_decisions()
    assert set(decision.options[:4]) == {(6, 3, "E"), (5, 3, "E"), (6, 3, "S"), (6, 2, "S")}


def test_a_move_beyond_the_neighbours_is_refused():
    m = new()
    play(m, (3, 3), FAR)
    with pytest.raises(IllegalMove):
        m.submit(1, "move", (5, 3))


# ---- the centre ------------------------------------------------------------------------------

def test_after_moving_onto_the_centre_the_mole_may_jump_to_any_free_space_across_rods():
    m = new()
    play(m, (6, 4), FAR, CENTRE)
    assert board(m)["jump_next"] is True and board(m)["phase"] == "rod"
    play(m, (4, 4, "E"))
    (decision,) = m.open_decisions()
    assert decision.prompt == "Jump to any free space" and board(m)["phase"] == "jump"
    assert set(decision.options) == ALL_CELLS - {(6, 4), CENTRE}
    events = play(m, (9, 7))
    assert events[0].kind == "jump" and events[0].data["from"] == [5, 4] and events[0].data["to"] == [9, 7]
    play(m, (1, 1, "E"))
    assert board(m)["phase"] == "move" and options(m) == {(8, 7), (9, 6), (8, 6)}


def test_a_jump_from_the_centre_may_land_next_door_across_a_rod():
    m = new()
    play(m, (6, 4), FAR, CENTRE, (4, 4, "E"))
    assert play(m, (4, 4))[0].kind == "jump"
    assert CENTRE not in options(m)


def test_starting_on_the_centre_grants_no_jump_unless_the_variant_says_so():
    m = new()
    play(m, CENTRE, FAR)
    assert options(m) == neighbours(CENTRE)
    m = new(centre_start_jumps=True)
    play(m, CENTRE, FAR)
    assert options(m) == ALL_CELLS - {CENTRE}


# ---- the end of a round and scoring ------------------------------------------------------------

def test_the_round_ends_when_the_last_piece_is_the_stack_and_its_dark_bottom_counts():
    m = new(light_pieces=1, dark_pieces=2)
    events = play(m, (4, 1), FAR, (5, 1), (1, 1, "E"), (6, 1))
    over = events[-1]
    assert over.kind == "round_over" and over.seat == 1
    assert over.data == {"round": 1, "reason": "pieces", "visited": 3, "dark": 2, "flowers": 2,
                         "score": 4, "totals": [4, 0]}
    record = board(m)["rounds"][0]
    assert record["trail"] == [[4, 1, "light"], [5, 1, "dark"], [6, 1, "dark"]]
    assert record["rods"] == [[1, 1, "E"], [1, 7, "E"]]


def test_a_full_default_round_visits_22_spaces_and_the_gardener_keeps_a_rod():
    m = new()
    path, rods = snake(), far_rods(21)
    play(m, path[0])
    for rod, cell in zip(rods, path[1:]):
        events = play(m, rod, cell)
    assert [e.kind for e in events] == ["rod", "move", "round_over"]
    assert events[-1].data["reason"] == "pieces" and events[-1].data["visited"] == 22
    assert events[-1].data["dark"] == 12
    assert events[-1].data["flowers"] == 2 + 1 + 1     # (5, 1) red, (8, 2) and (2, 2) white
    assert board(m)["rounds"][0]["rods"] == sorted([list(r) for r in rods])
    assert board(m)["round"] == 2 and board(m)["mole"] == 2 and board(m)["trail"] == []


def test_pieces_left_light_first_then_dark():
    m = new()
    assert board(m)["pieces_left"] == {"light": 10, "dark": 12}
    play(m, (1, 1))
    assert board(m)["pieces_left"] == {"light": 9, "dark": 12}
    for rod, cell in zip(far_rods(10), snake(11)[1:]):
        play(m, rod, cell)
    assert board(m)["pieces_left"] == {"light": 0, "dark": 11}
    assert [colour for *_, colour in board(m)["trail"]] == ["light"] * 10 + ["dark"]
    assert board(m)["score"] == 1 + 2 + 1        # one dark, (5, 1) red, (8, 2) white


def test_a_boxed_in_mole_ends_the_round_and_a_light_bottom_piece_scores_nothing():
    m = new()
    events = play(m, (2, 2), (1, 1, "E"), (1, 1), (1, 1, "S"))
    assert events[-1].kind == "round_over"
    assert events[-1].data == {"round": 1, "reason": "blocked", "visited": 2, "dark": 0, "flowers": 1,
                               "score": 1, "totals": [1, 0]}
    assert m.open_decisions()[0].seat == 2 and m.open_decisions()[0].key == "place"


@pytest.mark.parametrize("layout, score", [("edge-red", 1), ("corner-red", 2), ("none", 0)])
def test_the_flower_layout_is_a_variant(layout, score):
    m = new(flower_layout=layout)
    assert {(c, r): p for c, r, p in board(m)["flowers"]} == FLOWERS[layout]
    events = play(m, (2, 2), (1, 1, "E"), (1, 1), (1, 1, "S"))
    assert events[-1].data["score"] == score


def test_one_rod_can_never_box_in_a_freshly_placed_mole():
    state = MoleHill(2, resolve("mole-hill")).initial_state()
    for cell in sorted(ALL_CELLS):
        placed = state.clone()
        placed.apply(Move(1, "place", cell))
        for rod in placed.pending()[0].options:
            after = placed.clone()
            after.apply(Move(2, "rod", rod))
            assert after.phase == "move" and after.targets(), (cell, rod)
    assert state.trail == [] and state.rods == set()


def test_a_mole_boxed_in_on_its_first_move_ends_the_round_with_its_start_flower():
    # Unreachable with one rod a turn (see above), so two rods are put down beforehand.
    state = MoleHill(2, resolve("mole-hill")).initial_state()
    state.rods |= {(1, 3, "S"), (1, 4, "E")}
    state.apply(Move(1, "place", (1, 4)))
    events = state.apply(Move(2, "rod", (1, 4, "S")))
    assert [e.kind for e in events] == ["rod", "round_over"]
    assert events[-1].data["reason"] == "blocked" and events[-1].data["score"] == 2
    assert state.view(None)["scores"] == [2, 0] and state.pending()[0].seat == 2
    assert state.rods == set() and state.trail == []


def test_without_rods_the_gardener_is_skipped():
    m = new(rods=1)
    events = play(m, (1, 1), FAR, (2, 1))
    assert events[-1].kind == "pass" and events[-1].seat == 2
    (decision,) = m.open_decisions()
    assert (decision.seat, decision.key) == (1, "move") and board(m)["rods_left"] == 0
    m = new(rods=0)
    play(m, (1, 1))
    assert m.open_decisions()[0].key == "move"


# ---- whole games -----------------------------------------------------------------------------

def test_two_rounds_swap_roles_and_the_better_mole_wins():
    m = new(light_pieces=1, dark_pieces=2, rods=0)
    assert [e.kind for e in play(m, (5, 1))] == ["place", "pass"]
    play(m, (6, 1), (7, 1))                           # round 1: seat 1 scores 2 dark + red (5, 1)
    assert board(m)["mole"] == 2 and board(m)["gardener"] == 1
    events = play(m, (1, 1), (2, 1), (3, 1))          # round 2: seat 2 scores 2 dark
    assert [e.kind for e in events[-2:]] == ["round_over", "game_over"]
    assert events[-1].data == {"winners": [1], "scores": [4, 2]}
    assert m.over and m.result().scores == (4, 2) and m.result().winners == (1,)
    assert board(m)["round_scores"] == [[4, 0], [0, 2]] and board(m)["scores"] == [4, 2]
    assert board(m)["phase"] == "over"
    assert m.open_decisions() == []
    with pytest.raises(IllegalMove, match="over"):
        m.submit(2, "move", (4, 1))


def test_a_full_default_game_with_equal_scores_is_a_draw():
    m = new(first_mole=2)
    for mole in (2, 1):
        assert board(m)["mole"] == mole
        play(m, snake()[0])
        for rod, cell in zip(far_rods(21), snake()[1:]):
            play(m, rod, cell)
    assert m.result().scores == (16, 16) and m.result().winners == (1, 2)
    assert [r["mole"] for r in board(m)["rounds"]] == [2, 1]


def test_every_seat_sees_the_same_json_ready_board():
    m = new()
    play(m, (3, 3), (3, 3, "E"), (4, 4))
    views = [json.dumps(m.state.view(s), sort_keys=True) for s in (None, 1, 2)]
    assert views[0] == views[1] == views[2]
    state = json.loads(views[0])
    assert state["position"] == [4, 4] and state["to_act"] == 2 and state["phase"] == "rod"
    assert state["trail"] == [[3, 3, "light"], [4, 4, "light"]] and state["rods"] == [[3, 3, "E"]]


def test_a_clone_is_independent():
    m = new()
    play(m, (3, 3), FAR)
    copy = m.state.clone()
    copy.apply(Move(1, "move", (4, 4)))
    copy.apply(Move(2, "rod", (4, 4, "E")))
    assert m.state.trail == [(3, 3)] and m.state.rods == {FAR}
    assert copy.trail == [(3, 3), (4, 4)] and copy.rods == {FAR, (4, 4, "E")}


# ---- properties over random legal play --------------------------------------------------------

def crosses(a, b, rods) -> bool:
    """True if a rod lies between the orthogonal neighbours ``a`` and ``b``."""
    if a[1] == b[1]:
        return (min(a[0], b[0]), a[1], "E") in rods
    return (a[0], min(a[1], b[1]), "S") in rods


def legal_steps(trail, rods, jump, past_visited) -> set:
    """An independent statement of where the mole may go."""
    free = ALL_CELLS - set(trail)
    if jump:
        return free
    here, out = trail[-1], set()
    for to in free & neighbours(here):
        if to[0] == here[0] or to[1] == here[1]:
            if not crosses(here, to, rods):
                out.add(to)
            continue
        for via in ((to[0], here[1]), (here[0], to[1])):
            if (past_visited or via not in trail) and not crosses(here, via, rods) and not crosses(via, to, rods):
                out.add(to)
    return out


@st.composite
def variants(draw):
    return {
        "first_mole": draw(st.integers(1, 2)),
        "flower_layout": draw(st.sampled_from(sorted(FLOWERS))),
        "rods": draw(st.sampled_from([0, 3, 22])),
        "light_pieces": draw(st.sampled_from([0, 4, 10])),
        "dark_pieces": draw(st.sampled_from([1, 5, 12])),
        "diagonal_past_visited": draw(st.booleans()),
        "centre_start_jumps": draw(st.booleans()),
    }


@settings(max_examples=80, deadline=None)
@given(variants(), st.data())
def test_random_legal_play_keeps_every_rule_and_replays(variant, data):
    m = new(**variant)
    light, pieces = variant["light_pieces"], variant["light_pieces"] + variant["dark_pieces"]
    trail, rods, ended = [], set(), []

    def jump(trail) -> bool:
        return trail[-1] == CENTRE and (len(trail) > 1 or variant["centre_start_jumps"])

    for _ in range(2 * (2 * pieces + 1)):
        if m.over:
            break
        (decision,) = m.open_decisions()
        assert decision.options
        if decision.key == "move":
            assert set(decision.options) == legal_steps(trail, rods, jump(trail), variant["diagonal_past_visited"])
        value = data.draw(st.sampled_from(decision.options))
        events = m.submit(decision.seat, decision.key, value)
        if decision.key == "rod":
            rods.add(value)
        else:
            assert value not in trail                                       # never revisits
            if decision.key == "move" and not jump(trail):                  # never crosses a rod
                here = trail[-1]
                paths = [(here, value)] if here[0] == value[0] or here[1] == value[1] else [
                    (here, via, value) for via in ((value[0], here[1]), (here[0], value[1]))]
                assert max(abs(value[0] - here[0]), abs(value[1] - here[1])) == 1
                assert any(not any(crosses(a, b, rods) for a, b in zip(p, p[1:])) for p in paths)
            trail.append(value)
        for event in events:
            if event.kind != "round_over":
                continue
            assert len(trail) == pieces or not legal_steps(trail, rods, jump(trail), variant["diagonal_past_visited"])
            record = board(m)["rounds"][-1]
            assert [tuple(cell[:2]) for cell in record["trail"]] == trail
            assert [cell[2] for cell in record["trail"]].count("dark") == max(0, len(trail) - light)
            flowers = sum(FLOWERS[variant["flower_layout"]].get(cell, 0) for cell in trail)
            assert event.data["score"] == record["score"] == max(0, len(trail) - light) + flowers
            ended.append((event.seat, event.data["score"]))
            trail, rods = [], set()
    assert m.over
    moles = [variant["first_mole"], 3 - variant["first_mole"]]
    assert [seat for seat, _ in ended] == moles
    scores = tuple(dict(ended)[seat] for seat in (1, 2))
    assert m.result().scores == scores
    assert m.result().winners == tuple(s for s in (1, 2) if scores[s - 1] == max(scores))
    replayed = Match.replay(json.loads(json.dumps(m.transcript())))
    assert json.dumps(replayed.view(None), sort_keys=True) == json.dumps(m.view(None), sort_keys=True)
