"""Any name a table types reaches the screens: every scripted game played with players named in six
scripts draws no fault screen and draws the names (whole, or by their short forms: render/naming.py).

Before the screens' fonts covered them, "Łukasz", "Dvořák", "Nguyễn", "李雷" and "Ада" made every screen
that showed them fault with UnicodeEncodeError (the bitmap font was Latin-1). The names are looked for
on the 2.42" glass, where the screens have room for them.
"""
from __future__ import annotations

import re

import pytest

from companion import scene
from companion.history import clean_name
from companion.render import fault, naming, oled
from tests.companion.scripted import SCRIPTED, SCRIPTS, collecting

NAMES = ["Łukasz Dvořák", "Ελένη", "Ада", "Nguyễn Văn An", "李雷", "Sam", "Zoë", "Ñúñez"]     # seats 1-8


@pytest.mark.parametrize("name", list(SCRIPTED))
def test_a_game_played_with_names_in_six_scripts_draws_them_and_never_faults(box_factory, name):
    box = box_factory(**SCRIPTED[name])
    seats = box.match.header.seats
    names = {seat: NAMES[seat - 1] for seat in range(1, seats + 1)}
    box.name_players(names)
    seen = collecting(box)
    box.play((SCRIPTS / f"{name}.txt").read_text())
    box.session.screens.worker.flush()
    assert not box.session.screens.worker.failing, f"screens that faulted: {box.session.screens.worker.failing}"
    shown = list(seen.values())
    assert not [s for s in shown if s[0] in (fault.broken, fault.paused)]
    drawn = set()
    glass = scene.panel_of("ssd1309")                       # the 2.42" glass: room for names beside the prompt
    for render, *args in shown:
        with oled.recording() as placed:
            render(*args[:-1], glass)
        drawn |= {line for p in placed for line in p["lines"]}
    text = " ".join(drawn)
    for seat, full in names.items():                # whole, or fitted by its width: its first letters and …
        first = full.split()[0]
        assert first in text or any(first[:n] + "…" in text for n in range(2, len(first))), \
            f"{full!r} (seat {seat}) is on no screen of {name}"


def test_a_name_is_kept_composed_as_the_fonts_draw_it():
    assert clean_name("Nguye\u0302\u0303n  ") == "Nguyễn"


TABLE = ["Anna K", "🐭 Mo", "Mary Ann", "Anna L", "Jean-Pierre", "Bartholomew Finn", "Anna Karenina L",
         "Mo"]                                                                      # seats 1-8
PANELS = [scene.panel_of(driver) for driver in ("ssd1306", "sh1106", "ssd1309")]     # 0.96", 1.3", 2.42"


def test_a_line_names_a_player_whole_and_where_it_has_no_room_by_a_form_the_table_tells_apart():
    view = {"names": dict(zip("12345678", TABLE))}
    said = {seat: naming.who(view, seat) for seat in range(1, 9)}
    assert [s.replace("\N{NO-BREAK SPACE}", " ") for s in said.values()] == TABLE
    line = ", ".join(said.values())
    assert naming.shortened(line) == line                                       # no screen being drawn: whole
    with naming.shortening(naming.shorts(view)):                                # drawn for this table
        short = naming.shortened(line)
    assert short.replace("\N{NO-BREAK SPACE}", " ") == \
        "Anna K., 🐭 Mo, Mary, Anna L., Jean-Pierre, Bartholomew, Anna K. L., Mo"   # "Mo" is seat 8's
    assert naming.listed(view, (2, 3)).replace("\N{NO-BREAK SPACE}", " ") == "🐭 Mo, Mary Ann"
    assert naming.listed(view, range(1, 9)) == short                            # eight whole names: too long a row
    assert [naming.title(view, seat) for seat in (1, 2, 6)] == [("Anna K", "Anna K.", "Seat 1"),
                                                                ("🐭 Mo", "Seat 2"),
                                                                ("Bartholomew Finn", "Bartholomew", "Seat 6")]
    alone = {"names": {"1": "Anna K", "2": "🐭 Mo"}}
    assert [naming.short(alone, seat) for seat in (1, 2, 3)] == ["Anna", "Mo", "Seat 3"]   # an emoji alone is no name


def test_a_screen_is_drawn_with_its_own_table_s_short_forms_whatever_another_screen_said_meanwhile():
    here = {"names": {"1": "Anna K", "2": "Anna L"}}
    line = f"{naming.who(here, 1)} hit {naming.who(here, 2)}"
    elsewhere = {"names": {"1": "Anna K"}}                  # another screen, described meanwhile (another thread)
    assert naming.who(elsewhere, 1) == naming.who(here, 1)
    assert naming.shorts(elsewhere) == (("Anna\N{NO-BREAK SPACE}K", "Anna"),)      # there, "Anna" is enough
    with naming.shortening(naming.shorts(here)):
        assert naming.shortened(line).replace("\N{NO-BREAK SPACE}", " ") == "Anna K. hit Anna L."


def test_a_line_too_long_with_the_names_whole_is_drawn_with_their_short_forms_not_cut():
    view = {"names": {"1": "Bartholomew Finn", "2": "Anna K", "3": "Anna L"}}
    line = f"{naming.who(view, 1)} hit {naming.who(view, 2)}"
    with naming.shortening(naming.shorts(view)):
        drawn = {panel.name: " ".join(oled.fitted(oled.face(panel, "body"), line, 124, lines=2)[0]) for panel in PANELS}
    assert {k: v.replace("\N{NO-BREAK SPACE}", " ") for k, v in drawn.items()} == {
        '0.96"': "Bartholomew hit Anna K.", '1.3"': "Bartholomew Finn hit Anna K", '2.42"': "Bartholomew Finn hit Anna K"}


@pytest.mark.parametrize("name", list(SCRIPTED))
def test_every_glass_names_each_player_whole_or_by_a_form_no_other_player_has(box_factory, name):
    """A name is never its first word alone where another player's starts with it too ("Anna" of "Anna K" and
    "Anna L"), never an emoji alone ("🐭" of "🐭 Mo"), never cut mid-word ("Jean-Pi…")."""
    box = box_factory(**SCRIPTED[name])
    names = {seat: TABLE[seat - 1] for seat in range(1, box.match.header.seats + 1)}
    box.name_players(names)
    seen = collecting(box)
    box.play((SCRIPTS / f"{name}.txt").read_text())
    box.session.screens.worker.flush()
    view = {"names": {str(seat): n for seat, n in names.items()}}
    forms = {form for seat, full in names.items() for form in (full, naming.short(view, seat))}
    for panel in PANELS:
        drawn = []
        for render, *args in seen.values():
            with oled.recording() as placed:
                render(*args[:-1], panel)
            drawn += [line.replace("\N{NO-BREAK SPACE}", " ") for p in placed for line in p["lines"]]
        text = "\n".join(drawn)
        for seat, full in names.items():
            starts = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(full.split()[0])}(?!\w)", text)]
            wrong = [text[i:i + len(full) + 2] for i in starts if not any(text.startswith(f, i) for f in forms)]
            assert not wrong, f"{panel.name} {name}: {full!r} drawn as {wrong[:3]}"
            cut = [w[:k] + "…" for w in full.split() for k in range(1, len(w)) if w[:k] + "…" in text]
            assert not cut, f"{panel.name} {name}: {full!r} cut to {cut}"
