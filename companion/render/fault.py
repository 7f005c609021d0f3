"""The screens of a box that cannot play or must tell the host something.

Paused while the hardware or the journal's storage is at fault, a notice the host
must read (in the lobby), a display whose own frame failed, and parted when the
service stops.
"""
from __future__ import annotations

import textwrap

from .common import CHAR_W, WIDTH, canvas, rows, title

COLUMNS = WIDTH // CHAR_W - 1


def _wrap(words: str, lines: int) -> list[str]:
    """``words`` on at most ``lines`` rows, padded to that many so what follows sits on the last rows."""
    wrapped = textwrap.wrap(words, COLUMNS)[:lines]
    return wrapped + [""] * (lines - len(wrapped))


def paused(fault: str):
    image, draw = canvas()
    title(draw, "molebox", "paused")
    rows(draw, _wrap(fault, 4) + ["game waits"])
    return image


def storage(fault: str):
    """Every display while the journal cannot be written: play waits, nothing acknowledged is lost."""
    image, draw = canvas()
    title(draw, "molebox", "paused")
    rows(draw, _wrap(f"Storage fault: {fault}", 2) + ["Nothing is lost.", "Retrying by itself;", "see the dashboard."])
    return image


def alert(words: str, count: int, action: str):
    """A notice the host must read in the lobby (``count`` of them waiting), and the button that reads on."""
    image, draw = canvas()
    title(draw, "molebox", "notice" if count == 1 else f"notice 1/{count}")
    rows(draw, _wrap(words, 4) + [action])
    return image


def broken(name: str):
    """What a display shows when its own frame could not be drawn or sent: the rest of the box plays on."""
    image, draw = canvas()
    title(draw, "molebox", "screen fault")
    rows(draw, ["This screen could", "not draw its frame.", "The game goes on;", "the log says why."])
    return image


def parting():
    """What every display keeps showing after the service stops (luma's ``persist``)."""
    image, draw = canvas()
    title(draw, "molebox", "stopped")
    rows(draw, ["the box is off", "the game is saved", "and goes on when", "it starts again"])
    return image
