"""A player's press: a lobby choice, a draft changed, a decision committed, a lock-in taken back, seat 1's undo.

Every press is answered once: taken (:class:`~companion.table.effects.Flash`), committed (its answer waits
for its commit point: :class:`~companion.table.effects.Commit`), refused with its reason on the seat's own
screen (:class:`~companion.table.effects.Refuse`), or the host PIN shown on request.
"""
from __future__ import annotations

from rules import bots
from rules.model import IllegalMove, Kind

from ..inputs import Gesture
from ..words import N_, say
from . import life, told
from .drafts import Draft, decision_key
from .effects import Commit, Effect, Flash, Log, Refuse, Seating, ShowHostPin
from .lobby import Start
from .outcomes import Changed, Hinted, Refusal, Submit
from .state import TableState

UNDO_REVEAL_S = 5.0     # a second hold within this long undoes a reveal
HOST_UNDO = N_("undo is the host's: ask the host (dashboard Undo)")    # seat 1 on a phone not the host's


def press(state: TableState, fx: list[Effect], g: Gesture) -> None:
    """What the press does, answered once; nothing but a refusal while play is paused. A refusal's reason goes on
    the seat's own screen (and never to the log: it may tell a secret); any other answer takes the seat's notice
    back. A refusal the rules give (an illegal move's) is in their words: the engine says nothing in the box's
    language."""
    if state.paused:
        refuse(state, fx, g, say("paused: {fault}", fault=state.paused))
        return
    outcome = lobby_press(state, fx, g) if state.lobby is not None else play_press(state, fx, g)
    if outcome is None:                         # a hold that means nothing here: its tap was answered
        return
    if isinstance(outcome, Refusal):
        refuse(state, fx, g, outcome.reason)
        return
    if not isinstance(outcome, Hinted):         # a hint's notice stays until the seat's next press
        told.quiet(state, g.seat)
    if isinstance(outcome, ShowHostPin):
        fx.append(outcome)
    elif not isinstance(outcome, Commit):
        fx.append(Flash(g))


def refuse(state: TableState, fx: list[Effect], g: Gesture, reason: str | tuple[str, ...]) -> None:
    """The press refused: its lamps blink, the reason on its seat's own screen."""
    fx.append(Log("info", "seat %d: a %s was refused", (g.seat, g.kind)))
    told.notice(state, fx, g.seat, reason, g.time)
    fx.append(Refuse(g, reason))


def lobby_press(state: TableState, fx: list[Effect], g: Gesture):
    if state.host_pin_on_request and (g.seat, g.control, g.kind) == (1, "ok", "hold"):
        return ShowHostPin(g)
    if state.unread():
        if (g.seat, g.control, g.kind) == (1, "ok", "tap"):
            dismiss(state, fx, state.unread()[0].id, g.time)
            return Changed()
        return Refusal(say("seat 1: OK to read on"))
    if g.kind != "tap":
        return None if g.control != "ok" else Refusal(say("tap, don't hold"))
    lobby, outcome = state.lobby.tap(g.seat, g.control)
    if lobby.phones != state.phones:
        fx.append(Seating(lobby.phones, state.phones - lobby.phones))
        state.phones = lobby.phones
    state.lobby = lobby
    if isinstance(outcome, Start):
        life.start(state, fx, outcome, g.time)
        return Changed()
    return outcome


def dismiss(state: TableState, fx: list[Effect], note_id: int | None, at: float) -> None:
    """The host has read a note (None: all of them); with none left to read, the lobby (or fixed game) goes on."""
    state.notes = tuple(n for n in state.notes if note_id is not None and n.id != note_id)
    if state.lobby is not None and state.match is None and not state.unread():
        life.lobby_or_fixed(state, fx, at)


