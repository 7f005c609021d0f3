"""The box's own signals: an active buzzer for the moments the whole table shares, a status LED for health.

Both are optional parts of a wiring profile (``buzzer``, ``status_led``, BCM numbers on the
Pi's own header). The buzzer only ever sounds for public moments (a reveal, the end of a
game, the hardware failing), never for a seat's own press: a beep on a pick would tell the
table who picked. The status LED is steady while the box is healthy and flashes while the
hardware is at fault, so a host can tell a hung box from a paused one across the room.
"""
from __future__ import annotations

from gpiozero import LED, Buzzer

#: moment -> (on seconds, off seconds, beeps)
PATTERNS = {
    "reveal": (0.06, 0.08, 2),
    "over": (0.45, 0.0, 1),
    "fault": (0.15, 0.15, 3),
}
FAULT_BLINK_S = 0.1


class Signals:
    """The buzzer and the status LED of a box; either may be absent (None), and then stays silent."""

    def __init__(self, buzzer: Buzzer | None = None, led: LED | None = None):
        self.buzzer, self.led = buzzer, led
        self.health(None)

    @classmethod
    def on_pins(cls, buzzer: int | None, led: int | None, factory) -> "Signals":
        """The signals wired to these BCM pins (None: not fitted) on a gpiozero pin factory."""
        return cls(Buzzer(buzzer, pin_factory=factory) if buzzer is not None else None,
                   LED(led, pin_factory=factory) if led is not None else None)

    def beep(self, moment: str) -> None:
        """Sound the pattern of a public moment (``reveal``, ``over``, ``fault``), in the background."""
        if self.buzzer is not None:
            on, off, n = PATTERNS[moment]
            self.buzzer.beep(on_time=on, off_time=off, n=n, background=True)

    def health(self, fault: str | None) -> None:
        """Steady while healthy; fast flashing while the hardware is at fault."""
        if self.led is None:
            return
        if fault:
            self.led.blink(on_time=FAULT_BLINK_S, off_time=FAULT_BLINK_S)
        else:
            self.led.on()

    def close(self) -> None:
        for device in (self.buzzer, self.led):
            if device is not None:
                device.close()
