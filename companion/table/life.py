"""A game's life at the table: dealt, played by the computer players, undone, ended, resumed, taken up again.

Every function here changes the state the table is deciding and adds the effects that go with it:
the journal's writes (a new game is journaled before anyone sees it) and what the box shows.
"""
from __future__ import annotations

from rules.match import Header, Match
from rules.model import IllegalMove

from ..players import Computers
from ..words import N_, say
from . import told
from .drafts import Draft
from .effects import Abandon, Begin, Commit, Effect, Moment, Redraw, Reopen, Undo, Wait, Wake
from .lobby import Start
from .moves import Opened, Unfinished
from .state import GOAL_S, TableState

YOURS_UNDONE = {    # what was undone of a seat's, by someone else: the seat's notice, longest first
    "lock-in": (N_("{by} undid your lock-in: pick again"), N_("{by} undid your lock-in"), N_("Your lock-in undone")),
    "move": (N_("{by} undid your move: move again"), N_("{by} undid your move"), N_("Your move undone")),
}
UNDONE = {          # what was undone: the table display's words, by someone else or by the seat itself, then shorter
    "reveal": (N_("{by} undid {who}'s reveal"), N_("{by} undid their own reveal"), N_("{who}'s reveal undone"),
               N_("Reveal undone")),
    "lock-in": (N_("{by} undid {who}'s lock-in"), N_("{by} undid their own lock-in"), N_("{who}'s lock-in undone"),
                N_("Lock-in undone")),
    "move": (N_("{by} undid {who}'s move"), N_("{by} undid their own move"), N_("{who}'s move undone"),
             N_("Move undone")),
}


def start(state: TableState, fx: list[Effect], game: Start, at: float) -> None:
    """Deal a new game; it is journaled (header, first chance, names) before anyone sees it."""
    match = Match(Header(game=game.game, seats=game.seats, settings=game.settings, seed=state.seed,
                         dice=game.dice, cards=game.cards, bots=dict(game.bots)))
    names = {s: n for s, n in state.names.items() if s <= game.seats}
    fx.append(Begin(match, names))
    state.ended, state.match, state.names, state.heard = None, match, names, {}
    state.teaching, state.started_at = state.newcomers(match), at
    fx.append(Redraw(at + GOAL_S))          # the goal's moment ends
    told.quiet(state)
    told.log(fx, "info", "started %s for %d seats (seed %d, computer players %s)", game.game, game.seats,
             state.seed, game.bots or "none")
    play_on(state, fx, at)


def play_on(state: TableState, fx: list[Effect], at: float) -> None:
    """The match (new, resumed, undone or taken up) is the one in play: its computer players, no lobby."""
    state.computers = Computers(state.match)
    state.lobby = None
    computers_play(state, fx, at)


def computers_play(state: TableState, fx: list[Effect], at: float) -> None:
    """The computer players answer whatever is theirs to answer now (never while play is paused).

    They think on the loop: at the moments they answer, nobody else is choosing (their secret picks
    wait for every person's lock-in), and the bench keeps their think time in bounds. A refused answer
    is a bug in a bot: it is logged and shown on the bot's screen, and the game waits (seat 1 can undo
    or end it).
    """
    if state.paused or state.lobby is not None or state.match is None:
        return
    while (move := state.computers.next_move(state.match)) is not None:
        try:
            events = state.match.submit(*move)
        except IllegalMove:                 # a bot's bug; its answer may be secret, so only its question is logged
            told.log(fx, "error", "computer player at seat %d: the rules refused its answer to %s", move[0], move[1])
            told.lasting(state, move[0], (say("stuck: a bot error"), say("stuck")))
            return
        applied(state, fx, events, at)
        fx.append(Commit())


