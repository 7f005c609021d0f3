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

from .common import CHAR_W, ON, ROWS, WIDTH, canvas, cells, fit, rows, seats_text, segments, title

HOLES = 5
CELL = WIDTH // HOLES
DIE = {"glove": "Glove", "pan": "Pan", "mallet": "Mallet", "prize": "Prize die"}
SHORT = {"Boxing Glove": "Glv", "Frying Pan": "Pan", "Giant Mallet": "Mal", "Prize die": "Prz",
         "Pass": "No", "Go for the Crown": "Go!"}
MISS = "X"


def _short(label: str) -> str:
    """A label cut to a hole's width: the die, 'Go!', a stand's stars, a seat."""
    if label in SHORT:
        return SHORT[label]
    if label.startswith("Seat "):
        return "S" + label[5:]
    return label.rsplit(" ", 1)[-1][:4]


def _me(state: dict, seat: int) -> dict:
    return state["seats"][seat - 1]


def _my_rolls(state: dict, seat: int) -> list[str]:
    """What the seat's dice did in the last roll, as words."""
    out = []
    for roll in state["rolls"]:
        if roll["seat"] != seat or roll["face"] is None:
            continue
        face = roll["face"]
        if roll["die"] == "prize":
            out.append(f"Prize die {face}*")
        else:
            out.append(f"{DIE[roll['die']]} {'miss' if face == MISS else f'hole {face}'}")
    return out


def _prompt(state: dict, seat: int, entry: dict) -> str:
    """The decision in a line of the OLED."""
    key = entry["key"]
    if key == "crown":
        return "Go for the Crown?"
    if key == "die":
        return "Pick a die (secret)"
    if key == "discard":
        return f"Discard to {state['hand_limit']}: which?"
    if key == "prize":
        total = next(t["total"] for t in state["track"] if t["seat"] == seat)
        return f"Prize for {total} stars"
    if key == "order":
        return "Tie: who picks first?"
    if key == "tie":
        return "Showdown tie: winner?"
    if key.startswith("roll-"):
        return f"{DIE[key.rsplit('-', 1)[1]]} rolled?"
    return f"Mole's stars? ({_me(state, seat)['taking']} to go)"


def _decision(draw, state: dict, seat: int, entry: dict, notice: str) -> None:
    rows(draw, [_prompt(state, seat, entry)], start=2)
    holes, label = entry["holes"], entry["label"]
    if holes is None:                                    # a long list: hole 1 back, hole 2 forward
        segments(draw, ROWS[3], [("<1", False), (label, True), ("2>", False)])
    else:
        cells(draw, ROWS[3], [_short(h) if h else "" for h in holes],
              inverted=[i for i, h in enumerate(holes) if h is not None and h == label])
    if notice:
        hint = f"! {notice}"
    elif label is None:
        hint = "A hole, then OK"
    elif holes is None:
        hint = "Hole 1/2 step, OK"
    elif entry["key"].startswith("roll-") and label == MISS:
        hint = "> X (a miss), OK"
    else:
        hint = f"> {label}, OK"
    rows(draw, [hint], start=4)


def _status(state: dict, view: dict, seat: int) -> list[str]:
    """Three lines for a seat with nothing to decide now."""
    me = _me(state, seat)
    held = view.get("held", {}).get("die")
    if held:
        return [f"Locked: {DIE[held]}", f"Wait {seats_text(view['waiting'])}", "Hold OK to change"]
    lines = [" ".join(_my_rolls(state, seat)) or f"Round {state['round']}"]
    if me["crown"] == "declared":
        lines.append("Going for the Crown!")
    mine = next((t for t in state["track"] if t["seat"] == seat), None)
    if mine and state["phase"] in ("prize", "tie"):
        lines.append(f"Star track: {mine['total']}")
    lines.append(f"Wait {seats_text(view['waiting'])}" if view["waiting"] else "")
    return lines[:3]


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    me = _me(state, you)
    title(draw, f"S{you} Mole Park", ("K " if state["king_mole"] == you else "") + f"{me['stars']}*")
    hand = view["state"]["hand"]
    stands = {s["stand"]: s["stars"] for s in state["stands"]}
    rows(draw, [f"Hand {' '.join(map(str, hand))} ={sum(hand)}" if hand else "Hand: no moles",
                "Won " + " ".join(str(stands[p]) for p in me["prizes"]) if me["prizes"] else "No prizes yet"])
    if view["over"]:
        winner = state["winner"]
        rows(draw, ["You are King Mole!" if winner == you else f"S{winner} is King Mole",
                    "", "Seat 1 OK: new game"], start=2)
    elif entry.get("key"):
        _decision(draw, state, you, entry, notice)
    else:
        lines = _status(state, view, you)
        rows(draw, lines[:2] + [f"! {notice}" if notice else lines[2] if len(lines) > 2 else ""], start=2)
    return image


