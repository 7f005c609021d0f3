"""The TV view and the phone seat page in chromium, at the sizes they are used at: every game from the lobby
to its first scored turn on two phones (one upright with touch, one on its side), and the TV at 1080p and
720p telling the room each game's players, scores and board, in words and shapes, nothing cut or overlapping,
the smallest words about 30 px of capitals at 1080p (16 minutes of arc from 3 m on a 40-inch set).

Screenshots of every game's TV view at both sizes and of its phone page come from here (``make screenshots``
writes them, and the other pages', into docs/screenshots).
"""
from __future__ import annotations

import random

import pytest

from companion.render import turns, tv
from rules import registry
from tests.presses import presses_for
from tests.random_play import random_answer
from tests.waiting import wait_for

from .browsing import click, quiet, shoot, wait_text
from .conftest import GAME
from .layout import THUMB_PX, laid_out
from .test_http import WINNING_GAME
from .test_seats import described

TVS = {"1080": {"width": 1920, "height": 1080}, "720": {"width": 1280, "height": 720}}
UPRIGHT, SIDEWAYS = {"width": 390, "height": 844}, {"width": 844, "height": 390}
CAP_PX = 29.5                       # the smallest capitals on a 1080p TV (about 30 px)
DECISIONS = 60                      # a first scored turn takes fewer; more means the game is stuck
GAMES = registry.ids()               # every game, a new one too: each must be told on the TV and played on phones

# Counts the page's drawing: mutations of its document and animation frames asked for, from its first script on.
COUNT_DRAWING = """
window.__drawn = 0;
new MutationObserver((changes) => { window.__drawn += changes.length; })
  .observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
const frame = window.requestAnimationFrame;
window.requestAnimationFrame = (callback) => { window.__drawn++; return frame(callback); };
"""

# Records the sounds the page makes: each tone's frequency, instead of playing it.
RECORD_SOUND = """
window.__tones = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const tone = {frequency: {value: 0}, connect: (next) => next, start: () => window.__tones.push(tone.frequency.value),
                  stop: () => {}};
    return tone;
  }
  createGain() {
    const node = {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: (next) => next};
    return node;
  }
};
"""


@pytest.fixture
def devices(pages):
    """``devices(url, viewport, *scripts, touch=False)``: :func:`pages` with its streams recorded."""
    return lambda url, viewport, *scripts, touch=False: pages(url, viewport, *scripts, touch=touch, record=True)


def phone(devices, box, seat: int, viewport: dict):
    """A phone with a touch screen joining ``seat`` by its code's address (the QR code's), on the seat's page
    once it is live."""
    page = devices(box.url + "J/" + box.site.phones.codes[seat], viewport, touch=True)
    page.wait_for_url(f"**/seat/{seat}")
    page.wait_for_function("document.getElementById('status').textContent === 'live'")
    return page


def room(box) -> dict:
    """The room's description of the table now, as a TV opened now is sent it."""
    return box.now("/api/tv/events")["tv"]


def scored(box) -> bool:
    """Whether the game's first turn (or round) is over: revealed, the next begun, or the game ended."""
    public = box.session.public()
    if public["mode"] != "play":
        return False
    told = [turn for turn in turns.told(tv.named(public), public["log"]) if turn["title"] != "Before the first turn"]
    return any(turn["reveal"] for turn in told) or len(told) > 1 or public["view"]["over"]


def play_until(box, done, seats: tuple[int, ...], press) -> None:
    """Each of ``seats`` answers what the rules ask of it (``press(seat, controls)``, then the box quiet), until
    ``done()``."""
    rng = random.Random(5)
    for _ in range(DECISIONS):
        if done():
            return
        match = box.session.state.match
        seat, decision = next((s, d) for s in seats for d in match.decisions_for(s))
        press(seat, presses_for(decision, random_answer(decision, rng)))
    raise AssertionError(f"not done after {DECISIONS} decisions: {room(box)['turns']}")


def play_the_first_turn(box, at: dict) -> None:
    """Each seat answers what the rules ask of it on its own phone, until the first turn is scored."""
    def press(seat: int, controls: list[str]) -> None:
        click(at[seat], seat, *controls)
        quiet(box, *at.values())
    quiet(box, *at.values())
    play_until(box, lambda: scored(box), tuple(at), press)


