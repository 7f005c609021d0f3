"""Mole Hill bots for both roles: the mole's trail and the gardener's rods.

- ``casual``: the mole steps to the neighbour with the most ways on (now and then any neighbour);
  the gardener puts a rod on a free edge of the mole's space (now and then anywhere near it).
- ``strong``: alpha-beta search, mole maximising and gardener minimising the mole's score, within a
  fixed node budget (so it is as deterministic as it is quick). Moves come from the rules' own
  ``targets()``; a leaf is worth the trail's score plus what the mole could still add: the spaces it
  can reach past the rods (flood fill), capped by its pieces left, counted as dark pieces where they
  would be dark. The gardener considers rods round the mole's 3x3 neighbourhood, where a rod can
  matter before the mole moves again. Jumps and the first placement are judged by the leaf value.
"""
from __future__ import annotations

from functools import cache

from ..model import Decision
from ..mole_hill import CENTRE, COLS, ROWS, MoleHill, MoleHillState, RoundRecord
from .base import Bot

NODES = 400           # leaf evaluations per decision: the strong bot's think budget
INF = float("inf")


def rebuild(game: MoleHill, view: dict) -> MoleHillState:
    """The game state as every seat sees it (everything in Mole Hill is public)."""
    def cells(items):
        return [(c[0], c[1]) for c in items]

    rounds = tuple(RoundRecord(r["mole"], r["reason"], tuple(cells(r["trail"])), tuple(tuple(e) for e in r["rods"]))
                   for r in view["rounds"])
    return MoleHillState(game, cells(view["trail"]), {tuple(e) for e in view["rods"]},
                         view["phase"] == "rod", rounds)


def _bit(cell) -> int:
    return 1 << ((cell[1] - 1) * COLS + cell[0] - 1)


def _mask(cells) -> int:
    out = 0
    for cell in cells:
        out |= _bit(cell)
    return out


ALL = _mask((c, r) for c in range(1, COLS + 1) for r in range(1, ROWS + 1))
HAS_E = _mask((c, r) for c in range(1, COLS) for r in range(1, ROWS + 1))     # cells with an east edge
HAS_S = _mask((c, r) for c in range(1, COLS + 1) for r in range(1, ROWS))     # cells with a south edge


def reach(state: MoleHillState) -> int:
    """Unvisited spaces (a bit per space) the mole could get to past the rods, ignoring that a
    trail never crosses itself: a flood fill over bitboards, straight and round either L-path."""
    free_e, free_s = HAS_E, HAS_S
    for col, row, side in state.rods:
        if side == "E":
            free_e &= ~_bit((col, row))
        else:
            free_s &= ~_bit((col, row))
    visited = _mask(state.trail)
    past = ALL if state.game.settings["diagonal_past_visited"] else ALL & ~visited

    def east(m): return (m & free_e) << 1
    def west(m): return (m >> 1) & free_e
    def south(m): return (m & free_s) << COLS
    def north(m): return (m >> COLS) & free_s

    found, frontier = 0, _bit(state.trail[-1])
    while frontier:
        e, w, n, s = east(frontier), west(frontier), north(frontier), south(frontier)
        step = e | w | n | s
        for a, b, pa, pb in ((e, n, north, east), (e, s, south, east), (w, n, north, west), (w, s, south, west)):
            step |= pa(a & past) | pb(b & past)
        frontier = step & ~visited & ~found
        found |= frontier
    return found


def worth(state: MoleHillState) -> float:
    """What the mole can expect from here: its score now plus what it could still add."""
    game = state.game
    dark, flowers = game.tally(state.trail)
    if state.pieces_left == 0:
        return dark + flowers
    more = reach(state)
    if more & _bit(CENTRE):                 # the centre opens a jump to any free space
        more = ALL & ~_mask(state.trail)
    steps = min(more.bit_count(), state.pieces_left)
    gain = max(0, len(state.trail) + steps - game.light) - dark
    bloom = sum(points for cell, points in game.flowers.items() if more & _bit(cell))
    return dark + flowers + gain + 0.5 * bloom


class MoleHillBot(Bot):
    def choose(self, view: dict, decision: Decision):
        state = rebuild(self.game, view["state"])
        if decision.key == "rod":
            return self.rod(state, decision, self.rng(view))
        return self.step(state, decision, self.rng(view))


