"""How wide DejaVu Sans sets a line of text, so the diagram can place its labels without a font library.

The drawings name "DejaVu Sans" (Debian's fonts-dejavu-core, which
rsvg-convert renders them with). The advance widths of its printable ASCII
characters, in thousandths of an em, were read from the font with Pillow:
``[round(ImageFont.truetype(f, 1000).getlength(chr(c))) for c in range(32, 127)]``.
Any other character is counted a full em wide.
"""
from __future__ import annotations

FONT_FAMILY = "DejaVu Sans, sans-serif"
_REGULAR = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636,
    636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863,
    748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635,
    615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636,
    337, 636, 838)
_BOLD = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696,
    696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995,
    837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716,
    678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712,
    365, 712, 838)


def width(text: str, size: float, bold: bool = False) -> float:
    """The advance width of ``text`` at ``size`` px."""
    table = _BOLD if bold else _REGULAR
    return sum(table[ord(c) - 32] if 32 <= ord(c) < 127 else 1000 for c in text) * size / 1000


def wrap(text: str, size: float, limit: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``limit`` px (a longer word stands alone)."""
    lines: list[str] = []
    for word in text.split():
        if lines and width(f"{lines[-1]} {word}", size) <= limit:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines
