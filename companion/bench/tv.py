"""The TV view in headless chromium, as the Pi's kiosk shows it: chromium's CPU and memory over a minute at rest
and over a minute of a game played at a table's pace, beside chromium on a blank page over as long."""
from __future__ import annotations

import random
import time

from companion import service
from companion.web.app import SITE, start

from .kiosk import KIOSK_S, kiosk, usage
from .phones import phone_box
from .serving import served

SETTLE_S = 3.0          # a page just opened is still laying out: what it costs at start is not its rest


def play(session, until: float, seed: int = 3) -> None:
    """An 8-seat Whakka Mole game on the panels at a table's pace (a press every 0.1-0.3 s, seats in turn, a
    reveal every few seconds), a new game after each, until the monotonic clock reaches ``until`` (asked before
    each press: a round of the table takes seconds, and the window is as long as it was asked to be)."""
    rng, hw = random.Random(seed), session.hw
    while time.monotonic() < until:
        if session.state.match.over:
            session.call(lambda: session.host("new-game"))
        for seat in range(1, 9):
            popped = [f"hole{h}" for h in rng.sample(range(1, 6), rng.randint(0, 2))]
            for control in [*popped, "ok", f"hole{rng.randint(1, 5)}", "ok"]:
                if time.monotonic() >= until:
                    return
                hw.drive(seat, control, True)
                time.sleep(0.05)
                hw.drive(seat, control, False)
                time.sleep(rng.uniform(0.05, 0.25))


def tv_page(seconds: float) -> dict[str, dict[str, float]]:
    """Chromium showing the TV view of an 8-seat box, at ``rest`` and during a ``game`` (each ``seconds``
    long), and on a ``blank`` page: each its CPU (% of one core) and its processes' PSS at the end (MB)."""
    app, session, _, stop = phone_box(panels=8, phones=0)
    site = app[SITE]
    figures = {}
    try:
        with served(start(app, service.listen("127.0.0.1", 0))) as port, kiosk(f"http://127.0.0.1:{port}/tv") as pid:
            deadline = time.monotonic() + KIOSK_S
            while not any("tv" in kinds for kinds, _ in site.hub.streams.values()):
                if time.monotonic() > deadline:
                    raise RuntimeError("the kiosk never opened the TV view's stream")
                time.sleep(0.05)
            time.sleep(SETTLE_S)
            figures["rest"] = usage(pid, seconds)
            figures["game"] = usage(pid, seconds, lambda until: play(session, until))
    finally:
        stop()
    with kiosk("about:blank") as pid:
        time.sleep(SETTLE_S)
        figures["blank"] = usage(pid, seconds)
    return figures
