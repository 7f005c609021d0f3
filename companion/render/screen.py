"""What a screen says, before any drawing: the one description every medium draws.

Each game's module describes a seat's screen and the table's from the match's views as a
:class:`Screen`: the prompt (what to do now), the options with their buttons, the notice, the
lines that tell the rest (an outcome, who the table waits for) and the board as data. The OLED
draws it (:mod:`companion.render.oled`); the TV view and a phone's seat page draw the same
description in HTML (:func:`as_dict`), so a change of wording is made once.

A text is a :data:`Words`: one wording, or several longest first, of which a drawing takes the
longest that fits its room.
"""
from __future__ import annotations

from dataclasses import dataclass, field

Words = str | tuple[str, ...]


@dataclass(frozen=True)
class Option:
    """An answer the seat may give now: the button that gives it and what it means."""

    button: str                 # "1".."5", "OK", "hold OK"
    words: Words
    chosen: bool = False        # the seat's draft

    def text(self, words: str) -> str:
        """The option as a line says it: its button, then its words (where there is room for them)."""
        return f"{self.button} {words}" if words else self.button


@dataclass(frozen=True)
class Screen:
    title: Words = ""                   # whose screen, or which game
    status: Words = ""                  # where the seat or the game stands: a score, a round
    prompt: Words = ""                  # what to do now, or what just happened: the largest words
    options: tuple[Option, ...] = ()
    lines: tuple[Words, ...] = ()       # what else there is to read, the most important first
    notice: Words = ""                  # a refusal's reason, or what changed this seat's game from elsewhere
    news: Words = ""                    # what happened to the seat since its last press: said before the prompt
    board: object = field(default=None, compare=True)  # the game's board as data, for its own drawing
    shorts: tuple[tuple[str, str], ...] = ()    # its players' names as said whole, and their short forms (naming.named)


class Sentence(str):
    """An event's words that stand as a sentence of their own though the event has a seat (a round's end, which
    the mole's player brought about): the turn list puts no name before them, as it does before a deed."""


def first(words: Words) -> str:
    """The longest wording: what a medium with room shows."""
    return words if isinstance(words, str) else words[0]


def wordings(words: Words) -> tuple[str, ...]:
    return (words,) if isinstance(words, str) else tuple(words)


def as_dict(screen: Screen) -> dict:
    """The screen as a page draws it, ready for JSON: each text in its longest wording (a page has room to wrap
    it), each option its button, words and whether it is the draft, the board as it is."""
    return {"title": first(screen.title), "status": first(screen.status), "prompt": first(screen.news or screen.prompt),
            "options": [{"button": o.button, "words": first(o.words), "chosen": o.chosen} for o in screen.options],
            "lines": [first(line) for line in ((screen.prompt,) if screen.news else ()) + screen.lines if first(line)], "notice": first(screen.notice), "board": screen.board}
