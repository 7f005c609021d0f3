"""The web panel in Debian's chromium: a whole game by clicking, lamp latency, no secret on the dashboard.

Screenshots of the simulator and the dashboard (docs/screenshots/) come from these tests (see browsing.py).
"""
from __future__ import annotations

import io
import json
import statistics

import pytest
from PIL import Image, ImageColor

from tests.webclient import latest, note

from .browsing import (LAMPS_JS, PHONE, click, hold, keys, oled, press_to_lamp, quiet, settled_lamps, shoot,
                       shows_the_glass, wait_text)
from .conftest import GAME


def test_a_whole_two_seat_game_by_clicking_and_keys(live, pages):
    sim = pages(live.url)
    board = pages(live.url + "dashboard", PHONE)
    assert sim.locator(".seat:visible").count() == 2               # the seats in play, not all 8 panels
    assert sim.locator('img[data-display="table"]').is_visible()
    at_start = settled_lamps(sim, live, 1)
    assert settled_lamps(sim, live, 2) == at_start
    name_players(board, "Ada", "Bo")
    wait_text(sim, '[data-seat="2"] h2', "Seat 2: Bo")

    # Turn 1: seat 1 pops up hole 1 and whacks hole 5 (a miss); seat 2, on its keys A S D F G + Z,
    # pops up hole 2 and whacks hole 1 (a hit): 0 and 6 + 1.
    blank = oled(sim, "seat1")
    click(sim, 1, "hole1")
    sim.wait_for_function(f"document.querySelector('img[data-display=seat1]').src !== {json.dumps(blank)}")
    click(sim, 1, "ok", "hole5", "ok")
    wait_text(board, "#scores li", "locked in")
    keys(sim, "KeyS", "KeyZ", "KeyA", "KeyZ")
    wait_text(board, "#round", "Turn 2")
    assert board.locator("#scores .points").all_inner_texts() == ["0", "7"]
    assert settled_lamps(sim, live, 1) != at_start                  # the reveal shows on the lamps
    wait_text(board, "#turns", "whacked Ada's hole 1: a hit")
    assert chart_lines(board) == {"Ada": "0,0", "Bo": "0,7"}

    # Turn 2: seat 1 locks in, takes it back with a long OK, picks again; seat 2 hits again and wins.
    click(sim, 1, "hole1", "ok", "hole3", "ok")
    wait_text(board, "#scores li", "locked in")
    hold(sim, 1, "ok")
    board.locator("#scores li", has_text="locked in").wait_for(state="detached")
    click(sim, 1, "hole1", "ok", "hole3", "ok")
    keys(sim, "KeyF", "KeyZ", "KeyA", "KeyZ")
    wait_text(board, "#winner", "Bo won with 15 points!")
    assert board.locator("#scores .points").all_inner_texts() == ["0", "15"]
    assert chart_lines(board) == {"Ada": "0,0,0", "Bo": "0,7,15"}
    wait_text(board, "#games tbody tr", "Ada 0, Bo 15")                 # the finished game, in the history
    assert board.locator("#games tbody tr td").nth(3).inner_text() == "Bo"
    assert chart_bars(board) == {"Bo": "1", "Ada": "0"}
    assert board.locator("#turns > li").count() == 2
    assert settled_lamps(sim, live, 2) != at_start

    # The page's OLEDs are the luma devices' own pixels.
    shows_the_glass(sim, live, "seat1", "seat2", "table")
    shoot(sim, "simulator.png")
    shoot(board, "dashboard-phone.png")

    # The host starts the next game from the dashboard; the names stay, the old game's chart is a click away.
    board.get_by_role("button", name="New game").click()
    wait_text(board, "#round", "Turn 1")
    assert board.locator("#scores .points").all_inner_texts() == ["0", "0"]
    assert board.locator("#scores .who").all_inner_texts() == ["Ada", "Bo"]
    assert board.locator("#turns > li").count() == 0
    assert chart_lines(board) == {"Ada": "0", "Bo": "0"}
    assert chart_colours_seen(board) == {"Ada": True, "Bo": True}     # level seats are both drawn
    board.locator("#games tbody tr").first.click()
    wait_text(board, "#progress-title", "game 1, Whakka Mole")
    assert chart_lines(board) == {"Ada": "0,0,0", "Bo": "0,7,15"}


