"""What players at the table see and feel: lamps that keep secrets, refusals that blink, the lobby."""
from __future__ import annotations

import threading

import pytest

from companion import script
from wiring.profile import ProfileError, parse


def test_a_press_during_prepare_flashes_every_lamp_whichever_hole_it_was(box_factory):
    flashes = []
    for hole in (1, 4):
        box = box_factory(seats=2)
        box.hw.drive(1, f"hole{hole}", True)
        box.session.pump()
        flashes.append(box.lamps(1))
    assert flashes[0] == flashes[1] == ["on"] * 5


def test_the_ack_flash_ends_and_the_lamps_show_only_public_state(box):
    box.press(1, "hole2")
    box.clock.advance(0.5)
    box.session.pump()
    assert box.lamps(1) == ["dim"] * 5


def test_a_wrong_press_is_refused_with_a_blink_and_a_reason_on_the_oled(box):
    box.play("1 ok\n1 ok", settle=False)    # pop up nothing, then OK without a whack hole
    assert box.lamps(1) == ["off"] * 5        # first every lamp flips (the OK ack was lit)...
    box.clock.advance(0.1)
    box.session.pump()
    assert box.lamps(1) == ["fast"] * 5       # ...then they flash fast: refused
    assert box.session.scene().notices[1] == "choose first, then OK"
    box.clock.advance(1.0)
    box.session.pump()
    assert box.lamps(1) == ["dim"] * 5       # the blink ends, nothing was lost
    assert box.match.view(1)["held"] == {"popup": []}


def test_a_seat_outside_the_game_is_refused(box):
    box.press(5, "hole1")
    box.clock.advance(0.1)
    box.session.pump()
    assert box.session.scene().notices[5] == "this seat is not playing"
    assert box.lamps(5) == ["fast"] * 5


def test_presses_after_the_game_are_refused_until_seat_1_starts_a_new_one(box_factory):
    box = box_factory(seats=2, settings={"target": 1})
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 ok\n2 hole5\n2 ok")
    assert box.match.over
    box.press(2, "hole1")
    assert "game over" in box.session.scene().notices[2]
    box.press(1, "ok")
    assert not box.match.over and box.match.header.seed == 1


def test_the_reveal_lights_popped_holes_and_flashes_the_whack(box_factory):
    box = box_factory(seats=2)
    box.play("1 hole1\n1 hole3\n1 ok\n1 hole5\n1 ok\n2 ok\n2 hole3\n2 ok")
    box.clock.advance(1)
    box.session.pump()
    assert box.lamps(1) == ["on", "off", "fast", "off", "off"]    # popped 1 and 3; 3 was whacked
    assert box.lamps(2) == ["off"] * 5
    box.press(1, "hole2")                                         # the seat moves on
    box.clock.advance(1)
    box.session.pump()
    assert box.lamps(1) == ["dim"] * 5


def test_the_lobby_picks_game_and_seats_with_seat_ones_buttons(box_factory):
    box = box_factory(game=None, seats=None)
    assert box.session.state.lobby is not None
    box.play("2 hole1")
    assert box.session.scene().notices[2] == "seat 1 chooses the game"
    box.play("1 hole1\n1 ok\n1 hole2\n1 hole2\n1 ok\n1 ok")
    assert box.match.header.game == "whakka-mole" and box.match.header.seats == 4


def test_malformed_script_lines_name_the_line_and_the_fix():
    with pytest.raises(script.ScriptError, match=r"s.txt:2: 'x hole1': expected 'SEAT CONTROL"):
        script.parse("1 ok\nx hole1", "s.txt")
    with pytest.raises(script.ScriptError, match=r"s.txt:1: unknown control 'hole6'"):
        script.parse("1 hole6", "s.txt")
    with pytest.raises(script.ScriptError, match=r"s.txt:1: seat 9 does not exist"):
        script.parse("9 ok", "s.txt")
    with pytest.raises(script.ScriptError, match=r"s.txt:3: 'wait soon': 'wait' takes"):
        script.parse("\n# c\nwait soon", "s.txt")


