"""The rp2's ``machine`` for the firmware under the unix port: pins, GPIO_IN, PWM, UART and watchdog on rig.py."""
import sys

import rig

PWRON_RESET = 1
WDT_RESET = 3
_SIO_GPIO_IN = 0xD0000004


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, gp, mode=-1, pull=-1, value=None):
        self.gp = gp
        if value is not None:
            self.value(value)

    def value(self, level=None):
        if level is None:
            return rig.levels.get(self.gp, 1)
        rig.drive(self.gp, 1 if level else 0)


class _Memory:
    def __getitem__(self, address):
        if address != _SIO_GPIO_IN:
            raise ValueError("the rig has only GPIO_IN, not 0x%08x" % address)
        return rig.gpio_in()


mem32 = _Memory()


def reset_cause():
    return WDT_RESET if rig.WDT_RESET else PWRON_RESET


class PWM:
    def __init__(self, pin, freq=0):
        self.gp, self.duty = pin.gp, None

    def duty_u16(self, duty):
        if duty != self.duty:
            self.duty = duty
            rig.reply("pwm %d %d" % (self.gp, duty))


class UART:
    """UART0 on TX GP0 / RX GP1: the same pty as the USB link."""

    def __init__(self, number, baudrate, tx, rx, rxbuf=0):
        if (number, tx.gp, rx.gp) != (0, 0, 1):
            raise ValueError("the rig wires UART0 to GP0/GP1")
        self.poll = rig.select.poll()
        self.poll.register(sys.stdin, rig.select.POLLIN)

    def any(self):
        return 1 if self.poll.poll(0) else 0

    def read(self):
        data = b""
        while self.poll.poll(0):
            data += sys.stdin.buffer.read(1)
        return data if rig.rx else b""

    def write(self, data):
        sys.stdout.buffer.write(data)


class WDT:
    """Resets the board (ends the program) when not fed for ``timeout`` ms of the unix port's own clock."""

    def __init__(self, timeout):
        self.timeout, self.fed = timeout, rig.real.ticks_ms()

    def feed(self):
        now = rig.real.ticks_ms()
        if rig.real.ticks_diff(now, self.fed) > self.timeout:
            rig.reply("watchdog")
            sys.exit(3)
        self.fed = now
