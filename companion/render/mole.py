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
from companion.words import N_, keyed, say, says, translate

from . import how, naming
from .news import deed, heard
from .choices import new_game, options
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Option, Screen, Sentence

HOLES = 5
WHERE = {"board": N_("on board"), "gad": N_("touching a mignette"), "line": N_("over the line"),
         "back": N_("off the back"), "side": N_("off a side"), "under": N_("under a mignette")}
HOW = {"rosserie": N_("Rosserie"), "circle": N_("mole circle"), "off": N_("off board")}
REASONS = {
    "line": N_("crossed"), "knocked_line": N_("knocked over"), "knocked_back": N_("off the back"),
    "knocked_side": N_("off a side"), "hitter_died": N_("hitter died"), "recompense": N_("recompense"),
    "all_dead": N_("all mignettes dead"), "gad": N_("a mignette on top"),
    "fell_side": N_("fell off a side"), "fell_back": N_("fell off the back"), "under": N_("under a mignette"),
    "killed_crossing": N_("killed while crossing"), "encompassed": N_("from fully in Rosserie or circle"),
    "loup": N_("from behind the loup"), "too_many": N_("two kills"), "taupiniere": N_("taupiniere"), "push": N_("push"),
}
#: each question in a word or two, for a glass too small for the rules' own words
ASKS = {"call": (N_("Your call"), N_("Call?")), "where": (N_("Where?"),), "gad": (N_("On top?"),),
        "protected": (N_("Protected?"), N_("Safe?")), "dead": (N_("Who died?"), N_("Died?")),
        "hitter": (N_("Which hit?"), N_("Hit?")), "start": (N_("From?"),), "how": (N_("How died?"), N_("How?"))}
#: a short form of the rules' longer answers, by the rules' words
SHORT = {"In the open or partly in": N_("In the open"), "Fully in Rosserie or circle": N_("Fully in"),
         "Touching a mignette": N_("Touching"), "Mole circle": N_("Circle"), "Behind the loup": N_("Behind loup")}


def _words(label: str):
    """An answer as a line says it: a mignette by its number, else the rules' own words (then a short form)."""
    if label.isdigit():
        return say("Mignette {mignette}", mignette=label)
    short = keyed(SHORT, label)
    return (label, say(short)) if short else label


def _how(how: str) -> str:
    """How a mignette died, in words (a way the table does not name, as the rules gave it)."""
    return say(HOW[how]) if how in HOW else how


def _doing(view: dict) -> tuple[str, ...]:
    """Whose flick it is and what the box waits for."""
    state = view["state"]
    flicker, mole = naming.who(view, state["flicker"]), state["side"] == "mole"
    if state["phase"] == "call":
        return (say("{flicker} (mole) calls", flicker=flicker) if mole else
                say("{flicker} (mignettes) calls", flicker=flicker), say("{flicker} calls", flicker=flicker),
                say("Calls"))
    return (say("{flicker} (mole) reports", flicker=flicker) if mole else
            say("{flicker} (mignettes) reports", flicker=flicker), say("{flicker} reports", flicker=flicker),
            say("Reports"), say("Tell"))


def _last(state: dict) -> tuple[str, ...]:
    """The last turn, or how the last round ended and why, in words (alternatives, longest first)."""
    last = state["last"]
    if last is None:
        return (say("Round {round}: go!", round=state["round"]),)
    if last["winner"] is not None:
        why = say(REASONS[last["reason"]])
        if last["winner"] == "tie":
            return (say("Tie, no point: {why}", why=why), say("Tie: {why}", why=why), say("Tie"))
        if last["winner"] == "mole":
            return (say("Mole +1: {why}", why=why), say("Mole +1"))
        return (say("Mignettes +1: {why}", why=why), say("Mignettes +1"))
    mole = last["side"] == "mole"
    if last["call"] == "nasdaq" and mole:
        return (say("Mole: Nasdaq"),)
    if not last["dead"]:
        if last["gad"]:
            return ((say("Mole: touching a mignette"), say("Mole: touching")) if mole else
                    (say("Mignettes: touching a mignette"), say("Mignettes: touching")))
        said = say("Mole: all right") if mole else say("Mignettes: all right")
        return (said, said)
    n, dead = len(last["dead"]), naming.joined(map(str, last["dead"]))
    if mole and last["gad"]:
        said = says("Mole: touching a mignette, mignette {dead} died",
                    "Mole: touching a mignette, mignettes {dead} died", n, dead=dead)
    elif mole:
        said = says("Mole: all right, mignette {dead} died", "Mole: all right, mignettes {dead} died", n, dead=dead)
    elif last["gad"]:
        said = says("Mignettes: touching a mignette, mignette {dead} died",
                    "Mignettes: touching a mignette, mignettes {dead} died", n, dead=dead)
    else:
        said = says("Mignettes: all right, mignette {dead} died", "Mignettes: all right, mignettes {dead} died", n,
                    dead=dead)
    side = says("Mole: mignette {dead} died", "Mole: mignettes {dead} died", n, dead=dead) if mole else \
        says("Mignettes: mignette {dead} died", "Mignettes: mignettes {dead} died", n, dead=dead)
    return (said, side, says("{n} mignette died", "{n} mignettes died", n))


