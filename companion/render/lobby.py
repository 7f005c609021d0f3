"""The lobby screens: the host's menu on seat 1 and the table display, a wait note elsewhere."""
from __future__ import annotations

from companion.lamps import Lamp

from .common import canvas, inverted_row, rows, title


def menu(lobby: dict, notice: str = "", pin_hint: bool = False):
    """Seat 1's menu (and the table display's); ``pin_hint``: seat 1 may hold OK to see the host PIN."""
    image, draw = canvas()
    if lobby["stage"] == "game":
        title(draw, "pick game", "hold OK: PIN") if pin_hint else title(draw, "molebox", "pick game")
        for i, name in enumerate(lobby["games"][:5]):
            line = f"{i + 1} {name}"
            inverted_row(draw, i, line) if i == lobby["index"] else rows(draw, [line], start=i)
    elif lobby["stage"] == "players":
        title(draw, "Players", f"{lobby['seats']} seats")
        bots = lobby["bots"]
        who = bots.get(str(lobby["cursor"]))
        computers = " ".join(f"{s}{level[0].upper()}" for s, level in bots.items()) or "none"
        inverted_row(draw, 0, f"Seat {lobby['cursor']}: {f'{who} bot' if who else 'person'}")
        rows(draw, ["1:< 2:> 3:change", f"computers: {computers}", "5: back",
                    notice and f"! {notice}" or "OK: start"], start=1)
    else:
        title(draw, lobby["games"][lobby["index"]])
        low, high = lobby["bounds"]
        rows(draw, [f"Seats {lobby['seats']} ({low}-{high})", "1:-  2:+  5:back",
                    f"3: dice {lobby['dice']}", f"4: cards {lobby['cards']}",
                    notice and f"! {notice}" or ("OK: players" if lobby["bot_levels"] else "OK: start")])
    return image


def waiting(seat: int):
    image, draw = canvas()
    title(draw, "molebox", f"S{seat}")
    rows(draw, ["Seat 1 is choosing", "the game..."])
    return image


def lamps(lobby: dict, seat: int):
    if seat != 1:
        return (Lamp.OFF,) * 5
    if lobby["stage"] == "game":
        count = len(lobby["games"])
        return tuple(Lamp.BLINK if i == lobby["index"] else Lamp.ON if i < count else Lamp.OFF for i in range(5))
    if lobby["stage"] == "players":
        return (Lamp.ON, Lamp.ON, Lamp.ON, Lamp.OFF, Lamp.DIM)
    return (Lamp.ON, Lamp.ON, Lamp.ON, Lamp.ON, Lamp.DIM)
