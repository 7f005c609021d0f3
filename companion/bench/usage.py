"""What a process has used, read from /proc: CPU seconds, peak RSS, PSS."""
from __future__ import annotations

import os
import resource


def process_cpu_seconds(pid: int) -> float:
    """CPU time of the process ``pid``, user and system."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()        # from field 3, the state
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(children: list[int]) -> float:
    """CPU time of this process and of ``children`` (their pids)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime + sum(map(process_cpu_seconds, children))


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
