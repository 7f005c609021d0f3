"""Mole (the coin game) screens and lamps.

Everything in Mole is public, so the screens differ only in whose panel they
are on. A seat's screen says its role and the score, then the question it is
answering, each answer with its button (the draft lit), and a line of context
(why a call is not allowed, what has been reported so far). The seat that
waits while the other flicks sees the score and who is flicking, and its one
optional move, a push, named as optional. The table display shows the score,
the mignettes alive and dead, whose flick it is and what the last turn or
round came to. Lamps light the holes the flicker may press: the calls the
rules allow now lit, every other answer dim.
"""
from __future__ import annotations

from companion.lamps import Lamp

from . import naming
from .news import deed, heard
from .choices import new_game, options
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Option, Screen

HOLES = 5
WHERE = {"board": "on board", "gad": "touching a mignette", "line": "over the line", "back": "off the back", "side": "off a side",
         "under": "under a mignette"}
HOW = {"rosserie": "Rosserie", "circle": "mole circle", "off": "off board"}
REASONS = {
    "line": "crossed", "knocked_line": "knocked over", "knocked_back": "off the back", "knocked_side": "off a side",
    "hitter_died": "hitter died", "recompense": "recompense", "all_dead": "all mignettes dead",
    "gad": "a mignette on top",
    "fell_side": "fell off a side", "fell_back": "fell off the back", "under": "under a mignette",
    "killed_crossing": "killed while crossing", "encompassed": "from fully in Rosserie or circle", "loup": "from behind the loup",
    "too_many": "two kills", "taupiniere": "taupiniere", "push": "push",
}
#: each question in a word or two, for a glass too small for the rules' own words
ASKS = {"call": "Your call", "where": "Where?", "gad": "On top?", "protected": "Protected?", "dead": "Who died?",
        "hitter": "Which hit?", "start": "From?", "how": "How died?"}
SHORT = {"In the open or partly in": "In the open", "Fully in Rosserie or circle": "Fully in",
         "Touching a mignette": "Touching", "Mole circle": "Circle", "Behind the loup": "Behind loup"}


def _words(label: str):
    """An answer as a line says it: a mignette by its number, else the rules' own words (then a short form)."""
    if label.isdigit():
        return f"Mignette {label}"
    return (label, SHORT[label]) if label in SHORT else label


def _role(state: dict, seat: int) -> str:
    return "mole" if state["mole"] == seat else "mignettes"


def _doing(view: dict) -> tuple[str, ...]:
    """Whose flick it is and what the box waits for."""
    state = view["state"]
    flicker = naming.who(view, state["flicker"])
    doing = "calls" if state["phase"] == "call" else "reports"
    return (f"{flicker} ({'mole' if state['side'] == 'mole' else 'mignettes'}) {doing}", f"{flicker} {doing}",
            doing.capitalize())


def _last(state: dict) -> tuple[str, ...]:
    """The last turn, or how the last round ended and why, in words (alternatives, longest first)."""
    last = state["last"]
    if last is None:
        return (f"Round {state['round']}: go!",)
    if last["winner"] is not None:
        why = REASONS[last["reason"]]
        if last["winner"] == "tie":
            return (f"Tie, no point: {why}", f"Tie: {why}", "Tie")
        side = "Mole" if last["winner"] == "mole" else "Mignettes"
        return (f"{side} +1: {why}", f"{side} +1")
    side = "Mole" if last["side"] == "mole" else "Mignettes"
    if last["call"] == "nasdaq" and last["side"] == "mole":
        return (f"{side}: Nasdaq",)
    said = f"{side}: {'touching a mignette' if last['gad'] else 'all right'}"
    if not last["dead"]:
        return (said, f"{side}: {'touching' if last['gad'] else 'all right'}")
    dead = f"mignette{'s' if len(last['dead']) > 1 else ''} {naming.joined(map(str, last['dead']))} died"
    return (f"{said}, {dead}", f"{side}: {dead}", f"{naming.count(len(last['dead']), 'mignette')} died")


