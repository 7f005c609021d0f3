"""Players as the screens name them: by the names they gave, else by seat; who the table waits for.

A line names a player whole, its words joined by no-break spaces so that a wrapped line never splits it,
and a name written right to left isolated, a unit in the sentence around it (:func:`_said`).
Where no wording of a text fits a glass with the names whole, the glass draws it with each name's short
form: still recognisable and told apart from the table's other names: its first word that has a letter
(an emoji alone is no name), else that word and the initials of the rest ("Anna K."), else whole. A word is
never cut. A screen described from a view (:func:`named`) carries its table's short forms, and
:mod:`companion.render.oled` draws it with them (:func:`shortening`, :func:`shortened`).
"""
from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace

from companion.words import say, says

LISTED = 48                     # characters of whole names a row of players takes (see listed)
Shorts = tuple[tuple[str, str], ...]    # each name as a line says it whole, and its short form at its table
_drawn_with: ContextVar[Shorts] = ContextVar("shorts", default=())     # the short forms of the screen being drawn


def who(view: dict, seat: int) -> str:
    """A seat's player as a line names them: the whole name, else Seat and its number."""
    name = view.get("names", {}).get(str(seat))
    return _said(name) if name else say("Seat {seat}", seat=seat)


def shorts(view: dict) -> Shorts:
    """The short forms of the view's players whose names have one, as :func:`who` says the names."""
    pairs = ((_said(name), _said(short(view, int(seat)))) for seat, name in view.get("names", {}).items() if name)
    return tuple((said, form) for said, form in pairs if said != form)


def named(describe):
    """A ``describe_`` function whose first argument is a view: the Screen it describes carries the view's short
    forms of its players' names, for a glass with no room for them whole."""
    @functools.wraps(describe)
    def described(view: dict, *args, **kwargs):
        return replace(describe(view, *args, **kwargs), shorts=shorts(view))
    return described


@contextmanager
def shortening(forms: Shorts) -> Iterator[None]:
    """While a screen is drawn (on this thread): :func:`shortened` uses its players' short ``forms``."""
    token = _drawn_with.set(forms)
    try:
        yield
    finally:
        _drawn_with.reset(token)


def shortened(text: str) -> str:
    """``text`` with each player's name in it (as :func:`who` said it) in its short form, as the screen being
    drawn has them (:func:`shortening`)."""
    forms = dict(_drawn_with.get())
    if not forms:
        return text
    names = "|".join(map(re.escape, sorted(forms, key=len, reverse=True)))
    return re.sub(rf"(?<!\w)(?:{names})(?!\w)", lambda m: forms[m.group()], text)


def _said(name: str) -> str:
    """A name as a sentence holds it: its words on one line, and one written right to left a unit of its own
    (isolated: "Whack محمد: 3" keeps its colon and 3 after the name, where the bidirectional algorithm would
    take them into the name's run)."""
    joined = name.replace(" ", "\N{NO-BREAK SPACE}")
    rtl = any(unicodedata.bidirectional(char) in ("R", "AL") for char in name)
    return f"\N{FIRST STRONG ISOLATE}{joined}\N{POP DIRECTIONAL ISOLATE}" if rtl else joined


def title(view: dict, seat: int) -> tuple[str, ...]:
    """A seat's player for a title, longest first: the whole name, its short form, the seat."""
    name = view.get("names", {}).get(str(seat))
    if not name:
        return (say("Seat {seat}", seat=seat),)
    return tuple(dict.fromkeys((name, short(view, seat), say("Seat {seat}", seat=seat))))


def short(view: dict, seat: int) -> str:
    """The shortest form of a seat's name that is still its player's at this table: its first word with a
    letter where no other name there starts with that word, else that word and the initials of the rest where
    those are the only ones, else the whole name."""
    names = {int(s): n for s, n in view.get("names", {}).items() if n}
    name = names.get(seat)
    if not name:
        return say("Seat {seat}", seat=seat)
    others = [n for s, n in names.items() if s != seat]
    taken = {form.casefold() for other in others for form in (other, *_forms(other))}
    return next((form for form in _forms(name) if form.casefold() not in taken), name)


def _forms(name: str) -> tuple[str, ...]:
    """A name's short forms, shortest first: its first word with a letter, then with the initials of the rest."""
    words = [w for w in name.split() if any(unicodedata.category(c)[0] in "LN" for c in w)]
    if not words:
        return ()
    initials = " ".join(_initial(w) + "." for w in words[1:])
    return tuple(dict.fromkeys((words[0], f"{words[0]} {initials}".strip())))


def _initial(word: str) -> str:
    """A word's first letter, with the marks written on it (Ł, Ñ)."""
    start = next(i for i, c in enumerate(word) if unicodedata.category(c)[0] in "LN")
    end = start + 1
    while end < len(word) and unicodedata.combining(word[end]):
        end += 1
    return word[start:end]


def listed(view: dict, seats) -> str:
    """Seats' players in a row: Ada Lovelace, Bob, Seat 3; by their short forms where the whole names would make
    a row longer than :data:`LISTED` characters (a TV's prompt of eight players' full names squeezed its board)."""
    comma = separator()
    whole = comma.join(who(view, seat) for seat in seats)
    return whole if len(whole) <= LISTED else comma.join(_said(short(view, seat)) for seat in seats)


def waiting(view: dict) -> tuple[str, ...]:
    """Who the game waits for, longest first: by name, by count."""
    seats = view["waiting"]
    if not seats:
        return ("",)
    players, n = listed(view, seats), len(seats)
    return (say("Waiting for {players}", players=players), say("Wait: {players}", players=players),
            says("{n} still choosing", "{n} still choosing", n), says("{n} to go", "{n} to go", n))


def separator() -> str:
    """What stands between two of a row's words (", " in English): a message of its own, as a row has any length
    (a table's eight players), where a message for each length would be eight of the same."""
    return say(", ")


def joined(words) -> str:
    """Words in a row as a sentence has them: 1, 2 and 4 (all but the last joined by the :func:`separator`, then
    "{rest} and {last}" one message, which a language words its own way)."""
    words = list(words)
    if len(words) == 1:
        return words[0]
    return say("{rest} and {last}", rest=separator().join(words[:-1]), last=words[-1])

