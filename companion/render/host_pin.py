"""The host PIN on the box's own glass: seat 1's OLED while it shows it (asked for in the lobby, where there
is no table display), and the stamp in the table display's corner."""
from __future__ import annotations

from PIL import ImageDraw

from companion.words import say

from .oled import OFF, ON, face, frame, text
from .reading import SMALLEST, Panel
from .screen import Screen


def screen(pin: str, panel: Panel = SMALLEST):
    return frame(Screen(title="molebox", status=say("host PIN"), prompt=" ".join(pin),
                        lines=((say("For the dashboard; hides by itself"), say("For the dashboard")),)), panel)


def stamp(image, pin: str, panel: Panel = SMALLEST):
    """``image`` with the PIN in an inverted box in its bottom-right corner, at the size any word is read at."""
    label, body = f"#{pin}", face(panel, "body")
    width, height = body.width(label) + 4, body.height + 1
    stamped = image.copy()
    box = (stamped.width - width, stamped.height - height, stamped.width - 1, stamped.height - 1)
    draw = ImageDraw.Draw(stamped)
    draw.rectangle(box, fill=ON)
    text(draw, box, label, body, "body", align="right", fill=OFF)
    return stamped
