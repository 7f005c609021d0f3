"""A fake I2C bus that takes the wire's time, for luma's real drivers in the tests and the bench.

A :class:`Wire` is one I2C controller's SDA and SCL at a clock of ``hz``: one
transfer at a time (a lock), each a start, the address byte, its bytes and a
stop, 9 clocks a byte (8 bits and the ACK) and one each for start and stop. A
:class:`FakeBus` is what an opened ``/dev/i2c-N`` is to luma (an smbus-like
object): the modules on that bus (:class:`~companion.hardware.fake.oled.FakeOLED`)
at their addresses, and, for a channel of a TCA9548A mux, the channel. Every
channel of the mux shares its parent's wire: before a transfer on a channel
that is not the one switched on, the mux gets a one-byte write (as Linux's
i2c-mux-pca954x sends it), on the wire like any other.

:meth:`FakeBus.serial` is luma's ``i2c`` interface on the bus, sending as it
does on a Pi: each command call (control byte 0x00) and each data call (0x40)
in one transfer. (A bus handed to luma would get its data in 32-byte blocks,
each with its own address and control byte: 6% more wire time than a Pi.)

Time: the wire keeps its own timeline. A transfer starts when the wire is free
(or now, if it has been idle) and ends its wire time later; the caller sleeps
until then, less ``LEAD_S``, so that a sleep's overshoot (about 0.1 ms here)
does not stretch the wire. ``watchers`` are told of every transfer with its
start and end on that timeline. ``hz=None``: no wire time, bytes still counted.
A module can be unplugged (after ``after`` more data bytes: mid-frame) and
plugged back; it then has lost power, until a driver initialises it again.
"""
from __future__ import annotations

import errno
import os
import threading
import time
from dataclasses import dataclass
from typing import Callable

from .oled import FakeOLED

MUX_ADDRESS = 0x70
LEAD_S = 0.0005         # the caller may run this far ahead of the wire


@dataclass(frozen=True)
class Transfer:
    channel: int | None         # the mux channel it went through, None on the parent bus
    address: int
    size: int                   # bytes after the address byte
    start: float                # on time.monotonic's clock
    end: float


class Wire:
    """One I2C controller's two wires, shared by every bus behind its mux."""

    def __init__(self, hz: float | None = 400_000):
        self.hz = hz
        self.lock = threading.Lock()
        self.bytes = 0                          # every byte on the wire, address bytes included
        self.watchers: list[Callable[[Transfer], None]] = []
        self.selected: int | None = None        # the mux channel switched on
        self.free_at = 0.0                      # when the wire is next idle

    def bus(self, modules: dict[int, FakeOLED], channel: int | None = None) -> "FakeBus":
        return FakeBus(modules, self, channel)

    def seconds(self, size: int) -> float:
        """Wire time of one transfer of ``size`` bytes after the address byte."""
        return (2 + 9 * (1 + size)) / self.hz if self.hz else 0.0

    def occupy(self, channel: int | None, address: int, size: int) -> None:
        """Put one transfer on the wire and wait it out (the caller holds ``lock``)."""
        if channel is not None and channel != self.selected:
            self.selected = channel
            self.occupy(None, MUX_ADDRESS, 1)
        now = time.monotonic()
        start = max(now, self.free_at)
        self.free_at = end = start + self.seconds(size)
        self.bytes += 1 + size
        transfer = Transfer(channel, address, size, start, end)
        for watch in self.watchers:
            watch(transfer)
        if end - now > LEAD_S:
            time.sleep(end - now - LEAD_S)


