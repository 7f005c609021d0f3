"""The match in play and its journal, kept in step: nothing is shown answered that is not on disk.

The session plays; the keeper writes each commit point (:meth:`Keeper.commit`) before the lamps
answer, empties the WAL at turn ends once they have answered (:meth:`Keeper.settle`), and when the
journal refuses a write, says so (JournalError) and gives back the match as the journal holds it
(:meth:`Keeper.as_saved`). At start it resumes the unfinished game, or sets aside one that cannot be
replayed (:class:`NotResumed`). Without a journal (``molebox sim`` without ``--db``, tests) every
write is nothing.
"""
from __future__ import annotations

import json
from contextlib import suppress
from typing import Callable

from rules.match import Match

from . import Journal
from .seal import SealError
from .card import JournalError


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
        self.saved = 0                       # how many of the match's records are in the journal
        self._turn_ended = False             # a commit left no secret pick held: the WAL is to be emptied

    @property
    def fault(self) -> JournalError | None:
        return None if self.journal is None else self.journal.fault

    def notes(self) -> list[tuple[str, str]]:
        """What opening the journal repaired (text, words for a screen)."""
        records = None if self.journal is None else self.journal.records
        return list(records.notes) if records is not None else []

    def _write(self, action: Callable):
        """A journal write (nothing without a journal); JournalError if the journal will not take it."""
        return None if self.journal is None else self.journal.write(action)

    # ---- the game in play ---------------------------------------------------------------

    def begin(self, match: Match, names: dict[int, str]) -> None:
        """Journal a new game (header, first chance outcomes, names) in one commit point."""
        self.game_id = self._write(lambda records: records.begin(match.transcript()["header"], _rows(match, 0), names))
        self.saved = len(match.records)

    def commit(self, match: Match) -> None:
        """Put the match's new records on disk in one commit point (JournalError if refused: nothing to
        acknowledge)."""
        if self.game_id is None or len(match.records) == self.saved:
            return
        result = match.result()
        summary = None if result is None else {"scores": list(result.scores), "winners": list(result.winners),
                                                "history": match.view(None)["state"].get("history", [])}
        self._write(lambda records: records.append(self.game_id, _rows(match, self.saved), summary))
        self.saved = len(match.records)
        self._turn_ended |= not match.held

    def settle(self) -> None:
        """After a turn end (a commit that left no secret pick held), empty the WAL into the main file. The
        session calls it once the lamps have answered: the records are on disk already, and the emptying
        (a few ms, more than the commit) need not keep the player who ended the turn waiting. A card that
        refuses it is the journal's fault from then on, which the session notices and shows."""
        if self._turn_ended:
            self._turn_ended = False
            with suppress(JournalError):
                self._write(lambda records: records.checkpoint())

    def as_saved(self, match: Match) -> Match:
        """The match as the journal holds it: what it did not take (or a half-applied answer) forgotten."""
        if len(match.records) <= self.saved:
            return match
        return Match.replay({**match.transcript(), "records": match.records[:self.saved]})

    def undone(self, match: Match, upto: int) -> Match:
        """The match back to its first ``upto`` seat decisions, the undo journaled first."""
        if self.game_id is not None:
            self._write(lambda records: records.undo(self.game_id, upto))
        match = Match.replay(match.transcript(), upto=upto)
        self.saved = len(match.records)
        return match

    def abandon(self, match: Match) -> int | None:
        """The game in play is given up (it stays in the journal, out of the history); its id, if it had one."""
        given_up = None
        if self.game_id is not None and not match.over:
            self._write(lambda records: records.abandon(self.game_id))
            given_up = self.game_id
        self.game_id = None
        return given_up

    def reopen(self, game_id: int) -> tuple[Match, dict[int, str]]:
        """A game given up by mistake, unfinished again and replayed as the journal holds it."""
        self._write(lambda records: records.reopen(game_id))
        return self.resume()

    def name(self, seat: int, name: str | None) -> None:
        if self.game_id is not None:
            self._write(lambda records: records.set_name(self.game_id, seat, name))

    # ---- start, and the journal coming back ---------------------------------------------

    def resume(self) -> tuple[Match, dict[int, str]] | None:
        """The journal's unfinished game, replayed, and its players' names; None when there is none.

        A game that cannot be replayed (its key lost, a row damaged, a game this molebox does not
        know) is set aside in the journal, never deleted: :class:`NotResumed` says why.
        """
        records = None if self.journal is None else self.journal.records
        game_id = None if records is None else records.unfinished_id()
        if game_id is None:
            return None
        try:
            match = Match.replay(records.load(game_id).transcript)
        except Exception as exc:             # whatever one damaged game holds, the box starts
            why, words = why_not_resumed(exc)
            self._write(lambda records: records.set_aside(game_id, why))
            raise NotResumed(game_id, why, words) from exc
        self.game_id, self.saved = game_id, len(match.records)
        return match, records.names(game_id)

    def retry(self) -> bool:
        """Try the journal again after a fault; True once it takes writes."""
        return self.journal.retry()

    def finished_games(self) -> list[dict]:
        """The finished games, read on a connection of their own (any thread: the web's history)."""
        reader = None if self.journal is None else self.journal.reader()
        if reader is None:
            return []
        try:
            return reader.finished_games()
        finally:
            reader.close()
