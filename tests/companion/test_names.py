"""Any name a table types reaches the screens: every scripted game played with players named in six
scripts draws no fault screen and draws the names (their first words, as the screens name players).

Before the screens' fonts covered them, "Łukasz", "Dvořák", "Nguyễn", "李雷" and "Ада" made every screen
that showed them fault with UnicodeEncodeError (the bitmap font was Latin-1). The names are looked for
on the 2.42" glass, where the screens have room for them.
"""
from __future__ import annotations

import pytest

from companion import scene
from companion.history import clean_name
from companion.render import fault, oled
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
