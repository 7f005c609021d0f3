"""``make bench``: speed and memory figures, each next to the raw library measured in the same run.

Figures: press-to-lamp latency through the whole companion (mock pin edge ->
session loop -> lamp pin change, with every display rendering on change)
beside gpiozero's own ``Button.when_pressed -> LED.on`` chain; time from
process start to ready; CPU used while idle; peak RSS. Run with ``--help``
for the knobs; the figures in docs/benchmarks.md come from ``make bench``.
"""
from __future__ import annotations

import argparse
import platform
import random
import resource
import statistics
import subprocess
import sys
import threading
import time

from gpiozero import LED, Button
from gpiozero.pins.mock import MockFactory, MockPWMPin

# molebox itself is imported inside the functions that use it, so that the raw-library probe
# process loads gpiozero and luma only, and its start-up and RSS are the library's alone.


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Watch:
    """Wakes the bench when any watched pin changes; the change time is read from the pin itself."""

    def __init__(self, pins):
        self.event = threading.Event()
        for pin in pins:
            pin.on_change = lambda _pin: self.event.set()

    def wait_change(self, pins, since: float, timeout: float = 1.0) -> float | None:
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            changed = [p.changed_at for p in pins if p.changed_at >= since]
            if changed:
                return min(changed) - since
            self.event.wait(0.01)
            self.event.clear()
        return None


def companion_latency(samples: int, seed: int = 1) -> list[float]:
    """Hole presses on an 8-seat Whakka Mole game, all nine displays rendering on change.

    Presses come every 4-12 ms, round the table, so no one button is pressed
    again inside its 20 ms debounce window (a finger cannot, and the debouncer
    would rightly hold such a press back).
    """
    from companion.hardware.lamps import Lamp
    from companion.hardware.sim import open_sim
    from companion.session import Session
    from wiring.profile import load

    steady_lamps = {Lamp.OFF, Lamp.ON, Lamp.DIM}
    rng = random.Random(seed)
    hw = open_sim(load("sim-8"), time.monotonic)
    session = Session(hw, time.monotonic, game="whakka-mole", seats=8, seed=seed)
    stop = threading.Event()
    loop = threading.Thread(target=session.run, args=(stop,), daemon=True)
    loop.start()
    watch = Watch([p for s in range(1, 9) for p in hw.lamp_pins(s)])
    out: list[float] = []

    def tap(seat: int, control: str, measure: bool) -> None:
        steady = all(lamp in steady_lamps for lamp in hw.seats[seat - 1].lamps)
        since = time.perf_counter()
        hw.drive(seat, control, True)
        if measure and steady:
            latency = watch.wait_change(hw.lamp_pins(seat), since)
            if latency is not None:
                out.append(latency)
        time.sleep(0.002)
        hw.drive(seat, control, False)
        time.sleep(rng.uniform(0.002, 0.01))

    try:
        while len(out) < samples:
            if session.match.over:
                session.call(session.new_game)
                time.sleep(0.05)
            turn = {seat: [f"hole{h}" for h in rng.sample(range(1, 6), rng.randint(0, 2))]
                    + ["ok", f"hole{rng.randint(1, 5)}", "ok"] for seat in range(1, 9)}
            for step in range(max(map(len, turn.values()))):   # seats take turns, as fingers would
                for seat, controls in turn.items():
                    if step < len(controls):
                        tap(seat, controls[step], controls[step] != "ok")
    finally:
        stop.set()
        loop.join(2)
        session.close()
    return out[:samples]


def raw_latency(samples: int) -> list[float]:
    """gpiozero alone: Button.when_pressed -> LED.on on mock pins."""
    from companion.hardware.sim import SimPin

    factory = MockFactory(pin_class=SimPin)
    button = Button(4, bounce_time=None, pin_factory=factory)
    led = LED(6, pin_factory=factory)
    button.when_pressed = led.on
    button.when_released = led.off
    watch = Watch([led.pin])
    out = []
    for _ in range(samples):
        since = time.perf_counter()
        button.pin.drive_low()
        out.append(watch.wait_change([led.pin], since))
        button.pin.drive_high()
        time.sleep(0.001)
    button.close()
    led.close()
    factory.reset()
    return out


# ---- a separate process for start-up, idle CPU and RSS ---------------------------------------

def probe(kind: str, idle_s: float) -> None:
    """Child process: get ready, say READY, play, idle, report CPU and peak RSS."""
    if kind == "raw":
        from luma.core.device import dummy
        factory = MockFactory(pin_class=MockPWMPin)
        devices = [Button(4, pin_factory=factory), LED(6, pin_factory=factory), dummy(mode="1")]
        print("READY", flush=True)
    else:
        from companion.hardware.sim import open_sim
        from companion.session import Session
        from wiring.profile import load

        hw = open_sim(load("sim-8"), time.monotonic)
        session = Session(hw, time.monotonic, game="whakka-mole", seats=8)
        stop = threading.Event()
        threading.Thread(target=session.run, args=(stop,), daemon=True).start()
        session.displays.flush()
        print("READY", flush=True)
        rng = random.Random(0)
        while not session.match.over:
            seat = rng.randint(1, 8)
            for control in rng.sample(["hole1", "hole2", "hole3", "hole4", "hole5", "ok"], 3):
                hw.drive(seat, control, True)
                time.sleep(0.001)
                hw.drive(seat, control, False)
                time.sleep(0.001)
        session.displays.flush()
        time.sleep(1.5)                  # let the last flashes end
    before = resource.getrusage(resource.RUSAGE_SELF)
    time.sleep(idle_s)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"IDLE {100 * cpu / idle_s:.3f}", flush=True)
    print(f"RSS {after.ru_maxrss / 1024:.1f}", flush=True)


def measure_process(kind: str, idle_s: float) -> dict[str, float]:
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


def row(name: str, ours: float, raw: float | None, target: str, fmt: str = "{:.3f}") -> str:
    ratio = f"{ours / raw:.1f}x" if raw else "-"
    raw_text = fmt.format(raw) if raw is not None else "-"
    return f"| {name} | {fmt.format(ours)} | {raw_text} | {ratio} | {target} |"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.bench", description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=2000, help="presses to time")
    p.add_argument("--idle", type=float, default=10.0, help="seconds of idle to measure CPU over")
    p.add_argument("--probe", choices=["ours", "raw"], help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.probe:
        probe(args.probe, args.idle)
        return 0
    ours = [1000 * x for x in companion_latency(args.samples)]
    raw = [1000 * x for x in raw_latency(args.samples)]
    proc, raw_proc = measure_process("ours", args.idle), measure_process("raw", args.idle)
    print(f"molebox bench: {platform.machine()}, Python {platform.python_version()}, "
          f"{len(ours)} presses, idle {args.idle:g} s\n")
    print("| figure | molebox | raw library | ratio | target |")
    print("| --- | ---: | ---: | ---: | --- |")
    print(row("press-to-lamp p50 (ms)", statistics.median(ours), statistics.median(raw), ""))
    print(row("press-to-lamp p99 (ms)", percentile(ours, 0.99), percentile(raw, 0.99), "< 1 ms"))
    print(row("ready after start (ms)", proc["ready"], raw_proc["ready"], "< 1000 ms", "{:.0f}"))
    print(row("idle CPU (%)", proc["idle"], raw_proc["idle"], "< 1 %", "{:.2f}"))
    print(row("peak RSS (MB)", proc["rss"], raw_proc["rss"], "< 60 MB", "{:.1f}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
