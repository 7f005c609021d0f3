"""Every screen the box shows is readable at arm's length on every built-in profile's panel.

Every frame of every scripted game (each distinct screen any display was asked to show while the
script played), the lobby's screens for every game, the host's notices, the fault, PIN and join
screens are drawn again for each panel a built-in wiring profile names, with
:func:`companion.render.oled.recording` on. Each text placed must be on the glass, its ink inside its
box and clear of every other text's; its capitals at least the millimetres its role needs there (the
prompt 20 minutes of arc at 50 cm, every other word 16: :mod:`companion.render.reading`); every option
must start with its button; a prompt or an option is never cut. A screen never changes what it is
given to draw: the box hands every redraw the same view while it is unchanged.

All of it again in the pseudo-locale (companion/words.py: every sentence accented and about 40% longer), where
each word must also have come from the catalogue: a plain English word there was said around it.
"""
from __future__ import annotations

import copy
import re
import sys
from dataclasses import replace

import pytest

from companion import scene, words
from companion.journal import CardFault, short
from companion.words import N_, say
from companion.render import bot, fault, host_pin, join, oled, selftest
from companion.render import describe
from companion.render.reading import cap_mm
from companion.render.screen import Option, first, wordings
from companion.render.fonts import Face
from rules import registry
from tests.companion.scripted import LOBBY_WALKS, NAMES, SCRIPTED, every_lobby_screen, every_screen
from wiring.profile import builtin_names, load

WIDTH, HEIGHT = 128, 64
BUTTON = re.compile(r"^(hold OK|OK|[1-5]([-,][1-5])*)( \S|$)")
CODE = re.compile(r"\bS\d\b|\w\*")       # S1 for seat 1, Ada* for "locked in"
PLAIN = re.compile(r"(?<![\w{/])[A-Za-z]*[a-z][A-Za-z]*(?![\w}])")   # a word the pseudo-locale would have
#                                                                 accented (not a code in capitals, a path)
NAMED = {word for name in (*NAMES.values(), "molebox", *(t for g in registry.games().values()
                                                          for t in (g.title, g.game.short_title)))
         for word in name.split()}
PANELS = sorted({scene.panel_of(spec.driver) for name in builtin_names()
                 for spec in load(name).displays().values()}, key=lambda p: p.mm_per_px)


def test_the_built_in_profiles_name_every_panel_molebox_supports():
    assert [p.name for p in PANELS] == ['0.96"', '1.3"', '2.42"']


def describes(render_fn) -> bool:
    """Whether a drawing has its description beside it (a screen the phones and the TV read too)."""
    return hasattr(sys.modules[render_fn.__module__], f"describe_{render_fn.__name__}")


def problems(shown: tuple, panel) -> list[str]:
    """What is wrong with one screen's words on ``panel``, in words."""
    render_fn, *args = shown
    given = copy.deepcopy(args[:-1])
    with oled.recording() as placed:
        image = render_fn(*args[:-1], panel)
    assert image.size == (WIDTH, HEIGHT)
    out = [] if args[:-1] == given else ["changed what it was given to draw (every redraw is handed the same view)"]
    for i, p in enumerate(placed):
        box, ink, what = p["box"], p["ink"], p["asked"] if isinstance(p["asked"], str) else p["asked"][0]
        least = cap_mm(p["role"])
        if not (0 <= box[0] <= box[2] < WIDTH and 0 <= box[1] <= box[3] < HEIGHT):
            out.append(f"{what!r}: its box {box} runs off the glass")
        if ink and not (box[0] <= ink[0] and ink[2] <= box[2] and box[1] <= ink[1] and ink[3] <= box[3]):
            out.append(f"{what!r}: ink {ink} outside its box {box}")
        for other in placed[i + 1:]:
            theirs = other["ink"]
            if ink and theirs and not (ink[2] < theirs[0] or theirs[2] < ink[0] or ink[3] < theirs[1]
                                       or theirs[3] < ink[1]):
                out.append(f"{what!r} runs into {' '.join(other['lines'])!r}")
        for cap in p["caps"]:
            if cap * panel.mm_per_px < least - 1e-9:
                out.append(f"{what!r} ({p['role']}): capitals {cap} px = {cap * panel.mm_per_px:.2f} mm, "
                           f"under {least:.2f} mm")
        if p["role"] == "option" and not all(BUTTON.match(line) for line in p["lines"]):
            out.append(f"option {p['lines']} does not start with its button")
        if p["role"] in ("prompt", "option", "body") and not p["whole"]:       # body: a title, a status, a line
            out.append(f"{p['role']} {what!r} cut to {p['lines']}")
        if any(CODE.search(line) for line in p["lines"]):
            out.append(f"{' '.join(p['lines'])!r} names a seat by a code, where words belong")
        if words.locale() == words.PSEUDO:
            said = " ".join(p["lines"])
            plain = set(PLAIN.findall(BUTTON.sub(r"\3", said) if p["role"] == "option" else said)) - NAMED
            if plain:
                out.append(f"{said!r}: {', '.join(sorted(plain))} said without the catalogue")
    described = describe(render_fn, tuple(args)) if describes(render_fn) else None
    told = described and described.news                             # the turn's news, until the seat's next press
    if described and described.options and not (described.notice or told) and \
            not any(p["role"] == "option" for p in placed):
        out.append(f"{first(described.prompt)!r}: its buttons ({', '.join(o.button for o in described.options)}) "
                   f"are not shown")
    return [f"{panel.name} {getattr(render_fn, '__module__', '')}.{render_fn.__name__}: {p}" for p in out]


