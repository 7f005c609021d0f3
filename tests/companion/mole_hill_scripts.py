"""Write the Mole Hill press scripts of tests/companion/test_mole_hill_box.py.

    .venv/bin/python -m tests.companion.mole_hill_scripts

Two simple players make the game (they are test fixtures, not the box's computer players): the
gardener puts its rod where it leaves the mole the fewest moves, the mole heads for flowers and the
centre and otherwise keeps its options open, each breaking ties with a seeded coin. Every answer
becomes the presses a player makes on the panel (``tests.presses.presses_for``) under a comment
saying what happened, and each round ends with its trail and score worked out, to check by hand.
"""
from __future__ import annotations

import random

from rules.match import Header, Match
from rules.model import Decision, Move
from tests.companion import press_script

#: name -> (seed of the players' coin, settings, where each round's mole places its stack,
#: how often each round's gardener rods where it hurts most rather than carelessly near the mole)
GAMES = {
    "mole-hill-win": (2, {}, [(5, 1), (9, 4)], (0.5, 1.0)),
    "mole-hill-draw": (55, {}, [(5, 1), (9, 4)], (0.5, 1.0)),
    "mole-hill-corner": (5, {"first_mole": 2, "flower_layout": "corner-red"}, [(1, 1), (5, 4)], (1.0, 1.0)),
}


def _targets_after(match: Match, seat: int, key: str, value) -> int:
    state = match.state.clone()
    state.apply(Move(seat, key, value))
    return len(state.targets()) if state.phase in ("move", "jump") else -1


def answer(match: Match, d: Decision, rng: random.Random, start, skill: float):
    state = match.state
    if d.key == "place":
        return start
    if d.key == "rod":
        if rng.random() > skill:                 # a careless rod somewhere near the mole
            return d.options[rng.randrange(12)]
        return min(d.options, key=lambda edge: (_targets_after(match, d.seat, "rod", edge), rng.random()))
    centre = tuple(match.view(None)["state"]["centre"])

    def appeal(cell):
        after = state.clone()
        after.trail.append(cell)
        return (3 * match.game.flowers.get(cell, 0) + (5 if cell == centre else 0)
                + len(after.targets()) + 2 * rng.random())

    return max(d.options, key=appeal)


def _name(cell) -> str:
    return f"({cell[0]},{cell[1]})"


def _flower(points: int) -> str:
    return {2: ", red flower +2", 1: ", white flower +1"}.get(points, "")


def _describe(event: dict) -> str | None:
    kind, seat = event["kind"], event["seat"]
    if kind == "place":
        return f"S{seat} places the stack on {_name(event['cell'])}{_flower(event['flower'])}"
    if kind == "rod":
        edge = event["edge"]
        return f"S{seat} rods {edge[0]},{edge[1]},{edge[2]} ({event['rods_left']} left)"
    if kind in ("move", "jump"):
        verb = "jumps from the centre" if kind == "jump" else "moves"
        return (f"S{seat} {verb} {_name(event['from'])} -> {_name(event['to'])}{_flower(event['flower'])},"
                f" leaving a {event['left']} piece")
    if kind == "pass":
        return f"S{seat} has no rods left"
    if kind == "round_over":
        return (f"ROUND {event['round']} OVER ({event['reason']}): S{seat} visited {event['visited']} spaces,"
                f" {event['dark']} dark + {event['flowers']} flower points = {event['score']};"
                f" totals {event['totals']}")
    if kind == "game_over":
        return f"GAME OVER: scores {event['scores']}, winners {event['winners']}"
    return None


def _trail_lines(record: dict, flowers: dict) -> list[str]:
    """The round's trail, numbered piece by piece, with its flowers: the score to recount by hand."""
    cells = [f"{i}:{_name(c)}{'d' if colour == 'dark' else ''}" for i, (*c, colour) in enumerate(record["trail"], 1)]
    lines = [" ".join(cells[i:i + 8]) for i in range(0, len(cells), 8)]
    picked = [f"{_name(c)}={flowers[tuple(c[:2])]}" for c in record["trail"] if tuple(c[:2]) in flowers]
    return [f"#   trail (d = dark): {line}" for line in lines] + [f"#   flowers visited: {' '.join(picked) or '-'}"]


def write(name: str, seed: int, settings: dict, starts, skill) -> Match:
    rng = random.Random(seed)

    def play(match: Match) -> tuple[Decision, object]:
        (d,) = match.open_decisions()
        played = len(match.state.rounds)
        return d, answer(match, d, rng, starts[played], skill[played])

    def say(d: Decision, value, events: list[dict]) -> tuple[str, int]:
        return _describe(events[0]), 1                  # the answer as the table saw it, then its presses

    def trails(match: Match, events: list[dict]) -> list[str]:
        return [line for e in events if e["kind"] == "round_over"
                for line in _trail_lines(match.view(None)["state"]["rounds"][e["round"] - 1], match.game.flowers)]

    return press_script.write(
        name, Match(Header("mole-hill", 2, settings)),
        [f"Mole Hill, settings {settings or 'default'} (tests/companion/test_mole_hill_box.py;"
         f" written by tests/companion/mole_hill_scripts.py).",
         "Cells are (col,row), row 1 at the top; edge c,r,E lies right of (c,r), c,r,S below it."],
        play, _describe, say, after=trails)


def main() -> None:
    for name, (seed, settings, starts, skill) in GAMES.items():
        match = write(name, seed, settings, starts, skill)
        rounds = match.view(None)["state"]["rounds"]
        jumps = sum(e.kind == "jump" for e in match.events)
        print(name, [(r["mole"], r["reason"], len(r["trail"]), r["score"]) for r in rounds],
              "jumps", jumps, "result", match.result())


if __name__ == "__main__":
    main()
