"""Files that survive a pulled plug: a new file is whole or absent, and a rename is on disk once made."""
from __future__ import annotations

import os
from pathlib import Path


def fsync_dir(path: Path) -> None:
    """Make the directory's entries (a file created, renamed or removed in it) durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_new(path: Path, data: bytes, mode: int = 0o600) -> None:
    """Write ``path`` (replacing it) so that a power cut leaves the old file or the whole new one, never a part.

    The data goes to a temporary file beside it, is fsynced, renamed over ``path``, and the directory is fsynced.
    """
    temporary = path.with_name(f".{path.name}.new")
    temporary.unlink(missing_ok=True)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def set_aside(path: Path, stamp: str) -> Path:
    """Rename ``path`` to ``path.<stamp>.aside`` (never over an existing file) and make it durable; the new name."""
    aside = _aside(path, stamp)
    path.rename(aside)
    fsync_dir(path.parent)
    return aside


def keep_copy(path: Path, stamp: str) -> tuple[Path, bool]:
    """Copy ``path`` whole to ``path.<stamp>.aside`` (never over an existing file), durably: the copy's name, and
    whether it is new (a copy of the same bytes made before is kept once). A copy the card refuses is removed."""
    data = path.read_bytes()
    for earlier in path.parent.glob(f"{path.name}.*.aside"):
        if earlier.stat().st_size == len(data) and earlier.read_bytes() == data:
            return earlier, False
    aside = _aside(path, stamp)
    try:
        with open(aside, "xb") as copy:
            copy.write(data)
            copy.flush()
            os.fsync(copy.fileno())
    except BaseException:
        aside.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)
    return aside, True


def _aside(path: Path, stamp: str) -> Path:
    aside = path.with_name(f"{path.name}.{stamp}.aside")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.{stamp}-{n}.aside")
    return aside
