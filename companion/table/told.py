"""What the table says, apart from the game itself: a seat's notice, the table display's, a note for the host, a
log line. Each is set in a state the table is deciding and told to the session as an effect where it must act."""
from __future__ import annotations

from .effects import Effect, Log, Redraw
from .state import NOTICE_S, Note, Notice, TableState


def notice(state: TableState, fx: list[Effect], seat: int, words: str | tuple[str, ...], at: float) -> None:
    """``words`` on the seat's own screen for a few seconds (a refusal's reason, what changed its game)."""
    state.notices = {**state.notices, seat: Notice(words, at + NOTICE_S)}
    fx.append(Redraw(at + NOTICE_S))


def lasting(state: TableState, seat: int, words: str | tuple[str, ...]) -> None:
    """``words`` on the seat's own screen until taken back or replaced (a computer player stuck on a bug)."""
    state.notices = {**state.notices, seat: Notice(words)}


def quiet(state: TableState, seat: int | None = None) -> None:
    """The seat's notice taken back (None: every seat's)."""
    if seat is None:
        state.notices = {}
    elif seat in state.notices:
        state.notices = {s: n for s, n in state.notices.items() if s != seat}


def tell_table(state: TableState, fx: list[Effect], headline: str, words: str | tuple[str, ...], at: float) -> None:
    """What changed the game from elsewhere, on the table display for a few seconds: a word or two, and who did
    what."""
    state.table_notice = Notice(words, at + NOTICE_S, headline)
    fx.append(Redraw(at + NOTICE_S))


def note(state: TableState, fx: list[Effect], text: str, screen: str | None, wall: float) -> None:
    """A note for the host (logged in full as a warning, in English as the log is); with ``screen`` (said in the
    box's language), seat 1 reads it in the lobby."""
    state.noted += 1
    state.notes = (*state.notes, Note(state.noted, text, screen, wall))
    fx.append(Log("warning", "%s", (text,)))


def log(fx: list[Effect], level: str, message: str, *args) -> None:
    fx.append(Log(level, message, args))