def board_shapes(page, game: str, board: dict) -> tuple[dict, dict]:
    """The board's shapes on the page, counted, beside what the table's board data says there must be."""
    count = lambda selector: page.locator(f"#tv-board svg {selector}").count()      # noqa: E731
    if game == "whakka-mole":
        tokens = page.eval_on_selector_all("#tv-board .sheet-hole", "gs => gs.map(g => Number(g.dataset.tokens))")
        return {"tokens": tokens}, {"tokens": [t for sheet in board["sheets"] for t in sheet]}
    if game == "mole-hill":
        return ({"spaces": count("circle.space") + count("circle.centre"), "rods": count(".rod"),
                 "flowers": count(".flower"), "pieces": count(".piece"), "mole": count(".mole")},
                {"spaces": board["cols"] * board["rows"], "rods": len(board["rods"]),
                 "flowers": len(board["flowers"]), "pieces": len(board["trail"]), "mole": int(bool(board["position"]))})
    if game == "mouse-madness":
        mice = page.eval_on_selector_all("#tv-board .token", "gs => gs.map(g => Number(g.dataset.mice))")
        return ({"spaces": count("g.space"), "mice": sum(mice)},
                {"spaces": board["length"] + 1, "mice": len(board["positions"])})
    if game == "mole-park":
        moles = page.eval_on_selector_all("#tv-board .park-hole", "gs => gs.map(g => Number(g.dataset.moles))")
        return ({"moles": moles, "stands": count(".stand"), "track": count(".track")},
                {"moles": board["holes"], "stands": len(board["stands"]), "track": len(board["track"])})
    if game == "mole":
        return ({"pips": count(".pip"), "won": count(".pip.won"), "mignettes": count(".mignette")},
                {"pips": board["target"] * len(board["scores"]), "won": sum(board["scores"]),
                 "mignettes": board["count"]})
    raise AssertionError(f"{game}: say here which of its board's shapes the TV must draw, from its board data")


def tells_the_room(page, box, game: str) -> float:
    """The TV page tells what the room's description says: the game, each player's whole name and score as
    text, the board's shapes; laid out right. Returns its smallest capitals' height in px."""
    told = room(box)
    wait_text(page, "#tv-title", told["title"])
    for player in told["players"]:
        row = page.locator(f'#tv-players li[data-seat="{player["seat"]}"]')
        assert row.locator(".name").inner_text() == player["name"]
        assert row.locator(".figure").inner_text() == player["score"]
    found, wanted = board_shapes(page, game, told["screen"]["board"])
    assert found == wanted, game
    return laid_out(page, scrolls=False)


def at_its_place(page, box, seat: int) -> None:
    """A phone seat's page shows its own screen in words, its buttons at thumb size, the table under them."""
    quiet(box, page)
    screen = described(box, f"seat{seat}")
    wait_text(page, ".seat .screen .prompt", screen["prompt"])
    assert page.locator(".seat .screen .options .words").all_inner_texts() == [o["words"] for o in screen["options"]]
    told = room(box)
    assert page.locator("#room").is_visible() == (told["mode"] == "play")             # the lobby: seat 1's menu alone
    assert page.locator("#room-players .name").all_inner_texts() == [p["name"] for p in told.get("players", [])]
    laid_out(page, scrolls=True, thumb=THUMB_PX)


@pytest.mark.parametrize("game", GAMES)
def test_each_game_from_the_lobby_to_its_first_scored_turn_on_phones_and_on_the_tv(live_factory, devices, game):
    box = live_factory("--panels", "0", "--phones", "2", "--seed", "5")
    upright = phone(devices, box, 1, UPRIGHT)                               # seat 1 chooses the game
    at_its_place(upright, box, 1)
    click(upright, 1, f"hole{box.session.state.lobby.games.index(game) + 1}", "ok", "ok", "ok")
    assert wait_for(lambda: box.session.public()["mode"] == "play")  # it waits for seat 2's phone
    at = {1: upright, 2: phone(devices, box, 2, SIDEWAYS)}
    play_the_first_turn(box, at)
    for seat, page in at.items():
        at_its_place(page, box, seat)
    shoot(upright, f"phone-{game}.png")
    upright.reload()                                                        # a phone that reloads...
    upright.wait_for_function("document.getElementById('status').textContent === 'live'")
    at_its_place(upright, box, 1)                                           # ... comes back to the same place
    for size, viewport in TVS.items():
        page = devices(box.url + "tv", viewport)
        cap = tells_the_room(page, box, game)
        assert cap >= CAP_PX * viewport["height"] / 1080, f"{game} at {size}: capitals {cap:.1f} px"
        shoot(page, f"tv-{game}-{size}.png")


