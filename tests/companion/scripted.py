"""Every scripted game of the box tests, with what its box is built from, and one way to build and play it.

A box test names a script (tests/companion/scripts/NAME.txt) and gets its box from :func:`box_for`, or the
whole game played with its displays and lamps kept at checkpoints from :func:`played`.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.companion.golden import play_with_checkpoints
from tests.companion.mole_hill_scripts import GAMES as MOLE_HILL
from tests.companion.mole_park_scripts import GAMES as MOLE_PARK
from tests.companion.mole_scripts import GAMES as MOLE

SCRIPTS = Path(__file__).parent / "scripts"

#: the Mouse Madness scripts, written by hand: name -> (seats, seed, dice)
MOUSE = {"mouse-3seat": (3, 344, "virtual"), "mouse-4seat-dice": (4, 0, "physical")}

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


def script(name: str) -> str:
    return (SCRIPTS / f"{name}.txt").read_text()


def box_for(box_factory, name: str, **kwargs):
    """A box built as the script ``name`` is played on (``kwargs``: more box_factory arguments)."""
    return box_factory(**SCRIPTED[name], **kwargs)


def until(lines: list[str], *starts: str) -> int:
    """The index of the first line that starts with the last of ``starts``, each found after the one before."""
    at = 0
    for start in starts:
        at = next(i for i in range(at, len(lines)) if lines[i].startswith(start))
    return at


def played(box_factory, name: str, checkpoints: dict[str, str | tuple[str, ...]], names: dict | None = None):
    """The whole script ``name`` played on its box (players ``names`` named first), pausing before each
    checkpoint's line (:func:`until` its markers): what every display showed and every seat's lamps, by
    checkpoint and at the ``end``, as ``box.frames`` and ``box.lamps_at``; the script's name as ``box.name``."""
    box = box_for(box_factory, name)
    if names:
        box.name_players(names)
    lines = script(name).splitlines()
    stops = {checkpoint: until(lines, *([markers] if isinstance(markers, str) else markers))
             for checkpoint, markers in checkpoints.items()}
    box.frames, box.lamps_at = play_with_checkpoints(box, lines, stops)
    box.name = name
    return box


def collecting(box) -> dict:
    """From now on, every distinct (render function, *arguments) the box asks of any display (the dict grows)."""
    seen: dict = {}
    submit_all = box.session.screens.worker.submit_all

    def record(requests):
        for _, render, args, _ in requests:
            seen.setdefault(render.__qualname__ + json.dumps(args, sort_keys=True, default=repr), (render, *args))
        submit_all(requests)

    box.session.screens.worker.submit_all = record
    box.session.screens._shown.clear()
    box.session.refresh()
    return seen


#: players' names for the layout test: the longest a name may be, one of the usual, and seats left unnamed
NAMES = {1: "Maximilianus A", 2: "Ada"}


def every_screen(box_factory, name: str) -> list[tuple]:
    """Every distinct screen the box asked of any display while playing the script (two players named)."""
    box = box_for(box_factory, name)
    box.name_players(NAMES)
    seen = collecting(box)
    box.play(script(name))
    return list(seen.values())


LOBBY_WALKS = [                              # seat 1's presses through the lobby, for every game in the list
    f"1 hole{k}\n1 ok\n1 hole2\n1 hole3\n1 hole4\n1 hole1\n1 ok\n1 hole2\n1 hole3\n1 hole2\n1 hole3\n1 hole5"
    for k in range(1, 6)
] + ["2 hole1"]


def every_lobby_screen(box_factory, walk: str) -> list[tuple]:
    """Every distinct screen the box asked of any display while seat 1 took ``walk`` through the lobby."""
    box = box_factory(game=None, seats=None)
    seen = collecting(box)
    for line in walk.splitlines():
        box.play(line)
    return list(seen.values())
