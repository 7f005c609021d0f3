"""Mole Park bots. The secret pick is the die; the open answers (crown, discard, prize, ties) follow.

Values are in stars: a prize's stars are worth what they say (they count toward the Crown in
every later total), a mole in hand a little over half its stars (it still has to be cashed in,
and a full hand loses the smallest to the limit).

- ``casual``: a whacking die drawn in proportion to the moles it can reach; the Prize die once
  the hand holds four moles; goes for the Crown only when it cannot miss.
- ``strong``: cashes in with a full hand, or when waiting a round would not buy a prize
  ``WAIT`` times better. Its whacking die is a game among every seat picking: regret matching
  over all of them, each whacking die worth its expected share of the holes it can land on
  (moles split with every other die that lands there), another seat's Prize die worth the
  prize the roll would buy less the hand it spends. (Trusting seats to repeat last round's
  die, as the Whakka bot does, made it weaker here: the board changes too much between
  rounds.) It goes for the Crown at even odds or better, or at any odds once someone else
  has declared.
- ``fixed``: always the Giant Mallet, the Prize die when the hand is full: a sparring partner.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

from ..model import Decision
from ..mole_park import MISS, WHACKING, MolePark
from . import regret
from .base import Bot, weighted

HAND_WORTH = 0.6      # a mole in hand, per star, against a prize star
WAIT = 1.4            # how much better a prize must be to be worth one more round of whacking
ITERATIONS = 60


def odds(faces: tuple) -> dict:
    """Each face of a die with its probability, exact (a sure thing sums to exactly 1)."""
    counts = Counter(faces)
    return {face: Fraction(n, len(faces)) for face, n in counts.items()}


class ParkBot(Bot):
    game: MolePark

    def choose(self, view: dict, decision: Decision):
        state, rng = view["state"], self.rng(view, decision.key)
        if decision.key == "die":
            return self.die(state, decision, rng)
        if decision.key == "crown":
            return "declare" if self.declare(state, self.crown_odds(state)) else "pass"
        if decision.key == "discard":
            return min(decision.options)
        if decision.key == "prize":
            return max(decision.options, key=lambda stand: state["stands"][stand - 1]["stars"])
        return self.pick_seat(state, decision, rng)       # "order" and "tie": King Mole's choice

    def crown_odds(self, state: dict) -> float:
        need = state["crown"] - sum(state["hand"]) - state["seats"][self.seat - 1]["stars"]
        return sum(p for face, p in odds(self.game.faces["prize"]).items() if face >= need)

    def pick_seat(self, state: dict, decision: Decision, rng):
        return rng.choice(decision.options)


class Casual(ParkBot):
    level = "casual"

    def die(self, state, decision, rng):
        if "prize" in decision.options and len(state["hand"]) >= 4:
            return "prize"
        reach = {d: 1 + sum(state["holes"][f - 1] for f in self.game.faces[d] if f != MISS)
                 for d in decision.options if d in WHACKING}
        return weighted(rng, reach)

    def declare(self, state, chance):
        return chance == 1.0


class Fixed(Casual):
    level = "fixed"

    def die(self, state, decision, rng):
        full = len(state["hand"]) >= state["hand_limit"]
        return "prize" if full and "prize" in decision.options else "mallet"


class Strong(ParkBot):
    level = "strong"

    def declare(self, state, chance):
        rival = any(s["crown"] == "declared" for s in state["seats"] if s["seat"] != self.seat)
        return chance >= 0.5 or (rival and chance > 0)

    def pick_seat(self, state, decision, rng):
        """Let myself pick first; else the seat with the fewest stars (the least danger)."""
        if self.seat in decision.options:
            return self.seat
        stars = {s["seat"]: s["stars"] for s in state["seats"]}
        return min(decision.options, key=lambda s: (stars[s], s))

    def die(self, state, decision, rng):
        if "prize" in decision.options and self._cash_now(state):
            return "prize"
        seats = [s["seat"] for s in state["seats"] if s["crown"] != "declared"]
        options = {s: WHACKING + (("prize",) if state["seats"][s - 1]["hand"] and s != self.seat else ())
                   for s in seats}
        lands = {d: [(face, float(p)) for face, p in odds(self.game.faces[d]).items() if face != MISS]
                 for d in WHACKING}
        cash = {s: self._cash_in(state, s) for s in seats}
        scale = self.deck_mean() * HAND_WORTH

        def taken(seat: int, others: list) -> list[float]:
            """The moles ``seat`` can expect from each hole its die lands on, shared with the others' dice."""
            room = max(0, state["hand_limit"] - state["seats"][seat - 1]["hand"])
            return [0.0] + [sum(q * _keep(moles // (1 + k), room) for k, q in _spread([on[face] for on in others]))
                            if moles else 0.0 for face, moles in enumerate(state["holes"], 1)]

        def worth(seat: int, die: str, holes: list[float]) -> float:
            return cash[seat] if die == "prize" else scale * sum(p * holes[face] for face, p in lands[die])

        landing: dict = {}              # the latest mixes, and each seat's chance of a die on each hole

        def utilities(i, mixes):
            if landing.get("mixes") is not mixes:
                landing["mixes"], landing["on"] = mixes, []
                for j, mix in enumerate(mixes):
                    on = [0.0] * (len(state["holes"]) + 1)
                    for d, p in zip(options[seats[j]], mix):
                        for face, q in lands.get(d, ()):
                            on[face] += p * q
                    landing["on"].append(on)
            holes = taken(seats[i], landing["on"][:i] + landing["on"][i + 1:])
            return [worth(seats[i], d, holes) for d in options[seats[i]]]

        mixes = regret.solve([len(options[s]) for s in seats], utilities, ITERATIONS)
        return weighted(rng, dict(zip(options[self.seat], mixes[seats.index(self.seat)])))

    def _cash_now(self, state: dict) -> bool:
        """Cash in now, or whack one more round first? Each round is a round lost in the race, so a
        prize now beats the better prize a round later unless that one is worth ``WAIT`` times more."""
        hand, stars = state["hand"], state["seats"][self.seat - 1]["stars"]
        if len(hand) >= state["hand_limit"]:
            return True
        take = max(sum(p * state["holes"][face - 1] for face, p in odds(self.game.faces[d]).items() if face != MISS)
                   for d in WHACKING)          # moles the best die takes, with nobody else on its hole
        now = self._prize_for(state, sum(hand) + stars)
        later = self._prize_for(state, sum(hand) + take * self.deck_mean() + stars)
        return now > 0 and now * WAIT >= later

    def deck_mean(self) -> float:
        return sum(s * n for s, n in self.game.deck.items()) / sum(self.game.deck.values())

    def _prize_for(self, state: dict, stars: float) -> float:
        """The expected prize a Prize die roll on top of ``stars`` buys, from the stands now face up."""
        shown = sorted((st["stars"] for st in state["stands"] if st["shown"]), reverse=True)
        return sum(p * next((prize for prize in shown if prize <= stars + face), 0)
                   for face, p in odds(self.game.faces["prize"]).items())

    def _cash_in(self, state: dict, seat: int) -> float:
        """What a seat's Prize die roll is worth: the prize it buys, less the hand it spends. Only
        the bot's own hand is known; another seat's is its count of average moles."""
        info = state["seats"][seat - 1]
        hand = sum(state["hand"]) if seat == self.seat else info["hand"] * self.deck_mean()
        return float(self._prize_for(state, hand + info["stars"])) - hand * HAND_WORTH


def _keep(moles: int, room: int) -> float:
    """Moles taken, the ones over the hand limit counted at a third (they replace smaller ones)."""
    return min(moles, room) + max(0, moles - room) / 3


def _spread(chances: list[float]) -> list[tuple[int, float]]:
    """How many of the other dice land on a hole: (count, probability), from each die's chance."""
    dist = [1.0]
    for c in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - c)
            nxt[k + 1] += q * c
        dist = nxt
    return [(k, q) for k, q in enumerate(dist) if q > 0]


LEVELS = {"casual": Casual, "strong": Strong, "fixed": Fixed}
