"""A web app served on loopback from an event loop on a thread of this process, as ``molebox run`` serves its
panel; and a phone box's child process, serving until the bench closes its stdin."""
from __future__ import annotations

import asyncio
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Coroutine, Iterator

from .usage import peak_rss_mb, pss_mb


@contextmanager
def served(starting: Coroutine) -> Iterator[int]:
    """Serve while the block runs; yields the port. ``starting``: the coroutine that starts the app and
    returns its runner and port. On the way out the runner is cleaned up, which ends the event streams."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    runner, port = asyncio.run_coroutine_threadsafe(starting, loop).result(10)
    try:
        yield port
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def serve_until_stdin_closes(starting: Coroutine, codes: list[str],
                             stop: Callable[[], tuple[float, float]] | None = None) -> None:
    """Child process: serve, print the port and the seats' join codes, serve until stdin closes, then print
    the peak RSS and PSS of this process plus those ``stop`` returns (what else of the box it stops)."""
    with served(starting) as port:
        print(f"PORT {port}\nCODES {' '.join(codes)}", flush=True)
        sys.stdin.read()
    rss, pss = stop() if stop else (0.0, 0.0)
    print(f"RSS {peak_rss_mb() + rss:.1f}\nPSS {pss_mb() + pss:.1f}", flush=True)
