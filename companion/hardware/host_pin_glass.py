"""A display whose glass shows the host PIN, which never enters the frames the session renders.

It wraps the device, not the renderer: the frames the session renders (and the web streams) stay
free of the PIN, so a phone watching never learns it. The table display stamps it in its
bottom-right corner; on request (:meth:`HostPinGlass.reveal`, seat 1 holding OK in the lobby) the table
display, or seat 1's OLED on a box with none, shows the PIN with the host QR code until the box hides it
again.
"""
from __future__ import annotations

import threading

from companion.render import host_pin


class HostPinGlass:
    def __init__(self, device, host_pin, on_request: bool = False, panel=None):
        """``host_pin``: the box's :class:`~companion.web.host_pin.HostPin` (read at every frame: a new PIN shows at once);
        ``panel``: the glass, for the size of the PIN's digits."""
        self.device, self.host, self.on_request = device, host_pin, on_request
        self.panel = panel
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
        panel = {"panel": self.panel} if self.panel else {}
        if self._shown:
            return host_pin.screen(self.host.pin, self.host.login_url, **panel)
        return image if self.on_request else host_pin.stamp(image, self.host.pin, **panel)

    def __getattr__(self, name: str):
        return getattr(self.device, name)
