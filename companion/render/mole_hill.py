"""Mole Hill screens and lamps.

Everything in Mole Hill is public, so every screen draws the same 9 x 7 board
from the view, as large as the panel allows: a space every 9 pixels, its mark
7 x 7. A free space is a dot and the centre a ring; a red flower (2 points) is
a filled diamond and a white one (1 point) a cross, told apart at a glance; the
trail's pieces are hollow (light) or filled (dark) squares with their flower
cut into them; the rods are bars on their edges and the mole's stack a disc
(with a hole while its bottom piece is light). Beside the board: who, the
mole's score (named as the mole's, on the gardener's panel too), the rods or
pieces left, and on the seat that acts its cursor keys: 2 up, 1 left, 4
right, 3 down, OK, and 5 to turn a rod. A seat's cursor is a box round a space
(whole when OK would take it, dotted when not) or a frame round an edge; the
mole's legal targets get corner dots. The table adds both rounds' scores.
"""
from __future__ import annotations

from companion.lamps import Lamp
from rules.mole_hill import COLS, ROWS as BOARD_ROWS

from .common import OFF, ON, WIDTH, canvas, fit, who

PITCH = 9                  # pixels from one space to the next; a space's mark is 7 x 7 inside it
BX, BY = 0, 0              # the top-left pixel of space (1, 1)'s pitch
PANEL_X = BX + PITCH * COLS + 2        # the text beside the board: 7 characters
LINE = 10

#: 7 x 7 marks as (x, y) pixels: a free space, and what is cut into a piece on it
DOT = ((3, 3),)
RING = tuple((x, y) for x in range(2, 5) for y in range(2, 5) if (x, y) != (3, 3))
DIAMOND = tuple((x, y) for x in range(7) for y in range(7) if abs(x - 3) + abs(y - 3) <= 3)    # red: 2 points
CROSS = tuple((x, y) for x in range(7) for y in range(7) if x == y or x + y == 6)              # white: 1 point
SMALL_DIAMOND = tuple((x, y) for x in range(1, 6) for y in range(1, 6) if abs(x - 3) + abs(y - 3) <= 2)
SMALL_CROSS = tuple((x, y) for x in range(1, 6) for y in range(1, 6) if x == y or x + y == 6)
CORNERS = ((0, 0), (6, 0), (0, 6), (6, 6))
FLOWERS = {2: DIAMOND, 1: CROSS}
IN_PIECE = {2: SMALL_DIAMOND, 1: SMALL_CROSS}


def _origin(col: int, row: int) -> tuple[int, int]:
    """The top-left pixel of a space's 7 x 7 mark."""
    return BX + PITCH * (col - 1) + 1, BY + PITCH * (row - 1) + 1


def _glyph(draw, col: int, row: int, pixels, fill: int = ON) -> None:
    x0, y0 = _origin(col, row)
    for x, y in pixels:
        draw.point((x0 + x, y0 + y), fill=fill)


def _rod(draw, edge) -> None:
    """A rod: a bar two pixels thick in the gap between the two spaces, as long as a space."""
    col, row, side = edge
    x0, y0 = _origin(col, row)
    if side == "E":
        draw.rectangle((x0 + 7, y0 - 1, x0 + 8, y0 + 7), fill=ON)
    else:
        draw.rectangle((x0 - 1, y0 + 7, x0 + 7, y0 + 8), fill=ON)


def board(draw, state: dict, targets=()) -> None:
    """The board of ``state`` (a Mole Hill view) with the mole's ``targets`` marked."""
    cols, rows = state["cols"], state["rows"]
    flowers = {(c, r): points for c, r, points in state["flowers"]}
    centre = tuple(state["centre"])
    pieces = {(c, r): colour for c, r, colour in state["trail"]}
    for row in range(1, rows + 1):
        for col in range(1, cols + 1):
            cell = (col, row)
            x0, y0 = _origin(col, row)
            flower = flowers.get(cell)
            if cell not in pieces:
                _glyph(draw, col, row, FLOWERS.get(flower) or (RING if cell == centre else DOT))
            elif pieces[cell] == "light":
                draw.rectangle((x0, y0, x0 + 6, y0 + 6), outline=ON)
                _glyph(draw, col, row, IN_PIECE.get(flower, ()))
            else:
                draw.rectangle((x0, y0, x0 + 6, y0 + 6), fill=ON)
                _glyph(draw, col, row, IN_PIECE.get(flower, ()), fill=OFF)
    for cell in targets:
        _glyph(draw, *cell, CORNERS)
    for edge in state["rods"]:
        _rod(draw, edge)
    if state["position"]:
        _mole(draw, tuple(state["position"]), pieces, state["rods"])


