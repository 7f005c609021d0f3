"""After a scored turn each seat's own screen says what happened to it and why, in words and numbers, on every
built-in panel and on its phone, until the seat's next press; the question stays on the buttons meanwhile."""
from __future__ import annotations

import pytest

from companion import scene
from companion.render import describe, oled
from companion.render.screen import wordings
from tests.companion.test_layout import PANELS

NAMES = {1: "Adelheid", 2: "Bartholomew", 3: "Cy"}


def told(box, seat: int) -> tuple[tuple[str, ...], list[tuple[str, list[str]]]]:
    """What the seat's screen says first (its description's prompt, every wording: the phone shows the first), and
    on each panel the prompt its drawing placed, whole."""
    render_fn, *args = scene.screens(box.session.scene())[f"seat{seat}"]
    said = wordings(describe(render_fn, tuple(args)).prompt)
    drawn = []
    for panel in PANELS:
        with oled.recording() as placed:
            render_fn(*args[:-1], panel)
        drawn.append((panel.name, [" ".join(p["lines"]) for p in placed if p["role"] == "prompt" and p["whole"]]))
    return said, drawn


@pytest.fixture
def whakka(box_factory):
    box = box_factory("whakka-mole", 3)      # 1 whacks 2, 2 whacks 3, 3 whacks 1
    box.name_players(NAMES)
    # turn 1: everyone pops up hole 1 and whacks hole 5: three misses
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole1\n2 ok\n2 hole5\n2 ok\n3 hole1\n3 ok\n3 hole5\n3 ok")
    # turn 2: seat 1 whacks Bartholomew's hole 1 (a token there), seat 2 whacks Cy's empty hole 2
    box.play("1 ok\n1 hole1\n1 ok\n2 ok\n2 hole2\n2 ok\n3 ok\n3 hole4\n3 ok")
    return box


def test_whakka_mole_tells_each_seat_its_own_turn_on_every_panel_and_its_phone(whakka):
    last = whakka.match.view(None)["state"]["last"]
    assert [seat["hit"] for seat in last] == [True, False, False] and last[1]["lost"] == 1
    points = [f"+{seat['points']}" for seat in last]      # the whack's 6 and the tokens left on the sheet
    expected = {1: f"{points[0]}: you hit Bartholomew's hole 1",
                2: f"Adelheid hit your hole 1: 1 token lost, {points[1]}",
                3: f"{points[2]}: you missed Adelheid's hole 4"}
    for seat, words in expected.items():
        said, drawn = told(whakka, seat)
        assert said[0] == words and all(any(ch.isdigit() for ch in wording) for wording in said)
        for panel, prompts in drawn:
            assert len(prompts) == 1 and prompts[0] in said, (seat, panel, prompts)


def test_the_seat_s_next_press_takes_the_news_back_to_the_question(whakka):
    whakka.press(1, "hole2")
    assert told(whakka, 1)[0][0] == "Which holes pop up?" and told(whakka, 2)[0][0].startswith("Adelheid hit your hole")


def test_the_table_display_tells_the_turn_until_a_seat_locks_in_and_then_who_it_waits_for(whakka):
    def table_says() -> str:
        render_fn, *args = scene.screens(whakka.session.scene())["table"]
        return wordings(describe(render_fn, tuple(args)).prompt)[0]

    assert table_says() == "Adelheid hit Bartholomew"
    whakka.play("2 ok\n2 hole1\n2 ok")                  # Bartholomew locks in...
    assert table_says().startswith("Waiting for Adelheid")
    whakka.press(2, "ok", hold=True)                    # ...and takes it back: still not the last turn's news
    assert whakka.match.view(None)["locked"] == [] and table_says().startswith("Waiting for Adelheid")