def _context(state: dict, entry: dict) -> tuple:
    """More to read while deciding: why a call is barred; the report so far."""
    if entry["key"] == "call":
        return tuple(say("No {call}: {why}", call=translate(c["label"]), why=translate(c["why"]))
                     for c in state["calls"] if not c["legal"])
    report = state["report"]
    where = say(WHERE[report["where"]]) if report.get("where") in WHERE else ""
    dead = naming.joined(map(str, report["dead"])) if report.get("dead") else ""
    if where and dead:
        return (say("So far: {where}, dead: mignette {dead}", where=where, dead=dead),)
    if where:
        return (say("So far: {where}", where=where),)
    return (say("So far: dead: mignette {dead}", dead=dead),) if dead else ()


@naming.named
@how.taught
def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    a, b = state["scores"]
    names = naming.title(view, you)
    roles = tuple(say("{name} (mole)", name=name) if state["mole"] == you else say("{name} (mignettes)", name=name)
                  for name in names)
    head = dict(title=roles + names, status=(say("Round {round}  {a}-{b}", round=state["round"], a=a, b=b), f"{a}-{b}"),
                notice=notice)
    if view["over"]:
        score = say("Match over, {high}-{low}", high=max(a, b), low=min(a, b))
        return Screen(**head, prompt=say("You win!") if you in view["winners"] else (
            say("{winner} wins", winner=naming.who(view, view["winners"][0])), say("You lose")),
            **new_game(you, score, what="match"))
    key = entry.get("key")
    told = heard(view, told_you)                    # until the seat's next press
    if key == "push":                               # the waiting seat's optional claim: not a move it must make
        return Screen(**head, prompt=_doing(view), news=told, lines=(say("You may claim a push"),) + _last(state)[:1],
                      options=(Option("1", (say("push (optional)"), say("may push")), entry["draft"] == "push"),
                               Option("OK", say("claim it"))))
    if key:
        asked = (entry["prompt"], *map(say, ASKS[key.split("-")[0]]))
        ok = say("answer") if key != "call" else say("call it")
        return Screen(**head, prompt=asked, news=told, options=options(entry, ok, _words),
                      lines=((asked,) if told else ()) + _context(state, entry))
    return Screen(**head, prompt=(f"{a} - {b}", f"{a}-{b}"), news=told, lines=(_doing(view), _last(state)))


def told_you(view: dict, event: dict) -> str | tuple[str, ...] | None:
    """An event told to a player: both play every flick, so each is told every call, flick, death and push, and
    how the round ended for it."""
    kind, you, state = event["kind"], view["you"], view["state"]
    if kind == "died":
        died = dict(mignette=event["mignette"], how=_how(event["how"]), alive=event["alive"])
        if state["mignettes"] == you:
            return (say("Your mignette {mignette} died ({how}), {alive} left", **died),
                    say("Your mignette {mignette} died", **died))
        return (say("A mignette {mignette} died ({how}), {alive} left", **died),
                say("A mignette {mignette} died", **died))
    if kind == "push" and event["against"] == you:
        return say("{pusher} claimed a push against you", pusher=naming.who(view, event["seat"]))
    if kind == "round_over":
        ended = dict(round=event["round"], text=event["text"])
        if event["winner"] == "tie":
            return (say("Round {round}: a tie, {text}", **ended), say("Round {round}: a tie", **ended))
        if (event["winner"] == "mole") == (event["seat"] == you):
            return (say("Round {round}: you win, {text}", **ended), say("You win round {round}", **ended))
        return (say("Round {round}: you lose, {text}", **ended), say("You lose round {round}", **ended))
    if kind == "flick":
        return (deed(view, event, tell(view, event)), deed(view, event, _flicked(event)),
                deed(view, event, say("flicked")), say("You flicked") if event["seat"] == you else
                say("The mole flicked") if event["side"] == "mole" else say("Mignettes flicked"))
    if kind == "call":
        return (deed(view, event, tell(view, event)),
                deed(view, event, say("called {call}", call=say(CALLS[event["call"]]))))
    if kind == "push":
        return deed(view, event, tell(view, event))
    return tell(view, event) if kind == "mole_back" else None


def _flicked(event: dict) -> str:
    """A flick in a few words: where the mole went, how many mignettes died."""
    if event["where"] not in WHERE:
        return say("flicked")
    where, n = say(WHERE[event["where"]]), len(event["dead"])
    if not n:
        return say("flicked: {where}", where=where)
    return says("flicked: {where}, {n} mignette died", "flicked: {where}, {n} mignettes died", n, where=where)


