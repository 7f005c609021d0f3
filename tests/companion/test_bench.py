"""The bench runs, and its raw references' processes load their library alone, not molebox beside it."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading

import pytest

from companion.bench.disk import DiskWatch
from companion.bench.kiosk import have_chromium
from tests.waiting import wait_for


def loaded_by(*modules: str) -> set[str]:
    probe = f"import sys, {', '.join(modules)}\nprint(' '.join(sys.modules))"
    return set(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split())


def bench(*args: str) -> str:
    """What ``python -m companion.bench ARGS`` prints; if it fails, the test says why (its stderr's end)."""
    run = subprocess.run([sys.executable, "-m", "companion.bench", *args], capture_output=True, text=True,
                         timeout=240)
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout


def molebox(loaded: set[str]) -> set[str]:
    return {m for m in loaded if m.split(".")[0] in ("rules", "wiring", "firmware")
            or m.startswith("companion.") and not m.startswith("companion.bench")}


def test_the_raw_probe_s_process_loads_no_molebox_and_no_web_before_its_libraries():
    loaded = loaded_by("companion.bench.__main__", "companion.bench.probe")
    assert not molebox(loaded)
    assert not loaded & {"asyncio", "ssl", "aiohttp", "gpiozero", "luma"}     # each comes only with what needs it


def test_the_raw_phone_server_s_process_loads_no_molebox():
    assert not molebox(loaded_by("companion.bench.__main__", "companion.bench.raw", "companion.bench.serving",
                                 "companion.bench.phone_client"))


def test_the_disk_probe_commits_from_a_process_of_its_own_loading_no_molebox(tmp_path):
    assert not molebox(loaded_by("companion.bench.__main__", "companion.bench.disk"))
    threads = threading.active_count()

    def committed() -> int:
        with sqlite3.connect(tmp_path / "disk-probe.db") as db:
            try:
                return db.execute("SELECT count(*) FROM t").fetchone()[0]
            except sqlite3.OperationalError:        # not made yet
                return 0

    with DiskWatch(str(tmp_path)) as disk:
        assert threading.active_count() == threads          # nothing of it runs in the box's process
        assert wait_for(lambda: committed() >= 5, timeout=60)
        with pytest.raises(RuntimeError, match="after its block"):     # its process says them as it stops
            disk.raw
    assert len(disk.raw) >= 5 and all(0 < t < 10 for t in disk.raw)


def test_the_quick_check_of_another_machine_prints_its_rows():
    out = bench("--press-only", "--samples", "10")
    rows = [line.split(" | ")[0] for line in out.splitlines() if line.startswith("| press-to-lamp")]
    tv = ["| press-to-lamp p50, the TV's stream and page open (ms)",
          "| press-to-lamp p99, the TV's stream and page open (ms)"] if have_chromium() else []
    assert rows == ["| press-to-lamp p50 (ms)", "| press-to-lamp p99 (ms)",
                    "| press-to-lamp p50, web pages streaming (ms)", "| press-to-lamp p99, web pages streaming (ms)",
                    *tv, "| press-to-lamp p50, slow card (ms)", "| press-to-lamp p99, slow card (ms)"]
    assert "| the journal's commit point p99, slow card, beside sqlite3's on the same disk meanwhile (ms)" in out
    busy = [line.split(" | ")[1:3] for line in out.splitlines() if line.startswith("| the machine's CPUs busy")]
    assert len(busy) == len(rows) // 2 and all(0 < float(ours) <= 100 and 0 <= float(raw) <= 100 for ours, raw in busy)
    assert "The slow card: a " in out


@pytest.mark.skipif(not have_chromium(), reason="the TV rows need Debian's chromium")
def test_the_tv_rows_measure_the_page_in_chromium():
    out = bench("--tv-only", "--samples", "10", "--tv-seconds", "1")
    rows = {line.split(" | ")[0]: line.split(" | ")[1:3] for line in out.splitlines() if line.startswith("| TV page")}
    assert list(rows) == ["| TV page in chromium, CPU at rest for 1 s (% of a core)",
                          "| TV page in chromium, PSS at rest (MB)",
                          "| TV page in chromium, CPU during 1 s of a game (% of a core)",
                          "| TV page in chromium, PSS after the game (MB)"]
    assert all(float(ours) > 0 and float(blank) > 0 for name, (ours, blank) in rows.items() if "PSS" in name)
