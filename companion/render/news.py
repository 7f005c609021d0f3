"""What happened to a seat since its last press, told to it: the first thing its screen says until it presses again.

The table keeps where each seat's news starts (its last press) and the scene hands the seat the events since, as
``view["news"]``. Each game tells an event to the seat it concerns in the second person (``told_you``: "Bo pushed
you from 5 to 4"), or says it does not concern it (None); this module picks what the screen says of them.
"""
from __future__ import annotations

from collections.abc import Callable

from companion.words import say

from . import naming
from .screen import wordings

#: a game's teller: an event in the seat's own words, longest first, or None when it does not concern the seat
Teller = Callable[[dict, dict], "str | tuple[str, ...] | None"]


def heard(view: dict, told_you: Teller) -> tuple[str, ...]:
    """What the events since the seat's last press did to it, as a prompt's wordings, longest first: the last two
    told together, then the last alone in each of its wordings. () when none concerned the seat, or the game is
    over (its end says it all)."""
    if view["over"]:
        return ()
    said = [wordings(words) for event in view.get("news", ()) if (words := told_you(view, event))]
    if not said:
        return ()
    last = said[-1]
    together = (say("{earlier}; {later}", earlier=said[-2][0], later=_mid(last[0])),) if len(said) > 1 else ()
    return together + last


def _mid(sentence: str) -> str:
    """A sentence as the second half of one: "You moved" goes on as "you moved" (the words the language says them
    with, "You" and "you"); a name keeps its capital."""
    you = say("You")
    return say("you") + sentence[len(you):] if sentence.startswith(you + " ") else sentence


def deed(view: dict, event: dict, words: str | None) -> str | None:
    """An event's words (its game's ``tell``, after its seat's name) told to the seat: its own deed begins "You",
    another seat's its name, a seatless event stands as it is."""
    if words is None or event["seat"] is None:
        return words
    if event["seat"] == view["you"]:
        return say("You {deed}", deed=words)
    return say("{player} {deed}", player=naming.who(view, event["seat"]), deed=words)
