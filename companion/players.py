"""The computer players at the table: who answers for a bot seat, and when it may.

A bot is given only ``Match.view(seat)`` of its own seat. Open decisions it answers
as soon as they are its own. Secret picks it makes only once every person in the
group has locked in: its pick then completes the group and the reveal follows at
once, so its lock-in is never on show while a person could still change their mind.
"""
from __future__ import annotations

from typing import Any

from rules import bots
from rules.match import Match


def parse(text: str, seats: int, game_id: str) -> dict[int, str]:
    """``--bots 2=strong,3=casual`` for ``game_id`` at ``seats`` as {seat: level}; a ValueError names the fix."""
    out: dict[int, str] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        seat, sep, level = item.partition("=")
        if not sep or not seat.strip().isdigit():
            raise ValueError(f"--bots {item!r}: write SEAT=LEVEL, e.g. --bots 2=strong")
        out[int(seat)] = level.strip()
    check(out, seats, game_id)
    return out


def check(seats_levels: dict[int, str], seats: int, game_id: str) -> None:
    """Every bot seat is at the table with a level the table may choose, and a person plays too."""
    for seat, level in seats_levels.items():
        if not 1 <= seat <= seats:
            raise ValueError(f"bot seat {seat}: seats are 1 to {seats}")
        if level not in bots.TABLE_LEVELS:
            raise ValueError(f"bot seat {seat}: level {level!r}; the table chooses {' or '.join(bots.TABLE_LEVELS)}")
        bots.check(game_id, level)
    if seats_levels and len(seats_levels) >= seats:
        raise ValueError("every seat is a computer player: leave at least one seat to a person")


class Computers:
    """The bots of one match, by seat."""

    def __init__(self, match: Match):
        header = match.header
        self.players = {seat: bots.make(match.game, seat, level, header.seed) for seat, level in header.bots.items()}

    def __contains__(self, seat: int) -> bool:
        return seat in self.players

    def next_move(self, match: Match) -> tuple[int, str, Any] | None:
        """A bot's answer that is due now (seat, key, value), or None."""
        if match.over:
            return None
        for decision in match.open_decisions():
            player = self.players.get(decision.seat)
            if player is None or (decision.secret and not self.people_locked(match)):
                continue
            return decision.seat, decision.key, player.choose(match.view(decision.seat), decision)
        return None

    def people_locked(self, match: Match) -> bool:
        return all(match.locked(seat) for seat in match.group_seats() if seat not in self.players)