def name_players(board, *names: str) -> None:
    """Type the players' names on the dashboard and save them."""
    for seat, name in enumerate(names, 1):
        board.fill(f'#name-fields input[name="seat{seat}"]', name)
    board.get_by_role("button", name="Save names").click()
    wait_text(board, "#host-message", "done")
    wait_text(board, "#scores", names[-1])


def chart_lines(board) -> dict[str, str]:
    """The scores-over-turns chart: each line's label and its values."""
    return board.eval_on_selector_all("#score-chart g[data-values]",
                                      "gs => Object.fromEntries(gs.map(g => [g.dataset.label, g.dataset.values]))")


def chart_colours_seen(board) -> dict[str, bool]:
    """Whether each line's colour shows in a screenshot of the chart (a line under another would not)."""
    strokes = board.eval_on_selector_all("#score-chart g[data-values]",
                                         "gs => gs.map(g => [g.dataset.label, g.querySelector('polyline').getAttribute('stroke')])")
    shot = Image.open(io.BytesIO(board.locator("#score-chart svg").screenshot())).convert("RGB")
    seen = {shot.getpixel((x, y)) for x in range(shot.width) for y in range(shot.height)}
    near = lambda rgb: any(sum(abs(a - b) for a, b in zip(rgb, pixel)) < 24 for pixel in seen)
    return {label: near(ImageColor.getrgb(stroke)) for label, stroke in strokes}


def chart_bars(board) -> dict[str, str]:
    """The wins-per-player chart: each bar's label and its value."""
    board.wait_for_selector("#wins-chart g[data-value]")
    return board.eval_on_selector_all("#wins-chart g[data-value]",
                                      "gs => Object.fromEntries(gs.map(g => [g.dataset.label, g.dataset.value]))")


def test_seat_1_picks_the_game_in_the_lobby(live_factory, pages):
    box = live_factory()
    sim, board = pages(box.url), pages(box.url + "dashboard", PHONE)
    wait_text(board, "#waiting", "Seat 1 is choosing: Whakka Mole, 2 seats")
    click(sim, 1, "ok", "hole2", "ok", "ok")                         # the game, one seat more, players, start
    wait_text(board, "#round", "Turn 1")
    assert board.locator("#scores li").count() == 3
    assert sim.locator(".seat:visible").count() == 3


def test_the_dashboard_says_which_seats_are_computers(live_factory, pages):
    box = live_factory("--game", "whakka-mole", "--seats", "3", "--bots", "3=strong")
    board = pages(box.url + "dashboard", PHONE)
    wait_text(board, "#scores li:nth-child(3)", "computer, strong")
    assert board.locator("#scores .bot").count() == 1


def test_mole_from_the_lobby_a_round_reported_by_clicking(live_factory, pages):
    box = live_factory()
    sim, board = pages(box.url), pages(box.url + "dashboard", PHONE)
    click(sim, 1, "hole5")                                           # Mole, the fifth game
    wait_text(board, "#waiting", "Seat 1 is choosing: Mole, 2 seats")
    click(sim, 1, "ok", "ok", "ok")                                  # setup, players (all people), start
    wait_text(board, "#game", "Mole")
    click(sim, 2, "ok", "ok", "ok")                                  # the mignettes: a quiet turn
    assert settled_lamps(sim, box, 1) == ["on", "on", "on", "off", "off"]     # the mole's legal calls
    click(sim, 1, "ok", "hole2", "ok", "ok", "ok")                   # Flick, over the line, no kill, open board
    wait_text(board, "#turns", "Round 1: the mole won, mole over the winning line (1-0)")
    assert board.locator("#scores .points").all_inner_texts() == ["1", "0"]
    assert box.session.state.match.view(None)["state"]["flicker"] == 2


