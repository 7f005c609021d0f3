"""Mole Hill's board marks are read at real size on every glass: no stroke of a free space's dot, the centre's
ring or a flower's diamond or cross is a single pixel (0.17 mm on a 0.96" glass, too fine to see from the
sofa), on the table display's whole board and on a seat's neighbourhood, and the ring keeps its hole.

A mark drawn one pixel thin has a lit pixel in no lit 2 x 2 square: the table's board drew every free space
as one pixel on the 0.96" and 1.3" glasses.
"""
from __future__ import annotations

import pytest

from companion import scene
from companion.render import mole_hill
from companion.render.oled import canvas
from tests.companion.scripted import box_for

PANELS = [scene.panel_of(driver) for driver in ("ssd1306", "sh1106", "ssd1309")]     # 0.96", 1.3", 2.42"


@pytest.fixture
def state(box_factory):
    """The board as a game starts: free spaces, the centre and flowers of both kinds."""
    return box_for(box_factory, "mole-hill-win").match.view(None)["state"]


def thin(image, width: int) -> list[tuple[int, int]]:
    """The lit pixels left of column ``width`` that are in no lit 2 x 2 square."""
    lit = lambda x, y: 0 <= x < width and 0 <= y < image.height and image.getpixel((x, y))  # noqa: E731
    return [(x, y) for x in range(width) for y in range(image.height) if lit(x, y) and not any(
        all(lit(x + dx + i, y + dy + j) for i in (0, 1) for j in (0, 1)) for dx in (-1, 0) for dy in (-1, 0))]


def test_the_game_starts_with_every_kind_of_mark(state):
    assert state["flowers"] and {points for *_, points in state["flowers"]} == {1, 2} and not state["trail"]


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_the_table_display_draws_no_mark_a_pixel_thin(state, panel):
    frame = mole_hill.table({"state": state, "over": False, "winners": [], "names": {}, "waiting": []}, panel)
    width = mole_hill.table_grid(panel).width
    assert not thin(frame, width), f"{panel.name}: marks a pixel thin at {thin(frame, width)[:8]}"


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_a_seat_board_draws_no_mark_a_pixel_thin(state, panel):
    grid = mole_hill._window(panel, tuple(state["centre"]))
    image, draw = canvas()
    mole_hill.board(draw, state, grid, targets=[(c, r) for c, r, _ in state["flowers"]])
    assert not thin(image, grid.width), f"{panel.name}: marks a pixel thin at {thin(image, grid.width)[:8]}"


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.name)
def test_the_centre_ring_keeps_its_hole(state, panel):
    grid = mole_hill.table_grid(panel)
    image, draw = canvas()
    mole_hill._mark(draw, grid, tuple(state["centre"]), "ring")
    left, top, right, bottom = image.getbbox()
    assert not image.getpixel(((left + right - 1) // 2, (top + bottom - 1) // 2)), f"{panel.name}: the ring is filled"