def test_the_tv_names_three_players_their_game_and_scores_after_one_whakka_mole_turn_with_the_reveal_a_moment(
        live_factory, devices):
    box = live_factory("--game", "whakka-mole", "--seats", "3", "--set", "target=12")
    names = {1: "Ada Lovelace", 2: "Bo", 3: "Grace Hopper"}
    for seat, name in names.items():
        assert box.post("/api/names", {"seat": seat, "name": name}).status == 200
    quiet_tv = devices(box.url + "tv", TVS["1080"], RECORD_SOUND)
    loud_tv = devices(box.url + "tv?sound=on", TVS["720"], RECORD_SOUND)
    wait_text(quiet_tv, "#tv-players", "Grace Hopper")
    assert quiet_tv.locator("#sound").inner_text() == "Sound off"             # off unless the host turns it on
    box.tap(1, "hole1", "ok", "hole5", "ok")
    box.tap(2, "hole2", "ok", "hole1", "ok")
    box.tap(3, "hole3", "ok", "hole2", "ok")
    for page in (quiet_tv, loud_tv):                                         # everyone's picks together...
        page.locator("#tv-moment .picks li").nth(2).wait_for()
        assert page.locator("#tv-moment .picks .name").all_inner_texts() == list(names.values())
        page.locator("#tv-moment.told .outcome p").first.wait_for()          # ... then what they did
    assert quiet_tv.evaluate("window.__tones") == [] and loud_tv.evaluate("window.__tones") == [880, 880]
    quiet(box, quiet_tv, loud_tv)
    told = room(box)
    assert told["turns"] and told["players"][1]["score"] != "0"
    assert quiet_tv.locator("#tv-title").inner_text() == "Whakka Mole"
    for player in told["players"]:
        row = quiet_tv.locator(f'#tv-players li[data-seat="{player["seat"]}"]')
        assert (row.locator(".name").inner_text(), row.locator(".figure").inner_text()) == (
            names[player["seat"]], player["score"])
    resting = devices(box.url + "tv", TVS["1080"], COUNT_DRAWING)       # no moment: the board
    wait_text(resting, "#tv-players", "Grace Hopper")
    drawn = resting.evaluate("window.__drawn")
    box.tap(1, "hole4")                                                       # a draft: nothing the room may see
    quiet(box, resting)
    assert resting.evaluate("window.__drawn") == drawn                       # so the TV draws nothing
    assert resting.evaluate("document.getAnimations().length") == 0          # and nothing moves at rest


def test_the_tv_tells_the_end_and_its_winner_with_the_end_s_cue(live_factory, devices):
    box = live_factory(*GAME)
    assert box.post("/api/names", {"seat": 2, "name": "Bo Diddley"}).status == 200
    page = devices(box.url + "tv?sound=on", TVS["720"], RECORD_SOUND)
    for seat, control in WINNING_GAME:
        box.tap(seat, control)
    wait_text(page, "#tv-prompt", "Bo Diddley wins")
    assert page.locator("#tv.over").count() == 1
    assert page.locator('#tv-players li[data-seat="2"] .doing').inner_text() == "won"
    assert wait_for(lambda: page.evaluate("window.__tones")[-3:] == [660, 880, 1320])    # three rising: the end


def test_an_undo_is_news_on_the_tv_and_a_phone_s_table_as_on_the_table_display(live_factory, devices):
    """The host takes a lock-in back: the room is told who did what, in words, rather than seeing a turn vanish."""
    box = live_factory(*GAME)
    tv = devices(box.url + "tv", TVS["720"])
    for control in ("hole1", "ok"):
        box.tap(1, control)
    assert wait_for(lambda: box.session.state.match.seat_records() == 1)
    assert box.post("/api/host/undo").status == 200
    wait_text(tv, "#tv-prompt", "Undone: ")
    said = tv.locator("#tv-prompt").inner_text()
    assert said.startswith("Undone: ") and len(said) > len("Undone: ") + 10, said       # who undid what, in words


def test_the_tv_draws_mole_park_s_star_track_while_prizes_are_picked(live_factory, devices):
    box = live_factory("--game", "mole-park", "--seats", "2", "--seed", "5")

    def press(seat: int, controls: list[str]) -> None:
        box.tap(seat, *controls)
        box.quiet()
    box.quiet()
    play_until(box, lambda: box.session.public()["view"]["state"]["track"], (1, 2), press)
    page = devices(box.url + "tv", TVS["1080"])
    assert tells_the_room(page, box, "mole-park") >= CAP_PX                    # the track's shapes counted too
    assert page.locator("#tv-board .track").count() > 0
    shoot(page, "tv-mole-park-star-track-1080.png")


