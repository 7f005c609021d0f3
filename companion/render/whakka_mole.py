"""Whakka Mole screens and lamps.

A seat's OLED shows its sheet as five holes with their tokens, its own draft
pop-ups (marked under the holes) and whack, and whether it is locked in. The
lamps show only what is public: the tokens on the seat's sheet, and at the
reveal the holes that popped up and the hole that was whacked.
"""
from __future__ import annotations

from companion.lamps import Lamp

from .common import OFF, ON, ROWS, WIDTH, canvas, fit, rows, seats_text, title

HOLE_R = 7


def _holes(draw, sheet: list[int], marked=(), y: int = 27) -> None:
    """The sheet: one circle per hole, filled with its token count; ``marked`` holes get a caret below."""
    step = WIDTH // len(sheet)
    for i, tokens in enumerate(sheet):
        cx = step * i + step // 2
        box = (cx - HOLE_R, y - HOLE_R, cx + HOLE_R, y + HOLE_R)
        if tokens:
            draw.ellipse(box, fill=ON)
            fit(draw, (cx - 3, y - 4, cx + 3, y + 4), str(min(tokens, 9)), fill=OFF, align="centre")
        else:
            draw.ellipse(box, outline=ON)
        if i + 1 in marked:
            draw.polygon(((cx, y + HOLE_R + 2), (cx - 3, y + HOLE_R + 5), (cx + 3, y + HOLE_R + 5)), fill=ON)


def _turn_line(last: dict, target: int) -> str:
    parts = ([f"Hit S{target}"] if last["hit"] else []) + (
        [f"hit by S{last['whacked_by']}"] if last["whacked_by"] else [])
    return f"{', '.join(parts) or 'Last turn'} +{last['points']}"


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    title(draw, f"S{you} Whakka Mole", f"{state['scores'][you - 1]}pt")
    held = view.get("held", {})
    popup = entry["draft"] if entry.get("key") == "popup" else held.get("popup", [])
    _holes(draw, state["sheets"][you - 1], marked=popup or ())
    target = state["whacks"][you - 1]
    if view["over"]:
        winners = view["winners"]
        lines = ["You win!" if you in winners else f"Winner: S{seats_text(winners)}",
                 "Scores " + " ".join(map(str, state["scores"]))]
    else:
        whack = entry["draft"] if entry.get("key") == "whack" else held.get("whack")
        started = bool(held) or bool(entry.get("draft"))
        if state["last"] and not started:
            first = _turn_line(state["last"][you - 1], target)
        else:
            first = f"Whack S{target}:{whack if whack is not None else '?'} tok {state['supply'][you - 1]}"
        status = {"popup": "Pop up? then OK", "whack": "Whack? then OK"}.get(
            entry.get("key"), f"Locked. Wait {seats_text(view['waiting'])}")
        lines = [first, f"! {notice}" if notice else status]
    rows(draw, lines, start=3)
    return image


def table(view: dict):
    image, draw = canvas()
    state = view["state"]
    title(draw, "Whakka Mole", "END" if view["over"] else f"T{state['turn']}")
    scores = state["scores"]
    for i, score in enumerate(scores):
        mark = "*" if (i + 1) in view["locked"] else " "
        col, row = divmod(i, 4)
        fit(draw, (2 + col * 64, ROWS[row] + 1, col * 64 + 63, ROWS[row] + 10), f"S{i + 1}{mark}{score:>3}")
    if view["over"]:
        footer = f"Winner: S{seats_text(view['winners'])}"
    else:
        footer = f"Waiting: {seats_text(view['waiting'])}"
    rows(draw, [footer], start=4)
    return image


def lamps(view: dict, seat: int, fresh: bool):
    """A seat's lamps from the public view only.

    Until the seat's first press after a reveal: the holes that popped up are lit, older tokens dim,
    and the hole that was whacked flashes. Otherwise the tokens on the sheet are lit, and the empty
    holes glow dim while the seat still has to choose.
    """
    state = view["state"]
    sheet = state["sheets"][seat - 1]
    if fresh and state["last"] and not view["over"]:
        last = state["last"][seat - 1]
        out = [Lamp.ON if h + 1 in last["popup"] else (Lamp.DIM if sheet[h] else Lamp.OFF)
               for h in range(len(sheet))]
        if last["whacked_by"]:
            attacker = state["last"][last["whacked_by"] - 1]
            out[attacker["whack"] - 1] = Lamp.FAST
    else:
        choosing = seat in view["waiting"]
        out = [Lamp.ON if tokens else (Lamp.DIM if choosing else Lamp.OFF) for tokens in sheet]
    return tuple(out) + (Lamp.OFF,) * (5 - len(out))
