"""One display's fault stays on that display: a renderer's bug or a device that raises.

The display shows a fault screen, the log has it once (a seat's private view never goes
there), the host is told on the dashboard, and every other display, the lamps and the
watchdog go on.
"""
from __future__ import annotations

import logging
import re

from luma.core.device import dummy

from companion import scene
from companion.render import fault as fault_screen, whakka_mole

TURN = "1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole2\n2 ok\n2 hole1\n2 ok\n3 hole4\n3 ok\n3 hole3\n3 ok"


def test_a_renderer_that_raises_breaks_its_own_display_only_and_is_logged_once(box_factory, monkeypatch, caplog):
    real = whakka_mole.seat

    def seat(view, entry, notice, panel):
        if view["you"] == 2 and view["state"]["turn"] >= 2:
            raise ZeroDivisionError("secret " + "pick" * 3)      # its words could hold the seat's secret
        return real(view, entry, notice, panel)

    monkeypatch.setattr(whakka_mole, "seat", seat)
    box = box_factory(seats=3)
    with caplog.at_level(logging.ERROR, logger="molebox"):
        box.play(TURN)                               # the reveal: turn 2, seat 2's screen fails
        box.play("2 hole3\n1 hole2")                 # more frames for seat 2: it fails again, quietly
    assert box.match.view(None)["state"]["turn"] == 2
    assert box.pixels("seat2") == fault_screen.broken("seat2").tobytes()
    shown = scene.screens(box.session.scene())           # what each display should show now
    for name in ("seat1", "seat3", "table"):
        render_fn, *args = shown[name]
        assert box.pixels(name) == render_fn(*args).tobytes(), name
    assert box.lamps(1) != ["off"] * 5               # the lamps answer
    assert box.session.health() is None              # the watchdog is still fed
    [record] = [r for r in caplog.records if "display failed" in r.getMessage()]
    message = record.getMessage()
    assert "seat2" in message and message.endswith("ZeroDivisionError") and "in seat" in message   # where, not what
    assert "private" in message and '"held"' not in message and '"you"' not in message
    assert "secret pickpickpick" not in message                          # an error's words may hold a secret
    notes = [a["text"] for a in box.session.public()["notes"]]
    assert any("seat 2 screen could not draw its frame (ZeroDivisionError)" in a for a in notes)


def test_the_display_draws_again_once_its_frames_do(box_factory, monkeypatch):
    broken = {"on": True}
    real = whakka_mole.table

    def table(view, panel):
        if broken["on"]:
            raise KeyError("scores")
        return real(view, panel)

    monkeypatch.setattr(whakka_mole, "table", table)
    box = box_factory(seats=2)
    assert box.pixels("table") == fault_screen.broken("table").tobytes()
    broken["on"] = False
    box.play("1 hole1")                              # a change: the table is drawn again
    box.play("1 ok\n1 hole5\n1 ok")
    assert box.pixels("table") == real(box.match.view(None)).tobytes()


class Refusing(dummy):
    """A device whose driver raises what no display should (a bug below us): every frame."""

    def display(self, image):
        raise ValueError("image size does not match")


def test_a_device_that_raises_keeps_the_rest_of_the_box_going(box_factory):
    def make(spec):
        kind = Refusing if spec.bus == 13 else dummy            # seat 3's OLED (sim-8: bus 13)
        device = kind(width=spec.width, height=spec.height, mode="1")
        device.persist = True
        return device

    box = box_factory(seats=3, make_display=make)
    box.play(TURN)
    assert box.match.view(None)["state"]["turn"] == 2
    assert box.session.health() is None
    assert box.session.screens.worker.failing == {"seat3"}
    assert {"table", "seat1", "seat2"} <= set(box.session.screens.worker.frames)
    render_fn, *args = scene.screens(box.session.scene())["seat1"]
    assert box.pixels("seat1") == render_fn(*args).tobytes()
    box.play("wait 10")                              # the display thread's report reaches the session loop
    assert any("seat 3 screen" in a["text"] for a in box.session.public()["notes"])


def test_a_press_that_hits_a_bug_is_refused_and_the_game_stays_as_the_journal_has_it(box_factory, monkeypatch,
                                                                                      tmp_path, caplog):
    from rules.whakka_mole import WhakkaState

    box = box_factory(seats=2, db=tmp_path / "molebox.db")
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole2\n2 ok\n2 hole1")
    real = WhakkaState.apply

    def apply(self, move):
        real(self, move)                        # half-way through, the state already changed
        raise IndexError(f"picked={move.value!r}")              # words that tell a pick

    monkeypatch.setattr(WhakkaState, "apply", apply)
    with caplog.at_level(logging.ERROR, logger="molebox"):
        box.play("2 ok\nwait 100", settle=False)               # the reveal: the rules fail
    assert box.lamps(2) == ["fast"] * 5
    assert box.session.scene().notices[2] == "not taken: a bug"
    assert box.match.view(None)["state"]["turn"] == 1 and box.match.view(None)["locked"] == [1]
    assert not re.search(r"picked=[\[\d]", caplog.text) and "IndexError" in caplog.text
    assert [n["text"][:40] for n in box.session.public()["notes"]] == ["A press at seat 2 hit a bug (IndexError)"]
    monkeypatch.setattr(WhakkaState, "apply", real)
    box.play("2 ok")                                              # fixed: the same press is taken
    assert box.match.view(None)["state"]["scores"] == [0, 7]