def applied(state: TableState, fx: list[Effect], events, at: float) -> None:
    """A decision was applied: the table's moments (a reveal, the end, virtual dice rolled) and the public events
    for the log."""
    match = state.match
    public = match.events_for(None, events)
    kinds = {e["kind"] for e in public}
    if "reveal" in kinds:
        state.revealed_at = at
    if match.over or "reveal" in kinds:
        fx.append(Moment("over" if match.over else "reveal"))
    if "game_over" in kinds:                # its players have finished the game: no newcomers to it next time
        state.veterans |= {(match.header.game, name) for seat, name in state.names.items()
                           if name and seat not in match.header.bots}
    if match.header.dice == "virtual" and "roll" in kinds:
        state.rolled_at = at
        fx.append(Moment("roll", match.header.game, after_picks="reveal" in kinds))
    for event in public:
        told.log(fx, "info", "event %s", event)


def lobby_or_fixed(state: TableState, fx: list[Effect], at: float) -> None:
    """The lobby, or the game fixed by the command line once the host has read every note."""
    state.match = None
    if state.fixed and not state.unread():
        start(state, fx, state.fixed, at)
    else:
        state.lobby = state.lobby or state.lobby_for()


def new_game(state: TableState, fx: list[Effect], at: float) -> None:
    """After a game, or instead of it: the same game again (fixed by the command line) or back to the lobby; an
    unfinished game given up may be taken up again."""
    match = state.match
    fx.append(Abandon(match))
    ended = None if match.over else (match, dict(state.names))
    state.seed += 1
    if state.fixed:
        start(state, fx, state.fixed, at)
    else:
        previous, state.match = match.header, None
        state.lobby = state.lobby_for(previous.game, previous.seats, previous.bots)
    state.ended = ended


def take_up(state: TableState, fx: list[Effect], at: float) -> None:
    """Undo an End game: the game the host ended goes on where it was (the fresh fixed game, if any, dropped)."""
    if state.match is not None:
        fx.append(Abandon(state.match, ended=False))
    (match, names), state.ended = state.ended, None
    fx.append(Reopen(match))
    state.match, state.names = match, names
    play_on(state, fx, at)


def last_person_record(state: TableState) -> int | None:
    """The index in the match records of the last answer a person gave (bots' answers follow it)."""
    people = [i for i, r in enumerate(state.match.records)
              if r["seat"] is not None and r["seat"] not in state.computers]
    return people[-1] if people else None


def undo(state: TableState, fx: list[Effect], by: str, at: float) -> bool:
    """Take back the last decision a person made (a held pick, or the pick that completed a reveal), and the
    computer players' answers after it (they answer again when it is their turn). Every seat it touches is told
    who did it and what it must do now (a reveal taken back touches every seat of it: their picks stay locked in,
    the last seat's comes back), and the table display says it to the room."""
    last = None if state.match is None or state.lobby is not None else last_person_record(state)
    if last is None:
        return False
    match = state.match
    seat, secret = match.records[last]["seat"], last in match.secret_records
    what = "reveal" if secret and not match.held else "lock-in" if secret else "move"
    upto = sum(1 for r in match.records[:last] if r["seat"] is not None)
    state.match = Match.replay(match.transcript(), upto=upto)
    fx.append(Undo(state.match, upto))
    state.revealed_at = float("-inf")       # a reveal taken back is no moment any more
    state.heard = {s: len(state.match.events) for s in range(1, state.match.header.seats + 1)}
    told.quiet(state)
    state.drafts = {s: Draft() for s in state.drafts}
    own, who = by == state.who(seat), state.who(seat)
    if not own:
        yours = YOURS_UNDONE["lock-in" if secret else "move"]
        told.notice(state, fx, seat, tuple(say(words, by=by) for words in yours), at)
    if what == "reveal":
        kept = (say("{by} undid the reveal: your lock-in is kept, {who} picks again", by=by, who=who),
                say("Reveal undone: {who} picks again", who=who), say("Reveal undone"))
        for other in set(state.match.held) - {seat}:
            told.notice(state, fx, other, kept, at)
    others, itself, *shorter = UNDONE[what]
    told.tell_table(state, fx, say("Undone"),
                    tuple(say(words, by=by, who=who) for words in (itself if own else others, *shorter)), at)
    told.log(fx, "info", "undo: back to %d decisions", state.match.seat_records())
    play_on(state, fx, at)
    return True


