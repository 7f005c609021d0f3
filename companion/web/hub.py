"""The box's news on the event loop, fanned out to server-sent event streams.

The box's feed calls :meth:`Hub.listen` from the session's thread (lamps, state) or the
display thread (frames). The listener only files the news as the latest of its
kind (each display's frame is a kind of its own) and, unless a hand-over is
already due, hops onto the event loop; JSON and bit packing happen there, on the
loop's thread. News that came while the loop was busy is therefore taken once,
at its latest: a busy box does not encode states no page will ever show, and
each stream writes what piled up in one send.

The kinds of stream:

- ``DASHBOARD``: the public state, its turns told in words, the table display's rendered frame and
  the guessing figures (wrong PINs and join codes in the last hour), nothing else (the rendered
  frame, not the device's pixels, which carry the host PIN).
  The turns go apart, as appends (``{"from": n, "turns": [...]}``: the turns from *n* on, sent
  when one of them changed, the last one growing; an undo or a new name tells them again, and sends
  those that changed), so a long game's log is not told again at every change;
- ``SIM``: the public state, every lamp and every display's device pixels,
  the seats' OLEDs included: secrets, for the simulator page only. In LAN mode the
  frames the box rendered instead of the device pixels: the box's own glass
  shows the host PIN (:class:`~companion.hardware.host_pin_glass.HostPinGlass`), and it never leaves it;
- :func:`seat` ``n``: seat *n*'s lamps, the description of seat *n*'s screen (what its OLED
  draws: :func:`companion.render.describe`) and the room's description of the table, nothing
  of any other seat: a phone seat's page;
- ``TV``: the room's description of the table (:mod:`companion.render.tv`) and the free phone
  seats' join codes (:mod:`companion.web.tv`).

A stream carries topics; a topic ``kind/display`` is sent as the event ``kind``. Descriptions are
made and encoded here, on the loop's thread, and only while a stream carries them.

Join codes (a seat's key: :mod:`companion.render.join`) go only to streams that may see them: the
host's (its cookie; every page on 127.0.0.1), and a seat's own (seat 1's OLED offers the seats where
the box has no table display). Every other stream is sent a frame that shows one with the code left
off (:func:`~companion.render.join.elsewhere`), and never the ``joins`` topic: the code is for those
at the table, not for whoever on the LAN opens a page.
"""
from __future__ import annotations

import asyncio
import base64
import bisect
import json
import logging
import threading

from aiohttp import web

from companion.render import describe, for_game, join, tv
from companion.render.screen import as_dict
from companion.render.turns import starts, told

from .once import Once

log = logging.getLogger("molebox.web")

DASHBOARD = frozenset({"state", "turns", "table", "guessing"})
SIM = frozenset({"state", "lamps", "frame"})
TV = frozenset({"tv", "joins"})
SECRET = frozenset({"joins"})       # topics sent only to streams that may see join codes
KEEPALIVE_S = 15.0
BACKLOG = 256
WRITE_S = 10.0          # a send that cannot leave in this long: the page stopped reading, its stream is dropped


def seat(n: int) -> frozenset:
    """A seat page's topics: that seat's own lamps and screen, and the room's table."""
    return frozenset({f"lamps/seat{n}", f"screen/seat{n}", "tv"})


def _message(topic: str, text: str) -> bytes:
    return f"event: {topic.partition('/')[0]}\ndata: {text}\n\n".encode()


def _json(payload) -> str:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True)


def _turns(turns: list[dict], start: int) -> str:
    return _json({"from": start, "turns": turns[start:]})


def _end(queue: asyncio.Queue) -> None:
    """Tell a stream to finish: drop what it has not sent, then the end mark."""
    while not queue.empty():
        queue.get_nowait()
    queue.put_nowait(None)


async def _next(queue: asyncio.Queue) -> bytes | None:
    """What a stream sends next: every message waiting, in one piece; a keepalive after a quiet while;
    None once the stream is ended."""
    try:
        async with asyncio.timeout(KEEPALIVE_S):
            messages = [await queue.get()]
    except TimeoutError:
        return b": keepalive\n\n"
    while messages[-1] is not None and not queue.empty():
        messages.append(queue.get_nowait())
    return None if messages[-1] is None else b"".join(messages)