def _mole(draw, cell, pieces: dict, rods) -> None:
    """The stack: a disc over the space's whole pitch, holed while its bottom piece is light.

    A rod beside it is cut into the disc, so the bar stays apart from it.
    """
    x0, y0 = _origin(*cell)
    pitch = (x0 - 1, y0 - 1, x0 + 7, y0 + 7)
    draw.ellipse(pitch, fill=ON)
    if pieces[cell] == "light":
        draw.rectangle((x0 + 2, y0 + 2, x0 + 4, y0 + 4), fill=OFF)
    left, top, right, bottom = pitch
    col, row = cell
    beside = {(col, row, "E"): (right, top, right, bottom), (col - 1, row, "E"): (left, top, left, bottom),
              (col, row, "S"): (left, bottom, right, bottom), (col, row - 1, "S"): (left, top, right, top)}
    for edge in map(tuple, rods):
        if edge in beside:
            draw.line(beside[edge], fill=OFF)


def _cursor(image, draft, legal: bool) -> None:
    """The seat's cursor, inverted over the board so it shows on anything.

    A space's whole pitch is inverted; an edge gets an inverted frame round it (holding the rod if
    one is there). Where OK would refuse the target, only every other pixel is inverted.
    """
    col, row, *side = draft
    x0, y0 = _origin(col, row)
    if not side:
        left, top, right, bottom = x0 - 1, y0 - 1, x0 + 7, y0 + 7
    elif side[0] == "E":
        left, top, right, bottom = x0 + 6, y0 - 2, x0 + 9, y0 + 8
    else:
        left, top, right, bottom = x0 - 2, y0 + 6, x0 + 8, y0 + 9
    box = [(x, y) for x in range(left, right + 1) for y in range(top, bottom + 1)
           if (legal or (x + y) % 2 == 0) and (not side or x in (left, right) or y in (top, bottom))]
    inside = range(BX, BX + PITCH * COLS), range(BY, BY + PITCH * BOARD_ROWS)
    for x, y in box:
        if x in inside[0] and y in inside[1]:
            image.putpixel((x, y), OFF if image.getpixel((x, y)) else ON)


def _panel(draw, lines: list) -> None:
    """Text beside the board: a line of 7 characters each, top to bottom."""
    for i, line in enumerate(lines[:6]):
        if line:
            fit(draw, (PANEL_X, i * LINE + 2, WIDTH - 1, i * LINE + 11), line, wrap=False)


def _keys(draw, phase: str, legal: bool, draft) -> None:
    """The cursor keys, laid out as they move: 2 up, 1 left, 4 right, 3 down; then what OK does, and on a rod
    what 5 turns it to (| or -)."""
    x = PANEL_X
    for row, text in ((3, " 2"), (4, "1 4"), (5, " 3")):
        fit(draw, (x, row * LINE + 2, x + 17, row * LINE + 11), text, wrap=False)
    right = (x + 24, WIDTH - 1)
    word = {"place": "put", "rod": "rod", "move": "go", "jump": "go"}[phase] if legal else "no"
    fit(draw, (right[0], 3 * LINE + 2, right[1], 3 * LINE + 11), "OK", wrap=False)
    fit(draw, (right[0], 4 * LINE + 2, right[1], 4 * LINE + 11), word, wrap=False)
    if phase == "rod" and draft is not None and len(draft) > 2:
        fit(draw, (right[0], 5 * LINE + 2, right[1], 5 * LINE + 11), "5 |" if draft[2] == "S" else "5 -", wrap=False)