def opened(state: TableState, fx: list[Effect], move: Opened) -> None:
    """At start, or once the journal opens at last: its notes for the host, then the game this start asks for.

    A start with --game goes on with the game in play if it is that game, else with the newest of that game
    waiting for it, else deals it afresh; a start without --game goes on with the game a --game start set aside,
    else with the game in play, else the lobby. A game in play that is not the one asked for waits for the
    kind of start that brings it back, kept in the journal (``molebox history`` lists it).
    """
    state.veterans = move.veterans
    for text, words in move.notes:
        told.note(state, fx, text, words, move.wall)
    for aside in move.aside:
        told.note(state, fx, f"The unfinished game #{aside.game_id} could not be resumed: {aside.why}. It is kept in "
                             f"the journal ({aside.path}), set aside: `molebox history` lists it.",
                  say("game #{game} set aside: {why}; kept in the journal", game=aside.game_id, why=aside.words),
                  move.wall)
    game, waiting, asked = move.game, move.waiting, state.fixed
    if asked is not None and game is not None and asked.asks_for(game.match.header):
        waiting = None                          # the game asked for is in play: it goes on, as after a cut
    elif waiting is not None or asked is not None:
        if game is not None:
            _waits(state, fx, game, "plain" if asked else "game", move.wall)
        game = waiting
    if game is None:
        lobby_or_fixed(state, fx, move.at)
        return
    if game is waiting:
        fx.append(Wake(game.game_id, game.match))
    _goes_on(state, fx, game, move.at)


def _goes_on(state: TableState, fx: list[Effect], game: Unfinished, at: float) -> None:
    """An unfinished game is the one in play: every seat and the table display say so."""
    state.match, state.names, state.seed = game.match, dict(game.names), game.match.header.seed
    state.teaching = state.newcomers(game.match)
    events = game.match.events
    reveal = next((i for i in range(len(events) - 1, -1, -1) if events[i].kind == "reveal"), len(events))
    state.heard = {s: len(events) if game.match.held.get(s) else reveal for s in range(1, game.match.header.seats + 1)}
    told.log(fx, "warning", "resumed %s (game %d) after %d decisions", game.match.header.game, game.game_id,
             game.match.seat_records())
    for seat in range(1, game.match.header.seats + 1):
        kept = game.match.held.get(seat)
        told.notice(state, fx, seat, say("Resumed: your lock-in is kept") if kept else say("Resumed after a restart"),
                    at)
    told.tell_table(state, fx, say("Resumed"), say("Game #{game} goes on after a restart", game=game.game_id), at)
    play_on(state, fx, at)


def _waits(state: TableState, fx: list[Effect], game: Unfinished, until: str, wall: float) -> None:
    """The game in play is not the one this start asks for: it waits for the start that brings it back, and the
    host is told how (a note for the dashboard and the log: the asked game goes on at once)."""
    header = game.match.header
    fx.append(Wait(until))
    told.log(fx, "warning", "the unfinished game %s (game %d) waits for a start %s", header.game, game.game_id,
             "without --game" if until == "plain" else "with its --game")
    if until == "plain":
        why = f"molebox was started with {state.fixed.arguments()}"
        again = "start `molebox run` without --game"
    else:
        why = "molebox was started without --game, and the game a start with --game had set aside goes on"
        again = f"start `molebox run {Start.of(header).arguments()}`"
    told.note(state, fx, f"The unfinished game #{game.game_id} ({header.game}, {header.seats} seats) waits: {why}. "
                         f"It is kept in the journal; to go on with it, {again} (`molebox history` lists it).",
              None, wall)
