"""The lobby screens: the host's menu on seat 1 and the table display, a wait note elsewhere.

Every screen says what the buttons do: the holes pick, OK goes on, 5 goes back.
"""
from __future__ import annotations

from companion.lamps import Lamp

from . import naming
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Option, Screen


def describe_menu(lobby: dict, notice: str = "", pin_hint: bool = False) -> Screen:
    """Seat 1's menu (and the table display's); ``pin_hint``: seat 1 may hold OK to see the host PIN."""
    if lobby["stage"] == "game":
        games = [Option(str(i + 1), (name, short), i == lobby["index"])
                 for i, (name, short) in enumerate(zip(lobby["games"][:5], lobby["short"]))]
        return Screen(title="molebox", status=("hold OK: PIN", "PIN: hold OK") if pin_hint else "",
                      prompt=("Pick a game", "Game?"), options=(*games, Option("OK", "set it up")), notice=notice)
    if lobby["stage"] == "players":
        bot = lobby["bots"].get(str(lobby["cursor"]))
        person = "on a phone" if lobby["phone"] else "a person"
        keys = [Option("1", "< seat"), Option("2", "seat >")]
        if lobby["bot_levels"]:
            keys.append(Option("3", "computer"))
        computers = ", ".join(f"{seat} {level}" for seat, level in lobby["bots"].items())
        seat = lobby["cursor"]
        tiny = f"Seat {seat}: bot" if bot else f"Phone {seat}" if lobby["phone"] else f"Seat {seat}"
        return Screen(title="Players", status=f"{lobby['seats']} seats",
                      prompt=(f"Seat {seat}: {f'{bot} computer' if bot else person}",
                              f"Seat {seat}: {'computer' if bot else 'phone' if lobby['phone'] else 'person'}", tiny),
                      options=(*keys, Option("4", "phone"), Option("OK", "start"), Option("5", "back")),
                      lines=(f"Computers: {computers}",) if computers else (), notice=notice)
    low, high = lobby["bounds"]
    chance = [Option("3", f"dice: {lobby['dice']}")] if "dice" in lobby["chance"] else []
    chance += [Option("4", f"cards: {lobby['cards']}")] if "cards" in lobby["chance"] else []
    return Screen(title=(lobby["games"][lobby["index"]], lobby["short"][lobby["index"]]), status="setup",
                  prompt=f"{lobby['seats']} seats", lines=(f"{low} to {high} seats",),
                  options=(Option("1", "fewer"), Option("2", "more"), *chance, Option("OK", "players"),
                           Option("5", "back")), notice=notice)


def menu(lobby: dict, notice: str = "", pin_hint: bool = False, panel: Panel = SMALLEST):
    return frame(describe_menu(lobby, notice, pin_hint), panel)


def describe_waiting(seat: int, name: str = "") -> Screen:
    """A seat in the lobby, or one the game in play leaves out: whose seat it is, and that seat 1 chooses."""
    return Screen(title="molebox", status=f"seat {seat}", prompt=naming.title({"names": {str(seat): name}}, seat),
                  lines=(("Seat 1 is choosing the game", "Seat 1 chooses", "Please wait"),))


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
    return frame(Screen(title="molebox", status=f"seat {seat}", prompt="On a phone",
                        lines=(("This seat plays on a phone tonight", "Played on a phone"),)), panel)
