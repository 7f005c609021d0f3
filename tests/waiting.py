"""Waiting on real threads: poll a condition until it holds or the time runs out.

A test waits for the condition it needs, never for a time it hopes is long enough: the
timeouts here are generous (a busy CI machine), the conditions exact.
"""
from __future__ import annotations

import queue
import time

TIMEOUT_S = 10.0        # for what a box does on its own threads: a loaded machine may stall it for seconds
FRAME_S = 30.0          # a frame from `molebox run`: its render process runs at nice 19, which a CPU-bound
                        # neighbour starves for seconds (after 5 s it is replaced, and then the box draws itself)


def wait_for(condition, timeout: float = TIMEOUT_S) -> bool:
    """True as soon as ``condition()`` holds; False if it still does not after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def on_loop(session, question, timeout: float = TIMEOUT_S):
    """``question()`` answered on the session's loop thread, once everything queued before it is taken."""
    answers: queue.SimpleQueue = queue.SimpleQueue()
    session.call(lambda: answers.put(question()))
    return answers.get(timeout=timeout)


def idle(session) -> bool:
    """Whether a running session's loop has nothing left to do: no press or call queued, no bounce or hold
    due, no timer (a lamp flash, a die's roll) pending. Asked on its thread; the second question comes in a
    later pass than the first, so the pass that took the last press has also shown what it changed."""
    nothing_left = on_loop(session, lambda: session.queue.empty() and session.next_due() is None)
    return nothing_left and on_loop(session, lambda: True)


def quiet(session, timeout: float = TIMEOUT_S) -> None:
    """Wait until a running session is idle and every display shows what it last drew."""
    assert wait_for(lambda: idle(session), timeout), "the box never went quiet"
    session.screens.worker.flush()
