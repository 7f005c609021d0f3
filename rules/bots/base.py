"""What every bot shares: its seat, its game's public settings, and a seeded draw per view."""
from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from ..model import Decision, Game


class Bot:
    """One seat's computer player. Subclasses implement :meth:`choose`."""

    level = ""

    def __init__(self, game: Game, seat: int, seed: int | str = 0):
        self.game = game
        self.seat = seat
        self.seed = seed

    def rng(self, view: dict, salt: str = "") -> random.Random:
        """A draw that depends only on the seed, the seat and what the seat sees of the game.

        Two decisions of one secret group see the same state, so they draw alike: a bot
        plans its whole turn at the first of them and the plan holds at the second.
        """
        digest = hashlib.blake2b(json.dumps(view["state"], sort_keys=True).encode(), digest_size=12).hexdigest()
        return random.Random(f"bot/{self.seed}/{self.seat}/{digest}/{salt}")

    def choose(self, view: dict, decision: Decision) -> Any:
        """An answer to ``decision`` (one of this seat's open decisions) from ``view``, the seat's view."""
        raise NotImplementedError


def weighted(rng: random.Random, strategy: dict) -> Any:
    """One action drawn from a mixed strategy {action: probability}, in a fixed order of actions."""
    actions = sorted(strategy, key=repr)
    return rng.choices(actions, weights=[strategy[a] for a in actions])[0]
