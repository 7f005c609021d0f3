"""Computer players: legal in every game at every level, seeded, blind to other seats' secrets, and the
strong level beats the casual one (and the fixed pattern in the bluffing games)."""
from __future__ import annotations

import random

import pytest

from rules import arena, bots, registry
from rules.match import Header, Match
from rules.model import Move
from rules.mole_hill import CENTRE, MoleHillState, edge_between
from tests.random_play import random_answer

GAMES = [game for game, registration in registry.games().items() if registration.bots]      # the games with bots
WITHOUT = {game: registration.no_bots for game, registration in registry.games().items() if registration.no_bots}


def seat_counts(game: str) -> list[int]:
    """The fewest seats the game takes, and four (or its most, if fewer): a table's usual sizes."""
    game_class = registry.game_class(game)
    return sorted({game_class.min_seats, min(game_class.max_seats, 4)})


def test_every_game_has_a_casual_and_a_strong_bot_and_bad_levels_say_what_there_is():
    assert GAMES and sorted(GAMES + list(WITHOUT)) == sorted(registry.ids())      # bots, or the reason there are none
    for game in GAMES:
        assert {"casual", "strong"} <= set(bots.levels(game))
    for game, why in WITHOUT.items():
        assert why and bots.levels(game) == ()
        with pytest.raises(ValueError, match=f"no computer players for {game}: "):
            bots.check(game, "casual")
    with pytest.raises(ValueError, match="no computer players for mole: Mole is played by flicking real coins"):
        bots.check("mole", "casual")
    match = Match(Header("whakka-mole", 2))
    with pytest.raises(ValueError, match="levels: casual, strong, fixed, not .grandmaster."):
        bots.make(match.game, 1, "grandmaster")


@pytest.mark.parametrize("game, seats", [(game, seats) for game in GAMES for seats in seat_counts(game)])
def test_every_level_plays_whole_games_legally(game, seats):
    """Match.submit refuses anything illegal, so every game ending is every answer legal."""
    levels = bots.levels(game)
    for seed in range(GAMES_PLAYED.get(game, 6)):
        match = arena.play(game, arena.lineup(levels, seats, seed), seed)
        assert match.over and match.result().winners
        assert Match.replay(match.transcript()).view(None) == match.view(None)


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_game_other_seed_other_game(game):
    levels = ("strong", "casual")
    a, b = arena.play(game, levels, seed=7), arena.play(game, levels, seed=7)
    assert a.records == b.records
    assert a.records != arena.play(game, levels, seed=8).records


GAMES_PLAYED = {"mole-hill": 2, "mouse-madness": 10}   # games per seat count: fewer where one is slow, more where cheap


def _secret_group_match(game: str, seats: int, seed: int) -> Match:
    """A match played by casual bots up to an open secret group."""
    match = Match(Header(game, seats, seed=seed))
    players = {s: bots.make(match.game, s, "casual", seed) for s in range(1, seats + 1)}
    for _ in range(random.Random(seed).randrange(0, 40)):
        d = match.open_decisions()[0]
        match.submit(d.seat, d.key, players[d.seat].choose(match.view(d.seat), d))
        if match.over:
            break
    while not match.over and not any(d.secret for d in match.open_decisions()):
        d = match.open_decisions()[0]
        match.submit(d.seat, d.key, players[d.seat].choose(match.view(d.seat), d))
    return match


@pytest.mark.parametrize("game, level", [(game, level) for game in GAMES for level in bots.levels(game)])
def test_a_bot_answers_alike_whatever_the_other_seats_hold(game, level):
    """The last seat's bot (seat 3, or 2 in a two-seat game) sees the same view, and so answers the same, whatever
    the other seats have locked in."""
    seats = min(registry.game_class(game).max_seats, 3)
    held = 0                                            # the positions where the other seats had secrets to hold
    for seed in range(4):
        base = _secret_group_match(game, seats, seed)
        if base.over:
            continue
        held += 1
        answers = set()
        for other in range(6):
            match = Match.replay(base.transcript())
            rng = random.Random(other)
            for d in [d for d in match.open_decisions() if d.seat != seats]:
                match.submit(d.seat, d.key, random_answer(d, rng))
            bot = bots.make(match.game, seats, level, seed)
            answers.add(tuple(repr(bot.choose(match.view(seats), d)) for d in match.decisions_for(seats)))
        assert len(answers) == 1, answers
    if not held:
        pytest.skip(f"{game} asks for no secret picks: the other seats never hold one to hide")


def test_the_strong_whakka_bot_mixes_its_picks():
    """No pattern to read: over many draws from one position its whack varies, and once a few turns
    have gone by with nobody scoring, so do its pop-ups (never into the hole whacked last)."""
    match = Match(Header("whakka-mole", 2))

    def draws(key):
        decision = next(d for d in match.decisions_for(1) if d.key == key)
        return {bots.make(match.game, 1, "strong", seed).choose(match.view(1), decision) for seed in range(40)}

    assert len(draws("whack")) == 5
    for _ in range(3):
        for seat in (1, 2):
            match.submit(seat, "popup", ())
            match.submit(seat, "whack", 1)
    popups = draws("popup")
    assert len(popups) >= 3 and not any(1 in p for p in popups) and () not in popups


