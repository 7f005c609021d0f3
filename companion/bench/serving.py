"""A web app served on loopback from an event loop on a thread of this process, as ``molebox run`` serves its
panel; and a phone box's child process, serving until the bench closes its stdin."""
from __future__ import annotations

import asyncio
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Coroutine, Iterator

from .usage import memory


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
                             stop: Callable[[], dict[str, float]] | None = None) -> None:
    """Child process: serve, print the port and the seats' join codes, serve until stdin closes, then print
    what the box held (:func:`~.usage.memory`): ``stop`` stops the rest of the box and says it, this process's
    with its own (its render process's); without it, this process's alone."""
    with served(starting) as port:
        print(f"PORT {port}\nCODES {' '.join(codes)}", flush=True)
        sys.stdin.read()
    figures = stop() if stop else memory([])
    print("\n".join(f"{word.upper()} {value:.1f}" for word, value in figures.items()), flush=True)
