"""``make bench``'s OLED figures: what a player waits for on the screens, on a timed I2C wire.

A scripted 8-seat Whakka Mole game is played through the mock pins, in real
time, on the ``sim-8`` profile with every display a real luma driver on a
fake wire (companion/hardware/fake/i2c.py): on one bus, as ``ioboard-8`` wires
them (the eight seats behind the mux, the table on the parent bus), and on two,
as ``ioboard-8-two-buses`` does (seats 1-4 and the table on I2C1, seats 5-8
behind a second mux on I2C0). The game runs once with the box's drivers (only
what changed) and once with luma's own (every frame whole), at each clock, with
the journal on a disk (fsync at every commit point). Measured:

- **press to own OLED**: from the edge that makes the press (a hole's press, OK's
  release) to the end, on the wire, of the first frame of that seat's display
  drawn after the session took the press (presses that change nothing there
  are left out, and the OK that makes a reveal: its seat keeps its screen while
  the picks show);
- **reveal to the table display**: from the OK that ends a turn to the wire's end
  of the table display's first frame after it: the picks (the seats keep their
  screens while the picks show, docs/screens.md);
- **the picks' end to the last display**: from the end of the picks' moment (the
  OK's edge plus :data:`~companion.scene.PICKS_S`: the carrying out of the OK is
  in it) to the wire's end of the last display's frame of what the picks did;
  the players read the picks and the outcome before they press again;
- **bytes on the wire** over the whole game, address bytes and mux switches included;
- **OK press to lamp**: OK commits a decision to the journal before its lamp answers, beside the
  journal's own commit points in the same run;
- **the disk meanwhile**: a raw sqlite3 commit every 50 ms on the same disk while the game plays
  (:class:`~companion.bench.disk.DiskWatch`), so a row can be read against what the disk did;
- **with a slow card** (:func:`~companion.bench.disk.slow_card`): the two-bus rows again, the
  journal on a card whose writes take 100 ms longer.

Presses come 10-60 ms apart round the table (a quick table; every display
changes all the time), each held 30 ms; an OK waits for its seat's last flash
to end, so that what its lamps do next is its own answer.
"""
from __future__ import annotations

import itertools
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field, replace

from companion.hardware.fake.i2c import MUX_ADDRESS, WiredDisplays
from companion.hardware.sim import open_sim
from companion.journal import Journal
from companion.table import Start
from companion.overlays import ACK_S
from companion.scene import PICKS_S
from companion.session import Session
from rules.match import Header, Match
from wiring.profile import load

from . import raw
from .common import BENCH_DIR, FULL, Sizes, Watch, percentile, row, running, steady, warm_painter
from .disk import PROBE_EVERY_S, Card, DiskWatch, slow_card

SEATS = 8
HOLD_S = 0.03


@dataclass
class Press:
    seat: int
    control: str
    reveal: bool = False                # the OK that ends the turn


@dataclass
class Figures:
    own: list[float] = field(default_factory=list)       # press to own OLED, seconds
    outcome: list[float] = field(default_factory=list)   # the picks' end to the last display's outcome
    reveal_table: list[float] = field(default_factory=list)      # reveal to the table display (the picks)
    ok_lamp: list[float] = field(default_factory=list)   # OK (a commit) to the first lamp change
    turn_end_lamp: list[float] = field(default_factory=list)     # the OKs of those that ended a turn
    hole_lamp: list[float] = field(default_factory=list)         # a hole's press to its lamps
    commits: list[float] = field(default_factory=list)  # the journal's commit points
    disk: list[float] = field(default_factory=list)     # raw sqlite3 commits on the same disk meanwhile
    bytes: int = 0
    switch_bytes: int = 0                               # of those, the mux's channel switches