@naming.named
def describe_table(view: dict) -> Screen:
    state = view["state"]
    a, b = state["scores"]
    mole, migs = naming.who(view, state["mole"]), naming.who(view, state["mignettes"])
    dead = {d["mignette"]: d["how"] for d in state["deaths"]}
    alive = ", ".join(str(n) if n in state["alive"] else say("{mignette} {how}", mignette=n, how=say(HOW[dead[n]]))
                      for n in range(1, state["count"] + 1))
    target = say("to {target} by {margin}", target=state["target"], margin=state["margin"]) if state["margin"] > 1 \
        else say("to {target}", target=state["target"])
    board = {"alive": list(state["alive"]), "dead": {str(n): say(HOW[how]) for n, how in dead.items()},
             **{key: state[key] for key in ("count", "scores", "target", "margin", "mole", "mignettes", "flicker",
                                            "round")}}
    if view["over"]:
        winner = naming.who(view, view["winners"][0])
        return Screen(title=say("Mole"), status=target,
                      prompt=(say("{winner} wins {high}-{low}", winner=winner, high=max(a, b), low=min(a, b)),
                              say("{winner} wins", winner=winner), say("Game over")),
                      lines=(_last(state),), board=board)
    return Screen(title=(say("Mole, round {round}", round=state["round"]), say("Round {round}", round=state["round"])),
                  status=target, prompt=(f"{naming.who(view, 1)} {a} - {b} {naming.who(view, 2)}", f"{a} - {b}"),
                  lines=(_doing(view), _last(state),
                         (say("Mole {mole}, mignettes {mignettes}", mole=mole, mignettes=migs),
                          say("Mole: {mole}", mole=mole)),
                         (say("Mignettes: {alive}", alive=alive),
                          say("{alive} of {count} alive", alive=len(state["alive"]), count=state["count"]))),
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
TURN = (("call",), N_("Turn"))
CALLS = {"flick": N_("a flick"), "nasdaq": N_("Nasdaq"), "taupiniere": N_("taupiniere")}
#: where a flick sent the mole, as a clause
FLICKED = {"board": N_("the mole stayed on the board"), "gad": N_("the mole landed touching a mignette"),
           "line": N_("the mole crossed the winning line"), "back": N_("the mole went off the back"),
           "side": N_("the mole went off a side"), "under": N_("the mole went under a mignette")}
#: a flick told, by what it came to: where the mole went (a FLICKED clause), whether it touches a mignette, and
#: whether mignettes died
FLICK = {(False, False, False): N_("flicked"),
         (False, True, False): N_("flicked, touching a mignette"),
         (False, False, True): N_("flicked, mignette {dead} dead"),
         (False, True, True): N_("flicked, touching a mignette, mignette {dead} dead"),
         (True, False, False): N_("flicked: {went}"),
         (True, True, False): N_("flicked: {went}, touching a mignette"),
         (True, False, True): N_("flicked: {went}, mignette {dead} dead"),
         (True, True, True): N_("flicked: {went}, touching a mignette, mignette {dead} dead")}


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell); a seatless one as a sentence."""
    kind, e = event["kind"], event
    if kind == "call":
        call = say(CALLS[e["call"]])
        return say("called {call} for the mole", call=call) if e["side"] == "mole" else \
            say("called {call} for the mignettes", call=call)
    if kind == "flick":
        went = say(FLICKED[e["where"]]) if e["where"] in FLICKED else ""
        dead = naming.joined(map(str, e["dead"])) if e["dead"] else ""
        return say(FLICK[bool(went), bool(e["gad"]), bool(dead)], went=went, dead=dead)
    if kind == "mole_back":
        return say("The mole goes back ({why})", why=e["why"])
    if kind == "died":
        return say("lost mignette {mignette} ({how}), {alive} left", mignette=e["mignette"], how=_how(e["how"]),
                   alive=e["alive"])
    if kind == "push":
        return say("claimed a push against {pushed}", pushed=naming.who(view, e["against"]))
    if kind == "round_over":
        ended = dict(round=e["round"], text=e["text"], scores="-".join(map(str, e["scores"])))
        if e["winner"] == "tie":
            return Sentence(say("Round {round}: a tie, {text} ({scores})", **ended))
        return Sentence(say("Round {round}: the mole won, {text} ({scores})", **ended) if e["winner"] == "mole" else
                        say("Round {round}: the mignettes won, {text} ({scores})", **ended))
    return None


def standings(view: dict) -> list[dict]:
    """Each seat's points as the TV shows them beside its name, and its side this round."""
    state = view["state"]
    return [{"score": str(score), "unit": say("of {target}", target=state["target"]),
             "more": [say("the mole") if state["mole"] == seat else say("the mignettes")]}
            for seat, score in enumerate(state["scores"], 1)]
