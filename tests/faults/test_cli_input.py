"""Bad input on the command line: a clear error naming the file, the line or the option, exit status 2, no traceback."""
from __future__ import annotations

import pytest

from companion import cli


@pytest.fixture
def files(tmp_path):
    made = {
        "binary": bytes(range(256)) * 4,
        "latin-1": "2 hole1  # café\n".encode("latin-1"),
        "nul": b"1 hole1\n\0\0\0",
        "seat5": b"1 hole1\n1 ok\n5 hole2\n",
        "not json": b"{seat: 1",
        "not a transcript": b'{"hello": "world"}',
    }
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def run(argv, capsys) -> tuple[int, str]:
    try:
        code = cli.main(argv)
    except SystemExit as exc:            # argparse's own refusals
        code = exc.code
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


@pytest.mark.parametrize("port, words", [("99999", "99999 is not a port number"), ("-1", "-1 is not a port number"),
                                         ("http", "'http' is not a port number")])
def test_a_port_out_of_range(port, words, capsys):
    code, err = run(["run", "--port", port], capsys)
    assert code == 2 and words in err and "0 (any free port) to 65535" in err


@pytest.mark.parametrize("name, words", [("binary", "is not UTF-8 text (byte 128 is 0x80)"),
                                         ("latin-1", "is not UTF-8 text"), ("nul", "is a binary file")])
def test_a_script_that_is_not_text_is_named(name, words, files, capsys):
    path = files / name
    code, err = run(["sim", "--game", "whakka-mole", "--script", str(path), "--out", str(files / "out")], capsys)
    assert code == 2 and f"{path}: the press script {words}" in err


def test_a_press_for_a_seat_the_game_does_not_have_names_its_line(files, capsys):
    code, err = run(["sim", "--game", "whakka-mole", "--seats", "3", "--script", str(files / "seat5"),
                     "--out", str(files / "out")], capsys)
    assert code == 2 and f"{files / 'seat5'}:3: seat 5 does not exist; seats are 1 to 3" in err


@pytest.mark.parametrize("seats", ["0", "1", "9", "-3"])
def test_seats_out_of_range(seats, files, capsys):
    code, err = run(["sim", "--game", "whakka-mole", "--seats", seats, "--out", str(files / "out")], capsys)
    assert code == 2 and f"Whakka Mole takes 2 to 8 seats, not {seats}" in err


def test_seats_without_a_game(capsys):
    code, err = run(["run", "--seats", "3", "--port", "0"], capsys)
    assert code == 2 and "--seats needs --game" in err


@pytest.mark.parametrize("name, words", [("binary", "the transcript is not UTF-8 text"),
                                         ("not json", "the transcript is not JSON"),
                                         ("not a transcript", "not a molebox transcript")])
def test_replay_names_a_bad_transcript(name, words, files, capsys):
    code, err = run(["replay", str(files / name)], capsys)
    assert code == 2 and str(files / name) in err and words in err


def test_a_wiring_profile_that_is_not_text_is_named(files, capsys):
    code, err = run(["run", "--port", "0", "--wiring", str(files / "binary") + ".toml"], capsys)
    assert code == 2 and "cannot read the wiring profile" in err
    (files / "binary.toml").write_bytes(bytes(range(256)))
    code, err = run(["run", "--port", "0", "--wiring", str(files / "binary.toml")], capsys)
    assert code == 2 and f"{files / 'binary.toml'}: the wiring profile is not UTF-8 text" in err


def _commands() -> list[str]:
    """Every subcommand the parser knows."""
    actions = [a for a in cli.parser()._actions if isinstance(a, cli.argparse._SubParsersAction)]
    return sorted(actions[0].choices)


def test_molebox_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit:
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert exit.value.code == 0 and "95% intervals" in out
    assert all(command in out for command in _commands())


@pytest.mark.parametrize("command", _commands())
def test_every_command_s_help(command, capsys):
    with pytest.raises(SystemExit) as exit:
        cli.main([command, "--help"])
    assert exit.value.code == 0 and capsys.readouterr().out.startswith(f"usage: molebox {command}")


def test_a_seat_written_in_superscript_is_refused_by_name(capsys):
    code, err = run(["sim", "--game", "whakka-mole", "--seats", "2", "--out", "x", "--name", "²=Ada"], capsys)
    assert code == 2 and "--name '²=Ada': write SEAT=NAME" in err
