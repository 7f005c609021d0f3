"""The journal's records: every decision and chance outcome in SQLite rows, on disk before anyone sees it answered.

An embedded SQLite file in WAL mode. Every append is a commit point with
``synchronous=FULL``, so a record the lamps have acknowledged survives a power
cut, and the WAL is checkpointed into the main file at every turn end, so a
lost or damaged ``-wal`` costs at most the turn being played, and says what
(:mod:`companion.journal.wal`, read before SQLite opens it). The game in
memory is always a replay of the journal: resuming after a crash, and undo,
are both "replay what the journal says". Secret picks are sealed
(:mod:`companion.journal.seal`). The schema is versioned (``user_version``) and
migrated forward.

Only a molebox journal is ever opened (:mod:`companion.journal.card`), and only
one that SQLite reports as damaged is moved aside; one process writes it at a
time. Readers (:meth:`Reader.open`) open it read-only, never migrate and never
make a key. Whatever the card refuses raises
:class:`~companion.journal.card.CardFault` and leaves the journal as it was.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .card import CardFault, JournalError, WriterLock, card_fault, damaged, identify
from .opening import SCHEMA_VERSION, Opening
from .seal import Sealer

log = logging.getLogger("molebox.records")

READABLE_FROM = 2                   # the oldest schema the readers understand
PROBE_BYTES = 4096                  # a storage-fault retry writes (and drops) this much


@dataclass(frozen=True)
class Saved:
    """An unfinished game found in the journal."""

    game_id: int
    transcript: dict
    sealed: frozenset[int]


class Reader:
    """Names, finished games and games set aside, read on one connection: the writer's own, or a read-only one."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    @classmethod
    def open(cls, path: Path | str) -> "Reader":
        """The journal at ``path``, read-only: refused if it is not a molebox journal, never migrated."""
        path = Path(path)
        identify(path)
        if not path.exists():
            raise JournalError(f"no molebox journal at {path}: `molebox run` makes one there")
        try:
            db = sqlite3.connect(path.absolute().as_uri() + "?mode=ro", uri=True)
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            if damaged(exc):
                raise JournalError(f"{path} is damaged ({exc}): the service moves it aside at its next start") from None
            raise card_fault(path, exc) from None
        if not READABLE_FROM <= version <= SCHEMA_VERSION:
            db.close()
            raise JournalError(f"{path} has journal schema {version}; this molebox reads {READABLE_FROM} to "
                             f"{SCHEMA_VERSION}" + (": start `molebox run` once to bring it up to date"
                                                    if version < READABLE_FROM else ": update molebox"))
        return cls(db)

    def names(self, game_id: int) -> dict[int, str]:
        return dict(self.db.execute("SELECT seat, name FROM names WHERE game = ?", (game_id,)))

    def finished_games(self, limit: int | None = None) -> list[dict]:
        rows = self.db.execute(
            "SELECT id, header, started, finished, result FROM games "
            "WHERE finished IS NOT NULL AND abandoned = 0 ORDER BY id DESC" + (f" LIMIT {int(limit)}" if limit else ""))
        out = []
        for game_id, header, started, finished, result in rows.fetchall():
            header, result = json.loads(header), json.loads(result)
            names = self.names(game_id)
            out.append({"id": game_id, "game": header["game"], "seats": header["seats"],
                        "names": [names.get(s, f"seat {s}") for s in range(1, header["seats"] + 1)],
                        "scores": result["scores"], "winners": result["winners"],
                        "history": result.get("history", []),
                        "started": started, "duration": finished - started})
        return out

    def veterans(self) -> frozenset[tuple[str, str]]:
        """(game, name) of every named player of a finished game: who has played which game to its end."""
        rows = self.db.execute("SELECT games.header, names.name FROM games JOIN names ON names.game = games.id "
                               "WHERE games.finished IS NOT NULL AND games.abandoned = 0")
        return frozenset((json.loads(header)["game"], name) for header, name in rows)

    def set_aside_games(self) -> list[dict]:
        """Unfinished games a start set aside, newest first: id, when, the header as written, why it can never be
        resumed (``why``), or which start it waits for (``waits``: ``plain``, ``game``)."""
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version < 3:
            return []
        waits = "waits" if version >= 4 else "NULL"
        return [{"id": game_id, "started": started, "header": header, "why": why, "waits": until}
                for game_id, started, header, why, until in self.db.execute(
                    f"SELECT id, started, header, aside, {waits} FROM games WHERE finished IS NULL "
                    f"AND (aside IS NOT NULL OR {waits} IS NOT NULL) ORDER BY id DESC")]

    def close(self) -> None:
        self.db.close()


