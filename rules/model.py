"""The vocabulary every game speaks: decisions, moves, events and game states."""
from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping


class Kind(str, enum.Enum):
    """What shape of answer a decision wants."""

    HOLES = "holes"      # a set of holes (options), between min and max of them
    CHOICE = "choice"    # exactly one of the options
    CELL = "cell"        # one grid cell, options are (col, row) pairs
    EDGE = "edge"        # one grid edge, options are (col, row, side) triples
    CONFIRM = "confirm"  # a single option: go on
    CHANCE = "chance"    # a die roll or a card draw, answered by a chance source


def N_(message: str) -> str:
    """Marks a sentence a player reads (a prompt, a label, a refusal) for the app's catalogue of words, which
    says it in the box's language; the engine itself only ever holds the English."""
    return message


class IllegalMove(ValueError):
    """A move the current state does not allow; the message says why."""


@dataclass(frozen=True)
class Decision:
    """One thing one seat (or chance, seat None) must decide next.

    ``group`` names a secret simultaneous group: every decision of the group is
    held by the match until all of them are committed, then applied together.
    A chance decision names the seat that types in a physical outcome
    (``enter_by``) and whether it comes from dice or cards (``source``).
    ``default`` is the option a choice's draft starts on (OK alone commits it).
    ``prompt`` and ``labels`` are English sentences marked with :func:`N_`; the prompt's ``{fields}`` are
    filled in from ``fields`` and a label's ``{option}`` with its option, after the app translates them.
    """

    seat: int | None
    key: str
    kind: Kind
    options: tuple
    min: int = 1
    max: int = 1
    group: str | None = None
    weights: tuple | None = None
    prompt: str = ""
    labels: tuple[str, ...] | None = None
    fields: tuple[tuple[str, Any], ...] = ()     # the prompt's {fields}: (name, value) pairs
    enter_by: int | None = None
    source: str = "dice"          # chance only: "dice" or "cards", each virtual or physical per match
    default: Any = None           # choice only: the option the draft starts on (the usual answer)

    @property
    def secret(self) -> bool:
        return self.group is not None

    def check(self, value: Any) -> Any:
        """Return ``value`` in canonical form, or raise IllegalMove saying why."""
        if self.kind is Kind.HOLES:
            if not isinstance(value, (list, tuple, set, frozenset)):
                raise IllegalMove(f"{self.key}: expected a set of holes, got {value!r}")
            chosen = tuple(sorted(set(value)))
            bad = [v for v in chosen if v not in self.options]
            if bad:
                raise IllegalMove(f"{self.key}: hole {bad[0]} is not one of {list(self.options)}")
            if not self.min <= len(chosen) <= self.max:
                raise IllegalMove(f"{self.key}: choose {self.min} to {self.max} holes, not {len(chosen)}")
            return chosen
        if isinstance(value, list):
            value = tuple(value)
        if value not in self.options:
            raise IllegalMove(f"{self.key}: {value!r} is not a legal choice")
        return value

    def label(self, value: Any, translate: Callable[[str], str] = str) -> str:
        """The option's label, its ``{option}`` filled in, in the language ``translate`` gives (English)."""
        if self.labels is not None and value in self.options:
            return translate(self.labels[self.options.index(value)]).format(option=value)
        return str(value)

    def question(self, translate: Callable[[str], str] = str) -> str:
        """The prompt with its fields filled in (the words among them translated too), in ``translate``'s
        language (English)."""
        fields = {name: translate(value) if isinstance(value, str) else value for name, value in self.fields}
        return translate(self.prompt).format(**fields)


@dataclass(frozen=True)
class Move:
    """An answer to a decision: by a seat, or by chance when ``seat`` is None."""

    seat: int | None
    key: str
    value: Any


@dataclass(frozen=True)
class Event:
    """Something that happened. ``to`` is None for public events, else the only seat told."""

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    to: int | None = None

    def as_dict(self) -> dict:
        return {"kind": self.kind, "seat": self.seat, **dict(self.data)}


@dataclass(frozen=True)
class Result:
    """The end of a game: final scores (by seat) and the winning seats (several on a shared win)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


class State(ABC):
    """A game in progress. Seats are numbered 1..N.

    Subclasses keep only plain data so that ``clone`` and ``view`` stay cheap.
    """

    game: ClassVar[type["Game"]]

    @abstractmethod
    def pending(self) -> list[Decision]:
        """What must be decided next; empty only when the game is over."""

    @abstractmethod
    def apply(self, move: Move) -> list[Event]:
        """Apply one legal move in place and return what it caused. Its value is in canonical form: whoever
        calls checks it first (:func:`rules.match.checked`, the one legality check of every game)."""

    def decision(self, move: Move) -> Decision:
        """The pending decision a legal ``move`` answers."""
        return next(d for d in self.pending() if d.seat == move.seat and d.key == move.key)

    @abstractmethod
    def view(self, seat: int | None) -> dict:
        """What ``seat`` may know (None: what everyone may know), as JSON-ready data."""

    @abstractmethod
    def result(self) -> Result | None:
        """The final result, or None while the game goes on."""

    @abstractmethod
    def clone(self) -> "State":
        """An independent copy."""

    def refusal(self, key: str, value: Any) -> str | None:
        """Why ``value`` is no legal answer to ``key`` now, in a few words for a seat's OLED (None: not said)."""
        return None


class Game(ABC):
    """A game's identity and its settings; makes the first state."""

    id: ClassVar[str]
    title: ClassVar[str]
    short_title: ClassVar[str] = ""     # for a 10-character line; the title when empty
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    chance: ClassVar[tuple[str, ...]] = ()   # what it draws by chance, each virtual or by hand: "dice", "cards"

    def __init__(self, seats: int, settings: Mapping[str, Any]):
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(f"{self.title} takes {self.min_seats} to {self.max_seats} seats, not {seats}")
        self.seats = seats
        self.settings = dict(settings)

    @abstractmethod
    def initial_state(self) -> State:
        """The state before the first decision."""

    def opening(self) -> tuple[State, list[Event]]:
        """The state before the first decision and the events that setting it up made (Mole Park deals its first
        round): a match logs them as its first."""
        return self.initial_state(), []
