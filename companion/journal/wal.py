"""The journal's ``-wal`` and its index (``-shm``), read before SQLite opens them: what a damaged or lost WAL cost.

SQLite reads a WAL's frames back up to the first that does not check (salts of another
generation, a running checksum that fails) and replays the commits before it; what follows is
dropped without a word, and a missing ``-wal`` is no WAL at all. Its first connection then
rebuilds the index from the WAL, so the index's word on how many frames were committed
(``mxFrame``) must be read first. (Formats: https://www.sqlite.org/fileformat2.html#walformat
and #walindexformat.)

A commit the WAL no longer gives back was acknowledged when its fsync returned: the index
counted it, or the WAL shows frames written after it (the writer starts a commit only once the
one before is on disk). The frames of a last commit that neither says are a power cut
mid-commit, never acknowledged: a torn tail, not damage.
"""
from __future__ import annotations

import struct
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HEADER, FRAME_HEADER, INDEX_HEADER = 32, 24, 48
MAGIC = (0x377F0682, 0x377F0683)                  # checksums little- or big-endian
VERSION = 3007000


@dataclass(frozen=True)
class Index:
    """The WAL-index header as the last writer left it (or None when it cannot be trusted)."""

    frames: int              # mxFrame: frames committed in this generation of the WAL
    copied: int              # nBackfill: of those, frames already copied into the main file
    salts: bytes

    @classmethod
    def read(cls, path: Path) -> "Index | None":
        try:
            with open(path, "rb") as f:
                head = f.read(2 * INDEX_HEADER + 4)
        except OSError:
            return None
        if len(head) < 2 * INDEX_HEADER + 4 or head[:INDEX_HEADER] != head[INDEX_HEADER:2 * INDEX_HEADER]:
            return None
        version, _, _, init, _, _, frames = struct.unpack_from("=IIIBBHI", head)
        if version != VERSION or not init:
            return None
        return cls(frames, struct.unpack_from("=I", head, 2 * INDEX_HEADER)[0], head[32:40])


@dataclass(frozen=True)
class Frame:
    commit: bool
    salts: bytes
    checks: bool             # its salts and the running checksum are the WAL header's, unbroken from the first frame
    whole: bool              # the file holds all of it


@dataclass(frozen=True)
class Loss:
    """What the WAL lost: how it was found (``how``), the commit points SQLite still reads back (``read``), those
    acknowledged that it does not (``commits`` counted, ``more`` if others cannot be counted, ``sure`` False when
    there may have been none), and whether SQLite must not read this ``-wal`` at all (``stale``: another
    generation's, whose frames would bring back older pages)."""

    how: str
    read: int = 0
    commits: int = 0
    more: bool = False
    sure: bool = True
    stale: bool = False

    def lost(self) -> str:
        """What was lost, in words for the host."""
        if not self.sure:
            return "any decisions since the last turn end could not be read back"
        if self.commits:
            count = (f"{self.commits} or more decisions" if self.more else "the last decision" if self.commits == 1
                     else f"the last {self.commits} decisions")
            return f"{count} of the turn in play could not be read back"
        if self.more:
            return (f"the decisions of the turn in play after its first {self.read} could not be read back" if self.read
                    else "the decisions since the last turn end could not be read back")
        return "nothing was lost"

    def screen(self) -> str:
        """The same in the few words a 128-pixel screen has room for."""
        how = self.how.split(" (")[0]
        if self.commits:
            return f"-wal {how}: {self.commits}{'+' * self.more} decision{'s' * (self.commits > 1)} lost"
        return f"-wal {how}: " + ("the turn's decisions may be lost" if not self.sure else
                                  "the turn's decisions lost" if self.more else "nothing lost")


def _checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def frames(data: bytes) -> tuple[bool, bytes, list[Frame]]:
    """Whether the WAL header checks, its salts, and every frame the file holds (a last one cut short included,
    if its frame header is there)."""
    magic, version, page, _, salts, check = struct.unpack_from(">IIII8s8s", data.ljust(HEADER, b"\0"))
    big = magic & 1
    valid = (len(data) >= HEADER and magic in MAGIC and version == VERSION and 512 <= page <= 65536
             and struct.pack(">II", *_checksum(data[:24], 0, 0, big)) == check)
    if not (512 <= page <= 65536 and page & (page - 1) == 0):
        page = 4096                                     # the header's page size is scribbled on: SQLite's default
    s0, s1 = struct.unpack(">II", check)
    out, chained = [], valid
    for at in range(HEADER, len(data) - FRAME_HEADER + 1, FRAME_HEADER + page):
        head, body = data[at:at + FRAME_HEADER], data[at + FRAME_HEADER:at + FRAME_HEADER + page]
        whole = len(body) == page
        if chained:
            s0, s1 = _checksum(head[:8] + body, s0, s1, big) if whole else (None, None)
            chained = whole and head[8:16] == salts and head[16:24] == struct.pack(">II", s0, s1)
        out.append(Frame(head[4:8] != bytes(4), head[8:16], chained, whole))
    return valid, salts, out


def look(journal: Path, unclean: bool) -> Loss | None:
    """What the journal's ``-wal`` lost, read before SQLite opens it; None if it lost nothing acknowledged.

    ``unclean``: the last box on this journal never let it go (:class:`~.card.WriterLock`), so a
    ``-wal`` was left (SQLite deletes it only when its last connection closes cleanly).
    """
    index = Index.read(Path(f"{journal}-shm"))
    try:
        data = Path(f"{journal}-wal").read_bytes()
    except FileNotFoundError:
        if index is not None:
            return Loss("missing", more=True) if index.frames > index.copied else None
        return Loss("missing", sure=False) if unclean else None
    valid, salts, found = frames(data)
    if index is not None and valid and index.salts != salts:
        return Loss("of another generation (an older copy)", more=index.frames > index.copied, stale=True)
    if not valid and index is not None:
        salts = index.salts
    elif not valid and found:                           # the generation most of its frames are of
        salts = Counter(frame.salts for frame in found).most_common(1)[0][0]
    read = 0                                            # the frames SQLite reads back: up to its last commit
    for number, frame in enumerate(found, 1):
        if not frame.checks:
            break
        read = number if frame.commit else read
    ours = [n for n, frame in enumerate(found, 1) if frame.salts == salts]
    committed = index.frames if index is not None and index.salts == salts else 0
    after = [n for n in ours if n > read and found[n - 1].commit]           # commits SQLite will not read back
    lost = [n for n in after if n <= committed or n < ours[-1]]             # ... that were acknowledged
    if not lost and committed <= read:
        return None                                     # nothing lost, or a torn tail
    more = committed > max([read, *lost]) or len(after) > len(lost)        # commits it cannot count, or prove
    broken = next((frame for frame in found if not frame.checks), None)
    how = ("cut short" if len(data) < HEADER or (valid and (broken is None or not broken.whole))
           else "damaged" if valid else "damaged (its header)")
    return Loss(how, sum(frame.commit for frame in found[:read]), len(lost), more)
