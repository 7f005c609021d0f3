"""The service draws its frames in a render process (companion.painter): what the table sees is the same,
and the process's faults end on a screen, never in a dead box.

Each test plays a box whose frames are drawn in a real child process, and looks at the displays' pixels,
the lamps, the host's notes and the log.
"""
from __future__ import annotations

import logging
import operator
import os
import pickle
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from multiprocessing.connection import Connection

import pytest

from companion import painter, scene
from companion.displays import STUCK_S
from companion.painter import NICE, RenderProcess
from companion.render import fault as fault_screen
from companion.render.reading import SMALLEST
from tests.waiting import TIMEOUT_S, wait_for

TURN = "1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole2\n2 ok\n2 hole1\n2 ok\n3 hole4\n3 ok\n3 hole3\n3 ok"


@pytest.fixture
def process():
    """A render process that has warmed up (until then the box draws its frames itself), at the tests' own
    priority: beside a CPU-bound process one at nice 19 gets next to no CPU, and these tests are about its
    faults, not its priority (the bench measures that)."""
    painter = RenderProcess(nice=0)
    assert painter.warmed(timeout=60)
    yield painter
    painter.close()


def shows_its_screen(box, name: str) -> bool:
    render_fn, *args = scene.screens(box.session.scene())[name]
    return box.pixels(name) == render_fn(*args).tobytes()


def test_every_display_shows_the_same_pixels_drawn_in_the_process_as_drawn_in_thread(box_factory, process):
    here, there = box_factory(seats=3), box_factory(seats=3, paint=process)
    for step in TURN.splitlines() + ["1 hole2", "2 hole3\n2 ok"]:
        here.play(step)
        there.play(step)
        for name in here.hw.displays():
            assert there.pixels(name) == here.pixels(name), (step, name)
    assert there.lamps(1) == here.lamps(1)


def test_a_frame_that_raises_in_the_process_breaks_its_own_display_and_the_log_says_where(box_factory, process,
                                                                                          caplog):
    def paint(render, args):                # seat 2's screen is drawn by a function that raises there
        if isinstance(args[0], dict) and args[0].get("you") == 2:
            return process(operator.truediv, (1, 0))
        return process(render, args)

    box = box_factory(seats=3, paint=paint)
    with caplog.at_level(logging.ERROR, logger="molebox"):
        box.play(TURN)
        box.play("wait 10")                 # the display thread's report reaches the session loop
    assert box.pixels("seat2") == fault_screen.broken("seat2").tobytes()
    assert all(shows_its_screen(box, name) for name in ("seat1", "seat3", "table"))
    assert box.match.view(None)["state"]["turn"] == 2 and box.session.health() is None
    [record] = [r for r in caplog.records if "display failed" in r.getMessage()]
    assert "drawn in the render process" in record.getMessage() and "ZeroDivisionError" in record.getMessage()
    notes = [a["text"] for a in box.session.public()["notes"]]
    assert any("seat 2 screen could not draw its frame (ZeroDivisionError)" in a for a in notes)


def test_a_killed_render_process_is_started_again_and_no_screen_shows_it(box_factory, process, caplog):
    box = box_factory(seats=3, paint=process)
    box.play("1 hole1\n1 ok")
    first = process.process.pid
    process.process.kill()
    process.process.wait()
    with caplog.at_level(logging.WARNING, logger="molebox"):
        box.play("1 hole5\n1 ok\n2 hole2")
    assert process.process.pid != first and process.process.poll() is None
    assert all(shows_its_screen(box, name) for name in box.hw.displays())
    assert box.session.screens.worker.failing == set()
    assert "the render process stopped" in caplog.text


def host_notes(box) -> list[str]:
    """The notes the dashboard shows the host, once the session loop has taken the display thread's."""
    box.session.screens.worker.flush()
    box.play("wait 1")
    return [a["text"] for a in box.session.public()["notes"]]


def test_a_killed_render_process_is_told_to_the_host_on_the_dashboard_not_on_a_screen(box_factory, process):
    box = box_factory(seats=3, paint=process)
    box.play("1 hole1")
    process.process.kill()
    box.play("1 ok\n2 hole2")
    [note] = host_notes(box)
    assert note.startswith("The render process stopped (exit status -9) and was started again")
    assert box.session.state.unread() == ()              # no screen asks seat 1 to read it


