"""Mole Park: Whack and Win! (Restart Round): whack moles, cash them in for prizes, go for the Crown.

A round: moles are dealt face down into the five holes; seats that could reach the
Crown may declare; every other seat secretly picks a die (group ``dice``); every
die is rolled (chance, entered by its owner with physical dice); whacking dice
split the moles of their holes; each whacked mole is looked at as it is picked up
(a chance draw from the cards nobody has seen, entered by its owner when the table
uses the physical cards); hands are cut to the limit; Prize die rollers go on the
star track and pick prizes; stands restock and, at 2-3 seats, full holes flee.

The state is a phase machine: phase ``p`` has ``_ask_p`` (its open decisions),
``_on_p`` (apply one answer) and ``_after_p`` (what happens once nothing is open).
See docs/rules/mole-park.md for every decision the text leaves open.
"""
from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field

from . import registry
from .model import N_, Decision, Event, Game, Kind, Move, Result, State
from .settings import SettingError

HOLES = 5
MISS = "X"
DICE = ("glove", "pan", "mallet", "prize")
WHACKING = DICE[:3]
DIE_NAMES = {"glove": N_("Boxing Glove"), "pan": N_("Frying Pan"), "mallet": N_("Giant Mallet"),
             "prize": N_("Prize die")}
#: The prize stands in star order, with the rulebook's CONTENTS names (the tier list's names are in the doc).
STANDS = ((N_("Candy Cavern"), 10), (N_("Burrowed Treasures"), 15), (N_("Inflation Station"), 20),
          (N_("Plushie Paradise"), 25), (N_("The Dugout"), 30), (N_("King Mole's Stash"), 35))
FLEE_SEATS = 3     # moles flee only in 2-3 player games
BIG_TABLE = 6      # from 6 players, two moles per hole


def _faces(die: str, text: str) -> tuple:
    """A die's faces from its setting: hole numbers and X for a whacking die, stars for the Prize die."""
    try:
        faces = tuple(f.upper() if f.upper() == MISS else int(f) for f in text.split())
    except ValueError:
        faces = ()
    if die == "prize":
        ok = faces and all(f != MISS and f >= 0 for f in faces)
    else:
        ok = faces and all(f == MISS or 1 <= f <= HOLES for f in faces)
    if not ok:
        raise SettingError(f"{die}: {text!r} is not a list of faces (whacking dice: 1-{HOLES} or X; prize: stars)")
    return faces


def _deck(text: str) -> dict[int, int]:
    """The mole deck from its setting, ``stars:cards`` pairs: ``"1:30 2:30"``."""
    try:
        deck = {int(s): int(n) for s, n in (pair.split(":") for pair in text.split())}
    except ValueError:
        deck = {}
    if not deck or any(s < 0 or n < 1 for s, n in deck.items()):
        raise SettingError(f"deck: {text!r} is not a list of stars:cards pairs")
    return dict(sorted(deck.items()))


def _chance(key: str, counts: dict, seat: int, prompt: str, source: str = "dice", fields: tuple = ()) -> Decision:
    """A die roll or a card draw: options weighted by their counts, entered by ``seat`` when physical."""
    return Decision(None, key, Kind.CHANCE, tuple(counts), weights=tuple(counts.values()),
                    enter_by=seat, prompt=prompt, source=source, fields=fields)


def _seat_choice(seat: int, key: str, seats: list[int], prompt: str, fields: tuple = ()) -> Decision:
    return Decision(seat, key, Kind.CHOICE, tuple(seats), labels=(N_("Seat {option}"),) * len(seats), prompt=prompt,
                    fields=fields)


