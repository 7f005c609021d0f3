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
import resource
import sqlite3
import sys
import time
from pathlib import Path

from ..durable import fsync_dir, write_new
from ..words import N_

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

    ``short`` is the few words a 128-pixel screen has room for (English, marked for the catalogue: the screens
    say it in the box's language); the message says it all, to the host's log.
    """

    def __init__(self, message: str, short: str):
        super().__init__(message)
        self.short = short


def card_fault(path: Path, exc: BaseException) -> CardFault:
    """What the card's refusal means for the host, from SQLite's error name or the errno."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    code = getattr(exc, "errno", None)
    io_error = name.startswith("SQLITE_IOERR") or code == errno.EIO      # SQLite does not say which errno it met
    if name == "SQLITE_FULL" or code in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT) or (io_error and no_room(path)):
        return CardFault(f"{path}: the storage is full ({exc}): free some space", N_("storage full"))
    if code in (errno.EISDIR, errno.ENOTDIR):                            # not the card: something in the way
        return CardFault(f"cannot use {path} ({exc}): something else stands where molebox keeps its file; move it "
                         f"away", N_("journal unreachable"))
    if name.startswith("SQLITE_READONLY") or code == errno.EROFS or (
            (name.startswith("SQLITE_CANTOPEN") or code in (errno.EACCES, errno.EPERM)) and read_only_mount(path)):
        locked = None if code == errno.EROFS else not_writable(path)
        if locked is not None:
            return CardFault(f"molebox may not write {locked} ({exc}): let the box's user write it (on a Pi: sudo "
                             f"chown molebox: {locked}; sudo chmod u+rw {locked}; sudo chattr -i {locked} if it was "
                             f"made immutable)", N_("journal read-only"))
        return CardFault(f"{path}: the storage is read-only ({exc}); an SD card that turned read-only may be "
                            f"failing", N_("storage read-only"))
    if name.startswith("SQLITE_CANTOPEN") or code in (errno.EACCES, errno.EPERM, errno.ENOENT):
        return CardFault(f"cannot open {path} ({exc}): check that the directory exists and that molebox may "
                            f"write it", N_("journal unreachable"))
    if name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED"):
        return CardFault(f"{path} is busy ({exc}): another program holds it", N_("journal busy"))
    return CardFault(f"{path}: the storage failed ({exc}); an SD card with I/O errors may be failing",
                        N_("storage error"))


ROOM = 256 * 1024          # less free than this (a commit point's frames, the -shm's next 32 KB): the card is full


def no_room(path: Path) -> bool:
    """Whether the journal at ``path`` has no room to grow: its file system nearly full, or this process's file
    size limit (``RLIMIT_FSIZE``) reached. An SQLite I/O error on the -shm or the -wal is then a full card's."""
    try:
        free = os.statvfs(next(p for p in (path, *path.parents) if p.exists()))
    except OSError:
        return False
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    largest = max(_size(Path(f"{path}{suffix}")) for suffix in ("", "-wal", "-shm")) if path.is_file() else 0
    return free.f_bavail * free.f_frsize < ROOM or (limit != resource.RLIM_INFINITY and limit < largest + ROOM)


