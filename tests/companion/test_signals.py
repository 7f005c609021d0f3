"""The buzzer and the status LED of a profile that has them (gpio-2-mux: buzzer on GPIO14, LED on GPIO15)."""
from __future__ import annotations

import time

import pytest

from tests.waiting import wait_for

BUZZER, LED = 14, 15
TURN = """
1 hole1
1 ok
1 hole5
1 ok
2 hole2
2 ok
2 hole1
"""


@pytest.fixture
def box(box_factory):
    return box_factory(game="whakka-mole", seats=2, profile="gpio-2-mux")


def record(box, number: int) -> list[tuple[float, bool]]:
    """Every change of a pin from now on: (time, level)."""
    changes: list[tuple[float, bool]] = []
    box.hw.factories["main"].pin(number).on_change = lambda p: changes.append((time.perf_counter(), bool(p.state)))
    return changes


def sounded(changes: list[tuple[float, bool]]) -> list[float]:
    """How long each beep lasted."""
    return [t1 - t0 for (t0, on), (t1, off) in zip(changes, changes[1:]) if on and not off]


def sounding(device) -> bool:
    """Whether a gpiozero output is still beeping or blinking in the background (its blink thread alive)."""
    thread = device._blink_thread
    return thread is not None and thread.is_alive()


def test_the_buzzer_is_silent_for_picks_and_sounds_twice_at_the_reveal(box):
    buzzer = record(box, BUZZER)
    box.play(TURN)
    assert buzzer == [] and not sounding(box.hw.signals.buzzer)    # a lock-in tells the table nothing
    box.play("2 ok")
    assert wait_for(lambda: not sounding(box.hw.signals.buzzer))
    assert len(sounded(buzzer)) == 2


def test_the_end_of_a_game_is_one_long_beep_instead_of_the_reveal(box):
    while not box.match.over:
        assert wait_for(lambda: not sounding(box.hw.signals.buzzer))     # the last turn's beeps are over
        buzzer = record(box, BUZZER)
        box.play(TURN + "2 ok\nwait 200")
    assert wait_for(lambda: not sounding(box.hw.signals.buzzer))
    beeps = sounded(buzzer)
    assert len(beeps) == 1 and beeps[0] >= 0.4


def test_the_status_led_is_steady_while_healthy_and_flashes_while_the_hardware_is_at_fault(box):
    assert box.hw.factories["main"].pin(LED).state == 1
    led = record(box, LED)
    box.hw._report("display seat2 not answering")
    box.session.pump()
    assert wait_for(lambda: len(led) >= 3)              # off, on, off: flashing
    box.hw._report(None)
    box.session.pump()
    assert not sounding(box.hw.signals.led)             # the flashing stopped before the pump returned...
    assert led[-1][1] is True                           # ... and the LED is steady on