def _landed(draw, state: dict) -> None:
    """Under each hole, the seats whose dice landed there in the last roll."""
    landed = {h: [] for h in range(1, HOLES + 1)}
    for roll in state["rolls"]:
        if roll["die"] != "prize" and isinstance(roll["face"], int):
            landed[roll["face"]].append(str(roll["seat"]))
    for hole, seats in landed.items():
        words = "".join(seats)
        words = words if len(words) <= 3 else words[:2] + "+"
        fit(draw, ((hole - 1) * CELL + 1, ROWS[1] + 1, hole * CELL - 2, ROWS[1] + 10), words, align="centre")


def _stands(draw, state: dict) -> None:
    width = WIDTH // len(state["stands"])
    cells(draw, ROWS[2], [str(s["stars"]) if s["shown"] else "--" for s in state["stands"]], width=width)


def _seats(draw, state: dict) -> None:
    """Every seat's prize stars, King Mole's cell filled; seat numbers when there is room."""
    seats = state["seats"]
    width = WIDTH // len(seats)
    wide = width > 5 * CHAR_W
    labels = [f"{s['seat']}:{s['stars']}" if wide else str(s["stars"]) for s in seats]
    cells(draw, ROWS[3], labels, inverted=[state["king_mole"] - 1], width=width, boxed=False)


def _status_parts(view: dict) -> list[tuple[str, bool]]:
    state, waiting = view["state"], view["waiting"]
    phase = state["phase"]
    wait = [(str(s), False) for s in waiting]
    declared = [s["seat"] for s in state["seats"] if s["crown"] == "declared"]
    if view["over"]:
        return [(f"S{state['winner']} wins the Crown!", True)]
    if phase == "crown":
        return [("Crown?", False)] + [(f"S{s}!", True) for s in declared] + [("wait", False)] + wait
    if phase == "dice":
        return [("Dice: wait", False)] + wait + [(f"Crown S{s}", True) for s in declared]
    if phase in ("prize", "tie") and state["track"]:
        on_track = {t["seat"] for t in state["track"]}
        asked = [(f"S{s}?", True) for s in waiting if s not in on_track]      # King Mole, on a tie
        return ((asked or [("Tie:" if phase == "tie" else "Track", False)])
                + [(f"{t['seat']}:{t['total']}", t["seat"] in waiting) for t in state["track"]])
    word = {"roll": "Roll:", "take": "Mole cards:", "discard": "Discard:", "prize": "Prize:"}.get(phase, "Wait")
    return [(word, False)] + wait


def _board(view: dict):
    """The table without the last roll and the status line: title, holes, stands and seats."""
    image, draw = canvas()
    state = view["state"]
    name = "Showdown" if state["showdown"] and not view["over"] else f"Mole Park R{state['round']}"
    title(draw, name, f"King {state['king_mole']}")
    cells(draw, ROWS[0], [str(n) for n in state["holes"]], inverted=[i for i, n in enumerate(state["holes"]) if n])
    _stands(draw, state)
    _seats(draw, state)
    return image, draw


def table(view: dict):
    image, draw = _board(view)
    _landed(draw, view["state"])
    segments(draw, ROWS[4], _status_parts(view))
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
