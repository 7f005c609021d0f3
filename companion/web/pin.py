"""The host PIN: random digits that only the box's own glass shows, and the key that signs host cookies.

Both live in a file beside the journal (``molebox.pin``, 0600, written whole): a restart (the
watchdog's, or a pulled plug) keeps the PIN the host already told the table and the phones that
already entered it. ``molebox pin`` prints it for the host on the Pi; ``molebox pin --new`` makes a
new one, which a running box takes at its next PIN check and next table frame.
"""
from __future__ import annotations

import json
import logging
import secrets
import threading
from pathlib import Path

from PIL import ImageDraw

from companion.durable import write_new
from companion.render.common import BIG, CHAR_W, WIDTH, canvas, fit, rows, title

log = logging.getLogger("molebox.pin")

DIGITS = 5


def new_pin(digits: int = DIGITS) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def pin_path(journal: Path) -> Path:
    return Path(journal).with_suffix(".pin")


class HostPin:
    """The PIN and the cookie key of one box, read again whenever their file changes."""

    def __init__(self, path: Path | None):
        self.path = path
        self._seen: int | None = None
        self._pin, self._key = new_pin(), secrets.token_bytes(32)
        if path is None:
            return
        try:
            if not path.exists():
                self._write(path, self._pin, self._key)
            self._load()
        except OSError as exc:                  # a full or read-only card: a PIN for this run only
            log.warning("the host PIN cannot be kept in %s (%s): it changes at every start", path, exc)
            self.path = None

    @classmethod
    def renew(cls, path: Path) -> "HostPin":
        """A new PIN and key in ``path``: every phone must enter the new PIN."""
        cls._write(path, new_pin(), secrets.token_bytes(32))
        return cls(path)

    @staticmethod
    def _write(path: Path, pin: str, key: bytes) -> None:
        write_new(path, json.dumps({"pin": pin, "key": key.hex()}).encode())

    def _load(self) -> None:
        stat = self.path.stat()
        if stat.st_mtime_ns == self._seen:
            return
        try:
            data = json.loads(self.path.read_text())
            pin, key = str(data["pin"]), bytes.fromhex(data["key"])
            if not (pin.isdigit() and len(key) == 32):
                raise ValueError("not a PIN and a key")
        except (ValueError, KeyError, TypeError) as exc:
            log.error("%s is damaged (%s): a new PIN is made", self.path, exc)
            self._write(self.path, self._pin, self._key)
            self._seen = self.path.stat().st_mtime_ns
            return
        self._pin, self._key, self._seen = pin, key, stat.st_mtime_ns

    def _fresh(self) -> None:
        if self.path is not None:
            try:
                self._load()
            except OSError:
                pass

    @property
    def pin(self) -> str:
        self._fresh()
        return self._pin

    @property
    def key(self) -> bytes:
        self._fresh()
        return self._key


def pin_screen(pin: str):
    """Seat 1's OLED while it shows the PIN (asked for in the lobby, where there is no table display)."""
    image, draw = canvas()
    title(draw, "molebox", "host PIN")
    rows(draw, ["For the dashboard:"])
    fit(draw, (4, 25, WIDTH - 5, 48), " ".join(pin), font=BIG, align="centre")
    rows(draw, ["hides by itself"], start=4)
    return image


class PinDisplay:
    """A display device that shows the host PIN on its own glass, never in the frames the session renders.

    It wraps the device, not the renderer: the frames the session renders (and the web streams) stay
    free of the PIN, so a phone watching never learns it. The table display stamps it in its
    bottom-right corner; seat 1's OLED (on a box with no table display) shows it on request
    (:meth:`reveal`), until the session hides it again.
    """

    def __init__(self, device, pin: HostPin, on_request: bool = False):
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
            return pin_screen(self.host.pin) if self._shown else image
        label = f"#{self.host.pin}"
        stamped = image.copy()
        draw = ImageDraw.Draw(stamped)
        left, top = stamped.width - CHAR_W * len(label) - 4, stamped.height - 11
        draw.rectangle((left, top, stamped.width - 1, stamped.height - 1), fill=1)
        fit(draw, (left + 2, top + 1, stamped.width - 2, stamped.height - 1), label, fill=0, wrap=False)
        return stamped

    def __getattr__(self, name: str):
        return getattr(self.device, name)