class MolePark(Game):
    id = "mole-park"
    title = "Mole Park: Whack and Win!"
    short_title = "Mole Park"
    chance = ("dice", "cards")
    min_seats = 2
    max_seats = 8

    def __init__(self, seats, settings):
        super().__init__(seats, settings)
        if not 1 <= self.settings["king_mole"] <= seats:
            raise SettingError(f"king_mole: there is no seat {self.settings['king_mole']} at {seats} seats")
        self.faces = {die: _faces(die, self.settings[die]) for die in DICE}
        self.deck = _deck(self.settings["deck"])
        self.per_hole = 2 if seats >= BIG_TABLE else 1
        self.limit = self.settings["hand_limit"]
        self.crown = self.settings["crown"]

    def initial_state(self) -> "ParkState":
        return self.opening()[0]

    def opening(self) -> tuple["ParkState", list[Event]]:
        """The first state, its first round dealt, and that deal's events."""
        n = self.seats
        state = ParkState(self, king=self.settings["king_mole"], deck=sum(self.deck.values()),
                          unseen=dict(self.deck), holes=[0] * HOLES, hands=[[] for _ in range(n)],
                          prizes=[[] for _ in range(n)], stock=[self.settings["prize_cards"] - 1] * len(STANDS),
                          shown=[True] * len(STANDS), taking=[0] * n, face_up=[[] for _ in range(n)])
        return state, state._settle()

    def best_total(self, hand_size: int, prize_stars: int) -> int:
        """The highest star total a seat could roll, from what everyone can see."""
        return hand_size * max(self.deck) + max(self.faces["prize"]) + prize_stars


def roll_key(seat: int, die: str) -> str:
    return f"roll-{seat}-{die}"


