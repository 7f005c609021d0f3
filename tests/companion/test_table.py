"""The table's decisions, as a pure function: a state and a move in, the state after it and its effects out.

No threads, no sleeps, no clocks, no hardware, no journal: each move carries its time, and the effects say what
the session is to do (commit, flash, refuse with these words, a moment, a log line, a reply).
"""
from __future__ import annotations

import copy
import dataclasses

import pytest

from companion.inputs import Gesture
from companion.table import Start, TableState, decide, public
from companion.table import effects as fx
from companion.table.drafts import Draft
from companion.table.moves import Act, Faults, Forgotten, Noted, NotTaken, Opened, Press, Resumed, Unfinished
from companion.table.press import HOST_UNDO
from companion.table.state import NOTICE_S

WHAKKA = Start("whakka-mole", 2, settings={"target": 12})


def tap(seat: int, control: str, at: float, **origin) -> Press:
    return Press(Gesture(at, seat, control, "tap", **origin))


def hold(seat: int, control: str, at: float, **origin) -> Press:
    return Press(Gesture(at, seat, control, "hold", **origin))


def dealt(game: Start = WHAKKA, panels: int = 2, **box) -> TableState:
    """A box of ``panels`` panels with ``game`` fixed by the command line, the journal opened with nothing in it."""
    state, effects = decide(TableState.new(panels, panels, fixed=game, **box), Opened((), None))
    assert [type(e) for e in effects if isinstance(e, fx.JOURNAL)] == [fx.Begin]
    return state


def play(state: TableState, *moves) -> tuple[TableState, list]:
    """The state after every move, and every effect on the way."""
    out = []
    for move in moves:
        state, effects = decide(state, move)
        out += effects
    return state, out


def of(kind, effects: list) -> list:
    return [e for e in effects if isinstance(e, kind)]


def turn(at: float = 1.0) -> list[Press]:
    """A whole Whakka Mole turn: seat 1 pops up hole 1 and whacks hole 5; seat 2 pops nothing and whacks hole 1."""
    return [tap(1, "hole1", at), tap(1, "ok", at + 0.1), tap(1, "hole5", at + 0.2), tap(1, "ok", at + 0.3),
            tap(2, "ok", at + 0.4), tap(2, "hole1", at + 0.5), tap(2, "ok", at + 0.6)]


def test_a_hole_changes_the_seat_s_draft_and_nothing_else():
    state = dealt()
    after, effects = decide(state, tap(1, "hole3", 1.0))
    assert after.drafts[1].value == {3} and state.drafts[1].value == frozenset()     # the old state is as it was
    assert effects == [fx.Flash(tap(1, "hole3", 1.0).gesture)]
    assert after.match.records == state.match.records == []


def test_ok_commits_the_draft_and_its_answer_waits_for_the_commit_point():
    state, _ = play(dealt(), tap(1, "hole2", 1.0))
    ok = tap(1, "ok", 1.1)
    after, effects = decide(state, ok)
    assert effects[-1] == fx.Commit(ok.gesture, Draft(state.drafts[1].key, frozenset({2})))   # the draft, should the card refuse
    assert not of(fx.Flash, effects)                      # the lamps answer once it is on disk
    assert after.match.records[-1] == {"seat": 1, "key": "popup", "value": [2]}
    assert after.drafts[1].value is None                  # the next decision (the whack) starts afresh


def test_a_wrong_press_is_refused_with_its_reason_on_the_seat_s_screen_for_a_few_seconds():
    state, _ = play(dealt(), tap(1, "ok", 1.0))           # no pop-ups: on to the whack
    ok = tap(1, "ok", 2.0)                                # OK with no hole to whack
    after, effects = decide(state, ok)
    assert of(fx.Refuse, effects) == [fx.Refuse(ok.gesture, "choose first, then OK")]
    assert of(fx.Redraw, effects) == [fx.Redraw(2.0 + NOTICE_S)]
    assert after.notices[1].words == "choose first, then OK" and after.notices[1].until == 2.0 + NOTICE_S
    assert not of(fx.Commit, effects) and after.match.records == state.match.records
    assert of(fx.Log, effects)[0].args == (1, "tap")      # the log says a press was refused, never why
    after, _ = decide(after, tap(1, "hole2", 2.5))
    assert 1 not in after.notices                         # the next press takes it back


def test_a_seat_outside_the_game_and_every_press_while_paused_are_refused():
    state = TableState.new(3, 3, fixed=WHAKKA)
    state, _ = decide(state, Opened((), None))
    _, effects = decide(state, tap(3, "hole1", 1.0))
    assert of(fx.Refuse, effects)[0].reason == "this seat is not playing"
    paused, _ = decide(state, Faults("card full", "the card is full", None))
    _, effects = decide(paused, tap(1, "hole1", 1.0))
    assert of(fx.Refuse, effects)[0].reason == "paused: card full"
    _, effects = decide(paused, Act("undo", at=1.0))
    assert of(fx.Reply, effects) == [fx.Reply("the box is paused: card full")]


