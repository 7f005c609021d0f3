"""Write the Mole Park press scripts of tests/companion/test_mole_park_box.py.

    .venv/bin/python -m tests.companion.mole_park_scripts

Greedy bots (tests/rules/mole_park_bots.py) play a match, except that a seat goes for the Crown as
soon as its best roll could reach 40, so bids fail as well as win. Every answer becomes the presses a
player makes on the panel (``tests.presses.presses_for``), and each round gets a comment with what
the table saw and what each seat took, to check the game by hand.
"""
from __future__ import annotations

import random

from rules.match import Header, Match
from rules.model import Decision
from tests.companion import press_script
from tests.rules.mole_park_bots import greedy_answer

#: name -> (seats, seed, dice and cards, what the game must show)
GAMES = {
    "mole-park-2seat": (2, 0, "physical", ("crown_failed", "crown_won")),
    "mole-park-5seat": (5, 6, "virtual", ("showdown", "crown_won")),
    "mole-park-8seat": (8, 2, "virtual", ("crown_failed", "crown_won")),
}


def hopeful_answer(match: Match, d: Decision, rng: random.Random):
    """Greedy, but declare whenever the best roll could reach the crown."""
    if d.key == "crown":
        view = match.view(d.seat)["state"]
        best = sum(view["hand"]) + view["seats"][d.seat - 1]["stars"] + max(match.game.faces["prize"])
        return "declare" if best >= view["crown"] else "pass"
    return greedy_answer(match, d, rng)


def _describe(event: dict) -> str | None:
    kind, seat = event["kind"], event["seat"]
    words = {
        "deal": lambda: f"deal {event['holes']} (deck {event['deck']})",
        "crown": lambda: f"S{seat} {'declares' if event['declare'] else 'passes'}",
        "reveal": lambda: "dice " + " ".join(f"S{s}:{p['die']}" for s, p in event["picks"].items()),
        "roll": lambda: f"S{seat} {event['die']} -> {event['face']}",
        "whack": lambda: f"hole {event['hole']}: {len(event['dice'])} dice, {event['each']} each, "
                         f"{event['stays']} stay",
        "take": lambda: f"S{seat} takes a {event['stars']}",
        "discarded": lambda: f"S{seat} discards a {event['stars']}",
        "cash_in": lambda: f"S{seat} cashes {event['moles']} + die {event['die']} + prizes {event['prizes']}"
                           f" = {event['total']}{' (crown bid)' if event['declared'] else ''}",
        "crown_failed": lambda: f"S{seat} falls short of the crown at {event['total']}",
        "order": lambda: f"King S{seat} lets S{event['next']} go first",
        "prize": lambda: f"S{seat} takes {event['name']} ({event['stars']}), now {event['total_stars']}",
        "no_prize": lambda: f"S{seat} can afford nothing at {event['total']}",
        "flee": lambda: f"hole {event['hole']} flees ({event['moles']})",
        "showdown": lambda: f"SHOWDOWN {event['contenders']}",
        "showdown_score": lambda: f"S{seat} showdown {event['moles']} + die {event['die']} = {event['total']}",
        "crown_won": lambda: f"S{seat} WINS THE CROWN",
    }.get(kind)
    return words() if words else None


def _round_line(match: Match) -> str:
    state = match.view(None)["state"]
    hands = " ".join(f"S{s}{sorted(h)}" for s, h in enumerate(match.state.hands, 1))
    stars = [s["stars"] for s in state["seats"]]
    return f"# ---- round {state['round']}: holes {state['holes']}, hands {hands}, prize stars {stars}"


def write(name: str, seats: int, seed: int, mode: str) -> Match:
    rng = random.Random(seed)
    round_ = 0

    def heading(match: Match) -> list[str]:
        nonlocal round_
        if match.state.round == round_:
            return []
        round_ = match.state.round
        return [_round_line(match)]

    def answer(match: Match) -> tuple[Decision, object]:
        d = match.decisions_for(min(x.seat for x in match.open_decisions()))[0]     # as the panel takes them
        return d, hopeful_answer(match, d, rng)

    return press_script.write(
        name, Match(Header("mole-park", seats, {}, seed=seed, dice=mode, cards=mode)),
        [f"Mole Park, {seats} seats, seed {seed}, {mode} dice and cards"
         f" (tests/companion/test_mole_park_box.py; written by tests/companion/mole_park_scripts.py).",
         "Each round: what the table saw and what each seat took, then the presses."],
        answer, _describe, heading=heading)


def main() -> None:
    for name, (seats, seed, mode, _) in GAMES.items():
        match = write(name, seats, seed, mode)
        kinds = {e.kind for e in match.events}
        print(name, "rounds", match.state.round, "result", match.result(), sorted(kinds & {
            "crown_failed", "crown_won", "showdown", "order", "discarded", "flee", "reshuffle", "no_prize"}))


if __name__ == "__main__":
    main()
