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

from .common import CHAR_W, LINE_H, OFF, ON, ROWS, WIDTH, canvas, cells, fit, hint, prompt, rows, segments, title, who

HOLES = 5
#: an answer's three letters, for its hole's cell (the big line says it in full)
SHORT = {"On board": "Brd", "Over line": "Lin", "Off back": "Bak", "Off side": "Sid", "Under mignette": "Und",
         "Flick all": "All", "Flick": "Flk", "Taupiniere": "Tau", "Nasdaq": "Nas", "Touching": "Tch",
         "On top": "Top", "Rosserie": "Ros", "Mole circle": "Cir", "Off board": "Off", "Open/partly in": "Opn",
         "Fully in R/C": "Ful", "Behind loup": "Lp", "Push!": "Psh"}
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


BIG_SHORT = {"Mole circle": "Circle", "Under mignette": "Under mig", "Open/partly in": "Open/part",
             "Fully in R/C": "Fully in", "Behind loup": "Loup line", "Over line": "Over line"}


def _short(label: str) -> str:
    return SHORT.get(label, label if not label.isdigit() else f"M{label}")


def _role(state: dict, seat: int) -> str:
    return "mole" if state["mole"] == seat else "migs"


def _doing(view: dict) -> str:
    """Whose flick it is and what the box waits for, in a line."""
    state = view["state"]
    side = "mole" if state["side"] == "mole" else "migs"
    return f"{who(view, state['flicker'], 5)} {side}: {'call' if state['phase'] == 'call' else 'report'}"


def _flags(state: dict) -> str:
    return " ".join(word for word, on in (("1st go", state["first_go"]), ("Gad", state["gad"])) if on)


def _report_so_far(state: dict) -> str:
    r = state["report"]
    parts = [WHERE.get(r.get("where"), "")] if "where" in r else []
    if r.get("dead"):
        parts.append("dead " + " ".join(f"M{n}" for n in r["dead"]))
    return ", ".join(p for p in parts if p)


def _last(state: dict) -> tuple[str, ...]:
    """The last turn, or how the last round ended and why, in words (alternatives, longest first)."""
    last = state["last"]
    if last is None:
        return (f"Round {state['round']}: go!",)
    if last["winner"] is not None:
        why = REASONS[last["reason"]]
        if last["winner"] == "tie":
            return (f"Tie, no point: {why}", f"Tie: {why}")
        side = "Mole" if last["winner"] == "mole" else "Migs"
        return (f"{side} +1: {why}", f"{side}: {why}")
    side = "Mole" if last["side"] == "mole" else "Migs"
    if last["call"] == "nasdaq" and last["side"] == "mole":
        return (f"{side}: Nasdaq",)
    dead = " ".join(f"M{n}" for n in last["dead"])
    return (f"{side}: {'Gad' if last['gad'] else 'ok'}" + (f", {dead} died" if dead else ""),
            f"{side}: {'Gad' if last['gad'] else 'ok'}" + (f", {len(last['dead'])} died" if dead else ""))


def _context(state: dict, entry: dict, notice: str) -> tuple[str, ...]:
    """The bottom line while deciding: a refusal's reason; why a call is barred; the report so far; else the keys."""
    keys = "1-5 choose, OK" if entry["kind"] == "holes" else "a hole, then OK"
    if entry["key"] == "call":
        barred = [f"no {_short(c['label'])}: {c['why']}" for c in state["calls"] if not c["legal"]]
        return tuple(barred) + (keys,) if barred else ("OK: call it", keys)
    if entry["key"] == "push":
        return ("hole 1: push, OK",)
    so_far = _report_so_far(state)
    return (f"{so_far}; OK", so_far, keys) if so_far else (keys,)


