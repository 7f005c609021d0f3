"""The host's actions from the dashboard, by name: each a refusal in words, or None when done (a
:class:`~companion.table.effects.Reply`)."""
from __future__ import annotations

from typing import Callable

from ..words import say
from . import life, press, told
from .effects import Effect, Name
from .moves import Act
from .state import TableState


def next_game(state: TableState, fx: list[Effect], act: Act) -> str | None:
    """After the end: the next game (the fixed one again, or the lobby)."""
    if state.match is None or not state.match.over:
        return say("the game is not over: end it first")
    life.new_game(state, fx, act.at)
    return None


def undo(state: TableState, fx: list[Effect], act: Act) -> str | None:
    return None if life.undo(state, fx, say("The host"), act.at) else say("nothing to undo")


def end_game(state: TableState, fx: list[Effect], act: Act) -> str | None:
    """Abandon the game in play: back to the lobby (or a fresh game when fixed)."""
    if state.match is None:
        return say("no game to end: seat 1 is choosing one")
    life.new_game(state, fx, act.at)
    return None


def teach(state: TableState, fx: list[Effect], act: Act) -> str | None:
    """Teach the game in play (docs/teaching.md)."""
    return _teaching(state, True)


def skip_teaching(state: TableState, fx: list[Effect], act: Act) -> str | None:
    """The table knows the game: no more teaching in it."""
    return _teaching(state, False)


def _teaching(state: TableState, on: bool) -> str | None:
    if state.match is None:
        return say("no game yet: seat 1 is choosing one")
    state.teaching = on
    return None


def can_take_up(state: TableState) -> bool:
    """The game the host just ended may go on: nobody has chosen a game or decided in a new one since."""
    return state.ended is not None and (state.lobby is not None or life.last_person_record(state) is None)


def take_up(state: TableState, fx: list[Effect], act: Act) -> str | None:
    if not can_take_up(state):
        return say("no ended game to take up again: a new game has started since")
    life.take_up(state, fx, act.at)
    return None


def dismiss(state: TableState, fx: list[Effect], act: Act) -> str | None:
    """The host has read every note."""
    press.dismiss(state, fx, None, act.at)
    return None


def name(state: TableState, fx: list[Effect], act: Act) -> str | None:
    """Name the player at ``seat`` for this game and the next ones (None: no name)."""
    seat, given = act.args["seat"], act.args["name"]
    if state.match is None:
        return say("no game yet: names belong to a game, and seat 1 is choosing one")
    if not 1 <= seat <= state.match.header.seats:
        return say("seat {seat} is not playing; seats are 1 to {seats}", seat=seat, seats=state.match.header.seats)
    fx.append(Name(seat, given))
    state.names = {**{s: n for s, n in state.names.items() if s != seat}, **({seat: given} if given else {})}
    return None


def freed(state: TableState, fx: list[Effect], seat: int, at: float) -> None:
    """The host freed a phone seat (a lost phone): the seat and the table display say so."""
    told.notice(state, fx, seat, say("The host freed this seat: a phone joins it again"), at)
    told.tell_table(state, fx, say("Seat freed"),
                    say("The host freed {who}'s phone seat: join it again", who=state.who(seat)), at)


ACTIONS: dict[str, Callable[[TableState, list[Effect], Act], str | None]] = {
    "new-game": next_game, "undo": undo, "end-game": end_game, "take-up": take_up, "dismiss": dismiss, "name": name,
    "teach": teach, "skip-teaching": skip_teaching,
}
