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
from companion.words import N_, keyed, say, says
from rules.mole_park import DICE, DIE_NAMES

from . import how, naming
from .news import deed, heard
from .choices import options
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Option, Screen

HOLES = 5
MISS = "X"
#: each die by the name the rules give it (English, marked here for the catalogue), and in a word
SHORT = {N_("Boxing Glove"): N_("Glove"), N_("Frying Pan"): N_("Pan"), N_("Giant Mallet"): N_("Mallet"),
         N_("Prize die"): N_("Prize")}
#: each answer to the Crown by the rules' label, longest first
CROWN = {"Pass": (N_("Pass"),), "Go for the Crown": (N_("Go for the Crown"), N_("Go for it"))}
#: each prize stand's name (the rules', marked here for the catalogue) in a word, for a glass too small for the whole
STAND_SHORT = {N_("Candy Cavern"): N_("Candy"), N_("Burrowed Treasures"): N_("Treasures"),
               N_("Inflation Station"): N_("Inflation"), N_("Plushie Paradise"): N_("Plushies"),
               N_("The Dugout"): N_("Dugout"), N_("King Mole's Stash"): N_("Stash")}
#: each question in a word or two, for a glass too small for the whole question
ASKS = {"die": (N_("Which die?"), N_("Die?")), "crown": (N_("Crown?"),), "discard": (N_("Discard?"),),
        "prize": (N_("Prize?"),), "order": (N_("Who first?"), N_("First?")), "tie": (N_("Winner?"),),
        "take": (N_("Stars?"),)}


def _me(state: dict, seat: int) -> dict:
    return state["seats"][seat - 1]


def _words(label: str, key: str = ""):
    """An answer in words, from the rules' label: a whacking die's face is a hole (or a miss), the prize die's
    stars, a stand its name and stars, a seat its number; else the label as the table said it (a die, a Crown
    answer), with its short form."""
    if key.startswith("roll-") and not key.endswith("-prize"):
        return say("missed") if label == MISS else say("hole {hole}", hole=label)
    if key.endswith("-prize") or key.startswith("mole-") or key == "discard":
        return says("{n} star", "{n} stars", int(label))
    if key == "prize":                              # a stand: its name and stars
        name, stars = label.rsplit(" ", 1)
        return (say("{stand} {stars}", stand=say(name), stars=stars),
                say("{stand} {stars}", stand=say(STAND_SHORT.get(name, name)), stars=stars),
                says("{n} star", "{n} stars", int(stars)))
    if key in ("order", "tie"):                     # the rules label a seat "Seat 3"
        return say("Seat {seat}", seat=label.rsplit(" ", 1)[1])
    crown, short = keyed(CROWN, label), keyed(SHORT, label)     # the label comes said (Draft.summary)
    if crown:
        return tuple(map(say, crown))
    return (label, say(short)) if short else label


def _rolled(state: dict, seat: int) -> tuple[str, ...]:
    """What the seat's die did in the last roll, its die named in full (alternatives, longest first)."""
    return next((_rolled_by_you(roll) for roll in state["rolls"] if roll["seat"] == seat and roll["face"] is not None),
                ())


def told_you(view: dict, event: dict) -> str | tuple[str, ...] | None:
    """An event told to the seat it concerns: its die's roll, the moles its die whacked, a mole it took, its cash-in
    and prize (or why none), the Crown, the King's choice of who goes next."""
    kind, you, who = event["kind"], view["you"], lambda seat: naming.who(view, seat)
    if kind == "whack" and any(seat == you for seat, _ in event["dice"]):
        others, each, hole = [who(seat) for seat, _ in event["dice"] if seat != you], event["each"], event["hole"]
        whacked = says("Hole {hole}: you whack {n} mole (as does {others})",
                       "Hole {hole}: you whack {n} moles (as does {others})", each, hole=hole,
                       others=naming.joined(others)) if others else \
            says("Hole {hole}: you whack {n} mole", "Hole {hole}: you whack {n} moles", each, hole=hole)
        return (whacked, says("Hole {hole}: {n} mole for you", "Hole {hole}: {n} moles for you", each, hole=hole),
                says("You whack {n} mole", "You whack {n} moles", each))
    if kind == "order" and you in (event["seat"], event["next"]):
        if event["next"] == you:
            return say("{player}, King Mole, lets you go next", player=who(event["seat"])), say("You go next")
        return say("You let {player} go next", player=who(event["next"]))
    if event["seat"] != you:
        return None
    if kind == "roll":
        return _rolled_by_you(event)
    if kind == "take":
        stars = event["stars"]
        return say("You took a {stars}-star mole", stars=stars), say("A {stars}-star mole", stars=stars)
    if kind == "cash_in":
        return (says("You cashed in {n} mole, Prize die {die} and {prizes} in prizes: {total} stars",
                     "You cashed in {n} moles, Prize die {die} and {prizes} in prizes: {total} stars",
                     len(event["moles"]), die=event["die"], prizes=event["prizes"], total=event["total"]),
                say("You cashed in {total} stars", total=event["total"]))
    if kind == "prize":
        name, stars = event["name"], event["stars"]
        return (say("You won {stand} ({stars} stars): {total} in all", stand=say(name), stars=stars,
                    total=event["total_stars"]),
                say("You won {stand}", stand=say(STAND_SHORT.get(name, name))),
                say("Prize: {stars} stars", stars=stars))
    if kind == "no_prize":
        total, least = event["total"], event["least"]
        return (say("No prize: {total} stars, the cheapest stand asks {cheapest}", total=total, cheapest=least)
                if least else say("No prize: {total} stars", total=total),
                say("No prize at {total} stars", total=total), say("No prize"))
    if kind == "crown_failed":
        return (say("You fell short of the Crown with {total} stars", total=event["total"]),
                say("Crown missed: {total}", total=event["total"]))
    if kind == "crown_won":
        return say("You win the Crown: you are King Mole!"), say("You are King Mole!")
    return deed(view, event, tell(view, event)) if kind in ("crown", "discard", "showdown_score") else None