def _context(state: dict, entry: dict) -> tuple:
    """More to read while deciding: why a call is barred; the report so far."""
    if entry["key"] == "call":
        return tuple(f"No {c['label']}: {c['why']}" for c in state["calls"] if not c["legal"])
    report = state["report"]
    parts = [WHERE.get(report.get("where"), "")] if "where" in report else []
    if report.get("dead"):
        parts.append("dead: mignette " + naming.joined(map(str, report["dead"])))
    said = ", ".join(p for p in parts if p)
    return (f"So far: {said}",) if said else ()


def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    a, b = state["scores"]
    head = dict(title=tuple(f"{name} ({_role(state, you)})" for name in naming.title(view, you)) +
                naming.title(view, you), status=(f"Round {state['round']}  {a}-{b}", f"{a}-{b}"), notice=notice)
    if view["over"]:
        score = f"Match over, {max(a, b)}-{min(a, b)}"
        return Screen(**head, prompt="You win!" if you in view["winners"] else (
            f"{naming.who(view, view['winners'][0])} wins", "You lose"), **new_game(you, score, what="match"))
    key = entry.get("key")
    told = heard(view, told_you)                    # until the seat's next press
    if key == "push":                               # the waiting seat's optional claim: not a move it must make
        return Screen(**head, prompt=_doing(view), news=told, lines=("You may claim a push",) + _last(state)[:1],
                      options=(Option("1", ("push (optional)", "may push"), entry["draft"] == "push"),
                               Option("OK", "claim it")))
    if key:
        asked = (entry["prompt"], ASKS[key.split("-")[0]])
        return Screen(**head, prompt=asked, news=told, options=options(entry, "answer" if key != "call" else "call it",
                                                                     _words),
                      lines=((asked,) if told else ()) + _context(state, entry))
    return Screen(**head, prompt=(f"{a} - {b}", f"{a}-{b}"), news=told, lines=(_doing(view), _last(state)))


def told_you(view: dict, event: dict) -> str | tuple[str, ...] | None:
    """An event told to a player: both play every flick, so each is told every call, flick, death and push, and
    how the round ended for it."""
    kind, you, state = event["kind"], view["you"], view["state"]
    if kind == "died":
        whose = "Your" if state["mignettes"] == you else "A"
        return (f"{whose} mignette {event['mignette']} died ({HOW.get(event['how'], event['how'])}), "
                f"{event['alive']} left", f"{whose} mignette {event['mignette']} died")
    if kind == "push" and event["against"] == you:
        return f"{naming.who(view, event['seat'])} claimed a push against you"
    if kind == "round_over":
        if event["winner"] == "tie":
            return (f"Round {event['round']}: a tie, {event['text']}", f"Round {event['round']}: a tie")
        won = (event["winner"] == "mole") == (event["seat"] == you)
        return (f"Round {event['round']}: you {'win' if won else 'lose'}, {event['text']}",
                f"You {'win' if won else 'lose'} round {event['round']}")
    if kind == "flick":
        where = WHERE.get(event["where"])
        dead = f", {naming.count(len(event['dead']), 'mignette')} died" if event["dead"] else ""
        side = "You" if event["seat"] == you else "The mole" if event["side"] == "mole" else "Mignettes"
        return (deed(view, event, tell(view, event)), deed(view, event, f"flicked: {where}{dead}" if where else
                                                            "flicked"), deed(view, event, "flicked"), f"{side} flicked")
    if kind == "call":
        return (deed(view, event, tell(view, event)), deed(view, event, f"called {CALLS[event['call']]}"))
    if kind == "push":
        return deed(view, event, tell(view, event))
    return tell(view, event) if kind == "mole_back" else None


