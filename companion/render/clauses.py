"""Which rule of its game's rules doc each told event comes from: for each game, an event's kind -> the anchor of the
doc's clause that says that rule (its section, a rule's bold lead, or a **molebox decision**: the page
``/rules/{game}`` makes the anchors, :mod:`companion.web.rules_docs`). A turn's sentence opens at its first event's
clause (:mod:`companion.render.turns`).
"""
from __future__ import annotations

HOW_TO_PLAY = "how-to-play"     # the doc's first section: how to play, told before the first turn is over

CLAUSES: dict[str, dict[str, str]] = {
    "whakka-mole": {"popup": "pop-up", "whack": "whacking", "score": "scoring",
                    "game_over": "decision-when-exactly-does-the-game"},
    "mole-park": {"deal": "deal", "crown": "going-for-the-crown", "roll": "roll", "whack": "whack", "take": "pick-up",
                  "discard": "hand-limit", "flee": "decision-when-do-moles-flee",
                  "reshuffle": "decision-the-deck-runs-out", "cash_in": "prize-dice",
                  "order": "decision-star-track-ties", "prize": "prize-dice", "no_prize": "prize-dice",
                  "restock": "decision-restocking", "crown_failed": "going-for-the-crown-40-stars",
                  "crown_won": "going-for-the-crown-40-stars", "showdown": "going-for-the-crown-40-stars",
                  "showdown_score": "going-for-the-crown-40-stars", "game_over": "decision-final-scores"},
    "mole": {"call": "the-calls-and-what-the-box-suggests", "flick": "reporting-a-turn",
             "mole_back": "on-the-mignettes-turn", "died": "on-the-mignettes-turn", "push": "pushes",
             "round_over": "how-a-round-ends", "game_over": "scoring-and-the-match"},
    "mole-hill": {"place": "place", "rod": "rod", "pass": "decision-when-the-rods-are", "move": "move",
                  "jump": "the-centre", "round_over": "pieces-and-the-end-of-a-round", "game_over": "scoring"},
    "mouse-madness": {"start_roll": "who-goes-first", "reroll": "who-goes-first", "first": "who-goes-first",
                      "roll": "roll", "move": "move", "jump": "jumping", "push": "push", "fall": "land",
                      "win": "winning", "game_over": "winning"},
}


def anchors(game_id: str, kinds: list[str]) -> list[str | None]:
    """The anchor of the clause behind each of ``kinds`` (None: the game's doc names none)."""
    return [CLAUSES.get(game_id, {}).get(kind) for kind in kinds]
