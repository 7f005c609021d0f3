"""Whakka Mole screens and lamps.

A seat's OLED shows its sheet as five holes with their tokens along the top,
its draft pop-ups marked under the holes, and the question: which holes pop up,
which hole of its target it whacks, or that it is locked in. The lamps show
only what is public: the tokens on the seat's sheet, and at the reveal the
holes that popped up and the hole that was whacked. The table display says
what the last reveal came to and every seat's score, a star by those locked in.
"""
from __future__ import annotations

from dataclasses import replace

from companion.lamps import Lamp

from . import naming
from .news import heard
from .choices import new_game
from .oled import HEIGHT, OFF, ON, WIDTH, canvas, face, frame, lay, text
from .reading import SMALLEST, Panel
from .screen import Option, Screen


def _pts(n: int) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"


def told_you(view: dict, event: dict) -> tuple[str, ...] | None:
    """A reveal told to the seat: what the turn did to it, in words and numbers, longest first: its points, and why
    (whom it hit or missed, who hit it and what that cost). Nothing else concerns it."""
    if event["kind"] != "reveal" or not view["state"]["last"]:
        return None
    state, you = view["state"], view["you"]
    last = state["last"][you - 1]
    points, hole, target = f"+{last['points']}", last["whack"], naming.who(view, state["whacks"][you - 1])
    by = last["whacked_by"]
    if by:
        attacker, lost = naming.who(view, by), naming.count(last["lost"], "token")
        where = state["last"][by - 1]["whack"]
        if last["hit"]:
            return (f"{points}: you hit {target}'s hole {hole}; {attacker} hit your hole {where}, {lost} lost",
                    f"{points}: you hit {target}, {attacker} hit you", f"{points}, {last['lost']} lost")
        return (f"{attacker} hit your hole {where}: {lost} lost, {points}", f"{attacker} hit you: {lost} lost",
                f"Hit: {last['lost']} lost")
    if last["hit"]:
        return (f"{points}: you hit {target}'s hole {hole}", f"{points}: you hit {target}", f"{points}: a hit")
    return (f"{points}: you missed {target}'s hole {hole}", f"{points}: you missed", f"{points}: a miss")


def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    held = view.get("held", {})
    key = entry.get("key")
    popup = entry["draft"] if key == "popup" else held.get("popup", [])
    board = {"sheet": list(state["sheets"][you - 1]), "marked": list(popup or ())}
    head = dict(title=naming.title(view, you), notice=notice, board=board,
                status=(f"{_pts(state['scores'][you - 1])}, {state['supply'][you - 1]} tokens",
                        _pts(state["scores"][you - 1])))
    target = naming.who(view, state["whacks"][you - 1])
    if view["over"]:
        won = you in view["winners"]
        prompt = "You win!" if won else (f"{naming.listed(view, view['winners'])} wins", "Game over")
        return Screen(**head, prompt=prompt, **new_game(you))
    told = heard(view, told_you)                # until the seat's next press
    if key == "popup":
        asked = ("Which holes pop up?", "Which pop up?", "Pop up?")
        return Screen(**head, prompt=asked, news=told,
                      options=(Option("1-5", ("pop up or down", "pop up")), Option("OK", "lock in")))
    if key == "whack":
        hole = "?" if entry["draft"] is None else entry["draft"]
        return Screen(**head, prompt=(f"Whack {target}: {hole}", f"{target}: {hole}", f"Whack: {hole}"),
                      options=(Option("1-5", (f"a hole of {target}", "a hole")), Option("OK", "lock in")))
    return Screen(**head, prompt=("Locked in", "Locked"), news=told, lines=(naming.waiting(view),),
                  options=() if told else (Option("hold OK", ("change picks", "change")),))


