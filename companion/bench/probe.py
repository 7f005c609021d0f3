"""Start-up, idle CPU and memory: a process of its own gets ready, plays, idles and reports what it used."""
from __future__ import annotations

import queue
import random
import subprocess
import sys
import threading
import time

from . import raw
from .usage import cpu_seconds, memory

QUIET_S = 60.0      # a box still busy this long after its game's last press is never idle: the probe says so


def probe(kind: str, idle_s: float) -> None:
    """Child process: get ready, say READY, (``ours``) play a game and wait until the box has nothing left to do,
    idle, report CPU and memory."""
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
    """The box on the sim-8 panels, READY said once its displays are drawn, then a whole game played on it, until
    the box is quiet (:func:`quiet`); the box and the pid of its render process (the box's too)."""
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
    quiet(session)
    session.screens.worker.flush()
    return session, [painter.process.pid]


def quiet(session) -> None:
    """Wait until the box's loop has nothing left to do: no press or call queued, no timer pending (a flash, a
    notice's end and the redraw after it), asked on the loop's own thread. Then what the probe measures is a
    box at rest: the notices of a game's last presses keep its loop redrawing for seconds after them."""
    deadline = time.monotonic() + QUIET_S
    while True:
        answer: queue.SimpleQueue = queue.SimpleQueue()
        session.call(lambda: answer.put((session.queue.empty(), session.next_due())))
        empty, due = answer.get(timeout=QUIET_S)
        if empty and due is None:
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the box was still busy {QUIET_S:.0f} s after its game's last press")
        time.sleep(max(0.001, (due or 0) - time.monotonic()))    # until its next timer is due, then ask again


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
