"""The pages for everyone, in chromium: every word stands out from what is drawn behind it (WCAG AA, 4.5:1, large
words too) on every page in the states that colour it differently; a phone seat's and the dashboard's buttons are
9 mm on the glass at a phone's and a tablet's sizes; a seat's buttons are named for what they do in the decision
at hand; and the turns are a live region on the TV and on a phone, told to a screen reader as they come
(docs/web.md, "Accessible pages")."""
from __future__ import annotations

import random
import re

import pytest

from rules import registry
from tests.presses import presses_for
from tests.random_play import random_answer
from tests.waiting import wait_for

from .browsing import PHONE, click, quiet, watch
from .conftest import GAME
from .contrast import faint, read
from .layout import MM_PER_PX, THUMB_MM
from .test_http import WINNING_GAME
from .test_seats import described
from .test_tv import TVS, UPRIGHT, phone, play_the_first_turn, room

VIEWPORTS = [{"width": 360, "height": 640}, {"width": 390, "height": 844}, {"width": 768, "height": 1024}]
DECISIONS = 60             # Mole's decisions until a mignette dies off the board: far fewer
BUTTON = re.compile(r'button "([^"]*)"')


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
    """Mole's two seats answer on their phones until a mignette has died off the board, and the first turn is over
    (while it lasts the TV tells how to play in the board's place)."""
    rng = random.Random(5)
    for _ in range(DECISIONS):
        quiet(box, *at.values())
        told = room(box)
        if told["screen"]["board"]["dead"] and not any(turn.get("teaching") for turn in told["turns"]):
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


def buttons_too_small(page) -> list[str]:
    """Each button shown whose box is under 9 mm either way on a phone's glass, with its size in mm; a link in a
    sentence (the dashboard's "Lock it again") is let be, as WCAG lets inline targets be."""
    sizes = page.eval_on_selector_all(
        "button:not(p > button.link)", """bs => bs.filter((b) => b.getClientRects().length && getComputedStyle(b).visibility !== "hidden")
                             .map((b) => [b.textContent.trim(), b.getBoundingClientRect().width,
                                          b.getBoundingClientRect().height])""")
    assert sizes, f"{page.url}: no button shown"
    return [f"{said!r} {w * MM_PER_PX:.1f} x {h * MM_PER_PX:.1f} mm" for said, w, h in sizes
            if min(w, h) * MM_PER_PX < THUMB_MM]


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v['width']}x{v['height']}")
def test_a_phone_seat_s_and_the_dashboard_s_buttons_are_9_mm_on_the_glass(live_factory, devices, joining, viewport):
    box = phones_box(live_factory)
    join = joining(box, viewport)
    assert not buttons_too_small(join), buttons_too_small(join)
    one = phone(devices, box, 1, viewport)
    assert not buttons_too_small(one), buttons_too_small(one)           # the lobby
    choose(box, one, "whakka-mole")
    phone(devices, box, 2, viewport)
    quiet(box, one)
    assert one.locator(".seat .holes .hole").count() == 5
    assert not buttons_too_small(one), buttons_too_small(one)           # a game
    dashboard = devices(box.url + "dashboard", viewport, touch=True)    # the host's, made for a phone too
    dashboard.get_by_role("button", name="Free seat 2").wait_for()
    assert not buttons_too_small(dashboard), buttons_too_small(dashboard)


def names(page) -> list[str]:
    """The accessible names of the seat's six buttons, from chromium's accessibility tree."""
    return BUTTON.findall(page.locator(".seat").aria_snapshot())


def meant(box, seat: int) -> list[str]:
    """What the seat's screen (the description its OLED draws) says each button does now: a hole's options' words
    ("1-5 pop up or down" is each hole's), OK's and hold OK's."""
    options = described(box, f"seat{seat}")["options"]

    def gives(button: str, hole: int) -> bool:
        low, _, high = button.partition("-")
        return low.isdigit() and int(low) <= hole <= int(high or low)
    holes = [[o["words"] for o in options if gives(o["button"], hole)] for hole in range(1, 6)]
    ok = [o["words"] for o in options if o["button"] in ("OK", "hold OK")]
    return [*(words[0] if words else "not used now" for words in holes), ok[0] if ok else "not used now"]


def says_what_each_does(page, box, seat: int) -> list[str]:
    """Each button's name says what it does now, as the seat's screen has it; never a bare digit or OK."""
    quiet(box, page)
    wanted = meant(box, seat)
    assert wait_for(lambda: len(names(page)) == 6 and all(words in name for name, words in zip(names(page), wanted))), \
        (names(page), wanted)
    found = names(page)
    assert not [name for name in found if re.fullmatch(r"\d|OK|hole \d", name, re.I)], found
    return found


def test_each_button_of_a_phone_seat_is_named_for_what_it_does_in_the_decision_at_hand(live_factory, devices):
    box = phones_box(live_factory)
    one = phone(devices, box, 1, UPRIGHT)
    lobby = says_what_each_does(one, box, 1)
    assert lobby[0] == "Hole 1: Whakka Mole, chosen" and lobby[5] == "OK: set it up", lobby
    choose(box, one, "whakka-mole")
    phone(devices, box, 2, UPRIGHT)
    popup = says_what_each_does(one, box, 1)
    assert popup[2] == "Hole 3: pop up or down" and popup[5] == "OK: lock in", popup
    click(one, 1, "hole1", "ok")
    whack = says_what_each_does(one, box, 1)
    assert whack[2].startswith("Hole 3: a hole of") and whack != popup, whack
    click(one, 1, "hole2", "ok")
    locked = says_what_each_does(one, box, 1)
    assert locked[2] == "Hole 3: not used now" and locked[5] == "Hold OK: change picks", locked


def test_the_turns_are_a_polite_live_region_on_the_tv_and_a_phone_told_only_what_is_new(live_factory, devices):
    box = phones_box(live_factory)
    one = phone(devices, box, 1, UPRIGHT)
    choose(box, one, "whakka-mole")
    two = phone(devices, box, 2, UPRIGHT)
    tv = devices(box.url + "tv", TVS["1080"])
    regions = {tv: "#tv-story", one: "#room-turns"}
    for page, region in regions.items():
        assert page.locator(region).get_attribute("aria-live") == "polite"
        assert page.locator(region).get_attribute("role") == "log"
        assert page.locator(region).get_attribute("aria-label") == "the last turns"
    click(one, 1, "hole1", "ok", "hole2", "ok")
    click(two, 2, "hole3", "ok", "hole1", "ok")
    quiet(box, one, two, tv)
    first = room(box)["turns"][-1]
    for page, region in regions.items():
        page.locator(f"{region} h3", has_text=first["title"]).wait_for()
        page.evaluate("region => { document.querySelector(region).firstElementChild.__told = true; }", region)
    click(one, 1, "hole4", "ok", "hole1", "ok")                          # news for the table, not a turn:
    quiet(box, one, two, tv)
    assert room(box)["turns"][-1] == first
    for page, players in {tv: "#tv-players", one: "#room-players"}.items():   # seat 1 locked in, drawn again
        page.locator(f'{players} li[data-seat="1"].is-locked-in').wait_for()
    for page, region in regions.items():                                # the turn told is not told again
        assert page.evaluate("region => document.querySelector(region).firstElementChild.__told === true", region)
