"""The pages for everyone, in chromium: every word stands out from what is drawn behind it (WCAG AA, 4.5:1, large
words too) on every page in the states that colour it differently."""
from __future__ import annotations

import random

import pytest

from rules import registry
from tests.presses import presses_for
from tests.random_play import random_answer
from tests.waiting import wait_for

from .browsing import PHONE, click, quiet, watch
from .conftest import GAME
from .contrast import faint, read
from .test_http import WINNING_GAME
from .test_tv import TVS, UPRIGHT, phone, play_the_first_turn, room

DECISIONS = 60             # Mole's decisions until a mignette dies off the board: far fewer


@pytest.fixture
def devices(pages):
    """``devices(url, viewport, touch=False)``: :func:`pages` with its streams recorded."""
    return lambda url, viewport, touch=False: pages(url, viewport, touch=touch, record=True)


@pytest.fixture
def joining(browser):
    """``joining(box, viewport)``: a phone on the join page, its form shown; every context closed afterwards."""
    contexts = []

    def open_page(box, viewport: dict):
        contexts.append(browser.new_context(viewport=viewport, has_touch=True, is_mobile=True))
        page = contexts[-1].new_page()
        watch(page)
        page.goto(box.url + "join")
        page.locator("#join").wait_for()
        return page

    yield open_page
    for context in contexts:
        context.close()


def phones_box(live_factory):
    """A box whose every seat is a phone, in its lobby."""
    return live_factory("--panels", "0", "--phones", "2", "--seed", "5")


def choose(box, page, game: str) -> None:
    """Seat 1's phone chooses ``game`` in the lobby and starts it; it waits for seat 2's phone."""
    click(page, 1, f"hole{box.session.state.lobby.games.index(game) + 1}", "ok", "ok", "ok")
    assert wait_for(lambda: box.session.public()["mode"] == "play")


def stands_out(page, *words: str) -> None:
    """Every text of the page, as drawn now, at 4.5:1 or more against what is behind it; ``words`` among them."""
    readings = read(page)
    said = {text for _, text, _ in readings}
    assert not faint(readings), f"{page.url}: {faint(readings)}"
    assert set(words) <= said, f"{page.url} did not show {set(words) - said}"


def test_every_word_stands_out_on_a_phone_the_tv_the_dashboard_and_the_join_page_in_play(live_factory, devices,
                                                                                          joining):
    box = phones_box(live_factory)
    one = phone(devices, box, 1, UPRIGHT)
    tv = devices(box.url + "tv", TVS["1080"])
    stands_out(one, "Pick a game")
    stands_out(tv, "Pick a game")
    join = joining(box, PHONE)
    join.fill("#code", "WRONG")
    join.click("#join button")
    join.wait_for_function("document.getElementById('join-error').textContent !== ''")
    stands_out(join, join.locator("#join-error").inner_text())

    choose(box, one, "whakka-mole")
    two = phone(devices, box, 2, UPRIGHT)
    click(one, 1, "hole1", "ok", "ok")                                  # OK without a hole to whack: refused
    notice = one.locator(".screen .notice")
    notice.wait_for()
    stands_out(one, notice.inner_text())                                # the refusal, while it shows
    click(one, 1, "hole2", "ok")
    one.locator(".screen .prompt", has_text="Locked in").wait_for()
    stands_out(one, "Locked in")
    dashboard = devices(box.url + "dashboard", PHONE)
    assert dashboard.locator("#host button[disabled]").count() > 0       # New game: not yet
    stands_out(dashboard, "New game", "choosing")
    stands_out(tv, "choosing", "locked in")

    click(two, 2, "hole3", "ok", "hole1", "ok")                         # the reveal: a moment over the TV's board
    tv.locator("#tv-moment.told .outcome p").first.wait_for()
    stands_out(tv, "Reveal")
    tv.mouse.move(5, 5)                                                # awake: its footer shows
    tv.locator(".tv-foot").wait_for()
    stands_out(tv, "live")
    quiet(box, one)
    stands_out(one, room(box)["turns"][-1]["lines"][0])                  # the turn told under the seat's screen


def test_every_word_stands_out_at_a_game_s_end_and_on_the_simulator(live_factory, devices):
    box = live_factory(*GAME)
    tv = devices(box.url + "tv", TVS["720"])
    for seat, control in WINNING_GAME:
        box.tap(seat, control)
    tv.locator("#tv.over").wait_for()
    quiet(box, tv)
    dashboard = devices(box.url + "dashboard", PHONE)
    dashboard.locator("#winner").wait_for()
    stands_out(tv, room(box)["screen"]["prompt"])
    stands_out(dashboard, dashboard.locator("#winner").inner_text())
    stands_out(devices(box.url, {"width": 1280, "height": 860}), "Buttons and keys")


def off_the_board(decision, rng):
    """Mole's answers that bring a mignette's death off the board (its label on the board); the rest at random."""
    if decision.key == "where":
        return "board"
    if decision.key == "dead":
        return decision.options[:1]
    if decision.key.startswith("how-"):
        return "off"
    return random_answer(decision, rng)


def a_mignette_dies_off_the_board(box, at: dict) -> None:
    """Mole's two seats answer on their phones until a mignette has died off the board."""
    rng = random.Random(5)
    for _ in range(DECISIONS):
        quiet(box, *at.values())
        if room(box)["screen"]["board"]["dead"]:
            return
        seat, decision = next((s, d) for s in at for d in box.session.state.match.decisions_for(s)
                              if d.key != "push")                    # a push would end the round at once
        click(at[seat], seat, *presses_for(decision, off_the_board(decision, rng)))
    raise AssertionError(f"no mignette died in {DECISIONS} decisions")


@pytest.mark.parametrize("game", registry.ids())
def test_every_word_of_each_game_s_board_stands_out_on_the_tv_and_a_phone(live_factory, devices, game):
    box = phones_box(live_factory)
    one = phone(devices, box, 1, UPRIGHT)
    choose(box, one, game)
    at = {1: one, 2: phone(devices, box, 2, UPRIGHT)}
    (a_mignette_dies_off_the_board if game == "mole" else play_the_first_turn)(box, at)
    tv = devices(box.url + "tv", TVS["1080"])
    quiet(box, one, tv)
    labels = ["off board"] if game == "mole" else []
    stands_out(one, *labels)
    stands_out(tv, *labels)
