"""How to play a game, told in the box's language wherever a table first meets it: the room's description (the
TV shows it before the first turn is over, a phone's seat page one tap away), a line of each seat's screen
during the first turn, the lobby's, and ``molebox variants``. The words are the rules' own
(:data:`rules.how_to_play.HOW_TO_PLAY`), said through the catalogue.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from rules import registry
from rules.how_to_play import HOW_TO_PLAY, WORDS
from rules.registry import game_class
from rules.settings import resolve

from companion.words import locale, say, says

from . import naming
from .oled import frame
from .reading import SMALLEST, Panel
from .screen import Screen, Words

ROOT = Path(__file__).resolve().parents[2]      # the repository: the rules docs' paths are from it


@functools.cache
def _settings(game_id: str, pairs: tuple = ()) -> dict:
    """The game's settings: the defaults, changed by ``pairs`` (a match's settings, as sorted pairs)."""
    return resolve(game_id, dict(pairs))


def _said(game_id: str, settings: dict | None, text: str) -> str:
    """``text`` in the box's language, the figures it names those of ``settings`` (a word among them, such as
    whose sheet you whack, said too)."""
    fields = _settings(game_id, tuple(sorted((settings or {}).items())))
    return say(text, **{name: say(value) if value in WORDS else value for name, value in fields.items()})


def told(game_id: str, settings: dict | None = None) -> dict:
    """Everything a table reads before its first turn, said: theme, goal, scoring, the turn's steps, the buttons,
    the seats and length, and the rule text's own words explained; its figures those of ``settings``."""
    how, said = HOW_TO_PLAY[game_id], functools.partial(_said, game_id, settings)
    return {"theme": said(how.theme), "goal": said(how.goal), "scoring": [said(line) for line in how.scoring],
            "turn": [said(step) for step in how.turn], "buttons": said(how.buttons), "size": size(game_id),
            "jargon": [{"term": said(term), "means": said(means)} for term, means in how.jargon]}


@naming.named
def describe_goal_card(view: dict, notice: str = "") -> Screen:
    """A new game's first moment on a seat's screen: whose it is and that it is the goal, the goal, what the buttons
    do."""
    game, settings = view["game"], view["settings"]
    return Screen(title=(*(say("{player}: the goal", player=who) for who in naming.title(view, view["you"])),
                         say("The goal")),
                  prompt=tuple(_said(game, settings, words) for words in HOW_TO_PLAY[game].goal_short),
                  lines=(_said(game, settings, HOW_TO_PLAY[game].buttons),), notice=notice)


def goal_card(view: dict, notice: str = "", panel: Panel = SMALLEST):
    """A seat's screen as a game is dealt; ``notice`` as a seat's game screen has it, last (``scene.kept``)."""
    return frame(describe_goal_card(view, notice), panel)


def every() -> dict[str, dict]:
    """How to play every game, said (:func:`told`, its figures the defaults), by its id: what a phone seat's page
    reads from."""
    return {game_id: told(game_id) for game_id in HOW_TO_PLAY}


def goal(game_id: str, settings: dict | None = None) -> Words:
    """The goal for a line of an OLED, longest first."""
    return tuple(say("Goal: {goal}", goal=_said(game_id, settings, words))
                 for words in HOW_TO_PLAY[game_id].goal_short)


def means(game_id: str, key: str, settings: dict | None = None) -> Words:
    """What answering the decision ``key`` means in the game's own terms, in full and in fewer words; () if the
    game does not say."""
    return tuple(_said(game_id, settings, text) for text in _texts(HOW_TO_PLAY[game_id].means, key))


def because(game_id: str, kind: str, settings: dict | None = None) -> Words:
    """Why an event of ``kind`` happened, the rule that fired, as "Because ..." in full and in fewer words; () if
    the game does not say."""
    return tuple(say("Because {why}", why=_said(game_id, settings, text))
                 for text in _texts(HOW_TO_PLAY[game_id].because, kind))


def jargon(game_id: str, settings: dict | None = None) -> tuple[tuple[str, str], ...]:
    """The rule text's own terms, said, each with a line explaining it: ``("token", "Token: A mole out of ...")``."""
    return _jargon(game_id, tuple(sorted((settings or {}).items())), locale())


@functools.cache
def _jargon(game_id: str, pairs: tuple, language: str) -> tuple[tuple[str, str], ...]:
    """:func:`jargon`, said once per game, settings and language (a turn told while taught asks it: 0.4 ms)."""
    said = functools.partial(_said, game_id, dict(pairs))
    return tuple((term, say("{term}: {means}", term=term[:1].upper() + term[1:], means=means))
                 for term, means in ((said(term), said(means)) for term, means in HOW_TO_PLAY[game_id].jargon))


