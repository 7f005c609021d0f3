"""Mole Park screens and lamps.

A seat's OLED shows what only its owner may see: the stars of its moles, its
draft (the die it is picking, a crown answer, a discard, a prize), its
locked-in die and where its die landed, each die named in full. The table
display shows what lies face up on the table: the moles in each hole, where
the last dice landed, the prize stands, every seat's prize stars with King
Mole named, and the star track or whoever the game is waiting for. Lamps
light the holes a seat may press, from the public view only.
"""
from __future__ import annotations

from companion.lamps import Lamp
from rules.mole_park import DIE_NAMES

from . import naming
from .news import deed, heard
from .choices import options
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Option, Screen, wordings

HOLES = 5
MISS = "X"
SHORT = {"Boxing Glove": "Glove", "Frying Pan": "Pan", "Giant Mallet": "Mallet", "Go for the Crown": "Go for it",
         "Prize die": "Prize"}
#: each prize stand's name in a word, for a glass too small for the whole name
STAND_SHORT = {"Candy Cavern": "Candy", "Burrowed Treasures": "Treasures", "Inflation Station": "Inflation",
               "Plushie Paradise": "Plushies", "The Dugout": "Dugout", "King Mole's Stash": "Stash"}
#: each question in a word or two, for a glass too small for the rules' own words
ASKS = {"die": "Which die?", "crown": "Crown?", "discard": "Discard?", "prize": "Prize?", "order": "Who first?",
        "tie": "Winner?", "take": "Stars?"}


def _me(state: dict, seat: int) -> dict:
    return state["seats"][seat - 1]


def _words(label: str, key: str = ""):
    """An answer in words: a whacking die's face is a hole (or a miss), the prize die's stars; else its label."""
    if key.startswith("roll-") and not key.endswith("-prize"):
        return "missed" if label == MISS else f"hole {label}"
    if key.endswith("-prize") or key.startswith("mole-") or key == "discard":
        return f"{label} star" if label == "1" else f"{label} stars"
    if key == "prize":                              # a stand: its name and stars
        name, stars = label.rsplit(" ", 1)
        return (label, f"{STAND_SHORT.get(name, name)} {stars}", f"{stars} stars")
    return (label, SHORT[label]) if label in SHORT else label


def _rolled(state: dict, seat: int) -> tuple[str, ...]:
    """What the seat's die did in the last roll, its die named in full (alternatives, longest first)."""
    return next((_rolled_by_you(roll) for roll in state["rolls"] if roll["seat"] == seat and roll["face"] is not None),
                ())


def told_you(view: dict, event: dict) -> str | tuple[str, ...] | None:
    """An event told to the seat it concerns: its die's roll, the moles its die whacked, a mole it took, its cash-in
    and prize (or why none), the Crown, the King's choice of who goes next."""
    kind, you, who = event["kind"], view["you"], lambda seat: naming.who(view, seat)
    if kind == "whack" and any(seat == you for seat, _ in event["dice"]):
        others = [who(seat) for seat, _ in event["dice"] if seat != you]
        took = naming.count(event["each"], "mole")
        with_ = f" (as does {naming.joined(others)})" if others else ""
        return (f"Hole {event['hole']}: you whack {took}{with_}", f"Hole {event['hole']}: {took} for you",
                f"You whack {took}")
    if kind == "order" and you in (event["seat"], event["next"]):
        return (f"{who(event['seat'])}, King Mole, lets you go next", "You go next") if event["next"] == you \
            else f"You let {who(event['next'])} go next"
    if event["seat"] != you:
        return None
    if kind == "roll":
        return _rolled_by_you(event)
    if kind == "take":
        return (f"You took a {event['stars']}-star mole", f"A {event['stars']}-star mole")
    if kind == "cash_in":
        return (f"You cashed in {naming.count(len(event['moles']), 'mole')}, Prize die {event['die']} and "
                f"{event['prizes']} in prizes: {event['total']} stars", f"You cashed in {event['total']} stars")
    if kind == "prize":
        return (f"You won {event['name']} ({event['stars']} stars): {event['total_stars']} in all",
                f"You won {STAND_SHORT.get(event['name'], event['name'])}", f"Prize: {event['stars']} stars")
    if kind == "no_prize":
        shown = [s["stars"] for s in view["state"]["stands"] if s["shown"]]
        cheapest = f", the cheapest stand asks {min(shown)}" if shown else ""
        return (f"No prize: {event['total']} stars{cheapest}", f"No prize at {event['total']} stars", "No prize")
    if kind == "crown_failed":
        return (f"You fell short of the Crown with {event['total']} stars", f"Crown missed: {event['total']}")
    if kind == "crown_won":
        return ("You win the Crown: you are King Mole!", "You are King Mole!")
    return deed(view, event, tell(view, event)) if kind in ("crown", "discard", "showdown_score") else None


