"""Whakka Mole screens and lamps.

A seat's OLED shows its sheet as five holes with their tokens, its own draft
pop-ups (marked under the holes) and whack, and whether it is locked in. The
lamps show only what is public: the tokens on the seat's sheet, and at the
reveal the holes that popped up and the hole that was whacked.
"""
from __future__ import annotations

from companion.lamps import Lamp

from .common import OFF, ON, ROWS, WIDTH, canvas, fit, hint, names, prompt, rows, title, waiting, who, whos

HOLE_R = 7


def _holes(draw, sheet: list[int], marked=(), y: int = 20) -> None:
    """The sheet: one circle per hole, filled with its token count; ``marked`` holes get a caret below."""
    step = WIDTH // len(sheet)
    for i, tokens in enumerate(sheet):
        cx = step * i + step // 2
        box = (cx - HOLE_R, y - HOLE_R, cx + HOLE_R, y + HOLE_R)
        if tokens:
            draw.ellipse(box, fill=ON)
            fit(draw, (cx - 4, y - 5, cx + 4, y + 5), str(min(tokens, 9)), fill=OFF, align="centre")
        else:
            draw.ellipse(box, outline=ON)
        if i + 1 in marked:
            draw.polygon(((cx, y + HOLE_R + 2), (cx - 3, y + HOLE_R + 5), (cx + 3, y + HOLE_R + 5)), fill=ON)


def _pts(n: int) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"


def _outcome(view: dict, you: int) -> tuple[str, ...]:
    """What the seat's last turn came to, biggest first: its points, whom it hit, who hit it."""
    state = view["state"]
    last = state["last"][you - 1]
    target, by = who(view, state["whacks"][you - 1], 5), last["whacked_by"]
    if last["hit"]:
        return (f"+{last['points']} hit {target}", f"+{last['points']} hit!", f"+{last['points']}")
    if by:
        return (f"hit by {who(view, by, 4)}", f"+{last['points']}")
    return (f"+{last['points']} missed", f"+{last['points']}")


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    title(draw, names(view, you), f"{_pts(state['scores'][you - 1])} {state['supply'][you - 1]} tok")
    held = view.get("held", {})
    popup = entry["draft"] if entry.get("key") == "popup" else held.get("popup", [])
    _holes(draw, state["sheets"][you - 1], marked=popup or ())
    target = who(view, state["whacks"][you - 1], 5)
    key = entry.get("key")
    if view["over"]:
        won = you in view["winners"]
        prompt(draw, "You win!" if won else (f"{whos(view, view['winners'], 6)} wins", "Game over"))
        hint(draw, "OK: a new game" if you == 1 else "seat 1 OK: new game", notice)
        return image
    if view.get("fresh") and state["last"]:
        big = _outcome(view, you)
    elif key == "popup":
        big = ("Pop up?",)
    elif key == "whack":
        hole = "?" if entry["draft"] is None else entry["draft"]        # the draft fills the blank: one glyph changes
        big = (f"Hit {target}: {hole}", f"{target}: {hole}")
    else:
        big = ("Locked in", "Locked")
    prompt(draw, big)
    if key == "popup":
        line = "1-5 pop up, OK lock"
    elif key == "whack":
        line = f"1-5 hole of {target}, OK"
    else:
        line = ("hold OK: change picks",) + waiting(view)
    hint(draw, line, notice)
    return image


def table(view: dict):
    image, draw = canvas()
    state = view["state"]
    title(draw, "Whakka Mole", "END" if view["over"] else f"turn {state['turn']}")
    scores = state["scores"]
    columns = 2 if len(scores) > 4 else 1
    width = WIDTH // columns
    for i, score in enumerate(scores):
        col, row = divmod(i, 4)
        mark = " *" if (i + 1) in view["locked"] else ""
        box = (2 + col * width, ROWS[row] + 1, (col + 1) * width - 2, ROWS[row] + 10)
        fit(draw, box, (f"{who(view, i + 1, 6)}{mark}", f"{who(view, i + 1, 4)}{mark}"))
        fit(draw, box, str(score), align="right")
    if view["over"]:
        footer = f"Winner: {whos(view, view['winners'], 6)}"
    elif len(scores) <= 4 and state["last"] and not view["locked"]:
        footer = _turn(view)
    else:
        footer = waiting(view, "Wait: ")
    rows(draw, [footer], start=4)
    return image


def _turn(view: dict) -> str:
    """The last reveal in words: who hit whom."""
    state = view["state"]
    hit = [i + 1 for i, last in enumerate(state["last"]) if last["hit"]]
    if not hit:
        return "Nobody hit anyone"
    named = " ".join(f"{who(view, s, 4)}>{who(view, state['whacks'][s - 1], 4)}" for s in hit)
    numbered = " ".join(f"{s}>{state['whacks'][s - 1]}" for s in hit)
    return (f"Hits: {named}", f"Hits: {numbered}", f"{len(hit)} hits")


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