def assert_readable(shown_screens: list[tuple]) -> None:
    assert shown_screens, "no screens to check: a test that cannot fail"
    found = sorted({p for shown in shown_screens for panel in PANELS for p in problems(shown, panel)})
    assert not found, f"{len(found)} layout problems:\n" + "\n".join(found[:400])


def test_every_registered_game_has_a_scripted_game_whose_screens_are_checked():
    """A sixth game is played here (and in the names and turn-telling tests) once it has a press script."""
    assert {scripted["game"] for scripted in SCRIPTED.values()} == set(registry.ids())


@pytest.fixture(params=["en", words.PSEUDO])
def language(request, monkeypatch):
    """Each screen in English, and in the pseudo-locale a longer language would need room like."""
    monkeypatch.setenv(words.ENV, request.param)
    return request.param


@pytest.mark.parametrize("name", list(SCRIPTED))
def test_every_screen_of_a_scripted_game_is_readable(box_factory, name, language):
    assert_readable(every_screen(box_factory, name))


@pytest.mark.parametrize("walk", LOBBY_WALKS)
def test_every_lobby_screen_is_readable(box_factory, walk, language):
    assert_readable(every_lobby_screen(box_factory, walk))


def test_the_box_own_screens_are_readable(language):
    over = {"over": True, "winners": [2], "names": {"2": NAMES[1]}}
    playing = {"over": False, "winners": [], "names": {}}
    url = "http://192.168.1.23:8080/J/4KMBJ"
    statuses = ("locked in", "picks last, secretly", "thinking")       # the scene's keys: the screen says them
    assert_readable([*((bot.seat, view, 2, level, status, notice, None) for view in (over, playing)
                       for level in ("casual", "strong") for status in statuses
                       for notice in ("", (say("stuck: a bot error"), say("stuck")))),
                     (host_pin.screen, "12345", "", None),
                     (host_pin.screen, "12345", "HTTP://192.168.100.100:8080/H/ABCDEFGHJKL", None),
                     (fault.paused, say("IO board gave up on molebox (heard nothing for 1 s)"), None),
                     (fault.storage, say(short(CardFault("", N_("storage read-only")))), None),
                     (fault.note, say("game #12 set aside: key lost or row damaged; kept in the journal"), 3,
                      say("seat 1 OK: got it"), None),
                     (fault.note, say("journal damaged: moved aside, a new one started"), 1, say("OK: got it"), None),
                     (fault.broken, "seat3", None), (fault.parting, None),
                     (join.screen, 2, "4KMBJ", url, "", None),
                     (join.screen, 3, "WWMMW", url, say("1 < seat > 2, OK start"), None),
                     (selftest.card, say("Seat {seat}", seat=2), [say("press {control}", control="hole1"),
                                                                  say("(its lamp is lit)")], None)])


