"""Mole Park screens and lamps.

A seat's OLED shows what only its owner may see: the stars of its moles, its
draft (the die it is picking, a crown answer, a discard, a prize) and its
locked-in die. The table display shows what lies face up on the table: the
moles in each hole, where the last dice landed, the prize stands, every seat's
prize stars with King Mole marked, and the star track or whoever the game is
waiting for. Lamps light the holes a seat may press, from the public view only.
"""
from __future__ import annotations

from companion.lamps import Lamp

from .common import (OFF, ON, ROWS, WIDTH, canvas, cells, fit, hint, names, prompt, rows, seats_text, segments, title,
                     waiting, who, whos)

HOLES = 5
CELL = WIDTH // HOLES
DIE = {"glove": "Glove", "pan": "Pan", "mallet": "Mallet", "prize": "Prize die"}
MISS = "X"


def _me(state: dict, seat: int) -> dict:
    return state["seats"][seat - 1]


def _rolled(state: dict, seat: int) -> tuple[str, ...]:
    """What the seat's die did in the last roll, for the big line (alternatives, longest first)."""
    for roll in state["rolls"]:
        if roll["seat"] != seat or roll["face"] is None:
            continue
        face, die = roll["face"], DIE[roll["die"]]
        if roll["die"] == "prize":
            return (f"Prize +{face}*", f"+{face} stars")
        if face == MISS:
            return (f"{die} missed", "Missed")
        return (f"{die} hole {face}", f"{die}: {face}", f"Hole {face}")
    return ()


def _big(state: dict, seat: int, entry: dict) -> tuple[str, ...]:
    """The big line while deciding: the draft once there is one, else the question in a word or two."""
    key, label = entry["key"], entry["label"]
    if key == "crown":
        return ("Crown!", "Go!") if entry["draft"] == "declare" else ("Crown?",) if label is None else ("No crown",)
    if label is not None and key == "prize":
        name, stars = label.rsplit(" ", 1)
        return (f"{stars}* {name.split()[0]}", f"{stars} stars")
    if label is not None:
        return (label, label.split()[-1]) if key != "die" else (label, DIE.get(entry["draft"], label))
    return {"die": ("Pick a die",), "discard": ("Discard?",), "prize": ("Prize?",), "order": ("Who first?",),
            "tie": ("Winner?",)}.get(key) or ((f"{DIE[key.rsplit('-', 1)[1]]}?", "Rolled?") if key.startswith("roll-")
                                              else ("Stars?",))


def _keys(state: dict, seat: int, entry: dict) -> tuple[str, ...]:
    """The bottom line while deciding: what each button does now."""
    key, holes = entry["key"], entry["holes"]
    if holes is None:
        return ("1 < 2 > step, OK take", "1< 2> OK")
    picks = [i + 1 for i, h in enumerate(holes) if h]
    span = f"{picks[0]}-{picks[-1]}" if len(picks) > 1 else str(picks[0])
    what = {"die": "die", "discard": "discard", "order": "seat", "tie": "seat",
            "take": "stars", "prize": "prize"}.get(key, "face")
    if key == "crown":
        return ("1 pass, 2 go, OK", "1 no 2 go OK")
    if key.endswith("-prize"):
        return (f"{span} stars, OK", f"{span}, OK")
    if key.startswith("roll-"):            # a whacking die's draft starts on its miss: no hole is the miss
        return (f"{span} hole or none, OK", f"{span}/none, OK", f"{span}, OK")
    return (f"{span} {what}, OK lock", f"{span}, OK")


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    me = _me(state, you)
    king = state["king_mole"] == you
    title(draw, names(view, you), f"{'King ' if king else ''}{me['stars']}*")
    hand = state["hand"]
    stands = {s["stand"]: s["stars"] for s in state["stands"]}
    rows(draw, [(f"Hand {' '.join(map(str, hand))} ={sum(hand)}", f"Hand {len(hand)} ={sum(hand)}") if hand
                else "Hand: no moles",
                ("Won " + " ".join(str(stands[p]) for p in me["prizes"]), f"{len(me['prizes'])} prizes")
                if me["prizes"] else "No prizes yet"])
    key = entry.get("key")
    if view["over"]:
        winner = state["winner"]
        prompt(draw, "King Mole!" if winner == you else (f"{who(view, winner, 5)} wins", "Game over"))
        hint(draw, "OK: a new game" if you == 1 else "seat 1 OK: new game", notice)
        return image
    held = view.get("held", {}).get("die")
    if view.get("fresh") and _rolled(state, you) and not held:
        big = _rolled(state, you)
        line = _keys(state, you, entry) if key else waiting(view)
    elif key:
        big, line = _big(state, you, entry), _keys(state, you, entry)
    elif held:
        big, line = (DIE[held], "Locked"), ("hold OK: change die",) + waiting(view)
    else:
        big = ("Crown!",) if me["crown"] == "declared" else _rolled(state, you) or (f"Round {state['round']}",)
        line = waiting(view) if view["waiting"] else ""
    prompt(draw, big)
    hint(draw, line, notice)
    return image