def read_only_mount(path: Path) -> bool:
    """Whether the file system under ``path`` (or its nearest ancestor that exists) is mounted read-only."""
    try:
        return bool(os.statvfs(next(p for p in (path, *path.parents) if p.exists())).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def not_writable(path: Path) -> Path | None:
    """The journal's file (or its -wal, -shm or directory) that this process may not write, on a card that takes
    writes (a file's permissions, ``chattr +i``); None if there is none, or if the card itself is read-only."""
    files = [p for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm"), path.parent) if p.exists()]
    try:
        if not files or os.statvfs(files[-1]).f_flag & os.ST_RDONLY:
            return None
    except OSError:
        return None
    return next((p for p in files if not os.access(p, os.W_OK)), None)


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

    Read-only, and by the bytes alone (no SQLite connection, which may write a ``-shm`` beside the file):
    nothing at ``path`` or beside it is created, moved or written. A molebox journal carries its
    application id in its first page from its very first write (:meth:`~.records.Records._connect`), so
    an SQLite database without it is another program's, however empty.
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
    leave = "molebox leaves it as it is: move it away, or give --db another path"
    if not head:                             # what molebox makes before its first write: nothing to lose ...
        if _size(Path(f"{path}-wal")):       # ... unless another program's new database is all in its -wal
            raise NotAJournal(f"{path} is another program's SQLite database (its -wal holds it), not a molebox "
                              f"journal; {leave}")
        return
    if not head.startswith(SQLITE_HEADER):
        raise NotAJournal(f"{path} is not a molebox journal (not an SQLite database at all); {leave}")
    app = int.from_bytes(head[68:72], "big")
    if app != APPLICATION_ID:
        raise NotAJournal(f"{path} is another program's SQLite database (application id {app:#x}), not a molebox "
                          f"journal; {leave}")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


class WriterLock:
    """One writer per journal: an exclusive ``flock`` on the journal file itself, held while the records are open.

    On Linux's local file systems a ``flock`` and SQLite's own (POSIX, ``fcntl``) locks do not meet, and
    the lock is on the file, so no file beside it can be removed to let a second box in. ``<journal>.lock``
    only says who holds it (``pid N: command``, and since when), and that a box holds it: it is removed
    when the journal is let go, so finding one at start (``unclean``) means the last box never let go (a
    power cut, a kill). The descriptor stays open until SQLite's connections are closed: closing any
    descriptor of a file drops every POSIX lock this process holds on it.
    """

    def __init__(self, journal: Path):
        self.path = journal.with_name(journal.name + ".lock")
        named = _read(self.path)
        if named and not named.startswith("pid "):
            raise NotAJournal(f"{self.path} is not molebox's lock file, and molebox leaves it as it is: move it "
                              f"away, or give --db another path")
        try:
            self.fd = os.open(journal, os.O_RDONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            raise card_fault(journal, exc) from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            raise JournalBusy(f"another molebox is using {journal} ({holder(journal)}): stop it first (on a Pi: "
                              f"sudo systemctl stop molebox), or give --db another journal") from None
        self.unclean = SINCE in named           # boxes before this one wrote no "since", and left their file
        since = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        try:
            write_new(self.path, f"pid {os.getpid()}: {_command(sys.argv)}\n{SINCE}{since}\n".encode())
        except OSError:                     # a full card: the lock holds all the same, unnamed
            pass

    def release(self) -> None:
        """Let the journal go (after SQLite's connections are closed): the file that names this box goes first."""
        try:
            self.path.unlink(missing_ok=True)
            fsync_dir(self.path.parent)
        except OSError:                     # a read-only card: the next box will think this one was cut off
            pass
        os.close(self.fd)                   # closing the descriptor lets the flock go


SINCE = "since "


def _read(path: Path) -> str:
    """The start of a small text file (a lock file, a process's command line); empty if there is none."""
    try:
        with open(path, "rb") as f:
            return f.read(4096).decode(errors="replace")
    except OSError:
        return ""


def _command(argv: list[str]) -> str:
    return " ".join(Path(a).name if i == 0 else a for i, a in enumerate(argv) if a)


def holder(journal: Path) -> str:
    """Who holds the journal's flock, as ``pid N: command``, from the kernel's list of locks (``/proc/locks``)."""
    try:
        stat = os.stat(journal)
        locks = Path("/proc/locks").read_text().splitlines()
    except OSError:
        return "a process that is starting"
    device = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    for line in locks:
        fields = line.split()
        if fields[1:2] == ["FLOCK"] and fields[5:6] == [device]:
            return f"pid {fields[4]}: " + _command(_read(Path(f"/proc/{fields[4]}/cmdline")).split("\0"))
    return "a process that is starting"
