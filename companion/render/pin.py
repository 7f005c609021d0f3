"""The host PIN on seat 1's OLED, asked for in the lobby where there is no table display."""
from __future__ import annotations

from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Screen


def screen(pin: str, panel: Panel = SMALLEST):
    return frame(Screen(title="molebox", status="host PIN", prompt=" ".join(pin),
                        lines=(("For the dashboard; hides by itself", "For the dashboard"),)), panel)
