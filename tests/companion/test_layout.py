"""Every screen the box shows keeps its words inside their boxes and on the glass, and cuts none.

Every frame of every scripted game (each distinct screen any display was asked to show while the
script played), the lobby's screens for every game, the host's notices and the fault screens are
drawn with :func:`companion.render.layout.recording` on; each placement must be whole (fitted,
shortened from the table of short forms, or wrapped, never cut), its box on the 128 x 64 glass,
and its ink inside its box.
"""
from __future__ import annotations

import pytest

from companion.render import bot, fault, layout
from companion.render.common import canvas, hint, prompt
from companion.render.pin import screen as pin_screen
from tests.companion.scripted import SCRIPTED, collecting, every_screen

WIDTH, HEIGHT = 128, 64


def problems(shown: tuple) -> list[str]:
    """What is wrong with one screen's words, in words."""
    render_fn, *args = shown
    with layout.recording() as placed:
        image = render_fn(*args)
    assert image.size == (WIDTH, HEIGHT)
    out = []
    for p in placed:
        box, ink, what = p["box"], p["ink"], p["asked"] if isinstance(p["asked"], str) else p["asked"][0]
        if not p["whole"]:
            out.append(f"{what!r} cut to {p['lines']}")
        if not (0 <= box[0] <= box[2] < WIDTH and 0 <= box[1] <= box[3] < HEIGHT):
            out.append(f"{what!r}: its box {box} runs off the screen")
        if ink and not (box[0] <= ink[0] and ink[2] <= box[2] and box[1] <= ink[1] and ink[3] <= box[3]):
            out.append(f"{what!r}: ink {ink} outside its box {box}")
    return [f"{getattr(render_fn, '__module__', '')}.{render_fn.__name__}: {p}" for p in out]


def assert_fits(screens: list[tuple]) -> None:
    found = sorted({p for shown in screens for p in problems(shown)})
    assert not found, f"{len(found)} layout problems:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("name", list(SCRIPTED))
def test_every_screen_of_a_scripted_game_fits(box_factory, name):
    assert_fits(every_screen(box_factory, name))


LOBBY_WALKS = [                              # seat 1's presses through the lobby, for every game in the list
    f"1 hole{k}\n1 ok\n1 hole2\n1 hole3\n1 hole4\n1 hole1\n1 ok\n1 hole2\n1 hole3\n1 hole2\n1 hole3\n1 hole5"
    for k in range(1, 6)
] + ["2 hole1\n1 hole9"[:7]]


@pytest.mark.parametrize("walk", LOBBY_WALKS)
def test_every_lobby_screen_fits(box_factory, walk):
    box = box_factory(game=None, seats=None)
    seen = collecting(box)
    for line in walk.splitlines():
        box.play(line)
    assert_fits(list(seen.values()))


def test_the_box_own_screens_fit():
    over = {"over": True, "winners": [2], "names": {"2": "Alexandra"}}
    playing = {"over": False, "winners": [], "names": {}}
    assert_fits([*((bot.seat, view, 2, level, status, notice) for view in (over, playing) for level in ("casual", "strong")
                   for status in ("locked in", "picks last, secretly", "thinking", "waiting")
                   for notice in ("", "stuck: a bot error", "a computer player has this seat")),
                 (pin_screen, "12345"),(fault.paused, "IO board gave up on molebox (heard nothing for 1 s)"),
                 (fault.storage, "storage read-only"), (fault.storage, "journal unreachable"),
                 (fault.alert, "game #12 set aside: key lost or row damaged; kept in the journal", 3,
                  "seat 1 OK: got it"),
                 (fault.alert, "journal damaged: moved aside, a new one started", 1, "OK: got it"),
                 (fault.broken, "seat3"), (fault.parting,)])


@pytest.mark.parametrize("words, bottom", [("Locked in", 47), ("Hit S2: 3", 47), ("+3 hit S4", 47), ("Pop up?", 51)])
def test_the_big_line_sits_on_one_baseline_on_the_controllers_pages_4_and_5(words, bottom):
    image, draw = canvas()
    prompt(draw, words)
    _, top, _, below = image.getbbox()
    assert top >= 32 and below - 1 == bottom       # the letters end on row 47 whatever they are; descenders below


@pytest.mark.parametrize("words, top, bottom", [("OK", 56, 61), ("1-5 pop up, OK lock", 55, 63)])
def test_the_bottom_line_keeps_its_capitals_on_the_last_page(words, top, bottom):
    image, draw = canvas()
    hint(draw, words)
    _, first, _, below = image.getbbox()
    assert (first, below - 1) == (top, bottom)
