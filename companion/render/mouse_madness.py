"""Mouse Madness screens and lamps.

Every screen draws the track in two rows, one above the other: a cell per space
from the start (a post) to the cheese (a block). A mouse hole is an open box
with the space its arrow points to in small figures above it (no token ever
rests on a hole, so the figures never hide one). Each token is its seat number
over its space; a mover that landed on a token shows under it until it pushes
or jumps; tokens still on the start are listed in the text. A seat's OLED marks
its own token inverted and, while the seat chooses, puts a caret under the
space its draft sends a token to and labels each hole button with what it does.
The table display marks the mover and shows the order of play and the die.
Lamps light the holes the deciding seat may press; the winner's panel lights up.
"""
from __future__ import annotations

from luma.core.legacy import text as small_text, textsize
from luma.core.legacy.font import TINY_FONT, proportional

from companion.lamps import Lamp

from .common import CHAR_W, LINE_H, OFF, ON, WIDTH, canvas, cells, fit, names, seats_text, segments, title, who, whos

ROWS_Y = (10, 30)       # the two rows of the track: a token's box is y+1..y+9, the track line y+11
LINE_DY = 11            # the track line, under the tokens; a mover landed on a token shows this far below
LINES = (42, 52)        # the two text lines: their boxes y+1..y+10
SMALL = proportional(TINY_FONT)     # 3x5 figures: where a hole's arrow points
HOLES = 5
STEP_HOLES = (Lamp.DIM, Lamp.DIM, Lamp.OFF, Lamp.OFF, Lamp.OFF)   # entering a die: hole 1 down, hole 2 up
CHOOSING = ("direction", "push", "jump")
SHORT = {"forward": ">{}", "back": "<{}", "jump-forward": "^{}", "jump-back": "^{}", "stay": "No"}
TUMBLE = (3, 6, 2, 5)   # the faces a rolling die shows, frame by frame
PAIR_W = 21             # a start roll, "3:5", and a little room: six fit across


def _grid(length: int) -> tuple[int, int]:
    """(cells per row, cell width): the start and spaces 1..length in two rows."""
    per_row = (length + 2) // 2
    return per_row, WIDTH // per_row


def _digit(draw, x: int, y: int, s: str, marked: bool) -> None:
    """A token: its seat's figure on a chip of its own, so neighbours never run together; the marked one
    (the seat's own, or the table's mover) is a hollow chip."""
    draw.rectangle((x - 1, y + 1, x + 5, y + 9), fill=OFF if marked else ON, outline=ON)
    fit(draw, (x, y + 2, x + 5, y + 8), s, fill=ON if marked else OFF, wrap=False)


def _below(state: dict, positions: list[int]) -> bool:
    """A mover landed on a token in the track's second row: it shows below, over the first text line."""
    per_row, _ = _grid(state["board"]["length"])
    space = positions[state["turn"] - 1] if state.get("turn") else 0
    return bool(space) and positions.count(space) > 1 and space // per_row == 1


