"""After a scored turn each seat's own screen says what happened to it and why, in words and numbers, on every
built-in panel and on its phone, until the seat's next press; the question stays on the buttons meanwhile."""
from __future__ import annotations


import pytest

from companion import scene
from companion.render import describe, oled
from companion.render.screen import wordings
from tests.companion.test_layout import PANELS
from tests.presses import presses_for

NAMES = {1: "Adelheid", 2: "Bartholomew", 3: "Cy"}


def told(box, seat: int) -> tuple[tuple[str, ...], list[tuple[str, list[str]]]]:
    """What the seat's screen says first (its description's prompt, every wording: the phone shows the first), and
    on each panel the prompt its drawing placed, whole."""
    render_fn, *args = scene.screens(box.session.scene())[f"seat{seat}"]
    described = describe(render_fn, tuple(args))
    said = wordings(described.news or described.prompt)
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


def test_a_reveal_shows_the_picks_on_the_table_display_and_lamps_while_the_seats_keep_theirs_then_the_outcome_on_all(
        box_factory):
    box = box_factory("whakka-mole", 3)
    box.name_players(NAMES)
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole1\n2 ok\n2 hole5\n2 ok\n3 hole1\n3 ok\n3 hole5", settle=False)
    box.play("wait 1000")
    before = {seat: box.pixels(f"seat{seat}") for seat in (1, 2, 3)}
    box.play("3 ok", settle=False)                      # the last lock-in: the reveal
    shown = scene.screens(box.session.scene())
    assert all(shown[f"seat{seat}"] is None for seat in (1, 2, 3))        # the seats keep what they show
    assert {seat: box.pixels(f"seat{seat}") for seat in (1, 2)} == {seat: before[seat] for seat in (1, 2)}
    render_fn, *args = shown["table"]
    said = describe(render_fn, tuple(args))
    picks = [f"{name}: hole 1 up, whacks hole 5" for name in NAMES.values()]
    assert said.prompt[0] == "The picks" and [wordings(line)[0] for line in said.lines] == picks
    assert [box.lamps(seat) for seat in (1, 2)] == [["on", "off", "off", "off", "off"]] * 2   # no whack flashes yet
    for panel, least in zip(PANELS, (0, 0, 1)):         # as many picks whole as the glass holds, the rest counted
        with oled.recording() as placed:
            render_fn(*args[:-1], panel)
        lines = [" ".join(p["lines"]) for p in placed if p["role"] == "body"]
        assert all(p["whole"] for p in placed) and len(lines) >= 1, panel.name
        picked = [line for line in lines if any(line in wordings(w) for w in said.lines[:len(NAMES)])]
        rest = len(NAMES) - len(picked)
        counted = ({f"and {rest} more on the lamps", f"{rest} more: lamps"} if picked else
                   {"Each seat's lamps show its pick", "See the lamps"})
        assert len(picked) >= least and lines[:len(picked)] == picked, (panel.name, lines)
        assert lines[len(picked):] == [] if not rest else len(lines) == len(picked) + 1 and lines[-1] in counted
    box.play("wait 600", settle=False)                  # the OK's own flash over, the last seat's lamps show its pick
    assert box.lamps(3) == ["on", "off", "off", "off", "off"]
    box.press(2, "hole2")                               # a press ends the moment for its seat alone
    assert told(box, 2)[0][0] == "Which holes pop up?" and scene.screens(box.session.scene())["seat1"] is None
    box.play(f"wait {int(scene.PICKS_S * 1000)}")
    assert told(box, 1)[0][0] == "+1: you missed Bartholomew's hole 5"
    assert box.pixels("seat1") != before[1]


def test_the_lamps_show_each_seat_s_pick_until_the_picks_give_way_to_what_they_did(box_factory):
    box = box_factory("whakka-mole", 3)
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole1\n2 ok\n2 hole5\n2 ok\n3 hole1\n3 ok\n3 hole5\n3 ok")
    box.play("1 ok\n1 hole1\n1 ok\n2 ok\n2 hole2\n2 ok\n3 ok\n3 hole4\n3 ok", settle=False)   # 1 hits 2's hole 1
    assert box.lamps(2) == ["off"] * 5                  # Bartholomew popped nothing up; the hit is not told yet
    box.play(f"wait {int(scene.PICKS_S * 1000)}", settle=False)
    assert box.lamps(2)[0] == "fast"                    # then Adelheid's whack flashes on his hole 1


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


