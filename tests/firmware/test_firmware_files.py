"""``molebox firmware DIR``: the Pico's three files, main.py's build options from the wiring profile, the checkout untouched."""
from __future__ import annotations

import re

from companion.cli import main
from companion.firmware import FILES, SOURCE

PLAIN = 'backend = "ioboard"\n\n[ioboard]\nlamps = "plain"\nport = "/dev/serial0"\n\n[[seats]]\n\n[[seats]]\n'


def option(text: str, name: str) -> str:
    return re.search(rf"^{name} = ([^#\n]*?)\s*(#|$)", text, re.M).group(1)


def test_the_build_options_come_from_the_profile_and_the_command_line(tmp_path, capsys):
    profile = tmp_path / "plain.toml"
    profile.write_text(PLAIN)
    before = (SOURCE / "main.py").read_text()
    assert main(["firmware", str(tmp_path / "pico"), "--wiring", str(profile), "--set", "SETTLE_US=300"]) == 0
    written = (tmp_path / "pico/main.py").read_text()
    assert [option(written, n) for n in ("SEATS", "LAMPS", "LINK", "SETTLE_US")] == ["2", '"plain"', '"uart"', "300"]
    assert written.splitlines()[:12] == before.splitlines()[:12]        # kbd_intr(-1) still comes first
    for name in ("protocol.py", "board.py"):
        assert (tmp_path / "pico" / name).read_text() == (SOURCE / name).read_text()
    assert (SOURCE / "main.py").read_text() == before
    out = capsys.readouterr().out
    assert "\n  ~/mpremote/bin/mpremote connect /dev/ttyACM0 cp " + " ".join(str(tmp_path / "pico" / n) for n in FILES) \
        + " : + reset" in out


def test_the_printed_mpremote_is_the_one_the_flashing_steps_install():
    """A bare `mpremote` is on no PATH after the docs' steps: the command molebox prints runs the one step 2 puts
    in a venv of its own, and the docs show that same command."""
    from companion.firmware import MPREMOTE
    from companion.hardware import iolink
    flashing = (SOURCE.parent / "docs/ioboard.md").read_text().split("## Flashing", 1)[1]
    venv = MPREMOTE.removesuffix("/bin/mpremote")
    assert f"python3 -m venv {venv}\n{venv}/bin/pip install mpremote\n" in flashing
    assert f"{MPREMOTE} connect /dev/ttyACM0 cp ~/pico/protocol.py ~/pico/board.py ~/pico/main.py : + reset" in flashing
    assert f"{MPREMOTE} connect" in iolink.UPDATE and " mpremote connect" not in iolink.UPDATE.replace(MPREMOTE, "")


def test_an_unknown_build_option_is_refused(tmp_path, capsys):
    assert main(["firmware", str(tmp_path / "pico"), "--set", "SEETS=2"]) == 2
    assert "main.py has no build option SEETS" in capsys.readouterr().err