def _rolled_by_you(event: dict) -> tuple[str, ...]:
    """The seat's own die as it landed, named in full, then shorter."""
    face, die = event["face"], DIE_NAMES[event["die"]]
    if event["die"] == "prize":
        return (f"Your Prize die rolled {face}", f"Prize die: {face}")
    if face == MISS:
        return (f"Your {die} missed", f"{SHORT[die]} missed", "Missed")
    return (f"Your {die} hit hole {face}", f"{SHORT[die]}: hole {face}", f"Hole {face}")


def _asked(entry: dict) -> tuple[str, ...]:
    key = entry["key"]
    short = ASKS.get(key) or ("Rolled?" if key.startswith("roll-") else "Stars?" if key.startswith("mole-") else "Which?")
    return (entry["prompt"], short)


def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    me = _me(state, you)
    king = state["king_mole"] == you
    hand = state["hand"]
    stands = {s["stand"]: s["stars"] for s in state["stands"]}
    facts = ((f"Your moles: {', '.join(map(str, hand))} = {sum(hand)} stars",
              f"{naming.count(len(hand), 'mole')} in hand, {sum(hand)} stars") if hand else "No moles in hand",
             (f"Prizes: {', '.join(str(stands[p]) for p in me['prizes'])} stars", f"{len(me['prizes'])} prizes")
             if me["prizes"] else "No prizes yet")
    head = dict(title=naming.title(view, you), notice=notice,
                status=(f"King Mole, {me['stars']} stars", f"King, {me['stars']}") if king else f"{me['stars']} stars")
    key = entry.get("key")
    if view["over"]:
        winner = state["winner"]
        prompt = "King Mole!" if winner == you else (f"{naming.who(view, winner)} wins", "Game over")
        new = {"options": (Option("OK", ("new game", "new")),)} if you == 1 else {"lines": ("Seat 1 OK: new game",)}
        return Screen(**head, prompt=prompt, **new)
    held = view.get("held", {}).get("die")
    waits = (naming.waiting(view),) if view["waiting"] else ()
    told = () if held else heard(view, told_you)      # until the seat's next press
    if key:
        chosen = options(entry, "lock in", lambda label: _words(label, key))
        if told:
            return Screen(**head, prompt=_asked(entry), news=told, options=chosen, lines=facts)
        if entry["holes"] is None and entry["kind"] == "choice":        # a long list stepped through: its draft
            return Screen(**head, prompt=_words(entry["label"], key), options=chosen, lines=(_asked(entry)[0], *facts))
        return Screen(**head, prompt=_asked(entry), options=chosen, lines=facts)
    if held:
        return Screen(**head, prompt=(f"{DIE_NAMES[held]} locked in", f"{wordings(_words(DIE_NAMES[held]))[-1]} locked",
                                      "Locked"),
                      options=(Option("hold OK", ("change die", "change")),), lines=(*waits, *facts))
    prompt = ("Going for the Crown!", "Crown!") if me["crown"] == "declared" else \
        _rolled(state, you) or (f"Round {state['round']}",)
    return Screen(**head, prompt=prompt, news=told, lines=(*waits, *facts))


def _landed(view: dict) -> tuple[str, ...]:
    """Where the last dice landed, each die named: Ada's Boxing Glove hole 2."""
    out, short = [], []
    for roll in view["state"]["rolls"]:
        if roll["face"] is None:
            continue
        die = DIE_NAMES[roll["die"]]
        what = f"rolled {roll['face']}" if roll["die"] == "prize" else "missed" if roll["face"] == MISS \
            else f"hole {roll['face']}"
        out.append(f"{naming.who(view, roll['seat'])} {die} {what}")
        short.append(f"{naming.who(view, roll['seat'])} {what}")
    return (", ".join(out), ", ".join(short)) if out else ()