def _draft(entry: dict) -> tuple[str, ...]:
    """The answer drafted, in full words for the big line."""
    if entry["kind"] == "holes":
        chosen = entry["draft"] or []
        return (" ".join(f"M{n}" for n in chosen),) if chosen else ("None died", "None")
    label = entry["label"]
    if label is None:
        return ("Choose",)
    word = f"M{label}" if label.isdigit() else label
    return (word, BIG_SHORT.get(word, word), _short(word))


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    a, b = state["scores"]
    title(draw, (f"{who(view, you, 6)} {_role(state, you)}", who(view, you, 6)), (f"R{state['round']} {a}-{b}",
                                                                                f"{a}-{b}"))
    if view["over"]:
        won = you in view["winners"]
        rows(draw, [f"Match over, {max(a, b)}-{min(a, b)}"])
        prompt(draw, "You win!" if won else (f"{who(view, view['winners'][0], 5)} wins", "You lose"))
        hint(draw, "OK: a new match" if you == 1 else "seat 1 OK: new match", notice)
    elif entry.get("key"):
        rows(draw, [entry["prompt"]])
        holes = entry["holes"] or []
        drafted = entry["draft"] if isinstance(entry["draft"], list) else [entry["draft"]]
        picked = [i for i, h in enumerate(holes) if h is not None and (h == entry["label"] or
                                                                      (h.isdigit() and int(h) in drafted))]
        cells(draw, ROWS[1], [_short(h) if h else "" for h in holes], inverted=picked, boxed=False)
        prompt(draw, _draft(entry))
        hint(draw, _context(state, entry, notice), notice)
    else:
        rows(draw, [(f"Migs {len(state['alive'])}/{state['count']} {_flags(state)}", f"Migs {len(state['alive'])}"),
                    (f"Wait: {_doing(view)}", "Wait")])
        prompt(draw, (f"{a} - {b}", f"{a}-{b}"))
        hint(draw, _last(state), notice)
    return image


def _mignettes(draw, state: dict, y: int) -> None:
    """'Migs' and a coin per mignette: filled while alive, crossed with how it died once dead."""
    fit(draw, (2, y + 1, 26, y + 10), "Migs")
    how = {d["mignette"]: d["how"] for d in state["deaths"]}
    for n in range(1, state["count"] + 1):
        cx, cy = 36 + (n - 1) * 20, y + LINE_H // 2 + 1
        box = (cx - 4, cy - 4, cx + 4, cy + 4)
        if n in state["alive"]:
            draw.ellipse(box, fill=ON)
        else:
            draw.line((box[0], box[1], box[2], box[3]), fill=ON)
            draw.line((box[0], box[3], box[2], box[1]), fill=ON)
            fit(draw, (cx + 6, y + 1, cx + 12, y + 10), HOW[how[n]])
    flags = _flags(state)
    if flags:
        fit(draw, (WIDTH - 2 - CHAR_W * len(flags), y + 1, WIDTH - 1, y + 10), flags)


def table(view: dict):
    image, draw = canvas()
    state = view["state"]
    a, b = state["scores"]
    target = f"to {state['target']}" + (f" by {state['margin']}" if state["margin"] > 1 else "")
    title(draw, "Mole" if view["over"] else f"Mole R{state['round']}", target)
    half = WIDTH // 2
    for i, score in enumerate((a, b)):
        mole = state["mole"] == i + 1
        box = (i * half + 1, ROWS[0], (i + 1) * half - 2, ROWS[0] + LINE_H)
        if mole:
            draw.rectangle(box, fill=ON)
        fit(draw, (box[0] + 2, box[1] + 1, box[2] - 2, box[3]), (f"{who(view, i + 1, 6)} {score}", f"S{i + 1} {score}"),
            align="centre", fill=OFF if mole else ON)
    rows(draw, [(f"Mole: {who(view, state['mole'], 5)}  Migs: {who(view, state['mignettes'], 5)}",
                 f"Mole {state['mole']}  Migs {state['mignettes']}")], start=1)
    if view["over"]:
        winner = view["winners"][0]
        segments(draw, ROWS[2], [(f"{who(view, winner, 6)} wins {max(a, b)}-{min(a, b)}", True)])
        rows(draw, [_last(state)], start=4)
        return image
    _mignettes(draw, state, ROWS[2])
    segments(draw, ROWS[3], [(_doing(view), True)])
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
