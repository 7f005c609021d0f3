"""What anyone may see of the table: the lobby or the match's public view, and what the host must know."""
from __future__ import annotations

from .host import can_take_up
from .state import TableState


def public(state: TableState, on_disk: bool = True) -> dict:
    """The lobby or the match's public view (names, computer seats, the public log), the notes for the host and
    a fault; ``on_disk``: every commit point has landed (a game over is in the history only then)."""
    fault = None
    if state.paused:
        fault = {"words": state.storage_fault or state.hardware_fault,
                 "text": state.storage_text or state.hardware_fault}
    box = {"notes": [{"id": n.id, "text": n.text, "at": n.at} for n in state.notes], "fault": fault}
    if state.lobby is not None:
        return {"mode": "lobby", "lobby": state.lobby.view(), "ended": can_take_up(state), **box}
    match = state.match
    return {"mode": "play", "view": match.view(None), "names": state.names, "bots": match.header.bots,
            "ended": can_take_up(state), "log": match.public_log(), "finished": match.over and on_disk, **box}
