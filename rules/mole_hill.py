"""Mole Hill (Reiner Knizia): the gardener's rods against the mole's trail, two rounds.

The mole places its stack, then gardener and mole alternate: the gardener puts
a rod on a free edge, the mole moves to an adjacent never-visited space
(straight not across a rod, diagonally round a free L-path, anywhere after the
centre) and leaves its bottom piece behind. Round two swaps the roles.
Cells are ``(col, row)`` with row 1 at the top; an edge is ``(col, row, "E")``
(to the right of the cell) or ``(col, row, "S")`` (below it).
See docs/rules/mole-hill.md for the decisions the text leaves open.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import registry
from .model import N_, Decision, Event, Game, Kind, Move, Result, State

COLS, ROWS = 9, 7
CENTRE = (5, 4)
STEPS = tuple((dc, dr) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dc or dr)
EDGE_MIDDLES = ((5, 1), (1, 4), (9, 4), (5, 7))
INNER_CORNERS = ((2, 2), (8, 2), (2, 6), (8, 6))


def _flowers(red: tuple, white: tuple) -> dict[tuple[int, int], int]:
    return {**{cell: 2 for cell in red}, **{cell: 1 for cell in white}}


#: flower_layout setting -> {cell: bonus points}; red flowers are worth 2, white 1.
LAYOUTS = {
    "edge-red": _flowers(EDGE_MIDDLES, INNER_CORNERS),
    "corner-red": _flowers(INNER_CORNERS, EDGE_MIDDLES),
    "none": {},
}


def edge_between(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int, str]:
    """The canonical name of the edge shared by the orthogonal neighbours ``a`` and ``b``."""
    (col, row), other = sorted((a, b))
    return (col, row, "E") if other[1] == row else (col, row, "S")


class MoleHill(Game):
    id = "mole-hill"
    title = "Mole Hill"
    min_seats = 2
    max_seats = 2

    def __init__(self, seats, settings):
        super().__init__(seats, settings)
        self.cells = tuple((col, row) for row in range(1, ROWS + 1) for col in range(1, COLS + 1))
        self.edges = tuple((col, row, side) for col, row in self.cells for side in "ES"
                           if (side == "E" and col < COLS) or (side == "S" and row < ROWS))
        self.flowers = LAYOUTS[self.settings["flower_layout"]]
        self.light = self.settings["light_pieces"]
        self.pieces = self.light + self.settings["dark_pieces"]

    def initial_state(self) -> "MoleHillState":
        return MoleHillState(self)

    def mole_of(self, round_no: int) -> int:
        first = self.settings["first_mole"]
        return first if round_no == 1 else 3 - first

    def colour(self, index: int) -> str:
        """The colour of the piece left on the ``index``-th visited space (0-based)."""
        return "light" if index < self.light else "dark"

    def tally(self, trail) -> tuple[int, int]:
        """(dark pieces, flower points) of a trail; the last space holds the stack's bottom piece."""
        return max(0, len(trail) - self.light), sum(self.flowers.get(cell, 0) for cell in trail)

    def score(self, trail) -> int:
        return sum(self.tally(trail))


@dataclass(frozen=True)
class RoundRecord:
    """A finished round: who was the mole, why it stopped, and the board it left."""

    mole: int
    reason: str      # "pieces": no piece left to leave behind; "blocked": no legal move
    trail: tuple
    rods: tuple


