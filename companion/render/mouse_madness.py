"""Mouse Madness screens and lamps.

A seat's screen tells its choice in words, each way with its button ("1 Forward
to 11"), over the stretch of track that choice is about: the spaces from the
seat's token to the farthest space it may reach, a cell each, where a token is
a chip with its seat's figure (the seat's own hollow), a mouse hole an open
box, the cheese a block and the start a post, and a caret under the space the
draft sends it to. Where the glass has no room for both, the words stay. The
table display says whose turn it is and what happened, over the stretch that
holds every token on the track. Lamps light the holes the deciding seat may
press; the winner's panel lights up.
"""
from __future__ import annotations

import re
from dataclasses import replace

from companion.lamps import Lamp

from . import naming
from .news import deed, heard
from .choices import options
from .oled import HEIGHT, OFF, ON, WIDTH, canvas, face, lay, text
from .reading import SMALLEST, Panel
from .screen import Option, Screen

HOLES = 5
STEP_HOLES = (Lamp.DIM, Lamp.DIM, Lamp.OFF, Lamp.OFF, Lamp.OFF)   # entering a die: hole 1 down, hole 2 up
CHOOSING = ("direction", "push", "jump")
TUMBLE = (3, 6, 2, 5)   # the faces a rolling die shows, frame by frame


def _words(label: str) -> tuple[str, ...]:
    """A way in words, then shorter: Jump S1 to 26, Jump to 26, Jump 26."""
    plain = re.sub(r" S\d+", "", label)
    return (label, plain, re.sub(r"^(\w+).*?(\d+)$", r"\1 \2", plain))


def _story(view: dict) -> str:
    """This turn in words: Ada 6 to 12, pushed Bob to 13, fell to 9."""
    parts: list[str] = []
    for kind, seat, start, to in view["state"]["trail"]:
        if kind == "move":
            parts.append(f"{naming.who(view, seat)} moved to {to}")
        elif kind == "push":
            parts.append(f"pushed {naming.who(view, seat)} to {to}")
        else:
            parts.append(f"{'fell' if kind == 'fall' else 'jumped'} to {to}")
    return ", ".join(parts)


def _order(state: dict) -> list[int]:
    """The seats in the order of play, from the seat that won the start rolls."""
    seats = len(state["positions"])
    first = max(state["start_rolls"][-1], key=lambda pair: pair[1])[0]
    return [(first - 1 + i) % seats + 1 for i in range(seats)]


def _status(view: dict) -> tuple[str, ...]:
    """Whose turn and what they are doing, as the whole table may see it."""
    state = view["state"]
    if view["over"]:
        return (f"{naming.who(view, state['winner'])} is on the cheese!", f"{naming.who(view, state['winner'])} wins!",
                "Cheese!")
    mover = naming.who(view, state["turn"])
    if state["phase"] == "start":
        return ("Roll for the first turn", "Roll for first")
    if state["phase"] == "roll":
        return (f"{mover}: roll the die", f"{mover} rolls", "Mover rolls")
    if state["phase"] == "direction":
        return (f"{mover} rolled {state['last_roll']}: which way?", f"{mover} rolled {state['last_roll']}",
                f"Rolled {state['last_roll']}")
    on_token = state["positions"].count(state["positions"][state["turn"] - 1]) > 1
    return (f"{mover}: {'push or jump' if on_token else 'jump'}?", f"{mover} chooses", "Mover picks")


def _where(view: dict, seat: int) -> str:
    space, length = view["state"]["positions"][seat - 1], view["state"]["board"]["length"]
    return "at the start" if space == 0 else "on the cheese" if space == length else f"on {space}"


def _positions(view: dict) -> tuple[str, ...]:
    seats = range(1, len(view["state"]["positions"]) + 1)
    return (", ".join(f"{naming.who(view, s)} {_where(view, s)}" for s in seats),
            ", ".join(f"{naming.who(view, s)} {view['state']['positions'][s - 1]}" for s in seats))


def _start_rolls(view: dict) -> tuple[str, ...]:
    rounds = view["state"]["start_rolls"]
    rolls = dict(rounds[-1])
    said = ", ".join(f"{naming.who(view, s)} {rolls.get(s, '-')}" for s in view["state"]["rolling"])
    tie = f"Tie at {max(r for _, r in rounds[-2])}, again: " if len(rounds) > 1 else "Rolls: "
    return (tie + said, said)