def _status(view: dict) -> tuple[str, ...]:
    """What the table waits for, or how the round went, in words."""
    state = view["state"]
    phase = state["phase"]
    declared = [s["seat"] for s in state["seats"] if s["crown"] == "declared"]
    if view["over"]:
        return (f"{naming.who(view, state['winner'])} wins the Crown!", f"{naming.who(view, state['winner'])} wins",
                "Game over")
    if phase == "crown" and declared:
        return (f"Crown: {naming.listed(view, declared)} going!", "Crown!")
    if phase in ("prize", "tie") and state["track"]:
        track = ", ".join(f"{naming.who(view, t['seat'])} {t['total']}" for t in state["track"])
        return (f"Track: {track}", "Prizes") + naming.waiting(view)
    if phase == "take":
        taking = [(s["seat"], s["taking"]) for s in state["seats"] if s["taking"]]
        return (f"Moles: {', '.join(f'{naming.who(view, seat)} {n}' for seat, n in taking)}", "Taking moles")
    return naming.waiting(view)


def describe_table(view: dict) -> Screen:
    state = view["state"]
    king = naming.who(view, state["king_mole"])
    seats = ", ".join(f"{naming.who(view, s['seat'])} {s['stars']}" for s in state["seats"])
    stands = " ".join(str(s["stars"]) if s["shown"] else "-" for s in state["stands"])
    name = "Showdown" if state["showdown"] and not view["over"] else f"Mole Park, round {state['round']}"
    return Screen(title=(name, f"Round {state['round']}"), status=f"King {king}", prompt=_status(view),
                  lines=(*((_landed(view),) if _landed(view) else ()),
                         f"Moles in holes 1-5: {' '.join(map(str, state['holes']))}",
                         f"Prize stars: {seats}", f"Prize stands: {stands}"),
                  board={"holes": list(state["holes"]), "stands": state["stands"], "rolls": state["rolls"],
                         "track": state["track"], "king": state["king_mole"]})


def seat(view: dict, entry: dict, notice: str = "", panel: Panel = SMALLEST):
    return frame(describe_seat(view, entry, notice), panel)


def table(view: dict, panel: Panel = SMALLEST):
    return frame(describe_table(view), panel)


def describe_rolling(view: dict, step: int) -> Screen:
    """The table while the box rolls virtual dice: the dice named, a dot more each frame, then they land."""
    dice = len(view["state"]["rolls"])
    screen = describe_table(view)
    return Screen(title=screen.title, status=screen.status,
                  prompt=(f"Rolling {dice} {'dice' if dice > 1 else 'die'}" + "." * (step + 1), "Rolling"),
                  lines=screen.lines[-3:])


def rolling(view: dict, step: int, panel: Panel = SMALLEST):
    return frame(describe_rolling(view, step), panel)


def _choosable(state: dict, seat: int) -> set[int]:
    """The holes a waiting seat may press, as far as the public view tells; all five where it would tell more."""
    phase = state["phase"]
    if phase == "crown":
        return {1, 2}
    if phase == "dice":
        return {1, 2, 3, 4} if _me(state, seat)["hand"] else {1, 2, 3}
    if phase == "prize":
        total = next((t["total"] for t in state["track"] if t["seat"] == seat), None)
        if total is not None:
            affordable = sum(1 for s in state["stands"] if s["shown"] and s["stars"] <= total)
            return set(range(1, affordable + 1)) if affordable <= HOLES else {1, 2}
    return set(range(1, HOLES + 1))