#: game -> (command-line arguments, the first presses of a game, what the dashboard's turn log then says)
OPENINGS = {
    "mole-park": (["--seats", "2"], [(1, "hole1", "ok"), (2, "hole1", "ok")],
                  ["Round 1", "Moles dealt to the holes: 1 1 1 1 1", "Seat 1 rolled the Boxing Glove"]),
    "mole-hill": ([], [(1, "hole4", "ok"), (2, "ok")],
                  ["Move 1", "Seat 1 set the mole down on column 2, row 1", "Seat 2 put a rod east of column 1, row 1"]),
    "mole": ([], [(2, "ok", "ok", "ok"), (1, "ok", "hole2", "ok", "ok", "ok")],
             ["Turn 2", "Seat 2 called a flick for the mignettes, flicked: the mole stayed on the board",
              "Seat 1 called a flick for the mole, flicked: the mole crossed the winning line", "Round 1: the mole won"]),
}


@pytest.mark.parametrize("game", OPENINGS)
def test_the_turn_log_tells_each_game_in_words(live_factory, pages, game):
    """The dashboard's log reads as the game's own moves, never as raw event data."""
    args, presses, said = OPENINGS[game]
    box = live_factory("--game", game, *args)
    sim, board = pages(box.url), pages(box.url + "dashboard", PHONE)
    for seat, *controls in presses:
        settled_lamps(sim, box, seat)
        click(sim, seat, *controls)
    for text in said:
        wait_text(board, "#turns", text)
    log = board.locator("#turns").inner_text()
    assert "{" not in log and "undefined" not in log and "[object" not in log, log


def test_every_lamp_change_reaches_the_page_at_once(live, pages):
    delays = press_to_lamp(pages(live.url, record=True), live, 1)
    # Every press shows, each well inside a second. The median is under 50 ms on a quiet machine (printed); with
    # the browser, the box and the test sharing two cores at load 9 it was 70 ms once in five runs of tests/web:
    # a timed bound would flake there, so the figure is printed, not asserted.
    print(f"press to lamp on the page: median {statistics.median(delays):.1f} ms, max {max(delays):.1f} ms")
    assert max(delays) < 1000, f"press to lamp on the page: {delays} ms"


def _prepare(live_factory, pages, popup: list[int], whack: int) -> tuple[list, list, list]:
    """Seat 1 locks in ``popup`` and ``whack``, seat 2 drafts and commits its pop-up only; then seat 2
    finishes. Returns what a dashboard page got before the reveal, what it got after, and what it knew
    each time the box was quiet before the reveal (one press at a time)."""
    box = live_factory(*GAME)
    sim, board = pages(box.url), pages(box.url + "dashboard", PHONE, record=True)
    knew: list[dict] = []
    presses = [(1, f"hole{h}") for h in popup] + [(1, "ok"), (1, f"hole{whack}"), (1, "ok")]
    for seat, control in presses + [(2, "hole3"), (2, "hole4"), (2, "ok"), (2, "hole2")]:
        click(sim, seat, control)
        quiet(box, sim, board)
        note(knew, board.evaluate("window.__streamed"))
    before = board.evaluate("window.__streamed")
    click(sim, 2, "ok")
    wait_text(board, "#round", "Turn 2")
    quiet(box, sim, board)
    return before, board.evaluate("window.__streamed")[len(before):], knew


def test_the_dashboard_never_receives_a_pick_before_its_reveal(live_factory, pages):
    """Two games that differ only in seat 1's secret picks show the dashboard the same until the reveal."""
    before_a, after_a, knew_a = _prepare(live_factory, pages, popup=[1, 2], whack=3)
    before_b, after_b, knew_b = _prepare(live_factory, pages, popup=[5], whack=4)
    assert {kind for kind, _ in before_a + after_a} == {"state", "turns", "table"}
    assert {"state", "turns", "table"} <= {kind for kind, _ in before_a}
    assert knew_a == knew_b and len(knew_a) > 1
    for kind, data in before_a:
        assert not {"held", "picked", "draft", "popup", "whack"} & set(json.dumps(json.loads(data)).split('"'))
    assert latest(before_a + after_a) != latest(before_b + after_b)     # the reveal does tell them apart


