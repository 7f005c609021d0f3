"""Mouse Madness (John Kirk): a dice race to the cheese, pushing and jumping the other mice.

Spaces run from the start (0) to the cheese (``board.length``). Everyone rolls
for the first turn, ties among the highest rolling again. Then the mover rolls,
goes forward or back that many spaces, and resolves the landing: a token on a
mouse hole falls to the arrow's space; next to a token the mover may jump it;
on a token the mover pushes it one space, and the push runs on down the line
until every token stands alone. See docs/rules/mouse-madness.md.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from . import registry
from .model import N_, Decision, Event, Game, Kind, Move, Result, State

FORWARD, BACK = 1, -1
STEPS = {"forward": FORWARD, "back": BACK}
DIE = tuple(range(1, 7))
MAX_SEATS = 6
BOARD_FILE = "rules/boards/mouse-madness.toml"
BOARD_KEYS = ("doc", "length", "holes")


class BoardError(ValueError):
    """A board that cannot be played; the message names the board and the fix."""


@dataclass(frozen=True)
class Board:
    """A track of ``length`` spaces after the start; ``holes`` maps a mouse hole to its arrow's space."""

    name: str
    length: int
    holes: dict[int, int]

    def __post_init__(self):
        # Two full rolls to the cheese: every roll then has a way to go. Holes beyond space
        # MAX_SEATS and arrows pointing back to plain spaces: every push chain then ends.
        where = f"{BOARD_FILE} [{self.name}]"
        if self.length < 2 * len(DIE):
            raise BoardError(f"{where}: length {self.length} is too short; put the cheese at least "
                             f"{2 * len(DIE)} spaces out, so every roll has a way to go")
        for hole, target in self.holes.items():
            if not MAX_SEATS < hole < self.length:
                raise BoardError(f"{where}: hole {hole} is off limits; put holes on spaces {MAX_SEATS + 1} "
                                 f"to {self.length - 1}, beyond the reach of a push chain from the start")
            if not 1 <= target < hole:
                raise BoardError(f"{where}: the arrow of hole {hole} points to {target}; point it back, "
                                 f"to a space from 1 to {hole - 1}")
            if target in self.holes:
                raise BoardError(f"{where}: the arrow of hole {hole} points to hole {target}; "
                                 f"point it to a space without a hole")


