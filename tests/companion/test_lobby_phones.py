"""The lobby's players stage: hole 4 plays a seat that has a panel on a phone instead, and back."""
from __future__ import annotations

from companion.table import Lobby
from companion.table.outcomes import Changed, Refusal


def players(lobby: Lobby) -> Lobby:
    for control in ("hole1", "ok", "hole2", "hole2", "ok"):     # Whakka Mole, 4 seats, on to the players
        lobby, outcome = lobby.tap(1, control)
        assert isinstance(outcome, Changed)
    assert lobby.stage == "players" and lobby.seats == 4
    return lobby


def test_hole_4_turns_the_seat_to_a_phone_and_back():
    lobby = players(Lobby.open(4, 3, frozenset({4})))
    lobby, _ = lobby.tap(1, "hole2")                             # seat 2
    on_phone, outcome = lobby.tap(1, "hole4")
    assert outcome == Changed() and on_phone.phones == {2, 4} and on_phone.view()["phone"]
    back, outcome = on_phone.tap(1, "hole4")
    assert outcome == Changed() and back.phones == {4} and not back.view()["phone"]
    assert lobby.phones == {4}                                   # each tap answers a new lobby


def test_a_seat_without_a_panel_stays_a_phone():
    lobby = players(Lobby.open(4, 3, frozenset({4})))
    lobby, _ = lobby.tap(1, "hole1")                             # back round to seat 4
    assert lobby.cursor == 4
    assert lobby.tap(1, "hole4") == (lobby, Refusal("seat 4 has no panel"))
