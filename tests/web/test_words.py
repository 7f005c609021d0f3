"""The pages' own words come from the catalogue: under the pseudo-locale (``MOLEBOX_LOCALE=qps``, every sentence
accented and about 40% longer) the TV at 1080p and 720p, a phone seat at three sizes (and its how to play), the join page and the
dashboard say them accented, and nothing on them is cut or overflows; no word on them (the renderers' sentences
included) was said around the catalogue."""
from __future__ import annotations

import re

import pytest

from companion.words import ENV, PSEUDO, pseudo

from .browsing import watch
from .layout import THUMB_PX, laid_out
from .test_tv import TVS

SMALL_PHONE = {"width": 360, "height": 640}
PHONES = {"360x640": SMALL_PHONE, "390x844": {"width": 390, "height": 844}, "768x1024": {"width": 768, "height": 1024}}
PLAIN = re.compile(r"(?<![\w{/.:])[A-Za-z]*[a-z][A-Za-z]*(?![\w}])")    # a word the pseudo-locale would have accented
NAMED = {"molebox", "Whakka", "Mole"}                                   # the box's and the game's names


def plain(page) -> set[str]:
    """Words on the page that were said around the catalogue (the pseudo-locale accents every sentence of it)."""
    return set(PLAIN.findall(page.locator("body").inner_text())) - NAMED


@pytest.fixture
def box(live_factory, monkeypatch):
    """A box saying everything in the pseudo-locale, at its start as on a Pi whose environment sets it: one panel,
    two phone seats free (the TV offers their join codes)."""
    monkeypatch.setenv(ENV, PSEUDO)
    return live_factory("--panels", "1", "--phones", "2", "--game", "whakka-mole", "--seats", "3", "--seed", "5")


def opened(browser, url: str, viewport: dict):
    """A page in a device of its own, once its stream is live (its status says so in the pseudo-locale)."""
    page = browser.new_context(viewport=viewport, has_touch=viewport in PHONES.values()).new_page()
    watch(page)
    page.goto(url)
    is_live(page)
    return page


def is_live(page) -> None:
    page.wait_for_function("(live) => document.getElementById('status').textContent === live", arg=pseudo("live"))


def says(page, selector: str, attribute: str | None = None) -> str:
    found = page.locator(selector).first
    return found.get_attribute(attribute) if attribute else found.text_content()


@pytest.mark.parametrize("size", TVS)
def test_the_tv_says_its_own_words_in_the_pseudo_locale_and_nothing_is_cut(box, browser, size):
    page = opened(browser, box.url + "tv", TVS[size])           # the Pi's kiosk: it shows the join codes
    page.locator("#tv-joins .how").wait_for()
    assert page.title() == pseudo("molebox TV")
    assert says(page, "#tv-joins .how").startswith(pseudo("Join on a phone: scan, or open {address}").split("{")[0])
    assert says(page, "#sound") == pseudo("Sound off")
    assert says(page, "#tv-players", "aria-label") == pseudo("the players and their scores")
    assert says(page, "#tv-joins .qr", "aria-label").startswith(pseudo("QR code of "))
    assert not plain(page)
    laid_out(page, scrolls=False)
    page.context.close()


@pytest.mark.parametrize("size", PHONES)
def test_a_phone_seat_says_its_own_words_in_the_pseudo_locale_and_nothing_is_cut(box, browser, size):
    page = opened(browser, box.url + "J/" + box.site.phones.codes[2], PHONES[size])
    page.wait_for_url("**/seat/2")
    is_live(page)
    assert page.title() == pseudo("molebox seat {seat}").format(seat=2)
    assert says(page, "#title") == pseudo("seat {seat}").format(seat=2)
    assert says(page, ".seat h2").startswith(pseudo("Seat {seat}").format(seat=2))     # then the renderers' name
    assert says(page, ".seat .hole", "aria-label").startswith(pseudo("Hole {hole}: ").format(hole=1))
    assert says(page, "#room-turns", "aria-label") == pseudo("the last turns")
    assert not plain(page)
    laid_out(page, scrolls=True, thumb=THUMB_PX)
    page.locator("#how-open").click()                       # how to play: the rules' words and the page's own
    assert says(page, "#how h3") == pseudo("Goal") and says(page, "#how-close") == pseudo("Back to the seat")
    assert says(page, "#how-open", "aria-label") == pseudo("Show how to play {game}").format(game="Whakka Mole")
    assert not plain(page)
    laid_out(page, scrolls=True, thumb=THUMB_PX)
    page.context.close()


def test_the_join_page_says_its_own_words_in_the_pseudo_locale_and_nothing_is_cut(box, browser):
    page = browser.new_context(viewport=SMALL_PHONE, has_touch=True, is_mobile=True).new_page()
    watch(page)
    page.goto(box.url + "join")
    page.locator("#join").wait_for()
    assert not plain(page)
    laid_out(page, scrolls=True, thumb=THUMB_PX)
    page.context.close()


@pytest.mark.parametrize("size", ["360x640", "768x1024"])
def test_the_dashboard_says_its_own_words_in_the_pseudo_locale_and_nothing_is_cut(box, browser, size):
    page = opened(browser, box.url + "dashboard", PHONES[size])
    assert not plain(page)
    laid_out(page, scrolls=True)
    page.context.close()
