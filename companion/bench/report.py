"""The whole table that ``make bench`` prints, in its order: every figure beside its raw reference."""
from __future__ import annotations

import platform
import statistics
import tempfile

from . import raw
from .bots import print_bot_rows
from .common import BENCH_DIR, Sizes, print_p50_p99, row
from .oled import print_rows as print_oled_rows
from .phone_client import PHONES
from .phones import mixed_panel_latency, phone_latency
from .disk import slow_card
from .kiosk import have_chromium
from .press import Presses, companion_latency, ioboard_latency
from .probe import measure_process
from .storage import HISTORY_GAMES, commit_points, resume_time
from .streams import DASHBOARDS, HISTORY_GUESTS
from .tv import tv_page
from .usage import machine_busy, pages_readable


HISTORY = f", {HISTORY_GUESTS} guests reading the history of {HISTORY_GAMES} games"


def ms(seconds: list[float]) -> list[float]:
    return [1000 * x for x in seconds]


def raw_chain(samples: int) -> tuple[list[float], float]:
    """gpiozero's own press-to-lamp chain (ms), and how busy the machine was meanwhile (%)."""
    with machine_busy() as cpu:
        presses = ms(raw.press_to_lamp(samples))
    return presses, cpu["busy"]


def print_press_rows(runs: dict[str, Presses], raw_ms: list[float], raw_busy: float, more: str) -> None:
    """The table's head and its press-to-lamp rows (ms), each beside the raw chain's; after each, the journal's
    commit points during its presses beside raw sqlite3 commits on the same disk meanwhile, and how busy the
    machine's CPUs were beside the raw chain's run (a row taken on a saturated machine says so)."""
    first = next(iter(runs.values()))
    print(f"molebox bench: {platform.machine()}, Python {platform.python_version()}, {len(first.lamps)} presses, "
          f"every OK journaled{more}\n")
    print("| figure | molebox | raw library | ratio | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    for where, presses in runs.items():
        print_p50_p99("press-to-lamp", where, ms(presses.lamps), raw_ms, "< 1 ms, < 10x")
        print_p50_p99("the journal's commit point", f"{where}, beside sqlite3's on the same disk meanwhile",
                      ms(presses.commits), ms(presses.disk), "")
        print(row(f"the machine's CPUs busy{where} (%)", presses.busy, raw_busy, "", "{:.0f}"))


def print_history_row(runs: dict[str, Presses]) -> None:
    """A panel's press-to-lamp while guests read the history in a loop, beside the first run's (no web at all): the
    reads may cost the presses no more than twice; and how many reads the guests got meanwhile."""
    flooded, quiet = runs[HISTORY], next(iter(runs.values()))
    print(row(f"press-to-lamp p50{HISTORY}, beside it with none (ms)", statistics.median(ms(flooded.lamps)),
              statistics.median(ms(quiet.lamps)), "< 2x", "{:.2f}"))
    print(row(f"history answers the guests got{HISTORY} (paced: {flooded.streamed['REFUSED']:.0f} refused)",
              flooded.streamed["READS"], None, "", "{:.0f}"))


def print_tv_rows(seconds: float) -> None:
    """The TV view's page in headless chromium, at rest and during a game, beside chromium on a blank page."""
    tv = tv_page(seconds)
    for phase, when, then in (("rest", f"at rest for {seconds:g} s", "at rest"),
                              ("game", f"during {seconds:g} s of a game", "after the game")):
        print(row(f"TV page in chromium, CPU {when} (% of a core)", tv[phase]["cpu"], tv["blank"]["cpu"], "", "{:.2f}"))
        print(row(f"TV page in chromium, PSS {then} (MB)", tv[phase]["pss"], tv["blank"]["pss"], "", "{:.0f}"))


def print_tv_only(size: Sizes) -> None:
    """The TV's rows (``--tv-only``): press-to-lamp without the web and with the TV open, its page in chromium."""
    samples = size.samples
    runs = {"": companion_latency(samples), ", the TV's stream and page open": companion_latency(samples, tv=True)}
    print_press_rows(runs, *raw_chain(samples), "")
    print_tv_rows(size.tv_s)


def print_table(size: Sizes, press_only: bool = False) -> None:
    """Every row, each figure sampled as ``size`` says (``press_only``: the press-to-lamp rows alone, the quick
    check of another machine). The TV rows need Debian's chromium (/usr/bin/chromium); without it they are left
    out, and the table says so."""
    samples, idle_s, tv_s = size.samples, size.idle_s, size.tv_s
    runs = {"": companion_latency(samples), ", web pages streaming": companion_latency(samples, streaming=True)}
    if have_chromium():
        runs[", the TV's stream and page open"] = companion_latency(samples, tv=True)
    with slow_card() as card:
        runs[", slow card"] = companion_latency(samples, card=card)
    runs[HISTORY] = companion_latency(samples, history=True)
    raw_press, raw_busy = raw_chain(samples)
    slow = f"\nThe slow card: {card.words}."
    if press_only:
        print_press_rows(runs, raw_press, raw_busy, "")
        print_history_row(runs)
        print(slow)
        return
    proc, raw_proc = measure_process("ours", idle_s), measure_process("raw", idle_s)
    print_press_rows(runs, raw_press, raw_busy, f", idle {idle_s:g} s")
    print_history_row(runs)
    print(row("ready after start (ms)", proc["ready"], raw_proc["ready"], "< 1000 ms", "{:.0f}"))
    print(row("idle CPU (%)", proc["idle"], raw_proc["idle"], "< 1 %", "{:.2f}"))
    print(row("peak RSS, box and render process (MB)", proc["rss"], raw_proc["rss"], "", "{:.1f}"))
    print(row("PSS after the game, box and render process (MB)", proc["pss"], raw_proc["pss"], "< 60 MB", "{:.1f}"))
    if pages_readable():
        print(row("memory after the game, box and render process, each page once (MB)", proc["pages"],
                  raw_proc["pages"], "", "{:.1f}"))
    phone, phone_memory = phone_latency(min(samples, 1000))
    raw_phone, raw_phone_memory = phone_latency(min(samples, 1000), "raw")
    quiet_phone, _ = phone_latency(min(samples, 1000), guests="none")
    read_phone, read_figures = phone_latency(min(samples, 1000), guests="history")
    mixed = mixed_panel_latency(samples)
    phones = f", {PHONES} phones, {DASHBOARDS} dashboards"
    print_p50_p99("phone press-to-lamp", phones, ms(phone), ms(raw_phone), "< 20 ms")
    print_p50_p99("phone press-to-lamp", f", {PHONES} phones{HISTORY}", ms(read_phone), ms(raw_phone), "")
    print(row(f"phone press-to-lamp p50, {PHONES} phones{HISTORY}, beside it with none (ms)",
              statistics.median(ms(read_phone)), statistics.median(ms(quiet_phone)), "< 2x", "{:.2f}"))
    print(row(f"history answers the guests got{HISTORY} (paced: {read_figures['refused']:.0f} refused)",
              read_figures["reads"], None, "", "{:.0f}"))
    print_p50_p99("panel press-to-lamp", f", 4 panels, 4 phones, {DASHBOARDS} dashboards", ms(mixed), raw_press,
                  "< 1 ms")
    print(row(f"peak RSS{phones} (MB)", phone_memory["rss"], raw_phone_memory["rss"], "", "{:.1f}"))
    print(row(f"PSS{phones} (MB)", phone_memory["pss"], raw_phone_memory["pss"], "< 80 MB", "{:.1f}"))
    if pages_readable():
        print(row(f"memory{phones}, each page once (MB)", phone_memory["pages"], raw_phone_memory["pages"], "",
                  "{:.1f}"))
    if have_chromium():
        print_tv_rows(tv_s)
    with tempfile.TemporaryDirectory(dir=BENCH_DIR) as workdir:
        commits = {mode: ms(times) for mode, times in commit_points(min(samples, 500), workdir).items()}
        resume, raw_resume = resume_time(workdir)
    for mode, words, target in (("kept", "WAL left to SQLite (before)", ""),
                                ("emptied", "WAL emptied at turn ends", "p99 < 5 ms")):
        print_p50_p99("commit point", f", {words}", commits[mode], commits["raw"], target)
    print(row("resume 200 decisions (ms)", 1000 * resume, 1000 * raw_resume, "", "{:.1f}"))
    for link, baud in (("115200 baud", 115_200), ("12 Mbit/s", 12_000_000)):   # raw: the frames' wire time
        latencies, wire = ioboard_latency(min(samples, 300), baud)
        print_p50_p99("ioboard press-to-lamp", f", {link}", ms(latencies), [1000 * wire], "")
    print_bot_rows(size.bot_games)
    print_oled_rows(size)
    streamed = runs[", web pages streaming"].streamed
    print(f"\nWeb pages streaming: the simulator's and the dashboard's event streams, read over HTTP by another "
          f"process, got {streamed['EVENTS']:.0f} events ({streamed['BYTES'] / 1e6:.1f} MB) during the rows' presses."
          f"{slow}{'' if have_chromium() else ' No chromium: the TV rows are left out.'}"
          f"{'' if pages_readable() else ' Not root: the rows of memory with each page once are left out.'}")