def test_the_last_lock_in_reveals_the_turn_as_a_moment_and_every_seat_is_told_it():
    state, effects = play(dealt(), *turn())
    assert of(fx.Moment, effects) == [fx.Moment("reveal")]
    reveal = next(i for i, event in enumerate(state.match.events) if event.kind == "reveal")
    assert all(state.heard.get(seat, 0) <= reveal for seat in (1, 2))      # each seat's news holds the reveal
    assert state.match.view(None)["state"]["turn"] == 2
    assert len(of(fx.Commit, effects)) == 4               # each OK one commit point


def test_seat_1_undoes_a_reveal_with_a_second_hold_within_five_seconds():
    state, _ = play(dealt(), *turn())
    first = hold(1, "ok", 3.0)
    state, effects = decide(state, first)
    assert of(fx.Refuse, effects)[0].reason == "hold OK again to undo the reveal"
    late, effects = decide(state, hold(1, "ok", 8.5))     # too late: asks again
    assert of(fx.Refuse, effects)[0].reason == "hold OK again to undo the reveal"
    state, effects = decide(state, hold(1, "ok", 4.0))
    (undo,) = of(fx.Undo, effects)
    assert undo.upto == 3 and state.match is undo.match and state.match.view(None)["state"]["turn"] == 1
    assert state.notices[2].words[0] == "Seat 1 undid your lock-in: pick again"
    assert 1 not in state.notices                         # the seat that undid it knows (its press is answered)
    assert state.table_notice.headline == "Undone" and state.table_notice.words[0] == "Seat 1 undid Seat 2's reveal"


def test_the_host_undoing_a_reveal_tells_every_seat_of_it_what_now():
    state, _ = play(dealt(), *turn())
    state, effects = decide(state, Act("undo", at=3.0))
    assert of(fx.Reply, effects) == [fx.Reply(None)]
    assert state.notices[2].words[0] == "The host undid your lock-in: pick again"
    assert state.notices[1].words[0] == "The host undid the reveal: your lock-in is kept, Seat 2 picks again"
    assert state.table_notice.words == ("The host undid Seat 2's reveal", "Seat 2's reveal undone", "Reveal undone")


def test_seat_1_s_phone_undoes_only_from_the_host_s_device():
    state, _ = play(dealt(), tap(2, "ok", 1.0))           # seat 2 pops up nothing; seat 1 holds nothing
    _, effects = decide(state, hold(1, "ok", 2.0, phone=True))
    assert of(fx.Refuse, effects)[0].reason == HOST_UNDO
    _, effects = decide(state, hold(1, "ok", 2.0, phone=True, host=True))
    assert of(fx.Undo, effects)


def test_holding_ok_takes_a_lock_in_back_before_the_reveal():
    state, _ = play(dealt(), tap(1, "ok", 1.0), tap(1, "hole5", 1.1), tap(1, "ok", 1.2))
    assert state.match.view(None)["locked"] == [1]
    back = hold(1, "ok", 2.0)
    state, effects = decide(state, back)
    assert effects[-1] == fx.Commit(back.gesture) and state.match.view(None)["locked"] == []


def test_the_journal_s_refusal_brings_the_draft_back_and_says_why():
    state, _ = play(dealt(), tap(1, "hole2", 1.0))
    ok = tap(1, "ok", 1.1)
    committed, effects = decide(state, ok)
    saved = committed.match.records[:0]
    as_saved, _ = decide(committed, Forgotten(type(committed.match).replay(
        {**committed.match.transcript(), "records": saved})))
    refused, effects = decide(as_saved, NotTaken(ok.gesture, "not saved: card full", effects[-1].draft))
    assert refused.drafts[1].value == {2} and refused.match.records == []
    assert of(fx.Refuse, effects) == [fx.Refuse(ok.gesture, "not saved: card full")]


def test_the_lobby_is_seat_1_s_and_its_start_is_journaled_before_anyone_sees_it():
    state, _ = decide(TableState.new(4, 3), Opened((), None))
    assert state.lobby is not None and state.phones == {4}
    _, effects = decide(state, tap(2, "hole1", 1.0))
    assert of(fx.Refuse, effects)[0].reason == "seat 1 chooses the game"
    state, _ = play(state, tap(1, "hole1", 1.0), tap(1, "ok", 1.1), tap(1, "ok", 1.2))     # Whakka Mole, 2 seats
    state, effects = decide(state, tap(1, "hole4", 1.3))                                  # seat 1 on a phone
    assert of(fx.Seating, effects) == [fx.Seating(frozenset({1, 4}), frozenset())] and state.phones == {1, 4}
    state, effects = decide(state, tap(1, "hole4", 1.4))
    assert of(fx.Seating, effects) == [fx.Seating(frozenset({4}), frozenset({1}))]
    state, effects = decide(state, tap(1, "ok", 1.5))
    (begin,) = of(fx.Begin, effects)
    assert state.lobby is None and state.match is begin.match and begin.match.header.game == "whakka-mole"


