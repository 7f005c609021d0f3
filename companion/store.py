"""The journal: every decision and chance outcome on disk before anyone sees it answered.

An embedded SQLite file in WAL mode. Every append is a commit point with
``synchronous=FULL``, so a record the lamps have acknowledged survives a power
cut. The game in memory is always a replay of the journal: resuming after a
crash, and undo, are both "replay what the journal says". Secret picks are
sealed (:mod:`companion.sealing`). The schema is versioned (``user_version``)
and migrated forward; a file that is not ours, or is damaged, is moved aside,
never overwritten.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from .sealing import Sealer, load_key

log = logging.getLogger("molebox.store")

APPLICATION_ID = 0x4D4F4C45          # "MOLE"
MIGRATIONS = [
    # 1: games and their journal
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        header TEXT NOT NULL,
        started REAL NOT NULL,
        finished REAL,
        result TEXT
    );
    CREATE TABLE journal (
        game INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('open', 'sealed', 'undo')),
        body BLOB NOT NULL,
        PRIMARY KEY (game, seq)
    );
    """,
    # 2: players' names, and games given up before their end
    """
    CREATE TABLE names (
        game INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game, seat)
    );
    ALTER TABLE games ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(RuntimeError):
    """The database cannot be used; the message says what to do."""


def default_path() -> Path:
    """The service's state directory under systemd, else the user's data directory."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "molebox.db"
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "molebox" / "molebox.db"


@dataclass(frozen=True)
class Saved:
    """An unfinished game found in the journal."""

    game_id: int
    transcript: dict
    sealed: frozenset[int]


class Reader:
    """Names and finished games, read on one connection: the store's own, or a read-only one (:meth:`Store.reader`)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

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

    def close(self) -> None:
        self.db.close()


class Store(Reader):
    def __init__(self, path: Path | str, now: Callable[[], float] = time.time):
        self.path = Path(path)
        self.now = now
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.moved_aside: Path | None = None
        super().__init__(self._open())
        self.sealer = Sealer(load_key(self.path.with_suffix(".key")))

    def reader(self) -> Reader:
        """A read-only connection for another thread: in WAL mode it reads beside this writer, neither waits."""
        return Reader(sqlite3.connect(self.path.absolute().as_uri() + "?mode=ro", uri=True))

    # ---- opening, checking, migrating -------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        try:
            db = self._connect()
            self._check(db)
            self._migrate(db)
            return db
        except (sqlite3.DatabaseError, StoreError) as exc:
            self._move_aside(str(exc))
            db = self._connect()
            self._migrate(db)
            return db

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return db

    @staticmethod
    def _check(db: sqlite3.Connection) -> None:
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if tables and app != APPLICATION_ID:
            raise StoreError("it is not a molebox database (another program's file?)")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"its schema version {version} is newer than this molebox ({SCHEMA_VERSION})")
        problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise StoreError("integrity check failed: " + "; ".join(problems[:3]))

    @staticmethod
    def _migrate(db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for number in range(version + 1, SCHEMA_VERSION + 1):
            db.execute("BEGIN IMMEDIATE")
            for statement in filter(str.strip, MIGRATIONS[number - 1].split(";")):
                db.execute(statement)
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={number}")
            db.execute("COMMIT")
            if version:
                log.warning("database migrated to schema version %d", number)

    def _move_aside(self, why: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(self.now()))
        aside = self.path.with_name(f"{self.path.name}.{stamp}.aside")
        for suffix in ("", "-wal", "-shm"):
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                source.rename(Path(f"{aside}{suffix}"))
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self.moved_aside = aside
        log.error("%s could not be used (%s); moved it to %s and started a fresh database",
                  self.path, why, aside)

    # ---- the journal ------------------------------------------------------------------------

    def begin(self, header: dict) -> int:
        cur = self.db.execute("INSERT INTO games (header, started) VALUES (?, ?)",
                              (json.dumps(header, sort_keys=True), self.now()))
        return cur.lastrowid

    def append(self, game_id: int, records: Iterable[tuple[int, dict, bool]]) -> None:
        """Write ``(index, record, sealed)`` rows in one commit point."""
        rows = []
        for index, record, sealed in records:
            body = json.dumps(record, sort_keys=True).encode()
            seq = self._next_seq(game_id) + len(rows)
            if sealed:
                rows.append((game_id, seq, "sealed", self.sealer.seal(body, f"{game_id}:{seq}")))
            else:
                rows.append((game_id, seq, "open", body))
        if rows:
            with self._transaction():
                self.db.executemany("INSERT INTO journal (game, seq, kind, body) VALUES (?, ?, ?, ?)", rows)

    def undo(self, game_id: int, upto: int) -> None:
        """Journal an undo: the game goes back to its first ``upto`` seat decisions (and is unfinished)."""
        with self._transaction():
            self.db.execute("INSERT INTO journal (game, seq, kind, body) VALUES (?, ?, 'undo', ?)",
                            (game_id, self._next_seq(game_id), json.dumps({"upto": upto}).encode()))
            self.db.execute("UPDATE games SET finished = NULL, result = NULL WHERE id = ?", (game_id,))

    def finish(self, game_id: int, result: dict) -> None:
        with self._transaction():
            self.db.execute("UPDATE games SET finished = ?, result = ? WHERE id = ?",
                            (self.now(), json.dumps(result, sort_keys=True), game_id))

    def abandon(self, game_id: int) -> None:
        with self._transaction():
            self.db.execute("UPDATE games SET finished = ?, abandoned = 1 WHERE id = ?", (self.now(), game_id))

    def set_name(self, game_id: int, seat: int, name: str | None) -> None:
        """Name the player at ``seat`` of the game; None takes the name away."""
        with self._transaction():
            if name:
                self.db.execute("INSERT OR REPLACE INTO names (game, seat, name) VALUES (?, ?, ?)",
                                (game_id, seat, name))
            else:
                self.db.execute("DELETE FROM names WHERE game = ? AND seat = ?", (game_id, seat))

    def _next_seq(self, game_id: int) -> int:
        row = self.db.execute("SELECT max(seq) FROM journal WHERE game = ?", (game_id,)).fetchone()
        return 0 if row[0] is None else row[0] + 1

    def _transaction(self):
        return _Transaction(self.db)

    # ---- reading back -----------------------------------------------------------------------

    def unfinished(self) -> Saved | None:
        row = self.db.execute("SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else self.load(row[0])

    def load(self, game_id: int) -> Saved:
        """The game's transcript as the journal says, undos applied, secrets opened."""
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
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, value, traceback):
        self.db.execute("ROLLBACK" if kind else "COMMIT")
