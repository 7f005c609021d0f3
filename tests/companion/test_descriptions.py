"""One source for every medium: each screen the box shows has its description, and the OLED draws no word
that is not in it (the TV view and the phones draw the same descriptions in HTML)."""
from __future__ import annotations

import json
import re

import pytest

from companion.render import describe, fault, join, oled, reveal
from companion.render.screen import Screen, as_dict, wordings
from tests.companion.scripted import LOBBY_WALKS, SCRIPTED, every_lobby_screen, every_screen
from tests.companion.test_layout import PANELS

SQUEEZED = re.compile(r"^[1-5]([-,][1-5])*( choose)?$")     # a small glass pages options by the draft: "1-5 choose", "1,3 choose"


def said(screen: Screen) -> set[str]:
    """Every text a medium may draw of ``screen``: each wording of each text, each option with or without its words."""
    texts = {w for words in (screen.title, screen.status, screen.prompt, screen.news, screen.notice, *screen.lines)
             for w in wordings(words)}
    for option in screen.options:
        texts |= {option.button, *(option.text(w) for w in wordings(option.words))}
    return texts


def strays(shown: tuple) -> list[str]:
    """Words the OLED drew of ``shown`` (a drawing and its arguments) that its description does not say."""
    drawing, *args = shown
    screen = describe(drawing, tuple(args))
    allowed = said(screen)
    if drawing is reveal.picks:         # a small glass shows the first picks whole and counts the rest
        allowed |= {w for shown in range(len(args[1])) for w in said(reveal.describe_picks(*args[:-1], shown))}
    out = []
    for panel in PANELS:
        with oled.recording() as placed:
            drawing(*args[:-1], panel)
        for text in placed:
            for asked in wordings(text["asked"]):
                if asked not in allowed and not SQUEEZED.match(asked) and not asked.isdigit():    # a board's figures
                    out.append(f"{drawing.__module__}.{drawing.__name__} on {panel.name}: {asked!r}")
    return out


def assert_described(shown_screens: list[tuple]) -> None:
    assert shown_screens, "no screens to check: a test that cannot fail"
    for drawing, *args in shown_screens:
        screen = describe(drawing, tuple(args))
        assert isinstance(screen, Screen), drawing
        json.dumps(as_dict(screen))                   # what a page gets, encodable as it is
    found = sorted({stray for shown in shown_screens for stray in strays(shown)})
    assert not found, f"{len(found)} words drawn but not described:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("name", list(SCRIPTED))
def test_every_screen_of_a_scripted_game_draws_only_its_description(box_factory, name):
    assert_described(every_screen(box_factory, name))


@pytest.mark.parametrize("walk", LOBBY_WALKS[:2])
def test_every_lobby_screen_draws_only_its_description(box_factory, walk):
    assert_described(every_lobby_screen(box_factory, walk))


def test_the_box_own_screens_draw_only_their_description():
    url = "http://192.168.1.23:8080/J/4KMBJ"
    assert_described([(fault.paused, "IO board gave up", None), (fault.storage, "storage read-only", None),
                      (fault.note, "journal damaged: moved aside", 2, "seat 1 OK: got it", None),
                      (join.screen, 3, "WWMMW", url, "1 < seat > 2, OK start", None)])


def test_a_page_gets_the_longest_wording_and_the_join_code_s_qr_code():
    screen = as_dict(describe(join.screen, (3, "WWMMW", "HTTP://10.0.0.2:8080/J/WWMMW", "", None)))
    assert screen["prompt"] == "WWMMW" and screen["status"] == "Seat 3" and screen["lines"] == ["10.0.0.2:8080/join"]
    rows = screen["board"]["qr"]
    assert len(rows) == len(rows[0]) >= 21 and set("".join(rows)) == {"0", "1"}
