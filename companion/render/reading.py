"""How large a word must be on the glass to be read at arm's length: type sized in millimetres.

A player reads the panel from about 50 cm. A word is read at 16 minutes of arc (ISO 9241-303's
least, a cap height of about 2.3 mm there) and the prompt, what to do now, at a glance at 20
(about 2.9 mm). A :class:`Panel` is what the renderer knows of a glass: millimetres a pixel, so
each role's cap height in pixels follows (``docs/screens.md`` has the table).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

DISTANCE_MM = 500
ARCMIN = {"prompt": 20, "body": 16, "option": 16}     # each role of a text, the angle its capitals need
LEAST_PX = {"prompt": 11, "body": 9, "option": 9}     # below these, one bit deep, a glyph loses strokes ("l" in "Glove")


def cap_mm(role: str) -> float:
    """The least cap height of a text of ``role`` read from 50 cm, in mm."""
    return 2 * DISTANCE_MM * math.tan(math.radians(ARCMIN[role] / 60) / 2)


@dataclass(frozen=True)
class Panel:
    """A glass as the renderer sees it: its name and the size of a pixel."""

    name: str
    mm_per_px: float

    def cap_px(self, role: str) -> int:
        """The cap height, in whole pixels, that a text of ``role`` needs on this glass."""
        return max(LEAST_PX[role], math.ceil(cap_mm(role) / self.mm_per_px - 1e-9))


#: the common 0.96" module (21.744 mm over 128 pixels): the smallest glass molebox supports, so a
#: frame drawn for it is large enough on every other; the panel a display is drawn for when unsaid
SMALLEST = Panel('0.96"', 21.744 / 128)
