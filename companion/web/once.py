"""A warning said once, not at every time it happens: a flood must not flood the log too."""
from __future__ import annotations

import logging
import time
from typing import Callable


class Once:
    """Log a warning at most once every ``every_s``; the next one says how often it happened meanwhile."""

    def __init__(self, log: logging.Logger, every_s: float = 60.0, clock=time.monotonic):
        self.log, self.every_s, self.clock = log, every_s, clock
        self.next_at = float("-inf")
        self.unsaid = 0

    def warn(self, text: Callable[[], str]) -> None:
        """``text()`` is only made when it is said."""
        now = self.clock()
        if now < self.next_at:
            self.unsaid += 1
            return
        more = f" (and {self.unsaid} more times in the last {self.every_s:.0f} s)" if self.unsaid else ""
        self.log.warning("%s%s", text(), more)
        self.next_at, self.unsaid = now + self.every_s, 0
