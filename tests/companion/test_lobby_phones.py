"""The lobby's players stage: hole 4 plays a seat that has a panel on a phone instead, and back."""
from __future__ import annotations

from companion.entry import Changed, Refuse
from companion.lobby import Lobby
from companion.phones import PhoneSeats


def players(phones: PhoneSeats) -> Lobby:
    lobby = Lobby(4, phones=phones)
    for control in ("hole1", "ok", "hole2", "hole2", "ok"):     # Whakka Mole, 4 seats, on to the players
        assert isinstance(lobby.tap(1, control), Changed)
    assert lobby.stage == "players" and lobby.seats == 4
    return lobby


def test_hole_4_turns_the_seat_to_a_phone_and_back_in_the_box_s_phone_seats():
    phones = PhoneSeats(4, panels=3)
    lobby = players(phones)
    lobby.tap(1, "hole2")                                        # seat 2
    assert lobby.tap(1, "hole4") == Changed() and phones.playing == {2, 4} and lobby.view()["phone"]
    assert [seat for seat, _ in phones.free()] == [2, 4]         # a seat turned to a phone has a join code
    assert lobby.tap(1, "hole4") == Changed() and phones.playing == {4} and not lobby.view()["phone"]
    assert [seat for seat, _ in phones.free()] == [4]


def test_a_seat_without_a_panel_stays_a_phone():
    phones = PhoneSeats(4, panels=3)
    lobby = players(phones)
    lobby.tap(1, "hole1")                                        # back round to seat 4
    assert lobby.cursor == 4
    assert lobby.tap(1, "hole4") == Refuse("seat 4 has no panel") and phones.playing == {4}
