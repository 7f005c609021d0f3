"""A guest's pace for what costs the box to answer: each address may ask ``rate`` times a second after a burst;
one asking faster waits its turn, which costs the box nothing while it waits, and past ``most_s`` of waiting is
refused. Known devices (the host's, the joined phones', the Pi itself) are never paced."""
from __future__ import annotations

import asyncio
import time

MAX_ADDRESSES = 4096        # addresses remembered at once (the longest unseen go first)


class Pace:
    def __init__(self, rate: float, burst: float, most_s: float, clock=time.monotonic):
        self.rate, self.burst, self.most_s, self.clock = rate, burst, most_s, clock
        self._owed: dict[str, tuple[float, float]] = {}     # address -> (asks left, when counted): below 0, a wait

    async def turn(self, address: str) -> float | None:
        """Wait for ``address``'s turn to ask (None: it came, after whatever wait), or the wait it would take when
        that is more than ``most_s`` (the ask is then not counted)."""
        now = self.clock()
        left, at = self._owed.pop(address, (self.burst, now))
        left = min(self.burst, left + (now - at) * self.rate) - 1
        wait = -left / self.rate if left < 0 else 0.0
        self._owed[address] = (left + (wait > self.most_s), now)      # newest last
        while len(self._owed) > MAX_ADDRESSES:
            del self._owed[next(iter(self._owed))]
        if wait > self.most_s:
            return wait
        if wait:
            await asyncio.sleep(wait)
        return None
