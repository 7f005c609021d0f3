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
