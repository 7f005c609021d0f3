"""The match in play and its journal, kept in step: nothing is acknowledged that is not on disk.

The table decides; the keeper carries out its journal's effects: each commit point handed to the
journal's writer (:meth:`Keeper.commit`, with whatever waits for it: a press whose lamps acknowledge it
once it is on disk), the WAL emptied at turn ends (:meth:`Keeper.settle`), which commit points have
landed followed (:meth:`Keeper.landed`), and when the journal refuses a write, the match given back as
the journal holds it (:meth:`Keeper.as_saved`). The game's other writes (a new game, an undo, a name) wait for every
commit point before them. At start it resumes the unfinished game, or sets aside one that cannot
be replayed (:class:`NotResumed`). Without a journal (``molebox sim`` without ``--db``, tests)
every write is nothing, and on disk at once.
"""
from __future__ import annotations

import json
from typing import Callable

from rules.match import Match

from . import Journal
from .card import JournalError
from .seal import SealError
from .writer import Ticket


class NotResumed(Exception):
    """The journal's unfinished game could not be replayed: it was set aside (``why``; ``words`` for a screen)."""

    def __init__(self, game_id: int, why: str, words: str):
        super().__init__(why)
        self.game_id, self.why, self.words = game_id, why, words


def why_not_resumed(exc: BaseException) -> tuple[str, str]:
    """Why a saved game could not be replayed: in words for the host and the log, and in two for the screens."""
    if isinstance(exc, SealError):
        return ("one of its secret picks cannot be opened: the key file (molebox.key) was lost or replaced, "
                "or the row is damaged", "key lost or row damaged")
    if isinstance(exc, (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError)):
        return f"a journal row cannot be read ({type(exc).__name__}: {exc})", "damaged row"
    if isinstance(exc, ValueError) and "unknown game" in str(exc):
        return f"{exc} (a journal from another molebox?)", "unknown game"
    return f"its records do not replay ({type(exc).__name__}: {exc})", "does not replay"


def _rows(match: Match, start: int) -> list[tuple[int, dict, bool]]:
    return [(i, match.records[i], i in match.secret_records) for i in range(start, len(match.records))]


