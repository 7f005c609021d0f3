"""A finger pressing while the box plays and the power may go: a random hole and OK for a seat still choosing,
counting each lock-in the seat's own lamps acknowledged.

One loop, two pairs of hands and eyes: the web panel and its stream (any backend), or the header's lines and
displays (the ``gpio`` backend). A lock-in is acknowledged once its seat's lamps answered the OK (they answer it
once the decision is on disk; its screen keeps what it showed before OK until then) and the public log holds it:
``acked[seat]`` is then that seat's count of lock-ins. The OK waits until the box has shown the hole's press on the
seat's screen and its lamps are still, with no refusal flashing: else the flash's end would pass for the OK's
answer (an emulated box may show a press half a second late, which a stillness measured from before it misses).
"""
from __future__ import annotations

import random
import threading
import time
from typing import Protocol

from .gpio import Header
from .panel import Panel, Stream, lock_ins

ANSWER_S = 30               # how long a seat's screen or lamps may take to answer a press
SETTLED_S = 0.5             # a seat's screen and lamps this still after a hole's press on the stream: its draft


def still_choosing(state: dict | None) -> list[int]:
    """The seats the public ``state`` shows waited for and not yet locked in."""
    view = (state or {}).get("view") or {}
    return [s for s in view.get("waiting", []) if s not in view.get("locked", [])]


class Hands(Protocol):
    """How a finger presses and sees, per backend."""

    def choosing(self) -> list[int]:
        """The seats still choosing."""

    def press(self, seat: int, control: str) -> None: ...

    def press_shown(self, seat: int, control: str) -> bool:
        """Press, and whether the seat's screen showed it within ``ANSWER_S``."""

    def still(self, seat: int) -> list[str] | None:
        """The seat's lamps once still (None if they do not settle)."""

    def answered(self, seat: int, lamps: list[str]) -> bool:
        """Whether the seat's lamps changed from ``lamps`` within ``ANSWER_S``."""

    def close(self) -> None: ...


class Finger(threading.Thread):
    """Presses until ``stop()``; ``answered`` is set at its first acknowledged lock-in."""

    def __init__(self, hands: Hands, panel: Panel, rng: random.Random, acked: dict[int, int]):
        super().__init__(daemon=True)
        self.hands, self.panel, self.rng, self.acked = hands, panel, rng, acked
        self.stopped = threading.Event()
        self.answered = threading.Event()
        self.start()

    def run(self) -> None:
        try:
            while not self.stopped.is_set():
                choosing = self.hands.choosing()
                if not choosing:
                    time.sleep(0.1)
                    continue
                seat = self.rng.choice(choosing)
                if not self.hands.press_shown(seat, f"hole{self.rng.randint(1, 5)}"):
                    continue                    # the hole's press not shown yet: its flash may follow
                lamps = self.hands.still(seat)
                if lamps is None or "fast" in lamps:
                    continue                    # a refusal's flash, whose end would pass for the OK's answer
                before = lock_ins(self.panel.log()).get(seat, 0)
                self.hands.press(seat, "ok")
                if self.hands.answered(seat, lamps):
                    now = lock_ins(self.panel.log()).get(seat, 0)
                    if now > before:            # a lock-in, not a refusal's blink
                        self.acked[seat] = max(self.acked.get(seat, 0), now)
                        self.answered.set()
        except Exception:             # the power went: the presses stop with it
            pass

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=60)
        self.hands.close()


class WebHands:
    """Presses through the web panel; sees the simulator's stream (what each screen and lamp shows, and when)."""

    def __init__(self, panel: Panel, stream: Stream):
        self.panel, self.stream = panel, stream

    def choosing(self) -> list[int]:
        return still_choosing(self.stream.state)

    def press(self, seat: int, control: str) -> None:
        self.panel.press(seat, control)

    def press_shown(self, seat: int, control: str) -> bool:
        pressed = time.monotonic()
        self.panel.press(seat, control)
        return self.stream.wait(lambda s: s.frames.get(f"seat{seat}", ("", 0))[1] > pressed, ANSWER_S)

    def still(self, seat: int) -> list[str] | None:
        screen = self.stream.settled(f"seat{seat}", quiet_s=SETTLED_S)
        lamps = self.stream.settled(f"seat{seat}", quiet_s=SETTLED_S, of="lamps")
        return lamps if screen else None

    def answered(self, seat: int, lamps: list[str]) -> bool:
        return self.stream.wait(lambda s: s.lamps[f"seat{seat}"][0] != lamps, ANSWER_S)

    def close(self) -> None:
        self.stream.close()


class PinHands:
    """Presses on the header's lines; sees the lamps' lines (read over a second, so a look that reads alike twice is
    still) and the displays' RAM."""

    def __init__(self, header: Header, panel: Panel):
        self.header, self.panel = header, panel

    def choosing(self) -> list[int]:
        return still_choosing(self.panel.get_json("/api/state"))

    def press(self, seat: int, control: str) -> None:
        self.header.press(seat, control)

    def press_shown(self, seat: int, control: str) -> bool:
        screen = self._look(seat).frames[f"seat{seat}"]
        self.header.press(seat, control)
        return self._until(seat, lambda shown: shown.frames[f"seat{seat}"] != screen)

    def still(self, seat: int) -> list[str] | None:
        lamps = self._look(seat).lamps[seat]
        return lamps if self._look(seat).lamps[seat] == lamps else None

    def answered(self, seat: int, lamps: list[str]) -> bool:
        return self._until(seat, lambda shown: shown.lamps[seat] != lamps)

    def close(self) -> None:
        pass

    def _look(self, seat: int):
        return self.header.look([seat])[0]

    def _until(self, seat: int, predicate) -> bool:
        deadline = time.monotonic() + ANSWER_S
        while time.monotonic() < deadline:
            if predicate(self._look(seat)):
                return True
        return False
