"""Mole Hill screens and lamps.

Everything in Mole Hill is public, so every screen draws the same 9 x 7 board
from the view: a dot per free space, the centre as a ring, red flowers (2
points) as an x and white ones (1 point) as a +, the trail's pieces as hollow
(light) or filled (dark) squares with the flower cut into them, the rods as
thick bars on their edges and the mole's stack as a disc (with a hole while
its bottom piece is light). Beside the board: the rods and pieces left, the
score and whose turn it is. A seat's OLED adds its role and its own cursor: a
box round a space (whole when OK would take it, corners only when not) or an
I-beam round an edge (a dashed bar where a rod would go); the mole's legal
targets get four corner dots. The table adds both rounds' scores.
"""
from __future__ import annotations

from companion.lamps import Lamp
from rules.mole_hill import COLS, ROWS as BOARD_ROWS

from .common import CHAR_W, ROWS, WIDTH, ON, OFF, canvas, fit, seats_text, title

PITCH = 7                  # pixels from one space to the next; a space's glyph is 5 x 5 inside it
BX, BY = 1, 13             # the top-left pixel of space (1, 1)'s pitch
PANEL_X = 68               # the text beside the board
PANEL_CHARS = (WIDTH - PANEL_X) // CHAR_W

#: 5 x 5 glyphs as (x, y) pixels: what a free space shows, and what is cut into a piece on it
DOT = ((2, 2),)
RING = tuple((x, y) for x in (1, 2, 3) for y in (1, 2, 3) if (x, y) != (2, 2))
CROSS = ((1, 1), (3, 1), (2, 2), (1, 3), (3, 3))       # a red flower, 2 points
PLUS = ((2, 1), (1, 2), (2, 2), (3, 2), (2, 3))        # a white flower, 1 point
CORNERS = ((0, 0), (4, 0), (0, 4), (4, 4))
FLOWERS = {2: CROSS, 1: PLUS}


def _origin(col: int, row: int) -> tuple[int, int]:
    """The top-left pixel of a space's 5 x 5 glyph."""
    return BX + PITCH * (col - 1) + 1, BY + PITCH * (row - 1) + 1


def _glyph(draw, col: int, row: int, pixels, fill: int = ON) -> None:
    x0, y0 = _origin(col, row)
    for x, y in pixels:
        draw.point((x0 + x, y0 + y), fill=fill)


def _rod(draw, edge) -> None:
    """A rod: a bar two pixels thick filling the gap between the two spaces."""
    col, row, side = edge
    x0, y0 = _origin(col, row)
    if side == "E":
        draw.rectangle((x0 + 5, y0 - 1, x0 + 6, y0 + 5), fill=ON)
    else:
        draw.rectangle((x0 - 1, y0 + 5, x0 + 5, y0 + 6), fill=ON)


def board(draw, state: dict, targets=()) -> None:
    """The board of ``state`` (a Mole Hill view) with the mole's ``targets`` marked."""
    cols, rows = state["cols"], state["rows"]
    draw.rectangle((BX - 1, BY - 1, BX + PITCH * cols, BY + PITCH * rows), outline=ON)
    flowers = {(c, r): points for c, r, points in state["flowers"]}
    centre = tuple(state["centre"])
    pieces = {(c, r): colour for c, r, colour in state["trail"]}

    def inner(cell):
        return FLOWERS.get(flowers.get(cell)) or (DOT if cell == centre else ())

    for row in range(1, rows + 1):
        for col in range(1, cols + 1):
            cell = (col, row)
            x0, y0 = _origin(col, row)
            if cell not in pieces:
                _glyph(draw, col, row, FLOWERS.get(flowers.get(cell)) or (RING if cell == centre else DOT))
            elif pieces[cell] == "light":
                draw.rectangle((x0, y0, x0 + 4, y0 + 4), outline=ON)
                _glyph(draw, col, row, inner(cell))
            else:
                draw.rectangle((x0, y0, x0 + 4, y0 + 4), fill=ON)
                _glyph(draw, col, row, inner(cell), fill=OFF)
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
    pitch = (x0 - 1, y0 - 1, x0 + 5, y0 + 5)
    draw.ellipse(pitch, fill=ON)
    if pieces[cell] == "light":
        draw.rectangle((x0 + 1, y0 + 1, x0 + 3, y0 + 3), fill=OFF)
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
        left, top, right, bottom = x0 - 1, y0 - 1, x0 + 5, y0 + 5
    elif side[0] == "E":
        left, top, right, bottom = x0 + 4, y0 - 2, x0 + 7, y0 + 6
    else:
        left, top, right, bottom = x0 - 2, y0 + 4, x0 + 6, y0 + 7
    box = [(x, y) for x in range(left, right + 1) for y in range(top, bottom + 1)
           if (legal or (x + y) % 2 == 0) and (not side or x in (left, right) or y in (top, bottom))]
    inside = range(BX, BX + PITCH * COLS), range(BY, BY + PITCH * BOARD_ROWS)
    for x, y in box:
        if x in inside[0] and y in inside[1]:
            image.putpixel((x, y), OFF if image.getpixel((x, y)) else ON)