def _texts(table: tuple[tuple[str, str, str], ...], key: str) -> tuple[str, ...]:
    """A ``means`` or ``because`` table's texts for ``key`` (in full, in fewer words); () if it has none."""
    return next((texts for said, *texts in table if said == key), ())


def ruled(game_id: str, settings: dict) -> bool:
    """Whether ``settings`` change a figure from the game's defaults (how to play is then told with them)."""
    return settings != _settings(game_id)


def firsts(kinds: Iterable[str]) -> dict[str, int]:
    """Where each kind of event first happened among ``kinds`` (a log's, in order): its rule fired first there."""
    out: dict[str, int] = {}
    for i, kind in enumerate(kinds):
        out.setdefault(kind, i)
    return out


def size(game_id: str) -> str:
    """How many seats the game takes and how long a first game lasts."""
    cls, (least, most) = game_class(game_id), HOW_TO_PLAY[game_id].minutes
    if cls.min_seats == cls.max_seats:
        return says("{n} seat, {least} to {most} minutes", "{n} seats, {least} to {most} minutes", cls.max_seats,
                    least=least, most=most)
    return says("{low} to {n} seat, {least} to {most} minutes", "{low} to {n} seats, {least} to {most} minutes",
                cls.max_seats, low=cls.min_seats, least=least, most=most)


def taught(describe):
    """A seat's ``describe_`` function whose view may carry what to teach: ``view["teach"]`` in a taught game (why
    the seat's news happened, the first time each rule fired; what its decision means; that a hint is one hold
    away) and ``view["goal"]`` during the first turn. Each is a line after the screen's own, the first a small
    glass leaves out (the question, its buttons and the seat's own news come first)."""
    @functools.wraps(describe)
    def described(view: dict, *args, **kwargs):
        screen = describe(view, *args, **kwargs)
        teach = view.get("teach") or {}
        more = [*teach.get("because", ()), teach.get("means"),
                (say("Hold 5 for a hint"), say("Hold 5: hint")) if teach.get("hint") and screen.options else None,
                view.get("goal")]
        more = tuple(line for line in more if line)
        return replace(screen, lines=(*screen.lines, *more)) if more else screen
    return described


def first_turn(game, log: list[dict]) -> bool:
    """Whether the game is still in its first turn (or before it): the log has opened at most one (a game whose
    turn list starts a turn at its reveal, Whakka Mole's, has revealed none: the reveal ends the turn). A turn the
    box played alone (a ``forced`` move: Mouse Madness's first moves off the start) is no player's first."""
    openers = game.TURN[0]
    most, seen, alone = (0 if "reveal" in openers else 1), 0, False
    for event in log:                       # from the start: a long game's log is left at its second turn
        if event["kind"] in openers:
            seen, alone = seen + (not alone), False
        alone = alone or bool(event.get("forced"))
        if seen > most:
            return False
    return True


def lines(game_id: str) -> list[str]:
    """How to play as lines of text that read the same in a terminal (``molebox variants``) and as Markdown (the
    rules docs' first section): paragraphs between empty lines, the turn's steps numbered, the words listed."""
    said = told(game_id)
    out = [said["theme"], "", say("Goal: {goal}", goal=said["goal"]), "",
           say("Scoring: {scoring}", scoring=" ".join(said["scoring"])), "", say("A turn:"), ""]
    out += [f"{n}. {step}" for n, step in enumerate(said["turn"], 1)]
    out += ["", say("Buttons: {buttons}", buttons=said["buttons"]), "",
            say("Players and length: {size}", size=said["size"])]
    if said["jargon"]:
        out += ["", say("The rules' own words:"), ""] + [f"- {word['term']}: {word['means']}" for word in said["jargon"]]
    return out


def document(game_id: str) -> None:
    """Write the game's rules doc's "How to play" section (before its first other section) from these words."""
    path = ROOT / registry.get(game_id).doc
    before, _, rest = path.read_text().partition("\n## ")
    if rest.startswith("How to play\n"):
        rest = rest.split("\n## ", 1)[1]
    body = "\n".join(lines(game_id))
    path.write_text(f"{before}\n## How to play\n\n{body}\n\n## {rest}")


if __name__ == "__main__":          # make how-to-play
    for game in HOW_TO_PLAY:
        document(game)
