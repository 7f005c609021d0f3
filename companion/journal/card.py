"""The journal's file and the card under it: where it is, whether it is ours, who writes it, what a refusal means.

- :func:`identify` refuses anything at the journal's path that is not a molebox journal
  (:class:`NotAJournal`), reading only;
- :class:`WriterLock` lets one process write a journal at a time (:class:`JournalBusy`);
- :func:`card_fault` turns SQLite's or the OS's refusal into words for the host
  (:class:`CardFault`: full, read-only, failing, unreachable), which may clear.
"""
from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import sys
from pathlib import Path

APPLICATION_ID = 0x4D4F4C45          # "MOLE"
SQLITE_HEADER = b"SQLite format 3\0"
SERVICE_JOURNAL = Path("/var/lib/molebox/molebox.db")    # StateDirectory=molebox in systemd/molebox.service


class JournalError(RuntimeError):
    """The journal cannot be used; the message says what to do."""


class NotAJournal(JournalError):
    """The path holds something that is not a molebox journal: refused, never moved or written."""


class JournalBusy(JournalError):
    """Another molebox process is writing this journal."""


class CardFault(JournalError):
    """The card will not take (or give) the journal now: full, read-only, failing, unreadable. It may clear.

    ``short`` is the few words a 128-pixel screen has room for; the message says it all.
    """

    def __init__(self, message: str, short: str):
        super().__init__(message)
        self.short = short


def card_fault(path: Path, exc: BaseException) -> CardFault:
    """What the card's refusal means for the host, from SQLite's error name or the errno."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    code = getattr(exc, "errno", None)
    if name == "SQLITE_FULL" or code in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        return CardFault(f"{path}: the storage is full ({exc}): free some space; molebox tries again by itself",
                            "storage full")
    if name.startswith("SQLITE_READONLY") or code == errno.EROFS:
        return CardFault(f"{path}: the storage is read-only ({exc}); an SD card that turned read-only may be "
                            f"failing", "storage read-only")
    if name.startswith("SQLITE_CANTOPEN") or code in (errno.EACCES, errno.EPERM, errno.ENOENT):
        return CardFault(f"cannot open {path} ({exc}): check that the directory exists and that molebox may "
                            f"write it", "journal unreachable")
    if name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED"):
        return CardFault(f"{path} is busy ({exc}): another program holds it", "journal busy")
    return CardFault(f"{path}: the storage failed ({exc}); an SD card with I/O errors may be failing",
                        "storage error")


def damaged(exc: sqlite3.DatabaseError) -> bool:
    """SQLite says the file itself is broken (as opposed to the card refusing a read or a write)."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    return name.startswith("SQLITE_CORRUPT") or name == "SQLITE_NOTADB"


def default_path() -> Path:
    """Where ``molebox run`` journals: the service's state directory under systemd, else the user's data directory."""
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "molebox.db"
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "molebox" / "molebox.db"


def reader_path() -> Path:
    """Where ``history``, ``stats`` and ``pin`` look: the service's journal when this machine has one, else ours."""
    if not os.environ.get("STATE_DIRECTORY") and SERVICE_JOURNAL.exists():
        return SERVICE_JOURNAL
    return default_path()


def identify(path: Path) -> None:
    """Refuse (:class:`NotAJournal`) anything at ``path`` that is not a molebox journal; a missing or empty file is fine.

    Read-only: nothing at ``path`` is created, moved or written.
    """
    if path.is_dir():
        raise NotAJournal(f"{path} is a directory, not a molebox journal: name a file, e.g. {path / 'molebox.db'}")
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise card_fault(path, exc) from None
    if not head:
        return                               # what SQLite leaves before its first write: nothing to lose
    leave = "molebox leaves it as it is: move it away, or give --db another path"
    if not head.startswith(SQLITE_HEADER):
        raise NotAJournal(f"{path} is not a molebox journal (not an SQLite database at all); {leave}")
    if int.from_bytes(head[68:72], "big") == APPLICATION_ID:
        return
    try:                                     # a new journal's id may still be in its -wal
        db = sqlite3.connect(path.absolute().as_uri() + "?mode=ro", uri=True)
        try:
            app = db.execute("PRAGMA application_id").fetchone()[0]
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        raise NotAJournal(f"{path} is an SQLite database that molebox cannot read as its own; {leave}") from None
    if app != APPLICATION_ID and tables:
        raise NotAJournal(f"{path} is another program's SQLite database (application id {app:#x}), not a molebox "
                          f"journal; {leave}")


class WriterLock:
    """One writer per journal: an exclusive ``flock`` on ``<journal>.lock``, held while the records is open."""

    def __init__(self, journal: Path):
        self.path = journal.with_name(journal.name + ".lock")
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise card_fault(self.path, exc) from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(self.fd, 300).decode(errors="replace").strip() or "a process that is starting"
            os.close(self.fd)
            raise JournalBusy(f"another molebox is using {journal} ({holder}): stop it first (on a Pi: "
                              f"sudo systemctl stop molebox), or give --db another journal") from None
        try:
            os.ftruncate(self.fd, 0)
            os.write(self.fd, f"pid {os.getpid()}: {' '.join(Path(a).name if i == 0 else a for i, a in enumerate(sys.argv))}"
                     .encode())
        except OSError:                     # a full card: the lock holds all the same, unnamed
            pass

    def release(self) -> None:
        os.close(self.fd)                   # closing the descriptor lets the flock go


