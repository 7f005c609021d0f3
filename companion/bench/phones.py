"""Phone seats: a phone's press over HTTP to the lamps on its seat's stream, the box in a process of its own
with dashboards streaming; and panel presses at a table of panels and phones."""
from __future__ import annotations

import itertools
import random
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager

from companion import cli, service
from companion.port import WebPort
from companion.web.auth import Guard
from companion.web.host_pin import new_pin
from companion.web.app import SITE, make_app, start

from .common import BENCH_DIR, Watch, steady, warm_painter
from .phone_client import PHONES, press_phones
from .serving import serve_until_stdin_closes, served
from .storage import finished_games
from .streams import DASHBOARDS, dashboards, history_read
from .usage import memory


def phone_box(panels: int = 0, phones: int = PHONES, db: str | None = None):
    """A box of ``panels`` sim panels and ``phones`` phone seats in an 8-seat Whakka Mole game (no journal, as
    the panel press-to-lamp's, unless ``db``: then on a LAN, where guests are other devices), its session loop
    running: its web app, the session, the phones' join codes, what stops it."""
    args = cli.parser().parse_args(["run", "--panels", str(panels), "--phones", str(phones),
                                    "--game", "whakka-mole", "--seats", "8", *(["--db", db] if db else [])])
    args.wiring = cli.DEFAULT_WIRING["sim"]
    painter = warm_painter()
    hw, session = service.build(args, service.Plan(args, "sim"), None, paint=painter)
    halt = threading.Event()
    thread = threading.Thread(target=session.run, args=(halt,), daemon=True)
    thread.start()
    app = make_app(WebPort(session), Guard(lan=True, pin=new_pin()) if db else Guard(lan=False))

    def stop() -> dict[str, float]:
        """Stop the box; what its process and its render process held (:func:`~.usage.memory`), read before the
        render process goes."""
        halt.set()
        session.call(lambda: None)
        thread.join(2)
        held = memory([painter.process.pid])
        session.close()
        return held
    return app, session, [code for _, code in app[SITE].phones.free()], stop


def serve_phones(history: bool = False) -> None:
    """Child process: a box of eight phone seats in an 8-seat Whakka Mole game, served on loopback; ``history``:
    journaling, on a journal that holds :data:`~.storage.HISTORY_GAMES` finished games already."""
    with tempfile.TemporaryDirectory(dir=BENCH_DIR) as workdir:
        db = f"{workdir}/molebox.db" if history else None
        if db:
            finished_games(db)
        app, _, codes, stop = phone_box(db=db)
        serve_until_stdin_closes(start(app, service.listen("127.0.0.1", 0)), codes, stop)


def phone_latency(samples: int, kind: str = "molebox", guests: str = "dashboards"
                  ) -> tuple[list[float], dict[str, float]]:
    """Phone press to lamps on the seat's stream, from this process, with eight phone seats; the box (or, ``raw``,
    bare aiohttp) in a process of its own, and (molebox) ``guests`` in another: twenty ``dashboards`` streaming,
    ``none``, or guests reading the ``history`` of a journal's finished games in a loop (:func:`~.streams.history_read`).
    Returns the latencies and the box's memory at the end, render process included (:func:`~.usage.memory`), with
    the history's readers' ``reads`` and ``refused`` (paced)."""
    box = subprocess.Popen([sys.executable, "-m", "companion.bench", "--serve-phones",
                            "history" if guests == "history" else kind],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    port = int(box.stdout.readline().split()[1])
    codes = box.stdout.readline().split()[1:]
    reading = history_read(port) if guests == "history" else \
        dashboards(port, DASHBOARDS if kind == "molebox" and guests == "dashboards" else 0)
    with reading as read:
        time.sleep(0.5)
        out = press_phones(port, codes, samples)
    box.stdin.close()
    held = {word.lower(): float(value) for word, value in (line.split() for line in box.stdout.read().splitlines())}
    box.wait()
    return out, {**held, **{word.lower(): value for word, value in (read or {}).items()}}


@contextmanager
def phones_pressing(port: int, codes: list[str]):
    """The phones of ``codes`` pressing at a table's pace from another process while the block runs."""
    phones = subprocess.Popen([sys.executable, "-m", "companion.bench", "--press-phones", str(port), *codes],
                              stdin=subprocess.PIPE)
    try:
        yield
    finally:
        phones.stdin.close()
        phones.wait(10)


def mixed_panel_latency(samples: int, seed: int = 4) -> list[float]:
    """Panel press-to-lamp at a table of four panels and four phones: the phones pressing from another
    process, twenty dashboards streaming from a third; the panels timed as a panel's press-to-lamp is."""
    rng, seats = random.Random(seed), itertools.cycle(range(1, 5))
    app, session, codes, stop = phone_box(panels=4, phones=4)
    hw = session.hw
    watch = Watch([p for s in range(1, 5) for p in hw.lamp_pins(s)])
    out: list[float] = []
    try:
        with served(start(app, service.listen("127.0.0.1", 0))) as port, phones_pressing(port, codes), dashboards(port):
            time.sleep(0.5)
            while len(out) < samples:                       # round the panels: no button again inside 20 ms
                seat, hole = next(seats), f"hole{rng.randint(1, 5)}"
                was_steady = steady(hw, seat)
                since = time.perf_counter()
                hw.drive(seat, hole, True)
                latency = watch.wait_change(hw.lamp_pins(seat), since)
                if was_steady and latency is not None:
                    out.append(latency)
                time.sleep(0.002)
                hw.drive(seat, hole, False)
                time.sleep(rng.uniform(0.01, 0.03))
    finally:
        stop()
    return out
