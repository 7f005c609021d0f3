"""The ``ioboard`` backend: buttons and hole lamps on the serial IO board, displays still on I2C.

The seats are the same :class:`~companion.hardware.panel.Seat` the session
drives on every backend; their lamps go to the board as one LAMPS command per
seat, and the board's button reports come back as edges through the
:class:`~companion.hardware.iolink.Link`. While the link is down, ``fault``
says why and watchers hear of every change (docs/ioboard.md).
"""
from __future__ import annotations

from typing import Callable

from serial.tools import list_ports

from companion.lamps import Lamp
from firmware import protocol
from firmware.board import PALETTE
from wiring.profile import DisplaySpec, IOBoardSpec, Profile

from .iolink import CONNECTING, Link, Timing
from .panel import Hardware, Seat, Sink

CODES = {Lamp.OFF: protocol.OFF, Lamp.ON: protocol.ON, Lamp.DIM: protocol.DIM,
         Lamp.BLINK: protocol.BLINK, Lamp.FAST: protocol.FAST}


class IOSeat(Seat):
    def __init__(self, seat: int, display, colour: tuple[int, int, int], link: Link):
        super().__init__(seat, display)
        self.colour, self._link = colour, link

    def _show(self, changed: list[int]) -> None:
        self._link.lamps(self.seat, protocol.lamps(self.seat, self.colour, [CODES[lamp] for lamp in self.lamps]))


class IOBoardHardware(Hardware):
    def __init__(self, profile: Profile, clock: Callable[[], float], make_display: Callable[[DisplaySpec], object],
                 find_port: Callable[[], str] | None = None, timing: Timing = Timing()):
        spec = profile.ioboard
        self.profile = profile
        self.link = Link(find_port or port_finder(spec), spec.baud, clock, len(profile.seats), self._report, timing,
                         spec.lamps, self._note)
        colours = spec.colours or [tuple(PALETTE[3 * i:3 * i + 3]) for i in range(len(profile.seats))]
        super().__init__([IOSeat(i + 1, make_display(s.display) if s.display else None, colours[i], self.link)
                          for i, s in enumerate(profile.seats)],
                         make_display(profile.table) if profile.table else None, CONNECTING)

    def connect(self, sink: Sink) -> None:
        """Hand edges to ``sink`` from now on, and start looking for the board."""
        self.link.sink = sink
        self.link.start()

    def close(self) -> None:
        self.link.close()
        self._close_displays()


def port_finder(spec: IOBoardSpec) -> Callable[[], str]:
    """The configured port, or else the first USB serial device with the configured VID[:PID]."""
    if spec.port:
        return lambda: spec.port
    vid, _, pid = spec.usb_id.partition(":")

    def find() -> str:
        for info in list_ports.comports():
            if info.vid == int(vid, 16) and (not pid or info.pid == int(pid, 16)):
                return info.device
        raise LookupError(f"no USB serial device {spec.usb_id} is plugged in")
    return find


def open_ioboard(profile: Profile, clock: Callable[[], float]) -> IOBoardHardware:
    from .gpio import oled
    return IOBoardHardware(profile, clock, oled)
