"""Start-up, idle CPU and memory: a process of its own gets ready, plays, idles and reports what it used."""
from __future__ import annotations

import random
import subprocess
import sys
import threading
import time

from . import raw
from .usage import cpu_seconds, memory


def probe(kind: str, idle_s: float) -> None:
    """Child process: get ready, say READY, (``ours``) play a game, idle, report CPU and memory."""
    if kind == "raw":                   # held: what the process keeps while it idles
        held, children = raw.probe_devices(), []
        print("READY", flush=True)
    else:
        held, children = played_box()
    before = cpu_seconds(children)
    time.sleep(idle_s)
    cpu = cpu_seconds(children) - before
    print(f"IDLE {100 * cpu / idle_s:.3f}", flush=True)
    for word, value in memory(children).items():
        print(f"{word.upper()} {value:.1f}", flush=True)


def played_box() -> tuple[object, list[int]]:
    """The box on the sim-8 panels, READY said once its displays are drawn, then a whole game played on it;
    the box and the pid of its render process (the box's too)."""
    # here, not above: the raw probe's process loads no molebox
    from companion.hardware.sim import open_sim
    from companion.table import Start
    from companion.painter import RenderProcess
    from companion.session import Session
    from wiring.profile import load

    hw = open_sim(load("sim-8"), time.monotonic)
    painter = RenderProcess()
    session = Session(hw, time.monotonic, start=Start("whakka-mole", 8), paint=painter)
    stop = threading.Event()
    threading.Thread(target=session.run, args=(stop,), daemon=True).start()
    session.screens.worker.flush()
    print("READY", flush=True)
    rng = random.Random(0)
    while not session.state.match.over:
        seat = rng.randint(1, 8)
        for control in rng.sample(["hole1", "hole2", "hole3", "hole4", "hole5", "ok"], 3):
            hw.drive(seat, control, True)
            time.sleep(0.001)
            hw.drive(seat, control, False)
            time.sleep(0.001)
    session.screens.worker.flush()
    time.sleep(1.5)                  # let the last flashes end
    return session, [painter.process.pid]


def measure_process(kind: str, idle_s: float) -> dict[str, float]:
    """Run :func:`probe` in a fresh process: its figures, and ``ready``, the milliseconds until it said READY."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "companion.bench", "--probe", kind, "--idle", str(idle_s)],
                             stdout=subprocess.PIPE, text=True)
    figures = {}
    for line in child.stdout:
        word, *value = line.split()
        if word == "READY":
            figures["ready"] = 1000 * (time.perf_counter() - start)
        else:
            figures[word.lower()] = float(value[0])
    child.wait()
    return figures
