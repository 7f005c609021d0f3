"""How to play where a table first meets a game, in chromium: a phone seat opens it in one tap, in the lobby for the
game seat 1 has chosen and in play for the game in play, and closes it again; the TV tells it before the first turn
is over, whole and readable, and no longer after it."""
from __future__ import annotations

import pytest

from companion.render import how, turns, tv
from companion.words import say
from rules import bots, registry
from tests.waiting import wait_for

from .browsing import click, quiet, shoot
from .layout import THUMB_PX, laid_out
from .test_tv import CAP_PX, GAMES, SIDEWAYS, SIZES, phone, play_until, room
from .test_words import PHONES

VIEWPORTS = {**PHONES, "844x390": SIDEWAYS}


def reads_how_to_play(page, game: str, title: str) -> None:
    """The seat's button, named for what it does, opens how to play ``game`` in place of the seat, every word of it
    from the box (:func:`companion.render.how.told`), laid out right; closed, the seat is back."""
    opener = page.get_by_role("button", name=say("Show how to play {game}", game=title))
    opener.click()
    panel = page.locator("#how")
    panel.wait_for()
    said = how.told(game)
    assert panel.locator("h2").inner_text() == say("How to play {game}", game=title)
    assert panel.locator(".theme").inner_text() == said["theme"]
    assert [panel.locator(f"{tag} li").all_inner_texts() for tag in ("ul", "ol")] == [said["scoring"], said["turn"]]
    shown = panel.inner_text()
    assert all(words in shown for words in (said["goal"], said["buttons"], said["size"]))
    assert panel.locator("dt").all_inner_texts() == [word["term"] for word in said["jargon"]]
    assert panel.locator("dd").all_inner_texts() == [word["means"] for word in said["jargon"]]
    assert not page.locator(".seat").is_visible() and not page.locator("#room").is_visible()
    laid_out(page, scrolls=True, thumb=THUMB_PX)
    page.get_by_role("button", name=say("Back to the seat")).click()
    page.locator(".seat").wait_for()
    assert not panel.is_visible() and opener.evaluate("(el) => el === document.activeElement")


@pytest.mark.parametrize("size", VIEWPORTS)
def test_a_phone_seat_reads_how_to_play_in_one_tap_in_the_lobby_and_in_play(live_factory, pages, size):
    box = live_factory("--panels", "0", "--phones", "2", "--seed", "5")
    seat1 = phone(lambda url, viewport, touch: pages(url, viewport, touch=touch), box, 1, VIEWPORTS[size])
    lobby = box.session.state.lobby
    titles = box.session.public()["lobby"]["games"]
    reads_how_to_play(seat1, lobby.games[0], titles[0])                  # the game seat 1 has chosen so far
    chosen = list(VIEWPORTS).index(size) % len(lobby.games)             # another game at each size
    click(seat1, 1, f"hole{chosen + 1}")
    reads_how_to_play(seat1, lobby.games[chosen], titles[chosen])       # told as seat 1 chooses
    click(seat1, 1, "ok", "ok", "ok")
    assert wait_for(lambda: box.session.public()["mode"] == "play")
    reads_how_to_play(seat1, lobby.games[chosen], titles[chosen])       # and in play


# The TV's turn blocks as drawn: each block's title and its sentences, each whether it is whole on the screen.
READ_THE_STORY = """
() => {
  const onScreen = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; };
  return [...document.querySelectorAll("#tv-story .turn")].map((block) => ({
    title: block.querySelector("h3").textContent,
    lines: [...block.querySelectorAll("p")].map((p) => [p.textContent, onScreen(p)])}));
}
"""