def test_mole_hill_in_the_simulator_by_clicking(live_factory, pages):
    """Both rounds of a short Mole Hill (one light and one dark piece, one rod) clicked on the page."""
    box = live_factory("--game", "mole-hill", "--set", "light_pieces=1", "--set", "dark_pieces=1",
                       "--set", "rods=1")
    sim, board = pages(box.url), pages(box.url + "dashboard", PHONE)
    assert sim.locator(".seat:visible").count() == 2
    assert settled_lamps(sim, box, 1) == ["dim"] * 4 + ["off"]           # the mole places: holes 1-4 move
    click(sim, 1, "hole4", "ok")                                         # the stack on (2, 1)
    assert settled_lamps(sim, box, 2) == ["dim"] * 5                     # the gardener: 5 turns the rod
    click(sim, 2, "ok")                                                  # the rod between (1, 1) and (2, 1)
    settled_lamps(sim, box, 1)
    click(sim, 1, "hole1", "hole1", "ok")                                # (1, 1), across the rod: refused
    sim.wait_for_function(f"({LAMPS_JS})(1).every(lamp => lamp === 'fast')")     # the refusal blinks
    assert box.session.scene().notices[1] == "a rod is in the way"
    shoot(sim, "simulator-mole-hill.png")
    click(sim, 1, "hole4", "hole4", "ok")                                # (3, 1): out of pieces, 1 dark
    click(sim, 2, "ok")
    settled_lamps(sim, box, 1)
    click(sim, 1, "ok")
    settled_lamps(sim, box, 2)
    click(sim, 2, "ok")
    wait_text(board, "#winner", "Seat 1 and Seat 2 won with 1 point!")
    wait_text(board, "#turns", "round 2 over (no pieces left): 1 dark + 0 for flowers = 1")
    assert "undefined" not in board.locator("#turns").inner_text()
    assert board.locator("#scores .points").all_inner_texts() == ["1", "1"]
    assert box.session.state.match.view(None)["winners"] == [1, 2]
    assert settled_lamps(sim, box, 1) == settled_lamps(sim, box, 2) == ["on"] * 5
    shows_the_glass(sim, box, "seat1", "seat2", "table")


def test_mouse_madness_in_the_simulator_and_on_the_dashboard(live_factory, pages):
    """The opening of tests/companion/scripts/mouse-3seat.txt clicked on the page (seed 344, the box rolls):
    S2 jumps S1, S3 lands on S1 and pushes it onto S2, who is pushed into the hole on 7 and falls to 2.
    The dashboard tells it turn by turn and shows each mouse's space."""
    box = live_factory("--game", "mouse-madness", "--seats", "3", "--seed", "344")
    sim, board = pages(box.url), pages(box.url + "dashboard", PHONE)
    assert settled_lamps(sim, box, 2) == ["dim", "dim", "off", "off", "off"]     # stay or jump
    click(sim, 2, "hole2", "ok")
    assert settled_lamps(sim, box, 3) == ["dim", "dim", "dim", "off", "off"]     # push forward, back, jump
    click(sim, 3, "hole1", "ok")
    wait_text(board, "#turns", "Seat 2 was pushed by Seat 3 from 6 to 7, fell through the mouse hole on 7 to 2")
    assert board.locator("#round").inner_text() == "Turn 4"                     # S1 rolled a 5: which way?
    assert board.locator("#scores .points").all_inner_texts() == ["6", "2", "5"]
    turns = board.locator("#turns").inner_text()
    assert "Seat 2 rolled 4, moved from 0 to 4, jumped Seat 1 to 6" in turns and "undefined" not in turns
    assert "Before the first turn" in turns and "Seat 1 rolled 5 for the first turn, went first with 5" in turns
    quiet(box, sim)                                                             # S1's die has landed
    shoot(sim, "simulator-mouse-madness.png")
    shoot(board, "dashboard-mouse-madness.png")
    shows_the_glass(sim, box, "seat1", "seat3", "table")