def _landed(draw, view: dict) -> None:
    """Under each hole, the seats whose dice landed there in the last roll: 1,2 or their names."""
    landed = {h: [] for h in range(1, HOLES + 1)}
    for roll in view["state"]["rolls"]:
        if roll["die"] != "prize" and isinstance(roll["face"], int):
            landed[roll["face"]].append(roll["seat"])
    for hole, seats in landed.items():
        if seats:
            box = ((hole - 1) * CELL + 1, ROWS[1] + 1, hole * CELL - 2, ROWS[1] + 10)
            fit(draw, box, (whos(view, seats, 4), seats_text(seats), f"x{len(seats)}"), align="centre")


def _stands(draw, state: dict) -> None:
    width = WIDTH // len(state["stands"])
    cells(draw, ROWS[2], [str(s["stars"]) if s["shown"] else "--" for s in state["stands"]], width=width)


def _seats(draw, view: dict) -> None:
    """Every seat's prize stars, King Mole's inverted; their names or numbers where there is room."""
    state = view["state"]
    seats = state["seats"]
    width = WIDTH // len(seats)
    labels = [(f"{who(view, s['seat'], 3)} {s['stars']}", f"{s['seat']}:{s['stars']}", str(s["stars"]))
              for s in seats]
    for i, label in enumerate(labels):
        box = (i * width, ROWS[3] + 1, (i + 1) * width - 2, ROWS[3] + 10)
        if seats[i]["seat"] == state["king_mole"]:
            draw.rectangle((box[0], ROWS[3], box[2], box[3]), fill=ON)
        fit(draw, (box[0] + 1, box[1], box[2] - 1, box[3]), label, align="centre",
            fill=OFF if seats[i]["seat"] == state["king_mole"] else ON)


def _status(view: dict) -> tuple[str, ...]:
    """The bottom line: what the table waits for, or how the round went, in words."""
    state = view["state"]
    phase = state["phase"]
    declared = [s["seat"] for s in state["seats"] if s["crown"] == "declared"]
    if view["over"]:
        return (f"{who(view, state['winner'], 8)} wins the Crown!", f"{who(view, state['winner'], 8)} wins!")
    if phase == "crown" and declared:
        going = ", ".join(who(view, s, 4) for s in declared)
        return (f"Crown: {going} going!", f"Crown: {going}!") + waiting(view, "Crown? ")
    if phase in ("prize", "tie") and state["track"]:
        track = " ".join(f"{who(view, t['seat'], 3)}:{t['total']}" for t in state["track"])
        numbers = " ".join(f"{t['seat']}:{t['total']}" for t in state["track"])
        return (f"Track {track}", f"Track {numbers}") + waiting(view, "Prizes: ")
    if phase == "take":
        taking = [(s["seat"], s["taking"]) for s in state["seats"] if s["taking"]]
        named = ", ".join(f"{who(view, seat, 4)} {n}" for seat, n in taking)
        return (f"Moles: {named}", "Moles: " + ", ".join(f"{seat}:{n}" for seat, n in taking)) + waiting(view, "Moles: ")
    word = {"crown": "Crown?", "dice": "Dice:", "roll": "Roll:", "take": "Moles:", "discard": "Discard:",
            "prize": "Prize:"}.get(phase, "Wait:")
    return waiting(view, f"{word} wait ") + waiting(view, f"{word} ")