class Hub:
    def __init__(self, box, loop: asyncio.AbstractEventLoop, device_pixels: bool = True):
        self.box = box
        self.loop = loop
        self.displays = box.displays
        self.device_pixels = device_pixels
        self.latest: dict[str, str] = {}          # state (without its log), lamps, descriptions, as sent
        self.public: dict | None = None           # the latest public state, log included
        self._lamps_sent: dict[str, list[str]] = {}    # each seat's lamps as last taken
        self.log: list[dict] = []
        self.turns: list[dict] = []               # the log told, as sent
        self._names: dict = {}                    # the names the turns were told with
        self._joins: tuple | None = None          # the free phone seats as last taken
        self.streams: dict[asyncio.Queue, tuple[frozenset, bool]] = {}     # -> (topics, sees join codes)
        self._elsewhere: dict[int, object] = {}   # by seat: what a stream that may not see its join code is shown
        self._bitmaps: dict[str, tuple[object, dict]] = {}
        self._news: dict[tuple, tuple[str, object]] = {}     # the latest of each kind not yet taken
        self._lock = threading.Lock()
        self._dropped = Once(log)
        box.subscribe(self.listen)
        box.tell_all()                          # the current state and lamps, for the first page

    # ---- the box's side (any thread) -------------------------------------------------------

    def listen(self, kind: str, payload) -> None:
        key = (kind, payload[0]) if kind in ("frame", "screen") else (kind,)
        with self._lock:
            due = bool(self._news)
            self._news[key] = (kind, payload)
        if due:                                   # the loop has not taken the last news yet: it takes this too
            return
        try:
            self.loop.call_soon_threadsafe(self._take_news)
        except RuntimeError:                      # the loop is closed: the server has stopped
            pass

    # ---- loop side -------------------------------------------------------------------------

    def _take_news(self) -> None:
        with self._lock:
            news, self._news = self._news, {}
        for kind, payload in news.values():
            self._take(kind, payload)

    def _take(self, kind: str, payload) -> None:
        if kind == "frame":
            name, image = payload
            if self._wanted("frame"):
                self._send("frame", *self._frame(name))
            if name == "table" and self._wanted("table"):
                self._send("table", *self._table(image))
            return
        if kind == "state":
            self._state(payload)
        elif kind == "lamps":
            self._lamps(payload)
        elif kind == "screen":
            self._screen(*payload)
        elif kind == "joins":
            self._free_seats(payload)

    def publish(self, kind: str, payload) -> None:
        """News of the web panel's own (on the loop): sent if it changed, and the latest kept for new streams."""
        self._latest(kind, payload)

    def _latest(self, kind: str, payload) -> bool:
        """Send ``payload`` as the latest of ``kind`` if it changed; whether it did."""
        text = _json(payload)
        if self.latest.get(kind) == text:
            return False
        self.latest[kind] = text
        self._send(kind, text)
        return True

    def _lamps(self, lamps: dict[str, list[str]]) -> None:
        """Every lamp, and each seat's whose changed. The lists are made afresh for each call
        (:meth:`~companion.outputs.Outputs.lamps`), so the last ones are compared as they are, not encoded."""
        changed = [name for name, seat in lamps.items() if self._lamps_sent.get(name) != seat]
        self._lamps_sent = lamps
        if changed:
            self._latest("lamps", lamps)
        for name in changed:
            self._latest(f"lamps/{name}", lamps[name])

    def _state(self, public: dict) -> None:
        """The public state, its turns first and apart (only those that changed), then the room's table."""
        self.public = public
        log = public.get("log", [])
        names = public.get("names")
        kept = len(self.log) if log[:len(self.log)] == self.log and (names or {}) == self._names else 0
        retold = kept < len(log) or kept < len(self.log)
        if retold:
            self.log, self._names = log, dict(names or {})
            self._tell(public, kept)
        changed = self._latest("state", {key: value for key, value in public.items() if key != "log"})
        if retold or changed:
            self._room()

    def _room(self) -> None:
        """The room's description of the table, made while a stream carries it (forgotten while none does: a new
        stream has it made as it opens)."""
        if self._wanted("tv"):
            self._latest("tv", tv.describe(self.public, self.turns))
        else:
            self.latest.pop("tv", None)

    def _tell(self, public: dict, kept: int) -> None:
        """The turns told again from the one holding the log's first new event (``kept``) on; those that changed
        are sent."""
        if public["mode"] != "play":
            first, again = 0, []
        else:
            edges = starts(for_game(public["view"]["game"]), self.log)
            first = max(0, bisect.bisect_right(edges, kept) - 1)
            known = [term for turn in self.turns[:first] for term in turn["terms"]]   # the rules' words explained
            again = told(tv.named(public), self.log, first, known)
        before = self.turns[first:]
        same = next((i for i, (new, old) in enumerate(zip(again, before)) if new != old), min(len(again), len(before)))
        if same == len(again) == len(before):
            return
        self.turns = self.turns[:first] + again
        self._send("turns", _turns(self.turns, first + same))

    def _screen(self, name: str, drawing, args: tuple) -> None:
        """A display's new screen, described for the streams that carry it (forgotten while none does: a new
        stream describes the screen it opens on)."""
        topic = f"screen/{name}"
        if self._wanted(topic):
            self._latest(topic, as_dict(describe(drawing, args)))
        else:
            self.latest.pop(topic, None)

    def _free_seats(self, joins: tuple) -> None:
        """The free phone seats the game waits for, each its join code, its page and its QR code."""
        if joins != self._joins:
            self._joins = joins
            self._latest("joins", [as_dict(join.describe_screen(*free)) for free in joins])

    def _bitmap(self, key: str, image) -> dict:
        """A one-bit image as the page draws it: its size and its rows of packed bits (MSB first, 1 lit)
        in base64, made once per image. Packing is one C call; a PNG took 0.2 ms of the GIL a frame."""
        cached = self._bitmaps.get(key)
        if cached is None or cached[0] is not image:
            bits = (image if image.mode == "1" else image.convert("1")).tobytes()
            cached = self._bitmaps[key] = (image, {"width": image.width, "height": image.height,
                                                   "bits": base64.b64encode(bits).decode()})
        return cached[1]

    def _image(self, name: str):
        """What the simulator shows of a display: the device's pixels, or (LAN mode) the frame rendered for it."""
        return self.box.glass(name) if self.device_pixels else self.box.rendered(name)

    def _hidden(self, image):
        """What a stream that may not see join codes is shown instead of ``image`` (None: ``image`` shows none)."""
        seat = image.info.get("join") if image is not None else None
        if seat is None:
            return None
        if seat not in self._elsewhere:
            self._elsewhere[seat] = join.elsewhere(seat)
        return self._elsewhere[seat]

    def _frame(self, name: str) -> tuple[str, str | None]:
        """The simulator's frame of a display, and the one for a stream that may not see join codes (None: the
        same)."""
        image = self._image(name)
        hidden = self._hidden(image)
        return (json.dumps({"name": name, **self._bitmap(name, image)}),
                None if hidden is None else json.dumps({"name": name, **self._bitmap(f"{name}/elsewhere", hidden)}))

    def _table(self, image) -> tuple[str, str | None]:
        """The table display's rendered frame, and the one for a stream that may not see join codes."""
        hidden = self._hidden(image)
        return (json.dumps(self._bitmap("table/public", image)),
                None if hidden is None else json.dumps(self._bitmap("table/elsewhere", hidden)))

    def _wanted(self, kind: str) -> bool:
        return any(kind in kinds for kinds, _ in self.streams.values())

    def _send(self, kind: str, text: str, hidden: str | None = None) -> None:
        """``text`` to every stream carrying ``kind``; ``hidden`` instead to those that may not see join codes
        (a :data:`SECRET` topic: nothing)."""
        message = _message(kind, text)
        other = message if hidden is None else _message(kind, hidden)
        for queue, (kinds, sees) in list(self.streams.items()):
            if kind not in kinds or not sees and kind in SECRET:
                continue
            if queue.full():                      # a stalled page: it reconnects to a fresh snapshot
                del self.streams[queue]
                _end(queue)
            else:
                queue.put_nowait(message if sees else other)

    def snapshot(self, kinds: frozenset, sees: bool) -> list[bytes]:
        """What a stream starts with: the latest of everything it carries (``sees``: join codes too)."""
        def pick(full: str, hidden: str | None) -> str:
            return full if sees or hidden is None else hidden

        for topic in kinds:
            if topic.startswith("screen/") and (shown := self.box.screen(topic[7:])) is not None:
                self._latest(topic, as_dict(describe(shown[0], tuple(shown[1:]))))
        if "tv" in kinds and "tv" not in self.latest and self.public is not None:
            self._latest("tv", tv.describe(self.public, self.turns))
        out = [_message("turns", _turns(self.turns, 0))] if "turns" in kinds else []
        out += [_message(kind, self.latest[kind]) for kind in sorted(kinds, key=lambda kind: (kind != "state", kind))
                if kind != "turns" and kind in self.latest and (sees or kind not in SECRET)]
        if "frame" in kinds:
            out += [_message("frame", pick(*self._frame(name))) for name in self.displays
                    if self._image(name) is not None]
        table = self.box.rendered("table")
        if "table" in kinds and table is not None:
            out.append(_message("table", pick(*self._table(table))))
        return out

    async def stream(self, request: web.Request, kinds: frozenset, sees: bool,
                     first: tuple[str, str] | None = None) -> web.StreamResponse:
        """Serve one event stream until the page goes away or the stream is ended; ``sees``: it may carry join
        codes; ``first``: an event (kind, data) of this stream's own that opens it."""
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store"})
        try:
            await response.prepare(request)
        except ConnectionError:                   # the page went before its stream began: aiohttp lets it go quietly
            return response
        queue: asyncio.Queue = asyncio.Queue(BACKLOG)
        opening = [_message(*first)] if first else []
        for message in opening + self.snapshot(kinds, sees):
            queue.put_nowait(message)
        self.streams[queue] = kinds, sees
        try:
            while (messages := await _next(queue)) is not None:
                async with asyncio.timeout(WRITE_S):
                    await response.write(messages)
        except ConnectionError:
            pass
        except TimeoutError:                      # its buffers are full: the page stopped reading
            self._dropped.warn(lambda: f"dropped an event stream ({request.path}) whose page stopped reading "
                                      f"for {WRITE_S:.0f} s")
            if request.transport is not None:
                request.transport.abort()
        finally:
            self.streams.pop(queue, None)
        return response

    def close(self, kinds: frozenset | None = None) -> None:
        """End every stream (or those carrying ``kinds``); their pages may reconnect."""
        for queue, (carried, _) in list(self.streams.items()):
            if kinds is None or carried == kinds:
                del self.streams[queue]
                _end(queue)
