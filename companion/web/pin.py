"""The host PIN: random digits that only the physical table display shows."""
from __future__ import annotations

import secrets

from PIL import ImageDraw

from companion.render.common import CHAR_W, text

DIGITS = 5


def new_pin(digits: int = DIGITS) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))


class PinDisplay:
    """A display device that shows the host PIN in its bottom-right corner.

    It wraps the device, not the renderer: the frames the session renders (and the
    dashboard streams) stay free of the PIN, so a phone watching the scores never
    learns it; only the glass on the table, and the device's own pixels, show it.
    """

    def __init__(self, device, pin: str):
        self.device = device
        self.label = f"#{pin}"

    def display(self, image) -> None:
        stamped = image.copy()
        draw = ImageDraw.Draw(stamped)
        left, top = stamped.width - CHAR_W * len(self.label) - 4, stamped.height - 11
        draw.rectangle((left, top, stamped.width - 1, stamped.height - 1), fill=1)
        text(draw, (left + 2, top), self.label, fill=0)
        self.device.display(stamped)

    def __getattr__(self, name: str):
        return getattr(self.device, name)