def _rolled_by_you(event: dict) -> tuple[str, ...]:
    """The seat's own die as it landed, named in full, then shorter."""
    face, die = event["face"], DIE_NAMES[event["die"]]
    if event["die"] == "prize":
        return say("Your Prize die rolled {face}", face=face), say("Prize die: {face}", face=face)
    if face == MISS:
        return say("Your {die} missed", die=say(die)), say("{die} missed", die=say(SHORT[die])), say("Missed")
    return (say("Your {die} hit hole {hole}", die=say(die), hole=face),
            say("{die}: hole {hole}", die=say(SHORT[die]), hole=face), say("Hole {hole}", hole=face))


def _asked(entry: dict) -> tuple[str, ...]:
    """The seat's question as the rules ask it (said on its way here: Draft.summary), then in a word or two."""
    key = entry["key"]
    short = ASKS.get(key) or ((N_("Rolled?"), N_("Roll?")) if key.startswith("roll-") else
                              (N_("Stars?"),) if key.startswith("mole-") else (N_("Which?"),))
    return entry["prompt"], *map(say, short)


@naming.named
@how.taught
def describe_seat(view: dict, entry: dict, notice: str = "") -> Screen:
    state, you = view["state"], view["you"]
    me = _me(state, you)
    king = state["king_mole"] == you
    hand = state["hand"]
    stands = {s["stand"]: s["stars"] for s in state["stands"]}
    facts = ((say("Your moles: {moles} = {stars} stars", moles=", ".join(map(str, hand)), stars=sum(hand)),
              says("{n} mole in hand, {stars} stars", "{n} moles in hand, {stars} stars", len(hand), stars=sum(hand)))
             if hand else say("No moles in hand"),
             (say("Prizes: {stars} stars", stars=", ".join(str(stands[p]) for p in me["prizes"])),
              says("{n} prizes", "{n} prizes", len(me["prizes"]))) if me["prizes"] else say("No prizes yet"))
    stars = me["stars"]
    head = dict(title=naming.title(view, you), notice=notice,
                status=(say("King Mole, {stars} stars", stars=stars), say("King, {stars}", stars=stars)) if king
                else say("{stars} stars", stars=stars))
    key = entry.get("key")
    if view["over"]:
        winner = state["winner"]
        prompt = say("King Mole!") if winner == you else (say("{player} wins", player=naming.who(view, winner)),
                                                          say("Game over"), say("Over"))
        new = {"options": (Option("OK", (say("new game"), say("new"))),)} if you == 1 else \
            {"lines": (say("Seat 1 OK: new game"),)}
        return Screen(**head, prompt=prompt, **new)
    held = view.get("held", {}).get("die")
    waits = (naming.waiting(view),) if view["waiting"] else ()
    told = () if held else heard(view, told_you)      # until the seat's next press
    if key:
        chosen = options(entry, words=lambda label: _words(label, key))
        if told:
            return Screen(**head, prompt=_asked(entry), news=told, options=chosen, lines=facts)
        if entry["holes"] is None and entry["kind"] == "choice":        # a long list stepped through: its draft
            return Screen(**head, prompt=_words(entry["label"], key), options=chosen,
                          lines=(entry["prompt"], *facts))
        return Screen(**head, prompt=_asked(entry), options=chosen, lines=facts)
    if held:
        die = DIE_NAMES[held]
        return Screen(**head, prompt=(say("{die} locked in", die=say(die)), say("{die} locked", die=say(SHORT[die])),
                                      say("Locked")),
                      options=(Option("hold OK", (say("change die"), say("change"))),), lines=(*waits, *facts))
    prompt = (say("Going for the Crown!"), say("Crown!")) if me["crown"] == "declared" else \
        _rolled(state, you) or (say("Round {round}", round=state["round"]),)
    return Screen(**head, prompt=prompt, news=told, lines=(*waits, *facts))


