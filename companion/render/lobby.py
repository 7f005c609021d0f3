"""The lobby screens: the host's menu on seat 1 and the table display, a wait note elsewhere.

Every screen says what the buttons do: the holes pick, OK goes on, 5 goes back.
"""
from __future__ import annotations

from companion.lamps import Lamp

from .common import BIG, ROWS, WIDTH, canvas, fit, hint, inverted_row, rows, rows_at, title


def menu(lobby: dict, notice: str = "", pin_hint: bool = False):
    """Seat 1's menu (and the table display's); ``pin_hint``: seat 1 may hold OK to see the host PIN."""
    image, draw = canvas()
    if lobby["stage"] == "game":
        title(draw, ("Pick with 1-5", "Pick 1-5"), "PIN:hold OK" if pin_hint else "")
        for i, name in enumerate(lobby["games"][:5]):
            line = (f"{i + 1} {name}", f"{i + 1} {lobby['short'][i]}")
            if i == lobby["index"]:
                inverted_row(draw, i, (f"{i + 1} {name}  OK>", f"{i + 1} {lobby['short'][i]}  OK>", line[1]))
            else:
                rows(draw, [line], start=i)
        if notice:
            hint(draw, "", notice)
        return image
    if lobby["stage"] == "players":
        title(draw, "Players", f"{lobby['seats']} seats")
        who = lobby["bots"].get(str(lobby["cursor"]))
        person = "on a phone" if lobby["phone"] else "a person"
        inverted_row(draw, 0, f"Seat {lobby['cursor']}: {f'{who} computer' if who else person}")
        if lobby["bot_levels"]:
            computers = ",".join(f"{s}{level[0].upper()}" for s, level in lobby["bots"].items()) or "none"
            rows(draw, ["1 < seat >  2", ("3 computer, 4 phone", "3 bot, 4 phone"), f"Computers: {computers}"],
                 start=1)
        else:
            rows(draw, ["1 < seat >  2", "4 phone or panel"], start=1)
        hint(draw, "OK start   5 back", notice)
        return image
    title(draw, lobby["short"][lobby["index"]], "setup")
    low, high = lobby["bounds"]
    fit(draw, (2, ROWS[0] + 1, 26, ROWS[1] + 10), str(lobby["seats"]), font=BIG, wrap=False)
    rows_at(draw, 30, [f"seats, {low} to {high}", "1 fewer, 2 more"])
    lines = [f"3 dice: {lobby['dice']}" if "dice" in lobby["chance"] else "",
             f"4 cards: {lobby['cards']}" if "cards" in lobby["chance"] else ""]
    rows(draw, [line for line in lines if line], start=2)
    hint(draw, "OK players   5 back", notice)
    return image


def waiting(seat: int, name: str = ""):
    image, draw = canvas()
    title(draw, "molebox", f"seat {seat}")
    fit(draw, (2, ROWS[0] + 1, WIDTH - 1, ROWS[1] + 10), (name.split()[0][:10] if name else f"Seat {seat}"),
        font=BIG, align="centre")
    rows(draw, ["Seat 1 is choosing", "the game..."], start=3)
    return image


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


def on_phone(seat: int):
    """A panel whose seat is played on a phone: its own screen is on that phone alone."""
    image, draw = canvas()
    title(draw, "molebox", f"seat {seat}")
    fit(draw, (2, ROWS[0] + 1, WIDTH - 1, ROWS[1] + 10), "On a phone", font=BIG, align="centre")
    rows(draw, ["This seat plays on", "a phone tonight."], start=3)
    return image

