"""Two boxes that differ only in one seat's unrevealed pick look the same to everyone else, to the pixel and
to the word."""
from __future__ import annotations

import json

import pytest

from companion.render import describe, turns, tv
from companion.render.screen import as_dict

PREFIX = "2 hole1\n2 ok\n2 hole2\n2 ok\n"


OTHERS = ("seat2", "seat3", "table")


def news(box) -> dict[str, list]:
    """From now on, what the box publishes that anyone but seat 1 may hear, as the web panel tells it: each
    public state and the room's description of it (the TV, every phone's table, the dashboard's turns), seats
    2 and 3's lamps, and the descriptions of seat 2's, seat 3's and the table's screens (what their phones
    and the TV say in words); in order, a repeat of the one before dropped (the lists grow)."""
    heard: dict[str, list] = {"state": [], "tv": [], "lamps": [], **{f"screen/{name}": [] for name in OTHERS}}

    def hear(topic: str, payload) -> None:
        if heard[topic][-1:] != [json.dumps(payload, sort_keys=True)]:
            heard[topic].append(json.dumps(payload, sort_keys=True))

    def listen(kind: str, payload) -> None:
        if kind == "lamps":
            hear("lamps", {name: payload[name] for name in ("seat2", "seat3")})
        elif kind == "state":
            hear("state", payload)
            told = turns.told(tv.named(payload), payload["log"]) if payload["mode"] == "play" else []
            hear("tv", tv.describe(payload, told))
        elif kind == "screen" and payload[0] in OTHERS:
            name, drawing, args = payload
            hear(f"screen/{name}", as_dict(describe(drawing, tuple(args))))
    box.session.feed.subscribe(listen)
    return heard


@pytest.mark.parametrize("pick_a, pick_b", [
    ("1 hole1\n1 hole2\n1 ok\n1 hole3\n1 ok", "1 hole5\n1 ok\n1 hole1\n1 ok"),
    ("1 hole4\n1 ok\n1 hole4", "1 ok\n1 hole2"),                  # one seat still mid-draft
])
def test_other_seats_table_and_lamps_are_identical_until_the_reveal(box_factory, pick_a, pick_b):
    a, b = box_factory(seats=3), box_factory(seats=3)
    told = []
    for box, pick in ((a, pick_a), (b, pick_b)):
        told.append(news(box))
        box.play(PREFIX + pick)
        box.clock.advance(2)
        box.session.pump()
    assert told[0] == told[1]                  # every public state, description and other seat's lamps, in order
    assert all(told[0][topic] for topic in told[0])
    assert json.dumps(a.session.public(), sort_keys=True) == json.dumps(b.session.public(), sort_keys=True)
    for name in ("seat2", "seat3", "table"):
        assert a.pixels(name) == b.pixels(name), name
    for seat in (2, 3):
        assert a.match.view(seat) == b.match.view(seat)
    assert a.session.lamps.lit() == b.session.lamps.lit()
    assert a.pixels("seat1") != b.pixels("seat1")          # the seat itself does see its own pick


def test_computer_players_are_given_the_same_views_whatever_a_person_holds(box_factory, monkeypatch):
    """Seats 2 and 3 are computers. Seat 1 locks in different picks on two boxes: every view the bots
    are handed before the reveal is byte-identical (each its own seat's), and so are their picks."""
    from companion.players import Computers

    given: list[tuple[int, str]] = []
    make = Computers.__init__

    def spying(self, match):
        make(self, match)
        for seat, player in self.players.items():
            def choose(view, decision, seat=seat, real=player.choose):
                given.append((seat, json.dumps(view, sort_keys=True)))
                return real(view, decision)
            player.choose = choose

    monkeypatch.setattr(Computers, "__init__", spying)
    seen, picks = [], []
    for pick in ("1 hole1\n1 hole2\n1 ok\n1 hole3\n1 ok", "1 hole5\n1 ok\n1 hole1\n1 ok"):
        given.clear()
        box = box_factory(seats=3, bots={2: "strong", 3: "casual"})
        box.play(pick)
        seen.append(list(given))
        reveal = next(e for e in box.session.state.match.public_log() if e["kind"] == "reveal")
        picks.append({seat: reveal["picks"][seat] for seat in (2, 3)})
    assert seen[0] == seen[1] and {seat for seat, _ in seen[0]} == {2, 3}
    assert picks[0] == picks[1]
    assert all(json.loads(view)["you"] == seat for seat, view in seen[0])