def played_until(box, kind: str, names: dict[int, str]) -> dict:
    """Each seat answers its decisions as a first-timer might (the usual answer, else the first; never Mole's
    optional push claim), through its panel, until an event of ``kind`` happens; that event, once a reveal's
    picks have given way to what they did."""
    box.name_players(names)
    for _ in range(200):
        decision = min(box.match.open_decisions(), key=lambda d: (d.key == "push", d.seat or 0))
        value = decision.default if decision.default is not None else \
            () if decision.kind.name == "HOLES" and decision.min == 0 else decision.options[0]
        if decision.kind.name == "HOLES" and value != ():
            value = (value,)
        for control in presses_for(decision, value):
            box.press(decision.seat if decision.seat is not None else decision.enter_by, control)
        box.session.pump()
        happened = [event for event in box.match.public_log() if event["kind"] == kind]
        if happened:
            box.play(f"wait {int(scene.PICKS_S * 1000)}")
            return happened[-1]
    raise AssertionError(f"no {kind} in 200 decisions")


def says_on_every_panel(box, seat: int, *expected: str) -> str:
    """The seat's phone description and every panel tell it, first of all, a sentence with each of ``expected``."""
    said, drawn = told(box, seat)
    assert all(part in said[0] for part in expected), (seat, said)
    for panel, prompts in drawn:
        assert len(prompts) == 1 and prompts[0] in said, (seat, panel, prompts, said)
    return said[0]


def test_mole_park_tells_each_seat_where_its_own_die_landed(box_factory):
    box = box_factory("mole-park", 3, seed=3)
    played_until(box, "whack", NAMES)
    for seat in NAMES:
        roll = next(r for r in box.match.view(None)["state"]["rolls"] if r["seat"] == seat)
        said = says_on_every_panel(box, seat)
        landed = "missed" if roll["face"] == "X" else f"{roll['face']}"
        assert ("Your " in said or "you whack" in said) and landed in said, (seat, said, roll)


def test_mole_tells_the_flicker_its_flick_and_the_other_player_whose_flick_it_was(box_factory):
    box = box_factory("mole", 2)
    played_until(box, "flick", {1: "Adelheid", 2: "Bartholomew"})
    flicker = next(e for e in reversed(box.match.public_log()) if e["kind"] == "flick")["seat"]
    other = 3 - flicker
    says_on_every_panel(box, flicker, "You flicked")
    says_on_every_panel(box, other, {1: "Adelheid", 2: "Bartholomew"}[flicker], "flicked")


def test_mole_hill_tells_both_players_where_the_mole_went(box_factory):
    box = box_factory("mole-hill", 2)
    moved = played_until(box, "move", {1: "Adelheid", 2: "Bartholomew"})
    where = f"column {moved['to'][0]}, row {moved['to'][1]}"
    says_on_every_panel(box, moved["seat"], "You moved to", where)
    says_on_every_panel(box, 3 - moved["seat"], {1: "Adelheid", 2: "Bartholomew"}[moved["seat"]], "moved to", where)


def test_mouse_madness_tells_the_pusher_and_the_pushed_what_the_push_did(box_factory):
    box = box_factory("mouse-madness", 3)
    push = played_until(box, "push", NAMES)
    says_on_every_panel(box, push["by"], f"You pushed {NAMES[push['seat']]} from {push['from']} to {push['to']}")
    says_on_every_panel(box, push["seat"], f"{NAMES[push['by']]} pushed you from {push['from']} to {push['to']}")
    third = ({*NAMES} - {push["by"], push["seat"]}).pop()       # the push did nothing to it: its own news, if any
    assert NAMES[push["seat"]] not in told(box, third)[0][0]

