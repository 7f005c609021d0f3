"""Guessing at a secret (the host PIN, the join codes): what each guess costs, from one address and from all.

- **Per address**: five wrong guesses lock that address out for 30 s, each further lockout twice as
  long (an hour at most); an address quiet for an hour starts afresh.
- **From anywhere**: every wrong guess from every address counts. Past ``free`` in the last hour,
  each one makes everyone wait before the next guess is even checked: 1 s, then twice as long at each
  further one, up to ``most_s``. Rotating addresses (a /24 has 254) no longer buys guesses.
- **A right answer resets nothing**: a guesser who holds one right answer (its own seat's code) cannot
  wipe its count with it.

The host's device (its cookie) never asks, so nobody's guessing locks the host out
(:class:`~companion.web.auth.Guard`). Each secret keeps its figures for the last hour (wrong guesses,
guesses refused while locked, addresses) for the log, said once a minute at most, and the dashboard.
"""
from __future__ import annotations

import logging
from collections import deque
from typing import Callable

from companion.words import say, says
from .once import Once

log = logging.getLogger("molebox.web")

WRONG_IN_A_ROW = 5
LOCKOUT_S = 30.0
MAX_LOCKOUT_S = 3600.0
HOUR_S = 3600.0
MAX_ADDRESSES = 4096                # guessers remembered at once (the oldest go first)


class PerAddress:
    """Wrong guesses per client address: five lock that address out, for longer each time."""

    def __init__(self, clock):
        self.clock = clock
        self.by_address: dict[str, list[float]] = {}     # address -> [wrong since lockout, locked until, lockouts, last]

    def wait(self, address: str) -> float:
        """Seconds this address must still wait before it may guess again (0: it may)."""
        entry = self.by_address.get(address)
        return max(0.0, entry[1] - self.clock()) if entry else 0.0

    def wrong(self, address: str) -> None:
        now = self.clock()
        entry = self.by_address.pop(address, None)
        if entry is None or now - entry[3] > HOUR_S:
            entry = [0, 0.0, 0, now]
        entry[0] += 1
        entry[3] = now
        if entry[0] >= WRONG_IN_A_ROW:
            entry[0] = 0
            entry[1] = now + min(LOCKOUT_S * 2 ** entry[2], MAX_LOCKOUT_S)
            entry[2] += 1
        self.by_address[address] = entry                  # newest last
        while len(self.by_address) > MAX_ADDRESSES:
            del self.by_address[next(iter(self.by_address))]

    def addresses(self) -> int:
        """Addresses that guessed wrong in the last hour."""
        now = self.clock()
        return sum(1 for entry in self.by_address.values() if now - entry[3] <= HOUR_S)


class Everyone:
    """Wrong guesses from every address in the last hour: past ``free`` of them, each one makes everyone
    wait before the next, 1 s and twice as long each time, ``most_s`` at most."""

    def __init__(self, clock, free: int, most_s: float):
        self.clock, self.free, self.most_s = clock, free, most_s
        self.times: deque[float] = deque()
        self.until = 0.0

    def _recent(self) -> int:
        now = self.clock()
        while self.times and now - self.times[0] > HOUR_S:
            self.times.popleft()
        return len(self.times)

    def wait(self) -> float:
        return max(0.0, self.until - self.clock())

    def wrong(self) -> None:
        self.times.append(self.clock())
        over = self._recent() - self.free
        if over > 0:
            self.until = self.clock() + min(2.0 ** (over - 1), self.most_s)

    def count(self) -> int:
        return self._recent()


class Hourly:
    """How many times something happened in the last hour, kept per minute (a flood costs no memory)."""

    def __init__(self, clock):
        self.clock = clock
        self.minutes: deque[list] = deque()      # [minute, count]

    def add(self) -> None:
        minute = int(self.clock() // 60)
        if self.minutes and self.minutes[-1][0] == minute:
            self.minutes[-1][1] += 1
        else:
            self.minutes.append([minute, 1])

    def count(self) -> int:
        oldest = int(self.clock() // 60) - 59
        while self.minutes and self.minutes[0][0] < oldest:
            self.minutes.popleft()
        return sum(count for _, count in self.minutes)


# Each secret's refusals, said to the device guessing: too many of its own wrong guesses (and the wait), too many
# on the whole network (their count, and the wait).
REFUSALS = {
    "PIN": (lambda wait: say("too many wrong PINs from this device: try again in {wait} s", wait=wait),
            lambda count, wait: says("{n} wrong PIN on this network in the last hour: each guess now waits, for "
                                     "everyone; try again in {wait} s, or scan the host QR code (seat 1 holds OK "
                                     "in the lobby): it lets you in at once",
                                     "{n} wrong PINs on this network in the last hour: each guess now waits, for "
                                     "everyone; try again in {wait} s, or scan the host QR code (seat 1 holds OK "
                                     "in the lobby): it lets you in at once", count, wait=wait)),
    "join code": (lambda wait: say("too many wrong join codes from this device: try again in {wait} s", wait=wait),
                  lambda count, wait: says("{n} wrong join code on this network in the last hour: each typed code "
                                           "now waits, for everyone; try again in {wait} s, or scan the seat's QR "
                                           "code: it joins at once",
                                           "{n} wrong join codes on this network in the last hour: each typed code "
                                           "now waits, for everyone; try again in {wait} s, or scan the seat's QR "
                                           "code: it joins at once", count, wait=wait)),
}


class Secret:
    """One secret guessed at (``what``: "PIN", "join code"): the costs above, its figures, and who hears."""

    def __init__(self, what: str, clock, free: int, most_s: float):
        self.what = what
        self.per_address = PerAddress(clock)
        self.everyone = Everyone(clock, free, most_s)
        self.refused = Hourly(clock)
        self._said = Once(log, every_s=60, clock=clock)
        self._watchers: list[Callable[[], None]] = []

    def watch(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every guess counted (wrong, or refused while locked)."""
        self._watchers.append(callback)

    def _changed(self) -> None:
        for callback in self._watchers:
            callback()

    def refusal(self, address: str) -> str | None:
        """Why ``address`` may not guess now, with how long it must wait (None: it may)."""
        mine, everyone = self.per_address.wait(address), self.everyone.wait()
        if not (mine or everyone):
            return None
        self.refused.add()
        self._changed()
        mine_too_many, all_too_many = REFUSALS[self.what]
        if mine >= everyone:
            return mine_too_many(f"{mine:.0f}")
        return all_too_many(self.everyone.count(), f"{everyone:.0f}")

    def wait(self, address: str) -> float:
        """Seconds before ``address`` may guess again."""
        return max(self.per_address.wait(address), self.everyone.wait())

    def wrong(self, address: str) -> None:
        self.per_address.wrong(address)
        self.everyone.wrong()
        if self.everyone.wait():
            self._said.warn(lambda: f"{self.everyone.count()} wrong {self.what}s in the last hour from "
                                   f"{self.per_address.addresses()} addresses: each guess now waits "
                                   f"{self.everyone.wait():.0f} s, for everyone (the host's device never does)")
        self._changed()

    def figures(self) -> dict:
        """The last hour's: wrong guesses, guesses refused while locked, addresses; the wait everyone has now."""
        return {"wrong": self.everyone.count(), "refused": self.refused.count(),
                "addresses": self.per_address.addresses(), "wait": round(self.everyone.wait())}