def test_the_strong_whakka_bot_hits_tokens_it_can_see():
    """Tokens left on a sheet are a sure hit: the strong bot always takes it."""
    match = Match(Header("whakka-mole", 2))
    match.submit(1, "popup", (2,))
    match.submit(1, "whack", 1)
    match.submit(2, "popup", (4, 5))
    match.submit(2, "whack", 1)          # misses: seat 1's sheet shows a token in hole 2 only
    assert match.view(None)["state"]["sheets"] == [[0, 1, 0, 0, 0], [0, 0, 0, 1, 1]]
    for seed in range(20):
        bot = bots.make(match.game, 1, "strong", seed)
        whack = next(d for d in match.decisions_for(1) if d.key == "whack")
        assert bot.choose(match.view(1), whack) in (4, 5)


def test_the_strong_mole_hill_gardener_closes_the_last_way_out():
    """Mole on (1, 2) with rods east of it and east of (1, 1): one rod south of it ends the round."""
    game = Match(Header("mole-hill", 2, {"flower_layout": "none"})).game
    state = MoleHillState(game, [(1, 1), (1, 2)], {(1, 2, "E"), (1, 1, "E")}, gardener_next=True)
    (rod,) = state.pending()
    assert rod.seat == 2
    for seed in range(3):
        assert bots.make(game, 2, "strong", seed).choose({"state": state.view(2)}, rod) == (1, 2, "S")


def test_the_strong_mole_finds_the_way_out_through_the_centre():
    """Walled into the 3x3 block round (3, 4) whose only way out is the centre: nine spaces score nothing,
    the centre's jump opens the board, and the strong mole plays all 22 pieces for 12 dark ones."""
    block = [(c, r) for c in (2, 3, 4) for r in (3, 4, 5)]
    walls = {edge_between(cell, (cell[0] + dc, cell[1] + dr)) for cell in block
             for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
             if (cell[0] + dc, cell[1] + dr) not in block + [CENTRE] and 1 <= cell[0] + dc and 1 <= cell[1] + dr}
    walls |= {(5, 3, "S"), (5, 4, "S"), (5, 4, "E")}           # no diagonal round the centre
    game = Match(Header("mole-hill", 2, {"flower_layout": "none", "rods": len(walls)})).game
    for seed in range(5):
        state = MoleHillState(game, [(3, 4)], set(walls))
        bot = bots.make(game, 1, "strong", seed)
        while state.phase in ("move", "jump"):
            (move,) = state.pending()
            state.apply(Move(1, move.key, bot.choose({"state": state.view(1)}, move)))
        (record,) = state.rounds
        assert CENTRE in record.trail and game.score(record.trail) == 12


@pytest.mark.parametrize("crown_reask", [True, False])
@pytest.mark.parametrize("cards", ["virtual", "physical"])
def test_park_bots_play_legally_beside_a_person_under_either_crown_window_and_either_deck(crown_reask, cards):
    """Seat 1 is a person answering at random, with physical cards entering any face the deck has, more 5s
    than the box counts too; the box draws the bots' cards from its counts, revised by those entries."""
    beyond = 0                # the person's 5s entered when the box counted none left
    for seed in range(3):
        settings = {"crown_reask": crown_reask, "deck": "1:50 2:50 5:4"}
        match = Match(Header("mole-park", 3, settings, seed=seed, dice="physical", cards=cards,
                             bots={2: "strong", 3: "casual"}))
        players = {2: bots.make(match.game, 2, "strong", seed), 3: bots.make(match.game, 3, "casual", seed)}
        rng = random.Random(seed)
        for _ in range(5000):
            if match.over:
                break
            d = match.open_decisions()[0]
            value = random_answer(d, rng) if d.seat == 1 else players[d.seat].choose(match.view(d.seat), d)
            beyond += d.key == "mole-1" and value == 5 and match.state.unseen[5] == 0
            match.submit(d.seat, d.key, value)
        assert match.over and Match.replay(match.transcript()).view(None) == match.view(None)
    assert (beyond > 0) is (cards == "physical")


def test_wilson_interval():
    low, high = arena.wilson(5, 10)
    assert round(low, 3) == 0.237 and round(high, 3) == 0.763
    assert arena.wilson(0, 10)[0] == 0.0 and round(arena.wilson(0, 10)[1], 3) == 0.278


#: how many games show the strong bot beating each rival clearly (a Wilson interval above one half): a rival is
#: casual, and the fixed pattern where a game has one
CLEARLY = {("whakka-mole", "casual"): 30, ("whakka-mole", "fixed"): 12, ("mole-park", "casual"): 200,
           ("mole-park", "fixed"): 60, ("mole-hill", "casual"): 4, ("mouse-madness", "casual"): 300}


@pytest.mark.parametrize("game, rival", [(game, rival) for game in GAMES for rival in ("casual", "fixed")
                                         if rival in bots.levels(game)])
def test_strong_beats_the_rival_clearly(game, rival):
    games = CLEARLY.get((game, rival))
    assert games, f"how many games show the strong {game} bot beating the {rival} one? Add them to CLEARLY"
    report = arena.tournament(game, [rival, "strong"], games, seed=1000)
    rate, low, _ = report.tallies["strong"].rate()
    assert low > 0.5, report.table()
