"""The host PIN on the box's own glass: the stamp in the table display's corner, and, asked for in the lobby (seat
1 holds OK), the PIN with the host QR code (the box's login address: scanned, it makes a phone the host's at once)
on the table display, or on seat 1's OLED where there is none."""
from __future__ import annotations

from PIL import ImageDraw

from companion.words import say

from .join import beside_qr
from .oled import OFF, ON, face, frame, text
from .reading import SMALLEST, Panel
from .screen import Screen


def describe_screen(pin: str, url: str = "") -> Screen:
    """The PIN for the dashboard; with the login address ``url`` (the board), scanning is the other way in."""
    if not url:
        return Screen(title="molebox", status=say("host PIN"), prompt=" ".join(pin),
                      lines=((say("For the dashboard; hides by itself"), say("For the dashboard")),))
    return Screen(prompt=pin, board={"url": url},
                  lines=((say("Scan to be the host, or type the PIN"), say("Scan, or type the PIN"),
                          say("Scan or type"), say("host PIN")),))


def screen(pin: str, url: str = "", panel: Panel = SMALLEST):
    """The PIN; with the login address ``url``, its QR code beside it (scan to be the host) and the PIN's digits
    apart, as a join code's letters are."""
    words = describe_screen(pin, url)
    return beside_qr(words, pin, url, panel) if url else frame(words, panel)


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