def _landed(view: dict) -> tuple[str, ...]:
    """Where the last dice landed, each die named: Ada's Boxing Glove hole 2."""
    out, short = [], []
    for roll in view["state"]["rolls"]:
        if roll["face"] is None:
            continue
        said = dict(player=naming.who(view, roll["seat"]), die=say(DIE_NAMES[roll["die"]]), face=roll["face"])
        if roll["die"] == "prize":
            out.append(say("{player} {die} rolled {face}", **said))
            short.append(say("{player} rolled {face}", **said))
        elif roll["face"] == MISS:
            out.append(say("{player} {die} missed", **said))
            short.append(say("{player} missed", **said))
        else:
            out.append(say("{player} {die} hole {face}", **said))
            short.append(say("{player} hole {face}", **said))
    return (", ".join(out), ", ".join(short)) if out else ()


def _status(view: dict) -> tuple[str, ...]:
    """What the table waits for, or how the round went, in words."""
    state = view["state"]
    phase = state["phase"]
    declared = [s["seat"] for s in state["seats"] if s["crown"] == "declared"]
    if view["over"]:
        winner = naming.who(view, state["winner"])
        return say("{player} wins the Crown!", player=winner), say("{player} wins", player=winner), say("Game over")
    if phase == "crown" and declared:
        return say("Crown: {players} going!", players=naming.listed(view, declared)), say("Crown!")
    if phase in ("prize", "tie") and state["track"]:
        track = ", ".join(f"{naming.who(view, t['seat'])} {t['total']}" for t in state["track"])
        return (say("Track: {track}", track=track), say("Prizes")) + naming.waiting(view)
    if phase == "take":
        taking = ", ".join(f"{naming.who(view, s['seat'])} {s['taking']}" for s in state["seats"] if s["taking"])
        return say("Moles: {taking}", taking=taking), say("Taking moles")
    return naming.waiting(view)


@naming.named
def describe_table(view: dict) -> Screen:
    state = view["state"]
    king = naming.who(view, state["king_mole"])
    seats = ", ".join(f"{naming.who(view, s['seat'])} {s['stars']}" for s in state["seats"])
    stands = " ".join(str(s["stars"]) if s["shown"] else "-" for s in state["stands"])
    name = say("Showdown") if state["showdown"] and not view["over"] else \
        say("Mole Park, round {round}", round=state["round"])
    status = (say("King {player}", player=king),
              say("King {player}", player=naming.short(view, state["king_mole"])), king)
    return Screen(title=(name, say("Round {round}", round=state["round"])), status=status,
                  prompt=_status(view),
                  lines=(*((_landed(view),) if _landed(view) else ()),
                         say("Moles in holes 1-5: {moles}", moles=" ".join(map(str, state["holes"]))),
                         say("Prize stars: {seats}", seats=seats), say("Prize stands: {stands}", stands=stands)),
                  board={"holes": list(state["holes"]), "stands": state["stands"], "rolls": state["rolls"],
                         "track": state["track"], "king": state["king_mole"]})


def seat(view: dict, entry: dict, notice: str = "", panel: Panel = SMALLEST):
    return frame(describe_seat(view, entry, notice), panel)


def table(view: dict, panel: Panel = SMALLEST):
    return frame(describe_table(view), panel)