@dataclass
class MoleHillState(State):
    game: MoleHill
    trail: list = field(default_factory=list)
    rods: set = field(default_factory=set)
    gardener_next: bool = False
    rounds: tuple = ()

    # ---- derived facts ------------------------------------------------------------------

    @property
    def round(self) -> int:
        return min(len(self.rounds) + 1, 2)

    @property
    def mole(self) -> int:
        return self.game.mole_of(self.round)

    @property
    def gardener(self) -> int:
        return 3 - self.mole

    @property
    def rods_left(self) -> int:
        return self.game.settings["rods"] - len(self.rods)

    @property
    def pieces_left(self) -> int:
        """Pieces not yet on a space: the moves the mole has left."""
        return self.game.pieces - len(self.trail)

    @property
    def jump_next(self) -> bool:
        """True when the mole stands on the centre and may jump to any free space."""
        return (bool(self.trail) and self.trail[-1] == CENTRE
                and (len(self.trail) > 1 or self.game.settings["centre_start_jumps"]))

    @property
    def phase(self) -> str:
        if len(self.rounds) == 2:
            return "over"
        if not self.trail:
            return "place"
        if self.gardener_next:
            return "rod"
        return "jump" if self.jump_next else "move"

    def targets(self) -> tuple:
        """The spaces the mole may move to now; a jump's nearest the centre first (where the cursor starts)."""
        here = self.trail[-1]
        if self.jump_next:
            free = (cell for cell in self.game.cells if cell not in self.trail)
            return tuple(sorted(free, key=lambda cell: (max(abs(cell[0] - here[0]), abs(cell[1] - here[1])), cell)))
        out = []
        for dc, dr in STEPS:
            to = (here[0] + dc, here[1] + dr)
            if not (1 <= to[0] <= COLS and 1 <= to[1] <= ROWS) or to in self.trail:
                continue
            if dc and dr:
                legal = self._path_free(here, (to[0], here[1]), to) or self._path_free(here, (here[0], to[1]), to)
            else:
                legal = edge_between(here, to) not in self.rods
            if legal:
                out.append(to)
        return tuple(out)

    def _from_mole(self, edge) -> tuple:
        """Sort key of an edge: nearest the mole first (where the panel's cursor starts), then board order."""
        col, row, side = edge
        mid = (col + 0.5, row) if side == "E" else (col, row + 0.5)
        here = self.trail[-1]
        return (mid[0] - here[0]) ** 2 + (mid[1] - here[1]) ** 2, edge

    def _path_free(self, start, via, to) -> bool:
        """One L-path of a diagonal: both of its edges free (and ``via`` unvisited when the variant says)."""
        if via in self.trail and not self.game.settings["diagonal_past_visited"]:
            return False
        return edge_between(start, via) not in self.rods and edge_between(via, to) not in self.rods

    def refusal(self, key: str, value) -> str | None:
        """Why a space or an edge cannot be chosen now, in a few words for the seat's OLED."""
        value = tuple(value)
        if key == "rod":
            return N_("a rod is there") if value in self.rods else N_("no edge there")
        if key != "move" or value not in self.game.cells:
            return None
        here = self.trail[-1]
        if value == here:
            return N_("the mole is here")
        if value in self.trail:
            return N_("visited already")
        dc, dr = value[0] - here[0], value[1] - here[1]
        if max(abs(dc), abs(dr)) > 1:
            return N_("too far away")
        if not (dc and dr):
            return N_("a rod is in the way")
        rodded = [edge_between(here, via) in self.rods or edge_between(via, value) in self.rods
                  for via in ((value[0], here[1]), (here[0], value[1]))]
        return N_("rods block both ways") if all(rodded) else N_("both ways blocked")

    # ---- the state machine --------------------------------------------------------------

    def pending(self) -> list[Decision]:
        phase = self.phase
        if phase == "over":
            return []
        if phase == "place":
            return [Decision(self.mole, "place", Kind.CELL, self.game.cells, prompt=N_("Place your stack"))]
        if phase == "rod":
            free = tuple(sorted((edge for edge in self.game.edges if edge not in self.rods), key=self._from_mole))
            return [Decision(self.gardener, "rod", Kind.EDGE, free, prompt=N_("Place a rod ({rods} left)"),
                             fields=(("rods", self.rods_left),))]
        prompt = N_("Jump to any free space") if phase == "jump" else N_("Move")
        return [Decision(self.mole, "move", Kind.CELL, self.targets(), prompt=prompt)]

    def apply(self, move: Move) -> list[Event]:
        value = move.value
        if move.key == "rod":
            self.rods.add(value)
            self.gardener_next = False
            events = [Event("rod", move.seat, {"edge": list(value), "rods_left": self.rods_left})]
        elif move.key == "place":
            self.trail.append(value)
            self.gardener_next = True
            events = [Event("place", move.seat, {"cell": list(value), "flower": self.game.flowers.get(value, 0)})]
        else:
            kind, start = ("jump" if self.jump_next else "move"), self.trail[-1]
            self.trail.append(value)
            self.gardener_next = True
            events = [Event(kind, move.seat, {"from": list(start), "to": list(value),
                                              "left": self.game.colour(len(self.trail) - 2),
                                              "flower": self.game.flowers.get(value, 0)})]
        return events + self._settle()

    def _settle(self) -> list[Event]:
        """End the round once the mole cannot move; skip a gardener who has no rods left."""
        if self.pieces_left == 0 or not self.targets():
            return self._end_round("pieces" if self.pieces_left == 0 else "blocked")
        if self.gardener_next and self.rods_left == 0:
            self.gardener_next = False
            return [Event("pass", self.gardener, {"reason": "no rods left"})]
        return []

    def _end_round(self, reason: str) -> list[Event]:
        record = RoundRecord(self.mole, reason, tuple(self.trail), tuple(sorted(self.rods)))
        dark, flowers = self.game.tally(record.trail)
        self.rounds += (record,)
        events = [Event("round_over", record.mole, {
            "round": len(self.rounds), "reason": reason, "visited": len(record.trail),
            "dark": dark, "flowers": flowers, "score": dark + flowers, "totals": list(self.totals())})]
        if len(self.rounds) == 2:
            result = self.result()
            events.append(Event("game_over", None, {"winners": list(result.winners),
                                                   "scores": list(result.scores)}))
        else:
            self.trail, self.rods, self.gardener_next = [], set(), False
        return events

    def totals(self, upto: int | None = None) -> tuple[int, int]:
        """Each seat's mole score over the finished rounds (the first ``upto`` of them)."""
        scores = [0, 0]
        for record in self.rounds[:upto]:
            scores[record.mole - 1] += self.game.score(record.trail)
        return tuple(scores)

    def result(self) -> Result | None:
        if len(self.rounds) < 2:
            return None
        scores = self.totals()
        return Result(scores, tuple(seat for seat in (1, 2) if scores[seat - 1] == max(scores)))

    # ---- views --------------------------------------------------------------------------

    def _board(self, trail, rods) -> dict:
        return {"trail": [[col, row, self.game.colour(i)] for i, (col, row) in enumerate(trail)],
                "rods": [list(edge) for edge in sorted(rods)]}

    def view(self, seat: int | None) -> dict:
        """Everything in Mole Hill is public, so every seat sees the same board.

        ``trail`` lists the visited spaces in order with the colour of the piece on
        each; its last entry is the mole's space and the colour of the stack's
        bottom piece. ``score`` is what the current mole would score if it stopped now.
        """
        dark, flowers = self.game.tally(self.trail)
        light_left = max(0, self.game.light - len(self.trail))
        decisions = self.pending()
        return {
            "cols": COLS, "rows": ROWS, "centre": list(CENTRE),
            "flowers": [[col, row, points] for (col, row), points in sorted(self.game.flowers.items())],
            "round": self.round, "mole": self.mole, "gardener": self.gardener,
            "phase": self.phase, "to_act": decisions[0].seat if decisions else None,
            **self._board(self.trail, self.rods),
            "position": list(self.trail[-1]) if self.trail else None,
            "jump_next": self.jump_next,
            "pieces_left": {"light": light_left, "dark": self.pieces_left - light_left},
            "rods_left": self.rods_left,
            "score": dark + flowers,
            "rounds": [{"mole": r.mole, "reason": r.reason, "score": self.game.score(r.trail),
                        **self._board(r.trail, r.rods)} for r in self.rounds],
            "scores": list(self.totals()),
            "round_scores": [[self.game.score(r.trail) if r.mole == s else 0 for r in self.rounds] for s in (1, 2)],
            "history": [list(self.totals(upto)) for upto in range(1, len(self.rounds) + 1)],
        }

    def clone(self) -> "MoleHillState":
        return MoleHillState(self.game, list(self.trail), set(self.rods), self.gardener_next, self.rounds)


GAME = registry.register(MoleHill, doc="docs/rules/mole-hill.md", bots="rules.bots.mole_hill")
