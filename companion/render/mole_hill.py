"""Mole Hill screens and lamps.

Everything in Mole Hill is public. The table display draws the whole 9 x 7
board; a seat draws the neighbourhood of its cursor (or the mole), its spaces
at least 2 mm apart on the glass, beside the words: the question and its keys
while the seat acts, else who does what and the score. A free space is a dot
and the centre a ring; a red flower (2 points) is a filled diamond and a white
one (1 point) a cross; the trail's pieces are hollow (light) or filled (dark)
squares with their flower cut into them; the rods are bars on the edges, never
a mark in a space, and the mole's stack a disc (with a hole while its bottom
piece is light). A seat's cursor is a space inverted (every other pixel where
OK would refuse it) or a frame round an edge; the mole's legal targets get
corner dots.
"""
from __future__ import annotations

import math

from PIL import Image, ImageDraw

from companion.lamps import Lamp
from companion.words import N_, say, says
from rules.mole_hill import COLS, ROWS as BOARD_ROWS

from . import how, naming
from .news import deed, heard
from .choices import new_game
from .oled import HEIGHT, OFF, ON, WIDTH, canvas, face, lay
from .reading import SMALLEST, Panel
from .screen import Option, Screen, Sentence, wordings

SPACE_MM = 2.0              # a seat's spaces at least this far apart on the glass
STROKE = 2                  # the board's marks' pen, in pixels square
WORDS_CAPS = 5              # the words keep room beside the board for a prompt this many capitals wide, and for
                            # the longest word of its shortest wording (a longer language's "Move")
#: what the seat to act does, by the phase
VERBS = {"place": N_("{doer} places"), "rod": N_("{doer} puts a rod"), "move": N_("{doer} moves"),
         "jump": N_("{doer} jumps")}
DOES = {"place": (N_("Place your stack"), N_("Place")), "rod": (N_("Put a rod"), N_("Rod")),
        "move": (N_("Move the mole"), N_("Move")), "jump": (N_("Jump anywhere"), N_("Jump"))}
OK = {"place": N_("put"), "rod": N_("put"), "move": N_("go"), "jump": N_("go")}


class Grid:
    """Where the board's spaces fall: ``pitch`` pixels apart, the window's first space at (``col0``, ``row0``)."""

    def __init__(self, pitch: int, col0: int = 1, row0: int = 1, cols: int = COLS, rows: int = BOARD_ROWS):
        self.pitch, self.col0, self.row0, self.cols, self.rows = pitch, col0, row0, cols, rows

    def shows(self, col: int, row: int) -> bool:
        return self.col0 <= col < self.col0 + self.cols and self.row0 <= row < self.row0 + self.rows

    def origin(self, col: int, row: int) -> tuple[int, int]:
        """The top-left pixel of a space's pitch."""
        return (col - self.col0) * self.pitch, (row - self.row0) * self.pitch

    @property
    def width(self) -> int:
        return self.cols * self.pitch


def _room(panel: Panel, role: str, prompt) -> int:
    """Pixels the words beside the board keep: :data:`WORDS_CAPS` capitals of ``role``, or the longest word of
    the prompt's shortest wording whole, whichever is wider."""
    said = wordings(prompt)[-1].split() if prompt else ()
    prompt_face = face(panel, "prompt")
    return max([WORDS_CAPS * face(panel, role).cap, *(prompt_face.width(word) + 4 for word in said)])   # + margins