class FakeBus:
    """An opened /dev/i2c-N: the modules at their addresses, each writable until it is unplugged."""

    def __init__(self, modules: dict[int, FakeOLED], wire: Wire | None = None, channel: int | None = None):
        self.modules = modules
        self.wire = wire or Wire(hz=None)
        self.channel = channel

    def unplug(self, address: int, after: int = 0) -> None:
        """The module goes away now, or once it has taken ``after`` more data bytes (mid-frame)."""
        module = self.modules[address]
        if after:
            module.fail_after = after
        else:
            module.present = False

    def plug(self, address: int) -> None:
        """Back on the bus, with fresh power."""
        module = self.modules[address]
        with self.wire.lock:
            if not module.present:
                module.power_on()
            module.present, module.fail_after = True, None

    def write_quick(self, address: int) -> None:
        """An address probe (as i2cdetect sends): only a module that is there acknowledges."""
        with self.wire.lock:
            self.wire.occupy(self.channel, address, 0)
            module = self.modules.get(address)
            if module is None or not module.present:
                raise OSError(errno.ENXIO, os.strerror(errno.ENXIO))

    def serial(self, address: int):
        """luma's i2c interface to the module at ``address``, as luma builds it on a Pi's /dev/i2c-N."""
        from luma.core.interface.serial import i2c
        from smbus2 import i2c_msg

        serial = i2c(bus=self, address=address)
        serial._managed, serial._i2c_msg_write = True, i2c_msg.write      # luma.core 2.x, as if it had opened it
        return serial

    def close(self) -> None:
        """luma closes the bus it opened; the fake one stays for the next device."""

    def i2c_rdwr(self, *messages) -> None:
        for message in messages:
            control, *data = list(message)
            self.write_i2c_block_data(message.addr, control, data)

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        with self.wire.lock:
            module = self.modules.get(address)
            if module is None or not module.present:
                self.wire.occupy(self.channel, address, 0)          # the address byte, not acknowledged
                raise OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))
            self.wire.occupy(self.channel, address, 1 + len(data))
            if register == 0x40 and module.fail_after is not None:
                taken = data[:module.fail_after]
                module.data(taken)
                module.fail_after -= len(taken)
                if module.fail_after == 0:
                    module.present, module.fail_after = False, None
                if len(taken) < len(data):
                    raise OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))
                return
            (module.command if register == 0x00 else module.data)(list(data))


class WiredDisplays:
    """Every display of a profile on its wire, as a box wires them: a :class:`Wire` for each of the Pi's I2C
    controllers the profile uses (:meth:`~wiring.profile.Profile.controller`), the seats on their mux's
    channels, the rest on the parent bus. ``make`` is a ``make_display`` for the backends; ``watch(callback)``
    tells ``callback(name, transfer)`` of every transfer on every wire, ``name`` the display it went to (None
    for a mux's channel switch)."""

    def __init__(self, profile, hz: float | None, full_frames: bool = False):
        self.profile, self.full_frames = profile, full_frames
        specs = profile.displays()
        self.wires = {bus: Wire(hz) for bus in sorted({profile.controller(spec.bus) for spec in specs.values()})}
        self._names = {self._key(spec.bus, spec.address): name for name, spec in specs.items()}

    def _key(self, bus: int, address: int) -> tuple[int, int | None, int]:
        """(controller, mux channel or None, address): where a display answers."""
        mux = self.profile.mux_of(bus)
        return self.profile.controller(bus), None if mux is None else mux.buses.index(bus), address

    @property
    def bytes(self) -> int:
        """Every byte on every wire so far."""
        return sum(wire.bytes for wire in self.wires.values())

    def watch(self, callback: Callable[[str | None, Transfer], None]) -> None:
        for controller, wire in self.wires.items():
            wire.watchers.append(lambda t, c=controller: callback(self._names.get((c, t.channel, t.address)), t))

    def make(self, spec):
        from ..gpio import luma_device
        from ..oled import ResilientDisplay

        controller, channel, _ = self._key(spec.bus, spec.address)
        bus = self.wires[controller].bus({spec.address: FakeOLED(spec.driver, spec.width, spec.height)}, channel)
        return ResilientDisplay(f"I2C{spec.bus} 0x{spec.address:02X}",
                                lambda: luma_device(spec, bus=bus, full_frames=self.full_frames),
                                spec.width, spec.height)
