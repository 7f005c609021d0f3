"""A game being played: secret simultaneous groups, chance, transcript and replay.

The match sits between a game's pure state machine and whoever presses the
buttons. It holds secret picks *outside* the game state until every seat of the
group has committed, so nothing derived from the state (views, displays,
lamps) can depend on an unrevealed pick. Chance is answered by a seeded source
that depends only on (seed, index), or entered by a seat from physical dice.
Every applied answer is a transcript record; replaying the records rebuilds the
match exactly, so undo is "replay all but the last".
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from . import registry, settings as variant_settings
from .model import Decision, Event, IllegalMove, Kind, Move, Result

RETRACT = "@retract"
TRANSCRIPT_VERSION = 1


@dataclass(frozen=True)
class Header:
    """Everything needed, besides the records, to replay a match."""

    game: str
    seats: int
    settings: dict = field(default_factory=dict)
    seed: int = 0
    dice: str = "virtual"          # "virtual": the box rolls; "physical": a seat enters the roll
    version: int = TRANSCRIPT_VERSION
    cards: str = "virtual"         # likewise for card draws: the box shuffles, or a seat enters the card
    bots: dict = field(default_factory=dict)   # seat -> level of the computer players (rules/bots)

    def __post_init__(self):
        for name in ("dice", "cards"):
            if getattr(self, name) not in ("virtual", "physical"):
                raise ValueError(f"{name} must be 'virtual' or 'physical', not {getattr(self, name)!r}")
        bots = {int(seat): level for seat, level in self.bots.items()}      # JSON keys come back as text
        for seat in bots:
            if not 1 <= seat <= self.seats:
                raise ValueError(f"bot seat {seat}: seats are 1 to {self.seats}")
        object.__setattr__(self, "bots", bots)

    def physical(self, chance: Decision) -> bool:
        """Whether a seat enters this chance outcome (else the box draws it). A computer player has no
        hands to roll or draw with: the box rolls its dice and draws its cards."""
        return (chance.enter_by is not None and chance.enter_by not in self.bots
                and getattr(self, chance.source) == "physical")


def chance_value(seed: int, index: int, decision: Decision) -> Any:
    """The virtual outcome of the ``index``-th chance decision: a function of seed and index only."""
    rng = random.Random(f"molebox/{seed}/{index}")
    return rng.choices(decision.options, weights=decision.weights)[0]


def checked(decisions: list[Decision], seat: int | None, key: str, value: Any) -> tuple[Decision, Any]:
    """The decision of ``decisions`` that ``seat`` answers by ``key``, and ``value`` in canonical form; IllegalMove
    saying why not. The one legality check of every game: a state's ``apply`` is given checked moves only."""
    decision = next((d for d in decisions if d.seat == seat and d.key == key), None)
    if decision is None:
        raise IllegalMove(f"{'chance' if seat is None else f'seat {seat}'} has nothing to decide for {key!r} now")
    return decision, decision.check(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


class Match:
    """One game from its header to its result."""

    def __init__(self, header: Header):
        game_cls = registry.game_class(header.game)
        settings = variant_settings.resolve(header.game, header.settings)
        self.header = Header(**{**asdict(header), "settings": settings})
        self.game = game_cls(header.seats, settings)
        self.state, opened = self.game.opening()
        self.records: list[dict] = []
        self.secret_records: set[int] = set()      # indexes of records that were secret picks
        self.held: dict[int, dict[str, Any]] = {}
        self.chance_count = 0
        self.events: list[Event] = []
        self._pending: list[Decision] | None = None
        self._open: list[Decision] | None = None
        self._views: dict[int | None, dict] = {}
        self._states: dict[int | None, dict] = {}   # each seat's view of the state alone: a lock-in leaves it as it is
        self._log: tuple[list[dict], int] = ([], 0)     # the public log so far, and how many events it covers
        self._emit(opened + self._settle())

    # ---- what is open -------------------------------------------------------------------

    def pending(self) -> list[Decision]:
        """The state's pending decisions, computed once per change of the state."""
        if self._pending is None:
            self._pending = self.state.pending()
        return self._pending

    def _state_apply(self, move: Move) -> list[Event]:
        self._pending = None
        self._states.clear()
        self._forget()
        return self.state.apply(move)

    def _forget(self) -> None:
        """The held picks or the state changed: what was worked out from them is out of date."""
        self._open = None
        self._views.clear()

    def open_decisions(self) -> list[Decision]:
        """Decisions still to be answered, as the seats see them (chance by a seat when physical); computed
        once per change of the match."""
        if self._open is None:
            self._open = self._open_decisions()
        return self._open

    def _open_decisions(self) -> list[Decision]:
        out = []
        for d in self.pending():
            if d.group is not None and d.key in self.held.get(d.seat, {}):
                continue
            if d.kind is Kind.CHANCE:
                if not self.header.physical(d):
                    continue
                d = Decision(seat=d.enter_by, key=d.key, kind=Kind.CHOICE, options=d.options,
                             prompt=d.prompt, labels=d.labels, enter_by=d.enter_by, fields=d.fields)
            out.append(d)
        return out

    def decisions_for(self, seat: int) -> list[Decision]:
        return [d for d in self.open_decisions() if d.seat == seat]

    def group_seats(self) -> list[int]:
        """Seats taking part in the open secret group."""
        return sorted({d.seat for d in self.pending() if d.group is not None})

    def locked(self, seat: int) -> bool:
        """True when the seat has committed every one of its picks in the open secret group."""
        mine = [d for d in self.pending() if d.group is not None and d.seat == seat]
        return bool(mine) and all(d.key in self.held.get(seat, {}) for d in mine)

    @property
    def over(self) -> bool:
        return self.state.result() is not None

    def result(self) -> Result | None:
        return self.state.result()

    # ---- answering ----------------------------------------------------------------------

    def submit(self, seat: int, key: str, value: Any) -> list[Event]:
        """Answer the open decision ``key`` of ``seat``; raises IllegalMove with the reason."""
        if self.over:
            raise IllegalMove("the game is over")
        if key in self.held.get(seat, {}):
            raise IllegalMove(f"seat {seat} is locked in; take the lock-in back first")
        decision, value = checked(self.open_decisions(), seat, key, value)
        self.records.append({"seat": seat, "key": key, "value": _jsonable(value)})
        if decision.group is not None:
            self.secret_records.add(len(self.records) - 1)
            return self._hold(seat, key, value)
        if decision.enter_by is not None:
            return self._apply(Move(None, key, value))
        return self._apply(Move(seat, key, value))

    def refusal(self, key: str, value: Any) -> str | None:
        """The game's own words for why ``value`` is no legal answer to ``key`` now, if it has any."""
        return self.state.refusal(key, value)

    def retract(self, seat: int) -> list[Event]:
        """Take back a seat's committed picks of the open group (before the group reveals)."""
        if not self.held.get(seat):
            raise IllegalMove(f"seat {seat} has no picks to take back")
        self.records.append({"seat": seat, "key": RETRACT})
        del self.held[seat]
        self._forget()
        return self._emit([Event("unlocked", seat)])

    def _hold(self, seat: int, key: str, value: Any) -> list[Event]:
        was_locked = self.locked(seat)
        self.held.setdefault(seat, {})[key] = value
        self._forget()
        events = [Event("picked", seat, {"key": key, "value": _jsonable(value)}, to=seat)]
        if self.locked(seat) and not was_locked:
            events.append(Event("locked", seat))
        group = [d for d in self.pending() if d.group is not None]
        if all(d.key in self.held.get(d.seat, {}) for d in group):
            events += self._reveal(group)
        return self._emit(events)

    def _reveal(self, group: list[Decision]) -> list[Event]:
        picks = {d.seat: {} for d in group}
        for d in group:
            picks[d.seat][d.key] = _jsonable(self.held[d.seat][d.key])
        held, self.held = self.held, {}
        self._forget()
        events = [Event("reveal", None, {"group": group[0].group, "picks": picks})]
        for d in group:
            events += self._state_apply(Move(d.seat, d.key, held[d.seat][d.key]))
        return events + self._settle()

    def _apply(self, move: Move) -> list[Event]:
        events = self._state_apply(move)
        if move.seat is None:
            self.chance_count += 1
        return self._emit(events + self._settle())

    def _settle(self) -> list[Event]:
        """Answer virtual chance decisions until a seat has to decide."""
        events: list[Event] = []
        while not self.over:
            chance = next((d for d in self.pending() if d.kind is Kind.CHANCE and not self.header.physical(d)), None)
            if chance is None:
                break
            value = chance_value(self.header.seed, self.chance_count, chance)
            self.records.append({"seat": None, "key": chance.key, "value": _jsonable(value)})
            self.chance_count += 1
            events += self._state_apply(Move(None, chance.key, value))
        return events

    def _emit(self, events: list[Event]) -> list[Event]:
        self.events.extend(events)
        return events

    # ---- views --------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """What ``seat`` may know (None: the public), JSON-ready. Never another seat's held pick.

        Made once per change of the match and then handed to every caller (the box asks for each
        seat's view at every redraw, and most presses change only a draft): read it, never change it.
        """
        if seat not in self._views:
            self._views[seat] = self._view(seat)
        return self._views[seat]

    def _view(self, seat: int | None) -> dict:
        if seat is not None:            # what every seat is told alike, from the public view
            return {**self.view(None), "state": self._state_view(seat), "you": seat,
                    "held": _jsonable(self.held.get(seat, {})),
                    "decisions": [decision_dict(d) for d in self.decisions_for(seat)]}
        result = self.result()
        return {
            "game": self.header.game,
            "title": self.game.title,
            "seats": self.header.seats,
            "settings": self.header.settings,
            "over": result is not None,
            "winners": list(result.winners) if result else [],
            "waiting": sorted({d.seat for d in self.open_decisions()}),
            "locked": [s for s in self.group_seats() if self.locked(s)],
            "state": self._state_view(None),
        }

    def _state_view(self, seat: int | None) -> dict:
        """The state's own view for ``seat``, made once per change of the state."""
        if seat not in self._states:
            self._states[seat] = self.state.view(seat)
        return self._states[seat]

    def events_for(self, seat: int | None, events: list[Event]) -> list[dict]:
        """The events ``seat`` may be told (None: the public ones)."""
        return [e.as_dict() for e in events if e.to is None or e.to == seat]

    def public_log(self) -> list[dict]:
        """Every event anyone may see, in order. Built on from the last call (a long game's log is not made
        again at every redraw), in a new list whenever it grows: a list handed out never changes, so any
        thread may read it."""
        log, seen = self._log
        if seen < len(self.events):
            log = log + self.events_for(None, self.events[seen:])
            self._log = (log, len(self.events))
        return log

    # ---- transcript ---------------------------------------------------------------------

    def transcript(self) -> dict:
        return {"header": _jsonable(asdict(self.header)), "records": list(self.records)}

    @classmethod
    def replay(cls, transcript: dict, upto: int | None = None) -> "Match":
        """Rebuild a match from its transcript (the first ``upto`` seat records, if given)."""
        match = cls(Header(**transcript["header"]))
        records = transcript["records"]
        for index, rec in enumerate(records):
            if rec["seat"] is None:
                expected = match.records[index] if index < len(match.records) else None
                if expected != rec:
                    raise ValueError(f"transcript record {index}: chance {rec} does not replay (got {expected})")
                continue
            if upto is not None and sum(1 for r in match.records if r["seat"] is not None) >= upto:
                break
            if rec["key"] == RETRACT:
                match.retract(rec["seat"])
            else:
                match.submit(rec["seat"], rec["key"], rec["value"])
        return match

    def seat_records(self) -> int:
        return sum(1 for r in self.records if r["seat"] is not None)


def decision_dict(d: Decision) -> dict:
    return {
        "key": d.key,
        "kind": d.kind.value,
        "options": _jsonable(list(d.options)),
        "labels": [d.label(o) for o in d.options] if d.labels else None,
        "min": d.min,
        "max": d.max,
        "secret": d.secret,
        "prompt": d.question(),
        "default": _jsonable(d.default),
    }