def _window(panel: Panel, focus: tuple[int, int], prompt=()) -> Grid:
    """The neighbourhood of ``focus`` a seat's glass holds at 2 mm a space or more, beside its prompt."""
    pitch = max(9, math.ceil(SPACE_MM / panel.mm_per_px))
    words = _room(panel, "prompt", prompt)
    cols, rows = min(COLS, (WIDTH - words) // pitch), min(BOARD_ROWS, HEIGHT // pitch)
    col0 = min(max(1, focus[0] - cols // 2), COLS - cols + 1)
    row0 = min(max(1, focus[1] - rows // 2), BOARD_ROWS - rows + 1)
    return Grid(pitch, col0, row0, cols, rows)


def _mark(draw, grid: Grid, cell, kind: str, fill: int = ON, inset: int = 1) -> None:
    """A space's mark: ``dot``, ``ring``, ``diamond`` (red flower), ``cross`` (white flower), ``corners``; each
    drawn with a pen :data:`STROKE` pixels square, as a single pixel is too fine to read on the smaller glasses."""
    x, y = grid.origin(*cell)
    p = grid.pitch
    left, top, right, bottom = x + inset, y + inset, x + p - 1 - inset, y + p - 1 - inset
    if kind == "dot":
        side = STROKE + (1 if p >= 12 else 0)
        cx, cy = (left + right + 1 - side) // 2, (top + bottom + 1 - side) // 2
        draw.rectangle((cx, cy, cx + side - 1, cy + side - 1), fill=fill)
    elif kind == "ring":                    # round a hole, inside the space's whole pitch where it needs it
        r = max(3, p // 4)
        cx, cy = (2 * x + p) // 2, (2 * y + p) // 2
        _pen(draw, (cx - r, cy - r, cx + r - 1, cy + r - 1), lambda d, w, h: d.ellipse((0, 0, w, h), outline=1), fill)
    elif kind == "diamond":
        _pen(draw, (left, top, right, bottom), lambda d, w, h: d.polygon(
            ((w / 2, 0), (w, h / 2), (w / 2, h), (0, h / 2)), fill=1), fill)
    elif kind == "cross":
        _pen(draw, (left, top, right, bottom), lambda d, w, h: (d.line((0, 0, w, h), fill=1), d.line((0, h, w, 0), fill=1)),
             fill)
    elif kind == "corners":
        for px, py in ((left, top), (right - STROKE + 1, top), (left, bottom - STROKE + 1),
                       (right - STROKE + 1, bottom - STROKE + 1)):
            draw.rectangle((px, py, px + STROKE - 1, py + STROKE - 1), fill=fill)


def _pen(draw, box, figure, fill: int) -> None:
    """The one-pixel ``figure(draw, right, bottom)`` gone over with the pen, its ink inside ``box``; where a box
    (a flower cut into a piece on the table's smallest board) has no room for the pen, a point at its middle."""
    left, top, right, bottom = box
    w, h = right - left + 1 - STROKE, bottom - top + 1 - STROKE
    if w < 0 or h < 0:
        draw.point(((left + right) // 2, (top + bottom) // 2), fill=fill)
        return
    skeleton = Image.new("1", (w + 1, h + 1))
    figure(ImageDraw.Draw(skeleton), w, h)
    for px in range(w + 1):
        for py in range(h + 1):
            if skeleton.getpixel((px, py)):
                draw.rectangle((left + px, top + py, left + px + STROKE - 1, top + py + STROKE - 1), fill=fill)


FLOWERS = {2: "diamond", 1: "cross"}


def board(draw, state: dict, grid: Grid, targets=()) -> None:
    """The spaces of ``state`` (a Mole Hill view) in ``grid``, with the mole's ``targets`` marked."""
    flowers = {(c, r): points for c, r, points in state["flowers"]}
    centre = tuple(state["centre"])
    pieces = {(c, r): colour for c, r, colour in state["trail"]}
    p = grid.pitch
    for row in range(grid.row0, grid.row0 + grid.rows):
        for col in range(grid.col0, grid.col0 + grid.cols):
            cell, (x, y) = (col, row), grid.origin(col, row)
            flower = flowers.get(cell)
            if cell not in pieces:
                _mark(draw, grid, cell, FLOWERS.get(flower) or ("ring" if cell == centre else "dot"),
                      inset=1 if p >= 8 else 0)     # a small space's flower takes its whole pitch: the pen's gaps show
                continue
            dark = pieces[cell] != "light"
            draw.rectangle((x + 1, y + 1, x + p - 2, y + p - 2), fill=ON if dark else OFF, outline=ON)
            if flower:
                _mark(draw, grid, cell, FLOWERS[flower], fill=OFF if dark else ON, inset=3)
    for cell in targets:
        if grid.shows(*cell):
            _mark(draw, grid, cell, "corners", inset=0)
    for col, row, side in map(tuple, state["rods"]):
        x, y = grid.origin(col, row)
        if side == "E" and (grid.shows(col, row) or grid.shows(col + 1, row)):
            draw.rectangle((x + p - 1, y, x + p, y + p - 1), fill=ON)
        elif side == "S" and (grid.shows(col, row) or grid.shows(col, row + 1)):
            draw.rectangle((x, y + p - 1, x + p - 1, y + p), fill=ON)
    if state["position"] and grid.shows(*state["position"]):
        _mole(draw, grid, tuple(state["position"]), pieces)
    draw.rectangle((grid.width, 0, WIDTH - 1, HEIGHT - 1), fill=OFF)   # a rod on the window's edge stays in it


def _mole(draw, grid: Grid, cell, pieces: dict) -> None:
    """The stack: a disc over the space, holed while its bottom piece is light."""
    x, y = grid.origin(*cell)
    p = grid.pitch
    draw.ellipse((x + 1, y + 1, x + p - 2, y + p - 2), fill=ON)
    if pieces[cell] == "light":
        h = max(1, p // 6)
        draw.rectangle((x + p // 2 - h, y + p // 2 - h, x + p // 2 + h - 1, y + p // 2 + h - 1), fill=OFF)


def _cursor(image, grid: Grid, draft, legal: bool) -> None:
    """The seat's cursor inverted over the board: a space's pitch, or a frame round an edge; every other pixel
    where OK would refuse the target."""
    col, row, *side = draft
    x, y = grid.origin(col, row)
    p = grid.pitch
    if not side:
        left, top, right, bottom = x, y, x + p - 1, y + p - 1
    elif side[0] == "E":
        left, top, right, bottom = x + p - 3, y - 1, x + p + 2, y + p
    else:
        left, top, right, bottom = x - 1, y + p - 3, x + p, y + p + 2
    for px in range(max(0, left), min(grid.width, right + 1)):
        for py in range(max(0, top), min(HEIGHT, bottom + 1)):
            if (legal or (px + py) % 2 == 0) and (not side or px in (left, right) or py in (top, bottom)):
                image.putpixel((px, py), OFF if image.getpixel((px, py)) else ON)


def _score(view: dict, seat: int) -> tuple[str, ...]:
    """The mole's score so far (the mole's, whoever's panel it is on), against round 1's in round 2."""
    state = view["state"]
    yours, mole, score = seat == state["mole"], naming.who(view, state["mole"]), state["score"]
    if state["round"] == 2 and state["rounds"]:
        first = state["rounds"][0]["score"]
        return (say("Your score {score} vs {first}", score=score, first=first) if yours else
                say("{mole}'s score {score} vs {first}", mole=mole, score=score, first=first),
                say("{score} vs {first}", score=score, first=first))
    if yours:
        return (say("Your score {score}", score=score), say("You: {score}", score=score))
    return (say("{mole}'s score {score}", mole=mole, score=score), say("Mole: {score}", score=score))


def _supply(state: dict, seat: int | None) -> tuple[str, ...]:
    """What the seat has left to play: the gardener its rods, the mole its pieces."""
    left = state["pieces_left"]
    if seat == state["mole"]:
        return (say("Pieces: {light} light, {dark} dark", **left), say("{light} light, {dark} dark", **left))
    return (say("{rods} rods left", rods=state["rods_left"]), say("Rods {rods}", rods=state["rods_left"]))


def _rounds(view: dict) -> tuple:
    """A line a round: its mole and score."""
    state, out = view["state"], []
    for number, record in enumerate(state["rounds"], 1):
        out.append((say("Round {round}: {mole} {score}", round=number, mole=naming.who(view, record["mole"]),
                        score=record["score"]),
                    say("Round {round}: {score}", round=number, score=record["score"])))
    return tuple(out)


def _outcome(view: dict, you: int | None = None) -> tuple[str, ...]:
    winners = view["winners"]
    if len(winners) > 1:
        return (say("Draw!"),)
    return (say("You win!"), say("Won!")) if you in winners else (say("{winner} wins", winner=naming.who(view, winners[0])),
                                                      say("Game over"))



@naming.named
@how.taught
def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    status = (say("mole, round {round}", round=state["round"]), say("mole")) if you == state["mole"] else \
        (say("gardener, round {round}", round=state["round"]), say("gardener"))
    mine = entry.get("key")
    targets = [tuple(o) for d in view["decisions"] if d["key"] == "move" for o in d["options"]] \
        if mine == "move" and state["phase"] == "move" else []
    focus = tuple(entry["draft"][:2]) if mine and entry["draft"] is not None else \
        tuple(state["position"] or state["centre"])
    head = dict(title=naming.title(view, you), status=status, notice=notice,
                board={"focus": list(focus), "targets": targets, "cursor": entry.get("draft") if mine else None,
                       "legal": entry.get("legal")})
    if view["over"]:
        return Screen(**head, prompt=_outcome(view, you), **new_game(you, *_rounds(view)))
    told = heard(view, told_you)                # until the seat's next press
    if mine:
        phase = state["phase"]
        keys = [Option("OK", say(OK[phase]) if entry["legal"] else (say("not here"), say("no"))),
                Option("1-4", (say("move"), ""))]
        if phase == "rod":
            keys.append(Option("5", (say("turn"), "")))
        return Screen(**head, prompt=tuple(map(say, DOES[phase])), news=told, options=tuple(keys),
                      lines=(_directions(phase), _score(view, you), _supply(state, you)))
    doer = naming.who(view, state["to_act"])
    doing = (say(VERBS[state["phase"]], doer=doer), say("{doer}'s go", doer=doer), say("Wait"))
    return Screen(**head, prompt=doing, news=told, lines=(_score(view, you), _supply(state, you)))


def _directions(phase: str) -> tuple[str, ...]:
    """Which way each hole button moves the cursor (and, placing a rod, that 5 turns it), longest first."""
    moves = (say("1 left, 2 up, 3 down, 4 right"), say("1 left 2 up 3 down 4 right"), "1\u2190 2\u2191 3\u2193 4\u2192")
    if phase == "rod":
        return (say("{moves}, 5 turns the rod", moves=moves[0]), *moves[:2], "1\u2190 2\u2191 3\u2193 4\u2192 5\u21bb",
                moves[2])
    return moves


def told_you(view: dict, event: dict) -> str | tuple[str, ...] | None:
    """An event told to a player: both play every move, so each is told the other's rod or move and its own, and
    how the round ended."""
    if event["kind"] == "round_over":
        ended = dict(round=event["round"], score=event["score"])
        return (say("Round {round} over: You scored {score} as the mole", **ended) if event["seat"] == view["you"] else
                say("Round {round} over: {mole} scored {score} as the mole", mole=naming.who(view, event["seat"]),
                    **ended),
                say("Round {round}: {score}", **ended))
    said = tell(view, event)
    if said is None:
        return None
    if event["kind"] == "jump":
        return (deed(view, event, said), deed(view, event, say("jumped to {space}", space=_space(event["to"]))),
                deed(view, event, say("jumped")))
    if event["kind"] == "move":
        return (deed(view, event, said), deed(view, event, say("moved to {space}", space=_space(event["to"]))),
                deed(view, event, say("moved")))
    return deed(view, event, said)


def seat(view: dict, entry: dict, notice: str = "", panel: Panel = SMALLEST):
    """The board's window beside the words; at the end, and while the seat is told what happened (until its next
    press brings the board back), the words alone, on the whole glass."""
    image, draw = canvas()
    screen = describe_seat(view, entry, notice)
    if view["over"] or screen.news:
        lay(draw, screen, panel)
        return image
    grid = _window(panel, tuple(screen.board["focus"]), screen.prompt)
    board(draw, view["state"], grid, screen.board["targets"])
    if screen.board["cursor"] is not None:
        _cursor(image, grid, screen.board["cursor"], screen.board["legal"])
    lay(draw, screen, panel, (grid.width + 1, 0, WIDTH - 1, HEIGHT - 1))
    return image


@naming.named
def describe_table(view: dict) -> Screen:
    state = view["state"]
    doer = naming.who(view, state["to_act"]) if state["to_act"] else ""
    doing = _outcome(view) if view["over"] else (say(VERBS[state["phase"]], doer=doer), doer,
                                                  say(DOES[state["phase"]][-1]))
    return Screen(title=say("Round {round}", round=state["round"]), prompt=doing,
                  lines=(_score(view, 0), *_rounds(view), _supply(state, None), _supply(state, state["mole"])),
                  board={key: state[key] for key in ("cols", "rows", "centre", "flowers", "rods", "trail", "position",
                                                     "mole", "to_act")})


def table_grid(panel: Panel, prompt=()) -> Grid:
    """The table display's whole board: as large as the glass's height allows, beside its words."""
    return Grid(min(HEIGHT // BOARD_ROWS, (WIDTH - _room(panel, "body", prompt)) // COLS))


def table(view: dict, panel: Panel = SMALLEST):
    """The whole board, as large as the glass's height allows, and the words beside it."""
    image, draw = canvas()
    described = describe_table(view)
    grid = table_grid(panel, described.prompt)
    board(draw, view["state"], grid)
    lay(draw, described, panel, (grid.width + 1, 0, WIDTH - 1, HEIGHT - 1))
    return image


def lamps(view: dict, seat: int, fresh: bool):
    """The seat to act: its cursor holes glow dim (1-4, and 5 to turn a rod); at the end the winners' light."""
    state = view["state"]
    if view["over"]:
        return ((Lamp.ON if seat in view["winners"] else Lamp.OFF),) * 5
    if seat != state["to_act"]:
        return (Lamp.OFF,) * 5
    return (Lamp.DIM,) * 4 + ((Lamp.DIM if state["phase"] == "rod" else Lamp.OFF),)


#: what starts a turn (the mole set down, or a step of it), and what a turn is called
TURN = (("place", "move", "jump"), N_("Move"))
#: the piece a step leaves behind, by its colour
PIECES = {"light": N_("a light piece"), "dark": N_("a dark piece")}


def _space(cell) -> str:
    return say("column {col}, row {row}", col=cell[0], row=cell[1])


def _flower(points: int) -> str:
    """The flower on a space: red (2 points) or white (1)."""
    if points == 2:
        return says("a red flower, {n} point", "a red flower, {n} points", points)
    return says("a white flower, {n} point", "a white flower, {n} points", points)


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell)."""
    kind, e = event["kind"], event
    if kind == "place":
        space = _space(e["cell"])
        if not e["flower"]:
            return say("set the mole down on {space}", space=space)
        return say("set the mole down on {space} ({flower})", space=space, flower=_flower(e["flower"]))
    if kind == "rod":
        col, row, side = e["edge"]
        rod = dict(space=_space((col, row)), rods=e["rods_left"])
        return say("put a rod east of {space}, {rods} left", **rod) if side == "E" else \
            say("put a rod south of {space}, {rods} left", **rod)
    if kind == "pass":
        return say("passed: no rods left")
    if kind in ("move", "jump"):
        step = dict(space=_space(e["to"]), piece=say(PIECES[e["left"]]),
                    flower=_flower(e["flower"]) if e["flower"] else "")
        if kind == "jump":
            return say("jumped from the centre to {space}, leaving {piece} ({flower})", **step) if e["flower"] else \
                say("jumped from the centre to {space}, leaving {piece}", **step)
        return say("moved to {space}, leaving {piece} ({flower})", **step) if e["flower"] else \
            say("moved to {space}, leaving {piece}", **step)
    if kind == "round_over":
        why = say("no pieces left") if e["reason"] == "pieces" else say("no move left")
        return Sentence(say("Round {round} over ({why}): {dark} dark + {flowers} for flowers = {score}", why=why,
                            **{key: e[key] for key in ("round", "dark", "flowers", "score")}))
    return None


def standings(view: dict) -> list[dict]:
    """Each seat's score as the TV shows it beside its name, and its role this round."""
    state = view["state"]
    return [{"score": str(score), "unit": say("points"),
             "more": [say("the mole") if seat == state["mole"] else say("the gardener")]}
            for seat, score in enumerate(state["scores"], 1)]
