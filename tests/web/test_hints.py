"""Each game's first turn, from the lobby, clicked in chromium pressing only buttons the screens name.

A player who has never read the rules plays from the panel's OLED alone: the
next button must be on the screen of the seat that has to act. The presses
come from the decision the rules ask (the inverse of the panel's entry), but
before each click the test reads that seat's screen, as it is drawn, and fails
if the button is not named there: by "OK", a key label ("<1", "2>", the
d-pad's digits, "5 -" for the rod), a range ("1-5"), a phrase ("1 pass, 2 go, OK"), or the cell
drawn above the hole.
"""
from __future__ import annotations

import random
import re

import pytest

from companion.render import layout
from companion.render.common import WIDTH
from rules import registry
from tests.presses import presses_for
from tests.random_play import random_answer

from .browsing import PHONE, click, quiet

CELL_W = WIDTH // 5                 # a hole's cell, as common.cells draws it above each hole
RANGE = re.compile(r"(?<![\w-])([1-5])-([1-5])(?![\w-])")
DIGIT = re.compile(r"(?<![\w-])([1-5])(?![\w-])")
KEY_LABEL = re.compile(r"^\s*(<?[1-5]>?\s*)+[-|]?$")     # "<1", "2>", " 2", "1 4", "5 -": keys where they sit
TAP_OK = re.compile(r"(?<!hold )(?<!seat 1 )(?<!S1: )\bOK\b")
DECISIONS = 40                      # a first turn takes far fewer; more means the screens lead nowhere


def drawn(live, name: str) -> list[dict]:
    """What a display shows, placement by placement (text asked for, lines drawn, box)."""
    render, *args = live.session.out._shown[name]
    with layout.recording() as placed:
        render(*args)
    return placed


def named(placed: list[dict], control: str) -> bool:
    """Whether a screen names ``control`` ("ok" or "holeN") as a player would read it."""
    for p in placed:
        text = " ".join(p["lines"])
        if control == "ok":
            if TAP_OK.search(text):
                return True
            continue
        hole = int(control.removeprefix("hole"))
        if any(int(a) <= hole <= int(b) for a, b in RANGE.findall(text)):
            return True
        says_digit = str(hole) in DIGIT.findall(RANGE.sub("", text))
        if says_digit and (KEY_LABEL.match(text) or "OK" in text):
            return True
        x0, _, x1, _ = p["box"]
        if text.strip() and x0 // CELL_W == x1 // CELL_W == hole - 1 and x1 - x0 >= CELL_W // 2:
            return True
    return False


def press_named(live, pages, seat: int, *controls: str) -> None:
    """Seat ``seat`` presses ``controls`` on the simulator (``pages[0]``), each once the box is quiet and
    its screen names it."""
    for control in controls:
        quiet(live, *pages)
        placed = drawn(live, f"seat{seat}")
        words = [" ".join(p["lines"]) for p in placed]
        assert named(placed, control), f"seat {seat} must press {control}, its screen does not say so: {words}"
        click(pages[0], seat, control)


def lobby_row(placed: list[dict], title: str) -> int:
    """The number the game menu gives ``title`` (shown whole, or up to its colon)."""
    for p in placed:
        found = re.match(r"([1-5]) (.+?)(\s+OK>)?$", " ".join(p["lines"]))
        if found and title.split(":")[0] == found.group(2):
            return int(found.group(1))
    raise AssertionError(f"{title} is not on seat 1's menu: {[p['lines'] for p in placed]}")


@pytest.mark.parametrize("game", registry.ids())
def test_each_games_first_turn_from_the_lobby_by_the_screens_words_alone(live_factory, pages, game):
    box = live_factory("--seed", "5")
    shown = pages(box.url), pages(box.url + "dashboard", PHONE, record=True)      # the simulator, the dashboard
    quiet(box, *shown)
    row = lobby_row(drawn(box, "seat1"), registry.get(game).title)
    press_named(box, shown, 1, f"hole{row}")
    for _ in range(4):                                   # the game, its set-up, the players: OK each time
        quiet(box, *shown)
        if box.session.match is not None and box.session.lobby is None:
            break
        press_named(box, shown, 1, "ok")
    quiet(box, *shown)
    assert box.session.lobby is None, "OK never started the game"
    match, rng, board = box.session.match, random.Random(5), shown[1]
    first = turn_number(board)
    for _ in range(DECISIONS):
        if turn_number(board) > max(first, 1):
            break
        seat, decision = next((s, d) for s in range(1, match.header.seats + 1) for d in match.decisions_for(s))
        press_named(box, shown, seat, *presses_for(decision, random_answer(decision, rng)))
        quiet(box, *shown)
    assert turn_number(board) > max(first, 1), board.locator("#round").inner_text()


def turn_number(board) -> int:
    """The turn or round the dashboard's heading names (0 before the first)."""
    found = re.search(r"\d+", board.locator("#round").inner_text())
    return int(found.group()) if found else 0