def scripted_game(seed: int, settings: dict | None = None) -> list[Press]:
    """The presses of a whole 8-seat game (played with the variant ``settings``): each seat's pop-up holes, OK,
    its whack hole, OK, seats taking turns; picked at random (seeded) from what the rules allow, so every press
    is taken."""
    rng = random.Random(seed)
    match = Match(Header("whakka-mole", SEATS, dict(settings or {})))
    presses: list[Press] = []
    while not match.over:
        turn = match.view(None)["state"]["turn"]
        for seat in range(1, SEATS + 1):
            if not (decisions := match.decisions_for(seat)):
                continue
            decision = decisions[0]
            if decision.kind.value == "holes":
                picks = sorted(rng.sample(decision.options, rng.randint(0, min(2, decision.max))))
                match.submit(seat, decision.key, picks)
            else:
                picks = [rng.choice(decision.options)]
                match.submit(seat, decision.key, picks[0])
            presses += [Press(seat, f"hole{h}") for h in picks]
            presses.append(Press(seat, "ok", reveal=match.over or match.view(None)["state"]["turn"] != turn))
    return presses


def wired_as(layout: str):
    """The simulator's eight panels with the displays of the built-in profile ``layout``, bus for bus."""
    sim, wiring = load("sim-8"), load(layout)
    return replace(sim, muxes=wiring.muxes, table=wiring.table,
                   seats=tuple(replace(seat, display=wired.display) for seat, wired in zip(sim.seats, wiring.seats)))


def play(presses: list[Press], hz: float, full_frames: bool, seed: int = 1, layout: str = "ioboard-8",
         card: Card | None = None, settings: dict | None = None) -> Figures:
    """Play ``presses`` (a game of the variant ``settings``) on a box whose displays are wired as ``layout``'s,
    each wire at ``hz``, journaling on ``card`` (None: a directory of the bench's disk); what the players waited
    for, and what the disk did."""
    profile = wired_as(layout)
    wired = WiredDisplays(profile, hz, full_frames)
    last_end: dict[str, float] = {}
    switches = [0]

    def seen(name: str | None, transfer) -> None:
        last_end[name] = transfer.end
        switches[0] += transfer.address == MUX_ADDRESS

    wired.watch(seen)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(dir=card.directory if card else BENCH_DIR) as workdir:
        hw = open_sim(profile, time.monotonic, wired.make)
        journal = Journal(f"{workdir}/molebox.db")
        journal.stall = card.stall if card else None
        session = Session(hw, time.monotonic, start=Start("whakka-mole", SEATS, settings=dict(settings or {})),
                          seed=seed, journal=journal, paint=warm_painter())
        drawn, shown = _watch_frames(session, last_end)
        with running(session), DiskWatch(workdir) as disk:
            session.screens.worker.flush()
            watch = Watch([p for s in range(1, SEATS + 1) for p in hw.lamp_pins(s)])
            out, times = Figures(), []
            start_bytes, start_switches = wired.bytes, switches[0]
            for press in presses:
                if press.control == "ok":               # its lamps' answer, not its hole's flash ending
                    watch.wait_still(hw.lamp_pins(press.seat), 1.5 * ACK_S)
                times.append(time.monotonic())
                measured = press.control != "ok" and steady(hw, press.seat)
                down = time.perf_counter()
                hw.drive(press.seat, press.control, True)
                if measured and (lamp := watch.wait_change(hw.lamp_pins(press.seat), down)) is not None:
                    out.hole_lamp.append(lamp)
                time.sleep(HOLD_S)
                if press.control == "ok":               # OK taps on its release
                    times[-1] = time.monotonic()
                since = time.perf_counter()
                hw.drive(press.seat, press.control, False)
                if press.control == "ok":
                    lamp = watch.wait_change(hw.lamp_pins(press.seat), since)
                    if lamp is not None:
                        out.ok_lamp.append(lamp)
                        if press.reveal:
                            out.turn_end_lamp.append(lamp)
                if press.reveal:
                    time.sleep(PICKS_S)                 # the players read the picks,
                    session.screens.worker.flush()
                    time.sleep(0.2)                     # then what they did
                else:
                    time.sleep(rng.uniform(0.01, 0.06))
            session.screens.worker.flush()
            out.commits = list(journal.commit_s)
            out.bytes = wired.bytes - start_bytes
            out.switch_bytes = 2 * (switches[0] - start_switches)
            if not session.state.match.over:
                raise RuntimeError("the scripted game did not end: a press was not taken as scripted")
        out.disk = disk.raw                             # said by the probe's process as its block ended
    for i, (press, t0) in enumerate(zip(presses, times), start=1):
        if not press.reveal and (end := _first_shown(drawn, shown, f"seat{press.seat}", i)) is not None:
            out.own.append(end - t0)            # a reveal's OK: its seat keeps its screen while the picks show
        if press.reveal:
            if (picks := _first_shown(drawn, shown, "table", i)) is not None:
                out.reveal_table.append(picks - t0)
            ends = [_first_shown(drawn, shown, name, i, after=int(name == "table")) for name in profile.displays()]
            out.outcome.append(max(e for e in ends if e is not None) - t0 - PICKS_S)
    return out