def describe_table(view: dict) -> Screen:
    state = view["state"]
    a, b = state["scores"]
    mole, migs = naming.who(view, state["mole"]), naming.who(view, state["mignettes"])
    dead = {d["mignette"]: d["how"] for d in state["deaths"]}
    alive = ", ".join(str(n) if n in state["alive"] else f"{n} {HOW[dead[n]]}" for n in range(1, state["count"] + 1))
    target = f"to {state['target']}" + (f" by {state['margin']}" if state["margin"] > 1 else "")
    board = {"alive": list(state["alive"]), "dead": {str(n): HOW[how] for n, how in dead.items()},
             **{key: state[key] for key in ("count", "scores", "target", "margin", "mole", "mignettes", "flicker",
                                            "round")}}
    if view["over"]:
        winner = naming.who(view, view["winners"][0])
        return Screen(title="Mole", status=target, prompt=(f"{winner} wins {max(a, b)}-{min(a, b)}", f"{winner} wins",
                                                           "Game over"),
                      lines=(_last(state),), board=board)
    return Screen(title=(f"Mole, round {state['round']}", f"Round {state['round']}"), status=target,
                  prompt=(f"{naming.who(view, 1)} {a} - {b} {naming.who(view, 2)}", f"{a} - {b}"),
                  lines=(_doing(view), _last(state), (f"Mole {mole}, mignettes {migs}", f"Mole: {mole}"),
                         (f"Mignettes: {alive}", f"{len(state['alive'])} of {state['count']} alive")),
                  board=board)


def seat(view: dict, entry: dict, notice: str = "", panel: Panel = SMALLEST):
    return frame(describe_seat(view, entry, notice), panel)


def table(view: dict, panel: Panel = SMALLEST):
    return frame(describe_table(view), panel)


def lamps(view: dict, seat: int, fresh: bool):
    """A seat's lamps from the public view only.

    The flicker's panel: at the call the holes of the calls the rules allow now light (the box's
    suggestion); while reporting, the holes that answer the question glow dim. The other panel stays
    dark (its push claim is there on hole 1 but not suggested). The match winner's lamps all light.
    """
    state = view["state"]
    if view["over"]:
        return (Lamp.ON if seat in view["winners"] else Lamp.OFF,) * HOLES
    if seat != state["flicker"]:
        return (Lamp.OFF,) * HOLES
    options = state["question"]["options"]
    holes = set(options) if all(isinstance(o, int) for o in options) else set(range(1, len(options) + 1))
    lit = Lamp.ON if state["phase"] == "call" else Lamp.DIM
    return tuple(lit if h in holes else Lamp.OFF for h in range(1, HOLES + 1))


#: what starts a turn (its call), and what a turn is called
TURN = (("call",), "Turn")
CALLS = {"flick": "a flick", "nasdaq": "Nasdaq", "taupiniere": "taupiniere"}
FLICKED = {"board": "stayed on the board", "gad": "landed touching a mignette", "line": "crossed the winning line",
           "back": "went off the back", "side": "went off a side", "under": "went under a mignette"}


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell); a seatless one as a sentence."""
    kind, e = event["kind"], event
    if kind == "call":
        return f"called {CALLS[e['call']]} for the {'mole' if e['side'] == 'mole' else 'mignettes'}"
    if kind == "flick":
        dead = f", mignette {naming.joined(map(str, e['dead']))} dead" if e["dead"] else ""
        where = f": the mole {FLICKED[e['where']]}" if e["where"] in FLICKED else ""
        return f"flicked{where}{', touching a mignette' if e['gad'] else ''}{dead}"
    if kind == "mole_back":
        return f"The mole goes back ({e['why']})"
    if kind == "died":
        return f"lost mignette {e['mignette']} ({HOW.get(e['how'], e['how'])}), {e['alive']} left"
    if kind == "push":
        return f"claimed a push against {naming.who(view, e['against'])}"
    if kind == "round_over":
        winner = "a tie" if e["winner"] == "tie" else f"the {e['winner']} won"
        return f"Round {e['round']}: {winner}, {e['text']} ({'-'.join(map(str, e['scores']))})"
    return None


def standings(view: dict) -> list[dict]:
    """Each seat's points as the TV shows them beside its name, and its side this round."""
    state = view["state"]
    return [{"score": str(score), "unit": f"of {state['target']}", "more": [f"the {_role(state, seat)}"]}
            for seat, score in enumerate(state["scores"], 1)]
