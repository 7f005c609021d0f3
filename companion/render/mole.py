"""Mole (the coin game) screens and lamps.

Everything in Mole is public, so the screens differ only in whose panel they
are on. A seat's OLED shows its role and the score, then the question it is
answering: the prompt, one box per hole labelled with what it picks (the draft
filled), the draft in words, and a line of context (why a call is not allowed,
what has been reported so far). The table display shows the score with the
mole's seat filled, the mignettes (alive, or crossed out), whose flick it is
and what the last turn or round came to. Lamps light the holes the flicker may
press: the calls the rules allow now lit, every other answer dim.
"""
from __future__ import annotations

from companion.lamps import Lamp

from .common import CHAR_W, LINE_H, ON, ROWS, WIDTH, canvas, cells, fit, rows, segments, title

HOLES = 5
SHORT = {"On board": "Brd", "Over line": "Line", "Off back": "Back", "Off side": "Side", "Under mignette": "Undr",
         "Flick all": "All", "Flick": "Flck", "Taupiniere": "Taup", "Nasdaq": "Nasd", "Touching": "Tch",
         "On top": "Top", "Rosserie": "Ross", "Mole circle": "Circ", "Off board": "Off", "Open/partly in": "Open",
         "Fully in R/C": "Full", "Behind loup": "Loup", "Push!": "Push"}
WHERE = {"board": "on board", "gad": "Gad", "line": "over the line", "back": "off the back", "side": "off a side",
         "under": "under a mignette"}
HOW = {"rosserie": "R", "circle": "C", "off": "O"}
REASONS = {
    "line": "crossed", "knocked_line": "knocked over", "knocked_back": "off the back", "knocked_side": "off a side",
    "hitter_died": "hitter died", "recompense": "recompense", "all_dead": "all M dead", "gad": "winning Gad",
    "fell_side": "fell off side", "fell_back": "fell off back", "under": "under a mig.", "killed_crossing": "kill+cross",
    "encompassed": "from R/circle", "loup": "from loup", "too_many": "2 kills", "taupiniere": "taupiniere",
    "push": "push",
}
WINNER = {"mole": "Mole+1", "mignettes": "Mig.", "tie": "Tie"}


def _short(label: str) -> str:
    return SHORT.get(label, label if not label.isdigit() else f"M{label}")


def _role(state: dict, seat: int) -> str:
    return "Mole" if state["mole"] == seat else "Mignettes"


def _doing(state: dict) -> str:
    """Whose flick it is and what the box waits for, in a line."""
    who = f"S{state['flicker']} {'mole' if state['side'] == 'mole' else 'mig.'}"
    return f"{who}: {'call' if state['phase'] == 'call' else 'report'}"


def _flags(state: dict) -> str:
    return " ".join(word for word, on in (("1st go", state["first_go"]), ("Gad", state["gad"])) if on)


def _report_so_far(state: dict) -> str:
    r = state["report"]
    parts = [WHERE.get(r.get("where"), "")] if "where" in r else []
    if r.get("dead"):
        parts.append("dead " + " ".join(f"M{n}" for n in r["dead"]))
    return ", ".join(p for p in parts if p)


def _last(state: dict) -> str:
    """The last turn, or how the last round ended."""
    last = state["last"]
    if last is None:
        return f"Round {state['round']}: go!"
    if last["winner"] is not None:
        return f"{WINNER[last['winner']]}: {REASONS[last['reason']]}"
    who = "Mole" if last["side"] == "mole" else "Mig."
    if last["call"] == "nasdaq" and last["side"] == "mole":
        return f"{who}: Nasdaq"
    dead = " ".join(f"M{n}" for n in last["dead"])
    return f"{who}: {'Gad' if last['gad'] else 'ok'}" + (f", {dead} died" if dead else "")


def _context(state: dict, entry: dict) -> list[str]:
    """The bottom line while deciding: the report so far; at a call, why a call is missing (two lines for two)."""
    if entry["key"] == "call":
        barred = [f"No {_short(c['label'])}: {c['why']}" for c in state["calls"] if not c["legal"]]
        return barred or ["All calls legal"]
    if entry["key"] == "push":
        return [f"S{state['flicker']}: {_report_so_far(state) or 'reporting'}"]
    return [_report_so_far(state) or f"Call: {state['call'].capitalize()}"]


