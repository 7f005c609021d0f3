"""Notices with a life: a seat's one line (a refusal's reason, what changed its game from elsewhere) and the table
display's news, each shown for a few seconds and then gone, so that none stays over the question.

:class:`Notices` is the seats' notices as a dict of seat to words (set one as a dict's item); each
lasts :data:`NOTICE_S` from when it was set, unless set :meth:`~Notices.lasting` (a computer
player stuck on a bug: it stays until the game moves on). The table's news is the one line the
table display shows for :data:`NEWS_S` when something changed the game from elsewhere.
"""
from __future__ import annotations

from typing import Callable

NOTICE_S = 5.0          # a seat's notice stays this long
NEWS_S = 5.0            # the table display's news stays this long


class Notices(dict):
    def __init__(self, clock: Callable[[], float]):
        super().__init__()
        self.clock = clock
        self._ends: dict[int, float] = {}
        self.news: tuple[tuple[str, str], float] | None = None     # the table display's news, and when it ends

    def __setitem__(self, seat: int, words: str) -> None:
        super().__setitem__(seat, words)
        self._ends[seat] = self.clock() + NOTICE_S

    def pop(self, seat: int, *default):
        self._ends.pop(seat, None)
        return super().pop(seat, *default)

    def clear(self) -> None:
        self._ends.clear()
        super().clear()

    def lasting(self, seat: int, words: str) -> None:
        """A notice that stays until it is taken back or replaced."""
        super().__setitem__(seat, words)
        self._ends.pop(seat, None)

    def tell_table(self, headline: str, words: str) -> None:
        """What changed the game from elsewhere, on the table display for a few seconds: a word or two, and who
        did what."""
        self.news = ((headline, words), self.clock() + NEWS_S)

    def live(self) -> dict[int, str]:
        """The seats' notices still showing (the ended ones dropped)."""
        now = self.clock()
        for seat in [seat for seat, end in self._ends.items() if end <= now]:
            del self._ends[seat]
            self.pop(seat, None)
        return dict(self)

    def table_news(self) -> tuple[str, str] | None:
        """The table display's news (headline, words) while it shows, else None."""
        if self.news is not None and self.news[1] <= self.clock():
            self.news = None
        return None if self.news is None else self.news[0]

    def next_end(self) -> float | None:
        """When the next notice or news ends (the screens are drawn again then), or None."""
        ends = [*self._ends.values(), *([self.news[1]] if self.news else [])]
        return min(ends, default=None)