def _wrap(words: str, width: int = PANEL_CHARS) -> list[str]:
    lines: list[str] = []
    for word in words.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word[:width])
    return lines


def _panel(draw, lines: list[str]) -> None:
    for y, line in zip(ROWS, lines):
        fit(draw, (PANEL_X, y + 1, WIDTH - 1, y + 10), line, wrap=False)


def _supply(state: dict) -> list[str]:
    left = state["pieces_left"]
    return [f"Rods {state['rods_left']}", f"Lt{left['light']} Dk{left['dark']}"]


def _score_line(state: dict) -> str:
    """The current mole's score so far, against round 1's once round 2 is on."""
    if state["round"] == 2 and state["rounds"]:
        return f"{state['score']} vs {state['rounds'][0]['score']}"
    return f"Score {state['score']}"


VERBS = {"place": "places", "rod": "rods", "move": "moves", "jump": "jumps"}
YOURS = {"place": "Place!", "rod": "Your rod", "move": "Your move", "jump": "Jump!"}
HINTS = {"place": "OK: here", "rod": "OK: rod", "move": "OK: move", "jump": "OK: jump"}


def _rounds(state: dict) -> list[str]:
    """One line per round: its mole and score ('-' before it starts, '*' while it runs)."""
    out = []
    for number in (1, 2):
        mole = state["mole"] if number == state["round"] else 3 - state["mole"]
        if number <= len(state["rounds"]):
            record = state["rounds"][number - 1]
            out.append(f"R{number} S{record['mole']} {record['score']}")
        elif number == state["round"]:
            out.append(f"R{number} S{mole} {state['score']}*")
        else:
            out.append(f"R{number} S{mole} -")
    return out


def _outcome(view: dict, you: int | None = None) -> str:
    winners = view["winners"]
    if len(winners) > 1:
        return "Draw!"
    return "You win!" if you in winners else f"S{seats_text(winners)} wins"


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    state, you = view["state"], view["you"]
    role = "Mole" if you == state["mole"] else "Gardener"
    title(draw, f"S{you} {role}", "END" if view["over"] else f"R{state['round']}")
    mine = entry.get("key")
    targets = ()
    if mine == "move" and state["phase"] == "move":
        targets = [tuple(o) for d in view["decisions"] if d["key"] == "move" for o in d["options"]]
    board(draw, state, targets)
    if mine and entry["draft"] is not None:
        _cursor(image, entry["draft"], entry["legal"])
    if view["over"]:
        lines = _rounds(state) + ["", _outcome(view, you)] + (["OK: again"] if you == 1 else [])
    else:
        lines = _supply(state) + [_score_line(state)]
        phase = state["phase"]
        if notice:
            lines += _wrap(f"! {notice}")[:2]
        elif mine:
            lines += [YOURS[phase], HINTS[phase] if entry["legal"] else "not here"]
        else:
            lines += [f"S{state['to_act']} {VERBS[phase]}"]
    _panel(draw, lines)
    return image


def table(view: dict):
    image, draw = canvas()
    state = view["state"]
    title(draw, "Mole Hill", "END" if view["over"] else f"Round {state['round']}")
    board(draw, state)
    status = _outcome(view) if view["over"] else f"S{state['to_act']} {VERBS[state['phase']]}"
    _panel(draw, _rounds(state) + _supply(state) + [status])
    return image


def lamps(view: dict, seat: int, fresh: bool):
    """The seat to act: its cursor holes glow dim (1-4, and 5 to turn a rod); at the end the winners' light."""
    state = view["state"]
    if view["over"]:
        return ((Lamp.ON if seat in view["winners"] else Lamp.OFF),) * 5
    if seat != state["to_act"]:
        return (Lamp.OFF,) * 5
    return (Lamp.DIM,) * 4 + ((Lamp.DIM if state["phase"] == "rod" else Lamp.OFF),)