class Records(Reader):
    """The journal, opened for writing by this process alone.

    Opening may set aside a damaged journal or key; ``notes`` says so, (in words for the host, in a few for a screen).
    """

    def __init__(self, path: Path | str, now: Callable[[], float] = time.time):
        self.path, self.now = Path(path), now
        identify(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise card_fault(self.path.parent, exc) from None
        self._lock = WriterLock(self.path)
        opening = Opening(self.path, now, self._lock.unclean)
        self.notes = opening.notes
        try:
            opening.look_at_the_wal()
            super().__init__(opening.connect())
        except BaseException:
            self._lock.release()
            raise
        try:
            self.sealer = Sealer(opening.key())
            self.checkpoint()
        except BaseException:
            self.close()
            raise

    def reader(self) -> Reader:
        """A read-only connection for another thread: in WAL mode it reads beside this writer, neither waits."""
        return Reader(sqlite3.connect(self.path.absolute().as_uri() + "?mode=ro", uri=True))

    def close(self) -> None:
        super().close()
        self._lock.release()

    # ---- the journal ------------------------------------------------------------------------

    def begin(self, header: dict, records: Iterable[tuple[int, dict, bool]] = (),
              names: dict[int, str] | None = None) -> int:
        """Journal a new game with its first records and its players' names, in one commit point."""
        with self._transaction():
            game_id = self.db.execute("INSERT INTO games (header, started) VALUES (?, ?)",
                                      (json.dumps(header, sort_keys=True), self.now())).lastrowid
            self._insert(game_id, records)
            self.db.executemany("INSERT INTO names (game, seat, name) VALUES (?, ?, ?)",
                                [(game_id, seat, name) for seat, name in (names or {}).items()])
        self.checkpoint()
        return game_id

    def append(self, game_id: int, records: Iterable[tuple[int, dict, bool]], result: dict | None = None) -> None:
        """Write ``(index, record, sealed)`` rows, and the game's result if it ended, in one commit point."""
        self.append_all([(game_id, records, result)])

    def append_all(self, batch: Iterable[tuple[int, Iterable[tuple[int, dict, bool]], dict | None]]) -> None:
        """Several appends (``(game id, rows, result)``, in order) in one commit point: the writer's group commit."""
        with self._transaction():
            for game_id, records, result in batch:
                self._insert(game_id, records)
                if result is not None:
                    self.db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                                    (self.now(), json.dumps(result, sort_keys=True), game_id))

    def _insert(self, game_id: int, records: Iterable[tuple[int, dict, bool]]) -> None:
        seq = self._next_seq(game_id)
        rows = []
        for _, record, sealed in records:
            body = json.dumps(record, sort_keys=True).encode()
            if sealed:
                rows.append((game_id, seq, "sealed", self.sealer.seal(body, f"{game_id}:{seq}")))
            else:
                rows.append((game_id, seq, "open", body))
            seq += 1
        self.db.executemany("INSERT INTO journal (game, seq, kind, body) VALUES (?, ?, ?, ?)", rows)

    def undo(self, game_id: int, upto: int) -> None:
        """Journal an undo: the game goes back to its first ``upto`` seat decisions (and is unfinished)."""
        with self._transaction():
            self.db.execute("INSERT INTO journal (game, seq, kind, body) VALUES (?, ?, 'undo', ?)",
                            (game_id, self._next_seq(game_id), json.dumps({"upto": upto}).encode()))
            self.db.execute("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game_id,))
        self.checkpoint()

    def abandon(self, game_id: int) -> None:
        with self._transaction():
            self.db.execute("UPDATE games SET finished = ?, abandoned = 1 WHERE id = ?", (self.now(), game_id))
        self.checkpoint()

    def reopen(self, game_id: int) -> None:
        """An abandoned game is taken up again (the host ended it by mistake): unfinished once more."""
        with self._transaction():
            self.db.execute("UPDATE games SET finished = NULL, abandoned = 0 WHERE id = ?", (game_id,))
        self.checkpoint()

    def set_aside(self, game_id: int, why: str) -> None:
        """Keep an unfinished game that cannot be resumed out of the way: its rows stay, it is never resumed."""
        with self._transaction():
            self.db.execute("UPDATE games SET aside = ? WHERE id = ?", (why, game_id))
        self.checkpoint()

    def wait(self, game_id: int, until: str | None) -> None:
        """An unfinished game waits for another start (``until``: ``plain``, one without --game; ``game``, one with
        its own --game), or (None) is in play again."""
        with self._transaction():
            self.db.execute("UPDATE games SET waits = ? WHERE id = ?", (until, game_id))
        self.checkpoint()

    def set_name(self, game_id: int, seat: int, name: str | None) -> None:
        """Name the player at ``seat`` of the game; None takes the name away."""
        with self._transaction():
            if name:
                self.db.execute("INSERT OR REPLACE INTO names (game, seat, name) VALUES (?, ?, ?)",
                                (game_id, seat, name))
            else:
                self.db.execute("DELETE FROM names WHERE game = ? AND seat = ?", (game_id, seat))
        self.checkpoint()                   # so a -wal holds nothing but the turn's decisions (what a lost one costs)

    def checkpoint(self) -> None:
        """A turn has ended: copy the WAL into the main file and empty it.

        Emptied, not just copied: a WAL whose frames were already copied still holds older versions
        of those pages, and one cut short or damaged by a power cut would bring them back. The
        emptying waits for readers (the history) at most ``BUSY_S`` (:mod:`.opening`); if one is still reading, it is
        done at the next turn end.
        """
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as exc:
            raise card_fault(self.path, exc) from None

    def probe(self) -> None:
        """Write a scratch row and checkpoint it all: CardFault while the card still refuses, else nothing."""
        with self._transaction():
            self.db.execute("INSERT INTO probe (body) VALUES (zeroblob(?))", (PROBE_BYTES,))
            self.db.execute("DELETE FROM probe")
        try:
            busy, _, _ = self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as exc:
            raise card_fault(self.path, exc) from None
        if busy:
            raise CardFault(f"{self.path}: the journal could not be written through yet", "storage busy")

    def _next_seq(self, game_id: int) -> int:
        row = self.db.execute("SELECT max(seq) FROM journal WHERE game = ?", (game_id,)).fetchone()
        return 0 if row[0] is None else row[0] + 1

    def _transaction(self):
        return _Transaction(self.db, self.path)

    # ---- reading back -----------------------------------------------------------------------

    def unfinished_id(self) -> int | None:
        """The newest game in play: neither finished, set aside nor waiting for another start."""
        row = self.db.execute("SELECT id FROM games WHERE finished IS NULL AND aside IS NULL AND waits IS NULL "
                              "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else row[0]

    def waiting(self, until: str) -> list[tuple[int, dict]]:
        """The unfinished games waiting for a start of kind ``until``, newest first: each id and header."""
        return [(game_id, json.loads(header)) for game_id, header in self.db.execute(
            "SELECT id, header FROM games WHERE finished IS NULL AND aside IS NULL AND waits = ? ORDER BY id DESC",
            (until,))]

    def unfinished(self) -> Saved | None:
        game_id = self.unfinished_id()
        return None if game_id is None else self.load(game_id)

    def load(self, game_id: int) -> Saved:
        """The game's transcript as the journal says, undos applied, secrets opened (SealError if one cannot be)."""
        header = json.loads(self.db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()[0])
        records: list[dict] = []
        sealed: list[bool] = []
        for seq, kind, body in self.db.execute(
                "SELECT seq, kind, body FROM journal WHERE game = ? ORDER BY seq", (game_id,)):
            if kind == "undo":
                keep = _prefix(records, json.loads(body)["upto"])
                records, sealed = records[:keep], sealed[:keep]
                continue
            if kind == "sealed":
                body = self.sealer.open(body, f"{game_id}:{seq}")
            records.append(json.loads(body))
            sealed.append(kind == "sealed")
        return Saved(game_id, {"header": header, "records": records},
                     frozenset(i for i, s in enumerate(sealed) if s))


def _prefix(records: list[dict], upto: int) -> int:
    """How many records the first ``upto`` seat decisions (and the chance they led to) take up."""
    seen = 0
    for index, record in enumerate(records):
        if record["seat"] is not None:
            if seen == upto:
                return index
            seen += 1
    return len(records)


class _Transaction:
    """One commit point; anything the card refuses leaves the journal as it was and raises CardFault."""

    def __init__(self, db: sqlite3.Connection, path: Path):
        self.db, self.path = db, path

    def __enter__(self):
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise card_fault(self.path, exc) from None

    def __exit__(self, kind, value, traceback):
        try:
            if kind is not None:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
            else:
                self.db.execute("COMMIT")
                return False
        except sqlite3.Error as exc:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
            raise card_fault(self.path, exc) from None
        if isinstance(value, sqlite3.Error):
            raise card_fault(self.path, value) from None
        return False
