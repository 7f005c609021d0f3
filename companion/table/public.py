"""What anyone may see of the table: the lobby or the match's public view, and what the host must know."""
from __future__ import annotations

from .host import can_take_up
from .state import TableState


def public(state: TableState, on_disk: bool = True, now: float | None = None) -> dict:
    """The lobby or the match's public view (names, computer seats, the public log), the notes for the host and
    a fault; ``on_disk``: every commit point has landed (a game over is in the history only then). At ``now``, what
    changed the game from elsewhere while the table display says so (an undo: its headline and words)."""
    fault = None
    if state.paused:
        fault = {"words": state.storage_fault or state.hardware_fault,
                 "text": state.storage_text or state.hardware_fault}
    box = {"notes": [{"id": n.id, "text": n.text, "at": n.at} for n in state.notes], "fault": fault}
    if state.lobby is not None:
        return {"mode": "lobby", "lobby": state.lobby.view(), "ended": can_take_up(state), **box}
    match = state.match
    notice = state.table_notice
    told = None
    if notice is not None and now is not None and notice.live(now):
        told = [notice.headline, *([notice.words] if isinstance(notice.words, str) else notice.words)]
    return {"mode": "play", "view": match.view(None), "names": state.names, "bots": match.header.bots,
            "teaching": state.teaching,
            "ended": can_take_up(state), "log": match.public_log(), "finished": match.over and on_disk, "told": told,
            **box}