@contextmanager
def health_watched(box):
    """The box's health, as the watchdog asks it, noted every 10 ms while the block runs (a set of answers)."""
    seen, done = set(), threading.Event()

    def watch():
        while not done.wait(0.01):
            seen.add(box.session.health())
    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        yield seen
    finally:
        done.set()
        watcher.join()
        seen.add(box.session.health())


def test_a_stopped_render_process_is_replaced_within_seconds_and_the_host_told(box_factory, process):
    box = box_factory(seats=3, paint=process)
    box.play("1 hole1\n1 ok")
    box.session.screens.worker.flush()
    stopped = process.process
    os.kill(stopped.pid, signal.SIGSTOP)                     # a stalled child: alive, and never answering
    try:
        with health_watched(box) as health:
            box.play("1 hole5\n1 ok\n2 hole2")                # every seat's screen changes
            box.session.screens.worker.flush(timeout=60)        # the frames drawn, however long the stall took
            assert all(shows_its_screen(box, name) for name in box.hw.displays())
    finally:
        if stopped.poll() is None:
            os.kill(stopped.pid, signal.SIGCONT)
    assert stopped.poll() is not None and process.process.poll() is None      # replaced, the stopped one gone
    assert box.session.screens.worker.failing == set()
    [note] = host_notes(box)
    waited = re.match(r"The render process stalled \(no frame back in (\d+\.\d) s\)", note)
    assert waited and "was replaced" in note, note
    # The bounds on time are the property, not a race: the stall is found (painter.STALL_S, 1.5 s) well before the
    # display worker's watchdog bound (STUCK_S, 10 s), so the box never looks hung and systemd never restarts it.
    # Both are the box's own: how long it waited for the frame, and its health, asked all the while as the watchdog
    # asks it; neither is a stopwatch round the test's own work.
    assert float(waited.group(1)) < STUCK_S and health == {None}, (note, health)


def test_no_frame_waits_for_a_render_process_still_warming_up(box_factory):
    painter = RenderProcess(nice=0)
    warming = painter.process
    os.kill(warming.pid, signal.SIGSTOP)                    # warming up as slowly as a Pi Zero under load, or slower
    try:
        box = box_factory(seats=3, paint=painter)
        box.play(TURN)
        assert all(shows_its_screen(box, name) for name in box.hw.displays())
        # drawn by the box itself: a frame asked of the stopped process would have stalled and replaced it
        assert painter.process is warming and host_notes(box) == []
    finally:
        os.kill(painter.process.pid, signal.SIGCONT)
    assert painter.warmed(timeout=60)                           # up at last, it draws from then on
    box.play("1 hole2\n2 hole3")
    assert all(shows_its_screen(box, name) for name in box.hw.displays())
    painter.close()


def test_a_render_process_that_will_not_stay_up_leaves_the_box_drawing_on_its_own(box_factory, monkeypatch,
                                                                                  caplog):
    monkeypatch.setattr(sys, "executable", "/bin/false")       # a child that exits at once, every time
    painter = RenderProcess()
    box = box_factory(seats=3, paint=painter)
    with caplog.at_level(logging.WARNING, logger="molebox"):
        box.play("1 hole1\n1 ok\n2 hole2")
        # each process is found gone when the box next looks (a frame, or here a wait): the second gives up
        assert wait_for(lambda: not painter.warmed(timeout=0.5) and painter.process is None, timeout=30)
    assert all(shows_its_screen(box, name) for name in box.hw.displays())
    assert box.session.screens.worker.failing == set()
    assert "frames are drawn in the box's own process from now on" in caplog.text
    assert any("keeps failing: frames are drawn in the box's own process" in note for note in host_notes(box))


def test_a_stop_signal_leaves_the_process_drawing_for_the_box_s_parting_screen(box_factory, process):
    box = box_factory(seats=2, paint=process)
    box.session.screens.worker.flush()                        # the process is up and drawing
    pid = process.process.pid
    process.process.send_signal(signal.SIGTERM)         # systemd signals every process of the service
    box.session.screens.part()
    assert process.process.pid == pid and process.process.poll() is None
    for name in box.hw.displays():
        assert box.pixels(name) == fault_screen.parting().tobytes()