def _hint(entry: dict, notice: str) -> str:
    if notice:
        return f"! {notice}"
    if entry["kind"] == "holes":
        chosen = entry["draft"] or []
        return ("> " + " ".join(f"M{n}" for n in chosen) + ", OK") if chosen else "> none, OK"
    if entry["key"] == "push":
        return "Pushed? hole 1, OK"
    label = entry["label"]
    if label is None:
        return "A hole, then OK"
    return f"> {'M' + label if label.isdigit() else label}, OK"


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    a, b = state["scores"]
    title(draw, f"S{you} {_role(state, you)}", f"{a}-{b}")
    alive = f"Mig {len(state['alive'])}/{state['count']}"
    rows(draw, [f"R{state['round']} {alive} {_flags(state)}"])
    if view["over"]:
        won = you in view["winners"]
        rows(draw, ["You win the match!" if won else f"S{view['winners'][0]} wins the match",
                    f"{a}-{b}", "", "Seat 1 OK: new game"], start=1)
    elif entry.get("key"):
        rows(draw, [entry["prompt"]], start=1)
        holes = entry["holes"] or []
        drafted = entry["draft"] if isinstance(entry["draft"], list) else [entry["draft"]]
        picked = [i for i, h in enumerate(holes) if h is not None and (h == entry["label"] or
                                                                      (h.isdigit() and int(h) in drafted))]
        cells(draw, ROWS[2], [_short(h) if h else "" for h in holes], inverted=picked)
        context = _context(state, entry)
        rows(draw, context if len(context) == 2 and not notice else [_hint(entry, notice), context[0]], start=3)
    else:
        rows(draw, [f"Wait: {_doing(state)}", _last(state), f"! {notice}" if notice else ""], start=1)
    return image


def _mignettes(draw, state: dict, y: int) -> None:
    """'Mig' and a coin per mignette: filled while alive, crossed with how it died once dead."""
    fit(draw, (2, y + 1, 20, y + 10), "Mig")
    how = {d["mignette"]: d["how"] for d in state["deaths"]}
    for n in range(1, state["count"] + 1):
        cx, cy = 30 + (n - 1) * 20, y + LINE_H // 2
        box = (cx - 4, cy - 4, cx + 4, cy + 4)
        if n in state["alive"]:
            draw.ellipse(box, fill=ON)
        else:
            draw.line((box[0], box[1], box[2], box[3]), fill=ON)
            draw.line((box[0], box[3], box[2], box[1]), fill=ON)
            fit(draw, (cx + 5, y + 1, cx + 11, y + 10), HOW[how[n]])
    flags = _flags(state)
    if flags:
        fit(draw, (WIDTH - 2 - CHAR_W * len(flags), y + 1, WIDTH - 1, y + 10), flags)


def table(view: dict):
    image, draw = canvas()
    state = view["state"]
    a, b = state["scores"]
    target = f"to {state['target']}" + (f" by {state['margin']}" if state["margin"] > 1 else "")
    title(draw, "Mole" if view["over"] else f"Mole R{state['round']}", target)
    cells(draw, ROWS[0], [f"S1 {a}", f"S2 {b}"], inverted=[state["mole"] - 1], width=WIDTH // 2)
    rows(draw, [f"Mole: S{state['mole']}  Mig.: S{state['mignettes']}"], start=1)
    if view["over"]:
        segments(draw, ROWS[2], [(f"S{view['winners'][0]} wins {max(a, b)}-{min(a, b)}", True)])
        rows(draw, [_last(state)], start=4)
        return image
    _mignettes(draw, state, ROWS[2])
    segments(draw, ROWS[3], [(_doing(state), True)] + ([("push?", False)] if state["phase"] == "report" else []))
    rows(draw, [_last(state)], start=4)
    return image


def lamps(view: dict, seat: int, fresh: bool):
    """A seat's lamps from the public view only.

    The flicker's panel: at the call the holes of the calls the rules allow now light (the box's
    suggestion); while reporting, the holes that answer the question glow dim. The other panel stays
    dark (its push claim is there on hole 1 but not suggested). The match winner's lamps all light.
    """
    state = view["state"]
    if view["over"]:
        return (Lamp.ON if seat in view["winners"] else Lamp.OFF,) * HOLES
    if seat != state["flicker"]:
        return (Lamp.OFF,) * HOLES
    options = state["question"]["options"]
    holes = set(options) if all(isinstance(o, int) for o in options) else set(range(1, len(options) + 1))
    lit = Lamp.ON if state["phase"] == "call" else Lamp.DIM
    return tuple(lit if h in holes else Lamp.OFF for h in range(1, HOLES + 1))