GOOD = """
backend = "gpio"
[[seats]]
holes = [4, 17, 27, 22, 5]
lamps = [6, 13, 19, 26, 12]
ok = 16
"""


@pytest.mark.parametrize("change, message", [
    (("holes = [4, 17, 27, 22, 5]", "holes = [4, 17]"), r"w.toml:4: seats\[1\].holes must list 5 GPIO"),
    (('backend = "gpio"', 'backend = "usb"'), r"w.toml:2: unknown backend 'usb'; use one of"),
    (("ok = 16", "ok = "), r"w.toml:6: .*fix the TOML syntax"),
    (("ok = 16", 'ok = 16\ndisplay = { driver = "ssd9999" }'), r"w.toml:7: seats\[1\]: unknown display driver"),
])
def test_a_bad_wiring_file_names_the_line_and_the_fix(change, message):
    with pytest.raises(ProfileError, match=message):
        parse(GOOD.replace(*change), "w.toml")


def test_cli_errors_are_clear_and_do_not_crash(tmp_path, capsys):
    from companion.cli import main

    bad = tmp_path / "bad.txt"
    bad.write_text("1 hole1\n1 jump\n")
    assert main(["sim", "--game", "whakka-mole", "--script", str(bad), "--out", str(tmp_path)]) == 2
    assert "bad.txt:2: unknown control 'jump'" in capsys.readouterr().err
    assert main(["sim", "--game", "whakka-mole", "--seats", "9", "--out", str(tmp_path)]) == 2
    assert "2 to 8 seats, not 9" in capsys.readouterr().err
    assert main(["sim", "--game", "whakka-mole", "--set", "holes=7", "--out", str(tmp_path)]) == 2
    assert "holes: 7 is above the maximum 5" in capsys.readouterr().err


def test_a_hole_press_shows_while_the_loop_is_busy_and_an_ok_waits_for_its_commit(box):
    """A hole's press flips its seat's lamps on the thread that saw the edge: a loop held up (a slow card, a
    bot) does not hold up the answer a player waits for. An OK's flip says its decision is on disk: it waits."""
    busy, go_on, stop = threading.Event(), threading.Event(), threading.Event()
    box.session.call(lambda: (busy.set(), go_on.wait(5)))
    loop = threading.Thread(target=box.session.run, args=(stop,))
    loop.start()
    try:
        assert busy.wait(5)
        assert box.lamps(1) == ["dim"] * 5                # seat 1 chooses its pop-ups
        box.hw.drive(1, "hole2", True)
        assert box.lamps(1) == ["on"] * 5                 # flipped, with the loop still busy
        box.clock.advance(0.05)
        box.hw.drive(1, "ok", True)
        box.clock.advance(0.05)
        box.hw.drive(1, "ok", False)
        assert box.lamps(1) == ["on"] * 5                 # the OK's flip waits for the commit point
        assert box.session.state.drafts[1].value == frozenset()     # the loop has taken neither yet
    finally:
        go_on.set()
        stop.set()
        loop.join(5)
    box.session.pump()
    assert box.match.view(1)["held"] == {"popup": [2]}    # then both, the OK's decision committed


def test_a_press_after_a_refused_one_answers_for_itself(box):
    box.play("1 ok")                                      # no pop-ups: seat 1 now picks a hole to hit
    box.hw.drive(1, "ok", True)
    box.clock.advance(0.05)
    box.hw.drive(1, "ok", False)                          # OK with no hole: refused...
    box.clock.advance(0.05)
    box.hw.drive(1, "hole3", True)                        # ...but hole 3 comes before the loop took either
    box.session.pump()
    box.clock.advance(0.13)
    box.session.pump()
    assert "fast" not in box.lamps(1)                     # the hole's press was taken: no refusal blink
    assert box.session.state.drafts[1].value == 3
