"""Pages open on other devices: a process of its own reads the box's event streams to their end, or guests'
pages read the history over and over."""
from __future__ import annotations

import http.client
import subprocess
import sys
import threading
import urllib.request
from contextlib import contextmanager

DASHBOARDS = 20
HISTORY_GUESTS = 32         # connections reading /api/history in a loop: the flood issue 45 measured, from
GUEST_ADDRESSES = 8         # this many other devices (127.0.2.x: other addresses, as far as the box can tell)


def read_streams(port: int, paths: list[str]) -> None:
    """Child process: read every event stream of ``paths`` to its end, as open pages do; report what came.
    It stands in for browsers on other devices, which read what the box sends as it comes: in big reads,
    counting, so that its own CPU stays small beside the box's. (At nice 19, as it once ran, one slow core
    starved it until the box dropped its streams as pages that had stopped reading.)"""
    got = {"events": 0, "bytes": 0}

    def read(path: str) -> None:
        """Events counted by their ``event:`` lines, the tail carried over so that one split between two reads
        counts once."""
        tail = b"\n"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as stream:
            try:
                while chunk := stream.read1(1 << 16):
                    got["bytes"] += len(chunk)
                    seen = tail + chunk
                    got["events"] += seen.count(b"\nevent: ")
                    tail = seen[-7:]
            except http.client.IncompleteRead:       # the server stopped mid-message: the stream's end all the same
                pass

    readers = [threading.Thread(target=read, args=(path,)) for path in paths]
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join()
    print(f"EVENTS {got['events']}\nBYTES {got['bytes']}", flush=True)


def stream_reader(port: int, paths: list[str], **popen) -> subprocess.Popen:
    """The process of :func:`read_streams` on ``paths``; ``popen``: how to start it (its stdout)."""
    return subprocess.Popen([sys.executable, "-m", "companion.bench", "--read-streams", str(port), *paths], **popen)


@contextmanager
def dashboards(port: int, count: int = DASHBOARDS):
    """``count`` dashboards streaming from another process while the block runs."""
    reader = stream_reader(port, ["/api/dashboard/events"] * count, stdout=subprocess.DEVNULL)
    try:
        yield
    finally:
        reader.kill()
        reader.wait()


def read_history(port: int, guests: int) -> None:
    """Child process: ``guests`` connections from :data:`GUEST_ADDRESSES` devices, each reading ``/api/history``
    again as soon as it came, until stdin closes; then how many answers came, and how many were 429 (paced)."""
    stop, got, paced = threading.Event(), [0] * guests, [0] * guests

    def read(guest: int) -> None:
        address = f"127.0.2.{guest % GUEST_ADDRESSES + 1}"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(address, 0))
        while not stop.is_set():
            conn.request("GET", "/api/history")
            answer = conn.getresponse()
            answer.read()
            got[guest] += answer.status == 200
            paced[guest] += answer.status == 429
        conn.close()

    readers = [threading.Thread(target=read, args=(guest,)) for guest in range(guests)]
    for thread in readers:
        thread.start()
    sys.stdin.read()
    stop.set()
    for thread in readers:
        thread.join()
    print(f"READS {sum(got)}\nREFUSED {sum(paced)}", flush=True)


@contextmanager
def history_read(port: int, guests: int = HISTORY_GUESTS):
    """``guests`` reading the history in a loop from another process while the block runs; yields a dict that
    holds, after it, how many answers they got (``READS``)."""
    reader = subprocess.Popen([sys.executable, "-m", "companion.bench", "--read-history", str(port), str(guests)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    figures: dict[str, float] = {}
    try:
        yield figures
    finally:
        out, _ = reader.communicate("", timeout=60)
    figures.update((word, float(value)) for word, value in (line.split() for line in out.splitlines()))