def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    key = entry.get("key")
    by_label = {label: space for _, label, space in state["choices"]}
    board = {"positions": list(state["positions"]), "you": you, "target": by_label.get(entry.get("label")),
             "reach": sorted(by_label.values())}
    head = dict(title=naming.title(view, you), status=_where(view, you), notice=notice, board=board)
    if view["over"]:
        new = {"options": (Option("OK", ("new game", "new")),)} if you == 1 else {"lines": ("Seat 1 OK: new game",)}
        return Screen(**head, prompt="You win!" if state["winner"] == you else _status(view), **new)
    told = heard(view, told_you)                    # until the seat's next press
    if key in CHOOSING:
        if key == "push":
            prompt = (f"On {naming.who(view, _under(state))}: push or jump?", "Push or jump?", "Your move?")
        else:
            prompt = (entry["prompt"], *(("Which way?", "Go where?") if key == "direction" else ("Jump?",)))
        return Screen(**head, prompt=prompt, news=told, options=options(entry, "go", _words))
    if key:                                         # a physical die: holes 1 and 2 step its face
        return Screen(**head, prompt=(f"Die shows {entry['label']}", f"Die: {entry['label']}"), news=told,
                      options=options(entry, "enter"), lines=(entry["prompt"],))
    if state["phase"] == "start":
        return Screen(**head, prompt=("Roll for the first turn", "Roll for first"), news=told, lines=(_start_rolls(view),))
    after = state["turn"] % len(state["positions"]) + 1
    return Screen(**head, prompt=_status(view), news=told, lines=(
        "You play next" if after == you else f"Then {naming.who(view, after)}", _positions(view)))


def told_you(view: dict, event: dict) -> str | tuple[str, ...] | None:
    """An event told to the seat it concerns: its own roll, move, jump and fall; a push or a jump that moved or
    passed it; who goes first."""
    kind, you, who = event["kind"], view["you"], lambda seat: naming.who(view, seat)
    if kind == "push" and you in (event["seat"], event["by"]):
        pushed = "you" if event["seat"] == you else who(event["seat"])
        by = "You" if event["by"] == you else who(event["by"])
        return (f"{by} pushed {pushed} from {event['from']} to {event['to']}", f"{by} pushed {pushed} to {event['to']}",
                f"{by} pushed {pushed}", "You pushed a mouse" if by == "You" else "You were pushed")
    if kind == "jump" and event["over"] == you:
        return (f"{who(event['seat'])} jumped over you to {event['to']}", f"{who(event['seat'])} jumped you")
    if kind == "reroll" and you in event["seats"]:
        return (f"Tie at {event['roll']}: you roll again", "Tie: roll again")
    if kind == "first":
        return "You go first" if event["seat"] == you else f"{who(event['seat'])} goes first"
    if event["seat"] != you or kind not in ("start_roll", "roll", "move", "jump", "fall"):
        return None
    if kind == "move":
        return (f"You moved {'' if event['forced'] else event['direction'] + ' '}from {event['from']} to {event['to']}",
                f"You moved to {event['to']}")
    if kind == "fall":
        return (f"You fell down the mouse hole to {event['to']}", f"You fell to {event['to']}")
    if kind == "jump":
        return (f"You jumped over {who(event['over'])} to {event['to']}", f"You jumped to {event['to']}")
    return deed(view, event, tell(view, event))


def _under(state: dict) -> int:
    """The seat whose token the mover landed on."""
    return next(s for s, p in enumerate(state["positions"], 1)
                if p == state["positions"][state["turn"] - 1] and s != state["turn"])


def describe_table(view: dict) -> Screen:
    state = view["state"]
    lines = [_start_rolls(view)] if state["phase"] == "start" else []
    if state["trail"]:
        lines.append(_story(view))
    if state["phase"] != "start":
        lines.append(_positions(view))
        lines.append("Order: " + ", ".join(naming.who(view, s) for s in _order(state)))
    mover = state["winner"] if view["over"] else state["turn"]
    return Screen(title="Mouse Madness", status="the end" if view["over"] else
                  (f"turn {state['turns']}, die {state['last_roll']}" if state["last_roll"] else f"turn {state['turns']}"),
                  prompt=_status(view), lines=tuple(lines),
                  board={"positions": list(state["positions"]), "you": mover, "target": None,
                         "reach": [p for p in state["positions"] if p], **state["board"]})


