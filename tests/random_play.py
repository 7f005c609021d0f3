"""Random legal play for property tests and the crash soak."""
from __future__ import annotations

import random

from rules.model import Decision


def random_answer(decision: Decision, rng: random.Random):
    """Any legal answer to ``decision``: a set of holes of a legal size, or one of its options."""
    if decision.kind.value == "holes":
        return rng.sample(decision.options, rng.randint(decision.min, decision.max))
    return rng.choice(decision.options)