def test_the_rule_fails_the_seven_pixel_words_every_screen_had():
    """Every screen once drew its hints with 7-pixel capitals and its big line with 14: on a 0.96" glass 1.2 mm and
    2.4 mm, under the rules (the check found them in every frame before the screens were described)."""
    def drawn_before(words: str, panel):
        image, draw = oled.canvas()
        oled.text(draw, (0, 20, 127, 44), " ".join("12345"), Face(14), "prompt", align="centre")
        oled.text(draw, (0, 50, 127, 63), words, Face(7), "body")
        return image

    found = problems((drawn_before, "1-5 pop up, OK lock", None), PANELS[0])
    assert any("capitals 7 px = 1.19 mm, under 2.33 mm" in p for p in found), found
    assert any("'1 2 3 4 5' (prompt): capitals 14 px = 2.38 mm, under 2.91 mm" in p for p in found), found


def test_the_join_code_letters_never_touch():
    """Between each two letters of the code a column of dark glass, whatever the letters."""
    for panel in PANELS:
        for code in ("4KMBJ", "WWMMW", "AVAVA"):
            with oled.recording() as placed:
                image = join.screen(1, code, "http://molebox.local:8080/J/" + code, "", panel)
            drawn = next(p for p in placed if p.get("spaced"))
            left, top, right, bottom = drawn["ink"]
            columns = [any(image.getpixel((x, y)) for y in range(top, bottom + 1)) for x in range(left, right + 1)]
            letters = "".join("#" if lit else " " for lit in columns).split()
            assert len(letters) == len(code), (panel.name, code, letters)


def test_the_join_screen_names_the_page_a_phone_opens():
    with oled.recording() as placed:
        join.screen(2, "4KMBJ", "http://192.168.1.23:8080/J/4KMBJ", "", PANELS[-1])
    said = "".join(line for p in placed for line in p["lines"])
    assert "192.168.1.23:8080/join" in said.replace(" ", "") and "/J/" not in said, said


@pytest.mark.parametrize("notice", ["hole 6 cannot be chosen", ("Seat 1 undid your lock-in: pick again",
                                                                 "Seat 1 undid your lock-in")])
def test_a_notice_shows_whole_under_the_question_where_both_fit(box_factory, notice):
    """A refusal, or what changed the seat's game from elsewhere, is read whole on every glass: under the question
    where both fit, else alone for the few seconds it shows (the question comes back with the seat's next press)."""
    box = box_factory(seats=3)
    box.play("1 hole2")
    render, *args = scene.screens(box.session.scene())["seat1"]
    view, entry = args[:2]
    kept = []
    for panel in PANELS:
        with oled.recording() as placed:
            render(view, entry, notice, panel)
        said = {p["role"]: " ".join(p["lines"]) for p in placed}
        assert said["body"] in wordings(notice) and all(p["whole"] for p in placed), (panel.name, said)
        kept.append(said.get("prompt"))
    assert kept[-1] in ("Which holes pop up?", "Which pop up?", "Pop up?"), kept      # the largest glass has room


def test_each_display_is_drawn_for_the_panel_its_profile_names(box_factory):
    box = box_factory(seats=2)
    mixed = replace(box.session.scene(), panels=scene.panels(load("gpio-2-mux")))
    shown = scene.screens(mixed)
    assert [shown[name][-1].name for name in ("seat1", "seat2", "table", "seat3")] == ['1.3"', '1.3"', '2.42"', '0.96"']
    assert all(shown[name][-1] == scene.panel_of("ssd1306") for name in shown if name not in ("seat1", "seat2", "table"))


def test_a_row_of_buttons_offers_only_the_holes_that_answer():
    """Where the holes are named in one row as a range, a hole that would be refused is never in it."""
    holes = tuple(Option(str(h), f"hole {h}") for h in (1, 2, 4))
    face = oled.face(PANELS[0], "option")
    assert [o.button for o in oled._one_row(face, (*holes, Option("OK", "lock in")), 60)][0] == "1,2,4"
    whole = tuple(Option(str(h), f"hole {h}") for h in range(1, 6))
    assert [o.button for o in oled._one_row(face, (*whole, Option("OK", "lock in")), 60)][0] == "1-5"
