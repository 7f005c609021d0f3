"""Each game's seat and table screens on every panel, to scale beside a millimetre ruler (docs/screenshots).

``python -m tests.companion.real_size docs/screenshots`` plays each game's first script, takes a seat's
screen while it chooses and the table's at that moment, draws both for each panel the built-in profiles
name, each as large as the panel's lit area at :data:`PX_PER_MM`, and writes ``real-size-GAME.png``: a
maker judges the type against the ruler as a player would read the glass.
"""
from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

from companion import scene, script
from companion.hardware.sim import open_sim
from companion.painter import draw
from companion.session import Session
from companion.table import Start
from companion.render.fonts import Face
from companion.render import describe
from companion.render.oled import recording
from tests.companion.scripted import NAMES, SCRIPTED, SCRIPTS, collecting
from tests.conftest import Box
from wiring.profile import load

PX_PER_MM = 8
GAP_MM = 4
LIT, DARK, PAPER, INK = (235, 240, 255), (18, 18, 24), (255, 255, 255), (0, 0, 0)
DRIVERS = ("ssd1306", "sh1106", "ssd1309")
GAMES = {}                                          # game -> its first script
for script_name, args in SCRIPTED.items():
    GAMES.setdefault(args["game"], script_name)


def glass(frame: Image.Image, panel) -> Image.Image:
    """The frame as large as the panel's lit area at PX_PER_MM, its lit pixels light on dark glass."""
    size = (round(128 * panel.mm_per_px * PX_PER_MM), round(64 * panel.mm_per_px * PX_PER_MM))
    mask = frame.convert("L").resize(size, Image.NEAREST)
    out = Image.new("RGB", size, DARK)
    out.paste(LIT, (0, 0), mask)
    return out


def ruler(width_mm: int) -> Image.Image:
    """A ruler ``width_mm`` long: a tick a millimetre, longer every 5, numbered every 10."""
    image = Image.new("RGB", (width_mm * PX_PER_MM + 30, 34), PAPER)
    draw = ImageDraw.Draw(image)
    figures = Face(10)
    draw.line((0, 0, width_mm * PX_PER_MM, 0), fill=INK)
    for mm in range(width_mm + 1):
        x = mm * PX_PER_MM
        draw.line((x, 0, x, 12 if mm % 10 == 0 else 8 if mm % 5 == 0 else 4), fill=INK)
        if mm % 10 == 0:
            figures.draw(draw, x + 2, 28, f"{mm} mm" if mm == width_mm // 10 * 10 else str(mm), 0)
    return image


def moment(box_factory, game: str) -> tuple[tuple, tuple]:
    """A seat's screen told what happened to it and with the most options to choose from (else the most
    options), and the table's screen halfway through the game."""
    box = box_factory(**SCRIPTED[GAMES[game]])
    box.name_players(NAMES)
    seen = collecting(box)
    box.play((SCRIPTS / f"{GAMES[game]}.txt").read_text())
    shown = list(seen.values())
    seats = [s for s in shown if s[0].__name__ == "seat" and s[0].__module__.endswith(game.replace("-", "_"))]
    tables = [s for s in shown if s[0].__name__ == "table"]

    def options(s) -> int:
        with recording() as placed:
            s[0](*s[1:])
        return sum(p["role"] == "option" for p in placed)

    return max(seats, key=lambda s: (bool(s[1].get("news")) and bool(describe(s[0], tuple(s[1:])).news),
                                     options(s))), tables[len(tables) // 2]


def sheet(game: str, seat: tuple, table: tuple, says: str = "a seat (left) and the table display") -> Image.Image:
    """Every panel's two screens (a seat's and the table's, unless ``says`` says otherwise) side by side, a ruler
    under each row."""
    label = Face(12)
    rows = []
    for driver in DRIVERS:
        panel = scene.panel_of(driver)
        shots = [glass(render(*args[:-1], panel), panel) for render, *args in (seat, table)]
        gap = GAP_MM * PX_PER_MM
        width = sum(s.width for s in shots) + gap
        row = Image.new("RGB", (width + 40, shots[0].height + 80), PAPER)
        draw = ImageDraw.Draw(row)
        label.draw(draw, 0, 16, f'{panel.name} {driver.upper()}: {says}', 0)
        x = 0
        for shot in shots:
            row.paste(shot, (x, 24))
            x += shot.width + gap
        row.paste(ruler(int(width / PX_PER_MM)), (0, 24 + shots[0].height + 6))
        rows.append(row)
    out = Image.new("RGB", (max(r.width for r in rows), sum(r.height for r in rows) + 30), PAPER)
    label.draw(ImageDraw.Draw(out), 0, 18, f"{game}: to scale, {PX_PER_MM} px a millimetre", 0)
    y = 30
    for row in rows:
        out.paste(row, (0, y))
        y += row.height
    return out


def _box(game: str, seats: int, seed: int = 0, settings: dict | None = None, dice: str = "virtual",
         cards: str = "virtual") -> Box:
    clock = script.FakeClock()
    hw = open_sim(load("sim-8"), clock)
    start = Start(game, seats, dice, cards, {}, dict(settings or {}))
    return Box(hw, Session(hw, clock, start=start, seed=seed, paint=draw), clock)


def taught() -> tuple[tuple, tuple]:
    """A taught Whakka Mole's seat 1 (docs/teaching.md): before its first decision, and after the first reveal."""
    box = _box("whakka-mole", 3)
    box.name_players(NAMES)
    before = scene.screens(box.session.scene())["seat1"]
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole1\n2 ok\n2 hole5\n2 ok\n3 hole1\n3 ok\n3 hole1\n3 ok")
    return before, scene.screens(box.session.scene())["seat1"]


def main(directory: str) -> None:
    for game in GAMES:
        seat, table = moment(_box, game)
        sheet(game, seat, table).save(Path(directory) / f"real-size-{game}.png")
    sheet("whakka-mole, taught", *taught(), "seat 1 before its first decision (left), after the first reveal") \
        .save(Path(directory) / "real-size-taught.png")


if __name__ == "__main__":
    main(sys.argv[1])
