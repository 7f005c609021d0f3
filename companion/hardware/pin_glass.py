"""A display whose glass shows the host PIN, which never enters the frames the session renders.

It wraps the device, not the renderer: the frames the session renders (and the web streams) stay
free of the PIN, so a phone watching never learns it. The table display stamps it in its
bottom-right corner; seat 1's OLED (on a box with no table display) shows it on request
(:meth:`PinGlass.reveal`), until the box hides it again.
"""
from __future__ import annotations

import threading

from PIL import ImageDraw

from companion.render import pin as pin_screen
from companion.render.common import CHAR_W, fit


class PinGlass:
    def __init__(self, device, pin, on_request: bool = False):
        """``pin``: the box's :class:`~companion.web.pin.HostPin` (read at every frame: a new PIN shows at once)."""
        self.device, self.host, self.on_request = device, pin, on_request
        self._last = None
        self._shown = False
        self._lock = threading.Lock()            # the display worker and the session loop both draw here

    def display(self, image) -> None:
        with self._lock:
            self._last = image
            self.device.display(self._glass(image))

    def reveal(self, shown: bool) -> None:
        """Show the PIN over whatever the display shows (True), or hide it again (False)."""
        with self._lock:
            self._shown = shown
            if self._last is not None:
                self.device.display(self._glass(self._last))

    def _glass(self, image):
        if self.on_request:
            return pin_screen.screen(self.host.pin) if self._shown else image
        label = f"#{self.host.pin}"
        stamped = image.copy()
        draw = ImageDraw.Draw(stamped)
        left, top = stamped.width - CHAR_W * len(label) - 4, stamped.height - 11
        draw.rectangle((left, top, stamped.width - 1, stamped.height - 1), fill=1)
        fit(draw, (left + 2, top + 1, stamped.width - 2, stamped.height - 1), label, fill=0, wrap=False)
        return stamped

    def __getattr__(self, name: str):
        return getattr(self.device, name)
