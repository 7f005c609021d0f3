"""Write the Mole press script of tests/companion/test_mole_box.py.

    .venv/bin/python -m tests.companion.mole_scripts

A table of two plays a whole match: each turn's call and report are drawn with the odds of a
plausible game (mostly quiet turns, now and then a death, a Gad, a taupiniere, a push), every answer
becomes the presses a player makes on the panel (``tests.presses.presses_for``), and every turn
and round gets a comment with what was reported and what the box decided, to check the match by hand.
"""
from __future__ import annotations

import random

from rules.match import Header, Match
from rules.model import Decision
from tests.companion import press_script

#: name -> (seed, settings); the seed's match, with the default settings, shows both ties, the 11-10 that
#: is not two clear, a taupiniere that kills two, pushes, a hitter that dies, and the protection from a
#: side on the first go and in Rosserie, but not over the line or off the back
GAMES = {"mole-match": (2574, {})}

ODDS = {
    ("mignettes", "call"): {"flick": 9, "nasdaq": 1},
    ("mole", "call"): {"flick": 8, "taupiniere": 1, "nasdaq": 1},
    ("mignettes", "where"): {"board": 60, "gad": 12, "line": 3, "back": 6, "side": 19},
    ("mole", "where"): {"board": 55, "line": 30, "side": 8, "back": 3, "under": 4},
    ("mignettes", "gad"): {"touching": 4, "on_top": 1},
    ("mignettes", "protected"): {"no": 2, "yes": 1},
    ("mole", "start"): {"open": 6, "encompassed": 1},
}


def _weighted(rng: random.Random, odds: dict, options) -> object:
    legal = [o for o in options if o in odds]
    return rng.choices(legal, weights=[odds[o] for o in legal])[0]


def table_answer(match: Match, d: Decision, rng: random.Random):
    """What a plausible table reports for ``d``."""
    state = match.view(None)["state"]
    side = state["side"]
    if (side, d.key) in ODDS:
        return _weighted(rng, ODDS[(side, d.key)], d.options)
    if d.key == "dead":
        if side == "mole":
            wanted = 2 if state["call"] == "taupiniere" and rng.random() < 0.6 else int(rng.random() < 0.3)
        else:
            wanted = sum(rng.random() < 0.12 for _ in d.options)
        return tuple(sorted(rng.sample(d.options, min(wanted, len(d.options)))))
    return rng.choice(d.options)          # a death's cause, the hitter


def _describe(event: dict) -> str | None:
    kind, seat = event["kind"], event["seat"]
    words = {
        "call": lambda: f"S{seat} ({event['side']}) calls {event['call']}",
        "flick": lambda: f"S{seat} reports: mole {event['where']}{' (touching)' if event['gad'] else ''}"
                         f"{', dead ' + str(event['dead']) if event['dead'] else ''}",
        "mole_back": lambda: f"the mole goes back ({event['why']})",
        "died": lambda: f"M{event['mignette']} died ({event['how']}), {event['alive']} left",
        "push": lambda: f"S{seat} claims a push by S{event['against']}",
        "round_over": lambda: f"ROUND {event['round']} (mole S{seat}): {event['winner']} - {event['text']};"
                              f" score {event['scores'][0]}-{event['scores'][1]}, mole next S{event['mole_next']}",
        "game_over": lambda: f"MATCH: S{event['winners'][0]} wins {event['scores'][0]}-{event['scores'][1]}",
    }.get(kind)
    return words() if words else None


def write(name: str, seed: int, settings: dict) -> Match:
    rng = random.Random(seed)

    def answer(match: Match) -> tuple[Decision, object]:
        claim = [d for d in match.open_decisions() if d.key == "push"]
        if claim and rng.random() < 0.015:
            return claim[0], "push"
        d = match.decisions_for(match.view(None)["state"]["flicker"])[0]
        return d, table_answer(match, d, rng)

    def say(d: Decision, value, events) -> tuple[str, int]:
        return f"S{d.seat} {d.key}: {value if d.kind.value == 'holes' else d.label(value)}", 0

    return press_script.write(
        name, Match(Header("mole", 2, settings, seed=seed)),
        [f"Mole, a whole match, seed {seed} (tests/companion/test_mole_box.py;"
         f" written by tests/companion/mole_scripts.py).",
         "Each answer: who answers what, then the presses; each turn: what the box made of it."],
        answer, _describe, say)


def main() -> None:
    for name, (seed, settings) in GAMES.items():
        match = write(name, seed, settings)
        rounds = match.view(None)["state"]["rounds"]
        print(name, match.result(), len(rounds), "rounds", match.seat_records(), "answers",
              sorted({r["reason"] for r in rounds}))


if __name__ == "__main__":
    main()