def play_press(state: TableState, fx: list[Effect], g: Gesture):
    match, seat = state.match, g.seat
    if (g.kind, g.control) == ("hold", "hole5") and not state.teaching:
        return None                             # a hint is a taught game's; its tap was answered
    if seat > match.header.seats:
        return Refusal(say("this seat is not playing"))
    if seat in state.computers and not (seat == 1 and (g.kind == "hold" or match.over)):
        return Refusal(say("a computer player has this seat"))
    state.heard = {**state.heard, seat: len(match.events)}
    if g.kind == "hold":
        return _hold(state, fx, g)
    if match.over:
        if seat == 1 and g.control == "ok":
            life.new_game(state, fx, g.time)
            return Changed()
        return Refusal(say("game over: seat 1 OK for a new game"))
    decision = next(iter(match.decisions_for(seat)), None)
    before = state.drafts[seat].follow(decision)
    draft, outcome = before.tap(g.control, decision, match.refusal)
    if not isinstance(outcome, Submit):
        state.drafts = {**state.drafts, seat: draft}
        return outcome
    try:
        events = match.submit(seat, outcome.key, outcome.value)
    except IllegalMove:                     # the draft let through what the rules refuse (the answer may be secret)
        told.log(fx, "warning", "seat %d: the rules refused its answer to %s, which its draft let through", seat,
                 outcome.key)
        return Refusal((say("not allowed now"), say("not now")))
    life.applied(state, fx, events, g.time)
    state.drafts = {**state.drafts, seat: Draft()}     # the next decision starts afresh, even if it looks the same
    return _committed(fx, Commit(g, before))           # the draft comes back should the card refuse the decision


def _hold(state: TableState, fx: list[Effect], g: Gesture):
    match, seat = state.match, g.seat
    if g.control == "ok" and match.held.get(seat):
        life.applied(state, fx, match.retract(seat), g.time)
        return _committed(fx, Commit(g))
    if g.control == "hole5":
        return _hint(state, fx, g) if match.decisions_for(seat) else None     # a taught game's (play_press)
    if g.control == "ok" and seat == 1:
        if g.phone and not g.host:              # seat 1 on a phone: the host's device only
            return Refusal(say(HOST_UNDO))
        return _host_undo(state, fx, g)
    return Refusal(say("nothing to take back"))


def _hint(state: TableState, fx: list[Effect], g: Gesture):
    """While teaching, a seat holding hole 5 with a decision open is shown what the strong computer player would
    pick: as its draft, on its own screen alone (OK takes it, a hole changes it). The computer sees what the seat
    sees (``Match.view(seat)``); the pick goes nowhere else, not even the log."""
    match, seat = state.match, g.seat
    if not bots.hints(match.header.game):
        return Refusal((say("no computer player to ask in this game"), say("no hints here")))
    decision = match.decisions_for(seat)[0]
    pick = bots.make(match.game, seat, bots.HINT_LEVEL, state.seed).choose(match.view(seat), decision)
    value = frozenset(pick) if decision.kind is Kind.HOLES else pick
    state.drafts = {**state.drafts, seat: Draft(decision_key(decision), value)}
    fx.append(Log("info", "seat %d asked for a hint", (seat,)))
    told.notice(state, fx, seat, (say("Hint: the strong computer's pick. OK takes it"), say("Hint: OK takes it"),
                                  say("Hint")), g.time)
    return Hinted()


def _host_undo(state: TableState, fx: list[Effect], g: Gesture):
    """Seat 1 holding OK with nothing of its own to take back: undo the last decision.

    Undoing a reveal takes a second hold within five seconds, as the whole table saw it.
    """
    last = life.last_person_record(state)
    if last is None:
        return Refusal(say("nothing to undo"))
    reveal = last in state.match.secret_records and not state.match.held
    if reveal and g.time > state.undo_confirm_until:
        state.undo_confirm_until = g.time + UNDO_REVEAL_S
        return Refusal(say("hold OK again to undo the reveal"))
    state.undo_confirm_until = float("-inf")
    life.undo(state, fx, state.who(1), g.time)
    return Changed()


def _committed(fx: list[Effect], commit: Commit) -> Commit:
    """The press's answer is its commit point's: its lamps flip once that is on disk."""
    fx.append(commit)
    return commit
