"""Golden images: a scripted game's displays held to the pixel against the PNGs in ``golden/``.

After a deliberate change to a screen, look at the new frames, then regenerate:
``MOLEBOX_REGOLD=1 make test ARGS=tests/companion``.
"""
from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).parent / "golden"
REGOLD = os.environ.get("MOLEBOX_REGOLD") == "1"


def assert_frames_match(frames: dict[str, dict[str, Image.Image]], prefix: str, out: Path) -> None:
    """Every display at every checkpoint (``frames[checkpoint][display]``) matches ``prefix-checkpoint-display.png``.

    The frames that differ are saved in ``out`` for a look, and the assertion names them.
    """
    differ = []
    for checkpoint, shown in frames.items():
        for display, image in shown.items():
            golden = GOLDEN / f"{prefix}-{checkpoint}-{display}.png"
            if REGOLD:
                image.save(golden)
            if ImageChops.difference(image, Image.open(golden).convert("1")).getbbox() is not None:
                image.save(out / golden.name)
                differ.append(golden.name)
    assert not differ, f"{differ} differ from the golden images; the new frames are in {out}"


def displays(seats: int) -> list[str]:
    """The displays of a game at ``seats``: the table and each playing seat's OLED."""
    return ["table"] + [f"seat{s}" for s in range(1, seats + 1)]


def shown(box) -> dict[str, Image.Image]:
    """What each display of the game in play shows now, as one-bit images."""
    box.session.screens.worker.flush()
    return {name: box.hw.displays()[name].image.convert("1") for name in displays(box.match.header.seats)}


def play_with_checkpoints(box, lines: list[str], stops: dict[str, int]) -> tuple[dict, dict]:
    """Play the script ``lines`` on ``box``, pausing before each checkpoint's line (``stops``) and at the end.

    Returns what every display showed and every seat's lamps, by checkpoint (``end`` last).
    """
    frames, lamps, done = {}, {}, 0
    for checkpoint, at in [*stops.items(), ("end", len(lines))]:
        box.play("\n".join(lines[done:at]))
        done = at
        frames[checkpoint], lamps[checkpoint] = shown(box), box.session.lamps.lit()
    return frames, lamps
