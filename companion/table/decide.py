"""The table decides: ``decide(state, move) -> (state, effects)``, for every move the table is told.

The state answered is a new one (the one given stays as it was, but for the match, answered in place:
:mod:`companion.table.state`); the effects are plain data for the session to carry out. Nothing here
reads a clock (a move carries its time), waits, writes, or touches a thread or a device.
"""
from __future__ import annotations

from copy import copy

from . import host, life, press, told
from .effects import Effect, Reply
from ..players import Computers
from ..words import say
from .moves import Act, Faults, Forgotten, Freed, Move, Noted, NotTaken, Opened, Press, Resumed
from .state import TableState


def decide(state: TableState, move: Move) -> tuple[TableState, list[Effect]]:
    """The table after ``move``, and what the session is to do about it; then the computer players answer
    whatever is theirs to answer, and each seat's draft follows its seat's current decision."""
    state, fx = copy(state), []
    _MOVES[type(move)](state, fx, move)
    life.computers_play(state, fx, _at(move))
    _follow(state)
    return state, fx


def _press(state: TableState, fx: list[Effect], move: Press) -> None:
    press.press(state, fx, move.gesture)


def _act(state: TableState, fx: list[Effect], move: Act) -> None:
    if state.paused:
        fx.append(Reply(say("the box is paused: {fault}", fault=state.paused)))
        return
    fx.append(Reply(host.ACTIONS[move.action](state, fx, move)))


def _not_taken(state: TableState, fx: list[Effect], move: NotTaken) -> None:
    if move.draft is not None:
        state.drafts = {**state.drafts, move.gesture.seat: move.draft}
    press.refuse(state, fx, move.gesture, move.reason)


def _faults(state: TableState, fx: list[Effect], move: Faults) -> None:
    state.storage_fault, state.storage_text, state.hardware_fault = move.storage, move.storage_text, move.hardware


def _resumed(state: TableState, fx: list[Effect], move: Resumed) -> None:
    told.quiet(state)                           # "paused: ..." is over


def _opened(state: TableState, fx: list[Effect], move: Opened) -> None:
    life.opened(state, fx, move)


def _noted(state: TableState, fx: list[Effect], move: Noted) -> None:
    told.note(state, fx, move.text, move.screen, move.wall)


def _freed(state: TableState, fx: list[Effect], move: Freed) -> None:
    host.freed(state, fx, move.seat, move.at)


def _forgotten(state: TableState, fx: list[Effect], move: Forgotten) -> None:
    if move.match is not state.match:
        state.match, state.computers = move.match, Computers(move.match)


_MOVES = {Press: _press, Act: _act, NotTaken: _not_taken, Faults: _faults, Resumed: _resumed, Opened: _opened,
          Noted: _noted, Freed: _freed, Forgotten: _forgotten}


def _at(move: Move) -> float:
    return move.gesture.time if isinstance(move, (Press, NotTaken)) else move.at


def _follow(state: TableState) -> None:
    """Each person's draft follows its seat's current decision: a new decision starts a fresh draft."""
    match = state.match
    if match is None or state.lobby is not None:
        return
    changed = {}
    for seat in range(1, match.header.seats + 1):
        if seat not in state.computers:
            followed = state.drafts[seat].follow(next(iter(match.decisions_for(seat)), None))
            if followed is not state.drafts[seat]:
                changed[seat] = followed
    if changed:
        state.drafts = {**state.drafts, **changed}