LONGEST_NAMES = ["Wilhelmina Moore", "Maximilian Kraus", "Bartholomew Finn", "Anastasia Volkov", "Christophe Lemay",
                 "Guinevere Ashby", "Konstantin Ilyin", "Evangeline Price"]     # 16 letters: the most a name has


@pytest.mark.parametrize("game", [game for game in GAMES if registry.game_class(game).max_seats > 2])
def test_the_tv_holds_a_full_table_of_the_longest_names_at_either_size(live_factory, devices, game):
    seats = registry.game_class(game).max_seats
    box = live_factory("--game", game, "--seats", str(seats), "--seed", "5")
    for seat in range(1, seats + 1):
        assert box.post("/api/names", {"seat": seat, "name": LONGEST_NAMES[seat - 1]}).status == 200
    for size, viewport in TVS.items():
        page = devices(box.url + "tv", viewport)
        cap = tells_the_room(page, box, game)
        assert cap >= CAP_PX * viewport["height"] / 1080, f"{game} for {seats} at {size}: capitals {cap:.1f} px"


TABLE_NAMES = {1: "🐭 Mo", 2: "Mary Ann", 3: "Jean-Pierre", 4: "Anna K", 5: "Anna L", 6: "Evangeline Price"}


def test_the_tv_and_a_phone_name_each_player_whole_or_by_a_form_the_others_do_not_share(live_factory, devices):
    """The players' list has every name whole; the board's name column too where the name fits it, else its short
    form ("Evangeline"), never its first word where that is an emoji ("🐭") or another player's ("Anna")."""
    box = live_factory("--game", "whakka-mole", "--seats", str(len(TABLE_NAMES)), "--panels", "0", "--phones", "6")
    for seat, name in TABLE_NAMES.items():
        assert box.post("/api/names", {"seat": seat, "name": name}).status == 200
    expected = list(TABLE_NAMES.values())[:-1] + ["Evangeline"]
    tv = devices(box.url + "tv", TVS["720"])
    wait_text(tv, "#tv-players", "Evangeline Price")
    mobile = phone(devices, box, 1, UPRIGHT)
    wait_text(mobile, "#room-players", "Evangeline Price")
    for page, players, board in ((tv, "#tv-players", "#tv-board"), (mobile, "#room-players", "#room-board")):
        assert page.locator(f"{players} .name").all_inner_texts() == list(TABLE_NAMES.values())
        assert page.locator(f"{board} text.who").all_text_contents() == expected
        room_w = page.evaluate(f"""Math.max(...[...document.querySelectorAll('{board} text.who')]
                                   .map((t) => t.getComputedTextLength()))""")
        assert room_w <= 300, f"a name runs into the holes: {room_w:.0f} of the column's 300 units"