class Keeper:
    def __init__(self, journal: Journal | None):
        self.journal = journal
        self.game_id: int | None = None
        self.saved = 0                       # how many of the match's records are on disk
        self.queued = 0                      # how many are on disk or on their way
        self._on_the_way: list[tuple[Ticket, int]] = []     # each commit point on its way, and its records then
        self._waiters: list[tuple[Ticket, object]] = []     # what waits for a commit point (a press), in order
        self._turn_ended = False             # a commit left no secret pick held: the WAL is to be emptied
        self._ended: tuple[int, Match] | None = None     # the game the host ended, which may be taken up again

    @property
    def fault(self) -> JournalError | None:
        return None if self.journal is None else self.journal.fault

    @property
    def stalled_s(self) -> float:
        """How long the journal's write on its way has taken (0: none is on its way)."""
        return 0.0 if self.journal is None else self.journal.busy_for()

    @property
    def on_the_way(self) -> bool:
        """Whether a commit point has not landed yet."""
        return bool(self._on_the_way)

    def notes(self) -> list[tuple[str, str]]:
        """What opening the journal repaired (text, words for a screen)."""
        records = None if self.journal is None else self.journal.records
        return list(records.notes) if records is not None else []

    def _write(self, action: Callable):
        """A journal write (nothing without a journal); JournalError if the journal will not take it."""
        return None if self.journal is None else self.journal.write(action)

    # ---- the game in play ---------------------------------------------------------------

    def _all_saved(self, match: Match) -> None:
        """A write waited for (it ran after every commit point before it): all the match's records are on disk."""
        self.saved = self.queued = len(match.records)
        self._on_the_way.clear()

    def begin(self, match: Match, names: dict[int, str]) -> None:
        """Journal a new game (header, first chance outcomes, names) in one commit point."""
        self.game_id = self._write(lambda records: records.begin(match.transcript()["header"], _rows(match, 0), names))
        self._all_saved(match)

    def commit(self, match: Match, waiter: object = None) -> bool:
        """Hand the match's new records to the journal's writer, one commit point, with the ``waiter`` that waits
        for it (:meth:`landed` gives it back); False: nothing to wait for (no journal, or nothing new)."""
        if self.journal is None:
            self.saved = self.queued = len(match.records)
            return False
        if self.game_id is None or len(match.records) == self.queued:
            return False
        result = match.result()
        summary = None if result is None else {"scores": list(result.scores), "winners": list(result.winners),
                                                "history": match.view(None)["state"].get("history", [])}
        ticket = self.journal.append(self.game_id, _rows(match, self.queued), summary)
        self.queued = len(match.records)
        self._on_the_way.append((ticket, self.queued))
        if waiter is not None:
            self._waiters.append((ticket, waiter))
        self._turn_ended |= not match.held
        return True

    def landed(self) -> tuple[JournalError | None, list[object], list[object]]:
        """Take the commit points that are on disk now, in order: the journal's refusal, if one was refused (the
        ones after it were refused too: forget what was not saved), and the waiters of the ones that landed and of
        the ones refused."""
        error = self._take_landed()
        saved, refused = [], []
        while self._waiters and (self._waiters[0][0].done or self._waiters[0][0].error or error):
            ticket, waiter = self._waiters.pop(0)
            (saved if ticket.done else refused).append(waiter)
        return error, saved, refused

    def _take_landed(self) -> JournalError | None:
        """The commit points on disk now taken, in order; the journal's refusal, if one was refused."""
        while self._on_the_way and self._on_the_way[0][0].done:
            self.saved = self._on_the_way.pop(0)[1]
        if self._on_the_way and self._on_the_way[0][0].error is not None:
            error = self._on_the_way[0][0].error
            self._on_the_way.clear()
            self.queued = self.saved
            return error if isinstance(error, JournalError) else JournalError(str(error))
        return None

    def waiting(self, longer_than_s: float = float("-inf")) -> list[object]:
        """What waits for a commit point that has been on its way longer than ``longer_than_s``."""
        return [waiter for ticket, waiter in self._waiters if ticket.waited_s() > longer_than_s]

    def settle(self) -> None:
        """After a turn end (a commit that left no secret pick held), have the writer empty the WAL into the main
        file once the commit points before it are on disk; a card that refuses it is the journal's fault from then
        on, which the box notices and shows."""
        if self._turn_ended and self.journal is not None:
            self._turn_ended = False
            self.journal.checkpoint()

    def as_saved(self, match: Match) -> Match:
        """The match as the journal holds it, once every commit point on its way has landed or been refused: what
        it did not take (or a half-applied answer) forgotten."""
        if self.wait_for_writes():
            self._take_landed()             # what waits for them is answered when the journal's news comes
        self.queued = self.saved
        self._on_the_way.clear()
        if len(match.records) <= self.saved:
            return match
        return Match.replay({**match.transcript(), "records": match.records[:self.saved]})

    def undone(self, match: Match, upto: int) -> None:
        """The match was taken back to its first ``upto`` seat decisions (``match``, replayed so): journaled."""
        if self.game_id is not None:
            self._write(lambda records: records.undo(self.game_id, upto))
        self._all_saved(match)

    def abandon(self, match: Match, ended: bool = True) -> None:
        """The game in play is given up (it stays in the journal, out of the history); ``ended``: the host may take it
        up again (:meth:`reopen`)."""
        if self.game_id is not None and not match.over:
            self._write(lambda records: records.abandon(self.game_id))
            if ended:
                self._ended = (self.game_id, match)
        self.game_id = None

    def reopen(self, match: Match) -> None:
        """The game the host ended (``match``, as it was) is unfinished again in the journal, and in play."""
        if self._ended is not None and self._ended[1] is match:
            game_id, self._ended = self._ended[0], None
            self._write(lambda records: records.reopen(game_id))
            self.game_id = game_id
        self._all_saved(match)

    def name(self, seat: int, name: str | None) -> None:
        if self.game_id is not None:
            self._write(lambda records: records.set_name(self.game_id, seat, name))

    # ---- start, and the journal coming back ---------------------------------------------

    def resume(self) -> tuple[Match, dict[int, str]] | None:
        """The journal's game in play, replayed, and its players' names; None when there is none.

        A game that cannot be replayed (its key lost, a row damaged, a game this molebox does not
        know) is set aside in the journal, never deleted: :class:`NotResumed` says why.
        """
        if self.journal is None or self.journal.records is None:
            return None
        game_id = self.journal.read(lambda records: records.unfinished_id())
        if game_id is None:
            return None
        match, names = self.load(game_id)
        self.game_id = game_id
        self._all_saved(match)
        return match, names

    def load(self, game_id: int) -> tuple[Match, dict[int, str]]:
        """An unfinished game, replayed, and its players' names (:class:`NotResumed`: set aside, and why)."""
        try:
            match = Match.replay(self.journal.read(lambda records: records.load(game_id)).transcript)
        except Exception as exc:             # whatever one damaged game holds, the box starts
            why, words = why_not_resumed(exc)
            self._write(lambda records: records.set_aside(game_id, why))
            raise NotResumed(game_id, why, words) from exc
        return match, self.journal.read(lambda records: records.names(game_id))

    def waiting_games(self, until: str) -> list[tuple[int, dict]]:
        """The unfinished games waiting for a start of kind ``until`` (``plain``, ``game``), newest first: each id
        and header as written."""
        if self.journal is None or self.journal.records is None:
            return []
        return self.journal.read(lambda records: records.waiting(until))

    def put_waiting(self, until: str) -> int | None:
        """The game in play waits for another start (``plain``: one without --game; ``game``: one with its own
        --game), kept in the journal; its id."""
        game_id, self.game_id = self.game_id, None
        if game_id is not None:
            self._write(lambda records: records.wait(game_id, until))
        return game_id

    def wake(self, game_id: int, match: Match) -> None:
        """A waiting game (``match``, as :meth:`load` replayed it) is the one in play again."""
        self._write(lambda records: records.wait(game_id, None))
        self.game_id = game_id
        self._all_saved(match)

    def retry(self, done: Callable[[bool], None]) -> None:
        """Try the journal again after a fault, on the writer's thread: ``done(True)`` once it takes writes."""
        self.journal.retry(done)

    def wait_for_writes(self) -> bool:
        """Wait until every write handed to the journal has run (scripts and tests); True if one had to."""
        return self.journal is not None and self.journal.wait_idle()

    def finished_games(self) -> list[dict]:
        """The finished games, read on a connection of their own (any thread: the web's history)."""
        return self._read(lambda reader: reader.finished_games(), [])

    def veterans(self) -> frozenset[tuple[str, str]]:
        """(game, name) of every player who has finished that game (a game is taught to newcomers)."""
        return self._read(lambda reader: reader.veterans(), frozenset())

    def _read(self, query: Callable, none):
        """``query(reader)`` on a connection of its own, closed after; ``none`` without a journal to read."""
        reader = None if self.journal is None else self.journal.reader()
        if reader is None:
            return none
        try:
            return query(reader)
        finally:
            reader.close()
