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

from dataclasses import replace

from companion.lamps import Lamp
from companion.words import N_, say, translate

from . import how, naming
from .news import deed, heard
from .choices import options
from .oled import HEIGHT, OFF, ON, WIDTH, canvas, face, lay, text
from .reading import SMALLEST, Panel
from .screen import Option, Screen

HOLES = 5
STEP_HOLES = (Lamp.DIM, Lamp.DIM, Lamp.OFF, Lamp.OFF, Lamp.OFF)   # entering a die: hole 1 down, hole 2 up
CHOOSING = ("direction", "push", "jump")
TUMBLE = (3, 6, 2, 5)   # the faces a rolling die shows, frame by frame
#: each way the mover may choose, longest first, by what it does: go a direction, push the token it landed on
#: a direction, jump the token beside it (seat ``S{seat}``), or stay
WAYS = {"forward": (N_("Forward to {space}"), N_("Forward {space}")),
        "back": (N_("Back to {space}"), N_("Back {space}")),
        "push-forward": (N_("Push forward to {space}"), N_("Push {space}")),
        "push-back": (N_("Push back to {space}"), N_("Push {space}")),
        "jump": (N_("Jump S{seat} to {space}"), N_("Jump to {space}"), N_("Jump {space}")),
        "stay": (N_("Stay on {space}"), N_("Stay {space}"))}
#: where a token is, alone and after its player's name, by the kind of space
WHERE = {"start": (N_("at the start"), N_("{player} at the start")),
         "cheese": (N_("on the cheese"), N_("{player} on the cheese")),
         "space": (N_("on {space}"), N_("{player} on {space}"))}
#: a move as the table tells it (after its mover's name) and as its mover is told, by the way it chose (None: forced)
MOVES = {None: (N_("moved from {start} to {to}"), N_("You moved from {start} to {to}")),
         "forward": (N_("moved forward from {start} to {to}"), N_("You moved forward from {start} to {to}")),
         "back": (N_("moved back from {start} to {to}"), N_("You moved back from {start} to {to}"))}


