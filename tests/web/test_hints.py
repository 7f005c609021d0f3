"""Each game's first turn, from the lobby, clicked in chromium pressing only buttons the screens name.

A player who has never read the rules plays from the panel's OLED alone (as the 2.42" glass the build
guide recommends draws it): the next button must be on the screen of the seat that has to act. The presses
come from the decision the rules ask (the inverse of the panel's entry), but
before each click the test reads that seat's screen, as it is drawn, and fails
if the button is not named there: by an option that starts with it ("2 Frying Pan", "1-5 pop up",
"OK lock in"), by "OK", a key label, a range ("1-5"), a phrase ("1 pass, 2 go, OK"), or the cell
drawn above the hole.
"""
from __future__ import annotations

import random
import re

import pytest

from companion import scene
from companion.render import oled
from companion.render.oled import WIDTH
from rules import registry
from tests.presses import presses_for
from tests.random_play import random_answer

from .browsing import PHONE, click, quiet

CELL_W = WIDTH // 5                 # a hole's cell, as common.cells draws it above each hole
RANGE = re.compile(r"(?<![\w-])([1-5])-([1-5])(?![\w-])")
DIGIT = re.compile(r"(?<![\w-])([1-5])(?![\w-])")
KEY_LABEL = re.compile(r"^\s*(<?[1-5]>?\s*)+[-|]?$")     # "<1", "2>", " 2", "1 4", "5 -": keys where they sit
OPTION = re.compile(r"^(OK|([1-5])(?:-([1-5]))?) ")         # an option names its button first: "2 Frying Pan"
TAP_OK = re.compile(r"(?<!hold )(?<!seat 1 )(?<!S1: )\bOK\b")
DECISIONS = 40                      # a first turn takes far fewer; more means the screens lead nowhere


def drawn(live, name: str) -> list[dict]:
    """What a display shows on the 2.42" glass docs/build.md recommends, placement by placement (text asked
    for, lines drawn, box). A smaller glass names an option once its hole is pressed (docs/scene.md): a
    first-timer pages it by pressing, which this test does not, but on the game menu."""
    render, *args = live.session.screens._shown[name]
    with oled.recording() as placed:
        render(*args[:-1], scene.panel_of("ssd1309"))
    return placed


def named(placed: list[dict], control: str) -> bool:
    """Whether a screen names ``control`` ("ok" or "holeN") as a player would read it."""
    for p in placed:
        text = " ".join(p["lines"])
        button = OPTION.match(text) if p.get("role") == "option" else None
        if button and control == "ok" and button.group(1) == "OK":
            return True
        if button and button.group(2) and control != "ok":
            low, high = int(button.group(2)), int(button.group(3) or button.group(2))
            if low <= int(control.removeprefix("hole")) <= high:
                return True
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


def lobby_row(placed: list[dict], names: tuple[str, ...]) -> int | None:
    """The number the game menu gives a game called one of ``names`` (its title, or up to its colon, or its
    short name), if the screen shows it."""
    for p in placed:
        found = re.match(r"([1-5]) (.+?)(\s+OK>)?$", " ".join(p["lines"]))
        if found and found.group(2) in names:
            return int(found.group(1))
    return None


def choose_game(live, pages, title: str) -> None:
    """Press the game's hole as a player finds it: read the menu; where the glass shows the drafted game
    alone, press the lit holes in turn (the lamps light a hole for each game), each showing its game."""
    lobby = live.session.state.lobby.view()
    names = (title, title.split(":")[0], lobby["short"][lobby["games"].index(title)])
    for hole in range(1, 7):
        quiet(live, *pages)
        row = lobby_row(drawn(live, "seat1"), names)
        if row is not None:
            press_named(live, pages, 1, f"hole{row}")
            return
        if hole <= 5:
            assert live.session.lamps.lit()["seat1"][hole - 1] != "off", f"hole {hole} is dark: no game to page to"
            click(pages[0], 1, f"hole{hole}")
    raise AssertionError(f"{title} is on none of seat 1's menu pages")


@pytest.mark.parametrize("game", registry.ids())
def test_each_games_first_turn_from_the_lobby_by_the_screens_words_alone(live_factory, pages, game):
    box = live_factory("--seed", "5")
    shown = pages(box.url), pages(box.url + "dashboard", PHONE, record=True)      # the simulator, the dashboard
    quiet(box, *shown)
    choose_game(box, shown, registry.get(game).title)
    for _ in range(4):                                   # the game, its set-up, the players: OK each time
        quiet(box, *shown)
        if box.session.state.match is not None and box.session.state.lobby is None:
            break
        press_named(box, shown, 1, "ok")
    quiet(box, *shown)
    assert box.session.state.lobby is None, "OK never started the game"
    match, rng, board = box.session.state.match, random.Random(5), shown[1]
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