def _stretch(draw, state: dict, board: dict, panel: Panel, top: int) -> int:
    """The stretch of track ``board`` is about, a cell a space, from ``top``; the rows it took."""
    figures = face(panel, "body")
    length = state["board"]["length"]
    holes = dict(state["board"]["holes"])
    chip_w = figures.width("8") + 6
    count = min(length + 1, WIDTH // (chip_w + 3))          # chips on neighbouring spaces stand apart
    cell = WIDTH // count
    mine = board["positions"][board["you"] - 1] if board["you"] else 0
    wanted = [mine, *board["reach"]]
    first = max(0, min(min(wanted), max(wanted) - count + 1, length + 1 - count))
    chip_h = figures.height
    line = top + chip_h + 1
    for i, space in enumerate(range(first, first + count)):
        x = i * cell
        if space == length:                                      # the cheese
            draw.rectangle((x + 1, line - 1, x + cell - 2, line + 3), fill=ON)
        elif space == 0:                                         # the start
            draw.rectangle((x + 1, line - 6, x + 2, line + 3), fill=ON)
        elif space in holes:                                     # a mouse hole
            draw.rectangle((x + 1, line, x + cell - 2, line + 3), outline=ON)
        else:
            draw.line((x + 1, line + 1, x + cell - 2, line + 1), fill=ON)
            draw.line((x + 1, line + 2, x + cell - 2, line + 2), fill=ON)
        here = [s for s, p in enumerate(board["positions"], 1) if p == space and space]
        if here:
            seat = board["you"] if board["you"] in here else here[0]
            own = seat == board["you"]
            chip = (x + (cell - chip_w) // 2, top, x + (cell - chip_w) // 2 + chip_w - 1, top + chip_h - 1)
            draw.rectangle(chip, fill=OFF if own else ON, outline=ON)
            text(draw, chip, str(seat), figures, "body", "centre", fill=ON if own else OFF)
        if space == board["target"]:
            cx = x + cell // 2
            draw.polygon(((cx, line + 5), (cx - 3, line + 9), (cx + 3, line + 9)), fill=ON)
    return chip_h + 12


def _drawn(screen: Screen, state: dict, panel: Panel, told: bool = False):
    """The stretch over the words where the glass holds both the prompt and a row of options or a line under
    it; else, or while the seat is ``told`` what happened (until its next press), the words alone."""
    image, draw = canvas()
    words = face(panel, "prompt").height + face(panel, "body").height
    rows = face(panel, "body").height + 12
    top = 0
    if HEIGHT - rows >= words and not told:     # the stretch heads the screen, in the title bar's place
        top = _stretch(draw, state, screen.board, panel, 0)
        screen = replace(screen, title="", status="")
    lay(draw, screen, panel, (0, top, WIDTH - 1, HEIGHT - 1))
    return image


def seat(view: dict, entry: dict, notice: str = "", panel: Panel = SMALLEST):
    screen = describe_seat(view, entry, notice)
    return _drawn(screen, view["state"], panel, bool(screen.news))


def table(view: dict, panel: Panel = SMALLEST):
    return _drawn(describe_table(view), view["state"], panel)


def describe_rolling(view: dict, step: int) -> Screen:
    """The table while the box rolls: the board as the roll found it, and the die's face tumbling."""
    state = view["state"]
    positions = list(state["positions"])
    for _, seat, start, _ in reversed(state["trail"]):       # a forced move waits for the die to land
        positions[seat - 1] = start
    screen = describe_table(view)
    board = {**screen.board, "positions": positions, "reach": [p for p in positions if p]}
    return Screen(title=screen.title, prompt=(f"{naming.who(view, state['turn'])} rolls: {TUMBLE[step % len(TUMBLE)]}",
                                             f"Rolls: {TUMBLE[step % len(TUMBLE)]}"), board=board)


def rolling(view: dict, step: int, panel: Panel = SMALLEST):
    return _drawn(describe_rolling(view, step), view["state"], panel)


def lamps(view: dict, seat: int, fresh: bool):
    """From the public view: the holes the deciding seat may press glow dim; the winner's panel lights up."""
    state = view["state"]
    if view["over"]:
        return ((Lamp.ON if state["winner"] == seat else Lamp.OFF),) * HOLES
    if seat not in view["waiting"]:
        return (Lamp.OFF,) * HOLES
    if state["phase"] in ("start", "roll"):
        return STEP_HOLES
    count = len(state["choices"])
    return tuple(Lamp.DIM if hole < count else Lamp.OFF for hole in range(HOLES))


#: what starts a turn (its die roll), and what a turn is called
TURN = (("roll",), "Turn")


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell); a seatless one as a sentence."""
    kind, who = event["kind"], lambda seat: naming.who(view, seat)
    said = {
        "start_roll": lambda e: f"rolled {e['roll']} for the first turn",
        "reroll": lambda e: f"Tie at {e['roll']}: {naming.joined(map(who, e['seats']))} roll again",
        "first": lambda e: f"went first with {e['roll']}",
        "roll": lambda e: f"rolled {e['roll']}",
        "move": lambda e: f"moved {'' if e['forced'] else e['direction'] + ' '}from {e['from']} to {e['to']}",
        "jump": lambda e: f"jumped {who(e['over'])} to {e['to']}",
        "push": lambda e: f"was pushed by {who(e['by'])} from {e['from']} to {e['to']}",
        "fall": lambda e: f"fell through the mouse hole on {e['from']} to {e['to']}",
        "win": lambda e: f"reached the cheese on {e['space']}",
    }.get(kind)
    return said(event) if said else None


def standings(view: dict) -> list[dict]:
    """Each seat's space as the TV shows it beside its name."""
    length = view["state"]["board"]["length"]
    return [{"score": "start" if space == 0 else "cheese" if space == length else str(space),
             "unit": "" if space in (0, length) else "space", "more": []} for space in view["state"]["positions"]]
