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
from companion.words import N_, say, says

from . import how, naming
from .news import heard
from .choices import new_game
from .oled import HEIGHT, OFF, ON, WIDTH, canvas, face, frame, lay, text
from .reading import SMALLEST, Panel
from .screen import Option, Screen


def told_you(view: dict, event: dict) -> tuple[str, ...] | None:
    """A reveal told to the seat: what the turn did to it, in words and numbers, longest first: its points, and why
    (whom it hit or missed, who hit it and what that cost). Nothing else concerns it."""
    if event["kind"] != "reveal" or not view["state"]["last"]:
        return None
    state, you = view["state"], view["you"]
    last = state["last"][you - 1]
    turn = dict(points=last["points"], hole=last["whack"], target=naming.who(view, state["whacks"][you - 1]))
    by = last["whacked_by"]
    if by:
        lost = last["lost"]
        turn.update(attacker=naming.who(view, by), where=state["last"][by - 1]["whack"])
        if last["hit"]:
            return (says("+{points}: you hit {target}'s hole {hole}; {attacker} hit your hole {where}, {n} token lost",
                         "+{points}: you hit {target}'s hole {hole}; {attacker} hit your hole {where}, {n} tokens lost",
                         lost, **turn),
                    say("+{points}: you hit {target}, {attacker} hit you", **turn),
                    say("+{points}, {lost} lost", lost=lost, **turn))
        return (says("{attacker} hit your hole {where}: {n} token lost, +{points}",
                     "{attacker} hit your hole {where}: {n} tokens lost, +{points}", lost, **turn),
                says("{attacker} hit you: {n} token lost", "{attacker} hit you: {n} tokens lost", lost, **turn),
                say("Hit: {lost} lost", lost=lost))
    if last["hit"]:
        return (say("+{points}: you hit {target}'s hole {hole}", **turn), say("+{points}: you hit {target}", **turn),
                say("+{points}: a hit", **turn))
    return (say("+{points}: you missed {target}'s hole {hole}", **turn), say("+{points}: you missed", **turn),
            say("+{points}: a miss", **turn))


@naming.named
@how.taught
def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    held = view.get("held", {})
    key = entry.get("key")
    popup = entry["draft"] if key == "popup" else held.get("popup", [])
    board = {"sheet": list(state["sheets"][you - 1]), "marked": list(popup or ())}
    score, supply = state["scores"][you - 1], state["supply"][you - 1]
    head = dict(title=naming.title(view, you), notice=notice, board=board,
                status=(says("{n} pt, {supply} tokens", "{n} pts, {supply} tokens", score, supply=supply),
                        says("{n} pt", "{n} pts", score)))
    target = naming.who(view, state["whacks"][you - 1])
    if view["over"]:
        won = you in view["winners"]
        prompt = say("You win!") if won else (say("{winners} wins", winners=naming.listed(view, view["winners"])),
                                              say("Game over"))
        return Screen(**head, prompt=prompt, **new_game(you))
    told = heard(view, told_you)                # until the seat's next press
    if key == "popup":
        asked = (say("Which holes pop up?"), say("Which pop up?"), say("Pop up?"))
        return Screen(**head, prompt=asked, news=told,
                      options=(Option("1-5", (say("pop up or down"), say("pop up"))), Option("OK", say("lock in"))))
    if key == "whack":
        hole = "?" if entry["draft"] is None else entry["draft"]
        aim = dict(target=target, hole=hole)
        return Screen(**head, prompt=(say("Whack {target}: {hole}", **aim), say("{target}: {hole}", **aim),
                                      say("Whack: {hole}", **aim)),
                      options=(Option("1-5", (say("a hole of {target}", target=target), say("a hole"))),
                               Option("OK", say("lock in"))))
    return Screen(**head, prompt=(say("Locked in"), say("Locked")), news=told, lines=(naming.waiting(view),),
                  options=() if told else (Option("hold OK", (say("change picks"), say("change"))),))


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


@naming.named
def describe_table(view: dict) -> Screen:
    state = view["state"]
    best = max(state["scores"])
    leaders = [seat for seat, score in enumerate(state["scores"], 1) if score == best]
    race = dict(leaders=naming.listed(view, leaders), best=best, target=state["target"])
    scores = (says("{leaders} leads with {best} of {target}", "{leaders} lead with {best} of {target}", len(leaders),
                   **race),
              says("{leaders} leads: {best}", "{leaders} lead: {best}", len(leaders), **race),
              say("Best: {best} of {target}", **race), say("Best: {best}", **race))
    locked = len(view["locked"])
    if view["over"]:
        prompt = (say("{winners} wins", winners=naming.listed(view, view["winners"])), say("Game over"))
    elif state["last"] and view.get("revealed", not view["locked"]):
        prompt = _turn(view)
    else:
        prompt = naming.waiting(view)
    status = say("the end") if view["over"] else say("turn {turn}", turn=state["turn"])
    return Screen(title=say("Whakka Mole"), status=status, prompt=prompt,
                  lines=(scores, *([(say("{locked} of {seats} locked in", locked=locked, seats=view["seats"]),
                                     say("{locked} locked in", locked=locked))]
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
        return (say("Nobody hit anyone"), say("No hits"))
    named = ", ".join(say("{attacker} hit {target}", attacker=naming.who(view, s),
                          target=naming.who(view, state["whacks"][s - 1])) for s in hit)
    return (named, says("{n} hit", "{n} hits", len(hit)))


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
TURN = (("reveal",), N_("Turn"))


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell)."""
    kind = event["kind"]
    if kind == "popup":
        holes = event["holes"]
        if not holes:
            return say("kept every hole down")
        return says("popped up hole {holes}", "popped up holes {holes}", len(holes),
                    holes=naming.joined(map(str, holes)))
    if kind == "whack":
        whacked = dict(target=naming.who(view, event["target"]), hole=event["hole"])
        if event["hit"]:
            return says("whacked {target}'s hole {hole}: a hit, {n} token out",
                        "whacked {target}'s hole {hole}: a hit, {n} tokens out", event["tokens"], **whacked)
        return say("whacked {target}'s hole {hole}: a miss", **whacked)
    if kind == "score":
        return f"+{event['points']} = {event['total']}"
    return None


def picked(view: dict, pick: dict) -> tuple[str, str]:
    """A seat's secret pick, as the reveal shows it: in full, and in fewer words for a small glass."""
    holes, whack = pick["popup"], pick["whack"]
    if not holes:
        return say("no hole up, whacks hole {whack}", whack=whack), say("none up, whacks {whack}", whack=whack)
    listed = naming.joined(map(str, holes))
    return (says("hole {holes} up, whacks hole {whack}", "holes {holes} up, whacks hole {whack}", len(holes),
                 holes=listed, whack=whack),
            say("{holes} up, whacks {whack}", holes=" ".join(map(str, holes)), whack=whack))


def pick_lamps(pick: dict) -> tuple[Lamp, ...]:
    """The seat's lamps while the picks are the moment: the holes it popped up (its whack is on another's sheet)."""
    return tuple(Lamp.ON if hole in pick["popup"] else Lamp.OFF for hole in range(1, 6))


def standings(view: dict) -> list[dict]:
    """Each seat's score as the TV shows it beside its name, and what else the room should know of it."""
    state = view["state"]
    return [{"score": str(score), "unit": say("points"), "more": [say("{supply} tokens left", supply=supply)]}
            for score, supply in zip(state["scores"], state["supply"])]
