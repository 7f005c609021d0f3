"""What the bench's figures share: where they write, percentiles, table rows, a running session, a watch on pins."""
from __future__ import annotations

import statistics
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

BENCH_DIR = "/var/tmp"      # a disk, as the journal's card is: /tmp may be a RAM disk whose fsync costs nothing
LOOP_STOP_S = 60.0          # the loop's last job may be a game begun on a slow card (over a second a commit on the VM)


@dataclass(frozen=True)
class Sizes:
    """How much each figure samples. The full run's, or ``--quick``'s: the same code, every row, a few samples
    each (what ``make test`` runs, so that a bench that crashes fails there, not in the next ``make bench``)."""

    samples: int = 2000             # presses timed per press-to-lamp row (fewer in the rows that say so)
    idle_s: float = 10.0            # seconds of idle the CPU is measured over
    bot_games: int = 10             # games per game the computer players' think time is measured over
    tv_s: float = 60.0              # seconds the TV page is measured over, at rest and during a game
    oled_target: int | None = None  # the OLEDs' scripted game ends at this score (None: the game's own, 50)


FULL = Sizes()
QUICK = Sizes(samples=20, idle_s=1.0, bot_games=1, tv_s=1.0, oled_target=1)     # oled: the first turn that scores


def steady(hw, seat: int) -> bool:
    """No flash or blink on the seat's lamps: a press's answer will show as a change of them. (Here, not in
    :mod:`.press`, so that a process of phone seats loads none of the IO board's modules that one imports.)"""
    from companion.lamps import Lamp

    return all(lamp in (Lamp.OFF, Lamp.ON, Lamp.DIM) for lamp in hw.seats[seat - 1].lamps)


def warm_painter():
    """A render process that has warmed up (loaded the screens, measured the letters), as in a box that has run
    a while: the rows time the frames it draws, not the box drawing its own while it starts."""
    from companion.painter import RenderProcess

    painter = RenderProcess()
    if not painter.warmed(timeout=120):
        raise RuntimeError("the render process did not warm up in 120 s")
    return painter


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(name: str, ours: float, raw: float | None, target: str, fmt: str = "{:.3f}") -> str:
    """One row of the table: a molebox figure beside the raw library's, their ratio and the target."""
    ratio = "-" if not raw else f"{ours / raw:.2f}x" if ours < raw else f"{ours / raw:.1f}x"
    raw_text = fmt.format(raw) if raw is not None else "-"
    return f"| {name} | {fmt.format(ours)} | {raw_text} | {ratio} | {target} |"


def print_p50_p99(what: str, where: str, ours: list[float], raw: list[float] | None, target: str) -> None:
    """Two rows of milliseconds, "``what`` p50``where``" and p99, each beside the raw reference's (None: there is
    none); ``target`` is the p99's."""
    for q, pick, goal in (50, statistics.median, ""), (99, lambda ms: percentile(ms, 0.99), target):
        print(row(f"{what} p{q}{where} (ms)", pick(ours), None if raw is None else pick(raw), goal))


@contextmanager
def running(session):
    """The session's loop on a thread of its own while the block runs; the session closed once the loop has
    stopped (on a slow card its last job may wait over a second for the journal)."""
    stop = threading.Event()
    loop = threading.Thread(target=session.run, args=(stop,), daemon=True)
    loop.start()
    try:
        yield
    finally:
        stop.set()
        loop.join(LOOP_STOP_S)
        if loop.is_alive():
            raise RuntimeError(f"the session's loop had not stopped {LOOP_STOP_S:.0f} s after it was told to")
        session.close()


class Watch:
    """Wakes the bench when any watched pin changes; the change time is read from the pin itself."""

    def __init__(self, pins):
        self.event = threading.Event()
        for pin in pins:
            pin.on_change = lambda _pin: self.event.set()

    def wait_still(self, pins, quiet_s: float, timeout: float = 2.0) -> None:
        """Wait until none of ``pins`` has changed for ``quiet_s`` (a flash has ended)."""
        deadline = time.perf_counter() + timeout
        while (last := max(p.changed_at for p in pins)) > time.perf_counter() - quiet_s:
            if time.perf_counter() > deadline:
                return
            time.sleep(max(0.001, last + quiet_s - time.perf_counter()))

    def wait_change(self, pins, since: float, timeout: float = 1.0) -> float | None:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            changed = [p.changed_at for p in pins if p.changed_at >= since]
            if changed:
                return min(changed) - since
            self.event.wait(0.01)
            self.event.clear()
        return None