# Reads, at each change of the page while a reveal's moment shows, what the room sees: the picks shown, the
# outcome's sentences, the prompt, the scores and the last turns, and when.
READ_THE_MOMENT = """
window.__read = [];
new MutationObserver(() => {
  const box = document.getElementById("tv-moment");
  if (!box || box.hidden) return;
  const texts = (selector) => [...document.querySelectorAll(selector)]
    .filter((el) => getComputedStyle(el).visibility === "visible").map((el) => el.textContent);
  window.__read.push({picks: texts("#tv-moment .picks li").length, outcome: texts("#tv-moment .outcome p"),
                      prompt: document.getElementById("tv-prompt").textContent, scores: texts("#tv-players .figure"),
                      story: document.getElementById("tv-story").textContent, at: performance.now()});
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""


def test_a_whakka_mole_reveal_shows_the_picks_alone_and_then_what_they_did(live_factory, devices):
    box = live_factory("--game", "whakka-mole", "--seats", "3")
    for seat, name in {1: "Ada Lovelace", 2: "Bo", 3: "Grace Hopper"}.items():
        assert box.post("/api/names", {"seat": seat, "name": name}).status == 200
    page = devices(box.url + "tv", TVS["1080"], READ_THE_MOMENT)
    box.tap(1, "hole1", "ok", "hole5", "ok")
    box.tap(2, "hole2", "ok", "hole1", "ok")
    quiet(box, page)
    wait_text(page, "#tv-prompt", "Waiting for Grace")
    read = lambda: {"prompt": page.locator("#tv-prompt").text_content(),          # noqa: E731
                    "scores": page.locator("#tv-players .figure").all_text_contents(),
                    "story": page.locator("#tv-story").text_content()}
    before = read()
    box.tap(3, "hole3", "ok", "hole2", "ok")
    page.locator("#tv-moment .outcome p").first.wait_for()
    quiet(box, page)
    seen = page.evaluate("window.__read")
    alone = [moment for moment in seen if moment["picks"] == 3 and not moment["outcome"]]
    told = [moment for moment in seen if moment["outcome"]]
    assert alone and told and alone[-1]["at"] <= told[0]["at"]                  # the picks, then what they did
    for moment in alone:                                                         # nothing gives the outcome away
        assert {key: moment[key] for key in before} == before, moment
    assert told[0]["at"] - alone[0]["at"] >= 1000                                # the picks are read alone a while
    after, now = read(), room(box)
    assert after["prompt"] == now["screen"]["prompt"] != before["prompt"]        # then the outcome: who hit whom,
    assert after["scores"] == [p["score"] for p in now["players"]] != before["scores"]      # the scores,
    assert told[0]["outcome"] == now["turns"][-1]["lines"] and "Turn 1" in after["story"]  # and the turn in words
    assert {key: told[0][key] for key in before} == after


SIZES = {**TVS, "4k": {"width": 3840, "height": 2160}}
CROWD = ["Wilhelmina Moore", "Maximilian Kraus", "Bartholomew Finn", "Pierstonehaugens", "Christophe Lemay",
         "Guinevere Ashby", "Konstantin Ilyin", "Evangeline Price"]     # 16 letters each, one of them a single word

# Each player's row as the TV shows it: the name's words and whether they fit their box, what it is doing and
# whether that is on the screen; and each sentence of the latest turn, whether it is on the screen.
READ_THE_ROOM = """
() => {
  const onScreen = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1; };
  const players = [...document.querySelectorAll("#tv-players li")].map((row) => {
    const name = row.querySelector(".name"), doing = row.querySelector(".doing");
    return {name: name.textContent, fits: name.scrollWidth <= name.clientWidth && onScreen(name),
            doing: doing ? doing.textContent : "", seen: Boolean(doing) && onScreen(doing)};
  });
  const latest = document.querySelector("#tv-story .turn");
  return {players, title: latest && latest.querySelector("h3").textContent,
          lines: latest ? [...latest.querySelectorAll("p")].map((p) => [p.textContent, onScreen(p)]) : []};
}
"""


@pytest.mark.parametrize(("game", "seats"), [("whakka-mole", 7), ("whakka-mole", 8), ("mole-park", 8)])
def test_seven_or_eight_players_on_the_tv_each_whole_with_what_they_are_doing_and_the_latest_turn_whole(
        live_factory, devices, game, seats):
    box = live_factory("--game", game, "--seats", str(seats), "--seed", "5")
    names = dict(enumerate(CROWD[:seats], 1))
    for seat, name in names.items():
        assert box.post("/api/names", {"seat": seat, "name": name}).status == 200

    def press(seat: int, controls: list[str]) -> None:
        box.tap(seat, *controls)
        box.quiet()
    play_until(box, lambda: any(turn["reveal"] for turn in room(box)["turns"]), tuple(names), press)
    pages = {size: devices(box.url + "tv", viewport) for size, viewport in SIZES.items()}
    for lock_in in (False, True):                    # just after the reveal, then with one player locked in
        rng = random.Random(1)
        while lock_in and not box.session.state.match.locked(1) and box.session.state.match.decisions_for(1):
            press(1, presses_for(decision := box.session.state.match.decisions_for(1)[0], random_answer(decision, rng)))
        quiet(box, *pages.values())
        told = room(box)
        latest = told["turns"][-1]
        for size, page in pages.items():
            page.wait_for_function("prompts => prompts.includes(document.getElementById('tv-prompt').textContent)",
                                   arg=told["screen"]["prompts"])
            shown = page.evaluate(READ_THE_ROOM)
            for player, row in zip(told["players"], shown["players"]):
                assert row["fits"] and row["name"] in (player["name"], player["name"].split()[0]), (size, row)
                assert row["doing"] == player["doing"] != "" and row["seen"], (size, row)
            assert shown["title"] == latest["title"], size
            sentences = len(latest["lines"]) - latest.get("why", 0)          # a taught turn's why lines, as room allows
            lines = [line for line, _ in shown["lines"]]
            assert lines == latest["lines"][:len(lines)] and len(lines) >= sentences, (size, shown["lines"])
            assert all(seen for _, seen in shown["lines"]), (size, shown["lines"])
            cap = laid_out(page, scrolls=False)                                 # the board too, if it shows
            assert cap >= CAP_PX * SIZES[size]["height"] / 1080, f"{seats} at {size}: capitals {cap:.1f} px"
    shoot(pages["1080"], f"tv-{game}-{seats}-seats-1080.png")