class Tagged(tuple):
    """A request's arguments, carrying the bench's tag through the worker to ``paint``: (display, (presses
    taken, frame number))."""

    tag: tuple[str, tuple[int, int]]


def _watch_frames(session, last_end: dict[str, float]):
    """Tag each frame the worker draws with how many presses the session had taken when it was asked for;
    note, per display, the tags drawn (in order) and when each sent one's last byte left the wire. The
    frames are drawn where the service draws them (its render process), so the tag rides on the
    request's arguments, which the worker hands to ``paint`` as it got them."""
    worker, taken = session.screens.worker, itertools.count(1)
    handled = [0]
    drawn: dict[str, list[tuple[int, int]]] = {}       # display -> (presses taken, frame number) drawn
    shown: dict[int, float] = {}                        # frame number -> its wire end
    numbers = itertools.count()
    real_gesture, real_submit, real_paint, real_on_frame = (session.gesture, worker.submit_all, worker.paint,
                                                             worker.on_frame)

    def gesture(g):
        handled[0] = next(taken)
        real_gesture(g)

    def submit_all(requests):
        tagged = []
        for name, render, args, first in requests:
            args = Tagged(args)
            args.tag = name, (handled[0], next(numbers))
            tagged.append((name, render, args, first))
        real_submit(tagged)

    def paint(render, args):
        image = real_paint(render, tuple(args))
        if isinstance(args, Tagged):            # not those the session asked for before the bench watched
            name, mark = args.tag
            drawn.setdefault(name, []).append(mark)
            image.info["bench"] = mark
        return image

    paint.close = real_paint.close          # the worker closes the render process as it stops

    def on_frame(name, image):
        if "bench" in image.info:
            shown[image.info["bench"][1]] = last_end[name]
        real_on_frame(name, image)

    session.gesture, worker.submit_all, worker.paint, worker.on_frame = gesture, submit_all, paint, on_frame
    return drawn, shown


def _first_shown(drawn, shown, name: str, press: int, after: int = 0) -> float | None:
    """When the first frame drawn for ``name`` after press number ``press`` was taken (after ``after`` such frames)
    left the wire; None if that frame changed nothing there (so it was not sent)."""
    mark = next(itertools.islice((m for m in drawn.get(name, ()) if m[0] >= press), after, None), None)
    return None if mark is None else shown.get(mark[1])


LAYOUTS = (("one bus", "ioboard-8", (400_000, 100_000)),          # (words, profile, clocks)
           ("two buses", "ioboard-8-two-buses", (400_000,)))


