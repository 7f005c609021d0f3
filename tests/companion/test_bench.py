"""The bench runs, every row of it, and its raw references' processes load their library alone, not molebox
beside it."""
from __future__ import annotations

import contextlib
import dataclasses
import io
import math
import re
import sqlite3
import subprocess
import sys
import threading

import pytest

from companion.bench import oled, raw, report
from companion.bench.common import FULL
from companion.bench.disk import Card, DiskWatch
from companion.bench.kiosk import have_chromium
from companion.bench.press import Presses
from rules import arena
from tests.waiting import wait_for

HUNG_S = 1800       # not a bound on its speed: only a bench that hangs is stopped, on however busy a machine


def loaded_by(*modules: str) -> set[str]:
    probe = f"import sys, {', '.join(modules)}\nprint(' '.join(sys.modules))"
    return set(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split())


def bench(*args: str) -> str:
    """What ``python -m companion.bench ARGS`` prints; if it fails, or a display drew a fault screen, the test says
    why (its stderr's end)."""
    run = subprocess.run([sys.executable, "-m", "companion.bench", *args], capture_output=True, text=True,
                         timeout=HUNG_S)
    assert run.returncode == 0, run.stderr[-3000:]
    assert "could not draw its frame" not in run.stderr, run.stderr[-3000:]     # a screen the render process refused
    return run.stdout


def rows(out: str) -> list[tuple[str, list[str]]]:
    """The table's rows, in order: each figure's name (its seconds as "# s": the quick table's are not the full
    one's) and its cells after the name."""
    found = []
    for line in out.splitlines():
        if line.startswith("| ") and not line.startswith(("| figure |", "| --- |")):
            name, *cells = [cell.strip() for cell in line.strip("|").split(" | ")]
            found.append((re.sub(r"\b\d+(\.\d+)? s\b", "# s", name), cells))
    return found


@contextlib.contextmanager
def nothing_measured(workdir: str):
    """Each measurement the table makes replaced by figures of its shape, made at once: what is left is the code
    that prints the rows. A measurement that would still start a process (the box, a probe, chromium) fails the
    test instead: a new one needs its stand-in here."""
    def latency(samples, **_):
        return Presses([0.001, 0.002], {"EVENTS": 1, "BYTES": 1, "READS": 1, "REFUSED": 0}, [0.001], [0.001], 1.0)

    @contextlib.contextmanager
    def card():
        yield Card(workdir, "a stand-in")

    def play(presses, *_, **__):
        figures = oled.Figures(bytes=1, switch_bytes=1)
        for field in dataclasses.fields(figures):
            if isinstance(getattr(figures, field.name), list):
                setattr(figures, field.name, [0.001, 0.002])
        return figures

    def bot_game(game_id, levels, seed=0, observe=None, **_):
        for level in set(levels):
            observe(level, lambda: None)

    def measuring(*_, **__):
        raise AssertionError("the table measured something the test has no stand-in for")

    standins = [
        (report, "companion_latency", latency), (report, "raw_chain", lambda samples: ([0.001], 1.0)),
        (report, "slow_card", card), (oled, "slow_card", card), (raw, "press_to_lamp", lambda samples: [0.001]),
        (report, "measure_process", lambda kind, idle_s: {"ready": 1, "idle": 1, "rss": 1, "pss": 1, "pages": 1}),
        (report, "phone_latency", lambda samples, kind="molebox", guests="dashboards": (
            [0.001], {"rss": 1, "pss": 1, "pages": 1, "reads": 1, "refused": 0})),
        (report, "mixed_panel_latency", lambda samples: [0.001]),
        (report, "tv_page", lambda seconds: {phase: {"cpu": 1, "pss": 1} for phase in ("rest", "game", "blank")}),
        (report, "commit_points", lambda samples, workdir: {mode: [0.001] for mode in ("kept", "emptied", "raw")}),
        (report, "resume_time", lambda workdir: (0.01, 0.001)),
        (report, "ioboard_latency", lambda samples, baud: ([0.001], 0.001)),
        (oled, "play", play), (arena, "play", bot_game), (subprocess, "Popen", measuring)]
    with pytest.MonkeyPatch.context() as patch:
        for module, name, standin in standins:
            patch.setattr(module, name, standin)
        yield


@pytest.fixture(scope="module")
def quick_table() -> str:
    """What the whole table prints in its quick form (``--quick``), run once for this module's tests."""
    return bench("--quick")


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
    out = bench("--press-only", "--quick")
    rows = [line.split(" | ")[0] for line in out.splitlines() if line.startswith("| press-to-lamp")]
    tv = ["| press-to-lamp p50, the TV's stream and page open (ms)",
          "| press-to-lamp p99, the TV's stream and page open (ms)"] if have_chromium() else []
    history = ", 32 guests reading the history of 95 games"
    assert rows == ["| press-to-lamp p50 (ms)", "| press-to-lamp p99 (ms)",
                    "| press-to-lamp p50, web pages streaming (ms)", "| press-to-lamp p99, web pages streaming (ms)",
                    *tv, "| press-to-lamp p50, slow card (ms)", "| press-to-lamp p99, slow card (ms)",
                    f"| press-to-lamp p50{history} (ms)", f"| press-to-lamp p99{history} (ms)",
                    f"| press-to-lamp p50{history}, beside it with none (ms)"]
    assert "| the journal's commit point p99, slow card, beside sqlite3's on the same disk meanwhile (ms)" in out
    busy = [line.split(" | ")[1:3] for line in out.splitlines() if line.startswith("| the machine's CPUs busy")]
    assert len(busy) == (len(rows) - 1) // 2 and all(0 < float(ours) <= 100 and 0 <= float(raw) <= 100 for ours, raw in busy)
    assert "The slow card: a " in out


@pytest.mark.skipif(not have_chromium(), reason="the TV rows need Debian's chromium")
def test_the_tv_rows_measure_the_page_in_chromium():
    out = bench("--tv-only", "--quick")
    tv = {name: cells[:2] for name, cells in rows(out) if name.startswith("TV page")}
    assert list(tv) == ["TV page in chromium, CPU at rest for # s (% of a core)",
                        "TV page in chromium, PSS at rest (MB)",
                        "TV page in chromium, CPU during # s of a game (% of a core)",
                        "TV page in chromium, PSS after the game (MB)"]
    assert all(float(ours) > 0 and float(blank) > 0 for name, (ours, blank) in tv.items() if "PSS" in name)


def test_the_quick_table_prints_every_row_the_full_table_prints_with_a_figure_in_each(quick_table, tmp_path):
    full = io.StringIO()
    with nothing_measured(str(tmp_path)), contextlib.redirect_stdout(full):
        report.print_table(FULL)
    expected, quick = [name for name, _ in rows(full.getvalue())], rows(quick_table)
    assert expected
    assert [name for name, _ in quick] == expected
    for name, (ours, reference, *_) in quick:
        assert math.isfinite(float(ours)), name
        assert reference == "-" or math.isfinite(float(reference)), name


@pytest.mark.skipif(not have_chromium(), reason="the TV rows need Debian's chromium (/usr/bin/chromium): without "
                                                "it the table leaves them out, and they go unchecked")
def test_the_quick_table_has_the_tv_rows(quick_table):
    assert any(name.startswith("TV page in chromium") for name, _ in rows(quick_table))
