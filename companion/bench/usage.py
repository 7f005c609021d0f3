"""What a process has used, read from /proc: CPU seconds, peak RSS, PSS; and how busy the whole machine was."""
from __future__ import annotations

import os
import resource
from contextlib import contextmanager


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