def test_the_host_unlocks_once_and_a_guessing_phone_cannot_lock_them_out(live_factory, pages):
    box = live_factory(*GAME, lan=True)
    dashboard = box.url + "dashboard"
    phone = box.as_device("127.0.0.3")                   # someone guesses from their own phone
    answers = [phone.post("/api/host/login", {"pin": "00000"}).status for _ in range(6)]
    assert answers == [403] * 5 + [429]
    host = pages(dashboard, PHONE)
    host.fill("#pin", box.guard.pin)
    host.click("#login button")
    wait_text(host, "#host-message", "unlocked")
    assert host.locator("#login").is_hidden() and host.locator("#is-host").is_visible()
    host.click("#end-game")                              # it asks first
    assert host.locator("#confirm-end").is_visible() and box.session.state.ended is None
    host.click("#confirm-end [data-action=end-game]")
    wait_text(host, "#host-message", "done")
    host.wait_for_selector("#ended:not([hidden])")       # and can be taken back
    host.click("#ended [data-action=take-up]")
    host.wait_for_selector("#ended", state="hidden")
    host.reload()                                        # the cookie stays: still the host, no PIN asked
    host.wait_for_function("document.getElementById('status').textContent === 'live'")
    assert host.locator("#login").is_hidden()
    assert "HttpOnly" not in host.evaluate("document.cookie") and host.evaluate("document.cookie") == ""


def test_the_dashboard_tells_the_host_what_the_box_set_aside(live_factory, pages, tmp_path, box_factory):
    journal = tmp_path / "box1.db"                      # the journal the first live box will open
    first = box_factory(seats=2, db=journal)
    first.play("1 hole3\n1 ok\n1 hole2\n1 ok")            # seat 1's secret pick, held
    first.pull_plug()
    journal.with_suffix(".key").unlink()                 # the key file is lost
    box = live_factory()
    page = pages(box.url + "dashboard")
    wait_text(page, "#notes", "could not be resumed")
    assert "set aside" in page.inner_text("#notes") and str(journal) in page.inner_text("#notes")
    shoot(page, "dashboard-alert.png")
    page.click("#dismiss")
    page.locator("#box").wait_for(state="hidden")


def test_the_simulator_draws_the_oleds_at_the_panels_real_size_by_default(live, pages):
    sim = pages(live.url)
    drawn = "i => parseFloat(getComputedStyle(i).width)"
    assert sim.is_checked("#real-size")                                            # a maker judges real sizes
    assert "21.744 × 10.864 mm" in sim.inner_text("#sizing")                       # the 0.96-inch panel's lit area
    css_mm = 96 / 25.4
    assert sim.eval_on_selector("img[data-display=seat1]", drawn) == pytest.approx(21.744 * css_mm, abs=0.05)
    sim.fill("#px-per-mm", "6")                                                    # matched to a card held up
    assert sim.eval_on_selector("#card-bar", drawn) == pytest.approx(85.6 * 6, abs=0.05)
    assert sim.eval_on_selector("img[data-display=table]", drawn) == pytest.approx(21.744 * 6, abs=0.05)
    shoot(sim, "simulator-real-size.png")
    sim.reload()                                                                   # kept for the next visit
    assert sim.is_checked("#real-size")
    assert sim.eval_on_selector("img[data-display=seat2]", drawn) == pytest.approx(21.744 * 6, abs=0.05)
    sim.uncheck("#real-size")                                                      # enlarged, to play by
    assert sim.eval_on_selector("img[data-display=seat1]", drawn) > 250 and sim.locator("#sizing").is_hidden()
    sim.reload()
    assert not sim.is_checked("#real-size")