def lamps(view: dict, seat: int, fresh: bool):
    """A seat's lamps from the public view only.

    Until the seat's first press after a reveal, the holes its dice landed on are lit. Otherwise the holes
    it may press glow dim while it has to decide (all five where the legal ones are its own secret:
    discards and mole cards). King Mole's lamps all light when the game ends.
    """
    state = view["state"]
    if view["over"]:
        return (Lamp.ON if state["winner"] == seat else Lamp.OFF,) * HOLES
    if fresh:
        hit = {r["face"] for r in state["rolls"] if r["seat"] == seat and r["die"] != "prize"}
        if hit:
            return tuple(Lamp.ON if h in hit else Lamp.OFF for h in range(1, HOLES + 1))
    if seat not in view["waiting"]:
        return (Lamp.OFF,) * HOLES
    choosable = _choosable(state, seat)
    return tuple(Lamp.DIM if h in choosable else Lamp.OFF for h in range(1, HOLES + 1))


#: what starts a round (before its deal and any reshuffle; a showdown's deal is in the last round), and its word
TURN = (("round",), "Round")


def _rolled_die(event: dict) -> str:
    if event["die"] == "prize":
        return f"rolled the Prize die: {event['face']}"
    die = DIE_NAMES[event["die"]]
    return f"rolled the {die} and missed" if event["face"] == MISS else f"rolled the {die}: hole {event['face']}"


def _whacked(view: dict, event: dict) -> str:
    """The moles a hole's dice took: Hole 5: Ada and Bo take 1 mole each, 1 stays."""
    dice = event["dice"]
    took = f"{'takes' if len(dice) == 1 else 'take'} {naming.count(event['each'], 'mole')}{' each' if len(dice) > 1 else ''}"
    stays = f", {event['stays']} {'stays' if event['stays'] == 1 else 'stay'}" if event["stays"] else ""
    return f"Hole {event['hole']}: {naming.joined(naming.who(view, seat) for seat, _ in dice)} {took}{stays}"


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell); a seatless one as a sentence."""
    kind, who = event["kind"], lambda seat: naming.who(view, seat)
    said = {
        "deal": lambda e: f"Moles dealt to the holes: {' '.join(map(str, e['holes']))}",
        "crown": lambda e: "goes for the Crown!" if e["declare"] else "does not go for the Crown",
        "roll": _rolled_die,
        "whack": lambda e: _whacked(view, e),
        "take": lambda e: f"took a {e['stars']}-star mole",
        "discard": lambda e: f"discarded down to {e['hand']}" if "hand" in e
        else f"{naming.count(e['cards'], 'mole')} laid face up go to the discards",
        "flee": lambda e: f"The {naming.count(e['moles'], 'mole')} on hole {e['hole']} fled",
        "reshuffle": lambda e: f"The discards were shuffled into the deck ({e['deck']})",
        "cash_in": lambda e: f"cashed in {naming.count(len(e['moles']), 'mole')} + prize die {e['die']} + "
                             f"{e['prizes']} = {e['total']} stars",
        "order": lambda e: f"as King Mole, let {who(e['next'])} go next",
        "prize": lambda e: f"took {e['name']} ({e['stars']} stars) from stand {e['stand']}: {e['total_stars']} stars",
        "no_prize": lambda e: f"won no prize at {e['total']} stars",
        "restock": lambda e: f"Stand {e['stand']} shows {e['name']} ({e['stars']} stars), {e['left']} left",
        "crown_failed": lambda e: f"fell short of the Crown with {e['total']} stars",
        "crown_won": lambda e: "won the Crown and is King Mole!",
        "showdown": lambda e: f"Showdown between {naming.joined(map(who, e['contenders']))}",
        "showdown_score": lambda e: f"scored {e['total']} in the showdown",
    }.get(kind)
    return said(event) if said else None


def picked(view: dict, pick: dict) -> str:
    """A seat's secret pick, as the reveal shows it: its die."""
    return DIE_NAMES[pick["die"]]


def standings(view: dict) -> list[dict]:
    """Each seat's prize stars as the TV shows them beside its name, and its hand's size (never what is in it)."""
    state = view["state"]
    out = []
    for me in state["seats"]:
        more = [naming.count(me["hand"], "mole") + " in hand"]
        if me["seat"] == state["king_mole"]:
            more.insert(0, "King Mole")
        if me["crown"] == "declared":
            more.append("going for the Crown")
        out.append({"score": str(me["stars"]), "unit": "stars", "more": more})
    return out
