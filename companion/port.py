"""The session as the web panel sees it: :class:`WebPort`, the one way the web uses the box
(:class:`companion.web.box.Box`).

Reads answer from any thread what the session has already made (its feed, the screens asked of
each display, their frames); what changes the box goes onto the session's loop (a phone's press as
an edge, a host action, the join codes to show, a seat freed).
"""
from __future__ import annotations

from typing import Callable

from .inputs import Edge
from .session import Session
from .table.moves import Freed


class WebPort:
    def __init__(self, session: Session):
        self._session = session
        hw = session.hw
        self.seats = len(hw.seats)
        self.displays = tuple(hw.displays())
        self.phone_panels = tuple(seat.seat for seat in hw.phones)
        self.simulator = hw.simulator
        self.actions = session.actions

    def clock(self) -> float:
        return self._session.clock()

    def subscribe(self, listener) -> None:
        self._session.feed.subscribe(listener)

    def tell_all(self) -> None:
        self._session.call(self._session.refresh)

    def screen(self, name: str) -> tuple | None:
        return self._session.screens.screen(name)

    def rendered(self, name: str):
        return self._session.screens.rendered(name)

    def glass(self, name: str):
        return self._session.screens.glass(name)

    def phones(self) -> frozenset[int]:
        return self._session.state.phones

    def watch_phones(self, heard: Callable[[frozenset[int], frozenset[int]], None]) -> None:
        self._session.carry_out.seating.append(heard)

    def show_joins(self, joins: tuple[tuple[int, str, str], ...]) -> None:
        self._session.call(lambda: self._session.show_joins(joins))

    def freed(self, seat: int) -> None:
        session = self._session
        session.call(lambda: session.move(Freed(seat, session.clock())))

    def press(self, seat: int, control: str, pressed: bool, *, host: bool) -> None:
        self._session.post(Edge(self._session.clock(), seat, control, pressed, phone=True, host=host))

    def act(self, action: str, args: dict, answer) -> None:
        def job():
            try:
                refusal, error = self._session.host(action, **args), None
            except Exception as exc:          # a bug: the loop goes on, the request answers 500
                refusal, error = None, exc
            answer(refusal, error)
        self._session.call(job)

    def finished_games(self) -> list[dict]:
        return self._session.keeper.finished_games()
