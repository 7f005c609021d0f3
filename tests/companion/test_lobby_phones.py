"""The lobby's players stage: hole 4 plays a seat that has a panel on a phone instead, and back."""
from __future__ import annotations

from companion.entry import Changed, Refuse
from companion.lobby import Lobby


def players(phones: set[int], wired: int) -> Lobby:
    lobby = Lobby(4, phones=phones, wired=wired)
    for control in ("hole1", "ok", "hole2", "hole2", "ok"):     # Whakka Mole, 4 seats, on to the players
        assert isinstance(lobby.tap(1, control), Changed)
    assert lobby.stage == "players" and lobby.seats == 4
    return lobby


def test_hole_4_turns_the_seat_to_a_phone_and_back_in_the_table_s_own_set():
    phones = {4}
    lobby = players(phones, wired=3)
    lobby.tap(1, "hole2")                                        # seat 2
    assert lobby.tap(1, "hole4") == Changed() and phones == {2, 4} and lobby.view()["phone"]
    assert lobby.tap(1, "hole4") == Changed() and phones == {4} and not lobby.view()["phone"]


def test_a_seat_without_a_panel_stays_a_phone():
    phones = {4}
    lobby = players(phones, wired=3)
    lobby.tap(1, "hole1")                                        # back round to seat 4
    assert lobby.cursor == 4
    assert lobby.tap(1, "hole4") == Refuse("seat 4 has no panel") and phones == {4}