def _sheet(panel: Panel, holes: int) -> tuple[int, int, int]:
    """A sheet of ``holes`` on this glass: a hole's step, its circle's radius (room for a figure at the body
    size), and the bar under a drafted one."""
    step = WIDTH // holes
    radius = min(step // 2 - 1, (face(panel, "body").cap + 8) // 2)
    return step, radius, max(2, radius // 4)


def _sheet_rows(panel: Panel, holes: int) -> int:
    _, radius, mark = _sheet(panel, holes)
    return 2 * radius + 3 + mark


def _holes(draw, panel: Panel, sheet: list[int], marked) -> None:
    """The sheet along the top: a circle a hole, filled with its tokens' count; marked holes get a bar below."""
    digits = face(panel, "body")
    step, radius, mark = _sheet(panel, len(sheet))
    for i, tokens in enumerate(sheet):
        cx, cy = step * i + step // 2, radius
        box = (cx - radius, cy - radius, cx + radius, cy + radius)
        if tokens:
            draw.ellipse(box, fill=ON)
            text(draw, (cx - radius + 1, cy - digits.height // 2, cx + radius - 1, cy - digits.height // 2 + digits.height - 1),
                 str(min(tokens, 9)), digits, "body", "centre", fill=OFF)
        else:
            draw.ellipse(box, outline=ON, width=2)
        if i + 1 in marked:
            draw.rectangle((cx - radius, 2 * radius + 2, cx + radius, 2 * radius + 1 + mark), fill=ON)


def seat(view: dict, entry: dict, notice: str = "", panel: Panel = SMALLEST):
    """The sheet over the words. Where the glass has no room for the sheet, the prompt and the buttons (or a
    notice): right after a reveal, the sheet and what the turn did to the seat (its buttons come at its next
    press); while the sheet marks the seat's own pop-ups (drafted, or locked in), the sheet and the buttons, what
    to do left to the buttons' words; else the words alone (the seat's lamps show its tokens)."""
    image, draw = canvas()
    screen = describe_seat(view, entry, notice)
    prompt, below = face(panel, "prompt").height, face(panel, "option" if screen.options else "body").height
    rows = _sheet_rows(panel, len(screen.board["sheet"]))
    if notice or screen.options and HEIGHT - rows < prompt + below:
        if notice or entry.get("key") == "whack" or HEIGHT - rows < below:   # a notice is read whole, then goes
            rows = 0
        elif screen.news:               # the turn's news over the sheet; the buttons come at the seat's next press
            screen = replace(screen, options=())
        else:                           # the sheet marks the seat's own picks; what to do is on the buttons
            screen = replace(screen, prompt="", lines=())
    if rows:
        _holes(draw, panel, screen.board["sheet"], screen.board["marked"])
    lay(draw, screen, panel, (0, rows, WIDTH - 1, HEIGHT - 1))
    return image


def describe_table(view: dict) -> Screen:
    state = view["state"]
    best = max(state["scores"])
    leaders = [seat for seat, score in enumerate(state["scores"], 1) if score == best]
    lead = "lead" if len(leaders) > 1 else "leads"
    scores = (f"{naming.listed(view, leaders)} {lead} with {best} of {state['target']}",
              f"{naming.listed(view, leaders)} {lead}: {best}", f"Best: {best} of {state['target']}", f"Best: {best}")
    locked = len(view["locked"])
    if view["over"]:
        prompt = (f"{naming.listed(view, view['winners'])} wins", "Game over")
    elif state["last"] and view.get("revealed", not view["locked"]):
        prompt = _turn(view)
    else:
        prompt = naming.waiting(view)
    return Screen(title="Whakka Mole", status="the end" if view["over"] else f"turn {state['turn']}", prompt=prompt,
                  lines=(scores, *([(f"{locked} of {view['seats']} locked in", f"{locked} locked in")]
                                   if locked and not view["over"] else [])),
                  board={"scores": list(state["scores"]), "locked": list(view["locked"]), "sheets": state["sheets"],
                         "whacks": state["whacks"], "last": state["last"]})


def table(view: dict, panel: Panel = SMALLEST):
    return frame(describe_table(view), panel)


def _turn(view: dict) -> tuple[str, ...]:
    """The last reveal in words: who hit whom."""
    state = view["state"]
    hit = [i + 1 for i, last in enumerate(state["last"]) if last["hit"]]
    if not hit:
        return ("Nobody hit anyone", "No hits")
    named = ", ".join(f"{naming.who(view, s)} hit {naming.who(view, state['whacks'][s - 1])}" for s in hit)
    return (named, f"{len(hit)} hit" if len(hit) == 1 else f"{len(hit)} hits")


def lamps(view: dict, seat: int, fresh: bool):
    """A seat's lamps from the public view only.

    Until the seat's first press after a reveal: the holes that popped up are lit, older tokens dim,
    and the hole that was whacked flashes. Otherwise the tokens on the sheet are lit, and the empty
    holes glow dim while the seat still has to choose.
    """
    state = view["state"]
    sheet = state["sheets"][seat - 1]
    if fresh and state["last"] and not view["over"]:
        last = state["last"][seat - 1]
        out = [Lamp.ON if h + 1 in last["popup"] else (Lamp.DIM if sheet[h] else Lamp.OFF)
               for h in range(len(sheet))]
        if last["whacked_by"]:
            attacker = state["last"][last["whacked_by"] - 1]
            out[attacker["whack"] - 1] = Lamp.FAST
    else:
        choosing = seat in view["waiting"]
        out = [Lamp.ON if tokens else (Lamp.DIM if choosing else Lamp.OFF) for tokens in sheet]
    return tuple(out) + (Lamp.OFF,) * (5 - len(out))


#: what starts a turn, and what a turn is called
TURN = (("reveal",), "Turn")


def _hole_words(holes: list[int]) -> str:
    return f"hole {holes[0]}" if len(holes) == 1 else f"holes {naming.joined(map(str, holes))}"


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell)."""
    kind = event["kind"]
    if kind == "popup":
        return f"popped up {_hole_words(event['holes'])}" if event["holes"] else "kept every hole down"
    if kind == "whack":
        target = f"whacked {naming.who(view, event['target'])}'s hole {event['hole']}"
        return f"{target}: a hit, {naming.count(event['tokens'], 'token')} out" if event["hit"] else f"{target}: a miss"
    if kind == "score":
        return f"+{event['points']} = {event['total']}"
    return None


def picked(view: dict, pick: dict) -> str:
    """A seat's secret pick, as the reveal shows it."""
    return f"{_hole_words(pick['popup']) if pick['popup'] else 'no hole'} up, whacks hole {pick['whack']}"


def standings(view: dict) -> list[dict]:
    """Each seat's score as the TV shows it beside its name, and what else the room should know of it."""
    state = view["state"]
    return [{"score": str(score), "unit": "points", "more": [f"{supply} tokens left"]}
            for score, supply in zip(state["scores"], state["supply"])]
