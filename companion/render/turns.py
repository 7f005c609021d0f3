"""The public log told as turns, in words: what the TV view, the phones' public table and the dashboard show.

Each game's module says what opens a turn and what a turn is called (``TURN``: the events' kinds and the
word), and tells each public event in words (``tell``): after its seat's name, or as a sentence of its own
(a seatless event, what happened to the table: "Hole 5: Bo takes 1 mole"; or a seat's event the game tells as
a :class:`~companion.render.screen.Sentence`, a round's end). Between two such
sentences, each seat's events make one sentence, its name first: "Ada popped up holes 1 and 4,
whacked Bo's hole 3: a miss, +2 = 9". A turn with a reveal keeps what each seat had picked, in the
game's words (``picked``), for the TV to show them appear together.
"""
from __future__ import annotations

from collections.abc import Iterable

from companion.words import say

from . import clauses, for_game, how, naming
from .screen import Sentence, first

QUIET = frozenset({"locked", "unlocked", "reveal", "turn", "picked", "round"})  # told by the tags, titles, or not at all


def starts(game, log: list[dict]) -> list[int]:
    """Where each turn of ``log`` starts: at each event that opens a turn, and at 0 if something worth telling
    came before the first (events before it that tell nothing are in no turn)."""
    openers = game.TURN[0]
    out = [i for i, event in enumerate(log) if event["kind"] in openers]
    lead = log[:out[0]] if out else log
    return [0] + out if any(event["kind"] not in QUIET for event in lead) else out


def told(view: dict, log: list[dict], first: int = 0, known: Iterable[str] = ()) -> list[dict]:
    """The turns of ``log`` from turn ``first`` (0: the first) on, each ``{"title", "lines", "why", "terms",
    "clauses", "reveal"}`` (``clauses``: each line's rule, an anchor of the game's rules doc); the view (with its
    players' ``names``) says whose names and which game, and whether it is taught (``teaching``). A taught turn
    ends with what a newcomer needs to follow it, the last ``why`` lines, the first a crowded screen leaves out:
    each rule that fired for the first time, told why, and each of the rule text's own words said for the first
    time, explained (``terms``: those it explains; ``known``: those the turns before ``first`` explained)."""
    game = for_game(view["game"])
    openers, word = game.TURN
    edges = starts(game, log)
    before = int(bool(edges) and log[edges[0]]["kind"] not in openers)     # a first turn no opener opened
    edges.append(len(log))
    taught = view.get("teaching")
    fired = how.firsts(event["kind"] for event in log) if taught else {}
    known = set(known)
    unknown = [pair for pair in how.jargon(view["game"], view.get("settings")) if pair[0] not in known] if taught else []
    out = []
    for number in range(first, len(edges) - 1):
        events = log[edges[number]:edges[number + 1]]
        title = say("Before the first turn") if number < before else \
            say("{turn} {number}", turn=say(word), number=number + 1 - before)
        lines, kinds = _lines(view, game, events)
        why = [(event["kind"], said[0]) for at, event in enumerate(events, edges[number])       # each rule the first
               if fired.get(event["kind"]) == at                                            # time it fired: why
               for said in [how.because(view["game"], event["kind"], view.get("settings"))] if said]
        lines += [line for _, line in why]
        text = "\n".join(lines).lower()
        terms = [(term, means) for term, means in unknown if _says(text, term.lower())]
        unknown = [pair for pair in unknown if pair not in terms]
        out.append({"title": title, "lines": lines + [means for _, means in terms], "why": len(why) + len(terms),
                    "terms": [term for term, _ in terms],
                    "clauses": clauses.anchors(view["game"], kinds + [kind for kind, _ in why]) +
                    [clauses.HOW_TO_PLAY] * len(terms),
                    "reveal": _reveal(view, game, edges[number], events)})
    return out


def _says(text: str, term: str) -> bool:
    """Whether ``text`` has ``term`` at the start of a word, with any ending ("whack" in "bo whacked hole 3"); both
    in lower case. Substring finds, not a regular expression: a taught turn of 30 lines is checked for each word not
    yet explained, and a search with a look-behind at every character cost 0.3 ms of such a turn."""
    at = text.find(term)
    while at > 0 and text[at - 1].isalnum():
        at = text.find(term, at + 1)
    return at != -1


def _lines(view: dict, game, events: list[dict]) -> tuple[list[str], list[str]]:
    """The turn in sentences: each of its own, and between them one for each seat that did something; and the kind
    of each sentence's first event (the rule it opens, :mod:`companion.render.clauses`)."""
    lines: list = []                        # a sentence, or (seat, its words so far)
    kinds: list[str] = []
    by_seat: dict[int, list[str]] = {}
    for event in events:
        if event["kind"] in QUIET:
            continue
        if event["kind"] == "game_over":
            words = say("Game over: {winners} won",
                        winners=naming.joined(naming.who(view, seat) for seat in event["winners"]))
        else:
            words = game.tell(view, event)
        seat = event.get("seat")
        if words is None:
            continue
        if seat is None or isinstance(words, Sentence):
            lines.append(words)
            kinds.append(event["kind"])
            by_seat = {}                    # the seats' sentences after it start anew
        elif seat in by_seat:
            by_seat[seat].append(words)
        else:
            by_seat[seat] = [words]
            lines.append((seat, by_seat[seat]))
            kinds.append(event["kind"])
    return [line if isinstance(line, str) else say("{player} {deeds}", player=naming.who(view, line[0]),
                                                    deeds=naming.separator().join(line[1])) for line in lines], kinds


def _reveal(view: dict, game, at: int, events: list[dict]) -> dict | None:
    """The turn's last reveal: where it is in the log (the TV shows a new one as it comes) and each seat's picks,
    under its player's whole name."""
    found = [(at + i, event) for i, event in enumerate(events) if event["kind"] == "reveal"]
    if not found:
        return None
    index, event = found[-1]
    picks = sorted((int(seat), pick) for seat, pick in event["picks"].items())
    return {"at": index, "picks": [{"seat": seat, "name": naming.title(view, seat)[0], "words": first(game.picked(view, pick))}
                                   for seat, pick in picks]}