@dataclass
class ParkState(State):
    game: MolePark
    king: int
    deck: int                        # face-down cards in the mole deck
    unseen: dict[int, int]           # stars -> cards nobody has looked at: deck, holes, face-down
                                     # discards and moles being picked up
    holes: list[int]                 # moles in each hole
    hands: list[list[int]]
    prizes: list[list[int]]          # stand numbers won, per seat
    stock: list[int]                 # face-down prize cards per stand
    shown: list[bool]                # the stand has a face-up prize
    taking: list[int]                # moles each seat is picking up, not looked at yet
    face_up: list[list[int]]         # moles laid face up: cashed in, or whacked in the showdown
    discard: int = 0
    seen: dict[int, int] = field(default_factory=dict)   # stars -> discarded cards someone looked at
    round: int = 0
    phase: str = "deal"
    declared: dict[int, bool] = field(default_factory=dict)   # crown answers this round
    passed_at: dict[int, int] = field(default_factory=dict)   # declarations made when the seat last passed
    dice: dict[int, str] = field(default_factory=dict)        # the die each seat rolls this round
    rolls: list[tuple] = field(default_factory=list)          # (seat, die, face or None) of the last roll
    track: list[tuple] = field(default_factory=list)          # (seat, total) on the star track
    picked: list[int] = field(default_factory=list)           # star-track seats done with prizes
    next_pick: int | None = None                              # King Mole's pick among tied seats
    showdown: list[int] = field(default_factory=list)         # contenders for the crown
    winner: int | None = None
    history: list[list[int]] = field(default_factory=list)   # each seat's stars after each round

    # ---- the protocol --------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.winner is not None or self.phase == "deal":
            return []
        return getattr(self, f"_ask_{self.phase}")()

    def apply(self, move: Move) -> list[Event]:
        events = getattr(self, f"_on_{self.phase}")(self.decision(move), move.value)
        return events + self._settle()

    def _settle(self) -> list[Event]:
        """Play the automatic steps until someone has to decide."""
        events = []
        while self.winner is None and not self.pending():
            events += getattr(self, f"_after_{self.phase}")()
        return events

    def result(self) -> Result | None:
        if self.winner is None:
            return None
        return Result(tuple(self.stars(s) for s in self.seat_numbers), (self.winner,))

    def clone(self) -> "ParkState":
        twin = copy.copy(self)
        for name in ("unseen", "seen", "declared", "passed_at", "dice"):
            setattr(twin, name, dict(getattr(self, name)))
        for name in ("holes", "stock", "shown", "taking", "rolls", "track", "picked", "showdown", "history"):
            setattr(twin, name, list(getattr(self, name)))
        for name in ("hands", "prizes", "face_up"):
            setattr(twin, name, [list(x) for x in getattr(self, name)])
        return twin

    # ---- helpers -------------------------------------------------------------------------

    @property
    def seat_numbers(self) -> range:
        return range(1, self.game.seats + 1)

    def stars(self, seat: int) -> int:
        """Stars from the prizes the seat has won."""
        return sum(STANDS[stand - 1][1] for stand in self.prizes[seat - 1])

    def _affordable(self, total: int) -> tuple[int, ...]:
        return tuple(i + 1 for i, (_, stars) in enumerate(STANDS) if self.shown[i] and stars <= total)

    def _move_to_discard(self, values: list[int]) -> None:
        """Discard cards someone has looked at; a reshuffle returns their stars to the unseen pool."""
        self.discard += len(values)
        for v in values:
            self.seen[v] = self.seen.get(v, 0) + 1

    # ---- deal ----------------------------------------------------------------------------

    def _after_deal(self) -> list[Event]:
        self.round += 1
        self.declared, self.passed_at, self.dice = {}, {}, {}
        self.phase = "crown"
        return [Event("round", None, {"round": self.round})] + self._deal(self.game.per_hole)

    def _deal(self, per_hole: int) -> list[Event]:
        events, added = [], [0] * HOLES
        for hole in range(HOLES):
            for _ in range(per_hole):
                if self.deck == 0:
                    events += self._reshuffle()
                if self.deck == 0:
                    break
                self.deck -= 1
                self.holes[hole] += 1
                added[hole] += 1
        return events + [Event("deal", None, {"holes": added, "deck": self.deck})]

    def _reshuffle(self) -> list[Event]:
        if self.discard == 0:
            return []
        self.deck, self.discard = self.discard, 0
        for v, n in self.seen.items():
            self.unseen[v] = self.unseen.get(v, 0) + n
        self.seen = {}
        return [Event("reshuffle", None, {"deck": self.deck})]

    # ---- going for the crown -------------------------------------------------------------

    def _ask_crown(self) -> list[Decision]:
        """Every seat that could reach the crown answers, in any order, seeing earlier answers; a seat
        that passed is asked again when someone declares after it (``crown_reask``). Declaring is final."""
        declarations = sum(self.declared.values())
        return [Decision(s, "crown", Kind.CHOICE, ("pass", "declare"), labels=(N_("Pass"), N_("Go for the Crown")),
                         prompt=N_("Going for the Crown too?") if s in self.declared else N_("Going for the Crown?"))
                for s in self.seat_numbers if self._may_answer(s, declarations)]

    def _may_answer(self, seat: int, declarations: int) -> bool:
        """The seat could reach the crown, and has not answered or passed before a later declaration."""
        hand = self.hands[seat - 1]
        if not hand or self.game.best_total(len(hand), self.stars(seat)) < self.game.crown:
            return False
        if seat not in self.declared:
            return True
        return (self.game.settings["crown_reask"] and not self.declared[seat]
                and self.passed_at[seat] < declarations)

    def _on_crown(self, d: Decision, value: str) -> list[Event]:
        self.declared[d.seat] = value == "declare"
        if not self.declared[d.seat]:
            self.passed_at[d.seat] = sum(self.declared.values())
        return [Event("crown", d.seat, {"declare": self.declared[d.seat]})]

    def _after_crown(self) -> list[Event]:
        self.dice = {s: "prize" for s, yes in self.declared.items() if yes}
        self.phase = "dice"
        return []

    # ---- secret die pick and the roll ----------------------------------------------------

    def _ask_dice(self) -> list[Decision]:
        out = []
        for s in self.seat_numbers:
            if s not in self.dice:
                options = DICE if self.hands[s - 1] else WHACKING
                out.append(Decision(s, "die", Kind.CHOICE, options, group="dice",
                                    labels=tuple(DIE_NAMES[d] for d in options), prompt=N_("Pick a die")))
        return out

    def _on_dice(self, d: Decision, value: str) -> list[Event]:
        self.dice[d.seat] = value
        return []

    def _after_dice(self) -> list[Event]:
        self.rolls = [(s, die, None) for s, die in sorted(self.dice.items())]
        self.phase = "roll"
        return []

    def _ask_roll(self) -> list[Decision]:
        return [_chance(roll_key(s, die), Counter(self.game.faces[die]), s, N_("{die}: what did it roll?"),
                        fields=(("die", DIE_NAMES[die]),))
                for s, die, face in self.rolls if face is None]

    def _on_roll(self, d: Decision, face) -> list[Event]:
        i = next(i for i, (s, die, _) in enumerate(self.rolls) if roll_key(s, die) == d.key)
        seat, die, _ = self.rolls[i]
        self.rolls[i] = (seat, die, face)
        return [Event("roll", seat, {"die": die, "face": face})]

    def _after_roll(self) -> list[Event]:
        """Each hole's moles go to the one die on it, or split evenly among several (every die counts alone)."""
        events = []
        for hole in range(1, HOLES + 1):
            on = [(s, die) for s, die, face in self.rolls if face == hole and die != "prize"]
            if not on:
                continue
            each = self.holes[hole - 1] // len(on)
            for s, _ in on:
                self.taking[s - 1] += each
            self.holes[hole - 1] -= each * len(on)
            events.append(Event("whack", None, {"hole": hole, "dice": [list(x) for x in on], "each": each,
                                                "stays": self.holes[hole - 1]}))
        self.phase = "take"
        return events

    # ---- picking up whacked moles --------------------------------------------------------

    def _ask_take(self) -> list[Decision]:
        """A card's stars: any face the deck has, weighted by the unseen cards the box counts of it. The box
        draws only what it counts; a seat entering a physical card may enter any face (the counts are
        this project's assumption, the printed cards are the truth)."""
        pool = {v: self.unseen[v] for v in self.game.deck}
        return [_chance(f"mole-{s}", pool, s, N_("Stars on the mole you took?"), "cards")
                for s in self.seat_numbers if self.taking[s - 1]]

    def _on_take(self, d: Decision, stars: int) -> list[Event]:
        seat = d.enter_by
        if self.unseen[stars]:
            self.unseen[stars] -= 1
        else:        # the table's deck holds more of these than the box assumed: fewer of its commonest face
            self.unseen[max(self.unseen, key=self.unseen.get)] -= 1
        self.taking[seat - 1] -= 1
        if self.showdown:
            self.face_up[seat - 1].append(stars)
            return [Event("take", seat, {"stars": stars})]
        self.hands[seat - 1].append(stars)
        return [Event("take", seat, {"stars": stars}, to=seat)]

    def _after_take(self) -> list[Event]:
        if self.showdown:
            return self._score_showdown()
        self.phase = "discard"
        return []

    # ---- the hand limit ------------------------------------------------------------------

    def _ask_discard(self) -> list[Decision]:
        return [Decision(s, "discard", Kind.CHOICE, tuple(sorted(set(hand))),
                         prompt=N_("Over the limit: discard {n}"), fields=(("n", len(hand) - self.game.limit),))
                for s, hand in zip(self.seat_numbers, self.hands) if len(hand) > self.game.limit]

    def _on_discard(self, d: Decision, stars: int) -> list[Event]:
        hand = self.hands[d.seat - 1]
        hand.remove(stars)
        self._move_to_discard([stars])
        return [Event("discard", d.seat, {"hand": len(hand)}), Event("discarded", d.seat, {"stars": stars}, to=d.seat)]

    def _after_discard(self) -> list[Event]:
        """Prize die rollers lay their moles face up and go on the star track; then the crown or the prizes."""
        self.track, self.picked, self.next_pick = [], [], None
        events = []
        for s, die, face in self.rolls:
            if die != "prize":
                continue
            moles, self.hands[s - 1] = self.hands[s - 1], []
            self.face_up[s - 1] = sorted(moles)
            total = sum(moles) + face + self.stars(s)
            self.track.append((s, total))
            events.append(Event("cash_in", s, {"moles": sorted(moles), "die": face, "prizes": self.stars(s),
                                               "total": total, "declared": self.declared.get(s, False)}))
        declarers = [(s, t) for s, t in self.track if self.declared.get(s)]
        events += [Event("crown_failed", s, {"total": t}) for s, t in declarers if t < self.game.crown]
        reached = [s for s, t in declarers if t >= self.game.crown]
        self.phase = "prize"
        if len(reached) == 1:
            return events + self._discard_face_up() + self._win(reached[0])
        if reached:
            return events + self._discard_face_up() + self._start_showdown(reached)
        return events

    # ---- prizes --------------------------------------------------------------------------

    def _up_next(self) -> list[int]:
        """The seats that could pick next: the highest total left; King Mole last in a tie."""
        waiting = [(s, t) for s, t in self.track if s not in self.picked and not self.declared.get(s)]
        if not waiting:
            return []
        top = max(t for _, t in waiting)
        group = [s for s, t in waiting if t == top]
        if self.next_pick in group:
            return [self.next_pick]
        if self.king in group and len(group) > 1:
            group.remove(self.king)
        return group

    def _ask_prize(self) -> list[Decision]:
        group = self._up_next()
        if not group:
            return []
        total = dict(self.track)[group[0]]
        options = self._affordable(total)
        if len(group) > 1 and options:
            return [_seat_choice(self.king, "order", group, N_("Tie at {total}: who picks first?"),
                                 (("total", total),))]
        if len(group) == 1 and len(options) > 1:
            return [Decision(group[0], "prize", Kind.CHOICE, options,
                             labels=tuple(f"{STANDS[i - 1][0]} {STANDS[i - 1][1]}" for i in options),
                             prompt=N_("Pick a prize ({total} stars)"), fields=(("total", total),))]
        return []

    def _on_prize(self, d: Decision, value: int) -> list[Event]:
        if d.key == "order":
            self.next_pick = value
            return [Event("order", d.seat, {"next": value})]
        return self._take_prize(d.seat, value)

    def _after_prize(self) -> list[Event]:
        """Automatic picks: the one affordable prize, or none ("too bad"); then the end of the round."""
        group = self._up_next()
        if not group:
            return self._end_round()
        seat = group[0]
        total = dict(self.track)[seat]
        options = self._affordable(total)
        if options:
            return self._take_prize(seat, options[0])
        self.picked.append(seat)
        shown = [stars for (_, stars), up in zip(STANDS, self.shown) if up]
        return [Event("no_prize", seat, {"total": total, "least": min(shown) if shown else None})]

    def _take_prize(self, seat: int, stand: int) -> list[Event]:
        self.shown[stand - 1] = False
        self.prizes[seat - 1].append(stand)
        self.picked.append(seat)
        self.next_pick = None
        name, stars = STANDS[stand - 1]
        return [Event("prize", seat, {"stand": stand, "name": name, "stars": stars, "total_stars": self.stars(seat)})]

    def _discard_face_up(self) -> list[Event]:
        cards = sum(len(m) for m in self.face_up)
        for moles in self.face_up:
            self._move_to_discard(moles)
        self.face_up = [[] for _ in self.seat_numbers]
        return [Event("discard", None, {"cards": cards})] if cards else []

    def _end_round(self) -> list[Event]:
        """Discard the face-up moles, restock the stands, let full holes flee (2-3 players)."""
        self.history.append([self.stars(s) for s in self.seat_numbers])
        events = self._discard_face_up()
        for i, (name, stars) in enumerate(STANDS):
            if not self.shown[i] and self.stock[i]:
                self.stock[i] -= 1
                self.shown[i] = True
                events.append(Event("restock", None, {"stand": i + 1, "name": name, "stars": stars,
                                                      "left": self.stock[i]}))
        flee_at = self.game.settings["flee_at"]
        if self.game.seats <= FLEE_SEATS and flee_at:
            for hole in range(HOLES):
                if self.holes[hole] >= flee_at:
                    events.append(Event("flee", None, {"hole": hole + 1, "moles": self.holes[hole]}))
                    self.discard += self.holes[hole]      # face down: nobody saw their stars
                    self.holes[hole] = 0
        self.phase = "deal"
        return events

    # ---- the showdown and the end --------------------------------------------------------

    def _start_showdown(self, contenders: list[int]) -> list[Event]:
        """Clear the board, deal one mole per contender to each hole, and roll all four dice each."""
        self.showdown = list(contenders)
        self.discard += sum(self.holes)
        self.holes = [0] * HOLES
        events = [Event("showdown", None, {"contenders": list(contenders)})] + self._deal(len(contenders))
        self.rolls = [(s, die, None) for s in contenders for die in DICE]
        self.phase = "roll"
        return events

    def _score_showdown(self) -> list[Event]:
        prize_die = {s: face for s, die, face in self.rolls if die == "prize"}
        self.track = [(s, sum(self.face_up[s - 1]) + prize_die[s]) for s in self.showdown]
        events = [Event("showdown_score", s, {"moles": sorted(self.face_up[s - 1]), "die": prize_die[s],
                                              "total": t}) for s, t in self.track]
        self.phase = "tie"
        tied = self._showdown_tied()
        return events + (self._win(tied[0]) if len(tied) == 1 else [])

    def _showdown_tied(self) -> list[int]:
        """The best showdown totals; King Mole loses any tie they are in."""
        best = max(t for _, t in self.track)
        tied = [s for s, t in self.track if t == best]
        return [s for s in tied if s != self.king] if len(tied) > 1 else tied

    def _ask_tie(self) -> list[Decision]:
        return [_seat_choice(self.king, "tie", self._showdown_tied(), N_("Showdown tie: who wins the Crown?"))]

    def _on_tie(self, d: Decision, seat: int) -> list[Event]:
        return [Event("order", d.seat, {"next": seat})] + self._win(seat)

    def _win(self, seat: int) -> list[Event]:
        self.winner = self.king = seat
        self.phase = "over"
        self.history.append([self.stars(s) for s in self.seat_numbers])
        result = self.result()
        return [Event("crown_won", seat, {"king_mole": seat}),
                Event("game_over", None, {"winners": list(result.winners), "scores": list(result.scores)})]

    # ---- views ---------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """Counts for everyone; star values only where the rules put them face up, or to the hand's owner."""
        king = self.king
        order = sorted(self.track, key=lambda st: (-st[1], st[0] == king, st[0]))
        out = {
            "round": self.round,
            "phase": self.phase,
            "king_mole": king,
            "crown": self.game.crown,
            "hand_limit": self.game.limit,
            "deck": self.deck,
            "discard": self.discard,
            "holes": list(self.holes),
            "stands": [{"stand": i + 1, "name": name, "stars": stars, "shown": self.shown[i],
                        "left": self.stock[i] + self.shown[i]} for i, (name, stars) in enumerate(STANDS)],
            "seats": [{"seat": s, "hand": len(self.hands[s - 1]), "taking": self.taking[s - 1],
                       "prizes": list(self.prizes[s - 1]), "stars": self.stars(s),
                       "crown": {True: "declared", False: "passed"}.get(self.declared.get(s))}
                      for s in self.seat_numbers],
            "rolls": [{"seat": s, "die": die, "face": face} for s, die, face in self.rolls],
            "track": [{"seat": s, "total": t, "moles": sorted(self.face_up[s - 1]),
                       "declared": bool(self.declared.get(s)), "done": s in self.picked} for s, t in order],
            "showdown": list(self.showdown),
            "winner": self.winner,
            "history": [list(h) for h in self.history],
        }
        if seat is not None:
            out["hand"] = sorted(self.hands[seat - 1])
        return out


GAME = registry.register(MolePark, doc="docs/rules/mole-park.md", bots="rules.bots.mole_park")
