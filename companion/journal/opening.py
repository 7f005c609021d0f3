"""Opening the journal for writing: checked, a damaged one moved aside (never deleted), migrated, its ``-wal`` looked
at before SQLite reads it back, its key loaded; what it cost told in notes for the host.
"""
from __future__ import annotations

import logging
import sqlite3
import time
from pathlib import Path
from typing import Callable

from ..durable import fsync_dir, keep_copy, set_aside
from . import wal
from .card import APPLICATION_ID, JournalError, card_fault, damaged
from .seal import KeyDamaged, load_key

log = logging.getLogger("molebox.records")

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
    # 3: unfinished games set aside at start (why, in words), and the scratch row a storage-fault retry writes
    """
    ALTER TABLE games ADD COLUMN aside TEXT;
    CREATE TABLE probe (body BLOB);
    """,
    # 4: unfinished games waiting for another start: 'plain' goes on at the next start without --game, 'game' at
    #    the next start with its own --game
    """
    ALTER TABLE games ADD COLUMN waits TEXT;
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)
BUSY_S = 0.2                        # the longest the session loop waits for a reader to let the WAL go
SIDES = ("-wal", "-shm")            # what SQLite keeps beside the journal


class Opening:
    """One opening of the journal at ``path`` by its writer (``unclean``: the last writer did not close it)."""

    def __init__(self, path: Path, now: Callable[[], float], unclean: bool):
        self.path, self.now, self.unclean = path, now, unclean
        self.notes: list[tuple[str, str]] = []      # what the opening cost: (words for the host, a few for a screen)

    def connect(self) -> sqlite3.Connection:
        """The journal's connection, on a journal checked (a damaged one moved aside first) and migrated. A journal
        refused (newer than this molebox, or one the box may not write) is left as it was found: the ``-wal`` and
        ``-shm`` SQLite made beside it go again (a ``-shm`` it made read-only beside a read-only journal would
        refuse the box once the journal was mended, whatever the journal's owner and mode)."""
        found = {suffix for suffix in SIDES if Path(f"{self.path}{suffix}").exists()}
        db = None
        try:
            why = self._damage()
            if why:
                self._move_aside(why)
            db = self._connect()
            self._migrate(db)
            self._writable(db)
            return db
        except (sqlite3.Error, JournalError) as exc:
            if db is not None:
                db.close()
            for suffix in set(SIDES) - found:
                try:
                    Path(f"{self.path}{suffix}").unlink(missing_ok=True)
                except OSError:                 # a read-only card: SQLite could not make it either
                    pass
            if isinstance(exc, JournalError):
                raise
            raise card_fault(self.path, exc) from None

    @staticmethod
    def _writable(db: sqlite3.Connection) -> None:
        """Raise SQLITE_READONLY if SQLite opened the journal read-only: it does so, silently and for the
        connection's life, when the file may not be written (its permissions, ``chattr +i``); only a row
        written shows it (a row taken back at once: nothing reaches the disk)."""
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("INSERT INTO probe (body) VALUES (NULL)")
        finally:
            db.execute("ROLLBACK")

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=BUSY_S, isolation_level=None, check_same_thread=False)
        try:
            if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")      # a new journal is ours from its first page
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error:
            db.close()                          # a card that refuses: the file is not held open meanwhile
            raise
        return db

    def _damage(self) -> str | None:
        """Why SQLite calls this journal damaged, or None; a schema newer than this molebox raises JournalError.

        Read-only: closing a writer's last connection would copy the -wal into the file, damage and all."""
        db = sqlite3.connect(self.path.absolute().as_uri() + "?mode=ro", uri=True)
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise JournalError(f"{self.path} has journal schema {version}, newer than this molebox "
                                 f"({SCHEMA_VERSION}): update molebox")
            problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as exc:
            if damaged(exc):
                return str(exc)
            raise
        finally:
            db.close()
        return None if problems == ["ok"] else "integrity check failed: " + "; ".join(problems[:3])

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
                log.warning("journal migrated to schema version %d", number)

    def _stamp(self) -> str:
        return time.strftime("%Y%m%d-%H%M%S", time.gmtime(self.now()))

    def _move_aside(self, why: str) -> None:
        """Move a damaged molebox journal (with its -wal and -shm) aside, never deleting it, and say so."""
        aside = set_aside(self.path, self._stamp())
        for suffix in SIDES:
            source = Path(f"{self.path}{suffix}")
            if source.exists():
                source.rename(Path(f"{aside}{suffix}"))
        fsync_dir(self.path.parent)
        self.notes.append((f"The journal was damaged ({why}): it was moved to {aside} and a new one started.",
                           "journal damaged: moved aside, a new one started"))
        log.error("%s could not be used (%s); moved it to %s and started a fresh journal", self.path, why, aside)

    def look_at_the_wal(self) -> None:
        """Before SQLite reads the -wal back: what a damaged or lost one cost, told, and the -wal kept aside (moved,
        if SQLite must not read it; else copied, and SQLite reads back what it can)."""
        loss = wal.look(self.path, self.unclean)
        if loss is None:
            return
        source, kept, new = Path(f"{self.path}-wal"), None, True
        try:
            if loss.stale:
                kept = set_aside(source, self._stamp())
            elif source.exists():
                kept, new = keep_copy(source, self._stamp())
        except OSError as exc:
            raise card_fault(source, exc) from None
        if loss.stale:
            text = (f"The journal's -wal was {loss.how}: it was set aside unread, as {kept}, and {loss.lost()}; "
                    f"the game goes on from the last turn end.")
        else:
            text = (f"The journal's -wal was {loss.how} at start: {loss.lost()}. "
                    + (f"It was kept as {kept}; the" if kept else "The")
                    + " game goes on from the last point that could be read back.")
        self.notes.append((text, loss.screen()))
        if new:                                     # an opening the card refused, tried again, says it once
            log.error("%s", text)

    def key(self) -> bytes:
        """The key secret picks are sealed with (a damaged one moved aside and a new one made)."""
        key_path = self.path.with_suffix(".key")
        try:
            try:
                return load_key(key_path)
            except KeyDamaged as exc:
                aside = set_aside(key_path, self._stamp())
                self.notes.append((f"The key file was damaged ({exc}): it was moved to {aside} and a new key made.",
                                   "key file damaged: moved aside, a new key made"))
                log.error("%s; moved it to %s and made a new key", exc, aside)
                return load_key(key_path)
        except OSError as exc:
            raise card_fault(key_path, exc) from None

