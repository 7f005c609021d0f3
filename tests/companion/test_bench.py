"""The bench runs, and its raw references' processes load their library alone, not molebox beside it."""
from __future__ import annotations

import subprocess
import sys


def loaded_by(*modules: str) -> set[str]:
    probe = f"import sys, {', '.join(modules)}\nprint(' '.join(sys.modules))"
    return set(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split())


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


def test_the_quick_check_of_another_machine_prints_its_rows():
    out = subprocess.run([sys.executable, "-m", "companion.bench", "--press-only", "--samples", "10"],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    rows = [line.split(" | ")[0] for line in out.splitlines() if line.startswith("| press-to-lamp")]
    assert rows == ["| press-to-lamp p50 (ms)", "| press-to-lamp p99 (ms)",
                    "| press-to-lamp p50, web pages streaming (ms)", "| press-to-lamp p99, web pages streaming (ms)",
                    "| press-to-lamp p50, slow card (ms)", "| press-to-lamp p99, slow card (ms)"]
    assert "| the journal's commit point p99, slow card, beside sqlite3's on the same disk meanwhile (ms)" in out
    assert "The slow card: a " in out
