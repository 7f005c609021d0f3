"""Every scripted game of the box tests, with what its box is built from: one table for tests over them all."""
from __future__ import annotations

import json
from pathlib import Path

from tests.companion.mole_hill_scripts import GAMES as MOLE_HILL
from tests.companion.mole_park_scripts import GAMES as MOLE_PARK
from tests.companion.mole_scripts import GAMES as MOLE
from tests.companion.test_mouse_madness_box import GAMES as MOUSE

SCRIPTS = Path(__file__).parent / "scripts"

#: script name -> box_factory arguments
SCRIPTED = {
    "whakka-3seat": {"game": "whakka-mole", "seats": 3},
    **{name: {"game": "mole", "seats": 2, "seed": seed, "settings": settings} for name, (seed, settings) in MOLE.items()},
    **{name: {"game": "mole-hill", "seats": 2, "settings": settings} for name, (_, settings, _, _) in MOLE_HILL.items()},
    **{name: {"game": "mole-park", "seats": seats, "seed": seed, "dice": mode, "cards": mode}
       for name, (seats, seed, mode, _) in MOLE_PARK.items()},
    **{name: {"game": "mouse-madness", "seats": seats, "seed": seed, "dice": dice}
       for name, (seats, seed, dice) in MOUSE.items()},
}


def collecting(box) -> dict:
    """From now on, every distinct (render function, *arguments) the box asks of any display (the dict grows)."""
    seen: dict = {}
    submit_all = box.session.out.displays.submit_all

    def record(requests):
        for _, render, args, _ in requests:
            seen.setdefault(render.__qualname__ + json.dumps(args, sort_keys=True, default=repr), (render, *args))
        submit_all(requests)

    box.session.out.displays.submit_all = record
    box.session.out._shown.clear()
    box.session.refresh()
    return seen


#: players' names for the layout test: the longest a name may be, one of the usual, and seats left unnamed
NAMES = {1: "Maximilianus A", 2: "Ada"}


def every_screen(box_factory, name: str) -> list[tuple]:
    """Every distinct screen the box asked of any display while playing the script (two players named)."""
    box = box_factory(**SCRIPTED[name])
    box.name_players(NAMES)
    seen = collecting(box)
    box.play((SCRIPTS / f"{name}.txt").read_text())
    return list(seen.values())
