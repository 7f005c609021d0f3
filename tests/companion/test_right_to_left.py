"""A name written right to left (Arabic, Hebrew) reads right on every glass: the English line around it left
to right, whatever letter the line starts with, and the name within it from the right, its Arabic letters joined.

The order is read off the pixels: changing one letter of a drawn line changes the frame from that letter's
place on the glass onwards, so the first column that changes is where the letter is drawn. Pillow alone drew
"محمد: Hit 3" as "Hit 3 :محمد", the line's direction taken from its first letter.
"""
from __future__ import annotations

import pytest

from companion import scene
from companion.render import naming, oled
from companion.render.screen import Screen

PANELS = [scene.panel_of(driver) for driver in ("ssd1306", "sh1106", "ssd1309")]     # 0.96", 1.3", 2.42"
ARABIC, HEBREW = "محمد", "שרה"
OTHER = {"م": "ب", "د": "ر", "ש": "נ", "ה": "ק", "H": "K", "3": "8"}   # a letter of the same kind


def frame(line: str, panel):
    with oled.recording() as placed:
        image = oled.frame(Screen(title="Names", lines=(line,)), panel)
    assert [line] in [p["lines"] for p in placed], f"{line!r} is not drawn whole on the {panel.name} glass"
    return image


def column(line: str, at: int, panel) -> int:
    """The first column of the glass where ``line``'s letter ``at`` is drawn."""
    changed = line[:at] + OTHER[line[at]] + line[at + 1:]
    a, b = frame(line, panel), frame(changed, panel)
    return next(x for x in range(a.width) if any(a.getpixel((x, y)) != b.getpixel((x, y)) for y in range(a.height)))


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
@pytest.mark.parametrize("name", [ARABIC, HEBREW])
def test_a_line_that_starts_with_a_right_to_left_name_reads_left_to_right(panel, name):
    line = f"{name}: Hit 3"
    first, last, hit = column(line, 0, panel), column(line, len(name) - 1, panel), column(line, line.index("H"), panel)
    assert last < first < hit, f"{line!r} on {panel.name}: the name's last letter at {last}, its first at {first}, " \
                               f"'Hit' at {hit}"


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
@pytest.mark.parametrize("name", [ARABIC, HEBREW])
def test_a_right_to_left_name_inside_a_sentence_is_a_unit_read_from_the_right(panel, name):
    line = f"Hit {name}'s 3"
    hit, first, last = column(line, 0, panel), column(line, 4, panel), column(line, 4 + len(name) - 1, panel)
    three = column(line, len(line) - 1, panel)
    assert hit < last < first < three, f"{line!r} on {panel.name}: 'Hit' at {hit}, the name's last letter at " \
                                       f"{last}, its first at {first}, '3' at {three}"


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_an_arabic_name_is_drawn_joined(panel):
    """Joined, "محمد" is one stroke (none of its letters has a dot): one piece of ink, where its letters apart are four."""
    joined, apart = (_pieces(frame(name, panel)) for name in (ARABIC, " ".join(ARABIC)))
    assert (joined, apart) == (1, 4), panel.name


def _pieces(image) -> int:
    """Pieces of ink (touching at a side or a corner) under the title bar, in the frame's lower half."""
    todo = {(x, y) for x in range(image.width) for y in range(image.height // 2, image.height) if image.getpixel((x, y))}
    pieces = 0
    while todo:
        pieces += 1
        stack = [todo.pop()]
        while stack:
            x, y = stack.pop()
            for near in [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]:
                if near in todo:
                    todo.remove(near)
                    stack.append(near)
    return pieces


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
@pytest.mark.parametrize("name", [ARABIC, HEBREW])
def test_a_figure_after_a_right_to_left_name_stays_after_it(panel, name):
    """By the bidirectional algorithm alone "Hit محمد: 3" is drawn "Hit 3 :محمد" (a figure after Arabic letters
    joins their run); a name as the screens say it is a unit of its own."""
    line = f"Hit {naming.who({'names': {'1': name}}, 1)}: 3"
    at = line.index(name)
    hit, first, last = column(line, 0, panel), column(line, at, panel), column(line, at + len(name) - 1, panel)
    three = column(line, len(line) - 1, panel)
    assert hit < last < first < three, f"{line!r} on {panel.name}: 'Hit' at {hit}, the name's last letter at " \
                                       f"{last}, its first at {first}, '3' at {three}"