def parse_boards(text: str) -> dict[str, Board]:
    """Boards from the text of a board file, by name; a BoardError says which board and how to fix it."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BoardError(f"{BOARD_FILE}: {exc}; fix the TOML syntax") from None
    out = {}
    for name, table in raw.items():
        where = f"{BOARD_FILE} [{name}]"
        unknown = sorted(set(table) - set(BOARD_KEYS)) if isinstance(table, dict) else ["(not a table)"]
        if unknown:
            raise BoardError(f"{where}: unknown key {unknown[0]!r}; a board has {', '.join(BOARD_KEYS)}")
        length, holes = table.get("length"), table.get("holes", [])
        if type(length) is not int:
            raise BoardError(f"{where}: length must be a whole number of spaces, e.g. length = 30")
        if not (isinstance(holes, list) and all(isinstance(p, list) and len(p) == 2
                                                and all(type(x) is int for x in p) for p in holes)):
            raise BoardError(f"{where}: holes must be [hole, arrow] pairs, e.g. holes = [[8, 3], [13, 9]]")
        spaces = [hole for hole, _ in holes]
        twice = next((s for s in spaces if spaces.count(s) > 1), None)
        if twice is not None:
            raise BoardError(f"{where}: hole {twice} is listed twice; give each hole one arrow")
        out[name] = Board(name, length, dict(holes))
    return out


@cache
def boards() -> dict[str, Board]:
    """The boards molebox ships (rules/boards/mouse-madness.toml), by name."""
    return parse_boards(resources.files("rules.boards").joinpath("mouse-madness.toml").read_text())


def _roll(key: str, seat: int, prompt: str) -> Decision:
    return Decision(None, key, Kind.CHANCE, DIE, weights=(1,) * len(DIE), enter_by=seat, prompt=prompt)


class MouseMadness(Game):
    id = "mouse-madness"
    title = "Mouse Madness"
    short_title = "Mouse M."
    chance = ("dice",)
    min_seats = 2
    max_seats = MAX_SEATS

    def __init__(self, seats, settings):
        super().__init__(seats, settings)
        self.board = boards()[self.settings["board"]]

    def initial_state(self) -> "MouseState":
        return MouseState(self, [0] * self.seats, rolling=tuple(range(1, self.seats + 1)), start_rolls=[{}])

    def next_seat(self, seat: int) -> int:
        return seat % self.seats + 1


@dataclass
class MouseState(State):
    game: MouseMadness
    pos: list[int]                  # each seat's space, 0 = the start
    rolling: tuple = ()             # seats rolling for the first turn, empty once play begins
    start_rolls: list = field(default_factory=list)   # one {seat: roll} per round of start rolls
    mover: int | None = None
    roll: int | None = None         # the mover's roll (the last one, between turns)
    phase: str = "start"            # start, roll, direction, land, over
    jumped: frozenset = frozenset()  # seats whose tokens the mover jumped this turn
    winner: int | None = None
    turns: int = 0                  # turns begun (rolls)
    trail: list = field(default_factory=list)   # [kind, seat, from, to] of this turn's moves
    history: list = field(default_factory=list)  # every seat's space after each finished turn (rows never change)

    # ---- the board ----------------------------------------------------------------------

    @property
    def length(self) -> int:
        return self.game.board.length

    def occupant(self, space: int, besides: int) -> int | None:
        """A seat other than ``besides`` with its token on ``space``."""
        return next((s for s, p in enumerate(self.pos, 1) if p == space and s != besides), None)

    def can_push_to(self, space: int) -> bool:
        """Never back onto the start; onto the cheese only where the variant lets a push win."""
        return 1 <= space < self.length or (space == self.length and self.game.settings["cheese_push"] == "wins")

    def ways(self) -> list[str]:
        """The directions the mover can go the full roll: not past the cheese, not back onto the start."""
        here = self.pos[self.mover - 1]
        return [name for name, step in STEPS.items() if 1 <= here + step * self.roll <= self.length]

    def landing_options(self) -> list[tuple[str, str, int]]:
        """(value, label, space) of what the mover may do where it landed: push the token there, jump, or stay.

        ``space`` is where the pushed token or the mover goes.
        """
        here = self.pos[self.mover - 1]
        on_token = self.occupant(here, self.mover) is not None
        out = [(name, f"Push {name} to {here + step}", here + step) for name, step in STEPS.items()
               if on_token and self.can_push_to(here + step)]
        if self.game.settings["jumping"]:
            for name, step in STEPS.items():
                over = self.occupant(here + step, self.mover)
                if over is not None and over not in self.jumped and 1 <= here + 2 * step <= self.length:
                    out.append((f"jump-{name}", f"Jump S{over} to {here + 2 * step}", here + 2 * step))
        if out and not on_token:
            out.insert(0, ("stay", f"Stay on {here}", here))
        return out

    def choices(self) -> list[tuple[str, str, int]]:
        """(value, label, space) of the mover's open choice: a direction, or what to do on landing."""
        if self.phase == "direction":
            here = self.pos[self.mover - 1]
            return [(name, f"{name.capitalize()} to {here + step * self.roll}", here + step * self.roll)
                    for name, step in STEPS.items()]
        return self.landing_options() if self.phase == "land" else []

    # ---- the state machine --------------------------------------------------------------

    def pending(self) -> list[Decision]:
        if self.phase == "start":
            return [_roll(f"start-{s}", s, N_("Roll for first turn")) for s in self.rolling
                    if s not in self.start_rolls[-1]]
        if self.phase == "roll":
            return [_roll("roll", self.mover, N_("Roll the die"))]
        choices = self.choices()
        if not choices:
            return []
        values, labels = tuple(c[0] for c in choices), tuple(c[1] for c in choices)
        if self.phase == "direction":
            return [Decision(self.mover, "direction", Kind.CHOICE, values, labels=labels,
                             prompt=N_("Rolled {roll}: which way?"), fields=(("roll", self.roll),))]
        under = self.occupant(self.pos[self.mover - 1], self.mover)
        return [Decision(self.mover, "jump" if under is None else "push", Kind.CHOICE, values, labels=labels,
                         prompt=N_("Jump?") if under is None else N_("On {seat}'s mouse: push or jump?"),
                         fields=() if under is None else (("seat", under),))]

    def apply(self, move: Move) -> list[Event]:
        decision, value = self.decision(move), move.value
        if move.key == "roll":
            return self._on_roll(value)
        if move.key == "direction":
            return self._move(value, forced=False)
        if move.key in ("push", "jump"):
            return self._on_landing(value)
        return self._on_start_roll(decision.enter_by, value)

    def _on_start_roll(self, seat: int, value: int) -> list[Event]:
        rolls = self.start_rolls[-1]
        rolls[seat] = value
        events = [Event("start_roll", seat, {"roll": value})]
        if len(rolls) < len(self.rolling):
            return events
        best = max(rolls.values())
        self.rolling = tuple(s for s in self.rolling if rolls[s] == best)
        if len(self.rolling) > 1:
            self.start_rolls.append({})
            return events + [Event("reroll", None, {"seats": list(self.rolling), "roll": best})]
        self.mover, self.rolling, self.phase = self.rolling[0], (), "roll"
        return events + [Event("first", self.mover, {"roll": best})]

    def _on_roll(self, value: int) -> list[Event]:
        self.roll, self.turns, self.trail = value, self.turns + 1, []
        events = [Event("roll", self.mover, {"roll": value})]
        ways = self.ways()
        if len(ways) == 2:
            self.phase = "direction"
            return events
        return events + self._move(ways[0], forced=True)

    def _move(self, way: str, forced: bool) -> list[Event]:
        here = self.pos[self.mover - 1]
        to = here + STEPS[way] * self.roll
        self.trail.append(["move", self.mover, here, to])
        event = Event("move", self.mover, {"from": here, "to": to, "direction": way, "roll": self.roll,
                                           "forced": forced})
        return [event] + self._arrive(self.mover, to) + self._after_landing()

    def _arrive(self, seat: int, space: int) -> list[Event]:
        """Put a token on ``space``; on a mouse hole it falls to the arrow's space."""
        target = self.game.board.holes.get(space, space)
        self.pos[seat - 1] = target
        if target == space:
            return []
        self.trail.append(["fall", seat, space, target])
        return [Event("fall", seat, {"from": space, "to": target})]

    def _after_landing(self) -> list[Event]:
        """The mover's token is at rest: win, ask what to do there, do the only thing possible, or end the turn."""
        if self.pos[self.mover - 1] == self.length:
            return self._win(self.mover, "move")
        options = self.landing_options()
        if not options:
            return self._end_turn()
        if len(options) == 1:                   # on a token that can be pushed one way only
            return self._on_landing(options[0][0])
        self.phase = "land"
        return []

    def _on_landing(self, value: str) -> list[Event]:
        if value == "stay":
            return self._end_turn()
        if value.startswith("jump-"):
            step = STEPS[value.removeprefix("jump-")]
            here = self.pos[self.mover - 1]
            over = self.occupant(here + step, self.mover)
            self.jumped |= {over}
            self.trail.append(["jump", self.mover, here, here + 2 * step])
            event = Event("jump", self.mover, {"from": here, "to": here + 2 * step, "over": over})
            return [event] + self._arrive(self.mover, here + 2 * step) + self._after_landing()
        return self._push(STEPS[value])

    def _push(self, step: int) -> list[Event]:
        """Push the token the mover landed on; each token pushed onto another pushes it on the same way.

        A push that cannot go on that way (onto the start, or onto the cheese unless pushes win)
        turns round; a token that falls onto another pushes it on the way it fell, which is back.
        """
        events = []
        token = self.occupant(self.pos[self.mover - 1], self.mover)
        while token is not None:
            here = self.pos[token - 1]
            if not self.can_push_to(here + step):
                step = -step
            to = here + step
            self.trail.append(["push", token, here, to])
            events.append(Event("push", token, {"from": here, "to": to, "by": self.mover}))
            if to == self.length:
                self.pos[token - 1] = to
                return events + self._win(token, "push")
            fall = self._arrive(token, to)
            if fall:
                events += fall
                step = BACK
            token = self.occupant(self.pos[token - 1], token)
        return events + self._end_turn()

    def _end_turn(self) -> list[Event]:
        self.history.append(list(self.pos))
        self.mover, self.phase, self.jumped = self.game.next_seat(self.mover), "roll", frozenset()
        return []

    def _win(self, seat: int, how: str) -> list[Event]:
        self.winner, self.phase = seat, "over"
        self.history.append(list(self.pos))
        result = self.result()
        return [Event("win", seat, {"by": how, "space": self.length}),
                Event("game_over", None, {"winners": list(result.winners), "scores": list(result.scores)})]

    # ---- views --------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict:
        """Everything is public. ``positions`` has each seat's space (0 = start, ``length`` = the cheese)."""
        board = self.game.board
        return {
            "board": {"name": board.name, "length": board.length,
                      "holes": [[hole, target] for hole, target in sorted(board.holes.items())]},
            "positions": list(self.pos),
            "phase": self.phase,
            "turn": self.mover,
            "to_act": sorted({d.enter_by if d.seat is None else d.seat for d in self.pending()}),
            "last_roll": self.roll,
            "start_rolls": [[[s, r] for s, r in sorted(rolls.items())] for rolls in self.start_rolls],
            "rolling": list(self.rolling),
            "jumped": sorted(self.jumped),
            "choices": [list(c) for c in self.choices()],
            "trail": [list(step) for step in self.trail],
            "history": [list(row) for row in self.history],
            "turns": self.turns,
            "winner": self.winner,
        }

    def result(self) -> Result | None:
        return None if self.winner is None else Result(tuple(self.pos), (self.winner,))

    def clone(self) -> "MouseState":
        return MouseState(self.game, list(self.pos), self.rolling, [dict(r) for r in self.start_rolls],
                          self.mover, self.roll, self.phase, self.jumped, self.winner, self.turns,
                          [list(step) for step in self.trail], list(self.history))


GAME = registry.register(MouseMadness, doc="docs/rules/mouse-madness.md", bots="rules.bots.mouse_madness")