def test_the_process_runs_below_the_box_s_priority():
    painter = RenderProcess()
    try:                                # a press's lamps go before a frame when both want the CPU
        below = os.getpriority(os.PRIO_PROCESS, 0) + NICE
        assert wait_for(lambda: os.getpriority(os.PRIO_PROCESS, painter.process.pid) == min(below, 19), timeout=30)
    finally:
        painter.close()


def test_closing_the_box_ends_the_process(box_factory, process):
    box = box_factory(seats=2, paint=process)
    box.play("1 hole1")
    box.session.close()
    assert process.process.poll() == 0                      # it left on its own: nothing had to kill it


def busy(seconds: float):
    """A frame that takes ``seconds`` of CPU to draw, as every frame does for a process starved of CPU."""
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass
    return fault_screen.parting()


def asleep_elsewhere(home: int, seconds: float):
    """A frame that waits ``seconds`` without the CPU in a render process, as a swapped-out process does (killed once
    given up: it never answers), and is drawn at once in the process ``home``, where the box draws it instead."""
    if os.getpid() != home:
        time.sleep(seconds)
    return fault_screen.parting()


def test_a_render_process_that_runs_but_is_slow_is_waited_for_not_replaced(process, monkeypatch):
    monkeypatch.setattr(painter, "SLOW_S", 0.5)
    process(busy, (0,))                                 # this module imported there
    first = process.process
    notes = []
    process.watch(notes.append)
    frame = process(busy, (1.5,))                       # 1.5 s of CPU: longer than SLOW_S, whatever the machine
    assert frame.tobytes() == fault_screen.parting().tobytes()
    assert process.process is first and first.poll() is None and notes == []


def test_a_render_process_that_has_no_cpu_for_seconds_is_replaced(process, monkeypatch):
    monkeypatch.setattr(painter, "SLOW_S", 0.5)
    process(busy, (0,))
    first = process.process
    notes = []
    process.watch(notes.append)
    frame = process(asleep_elsewhere, (os.getpid(), 30))   # no answer until it is given up, and drawn here
    assert frame.tobytes() == fault_screen.parting().tobytes()
    assert first.poll() is not None and process.process is not first
    [note] = notes
    assert re.match(r"The render process stalled \(no frame back in \d+\.\d s\)", note)


def test_a_frame_a_busy_box_starves_is_waited_for_and_the_box_stays_healthy(box_factory, process):
    process(busy, (0,))
    slow = []

    def paint(render, args):                # the next frame asked takes 3 s of CPU, as one starved of it does
        return process(busy, (slow.pop(),)) if slow else process(render, args)

    paint.working = process.working         # as the process itself tells the display worker
    box = box_factory(seats=2, paint=paint)
    box.session.screens.worker.flush()
    box.session.screens.worker.stuck_s = 0.5          # the watchdog's bound, well inside the frame's 3 s
    first, seen, done = process.process, [], threading.Event()

    def watch():                            # the watchdog's view, all the while the frame is on its way
        while not done.wait(0.01):
            seen.append((process.working(), box.session.health()))

    watcher = threading.Thread(target=watch)
    watcher.start()
    slow.append(3.0)
    try:
        box.play("1 hole1")                 # the screens drawn: the slow frame has come back
        box.session.screens.worker.flush(timeout=60)
    finally:
        done.set()
        watcher.join()
    assert sum(working for working, _ in seen) > 1 and {health for _, health in seen} == {None}
    assert process.process is first and host_notes(box) == []


def test_a_render_process_whose_box_is_killed_mid_frame_leaves_quietly():
    """The box killed (SIGKILL, a pulled plug) while its render process draws: the frame has nowhere to go, and the
    process leaves without a traceback in the service's log."""
    ours, theirs = socket.socketpair()
    child = subprocess.Popen([sys.executable, "-m", "companion.painter", str(theirs.fileno()), "0"],
                             pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    theirs.close()
    box = Connection(ours.detach())
    assert box.poll(60) and box.recv_bytes() == painter.READY
    box.send_bytes(pickle.dumps((fault_screen.parting, (SMALLEST,))))
    box.close()                                  # gone before the frame is back: the job stays readable for it
    _, err = child.communicate(timeout=TIMEOUT_S)
    assert child.returncode == 0 and "Traceback" not in err, err
