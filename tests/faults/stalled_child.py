"""A box whose card stalls for good in the middle of a turn, for the power cut of tests/faults/test_slow_card.py.

Usage: python -m tests.faults.stalled_child DB. The box runs as the service does (its loop on a
thread, the real clock). Seat 1 pops up and whacks while the card takes writes; then the card
stops answering (every commit point waits on the journal's thread), seat 2 pops up, and seat 3
drafts. The child prints ``ACK seat key`` for each decision its seat's lamps acknowledged, ``ON 3
lamps`` and ``ON 3 screen`` once seat 3's lamps and screen answered meanwhile, then ``STALLED``,
and waits to be killed.
"""
from __future__ import annotations

import sys
import threading

from tests.faults.test_slow_card import LiveBox
from tests.waiting import wait_for


def decide(box: LiveBox, seat: int, hole: str, key: str, within: float = 10) -> None:
    box.tap(seat, hole)
    wait_for(lambda: box.lamps_still(seat), timeout=10)     # the hole's flash is over
    ok = box.tap(seat, "ok")
    if wait_for(lambda: box.lamps_changed_since(seat, ok), timeout=within):
        print("ACK", seat, key, flush=True)


def main(db: str) -> None:
    box = LiveBox(db)
    decide(box, 1, "hole1", "popup")
    decide(box, 1, "hole5", "whack")
    box.card.clear()                                    # the card stops answering
    decide(box, 2, "hole2", "popup", within=1)          # held: the card does not answer
    screen = box.glass("seat3")
    hole = box.tap(3, "hole4")
    if wait_for(lambda: box.lamps_changed_since(3, hole), timeout=10):
        print("ON 3 lamps", flush=True)
    if wait_for(lambda: box.glass("seat3") != screen, timeout=10):
        print("ON 3 screen", flush=True)
    print("STALLED", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main(sys.argv[1])
