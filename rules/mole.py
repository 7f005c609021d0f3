"""Mole, the coin game: the box referees and keeps score while two players flick coins.

A round is a run of turns, the mignettes first: the mignette player calls
(flick all, or Nasdaq) and flicks; the mole player calls (flick, taupiniere,
Nasdaq) and flicks once. After each turn's flicks the flicker reports what
happened in a few short questions, each asked only when the answer can change
the outcome: where the mole went, which mignettes died and how, and what the
rules need to know beyond that (was the mole in Rosserie or the mole circle,
which mignette hit it, where it crossed from). Meanwhile the other player may
claim a push, which concedes the round. The box applies the round rules: the
mole wins and keeps the mole (a point), the mignettes win and the roles swap,
or a tie replays with the same roles; the match goes to 11 by a clear two.
Mignettes are numbered 1..N; hole *k* is mignette *k* whenever a mignette is asked for.
Settings choose between readings of the text: which edges the mole's protection covers
(``protection``) and what crossing from behind the loup line costs (``loup_cross``).
See docs/rules/mole.md for the decisions the text leaves open.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from . import registry
from .model import N_, Decision, Event, Game, Kind, Move, Result, State

MOLE, MIGNETTES, TIE = "mole", "mignettes", "tie"

CALLS = {"mignettes": (("flick", N_("Flick all")), ("nasdaq", N_("Nasdaq"))),
         "mole": (("flick", N_("Flick")), ("taupiniere", N_("Taupiniere")), ("nasdaq", N_("Nasdaq")))}
#: where the mole went, by whose flick moved it: (option, label)
WHERE = {"mignettes": (("board", N_("On board")), ("gad", N_("Touching a mignette")), ("line", N_("Over line")),
                       ("back", N_("Off back")), ("side", N_("Off side"))),
         "mole": (("board", N_("On board")), ("line", N_("Over line")), ("side", N_("Off side")),
                  ("back", N_("Off back")), ("under", N_("Under mignette")))}
HOW = (("rosserie", N_("Rosserie")), ("circle", N_("Mole circle")), ("off", N_("Off board")))
GAD = (("touching", N_("Touching")), ("on_top", N_("On top")))
YES_NO = (("no", N_("No")), ("yes", N_("Yes")))
#: where the mole crossed the winning line from: only "fully encompassed" loses, so a partly inside mole is "open"
START = (("open", N_("In the open or partly in")), ("encompassed", N_("Fully in Rosserie or circle")),
         ("loup", N_("Behind the loup")))
PUSH = (("push", N_("Push!")),)
#: the edges the mole leaves the board by when the mignettes knock it
KNOCKED = ("line", "back", "side")
#: the edges its protection (the first go, partly or fully in Rosserie or the circle) covers, by setting
PROTECTED = {"sides": ("side",), "edges": KNOCKED}

#: why a round ended, in words for the displays and the log
REASONS = {
    "line": N_("mole over the winning line"),
    "knocked_line": N_("mole knocked over the line"),
    "knocked_back": N_("mole knocked off the back"),
    "knocked_side": N_("mole knocked off a side"),
    "hitter_died": N_("the hitting mignette died"),
    "recompense": N_("mole off, all mignettes dead"),
    "all_dead": N_("every mignette dead"),
    "gad": N_("a mignette on top of the mole (Gad)"),
    "fell_side": N_("mole fell off a side"),
    "fell_back": N_("mole fell off the back"),
    "under": N_("mole under a mignette"),
    "killed_crossing": N_("killed while crossing"),
    "encompassed": N_("crossed from fully in Rosserie/circle"),
    "loup": N_("crossed from behind the loup line"),
    "too_many": N_("killed two without taupiniere"),
    "taupiniere": N_("taupiniere, not two kills"),
    "push": N_("a push: round conceded"),
}


class Mole(Game):
    id = "mole"
    title = "Mole"
    min_seats = 2
    max_seats = 2

    def initial_state(self) -> "MoleState":
        state = MoleState(self, mole=self.settings["first_mole"], scores=[0, 0])
        state.reset()
        return state

    @property
    def mignette_numbers(self) -> tuple[int, ...]:
        return tuple(range(1, self.settings["mignettes"] + 1))


def _choice(seat: int, key: str, pairs, prompt: str, default=None, fields: tuple = ()) -> Decision:
    return Decision(seat, key, Kind.CHOICE, tuple(o for o, _ in pairs), labels=tuple(label for _, label in pairs),
                    prompt=prompt, default=default, fields=fields)


@dataclass
class MoleState(State):
    game: Mole
    mole: int                                       # the seat playing the mole
    scores: list[int]
    round: int = 0
    side: str = "mignettes"                         # whose turn: "mignettes" or "mole"
    alive: list[int] = field(default_factory=list)  # mignettes on the board
    deaths: list[dict] = field(default_factory=list)  # this round: {"mignette", "how", "by"}
    first_go: bool = True                           # the mignettes' first turn: the mole cannot be knocked off
    gad: bool = False                               # a mignette touches the mole: no Nasdaq for the mole
    call: str | None = None                         # this turn's call, once made
    report: dict = field(default_factory=dict)      # this turn's answers so far
    turn: int = 1                                   # turns played this round, counting this one
    last: dict | None = None                        # the last finished turn, for the displays
    rounds: list[dict] = field(default_factory=list)
    history: list[list[int]] = field(default_factory=list)

    # ---- who is who -----------------------------------------------------------------------

    @property
    def mignettes(self) -> int:
        return 3 - self.mole

    @property
    def flicker(self) -> int:
        return self.mole if self.side == "mole" else self.mignettes

    @property
    def phase(self) -> str:
        if self.result() is not None:
            return "over"
        return "call" if self.call is None else "report"

    def reset(self) -> None:
        """A new round: the board reset, mignettes in the nichee, the mignettes to flick first."""
        self.round += 1
        self.side, self.alive, self.deaths = "mignettes", list(self.game.mignette_numbers), []
        self.first_go = self.round == 1 or self.game.settings["first_go"] == "round"
        self.gad, self.call, self.report, self.turn = False, None, {}, 1

    def calls(self) -> list[dict]:
        """The calls open to the flicker now, each legal or not and why: what the box suggests."""
        out = []
        for call, label in CALLS[self.side]:
            why = None
            if self.side == "mole" and call == "taupiniere" and len(self.alive) < 2:
                why = N_("one mignette left")
            if self.side == "mole" and call == "nasdaq" and self.gad:
                why = N_("touching a mignette (Gad)")
            out.append({"call": call, "label": label, "legal": why is None, "why": why})
        return out

    # ---- the questions of a report --------------------------------------------------------

    def _question(self) -> Decision | None:
        """The next thing the flicker must report, or None when the report is complete."""
        r, seat, mignettes = self.report, self.flicker, self.side == "mignettes"
        if "where" not in r:
            return _choice(seat, "where", WHERE[self.side], N_("Where is the mole?"), "board")
        where = r["where"]
        if where == "gad" and "gad" not in r:
            return _choice(seat, "gad", GAD, N_("Touching (Gad): a mignette on top?"), "touching")
        covered = mignettes and where in PROTECTED[self.game.settings["protection"]]
        if covered and not self.first_go and "protected" not in r:
            return _choice(seat, "protected", YES_NO, N_("Partly or fully in Rosserie or the circle?"), "no")
        if self._decided_early():
            return None
        if "dead" not in r:
            prompt = N_("Mignettes that died?") if mignettes else N_("Which did you kill?")
            return Decision(seat, "dead", Kind.HOLES, tuple(self.alive), min=0, max=len(self.alive), prompt=prompt)
        if self._needs_hitter() and "hitter" not in r:
            return Decision(seat, "hitter", Kind.CHOICE, tuple(self.alive), prompt=N_("Which hit the mole?"))
        crossing = not mignettes and where == "line" and not r["dead"] and self.call == "flick"
        if crossing and "start" not in r:
            starts = START if self.game.settings["loup_line"] else START[:2]
            return _choice(seat, "start", starts, N_("Crossed from where?"), "open")
        if self._judge()[0] is None:
            for n in r["dead"]:
                if f"how-{n}" not in r:
                    return _choice(seat, f"how-{n}", HOW, N_("How did mignette {n} die?"),
                                   "rosserie" if mignettes else "off", (("n", n),))
        return None

    def _put_back(self) -> str | None:
        """Why the mole goes back where it stood rather than off the board (None: it does not)."""
        r = self.report
        if self.side == "mignettes":
            if r["where"] not in PROTECTED[self.game.settings["protection"]]:
                return None
            if self.first_go:
                return N_("first go")
            return N_("partly or fully in Rosserie/circle") if r.get("protected") == "yes" else None
        if r["where"] == "line" and r.get("start") == "loup" and self.game.settings["loup_cross"] == "back":
            return N_("behind the loup line")
        return None

    def _knocked_off(self) -> bool:
        """The mignettes knocked the mole off the board, and it was not protected."""
        return self.side == "mignettes" and self.report["where"] in KNOCKED and self._put_back() is None

    def _decided_early(self) -> bool:
        """The round is decided before any mignette's death can matter."""
        r = self.report
        if self.side == "mignettes":
            return r.get("gad") == "on_top" or (self._knocked_off() and r["where"] == "line")
        return r["where"] in ("side", "back", "under")

    def _needs_hitter(self) -> bool:
        """Off a side with some but not all mignettes dead: the hitter's fate decides."""
        dead = self.report["dead"]
        return self._knocked_off() and self.report["where"] == "side" and 0 < len(dead) < len(self.alive)

    def _judge(self) -> tuple[str | None, str | None]:
        """(winner or None while the round goes on, reason) from a complete report."""
        r = self.report
        where, dead = r["where"], r.get("dead", ())
        all_dead = len(dead) == len(self.alive)
        if self.side == "mignettes":
            if r.get("gad") == "on_top":
                return MIGNETTES, "gad"
            if self._knocked_off():
                if where == "line":
                    return MOLE, "knocked_line"
                if all_dead:
                    return TIE, "recompense"
                if where == "back":
                    return MOLE, "knocked_back"
                if r.get("hitter") in dead:
                    return (TIE if self.game.settings["hitter_dies"] == "tie" else MOLE), "hitter_died"
                return MIGNETTES, "knocked_side"
            return (MOLE, "all_dead") if all_dead else (None, None)
        if where in ("side", "back"):
            return MIGNETTES, f"fell_{where}"
        if where == "under":
            return MIGNETTES, "under"
        if self.call == "taupiniere" and len(dead) != 2:
            return MIGNETTES, "taupiniere"
        if where == "line":
            if dead:
                return MIGNETTES, "killed_crossing"
            if r["start"] == "open":
                return MOLE, "line"
            return (None, None) if self._put_back() else (MIGNETTES, r["start"])
        if self.call == "flick" and len(dead) > 1:
            return MIGNETTES, "too_many"
        return (MOLE, "all_dead") if all_dead else (None, None)

    # ---- the state machine ----------------------------------------------------------------

    def pending(self) -> list[Decision]:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "call":
            legal = [(c["call"], c["label"]) for c in self.calls() if c["legal"]]
            prompt = N_("Mole: your call") if self.side == "mole" else N_("Mignettes: your call")
            return [_choice(self.flicker, "call", legal, prompt, "flick")]
        opponent = 3 - self.flicker
        return [self._question(), _choice(opponent, "push", PUSH, N_("Claim a push?"))]

    def apply(self, move: Move) -> list[Event]:
        value = move.value
        if move.key == "push":
            winner = MOLE if self.side == "mignettes" else MIGNETTES
            return [Event("push", move.seat, {"against": self.flicker})] + self._end_round(winner, "push")
        if move.key == "call":
            self.call = value
            events = [Event("call", move.seat, {"side": self.side, "call": value})]
            if self.side == "mole" and value == "nasdaq":
                return events + self._pass()
            return events
        self.report[move.key] = list(value) if move.key == "dead" else value
        return [] if self._question() is not None else self._resolve()

    def _summary(self) -> dict:
        """This turn as the displays recall it."""
        r = self.report
        return {"seat": self.flicker, "side": self.side, "call": self.call, "where": r.get("where"),
                "dead": list(r.get("dead", ())), "gad": r.get("gad") == "touching"}

    def _resolve(self) -> list[Event]:
        """The report is complete: decide the round, or apply the deaths and pass the turn."""
        r = self.report
        winner, reason = self._judge()
        events = [Event("flick", self.flicker, self._summary())]
        if winner is not None:
            return events + self._end_round(winner, reason)
        why = self._put_back()
        if why:
            events.append(Event("mole_back", None, {"where": r["where"], "why": why}))
        by = self.side
        for n in r.get("dead", ()):
            self.alive.remove(n)
            self.deaths.append({"mignette": n, "how": r[f"how-{n}"], "by": by, "turn": self.turn})
            events.append(Event("died", self.flicker, {"mignette": n, "how": r[f"how-{n}"], "by": by,
                                                       "alive": len(self.alive)}))
        self.gad = r.get("gad") == "touching"
        return events + self._pass()

    def _pass(self) -> list[Event]:
        """The turn is over and the round goes on: the other side flicks."""
        self.last = {**self._summary(), "winner": None, "reason": None}
        if self.side == "mignettes":
            self.first_go = False
        else:
            self.gad = False
        self.side = "mole" if self.side == "mignettes" else "mignettes"
        self.call, self.report = None, {}
        self.turn += 1
        return [Event("turn", self.flicker, {"side": self.side, "turn": self.turn})]

    def _end_round(self, winner: str, reason: str) -> list[Event]:
        """Score the round (a point for the mole's win), swap roles on the mignettes' win, reset the board."""
        mole = self.mole
        self.last = {**self._summary(), "winner": winner, "reason": reason}
        if winner == MOLE:
            self.scores[mole - 1] += 1
        elif winner == MIGNETTES:
            self.mole = self.mignettes
        self.rounds.append({"round": self.round, "mole": mole, "winner": winner, "reason": reason,
                            "turns": self.turn, "scores": list(self.scores)})
        self.history.append(list(self.scores))
        events = [Event("round_over", mole, {"round": self.round, "winner": winner, "reason": reason,
                                             "text": REASONS[reason], "scores": list(self.scores),
                                             "mole_next": self.mole})]
        result = self.result()
        if result is not None:
            self.call, self.report = None, {}
            return events + [Event("game_over", None, {"winners": list(result.winners),
                                                       "scores": list(result.scores)})]
        self.reset()
        return events

    def result(self) -> Result | None:
        top, low = max(self.scores), min(self.scores)
        if top < self.game.settings["target"] or top - low < self.game.settings["margin"]:
            return None
        return Result(tuple(self.scores), (self.scores.index(top) + 1,))

    # ---- views ----------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """Everything in Mole is public: every seat sees the same."""
        return {
            "round": self.round, "phase": self.phase, "mole": self.mole, "mignettes": self.mignettes,
            "side": self.side, "flicker": self.flicker, "turn": self.turn,
            "scores": list(self.scores), "target": self.game.settings["target"],
            "margin": self.game.settings["margin"],
            "alive": list(self.alive), "count": self.game.settings["mignettes"],
            "deaths": copy.deepcopy(self.deaths),
            "first_go": self.first_go, "gad": self.gad, "call": self.call,
            "calls": self.calls() if self.phase == "call" else [],
            "question": self._asking(),
            "report": copy.deepcopy(self.report),
            "last": copy.deepcopy(self.last),
            "rounds": copy.deepcopy(self.rounds),
            "history": [list(h) for h in self.history],
        }

    def _asking(self) -> dict | None:
        """The flicker's open question (a call or a report's), as everyone may see it."""
        pending = self.pending()
        return {"key": pending[0].key, "options": list(pending[0].options)} if pending else None

    def clone(self) -> "MoleState":
        return copy.deepcopy(self, {id(self.game): self.game})


GAME = registry.register(Mole, doc="docs/rules/mole.md",
                        no_bots="Mole is played by flicking real coins: the box has no computer flicks "
                                "(it suggests the calls the rules allow instead)")
