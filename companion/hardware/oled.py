"""An I2C OLED that may vanish mid-game: dropped, re-created with backoff, and shown the newest frame on return.

A loose jumper or a player's elbow unplugs a seat's display; luma then raises
``DeviceNotFoundError`` (from a command) or a raw ``OSError`` 121 (from the
frame's data, mid-frame). The game must not notice: the failing device is
dropped, frames keep arriving and the newest one is kept, and a timer tries
to build the device again after 0.5 s, 1 s, 2 s ... up to 30 s. When it
answers again it is initialised afresh (the module lost power, so it forgot
everything) and shown that newest frame.
"""
from __future__ import annotations

import logging
import threading
from typing import Callable

from luma.core.error import Error as LumaError

log = logging.getLogger("molebox.display")

# luma turns a failed command into DeviceNotFoundError (a luma Error), a missing /dev/i2c-N or a
# permission problem into its own errors too, and lets the frame's data fail as a raw OSError.
FAULTS = (LumaError, OSError)


class ResilientDisplay:
    """A luma device made by ``make``; ``display()`` never raises, and ``fault`` says why the glass is dark."""

    def __init__(self, name: str, make: Callable[[], object], width: int = 128, height: int = 64,
                 first_retry: float = 0.5, max_retry: float = 30.0):
        self.name, self._make = name, make
        self.width, self.height, self.mode = width, height, "1"
        self.first_retry, self.max_retry = first_retry, max_retry
        self.fault: str | None = None
        self._delay = first_retry
        self._device = None
        self._image = None
        self._timer: threading.Timer | None = None
        self._closed = False
        self._lock = threading.Lock()
        with self._lock:
            self._connect()

    @property
    def image(self):
        """The newest frame asked for (shown, or waiting for the device to come back)."""
        return self._image

    def display(self, image) -> None:
        with self._lock:
            self._image = image
            if self._device is None:
                return
            try:
                self._device.display(image)
            except FAULTS as exc:
                log.warning("%s display lost: %s", self.name, exc)
                self._drop(exc)

    def cleanup(self) -> None:
        """Stop retrying and let go of the bus; the glass keeps its last frame (luma's name for it)."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            if self._device is not None:
                _cleanup(self._device)
                self._device = None

    def _connect(self) -> None:
        """Build the device and show it the newest frame; on failure try again later. Holds the lock."""
        try:
            self._device = self._make()
            if self._image is not None:
                self._device.display(self._image)
        except FAULTS as exc:
            self._drop(exc)
            return
        if self.fault is not None:
            log.warning("%s display is back", self.name)
        self.fault, self._delay = None, self.first_retry

    def _drop(self, exc: Exception) -> None:
        """Let the device go and try again after the current delay, doubling it. Holds the lock."""
        if self._device is not None:
            _cleanup(self._device)
            self._device = None
        self.fault = f"{self.name} display: {exc}"
        if not self._closed:
            self._timer = threading.Timer(self._delay, self._retry)
            self._timer.daemon = True
            self._timer.start()
            self._delay = min(self._delay * 2, self.max_retry)

    def _retry(self) -> None:
        with self._lock:
            if not self._closed:
                self._connect()


def _cleanup(device) -> None:
    """Let go of the bus; the device may already be gone (persist keeps the glass from being blanked)."""
    try:
        device.cleanup()
    except FAULTS:
        pass