class Casual(MoleHillBot):
    level = "casual"

    def step(self, state, decision, rng):
        if rng.random() < 0.25:
            return rng.choice(decision.options)

        def exits(cell):
            state.trail.append(cell)
            n = len(state.targets())
            state.trail.pop()
            return n
        if decision.key == "place":
            return rng.choice(decision.options)
        best = max(exits(c) for c in decision.options)
        return rng.choice([c for c in decision.options if exits(c) == best])

    def rod(self, state, decision, rng):
        here = state.trail[-1]
        around = [e for e in decision.options if _touches(e, here)]
        near = [e for e in decision.options if _near(e, here)]
        return rng.choice(around if around and rng.random() < 0.75 else near or decision.options)


def _edge_cells(edge) -> tuple:
    col, row, side = edge
    return (col, row), ((col + 1, row) if side == "E" else (col, row + 1))


def _touches(edge, cell) -> bool:
    return cell in _edge_cells(edge)


def _near(edge, cell) -> bool:
    return all(max(abs(a[0] - cell[0]), abs(a[1] - cell[1])) <= 1 for a in _edge_cells(edge))


@cache
def _rods_round(game: MoleHill, cell) -> tuple:
    """The edges inside the 3x3 block round ``cell``, the ones touching it first."""
    near = [e for e in game.edges if _near(e, cell)]
    return tuple(sorted(near, key=lambda e: not _touches(e, cell)))


class Strong(MoleHillBot):
    level = "strong"

    def step(self, state, decision, rng):
        if decision.key != "move" or state.jump_next:
            return self._judge(state, decision.options, rng)
        best, _ = self._search(state)
        return best

    def rod(self, state, decision, rng):
        best, _ = self._search(state)
        return best

    def _judge(self, state, cells, rng):
        """The best cell by the leaf value alone (placing, jumping), ties broken by the draw."""
        scored = []
        for cell in cells:
            state.trail.append(cell)
            scored.append((worth(state), rng.random(), cell))
            state.trail.pop()
        return max(scored)[2]

    def _search(self, state):
        """Iterative deepening alpha-beta within the node budget; the deepest finished answer wins."""
        self.nodes, best = 0, None
        for depth in range(1, 12):
            try:
                move, value = self._root(state, depth)
            except _OutOfNodes:
                break
            best = (move, value)
        return best if best is not None else (self._fallback(state), 0.0)

    def _fallback(self, state):
        moves = self._moves(state)
        return moves[0]

    def _moves(self, state) -> list:
        if state.gardener_next:
            free = [e for e in _rods_round(state.game, state.trail[-1]) if e not in state.rods]
            return free or [e for e in state.game.edges if e not in state.rods][:1]
        return list(state.targets())

    def _root(self, state, depth):
        maximise = not state.gardener_next
        best_move, best_value = None, -INF if maximise else INF
        alpha, beta = -INF, INF
        for move in self._moves(state):
            undo = self._do(state, move)
            value = self._value(state, depth - 1, alpha, beta)
            self._undo(state, undo)
            if (value > best_value) if maximise else (value < best_value):
                best_move, best_value = move, value
            if maximise:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
        return best_move, best_value

    def _value(self, state, depth, alpha, beta):
        if state.pieces_left == 0 or (not state.gardener_next and not state.targets()):
            return float(state.game.score(state.trail))
        if depth == 0 or state.jump_next:
            self.nodes += 1
            if self.nodes > NODES:
                raise _OutOfNodes
            return worth(state)
        if state.gardener_next:
            value = INF
            for move in self._moves(state):
                undo = self._do(state, move)
                value = min(value, self._value(state, depth - 1, alpha, beta))
                self._undo(state, undo)
                beta = min(beta, value)
                if alpha >= beta:
                    break
            return value
        value = -INF
        for move in self._moves(state):
            undo = self._do(state, move)
            value = max(value, self._value(state, depth - 1, alpha, beta))
            self._undo(state, undo)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value

    @staticmethod
    def _do(state, move):
        """Play a move on the search copy (no events): a rod, or a step that hands the turn over."""
        was = state.gardener_next
        if was:
            state.rods.add(move)
            state.gardener_next = False
        else:
            state.trail.append(move)
            state.gardener_next = state.rods_left > 0
        return was, move

    @staticmethod
    def _undo(state, undo):
        was, move = undo
        if was:
            state.rods.discard(move)
        else:
            state.trail.pop()
        state.gardener_next = was


class _OutOfNodes(Exception):
    """The node budget is spent: the search stops at the last depth it finished."""


LEVELS = {"casual": Casual, "strong": Strong}