@naming.named
def describe_rolling(view: dict, step: int) -> Screen:
    """The table while the box rolls virtual dice: the dice named, a dot more each frame, then they land."""
    dice = len(view["state"]["rolls"])
    screen = describe_table(view)
    return Screen(title=screen.title, status=screen.status,
                  prompt=(says("Rolling {n} die{dots}", "Rolling {n} dice{dots}", dice, dots="." * (step + 1)),
                          say("Rolling")),
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
TURN = (("round",), N_("Round"))


def _rolled_die(event: dict) -> str:
    if event["die"] == "prize":
        return say("rolled the Prize die: {face}", face=event["face"])
    die = say(DIE_NAMES[event["die"]])
    return say("rolled the {die} and missed", die=die) if event["face"] == MISS else \
        say("rolled the {die}: hole {hole}", die=die, hole=event["face"])


def _whacked(view: dict, event: dict) -> str:
    """The moles a hole's dice took: Hole 5: Ada and Bo take 1 mole each, 1 stays."""
    dice, each, hole = event["dice"], event["each"], event["hole"]
    players = naming.joined(naming.who(view, seat) for seat, _ in dice)
    took = says("Hole {hole}: {players} takes {n} mole", "Hole {hole}: {players} takes {n} moles", each,
                hole=hole, players=players) if len(dice) == 1 else \
        says("Hole {hole}: {players} take {n} mole each", "Hole {hole}: {players} take {n} moles each", each,
             hole=hole, players=players)
    if not event["stays"]:
        return took
    return say("{whacked}, {staying}", whacked=took, staying=says("{n} stays", "{n} stay", event["stays"]))


def tell(view: dict, event: dict) -> str | None:
    """A public event in words, after its seat's name (None: nothing to tell); a seatless one as a sentence."""
    kind, who = event["kind"], lambda seat: naming.who(view, seat)
    said = {
        "deal": lambda e: say("Moles dealt to the holes: {moles}", moles=" ".join(map(str, e["holes"]))),
        "crown": lambda e: say("goes for the Crown!") if e["declare"] else say("does not go for the Crown"),
        "roll": _rolled_die,
        "whack": lambda e: _whacked(view, e),
        "take": lambda e: say("took a {stars}-star mole", stars=e["stars"]),
        "discard": lambda e: say("discarded down to {hand}", hand=e["hand"]) if "hand" in e
        else says("{n} mole laid face up go to the discards", "{n} moles laid face up go to the discards", e["cards"]),
        "flee": lambda e: says("The {n} mole on hole {hole} fled", "The {n} moles on hole {hole} fled", e["moles"],
                               hole=e["hole"]),
        "reshuffle": lambda e: say("The discards were shuffled into the deck ({deck})", deck=e["deck"]),
        "cash_in": lambda e: says("cashed in {n} mole + prize die {die} + {prizes} = {total} stars",
                                  "cashed in {n} moles + prize die {die} + {prizes} = {total} stars", len(e["moles"]),
                                  die=e["die"], prizes=e["prizes"], total=e["total"]),
        "order": lambda e: say("as King Mole, let {player} go next", player=who(e["next"])),
        "prize": lambda e: say("took {stand} ({stars} stars) from stand {number}: {total} stars", stand=say(e["name"]),
                               stars=e["stars"], number=e["stand"], total=e["total_stars"]),
        "no_prize": lambda e: say("won no prize at {total} stars: the cheapest prize asks {least}", total=e["total"],
                                  least=e["least"]) if e["least"] else say("won no prize at {total} stars",
                                                                           total=e["total"]),
        "restock": lambda e: say("Stand {number} shows {stand} ({stars} stars), {left} left", number=e["stand"],
                                 stand=say(e["name"]), stars=e["stars"], left=e["left"]),
        "crown_failed": lambda e: say("fell short of the Crown with {total} stars", total=e["total"]),
        "crown_won": lambda e: say("won the Crown and is King Mole!"),
        "showdown": lambda e: say("Showdown between {players}", players=naming.joined(map(who, e["contenders"]))),
        "showdown_score": lambda e: say("scored {total} in the showdown", total=e["total"]),
    }.get(kind)
    return said(event) if said else None


def picked(view: dict, pick: dict) -> str:
    """A seat's secret pick, as the reveal shows it: its die."""
    return say(DIE_NAMES[pick["die"]])


def pick_lamps(pick: dict) -> tuple[Lamp, ...]:
    """The seat's lamps while the picks are the moment: the button of the die it picked (the dice land after)."""
    return tuple(Lamp.ON if die == pick["die"] else Lamp.OFF for die in DICE) + (Lamp.OFF,) * (HOLES - len(DICE))


def standings(view: dict) -> list[dict]:
    """Each seat's prize stars as the TV shows them beside its name, and its hand's size (never what is in it)."""
    state = view["state"]
    out = []
    for me in state["seats"]:
        more = [says("{n} mole in hand", "{n} moles in hand", me["hand"])]
        if me["seat"] == state["king_mole"]:
            more.insert(0, say("King Mole"))
        if me["crown"] == "declared":
            more.append(say("going for the Crown"))
        out.append({"score": str(me["stars"]), "unit": say("stars"), "more": more})
    return out
