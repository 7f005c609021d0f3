"""The README's phone commands work on a laptop as written: each runs from the checkout's venv and seats
the panels and phones it says."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion import cli, service

README = (Path(__file__).parents[2] / "README.md").read_text()
PHONES = README.split("## Phones as seats", 1)[1].split("\n## ", 1)[0]
COMMANDS = re.findall(r"^(\.venv/bin/molebox run [^#\n]*?)\s*#", PHONES, re.M)


def test_the_section_has_its_three_commands():
    assert len(COMMANDS) == 3, PHONES


@pytest.mark.parametrize("command", COMMANDS)
def test_a_phone_command_is_accepted_as_written(command):
    argv = shlex.split(command)[1:]
    args = cli.parser().parse_args(argv)
    args.wiring = args.wiring or cli.DEFAULT_WIRING[args.backend]
    plan = service.Plan(args, args.backend)             # raised ValueError for `--phones 2` on the eight panels
    assert len(plan.profile.seats) + plan.phones >= 1


PLAYING = README.split("## Playing without hardware", 1)[1].split("\n## ", 1)[0]
RUNS = [shlex.split(words) for words in re.findall(r'^make run(?: ARGS="([^"]*)")?\s+#', PLAYING, re.M)]


def test_the_readme_s_runs_in_its_order_each_do_what_it_says(tmp_path, capsys):
    """`make run`, then a game with --game, then another: each --game starts its game at once, and a plain
    `make run` after them goes back to the game the --game start set aside, as `molebox history` says."""
    from companion import script
    from companion.journal import Journal
    from tests.conftest import Box

    db = tmp_path / "molebox.db"

    def run(words: list[str]) -> Box:
        args = cli.parser().parse_args(["run", "--backend", "sim", "--db", str(db), *words])
        args.wiring = cli.DEFAULT_WIRING["sim"]
        clock = script.FakeClock()
        hw, session = service.build(args, service.Plan(args, "sim"), Journal(db), clock)
        session.pump()
        return Box(hw, session, clock)

    lobby, whakka, mole_hill = RUNS
    assert not lobby and "--game" in whakka and "--game" in mole_hill
    for words, game, presses in ((lobby, None, ""), (whakka, "whakka-mole", "1 hole1\n1 ok"), (mole_hill, "mole-hill", ""),
                                 (lobby, "whakka-mole", "")):
        box = run(words)
        try:
            assert (box.match.header.game if box.match else None) == game, words
            box.play(presses)
        finally:
            box.session.close()
    assert box.match.view(None)["locked"] == [] and box.match.seat_records() == 1      # where it was
    capsys.readouterr()
    assert cli.main(["history", "--db", str(db)]) == 0
    assert "Mole Hill: goes on at the next `molebox run --game mole-hill --seats 2 --bots 2=strong`" in capsys.readouterr().out