def test_a_note_with_words_for_the_screen_waits_for_seat_1_before_the_fixed_game():
    state, effects = decide(TableState.new(2, 2, fixed=WHAKKA), Opened((("The key was replaced.", "key replaced"),),
                                                                      None, at=0.0, wall=1000.0))
    assert state.match is None and [n.screen for n in state.unread()] == ["key replaced"]
    assert of(fx.Log, effects)[0].args == ("The key was replaced.",)
    _, effects = decide(state, tap(2, "ok", 1.0))
    assert of(fx.Refuse, effects)[0].reason == "seat 1: OK to read on"
    state, effects = decide(state, tap(1, "ok", 1.0))
    assert not state.notes and of(fx.Begin, effects) and state.match.header.game == "whakka-mole"
    assert public(state)["notes"] == []


def test_a_resumed_game_goes_on_and_each_seat_is_told_so():
    state, _ = play(dealt(), tap(1, "ok", 1.0), tap(1, "hole5", 1.1), tap(1, "ok", 1.2))
    again, effects = decide(TableState.new(2, 2, fixed=WHAKKA), Opened((), Unfinished(7, state.match, {1: "Ada"})))
    assert not of(fx.Begin, effects) and again.match is state.match and again.names == {1: "Ada"}
    assert again.notices[1].words == "Resumed: your lock-in is kept" and again.notices[2].words == "Resumed after a restart"
    assert again.table_notice.words == "Game #7 goes on after a restart"


def test_the_host_ends_a_game_and_takes_it_up_again():
    state, _ = play(dealt(), tap(1, "ok", 1.0))
    ended = state.match
    state, effects = decide(state, Act("end-game", at=2.0))
    assert of(fx.Abandon, effects) == [fx.Abandon(ended)] and of(fx.Begin, effects)     # the fixed game dealt again
    assert public(state)["ended"] and state.seed == 1
    state, effects = decide(state, Act("take-up", at=3.0))
    assert of(fx.Reopen, effects) == [fx.Reopen(ended)] and state.match is ended and of(fx.Reply, effects) == [fx.Reply(None)]
    _, effects = decide(state, Act("take-up", at=4.0))
    assert of(fx.Reply, effects)[0].refusal.startswith("no ended game")


def test_the_host_names_a_player_for_this_game_and_the_next():
    state, effects = decide(dealt(), Act("name", {"seat": 2, "name": "Bo"}, 1.0))
    assert of(fx.Name, effects) == [fx.Name(2, "Bo")] and state.names == {2: "Bo"} and state.who(2) == "Bo"
    _, effects = decide(state, Act("name", {"seat": 3, "name": "Cy"}, 1.0))
    assert of(fx.Reply, effects) == [fx.Reply("seat 3 is not playing; seats are 1 to 2")]


def test_a_computer_player_answers_once_every_person_has_locked_in():
    state = dealt(Start("whakka-mole", 2, bots={2: "casual"}, settings={"target": 12}))
    state, effects = play(state, tap(1, "ok", 1.0), tap(1, "hole5", 1.1))
    assert state.match.view(None)["locked"] == []
    state, effects = decide(state, tap(1, "ok", 1.2))
    commits = of(fx.Commit, effects)
    assert commits[0].gesture is not None and [c.gesture for c in commits[1:]] == [None, None]    # the bot's two picks
    assert of(fx.Moment, effects) == [fx.Moment("reveal")]
    _, effects = decide(state, tap(2, "hole1", 2.0))
    assert of(fx.Refuse, effects)[0].reason == "a computer player has this seat"


def test_notes_from_elsewhere_reach_the_host_and_play_goes_on_after_a_fault():
    state, _ = decide(dealt(), Noted("The IO board runs another build.", None, wall=5.0))
    assert [(n.id, n.text, n.at) for n in state.notes] == [(1, "The IO board runs another build.", 5.0)]
    paused, _ = play(state, Faults(None, None, "IO board unplugged"), hold(1, "hole1", 1.0))
    assert paused.notices[1].words == "paused: IO board unplugged"
    back, _ = play(paused, Faults(None, None, None), Resumed())
    assert not back.notices and not back.paused


@pytest.mark.parametrize("step", range(len(turn())))
def test_decide_leaves_the_state_it_was_given_as_it_was_but_the_match(step):
    """The match is a state machine of its own, answered in place (the journal holds its records)."""
    state, _ = play(dealt(), *turn()[:step])

    def kept() -> dict:
        return {f.name: copy.deepcopy(getattr(state, f.name)) for f in dataclasses.fields(state)
                if f.name not in ("match", "computers")}

    before = kept()
    decide(state, turn()[step])
    assert kept() == before