def _words(state: dict, key: str, label: str) -> tuple[str, ...]:
    """A way of the mover's open choice (the rules' ``label`` of it) in words, then shorter: Jump S1 to 26, Jump to
    26, Jump 26."""
    value, space = next((value, space) for value, said, space in state["choices"] if translate(said) == label)
    way = "jump" if value.startswith("jump-") else f"push-{value}" if key == "push" else value
    here = state["positions"][state["turn"] - 1]
    over = _other_on(state, (here + space) // 2) if way == "jump" else None
    return tuple(say(words, space=space, seat=over) for words in WAYS[way])


def _story(view: dict) -> str:
    """This turn in words: Ada 6 to 12, pushed Bob to 13, fell to 9."""
    parts: list[str] = []
    for kind, seat, start, to in view["state"]["trail"]:
        if kind == "move":
            parts.append(say("{player} moved to {to}", player=naming.who(view, seat), to=to))
        elif kind == "push":
            parts.append(say("pushed {player} to {to}", player=naming.who(view, seat), to=to))
        else:
            parts.append(say("fell to {to}", to=to) if kind == "fall" else say("jumped to {to}", to=to))
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
        winner = naming.who(view, state["winner"])
        return (say("{player} is on the cheese!", player=winner), say("{player} wins!", player=winner),
                say("Cheese!"), say("Over"))
    mover, roll = naming.who(view, state["turn"]), state["last_roll"]
    if state["phase"] == "start":
        return say("Roll for the first turn"), say("Roll for first")
    if state["phase"] == "roll":
        return say("{player}: roll the die", player=mover), say("{player} rolls", player=mover), say("Mover rolls")
    if state["phase"] == "direction":
        return (say("{player} rolled {roll}: which way?", player=mover, roll=roll),
                say("{player} rolled {roll}", player=mover, roll=roll), say("Rolled {roll}", roll=roll))
    on_token = state["positions"].count(state["positions"][state["turn"] - 1]) > 1
    return (say("{player}: push or jump?", player=mover) if on_token else say("{player}: jump?", player=mover),
            say("{player} chooses", player=mover), say("Mover picks"))


def _where(view: dict, seat: int, player: str | None = None) -> str:
    """Where a seat's token is: at the start, on the cheese, on a space; after ``player``, its name, if given."""
    space, length = view["state"]["positions"][seat - 1], view["state"]["board"]["length"]
    alone, named = WHERE["start" if space == 0 else "cheese" if space == length else "space"]
    return say(alone, space=space) if player is None else say(named, player=player, space=space)


def _positions(view: dict) -> tuple[str, ...]:
    seats = range(1, len(view["state"]["positions"]) + 1)
    return (", ".join(_where(view, s, naming.who(view, s)) for s in seats),
            ", ".join(f"{naming.who(view, s)} {view['state']['positions'][s - 1]}" for s in seats))


def _start_rolls(view: dict) -> tuple[str, ...]:
    rounds = view["state"]["start_rolls"]
    rolls = dict(rounds[-1])
    said = ", ".join(f"{naming.who(view, s)} {rolls.get(s, '-')}" for s in view["state"]["rolling"])
    if len(rounds) > 1:
        return say("Tie at {roll}, again: {rolls}", roll=max(r for _, r in rounds[-2]), rolls=said), said
    return say("Rolls: {rolls}", rolls=said), said


@naming.named
@how.taught
def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    key = entry.get("key")
    by_label = {label: space for _, label, space in state["choices"]}
    board = {"positions": list(state["positions"]), "you": you, "target": by_label.get(entry.get("label")),
             "reach": sorted(by_label.values())}
    head = dict(title=naming.title(view, you), status=_where(view, you), notice=notice, board=board)
    if view["over"]:
        new = {"options": (Option("OK", (say("new game"), say("new"))),)} if you == 1 else \
            {"lines": (say("Seat 1 OK: new game"),)}
        return Screen(**head, prompt=(say("You win!"), say("Won!")) if state["winner"] == you else _status(view),
                      **new)
    told = heard(view, told_you)                    # until the seat's next press
    if key in CHOOSING:
        if key == "push":
            under = naming.who(view, _other_on(state, state["positions"][state["turn"] - 1]))
            prompt = (say("On {player}: push or jump?", player=under), say("Push or jump?"), say("Your move?"),
                      say("Which?"))
        elif key == "direction":
            prompt = (say("Rolled {roll}: which way?", roll=state["last_roll"]), say("Which way?"), say("Go where?"),
                      say("Way?"))
        else:
            prompt = (say("Jump?"),)
        return Screen(**head, prompt=prompt, news=told,
                      options=options(entry, say("go"), lambda label: _words(state, key, label)))
    if key:                                         # a physical die: holes 1 and 2 step its face
        face = entry["label"]
        return Screen(**head, prompt=(say("Die shows {face}", face=face), say("Die: {face}", face=face)), news=told,
                      options=options(entry, say("enter")),
                      lines=(say("Roll the die") if key == "roll" else say("Roll for first turn"),))
    if state["phase"] == "start":
        return Screen(**head, prompt=(say("Roll for the first turn"), say("Roll for first")), news=told,
                      lines=(_start_rolls(view),))
    after = state["turn"] % len(state["positions"]) + 1
    return Screen(**head, prompt=_status(view), news=told, lines=(
        say("You play next") if after == you else say("Then {player}", player=naming.who(view, after)),
        _positions(view)))


def told_you(view: dict, event: dict) -> str | tuple[str, ...] | None:
    """An event told to the seat it concerns: its own roll, move, jump and fall; a push or a jump that moved or
    passed it; who goes first."""
    kind, you, who = event["kind"], view["you"], lambda seat: naming.who(view, seat)
    start, to = event.get("from"), event.get("to")
    if kind == "push" and you in (event["seat"], event["by"]):
        if event["by"] == you:
            pushed = who(event["seat"])
            return (say("You pushed {player} from {start} to {to}", player=pushed, start=start, to=to),
                    say("You pushed {player} to {to}", player=pushed, to=to), say("You pushed {player}", player=pushed),
                    say("You pushed a mouse"))
        by = who(event["by"])
        return (say("{player} pushed you from {start} to {to}", player=by, start=start, to=to),
                say("{player} pushed you to {to}", player=by, to=to), say("{player} pushed you", player=by),
                say("You were pushed"))
    if kind == "jump" and event["over"] == you:
        return (say("{player} jumped over you to {to}", player=who(event["seat"]), to=to),
                say("{player} jumped you", player=who(event["seat"])))
    if kind == "reroll" and you in event["seats"]:
        return say("Tie at {roll}: you roll again", roll=event["roll"]), say("Tie: roll again")
    if kind == "first":
        return say("You go first") if event["seat"] == you else say("{player} goes first", player=who(event["seat"]))
    if event["seat"] != you or kind not in ("start_roll", "roll", "move", "jump", "fall"):
        return None
    if kind == "move":
        return _moved(event, yours=True), say("You moved to {to}", to=to)
    if kind == "fall":
        return say("You fell down the mouse hole to {to}", to=to), say("You fell to {to}", to=to)
    if kind == "jump":
        return (say("You jumped over {player} to {to}", player=who(event["over"]), to=to),
                say("You jumped to {to}", to=to))
    return deed(view, event, tell(view, event))


def _moved(event: dict, yours: bool = False) -> str:
    """A move in words, after its mover's name (or told to the mover, ``yours``): the way it chose (none where the
    move was forced), from where to where."""
    return say(MOVES[None if event["forced"] else event["direction"]][yours], start=event["from"], to=event["to"])


def _other_on(state: dict, space: int) -> int | None:
    """A seat other than the mover's with its token on ``space`` (the one the mover landed on, or may jump)."""
    return next((s for s, p in enumerate(state["positions"], 1) if p == space and s != state["turn"]), None)


@naming.named
def describe_table(view: dict) -> Screen:
    state = view["state"]
    lines = [_start_rolls(view)] if state["phase"] == "start" else []
    if state["trail"]:
        lines.append(_story(view))
    if state["phase"] != "start":
        lines.append(_positions(view))
        lines.append(say("Order: {players}", players=", ".join(naming.who(view, s) for s in _order(state))))
    mover = state["winner"] if view["over"] else state["turn"]
    turns, roll = state["turns"], state["last_roll"]
    return Screen(title=say("Mouse Madness"), status=say("the end") if view["over"] else
                  say("turn {turns}, die {roll}", turns=turns, roll=roll) if roll else say("turn {turns}", turns=turns),
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


@naming.named
def describe_rolling(view: dict, step: int) -> Screen:
    """The table while the box rolls: the board as the roll found it, and the die's face tumbling."""
    state = view["state"]
    positions = list(state["positions"])
    for _, seat, start, _ in reversed(state["trail"]):       # a forced move waits for the die to land
        positions[seat - 1] = start
    screen = describe_table(view)
    board = {**screen.board, "positions": positions, "reach": [p for p in positions if p]}
    face = TUMBLE[step % len(TUMBLE)]
    return Screen(title=screen.title, prompt=(say("{player} rolls: {face}", player=naming.who(view, state["turn"]),
                                                  face=face), say("Rolls: {face}", face=face)), board=board)


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
TURN = (("roll",), N_("Turn"))


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell); a seatless one as a sentence."""
    kind, who = event["kind"], lambda seat: naming.who(view, seat)
    said = {
        "start_roll": lambda e: say("rolled {roll} for the first turn", roll=e["roll"]),
        "reroll": lambda e: say("Tie at {roll}: {players} roll again", roll=e["roll"],
                                players=naming.joined(map(who, e["seats"]))),
        "first": lambda e: say("went first with {roll}", roll=e["roll"]),
        "roll": lambda e: say("rolled {roll}", roll=e["roll"]),
        "move": _moved,
        "jump": lambda e: say("jumped {player} to {to}", player=who(e["over"]), to=e["to"]),
        "push": lambda e: say("was pushed by {player} from {start} to {to}", player=who(e["by"]), start=e["from"],
                              to=e["to"]),
        "fall": lambda e: say("fell through the mouse hole on {start} to {to}", start=e["from"], to=e["to"]),
        "win": lambda e: say("reached the cheese on {space}", space=e["space"]),
    }.get(kind)
    return said(event) if said else None


def standings(view: dict) -> list[dict]:
    """Each seat's space as the TV shows it beside its name."""
    length = view["state"]["board"]["length"]
    return [{"score": say("start") if space == 0 else say("cheese") if space == length else str(space),
             "unit": "" if space in (0, length) else say("space"), "more": []} for space in view["state"]["positions"]]