def _board(view: dict):
    """The table without the last roll and the status line: title, holes, stands and seats."""
    image, draw = canvas()
    state = view["state"]
    name = "Showdown" if state["showdown"] and not view["over"] else f"Mole Park R{state['round']}"
    title(draw, (name, f"Round {state['round']}", f"R{state['round']}"),
          (f"King {who(view, state['king_mole'], 5)}", f"K{state['king_mole']}"))
    cells(draw, ROWS[0], [str(n) for n in state["holes"]], inverted=[i for i, n in enumerate(state["holes"]) if n])
    _stands(draw, state)
    _seats(draw, view)
    return image, draw


def table(view: dict):
    image, draw = _board(view)
    _landed(draw, view)
    rows(draw, [_status(view)], start=4)
    return image


def rolling(view: dict, frame: int):
    """The table while the box rolls virtual dice: a die tumbles across the holes, then they land."""
    image, draw = _board(view)
    dice = len(view["state"]["rolls"])
    for i in range(HOLES):
        x, y = i * CELL + CELL // 2 - 4, ROWS[1] + 1
        if (i + frame) % 2 == 0:
            draw.rectangle((x, y, x + 8, y + 8), outline=ON)
            draw.point([(x + 2 + 2 * ((i + frame) % 3), y + 4), (x + 4, y + 2 + 2 * (frame % 3))], fill=ON)
    segments(draw, ROWS[4], [("Rolling", True), (f"{dice} {'dice' if dice > 1 else 'die'}" + "." * (frame + 1), False)])
    return image


def _choosable(state: dict, seat: int) -> set[int]:
    """The holes a waiting seat may press, as far as the public view tells; all five where it would tell more."""
    phase = state["phase"]
    if phase == "crown":
        return {1, 2}
    if phase == "dice":
        return {1, 2, 3, 4} if _me(state, seat)["hand"] else {1, 2, 3}
    if phase == "prize":
        total = next((t["total"] for t in state["track"] if t["seat"] == seat), None)
        if total is not None:
            affordable = sum(1 for s in state["stands"] if s["shown"] and s["stars"] <= total)
            return set(range(1, affordable + 1)) if affordable <= HOLES else {1, 2}
    return set(range(1, HOLES + 1))


def lamps(view: dict, seat: int, fresh: bool):
    """A seat's lamps from the public view only.

    Until the seat's first press after a reveal, the holes its dice landed on are lit. Otherwise the holes
    it may press glow dim while it has to decide (all five where the legal ones are its own secret:
    discards and mole cards). King Mole's lamps all light when the game ends.
    """
    state = view["state"]
    if view["over"]:
        return (Lamp.ON if state["winner"] == seat else Lamp.OFF,) * HOLES
    if fresh:
        hit = {r["face"] for r in state["rolls"] if r["seat"] == seat and r["die"] != "prize"}
        if hit:
            return tuple(Lamp.ON if h in hit else Lamp.OFF for h in range(1, HOLES + 1))
    if seat not in view["waiting"]:
        return (Lamp.OFF,) * HOLES
    choosable = _choosable(state, seat)
    return tuple(Lamp.DIM if h in choosable else Lamp.OFF for h in range(1, HOLES + 1))
