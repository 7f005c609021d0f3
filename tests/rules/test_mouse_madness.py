"""Mouse Madness's rules: every rule of the text, the bounce-backs, push chains, falls and jumps;
bad moves and bad board files; properties over seeded random play."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from rules.match import Header, Match
from rules.model import IllegalMove, Move
from rules.mouse_madness import Board, BoardError, MouseMadness, MouseState, boards, parse_boards
from rules.settings import SettingError, load_specs, resolve
from tests.rules.checked import apply_checked
from tests.rules.mouse_madness_bots import greedy_answer, play, random_answer

# The standard board: the cheese on 30; mouse holes 7>2, 12>8, 17>10, 22>16, 27>24.


def staged(*positions, mover=1, board: Board | None = None, **settings) -> MouseState:
    """A game in play: tokens on ``positions`` (seat 1 first), ``mover`` about to roll."""
    state = MouseMadness(len(positions), resolve("mouse-madness", settings)).initial_state()
    if board is not None:
        state.game.board = board
    state.pos, state.rolling, state.mover, state.phase = list(positions), (), mover, "roll"
    return state


def bare(length=14) -> Board:
    """A board without mouse holes, to see pushes on their own."""
    return Board("bare", length, {})


def roll(state: MouseState, value: int) -> list:
    return apply_checked(state, None, "roll", value)


def answer(state: MouseState, key: str, value) -> list:
    return apply_checked(state, state.mover, key, value)


def options(state: MouseState) -> dict:
    (d,) = state.pending()
    return {"seat": d.seat, "key": d.key, "options": d.options, "labels": d.labels}


def moves(events, *kinds) -> list:
    return [(e.kind, e.seat, e.data["from"], e.data["to"]) for e in events if e.kind in kinds]


def next_up(state: MouseState) -> tuple:
    (d,) = state.pending()
    return d.enter_by, d.key


# ---- the start -----------------------------------------------------------------------------------

def test_every_seat_rolls_to_start_and_the_highest_goes_first():
    state = MouseMadness(3, resolve("mouse-madness")).initial_state()
    assert state.pos == [0, 0, 0]
    assert sorted(next_up_all(state)) == [(1, "start-1"), (2, "start-2"), (3, "start-3")]
    for seat, value in ((1, 2), (2, 6), (3, 2)):             # the lower tie does not matter
        events = state.apply(Move(None, f"start-{seat}", value))
    assert [(e.kind, e.seat) for e in events] == [("start_roll", 3), ("first", 2)]
    assert next_up(state) == (2, "roll") and state.turns == 0


def test_a_tie_for_the_highest_rerolls_among_the_tied_seats_only():
    state = MouseMadness(4, resolve("mouse-madness")).initial_state()
    for seat, value in ((1, 5), (2, 3), (3, 5), (4, 5)):
        events = state.apply(Move(None, f"start-{seat}", value))
    assert events[-1].kind == "reroll" and events[-1].data == {"seats": [1, 3, 4], "roll": 5}
    assert sorted(next_up_all(state)) == [(1, "start-1"), (3, "start-3"), (4, "start-4")]
    for seat, value in ((1, 4), (3, 4), (4, 1)):
        state.apply(Move(None, f"start-{seat}", value))
    for seat, value in ((1, 2), (3, 3)):
        events = state.apply(Move(None, f"start-{seat}", value))
    assert events[-1].kind == "first" and events[-1].seat == 3
    assert state.view(None)["start_rolls"] == [[[1, 5], [2, 3], [3, 5], [4, 5]], [[1, 4], [3, 4], [4, 1]],
                                               [[1, 2], [3, 3]]]


def next_up_all(state: MouseState) -> list:
    return [(d.enter_by, d.key) for d in state.pending()]


def test_play_goes_clockwise_from_the_first_seat():
    state = staged(0, 0, 0, mover=3)
    roll(state, 3)                                  # from the start: forward only
    assert next_up(state) == (1, "roll")
    roll(state, 1)
    assert next_up(state) == (2, "roll") and state.pos == [1, 0, 3]


# ---- moving ----------------------------------------------------------------------------------------

def test_the_mover_chooses_forward_or_back():
    state = staged(10, 0)
    events = roll(state, 4)
    assert events == [events[0]] and events[0].data == {"roll": 4}
    assert options(state) == {"seat": 1, "key": "direction", "options": ("forward", "back"),
                              "labels": ("Forward to 14", "Back to 6")}
    events = answer(state, "direction", "back")
    assert moves(events, "move") == [("move", 1, 10, 6)] and not events[0].data["forced"]
    assert state.pos == [6, 0] and next_up(state) == (2, "roll")


def test_from_the_start_the_move_is_forward():
    state = staged(0, 0)
    events = roll(state, 6)
    assert moves(events, "move") == [("move", 1, 0, 6)] and events[1].data["forced"]


def test_a_token_never_moves_back_onto_the_start():
    state = staged(3, 0)
    events = roll(state, 4)                          # back would pass the start: forward it is
    assert moves(events, "move", "fall") == [("move", 1, 3, 7), ("fall", 1, 7, 2)]
    assert events[1].data == {"from": 3, "to": 7, "direction": "forward", "roll": 4, "forced": True}


def test_past_the_cheese_the_move_bounces_back():
    state = staged(26, 0)
    events = roll(state, 5)                          # 31 is past the cheese: back to 21
    assert moves(events, "move") == [("move", 1, 26, 21)] and state.pos == [21, 0]


def test_landing_on_the_cheese_exactly_wins():
    state = staged(26, 11)
    roll(state, 4)
    events = answer(state, "direction", "forward")
    assert [e.kind for e in events] == ["move", "win", "game_over"]
    assert state.result().winners == (1,) and state.result().scores == (30, 11)
    assert state.pending() == [] and state.view(None)["winner"] == 1


def test_one_short_of_the_cheese_is_no_win():
    state = staged(28, 11)
    events = roll(state, 6)                          # 34: back to 22, a hole, down to 16
    assert moves(events, "move", "fall") == [("move", 1, 28, 22), ("fall", 1, 22, 16)]
    assert state.result() is None


# ---- mouse holes -------------------------------------------------------------------------------------

def test_landing_on_a_mouse_hole_drops_the_token_to_the_arrow():
    state = staged(11, 0)
    roll(state, 6)
    events = answer(state, "direction", "forward")
    assert moves(events, "move", "fall") == [("move", 1, 11, 17), ("fall", 1, 17, 10)]
    assert state.pos == [10, 0]


def test_a_move_back_onto_a_hole_falls_too():
    state = staged(13, 0)
    roll(state, 1)
    events = answer(state, "direction", "back")
    assert moves(events, "move", "fall") == [("move", 1, 13, 12), ("fall", 1, 12, 8)]


def test_a_push_onto_a_mouse_hole_drops_the_pushed_token():
    state = staged(5, 11, jumping=False)
    roll(state, 6)                                   # 5 + 6 = 11: on seat 2's token
    answer(state, "push", "forward")
    assert state.pos == [11, 8]


def test_a_token_falling_onto_another_pushes_it_back_and_that_one_can_fall_again():
    state = staged(5, 11, 8, jumping=False)
    roll(state, 6)                                   # 5 + 6 = 11, on seat 2: push it forward or back
    events = answer(state, "push", "forward")
    assert moves(events, "push", "fall") == [
        ("push", 2, 11, 12), ("fall", 2, 12, 8),     # into hole 12, out at 8, onto seat 3...
        ("push", 3, 8, 7), ("fall", 3, 7, 2)]        # ...pushed back into hole 7, out at 2
    assert state.pos == [11, 8, 2]


def test_a_mover_falling_onto_a_token_chooses_the_push():
    state = staged(1, 2, jumping=False)
    roll(state, 6)                                   # 1 + 6 = 7, hole 7 drops the mover on seat 2 at 2
    assert options(state)["options"] == ("forward", "back")
    answer(state, "push", "back")
    assert state.pos == [2, 1]


# ---- pushing --------------------------------------------------------------------------------------------

def test_landing_on_a_token_the_mover_pushes_it_either_way():
    for way, expected in (("forward", [10, 11]), ("back", [10, 9])):
        state = staged(6, 10, board=bare(), jumping=False)
        roll(state, 4)
        answer(state, "direction", "forward")
        assert options(state) == {"seat": 1, "key": "push", "options": ("forward", "back"),
                                  "labels": ("Push forward to 11", "Push back to 9")}
        events = answer(state, "push", way)
        assert state.pos == expected and moves(events, "push")[0][1:] == (2, 10, expected[1])


def test_a_push_onto_a_token_pushes_it_on_until_every_token_stands_alone():
    state = staged(2, 7, 8, 9, 11, board=bare(), jumping=False)
    roll(state, 5)
    events = answer(state, "push", "forward")
    assert moves(events, "push") == [("push", 2, 7, 8), ("push", 3, 8, 9), ("push", 4, 9, 10)]
    assert state.pos == [7, 8, 9, 10, 11] and next_up(state) == (2, "roll")


def test_a_chain_pushed_back_against_the_start_turns_round_and_can_push_the_mover():
    state = staged(8, 2, 1, board=bare(), jumping=False)
    roll(state, 6)
    answer(state, "direction", "back")              # onto seat 2 at 2
    events = answer(state, "push", "back")
    assert moves(events, "push") == [("push", 2, 2, 1), ("push", 3, 1, 2), ("push", 1, 2, 3)]
    assert state.pos == [3, 1, 2]


def test_a_token_on_space_one_can_only_be_pushed_forward():
    state = staged(7, 1, board=bare(), jumping=False)
    roll(state, 6)
    events = answer(state, "direction", "back")      # onto seat 2 at 1: the push has one way, so it happens
    assert moves(events, "move", "push") == [("move", 1, 7, 1), ("push", 2, 1, 2)]
    assert state.pos == [1, 2]


def test_a_push_never_puts_a_token_on_the_cheese_by_default():
    state = staged(23, 29, board=bare(30), jumping=False)
    roll(state, 6)
    events = answer(state, "direction", "forward")   # on seat 2 at 29: forward would be the cheese
    assert moves(events, "push") == [("push", 2, 29, 28)] and state.result() is None


def test_a_chain_pushed_against_the_cheese_turns_round():
    state = staged(22, 28, 29, board=bare(30), jumping=False)
    roll(state, 6)
    answer(state, "direction", "forward")
    events = answer(state, "push", "forward")
    assert moves(events, "push") == [("push", 2, 28, 29), ("push", 3, 29, 28), ("push", 1, 28, 27)]
    assert state.pos == [27, 29, 28]


def test_with_cheese_push_wins_a_pushed_token_on_the_cheese_wins():
    state = staged(23, 29, board=bare(30), jumping=False, cheese_push="wins")
    roll(state, 6)
    answer(state, "direction", "forward")
    assert options(state)["options"] == ("forward", "back")
    events = answer(state, "push", "forward")
    assert [e.kind for e in events] == ["push", "win", "game_over"] and events[1].data["by"] == "push"
    assert state.result().winners == (2,) and state.pos == [29, 30]


# ---- jumping (the second challenge) ------------------------------------------------------------------------

def test_next_to_a_token_the_mover_may_jump_it_two_more_spaces_or_stay():
    state = staged(6, 11, board=bare())
    roll(state, 4)
    answer(state, "direction", "forward")            # 10, right behind seat 2
    assert options(state) == {"seat": 1, "key": "jump", "options": ("stay", "jump-forward"),
                              "labels": ("Stay on 10", "Jump S2 to 12")}
    events = answer(state, "jump", "jump-forward")
    assert moves(events, "jump") == [("jump", 1, 10, 12)] and events[0].data["over"] == 2
    assert state.pos == [12, 11] and next_up(state) == (2, "roll")   # seat 2 is not jumped back over


def test_jumps_chain_over_tokens_placed_two_apart():
    state = staged(5, 8, 10, 12, board=bare(20))
    roll(state, 2)
    answer(state, "direction", "forward")            # 7
    for expected in (9, 11, 13):
        answer(state, "jump", "jump-forward")
        assert state.pos[0] == expected
    assert next_up(state) == (2, "roll")             # nobody next to 13: the turn ends


def test_a_jump_back_is_a_jump_too():
    state = staged(14, 9, board=bare(20))
    roll(state, 4)
    answer(state, "direction", "back")               # 10, right in front of seat 2 at 9
    assert options(state)["options"] == ("stay", "jump-back")
    answer(state, "jump", "jump-back")
    assert state.pos == [8, 9]


def test_on_a_token_next_to_another_the_mover_pushes_or_jumps_not_both():
    state = staged(5, 10, 11, board=bare())
    roll(state, 5)                                   # on seat 2 at 10, seat 3 just ahead
    assert options(state)["options"] == ("forward", "back", "jump-forward")
    events = answer(state, "push", "jump-forward")    # jump: seat 2 is left where it is
    assert state.pos == [12, 10, 11] and not moves(events, "push")


def test_once_pushing_starts_there_is_no_more_jumping():
    state = staged(5, 10, 12, board=bare())
    roll(state, 5)
    answer(state, "push", "forward")                 # seat 2 to 11, now next to the mover and to seat 3
    assert state.pos == [10, 11, 12] and next_up(state) == (2, "roll")


def test_a_jump_onto_a_token_leads_to_a_push():
    state = staged(6, 11, 12, board=bare())
    roll(state, 4)
    answer(state, "direction", "forward")
    answer(state, "jump", "jump-forward")            # over seat 2 onto seat 3 at 12
    assert options(state)["key"] == "push" and options(state)["options"] == ("forward", "back")
    answer(state, "push", "forward")
    assert state.pos == [12, 11, 13]


def test_a_jump_onto_a_hole_falls():
    state = staged(4, 11)                            # standard board: 12 > 8
    roll(state, 6)                                   # 10, behind seat 2 at 11
    events = answer(state, "jump", "jump-forward")
    assert moves(events, "jump", "fall") == [("jump", 1, 10, 12), ("fall", 1, 12, 8)]
    assert state.pos == [8, 11]


def test_a_jump_onto_the_cheese_wins():
    state = staged(22, 29, board=bare(30))
    roll(state, 6)
    answer(state, "direction", "forward")            # 28, behind seat 2 at 29
    events = answer(state, "jump", "jump-forward")
    assert [e.kind for e in events] == ["jump", "win", "game_over"] and state.result().winners == (1,)


def test_a_jump_never_lands_on_the_start_or_past_the_cheese():
    state = staged(7, 1, board=bare())
    roll(state, 5)
    answer(state, "direction", "back")               # 2, in front of seat 2 at 1: the jump would reach 0
    assert next_up(state) == (2, "roll")


def test_without_the_jumping_variant_there_are_no_jumps():
    state = staged(6, 11, board=bare(), jumping=False)
    roll(state, 4)
    answer(state, "direction", "forward")
    assert next_up(state) == (2, "roll") and state.pos == [10, 11]


# ---- refusals ---------------------------------------------------------------------------------------------

def test_bad_moves_are_refused_with_the_reason():
    state = staged(10, 0)
    with pytest.raises(IllegalMove, match="seat 1 has nothing to decide for 'direction' now"):
        answer(state, "direction", "forward")
    roll(state, 3)
    with pytest.raises(IllegalMove, match="direction: 'sideways' is not a legal choice"):
        answer(state, "direction", "sideways")
    with pytest.raises(IllegalMove, match="seat 2 has nothing to decide for 'direction' now"):
        apply_checked(state, 2, "direction", "back")
    with pytest.raises(IllegalMove, match="chance has nothing to decide for 'roll' now"):
        roll(state, 2)
    assert state.pos == [10, 0] and state.phase == "direction"


def test_a_match_refuses_a_die_entered_by_the_wrong_seat_and_one_off_the_die():
    m = Match(Header("mouse-madness", 2, dice="physical"))
    assert sorted((d.seat, d.key, d.options) for d in m.open_decisions()) == [
        (1, "start-1", (1, 2, 3, 4, 5, 6)), (2, "start-2", (1, 2, 3, 4, 5, 6))]
    with pytest.raises(IllegalMove, match="seat 1 has nothing to decide for 'start-2' now"):
        m.submit(1, "start-2", 3)
    with pytest.raises(IllegalMove, match="start-1: 7 is not a legal choice"):
        m.submit(1, "start-1", 7)
    m.submit(1, "start-1", 6)
    m.submit(2, "start-2", 2)
    assert [(d.seat, d.key) for d in m.open_decisions()] == [(1, "roll")]
    m.submit(1, "roll", 5)
    assert m.state.pos == [5, 0] and [(d.seat, d.key) for d in m.open_decisions()] == [(2, "roll")]


# ---- settings and board files ---------------------------------------------------------------------------------

def test_every_shipped_board_loads_and_is_a_choice_of_the_board_setting():
    assert tuple(boards()) == load_specs("mouse-madness")["board"].choices
    assert boards()["standard"] == Board("standard", 30, {7: 2, 12: 8, 17: 10, 22: 16, 27: 24})
    assert MouseMadness(2, resolve("mouse-madness", {"board": "quick"})).board.length == 20


def test_an_unknown_board_is_refused_with_the_choices():
    with pytest.raises(SettingError, match="board: 'huge' is not one of standard, quick, long"):
        resolve("mouse-madness", {"board": "huge"})


@pytest.mark.parametrize("text, message", [
    ("[tiny]\nlength = 10\nholes = []", r"\[tiny\]: length 10 is too short; put the cheese at least 12"),
    ("[b]\nlength = 30\nholes = [[5, 2]]", r"\[b\]: hole 5 is off limits; put holes on spaces 7 to 29"),
    ("[b]\nlength = 30\nholes = [[30, 2]]", r"\[b\]: hole 30 is off limits"),
    ("[b]\nlength = 30\nholes = [[9, 12]]", r"\[b\]: the arrow of hole 9 points to 12; point it back, to a space "
                                            r"from 1 to 8"),
    ("[b]\nlength = 30\nholes = [[9, 0]]", r"the arrow of hole 9 points to 0; point it back"),
    ("[b]\nlength = 30\nholes = [[8, 3], [12, 8]]", r"the arrow of hole 12 points to hole 8; point it to a "
                                                     r"space without a hole"),
    ("[b]\nlength = 30\nholes = [[8, 3], [8, 4]]", r"\[b\]: hole 8 is listed twice; give each hole one arrow"),
    ("[b]\nlength = 30\nholes = [8, 3]", r"\[b\]: holes must be \[hole, arrow\] pairs, e.g."),
    ("[b]\nlength = '30'", r"\[b\]: length must be a whole number of spaces, e.g. length = 30"),
    ("[b]\nlenght = 30", r"\[b\]: unknown key 'lenght'; a board has doc, length, holes"),
    ("[b]\nlength = ", r": Invalid value .*; fix the TOML syntax"),
])
def test_a_bad_board_file_names_the_board_and_the_fix(text, message):
    with pytest.raises(BoardError, match=r"rules/boards/mouse-madness.toml.*" + message):
        parse_boards(text)


# ---- views --------------------------------------------------------------------------------------------------------

def test_the_view_is_public_and_tells_this_turn_s_story():
    state = staged(5, 11, 8, jumping=False)
    roll(state, 6)
    assert state.view(None)["choices"] == [["forward", "Push forward to 12", 12], ["back", "Push back to 10", 10]]
    answer(state, "push", "forward")
    view = state.view(None)
    assert view == state.view(1) == state.view(3)
    assert view["trail"] == [["move", 1, 5, 11], ["push", 2, 11, 12], ["fall", 2, 12, 8],
                             ["push", 3, 8, 7], ["fall", 3, 7, 2]]
    assert view["positions"] == [11, 8, 2] and view["turn"] == 2 and view["to_act"] == [2]
    assert view["history"] == [[11, 8, 2]]                       # every seat's space after each turn
    assert view["choices"] == [] and view["board"] == {
        "name": "standard", "length": 30, "holes": [[7, 2], [12, 8], [17, 10], [22, 16], [27, 24]]}


def test_clone_is_independent():
    state = staged(5, 10, board=bare(), jumping=False)
    twin = state.clone()
    roll(twin, 5)
    answer(twin, "push", "back")
    assert state.pos == [5, 10] and state.phase == "roll" and state.trail == []
    assert twin.pos == [10, 9]


# ---- properties over seeded random play -------------------------------------------------------------------

def check_at_rest(match: Match) -> None:
    """Between decisions: tokens on the track and off the holes; at rest, one token to a space off the start."""
    s = match.state
    assert all(0 <= p <= s.length and p not in s.game.board.holes for p in s.pos)
    if s.phase in ("roll", "direction", "over"):
        off_start = [p for p in s.pos if p]
        assert len(off_start) == len(set(off_start)), s.pos


games = st.tuples(st.integers(2, 6), st.integers(0, 2**20), st.sampled_from([greedy_answer, random_answer]),
                  st.sampled_from(list(boards())), st.booleans(), st.sampled_from(["blocked", "wins"]),
                  st.sampled_from(["virtual", "physical"]))


def _play(game, check=None):
    seats, seed, bot, board, jumping, cheese_push, dice = game
    return play(seats, seed, bot, {"board": board, "jumping": jumping, "cheese_push": cheese_push}, dice,
                check=check)


def alone_after_every_turn_and_never_back_on_the_start():
    """A check for every answer: when a turn begins, every token off the start stands alone (the turn's
    trail, undone, gives the board the last turn left); a token that has left the start never stands
    on it again."""
    left: set[int] = set()

    def check(match: Match) -> None:
        s = match.state
        check_at_rest(match)
        begun = list(s.pos)
        for _, seat, start, _ in reversed(s.trail):
            begun[seat - 1] = start
        off_start = [p for p in begun if p]
        assert len(off_start) == len(set(off_start)), (begun, s.trail)
        assert not [seat for seat in left if s.pos[seat - 1] == 0], (s.pos, left)
        left.update(seat for seat, p in enumerate(s.pos, 1) if p)

    return check


@settings(max_examples=40, deadline=None)
@given(games)
def test_random_play_ends_on_the_cheese_never_back_on_the_start_tokens_alone_at_rest(game):
    m = _play(game, check=alone_after_every_turn_and_never_back_on_the_start())
    s = m.state
    assert m.over and s.pos[s.winner - 1] == s.length
    assert [e.kind for e in m.events].count("win") == 1
    assert all(p < s.length for seat, p in enumerate(s.pos, 1) if seat != s.winner)
    assert not [e for e in m.events if e.kind in ("move", "jump", "push", "fall") and e.data["to"] == 0]


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 200))
def test_a_transcript_replays_to_the_same_views(game, stop):
    full = _play(game)
    m = Match.replay(full.transcript(), upto=stop)
    replayed = Match.replay(json.loads(json.dumps(m.transcript())))
    for viewer in [None, *range(1, m.header.seats + 1)]:
        assert json.dumps(replayed.view(viewer), sort_keys=True) == json.dumps(m.view(viewer), sort_keys=True)
