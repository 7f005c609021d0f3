"""Reads cannot starve presses: the history is worked out once and shared while it is fresh, and a guest asking
faster than its pace waits its turn, then is refused. (``make bench`` prints presses against a history flood.)"""
from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

from companion.script import FakeClock
from companion.web import dashboard, pace
from companion.web.dashboard import FRESH_S, Histories
from companion.web.pace import Pace

def run(coroutine):
    """``coroutine`` run to its end on an event loop of its own thread (a browser test's loop may be this one's)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


GAME = {"id": 1, "game": "whakka-mole", "seats": 2, "names": ["Ada", "Bo"], "scores": [50, 12], "winners": [1],
        "history": [], "started": 0.0, "duration": 600.0}


def test_a_flood_of_history_reads_reads_the_journal_once_while_the_answer_is_fresh():
    clock, reads = FakeClock(), []
    histories = Histories(lambda: reads.append(clock()) or [GAME], clock)

    async def flood(stamp) -> list[bytes]:
        return await asyncio.gather(*(histories.answer(20, stamp) for _ in range(50)))

    answers = run(flood(("play", False)))
    assert len(reads) == 1 and len(set(answers)) == 1
    assert json.loads(answers[0])["games"][0]["names"] == ["Ada", "Bo"]
    clock.advance(FRESH_S / 2)
    run(flood(("play", False)))
    assert len(reads) == 1                                      # still fresh
    run(flood(("play", True)))
    assert len(reads) == 2                                      # a game was finished: read again at once
    clock.advance(FRESH_S)
    run(flood(("play", True)))
    assert len(reads) == 3                                      # and again once it is no longer fresh


def test_a_guest_asking_faster_than_its_pace_waits_its_turn_then_is_refused(monkeypatch):
    clock, waited = FakeClock(), []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)
    monkeypatch.setattr(pace.asyncio, "sleep", sleep)
    reads = Pace(**dashboard.GUEST_READS, clock=clock)

    async def asks(address: str, count: int) -> list:
        return await asyncio.gather(*(reads.turn(address) for _ in range(count)))

    turns = run(asks("192.168.1.50", 20))               # twenty at once from one guest
    burst, most = int(dashboard.GUEST_READS["burst"]), dashboard.GUEST_READS["most_s"]
    assert turns[:burst + int(most)] == [None] * (burst + int(most))           # five at once, ten each in its turn
    assert waited == [float(n) for n in range(1, int(most) + 1)]
    assert all(wait > most for wait in turns[burst + int(most):])               # the rest refused, with the wait
    before = len(waited)
    assert run(asks("192.168.1.51", 1)) == [None] and len(waited) == before     # another device: no wait
    clock.advance(2 * most)                                                     # the debt paid off in time
    assert run(asks("192.168.1.50", 1)) == [None]