def _supply(state: dict, seat: int | None) -> str:
    """What the seat has left to play: the gardener its rods, the mole its pieces (the table: both)."""
    left = state["pieces_left"]
    pieces = f"L{left['light']} D{left['dark']}"
    if seat is None:
        return f"Rods {state['rods_left']}", pieces
    return pieces if seat == state["mole"] else f"Rods {state['rods_left']}"


def _score(view: dict, seat: int) -> tuple[str, ...]:
    """The mole's score so far (it is the mole's, whoever's panel it is on), against round 1's in round 2."""
    state = view["state"]
    mine = seat == state["mole"]
    so_far = state["score"]
    if state["round"] == 2 and state["rounds"]:
        return (f"{so_far} vs {state['rounds'][0]['score']}", f"{so_far} v {state['rounds'][0]['score']}")
    return (f"You {so_far}", f"{so_far} pts") if mine else (f"Mole {so_far}", f"M {so_far}")


VERBS = {"place": "puts", "rod": "rods", "move": "moves", "jump": "jumps"}


def _rounds(view: dict) -> list[str]:
    """One line per round: its mole and score ('-' before it starts, '*' while it runs)."""
    state = view["state"]
    out = []
    for number in (1, 2):
        mole = state["mole"] if number == state["round"] else 3 - state["mole"]
        if number <= len(state["rounds"]):
            record = state["rounds"][number - 1]
            out.append(f"{who(view, record['mole'], 3)} {record['score']}")
        elif number == state["round"]:
            out.append(f"{who(view, mole, 3)} {state['score']}*")
        else:
            out.append(f"{who(view, mole, 3)} -")
    return out


def _outcome(view: dict, you: int | None = None):
    winners = view["winners"]
    if len(winners) > 1:
        return "Draw!"
    return ("You win", "You won") if you in winners else (f"{who(view, winners[0], 3)} wins", f"{who(view, winners[0], 3)} won")


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    role = "Mole" if you == state["mole"] else "Gardener"
    mine = entry.get("key")
    targets = ()
    if mine == "move" and state["phase"] == "move":
        targets = [tuple(o) for d in view["decisions"] if d["key"] == "move" for o in d["options"]]
    board(draw, state, targets)
    if mine and entry["draft"] is not None:
        _cursor(image, entry["draft"], entry["legal"])
    head = [who(view, you, 7), (f"{role} R{state['round']}", f"{role[:4]} R{state['round']}")]
    if view["over"]:
        _panel(draw, head[:1] + _rounds(view) + [_outcome(view, you), "OK:new" if you == 1 else "S1: OK"])
    elif notice:
        _panel(draw, head + [_score(view, you)])
        draw.rectangle((PANEL_X - 1, 3 * LINE + 1, WIDTH - 1, 6 * LINE + 2), fill=ON)
        fit(draw, (PANEL_X, 3 * LINE + 2, WIDTH - 1, 6 * LINE + 1), notice, fill=OFF, valign="top")
    elif mine:
        _panel(draw, head + [_score(view, you)])
        _keys(draw, state["phase"], entry["legal"], entry["draft"])
    else:
        _panel(draw, head + [_score(view, you), _supply(state, you), who(view, state["to_act"], 7),
                             VERBS[state["phase"]]])
    return image


def table(view: dict):
    image, draw = canvas()
    state = view["state"]
    board(draw, state)
    status = _outcome(view) if view["over"] else (f"{who(view, state['to_act'], 3)} {VERBS[state['phase']]}",
                                                  f"{who(view, state['to_act'], 3)} goes", f"S{state['to_act']} goes")
    _panel(draw, [f"Round {state['round']}", *_rounds(view), *_supply(state, None), status][:6])
    return image


def lamps(view: dict, seat: int, fresh: bool):
    """The seat to act: its cursor holes glow dim (1-4, and 5 to turn a rod); at the end the winners' light."""
    state = view["state"]
    if view["over"]:
        return ((Lamp.ON if seat in view["winners"] else Lamp.OFF),) * 5
    if seat != state["to_act"]:
        return (Lamp.OFF,) * 5
    return (Lamp.DIM,) * 4 + ((Lamp.DIM if state["phase"] == "rod" else Lamp.OFF),)