@pytest.mark.parametrize("game", GAMES)
def test_the_tv_tells_how_to_play_whole_before_the_first_turn_is_over_and_then_no_longer(live_factory, pages, game):
    box = live_factory("--game", game, "--seats", str(registry.game_class(game).min_seats), "--seed", "5")
    said = how.told(game)
    taught = {"title": say("How to play"), "lines": [said["theme"], said["goal"], *said["turn"], *said["scoring"]]}
    tvs = {size: pages(box.url + "tv", viewport, record=True) for size, viewport in SIZES.items()}
    for size, page in tvs.items():
        page.locator("#tv-story .turn h3", has_text=taught["title"]).wait_for()
        story = page.evaluate(READ_THE_STORY)
        assert {"title": story[0]["title"], "lines": [line for line, _ in story[0]["lines"]]} == taught, size
        assert all(seen for _, seen in story[0]["lines"]), (size, story[0]["lines"])
        cap = laid_out(page, scrolls=False)
        assert cap >= CAP_PX * SIZES[size]["height"] / 1080, f"{game} at {size}: capitals {cap:.1f} px"
    if game == "mole":                                                  # the longest to tell
        shoot(tvs["1080"], "tv-mole-how-to-play-1080.png")

    def press(seat: int, controls: list[str]) -> None:
        box.tap(seat, *controls)
        box.quiet()
    seats = tuple(range(1, registry.game_class(game).min_seats + 1))
    play_until(box, lambda: not any(turn.get("teaching") for turn in room(box)["turns"]), seats, press)
    for size, page in tvs.items():
        quiet(box, page)
        page.locator("#tv-story .turn h3", has_text=taught["title"]).wait_for(state="detached")
        page.locator("#tv-moment").wait_for(state="hidden")            # a reveal's moment is over: the board again
        assert page.locator("#tv.teaching").count() == 0 and page.locator("#tv-board").is_visible(), size
        laid_out(page, scrolls=False)


def test_a_phone_seat_s_hint_button_shows_the_strong_computer_s_pick_on_its_own_screen_alone(live_factory, pages):
    """A taught Whakka Mole to 12 on two phones: each seat's how to play says 12 (the match's own figure); seat 1's
    Hint button holds hole 5 as a panel would, and its own screen alone shows the pick, OK taking it."""
    box = live_factory("--game", "whakka-mole", "--seats", "2", "--panels", "0", "--phones", "2", "--set", "target=12")
    at = {seat: phone(lambda url, viewport, touch: pages(url, viewport, touch=touch), box, seat, PHONES["360x640"])
          for seat in (1, 2)}
    at[1].get_by_role("button", name=say("Show how to play {game}", game="Whakka Mole")).click()
    assert how.told("whakka-mole", {"target": 12})["goal"] in at[1].locator("#how").inner_text()
    shoot(at[1], "phone-how-to-play.png")
    at[1].get_by_role("button", name=say("Back to the seat")).click()
    at[2].locator(".seat .screen .prompt", has_text=say("Which holes pop up?")).wait_for()   # the goal's moment over
    other = at[2].locator(".seat .screen").inner_text()
    at[1].get_by_role("button", name=say("Hint: show the strong computer player's pick on this seat's screen")).click()
    hinted = say("Hint: the strong computer's pick. OK takes it")
    at[1].locator(".seat .screen", has_text=hinted).wait_for()
    shoot(at[1], "phone-taught-hint.png")
    match = box.session.state.match
    strong = bots.make(match.game, 1, "strong", box.session.state.seed)
    picked = sorted(strong.choose(match.view(1), match.decisions_for(1)[0]))
    assert sorted(box.session.state.drafts[1].value) == picked          # the strong computer's, whatever the tap made it
    assert hinted not in at[2].locator("body").inner_text()
    assert at[2].locator(".seat .screen").inner_text() == other
    click(at[1], 1, "ok")
    assert wait_for(lambda: box.session.state.match.held.get(1, {}).get("popup") == tuple(picked))
    laid_out(at[1], scrolls=True, thumb=THUMB_PX)


def test_the_turns_the_streams_send_explain_each_of_the_rules_own_words_once_as_the_whole_log_told_does(live_factory):
    """Mole played press by press, the streams' turns told a turn at a time as the log grows: each word of the rules
    (Nasdaq, mignettes...) explained once, where it was first said, as the whole log told at once explains it."""
    box = live_factory("--game", "mole", "--seats", "2", "--seed", "5")

    def press(seat: int, controls: list[str]) -> None:
        box.press(seat, *controls)
        box.quiet()
    play_until(box, lambda: len(box.site.hub.turns) >= 4, (1, 2), press)
    public = box.session.public()
    whole = turns.told(tv.named(public), public["log"])
    assert box.site.hub.turns == whole and sum(len(turn["terms"]) for turn in whole) >= 3
    shown = room(box)["turns"]
    assert shown == whole[-len(shown):]
