"""What the web panel may use of the box: :class:`Box`, and nothing else of the session.

The web serves pages and event streams on a loop of its own; the box's session runs the table on
another. Everything that crosses between them goes through this port: what the box is (its seats and
displays, the simulator's powers), what it tells (the news on its feed, each display's screen and frame,
the finished games), and what the web may ask of it (a phone's press, a host action by name, the free
phone seats' join codes to show, a phone seat freed). The session's own parts (the table, the keeper,
the lamps and screens, the hardware) stay behind it (``tests/web/test_port.py`` reads the web's code to
see that it names nothing else).
"""
from __future__ import annotations

from typing import Callable, Protocol

from companion.hardware.port import Simulator

Listener = Callable[[str, object], None]
Answer = Callable[["str | None", "BaseException | None"], None]


class Box(Protocol):
    seats: int                          # panels and phones
    displays: tuple[str, ...]           # every display's name: seat1.. and table
    phone_panels: tuple[int, ...]       # the seats whose panel is a phone's page (no buttons on the box)
    simulator: Simulator | None         # the sim backend's powers: drive a pin, each glass's size
    actions: tuple[str, ...]            # the host's actions, by name (:meth:`act`)

    def clock(self) -> float:
        """The box's clock (monotonic): a phone's press is stamped with it, as a pin's edge is."""

    def subscribe(self, listener: Listener) -> None:
        """Hear the box's news, on whichever thread has it: ``state`` (the public view), ``joins`` (the free phone
        seats the game waits for), ``lamps``, ``screen`` (a display's drawing and arguments), ``frame``."""

    def tell_all(self) -> None:
        """Have the box tell its news as it is now (a first page's snapshot)."""

    def screen(self, name: str) -> tuple | None:
        """What a display was last asked to show: its drawing and the drawing's arguments."""

    def rendered(self, name: str):
        """The frame last drawn for a display (None before its first): what its glass shows but the host PIN."""

    def glass(self, name: str):
        """A display's own pixels (the table display's carry the host PIN): the simulator's."""

    def phones(self) -> frozenset[int]:
        """The seats played on phones now."""

    def watch_phones(self, heard: Callable[[frozenset[int], frozenset[int]], None]) -> None:
        """Hear ``heard(phones, gone)`` when the seats played on phones change (on the session's thread); ``gone``,
        the seats back on their panels."""

    def show_joins(self, joins: tuple[tuple[int, str, str], ...]) -> None:
        """The free phone seats, each ``(seat, join code, join address)``, for the screens to offer."""

    def freed(self, seat: int) -> None:
        """The host freed a phone seat: its screen and the table display say so."""

    def press(self, seat: int, control: str, pressed: bool, *, host: bool) -> None:
        """A phone's press (or let go), stamped on the box's clock; ``host``: from the host's device."""

    def act(self, action: str, args: dict, answer: Answer) -> None:
        """Run the host action named ``action`` on the session's loop; ``answer(refusal, error)`` there, after."""

    def finished_games(self) -> list[dict]:
        """The finished games, read on a connection of their own (any thread)."""
