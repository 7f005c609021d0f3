"""``molebox arena``: bots against bots from the command line, win rates with Wilson intervals."""
from __future__ import annotations

import re

from companion import cli


def test_arena_prints_each_level_with_its_win_rate_and_interval(capsys):
    assert cli.main(["arena", "mouse-madness", "--bots", "casual,strong", "--games", "8", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mouse-madness: 8 games at 2 seats")
    rows = {m[0]: m[1:] for m in re.findall(r"^\| (\w+) \| (\d+) \| ([\d.]+) \| ([\d.]+)% \| ([\d.]+)% - ([\d.]+)% \|$",
                                             out, re.M)}
    assert set(rows) == {"casual", "strong"}
    assert sum(float(r[1]) for r in rows.values()) == 8          # every game has its winner(s)
    for seat_games, wins, rate, low, high in rows.values():
        assert seat_games == "8" and float(low) <= float(rate) <= float(high)
        assert round(float(wins) / 8 * 100, 1) == float(rate)


def test_arena_at_four_seats_rotates_the_levels_round_the_table(capsys):
    assert cli.main(["arena", "whakka-mole", "--games", "2", "--seats", "4", "--set", "target=12"]) == 0
    out = capsys.readouterr().out
    assert "2 games at 4 seats" in out and "an even share is 25% per seat" in out
    assert re.search(r"^\| casual \| 4 \|", out, re.M) and re.search(r"^\| strong \| 4 \|", out, re.M)


def test_arena_names_the_levels_there_are_and_refuses_mole(capsys):
    assert cli.main(["arena", "whakka-mole", "--bots", "casual,expert", "--games", "1"]) == 2
    assert "whakka-mole has bot levels: casual, strong, fixed, not 'expert'" in capsys.readouterr().err
    assert cli.main(["arena", "mole", "--games", "1"]) == 2
    assert "no computer flicks" in capsys.readouterr().err
    assert cli.main(["arena", "mole-hill", "--games", "0"]) == 2
    assert "--games 0" in capsys.readouterr().err
