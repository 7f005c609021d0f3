"""What the journal holds for a start, told to the table (:class:`~companion.table.moves.Opened`): the notes of what
opening it repaired, the game in play, the game waiting for a start like this one, and the games found unable to
be replayed (set aside for good, with why).

A game waits when a start asked for another (``docs/persistence.md``, "Starting with --game"): one set aside by a
start with --game waits for a start without it; one set aside by a start without --game waits for a start with
its own --game. Which of them goes on is the table's to decide (:func:`companion.table.life.opened`).
"""
from __future__ import annotations

import json
import logging
import time

from rules import registry
from rules.match import Header

from .journal.keeper import Keeper, NotResumed
from .table.lobby import Start
from .table.moves import Opened, SetAside, Unfinished

log = logging.getLogger("molebox.session")


def journal_opened(keeper: Keeper, fixed: Start | None, at: float, wall: float) -> Opened:
    """The move that tells the table what the journal holds for a start of ``fixed`` (None: without --game); a
    JournalError if the journal will not be read."""
    game = waiting = None
    aside: list[SetAside] = []
    if keeper.fault is None:
        try:
            resumed = keeper.resume()
            game = None if resumed is None else Unfinished(keeper.game_id, *resumed)
        except NotResumed as exc:
            aside.append(_set_aside(keeper, exc))
        waiting = _waiting(keeper, fixed, aside)
    return Opened(tuple(keeper.notes()), game, waiting, tuple(aside), at, wall,
                  keeper.veterans() if keeper.fault is None else frozenset())


def _waiting(keeper: Keeper, fixed: Start | None, aside: list[SetAside]) -> Unfinished | None:
    """The newest game waiting for a start like this one (with this --game, or without), replayed; one that cannot
    be is set aside for good (added to ``aside``)."""
    for game_id, header in keeper.waiting_games("game" if fixed else "plain"):
        if fixed is None or fixed.asks_for(_written(header)):
            try:
                return Unfinished(game_id, *keeper.load(game_id))
            except NotResumed as exc:
                aside.append(_set_aside(keeper, exc))
    return None


def _written(header: dict) -> Header | None:
    """A game's header as the journal wrote it (None: one this molebox cannot read, which no start asks for)."""
    try:
        return Header(**header)
    except (TypeError, ValueError):
        return None


def _set_aside(keeper: Keeper, exc: NotResumed) -> SetAside:
    log.error("game %d cannot be resumed (%s)", exc.game_id, exc.why, exc_info=exc.__cause__)
    return SetAside(exc.game_id, exc.why, exc.words, str(keeper.journal.path))


def aside_table(games: list[dict]) -> str:
    """Unfinished games a start set aside (:meth:`companion.journal.records.Reader.set_aside_games`): those waiting
    for another start, and how to go on with each; those that can never be resumed, and why."""
    waiting = [g for g in games if g["waits"]]
    lost = [g for g in games if not g["waits"]]
    lines = []
    if waiting:
        lines.append(f"{_count(len(waiting))} waiting (kept in the journal; each goes on at the start it waits for):")
        lines += [f"- #{g['id']} {_when(g)} {_game(g)}: {_again(g)}" for g in waiting]
    if lost:
        lines += [""] * bool(lines)
        lines.append(f"{_count(len(lost))} set aside (kept in the journal, never resumed):")
        lines += [f"- #{g['id']} {_when(g)} {_game(g)}: {g['why']}" for g in lost]
    return "\n".join(lines)


def _count(n: int) -> str:
    return f"{n} unfinished game{'s' if n != 1 else ''}"


def _when(game: dict) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(game["started"]))


def _game(game: dict) -> str:
    """The game's title (its id, for a game this molebox does not know)."""
    try:
        game_id = json.loads(game["header"])["game"]
    except (ValueError, KeyError, TypeError):
        return "(header unreadable)"
    return registry.game_class(game_id).title if game_id in registry.ids() else game_id


def _again(game: dict) -> str:
    """How a waiting game goes on: the start it waits for, as the host types it."""
    if game["waits"] == "plain":
        return "goes on at the next `molebox run` without --game"
    try:
        start = Start.of(Header(**json.loads(game["header"])))
    except (ValueError, KeyError, TypeError):
        return "goes on at the next start with its --game"
    return f"goes on at the next `molebox run {start.arguments()}`"
