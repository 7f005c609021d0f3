"""The lobby screens: the host's menu on seat 1 and the table display, a wait note elsewhere.

Every screen says what the buttons do: the holes pick, OK goes on, 5 goes back.
"""
from __future__ import annotations

from companion.lamps import Lamp
from companion.words import N_, say, says

from . import how, naming
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Option, Screen

COMPUTERS = {       # a computer player's level (rules.bots.TABLE_LEVELS): its seat's prompt, its item in the row
    "casual": (N_("Seat {seat}: casual computer"), N_("{seat} casual")),
    "strong": (N_("Seat {seat}: strong computer"), N_("{seat} strong")),
}
CHANCE = {          # what the table draws by chance, and how: the option that turns it
    ("dice", "virtual"): N_("dice: virtual"), ("dice", "physical"): N_("dice: physical"),
    ("cards", "virtual"): N_("cards: virtual"), ("cards", "physical"): N_("cards: physical"),
}


def describe_menu(lobby: dict, notice: str = "", pin_hint: bool = False) -> Screen:
    """Seat 1's menu (and the table display's); ``pin_hint``: seat 1 may hold OK to see the host PIN."""
    if lobby["stage"] == "game":
        games = [Option(str(i + 1), (name, short), i == lobby["index"])
                 for i, (name, short) in enumerate(zip(lobby["games"][:5], lobby["short"]))]
        chosen = lobby["ids"][lobby["index"]]
        return Screen(title="molebox", status=(say("hold OK: PIN"), say("PIN: hold OK")) if pin_hint else "",
                      prompt=(say("Pick a game"), say("Game?")), options=(*games, Option("OK", say("set it up"))),
                      lines=(how.goal(chosen), how.size(chosen)), notice=notice)
    if lobby["stage"] == "players":
        return _players(lobby, notice)
    low, high = lobby["bounds"]
    chance = [Option(button, say(CHANCE[what, lobby[what]]))
              for button, what in (("3", "dice"), ("4", "cards")) if what in lobby["chance"]]
    return Screen(title=(lobby["games"][lobby["index"]], lobby["short"][lobby["index"]]), status=say("setup"),
                  prompt=says("{n} seat", "{n} seats", lobby["seats"]),
                  lines=(says("{low} to {n} seat", "{low} to {n} seats", high, low=low), how.goal(lobby["game"])),
                  options=(Option("1", say("fewer")), Option("2", say("more")), *chance, Option("OK", say("players")),
                           Option("5", say("back"))), notice=notice)


def _players(lobby: dict, notice: str) -> Screen:
    """The players stage: the seat at the cursor, a person's, a phone's or a computer's, and the computers."""
    seat, bot = lobby["cursor"], lobby["bots"].get(str(lobby["cursor"]))
    if bot:
        prompt = (say(COMPUTERS[bot][0], seat=seat), say("Seat {seat}: computer", seat=seat),
                  say("Seat {seat}: bot", seat=seat), say("Bot {seat}", seat=seat))
    elif lobby["phone"]:
        prompt = (say("Seat {seat}: on a phone", seat=seat), say("Seat {seat}: phone", seat=seat),
                  say("Phone {seat}", seat=seat))
    else:
        prompt = (say("Seat {seat}: a person", seat=seat), say("Seat {seat}: person", seat=seat),
                  say("Seat {seat}", seat=seat))
    keys = [Option("1", say("< seat")), Option("2", say("seat >"))]
    if lobby["bot_levels"]:
        keys.append(Option("3", say("computer")))
    computers = naming.separator().join(say(COMPUTERS[level][1], seat=seat) for seat, level in lobby["bots"].items())
    return Screen(title=say("Players"), status=says("{n} seat", "{n} seats", lobby["seats"]), prompt=prompt,
                  options=(*keys, Option("4", say("phone")), Option("OK", say("start")), Option("5", say("back"))),
                  lines=(say("Computers: {computers}", computers=computers),) if computers else (), notice=notice)


def menu(lobby: dict, notice: str = "", pin_hint: bool = False, panel: Panel = SMALLEST):
    return frame(describe_menu(lobby, notice, pin_hint), panel)


def describe_waiting(seat: int, name: str = "") -> Screen:
    """A seat in the lobby, or one the game in play leaves out: whose seat it is, and that seat 1 chooses."""
    return Screen(title="molebox", status=say("seat {seat}", seat=seat),
                  prompt=naming.title({"names": {str(seat): name}}, seat),
                  lines=((say("Seat 1 is choosing the game"), say("Seat 1 chooses"), say("Please wait")),))


def waiting(seat: int, name: str = "", panel: Panel = SMALLEST):
    return frame(describe_waiting(seat, name), panel)


def lamps(lobby: dict, seat: int):
    if seat != 1:
        return (Lamp.OFF,) * 5
    if lobby["stage"] == "game":
        count = len(lobby["games"])
        return tuple(Lamp.BLINK if i == lobby["index"] else Lamp.ON if i < count else Lamp.OFF for i in range(5))
    if lobby["stage"] == "players":
        return (Lamp.ON, Lamp.ON, Lamp.ON if lobby["bot_levels"] else Lamp.OFF, Lamp.ON, Lamp.DIM)
    chance = lobby["chance"]
    return (Lamp.ON, Lamp.ON, Lamp.ON if "dice" in chance else Lamp.OFF, Lamp.ON if "cards" in chance else Lamp.OFF,
            Lamp.DIM)


def on_phone(seat: int, panel: Panel = SMALLEST):
    """A panel whose seat is played on a phone: its own screen is on that phone alone."""
    return frame(Screen(title="molebox", status=say("seat {seat}", seat=seat), prompt=say("On a phone"),
                        lines=((say("This seat plays on a phone tonight"), say("Played on a phone")),)), panel)
