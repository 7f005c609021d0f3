"""What a process has used, read from /proc: CPU seconds, peak RSS, PSS; and how busy the whole machine was."""
from __future__ import annotations

import os
import resource
import struct
from contextlib import contextmanager

PAGE = os.sysconf("SC_PAGE_SIZE")
PRESENT, PFN = 1 << 63, (1 << 55) - 1       # /proc/PID/pagemap: the page is in memory; its page frame number


def process_cpu_seconds(pid: int) -> float:
    """CPU time of the process ``pid``, user and system."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()        # from field 3, the state
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(children: list[int]) -> float:
    """CPU time of this process and of ``children`` (their pids)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime + sum(map(process_cpu_seconds, children))


@contextmanager
def machine_busy():
    """Yields a dict whose ``busy``, once the block has run, is the share of all the machine's CPU time that was
    not idle meanwhile (%, /proc/stat): near 100, the block measured a saturated machine, not the box alone."""
    figures: dict[str, float] = {}
    busy, total = _cpu_times()
    yield figures
    busy_after, total_after = _cpu_times()
    figures["busy"] = 100 * (busy_after - busy) / max(1, total_after - total)


def _cpu_times() -> tuple[int, int]:
    """All CPUs' (busy, total) time in clock ticks: total is user to steal; idle and iowait are not busy."""
    with open("/proc/stat") as stat:
        ticks = [int(field) for field in stat.readline().split()[1:9]]
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)


def peak_rss_mb(pid: int | str = "self") -> float:
    """A process's peak RSS. Not ``ru_maxrss``: that survives exec, so a child reports the bench's own."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except OSError:                     # not Linux
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pss_mb(pid: int | str = "self") -> float:
    """A process's proportional set size now: its private pages, and its share of those it shares (the
    interpreter and libraries the render process maps too)."""
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        return next(int(line.split()[1]) for line in rollup if line.startswith("Pss:")) / 1024


def _frames(pid: int | str) -> set[int]:
    """The page frame numbers of every page of ``pid`` in memory (all 0 unless root may read them)."""
    frames = set()
    with open(f"/proc/{pid}/maps") as maps, open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for line in maps:
            start, end = (int(address, 16) for address in line.split()[0].split("-"))
            pagemap.seek(start // PAGE * 8)
            try:
                entries = pagemap.read((end - start) // PAGE * 8)
            except OSError:                 # [vsyscall]: no pages of the process's own
                continue
            frames.update(entry & PFN for (entry,) in struct.iter_unpack("<Q", entries) if entry & PRESENT)
    return frames


def pages_readable() -> bool:
    """Whether this process may read page frame numbers (root, CAP_SYS_ADMIN): :func:`resident_mb` needs them.
    Asked of one page surely in memory, an object just made (``id`` is its address)."""
    made = bytearray(64)
    try:
        with open("/proc/self/pagemap", "rb") as pagemap:
            pagemap.seek(id(made) // PAGE * 8)
            (entry,) = struct.unpack("<Q", pagemap.read(8))
    except OSError:                         # not Linux
        return False
    return bool(entry & PRESENT and entry & PFN)


def resident_mb(pids: list[int | str]) -> float:
    """The memory ``pids`` hold between them: each of their pages in memory counted once, however many of them
    map it. PSS splits a shared page among every process that maps it, whoever they are: beside the box, the
    bench's own process (which has imported the box) and anything else running take a share of the
    interpreter's and the libraries' pages, and the box's PSS moves with them. Needs :func:`pages_readable`."""
    frames = set()
    for pid in pids:
        frames |= _frames(pid)
    return len(frames) * PAGE / 2 ** 20


def memory(children: list[int]) -> dict[str, float]:
    """What this process and ``children`` hold together: ``rss``, the sum of their peak RSS; ``pss``, of their
    PSS now; and, where :func:`pages_readable`, ``pages``: their pages in memory now, each counted once."""
    pids: list[int | str] = ["self", *children]
    figures = {"rss": sum(map(peak_rss_mb, pids)), "pss": sum(map(pss_mb, pids))}
    if pages_readable():
        figures["pages"] = resident_mb(pids)
    return figures
