"""The screens of a box that cannot play or must tell the host something.

Paused while the hardware or the journal's storage is at fault, a note the host
must read (in the lobby), a display whose own frame failed, parted when the service
stops, and the table display's notice of a change made from elsewhere. A fault, a note and a notice come
already said, as their makers said them (:class:`companion.pause.Pause`, :mod:`companion.table.told`).
"""
from __future__ import annotations

from companion.words import say

from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Option, Screen


def describe_paused(fault: str) -> Screen:
    return Screen(title="molebox", status=say("paused"), prompt=say("Paused"), lines=(fault, say("The game waits")))


def paused(fault: str, panel: Panel = SMALLEST):
    return frame(describe_paused(fault), panel)


def describe_storage(fault: str) -> Screen:
    """Every display while the journal cannot be written: play waits, nothing acknowledged is lost."""
    return Screen(title="molebox", status=say("paused"), prompt=(say("Storage fault"), say("Paused")),
                  lines=(fault, say("Nothing is lost"), say("Retrying by itself"), say("See the dashboard")))


def storage(fault: str, panel: Panel = SMALLEST):
    return frame(describe_storage(fault), panel)


def describe_note(words: str, count: int, action: str) -> Screen:
    """A notice the host must read in the lobby (``count`` of them waiting), and the button that reads on
    (``action``: who presses OK, if not this seat's)."""
    who = action.removesuffix("OK: got it").strip()
    got_it = (say("got it ({who})", who=who), say("got it")) if who else say("got it")
    return Screen(title=say("Notice"), status="" if count == 1 else say("1 of {count}", count=count), lines=(words,),
                  options=(Option("OK", got_it),))


def note(words: str, count: int, action: str, panel: Panel = SMALLEST):
    return frame(describe_note(words, count, action), panel)


def broken(name: str, panel: Panel = SMALLEST):
    """What a display shows when its own frame could not be drawn or sent: the rest of the box plays on."""
    return frame(Screen(title="molebox", status=say("screen fault"), prompt=say("Screen fault"),
                        lines=(say("The game goes on"), say("The log says why"))), panel)


def parting(panel: Panel = SMALLEST):
    """What every display keeps showing after the service stops (luma's ``persist``)."""
    return frame(Screen(title="molebox", status=say("stopped"), prompt=say("Stopped"),
                        lines=(say("The game is saved"), say("It goes on at the next start"))), panel)


def describe_table_notice(headline: str, words: str) -> Screen:
    """The table display for a few seconds when something changed the game from elsewhere (an undo, a restart, a
    seat freed): what, and who did it."""
    return Screen(title="molebox", status=say("news"), prompt=headline, lines=(words,))


def table_notice(headline: str, words: str, panel: Panel = SMALLEST):
    return frame(describe_table_notice(headline, words), panel)
