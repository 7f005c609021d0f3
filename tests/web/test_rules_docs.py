"""The rules at the table: the box serves each game's rules doc at /rules/GAME, every section, rule and molebox
decision with its anchor; every sentence a game's turns are told in opens the clause behind it, an anchor the served
page has; and a phone's turn list opens one in a tab of its own, the seat's page still live at its place."""
from __future__ import annotations

import re

import pytest

from companion.render import clauses, turns
from rules import registry
from tests.rules.test_conformance import play

from .browsing import PHONE, quiet
from .layout import laid_out
from .test_tv import phone, play_the_first_turn

GAMES = registry.ids()
ANCHOR = re.compile(r'\bid="([^"]+)"')


@pytest.mark.parametrize("game", GAMES)
def test_every_sentence_of_a_game_opens_a_clause_of_its_served_rules(unchanged, game):
    served = unchanged.call("GET", f"/rules/{game}")
    assert served.status == 200 and served.headers["Content-Type"].startswith("text/html")
    anchors = set(ANCHOR.findall(served.body))
    assert {"how-to-play", *clauses.CLAUSES[game].values()} <= anchors, game      # every clause named is there
    cls, told = registry.game_class(game), {}
    for seats in {cls.min_seats, cls.max_seats}:
        for seed in range(3):
            for physical in (False, True):
                match = play(game, seats, seed, physical)
                for turn in turns.told({**match.view(None), "names": {}}, match.public_log()):
                    assert len(turn["clauses"]) == len(turn["lines"]), turn
                    told.update(zip(turn["clauses"], turn["lines"]))
    assert told and None not in told, f"{game}: a sentence with no clause: {told.get(None)}"
    assert set(told) <= anchors


def test_the_rules_docs_mark_each_molebox_decision_and_answer_no_other_game(unchanged):
    mole = unchanged.call("GET", "/rules/mole").body
    assert 'id="decision-the-mignettes-win"' in mole and 'id="pushes"' in mole and "<table>" in mole
    assert "decision-with-the-reason" not in mole                   # the opening only says what the mark means
    missing = unchanged.call("GET", "/rules/chess")
    assert missing.status == 404 and "no rules for 'chess'" in missing.body["error"]


def test_a_phone_opens_the_rule_behind_a_turn_s_sentence_and_keeps_its_seat(live_factory, pages):
    box = live_factory("--panels", "0", "--phones", "2", "--game", "whakka-mole", "--seats", "2", "--seed", "5")
    at = {seat: phone(lambda url, viewport, touch: pages(url, viewport, touch=touch, record=True), box, seat, PHONE)
          for seat in (1, 2)}
    play_the_first_turn(box, at)
    seat = at[1]
    link = seat.locator("#room-turns .turn p a").first
    link.wait_for()
    clause = link.get_attribute("href").split("#")[1]
    with seat.expect_popup() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith(f"/rules/whakka-mole#{clause}")
    target = rules.locator(":target")
    assert target.get_attribute("id") == clause and target.is_visible()
    assert rules.evaluate("() => { const r = document.querySelector(':target').getBoundingClientRect();"
                          " return r.top >= 0 && r.bottom <= innerHeight; }")
    laid_out(rules, scrolls=True)
    quiet(box, seat)
    assert seat.locator("#status").inner_text() == "live" and seat.locator(".seat").is_visible()   # its place kept