def _track(draw, state: dict, positions: list[int], marked: int | None, target: int | None = None) -> None:
    """The track, its holes with their arrows, the tokens off the start; ``marked`` inverted, a caret under ``target``."""
    length = state["board"]["length"]
    per_row, cell = _grid(length)
    holes = dict(state["board"]["holes"])

    def where(space: int) -> tuple[int, int]:
        row = space // per_row
        return (WIDTH - per_row * cell) // 2 + (space - row * per_row) * cell, ROWS_Y[row]

    for space in range(length + 1):
        x, y = where(space)
        line = y + LINE_DY
        if space == length:                                      # the cheese
            draw.rectangle((x + 1, line - 1, x + cell - 2, line + 2), fill=ON)
        elif space == 0:                                         # the start
            draw.rectangle((x + 1, line - 2, x + 1, line), fill=ON)
        elif space in holes:
            draw.rectangle((x + 1, line, x + cell - 2, line + 2), outline=ON)
            arrow = str(holes[space])
            width = textsize(arrow, font=SMALL)[0] - 1
            small_text(draw, (x + (cell - width + 1) // 2, line - 7), arrow, fill=ON, font=SMALL)
        else:
            draw.line((x + 1, line, x + cell - 2, line), fill=ON)
    for seat, space in enumerate(positions, 1):
        if space:
            x, y = where(space)
            if seat == state["turn"] and positions.count(space) > 1:   # the mover, landed on a token: below
                y += LINE_DY
            _digit(draw, x + (cell - 5) // 2, y, str(seat), seat == marked)
    if target is not None:
        x, y = where(target)
        cx, top = x + cell // 2, y + LINE_DY + 2
        draw.polygon(((cx, top), (cx - 3, top + 4), (cx + 3, top + 4)), fill=ON)


def _die(draw, x: int, y: int, face: int) -> None:
    """A die showing ``face``: a filled square with the figure cut out."""
    draw.rectangle((x, y, x + CHAR_W + 2, y + LINE_H - 1), fill=ON)
    fit(draw, (x + 1, y + 1, x + CHAR_W + 1, y + LINE_H - 2), str(face), fill=OFF, align="centre")


def _story(view: dict) -> str:
    """This turn in a few characters: ``Ada 6>12 S2>13v9``: a move, a push, a fall (v) and a jump (^)."""
    parts: list[str] = []
    for kind, seat, start, to in view["state"]["trail"]:
        if kind == "move":
            parts.append(f"{who(view, seat, 4)} {start}>{to}")
        elif kind == "push":
            parts.append(f"{who(view, seat, 4)}>{to}")
        else:
            parts[-1] += f"{'v' if kind == 'fall' else '^'}{to}"
    return " ".join(parts)


def _order(state: dict) -> list[int]:
    """The seats in the order of play, from the seat that won the start rolls."""
    seats = len(state["positions"])
    first = max(state["start_rolls"][-1], key=lambda pair: pair[1])[0]
    return [(first - 1 + i) % seats + 1 for i in range(seats)]


def _status(view: dict) -> tuple[str, ...]:
    """Whose turn and what they are doing, as the whole table may see it."""
    state = view["state"]
    if view["over"]:
        return (f"{who(view, state['winner'], 8)} is on the cheese!", f"{who(view, state['winner'], 8)} wins!")
    mover = who(view, state["turn"], 6)
    if state["phase"] == "roll":
        return (f"{mover}: roll the die", f"{mover} rolls")
    if state["phase"] == "direction":
        return (f"{mover} rolled {state['last_roll']}: which way?", f"{mover} rolled {state['last_roll']}: way?")
    on_token = state["positions"].count(state["positions"][state["turn"] - 1]) > 1
    return (f"{_story(view)}: {'push' if on_token else 'jump'}?", f"{mover}: {'push' if on_token else 'jump'}?")


def _at_start(view: dict) -> tuple[str, ...] | str:
    seats = [s for s, p in enumerate(view["state"]["positions"], 1) if p == 0]
    return (f"At the start: {whos(view, seats)}", f"Start: {seats_text(seats)}") if seats else ""


def _next(view: dict, you: int) -> str:
    """Who plays after the mover."""
    after = view["state"]["turn"] % len(view["state"]["positions"]) + 1
    return "You play next" if after == you else f"Then {who(view, after, 10)}"


def _start_rolls(draw, state: dict, notice: str = "") -> None:
    """The rolls for the first turn: who is rolling (again, after a tie) and what each has rolled."""
    rounds = state["start_rolls"]
    _line(draw, 0, f"Tie at {max(r for _, r in rounds[-2])}: roll again" if len(rounds) > 1 else "Roll for first turn")
    if notice:
        _line(draw, 1, notice, inverted=True)
        return
    rolls = dict(rounds[-1])
    for i, seat in enumerate(state["rolling"]):
        fit(draw, (2 + i * PAIR_W, LINES[1] + 1, 1 + (i + 1) * PAIR_W, LINES[1] + 10), f"{seat}:{rolls.get(seat, '-')}")


def _line(draw, index: int, s, inverted: bool = False) -> None:
    if inverted:
        draw.rectangle((0, LINES[index], WIDTH - 1, LINES[index] + 10), fill=ON)
    fit(draw, (2, LINES[index] + 1, WIDTH - 1, LINES[index] + 10), s, wrap=False, fill=OFF if inverted else ON)


def _short(choice: list) -> str:
    """A choice in a hole's cell: ``>11`` forward (or push forward) to 11, ``<4`` back to 4, ``^7`` jump to 7,
    ``No`` stay (no jump)."""
    value, _, space = choice
    return SHORT[value].format(space)


def _question(view: dict, entry: dict) -> tuple[str, ...]:
    """A choosing seat's question (or its draft, and OK), for the title bar."""
    state = view["state"]
    by_label = {label: [value, label, space] for value, label, space in state["choices"]}
    drafted = by_label.get(entry["label"])
    if drafted:
        return (f"{entry['label']}: OK", f"{_short(drafted)}: OK")
    if entry["key"] == "push":
        under = next(s for s, p in enumerate(state["positions"], 1)
                     if p == state["positions"][state["turn"] - 1] and s != state["turn"])
        return (f"On {who(view, under, 5)}: push/jump?", "Push or jump?")
    return (entry["prompt"], "Which way?")


def _choice(draw, view: dict, entry: dict, notice: str) -> int | None:
    """The two text lines of a seat choosing; returns the space its draft sends a token to."""
    state = view["state"]
    by_label = {label: [value, label, space] for value, label, space in state["choices"]}
    drafted = by_label.get(entry["label"])
    if notice:
        _line(draw, 0, notice, inverted=True)
    holes = entry["holes"]
    cells(draw, LINES[1], [_short(by_label[h]) if h else "" for h in holes],
          inverted=[i for i, h in enumerate(holes) if h is not None and h == entry["label"]])
    return drafted[2] if drafted else None


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    key = entry.get("key")
    space = state["positions"][you - 1]
    where = "at the start" if space == 0 else "on the cheese" if space == state["board"]["length"] else f"space {space}"
    title(draw, names(view, you), where)
    target = None
    if key in CHOOSING and not notice:                # the question in the title: the track's rows need the room
        title(draw, _question(view, entry))
    if view["over"]:
        _line(draw, 0, "You win!" if state["winner"] == you else _status(view))
        _line(draw, 1, notice or ("OK: a new game" if you == 1 else "seat 1 OK: new game"), inverted=bool(notice))
    elif key in CHOOSING:
        target = _choice(draw, view, entry, notice)
    elif key:                                       # a physical die: hole 1 counts down, hole 2 up
        _line(draw, 0, notice or (entry["prompt"], "Your die?"), inverted=bool(notice))
        segments(draw, LINES[1], [("Die", False), ("<1", False), (entry["label"], True), ("2>", False), ("OK", False)])
    elif state["phase"] == "start":
        _start_rolls(draw, state, notice)
    else:
        if not _below(state, state["positions"]):
            _line(draw, 0, _status(view))
        _line(draw, 1, notice or _at_start(view) or _next(view, you), inverted=bool(notice))
    _track(draw, state, state["positions"], you, target)
    return image


def _board(view: dict, positions: list[int], face: int | None, mover: int | None):
    """The table's title, track and order of play (the mover filled), with the die at the end of the row."""
    image, draw = canvas()
    state = view["state"]
    title(draw, "Mouse Madness", "END" if view["over"] else (f"turn {state['turns']}" if state["turns"] else ""))
    _track(draw, state, positions, mover)
    if state["phase"] != "start" and not _below(state, positions):
        segments(draw, LINES[0], [("Order", False)] + [(str(s), s == mover) for s in _order(state)])
    if face is not None and not _below(state, positions):
        _die(draw, WIDTH - CHAR_W - 4, LINES[0], face)
    return image, draw


def table(view: dict):
    state = view["state"]
    over = view["over"]
    face = None if state["phase"] == "roll" else state["last_roll"]
    image, draw = _board(view, state["positions"], face, state["winner"] if over else state["turn"])
    if state["phase"] == "start":
        _start_rolls(draw, state)
    else:
        _line(draw, 1, _status(view))
    return image


def rolling(view: dict, frame: int):
    """The table while the box rolls: the board as the roll found it, and a die tumbling along the bottom."""
    state = view["state"]
    positions = list(state["positions"])
    for _, seat, start, _ in reversed(state["trail"]):       # a forced move waits for the die to land
        positions[seat - 1] = start
    image, draw = _board(view, positions, None, state["turn"])
    segments(draw, LINES[1], [(f"{who(view, state['turn'], 6)} rolls", True)])
    _die(draw, 60 + 14 * frame, LINES[1], TUMBLE[frame % len(TUMBLE)])
    return image


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