def print_rows(size: Sizes = FULL, seed: int = 1) -> None:
    """The OLED rows: each figure with the box's drivers beside luma's full frames, same wires, same run, and the
    disk meanwhile beside it; then the two-bus rows again with a slow card. ``size``: the game's length (its
    target score) and the raw chain's presses."""
    settings = {} if size.oled_target is None else {"target": size.oled_target}
    presses = scripted_game(seed, settings)
    raw_lamp = raw.press_to_lamp(min(size.samples, 300))
    to = "" if size.oled_target is None else f" to {size.oled_target} points"
    print(f"\nOLEDs on a timed I2C wire: sim-8's panels with the displays wired as ioboard-8 (one bus: 8 seats "
          f"behind the mux, the table on the parent bus) and as ioboard-8-two-buses (seats 5-8 behind a second "
          f"mux on I2C0), a scripted 8-seat Whakka Mole game{to} ({len(presses)} presses, "
          f"{sum(p.reveal for p in presses)} reveals), journal on disk; the last column is what the disk did "
          f"meanwhile (a raw sqlite3 commit every {PROBE_EVERY_S * 1000:.0f} ms on the same disk, WAL, "
          f"synchronous=FULL)\n")
    print(HEADER)
    for words, layout, clocks in LAYOUTS:
        for hz in clocks:
            ours, full = (play(presses, hz, full_frames=whole, seed=seed, layout=layout, settings=settings)
                          for whole in (False, True))
            print_layout_rows(ours, full, f"{words}, {hz // 1000} kHz", hz, layout, raw_lamp)
    with slow_card() as card:
        print(f"\nThe two-bus game again, the journal on a slow card: {card.words}\n")
        print(HEADER)
        ours, full = (play(presses, 400_000, full_frames=whole, seed=seed, layout=LAYOUTS[1][1], card=card,
                           settings=settings) for whole in (False, True))
        print_layout_rows(ours, full, "two buses, 400 kHz, slow card", 400_000, LAYOUTS[1][1], raw_lamp)


HEADER = ("| figure | molebox | luma full frames | ratio | target | the disk meanwhile: raw commit p50 / p99 (ms) |\n"
          "| --- | ---: | ---: | ---: | --- | ---: |")


def print_layout_rows(ours: Figures, full: Figures, where: str, hz: int, layout: str, raw_lamp: list[float]) -> None:
    """One layout's rows at one clock (the targets are set at 400 kHz); the lamp rows at 400 kHz only (the lamps
    do not wait for the wires)."""
    fast, two = hz == 400_000, layout == LAYOUTS[1][1]
    disk = f" {1000 * statistics.median(ours.disk):.2f} / {1000 * percentile(ours.disk, 0.99):.1f} |"
    for words, pick, target in (
            ("press to own OLED p50", lambda f: statistics.median(f.own), ""),
            ("press to own OLED p99", lambda f: percentile(f.own, 0.99),
             ("< 30 ms" if two else "< 50 ms") if fast else ""),
            ("reveal to the table display p50", lambda f: statistics.median(f.reveal_table), ""),
            ("the picks' end to last display p50", lambda f: statistics.median(f.outcome), ""),
            ("the picks' end to last display max", lambda f: max(f.outcome), "< 100 ms" if fast and two else "")):
        print(row(f"{words}, {where} (ms)", 1000 * pick(ours), 1000 * pick(full), target, "{:.1f}") + disk)
    print(row(f"bytes on the wires per game, {where} (kB)", ours.bytes / 1000, full.bytes / 1000,
              "< 0.33x" if fast else "", "{:.0f}") + disk)
    print(row(f"of those, the muxes' channel switches, {where} (kB)", ours.switch_bytes / 1000,
              full.switch_bytes / 1000, "", "{:.1f}") + disk)
    if not fast:
        return
    commit = 1000 * percentile(ours.commits, 0.99)
    for words, figures, q, target in (
            ("the journal's commit point p50", "commits", 0.5, ""),
            ("the journal's commit point p99", "commits", 0.99, ""),
            ("OK press to lamp p50, a decision committed", "ok_lamp", 0.5, ""),
            ("OK press to lamp p99, a decision committed", "ok_lamp", 0.99, f"< {commit + 5:.1f} ms (commit p99 + 5)"),
            ("OK press to lamp p50, of those the turn ends", "turn_end_lamp", 0.5, "")):
        ms = (percentile([1000 * x for x in getattr(f, figures)], q) for f in (ours, full))
        print(row(f"{words}, {where} (ms)", *ms, target, "{:.2f}") + disk)
    hole = 1000 * percentile(ours.hole_lamp, 0.99)
    print(row(f"a hole's press to its lamps p99, every seat, {where} (ms; raw: gpiozero's chain)", hole,
              1000 * percentile(raw_lamp, 0.99), "< 1 ms, < 10x", "{:.3f}") + disk)
