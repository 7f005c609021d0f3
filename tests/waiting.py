"""Waiting on real threads: poll a condition until it holds or the time runs out."""
from __future__ import annotations

import time


def wait_for(condition, timeout: float = 3.0) -> bool:
    """True as soon as ``condition()`` holds; False if it still does not after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True
