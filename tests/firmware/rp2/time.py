"""The rp2's ``time`` for the firmware under the unix port: ticks wrap at 2**30, and the test moves them."""
import rig

PERIOD = rig.PERIOD
ticks_ms = rig.ticks_ms
sleep_us = rig.sleep_us


def ticks_diff(end, start):
    """As MicroPython's extmod/modtime.c computes it, for the rp2's period."""
    return ((end - start + PERIOD // 2) & (PERIOD - 1)) - PERIOD // 2


def ticks_add(ticks, delta):
    return (ticks + delta) & (PERIOD - 1)
