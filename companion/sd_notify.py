"""Talking to systemd: the sd_notify datagrams, and the watchdog the session loop feeds.

Under ``Type=notify`` systemd hands the service ``$NOTIFY_SOCKET`` (a path, or
``@name`` in the abstract namespace) and, with ``WatchdogSec=``, the watchdog
period in ``$WATCHDOG_USEC``. Each message is one datagram of ``KEY=value``
lines (sd_notify(3)); without the variable every call does nothing, so the
same code runs from a terminal. The watchdog is fed from the session loop after
a health check, never from a timer thread: a hung loop must stop the pings.
"""
from __future__ import annotations

import logging
import os
import socket
import time
from typing import Callable, Mapping

log = logging.getLogger("molebox.notify")


class Notifier:
    def __init__(self, env: Mapping[str, str] = os.environ):
        address = env.get("NOTIFY_SOCKET", "")
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        for_us = env.get("WATCHDOG_PID", str(os.getpid())) == str(os.getpid())
        self.watchdog_s = int(usec) / 1e6 if usec.isdigit() and for_us else None
        self._socket: socket.socket | None = None

    def send(self, *fields: str) -> bool:
        """Send ``KEY=value`` fields as one datagram; False when there is no service manager to hear it."""
        if not self.address:
            return False
        if self._socket is None:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        try:
            self._socket.sendto("\n".join(fields).encode(), self.address)
        except OSError as exc:                      # systemd restarting: the next message will do
            log.warning("sd_notify: %s", exc)
            return False
        return True

    def ready(self, status: str) -> bool:
        return self.send("READY=1", f"STATUS={status}")

    def status(self, status: str) -> bool:
        return self.send(f"STATUS={status}")

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self, status: str = "stopping") -> bool:
        return self.send("STOPPING=1", f"STATUS={status}")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None


class Watchdog:
    """Fed once per pass of the session loop: pings while healthy, at half the watchdog period at most.

    ``health()`` returns None when all is well, else what is wrong; then no
    ping goes out, the status says why, and systemd restarts the service once
    ``WatchdogSec`` has passed without one.
    """

    def __init__(self, notifier: Notifier, health: Callable[[], str | None],
                 clock: Callable[[], float] = time.monotonic):
        self.notifier, self.health, self.clock = notifier, health, clock
        self.every = notifier.watchdog_s / 2 if notifier.watchdog_s else None
        self._pinged = float("-inf")
        self._problem: str | None = None

    def __call__(self) -> None:
        if self.every is None:
            return
        problem = self.health()
        if problem != self._problem:
            self._problem = problem
            if problem:
                log.error("unhealthy, the watchdog is no longer fed: %s", problem)
            self.notifier.status(f"unhealthy: {problem}" if problem else "running")
        now = self.clock()
        if problem is None and now - self._pinged >= self.every:
            self._pinged = now
            self.notifier.watchdog()
