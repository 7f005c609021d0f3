"""The table told to a room: what the TV view (and, below each phone's own screen, its public table) draws.

Made from the public state alone (:func:`companion.table.public.public`), so it may go to any page: the
table's description (:func:`describe_table` of the game's module: title, status, the prompt, lines and
the board as data; the prompt's shorter wordings too, for a crowded TV), each player's full name, score and
whether they have locked in (never what), the last turns in words (:mod:`companion.render.turns`; during the
first turn, how to play as the latest, :mod:`companion.render.how`), whether
play is paused, and what changed the game from elsewhere (an undo) in the prompt's place while the table
display says it. In the lobby, seat 1's menu and the game it has chosen. Join codes are not in it: they go only
where the table is (:mod:`companion.web.tv`).
"""
from __future__ import annotations

from dataclasses import replace

from rules import bots

from companion.words import N_, say

from . import clauses, for_game, how, lobby, naming
from .screen import as_dict, wordings

TURNS = 4           # the last turns a description carries
#: a computer player as its seat's standing says it, by its level (the table's: rules.bots.TABLE_LEVELS)
COMPUTER = {"casual": N_("casual computer"), "strong": N_("strong computer")}


def named(public: dict) -> dict:
    """The public view as the screens read it: with the players' names by seat."""
    return {**public["view"], "names": {str(seat): name for seat, name in public["names"].items()},
            "teaching": public.get("teaching", False)}


def describe(public: dict, turns: list[dict]) -> dict:
    """What the room may see now: ``public`` the table's public state, ``turns`` its log told
    (:func:`companion.render.turns.told`)."""
    paused = public["fault"]["words"] if public.get("fault") else ""
    if public["mode"] == "lobby":
        chosen = public["lobby"]
        return {"mode": "lobby", "game": chosen["game"], "title": chosen["games"][chosen["index"]],
                "screen": as_dict(lobby.describe_menu(chosen)), "paused": paused}
    view = named(public)
    game = for_game(view["game"])
    table = game.describe_table(view)
    if public.get("told"):             # what changed the game from elsewhere (an undo), as the table display says it
        headline, *words = public["told"]
        table = replace(table, prompt=(*(say("{headline}: {detail}", headline=headline, detail=w) for w in words),
                                       headline))
    return {"mode": "play", "game": view["game"], "title": view["title"], "over": view["over"], "paused": paused,
            "screen": {**as_dict(table), "prompts": list(wordings(table.prompt))},
            "players": _players(view, game, public.get("bots", {})),
            "hints": view["teaching"] and bots.hints(view["game"]),        # a phone seat offers its hint button
            "how": how.told(view["game"], view["settings"]) if how.ruled(view["game"], view["settings"]) else None,
            "turns": turns[-TURNS:] + _teaching(view, game, public["log"])}


def _teaching(view: dict, game, log: list[dict]) -> list[dict]:
    """During the first turn, how to play, told as the latest turn (the room's turn list shows it first, and
    leaves out the older ones that do not fit): the theme, the goal, a turn's steps, how you score."""
    if not how.first_turn(game, log):
        return []
    said = how.told(view["game"], view["settings"])
    lines = [said["theme"], said["goal"], *said["turn"], *said["scoring"]]
    return [{"title": say("How to play"), "lines": lines, "clauses": [clauses.HOW_TO_PLAY] * len(lines),
             "reveal": None, "teaching": True}]


def _players(view: dict, game, bots: dict) -> list[dict]:
    """Each seat: its player's whole name and its short form (for a board's name column with no room), score,
    and what it is doing (locked in, choosing), never what it chose."""
    out = []
    for seat, standing in enumerate(game.standings(view), 1):
        doing = say("won") if seat in view["winners"] else "" if view["over"] else \
            say("locked in") if seat in view["locked"] else say("choosing") if seat in view["waiting"] else ""
        bot = bots.get(seat) or bots.get(str(seat))
        out.append({"seat": seat, "name": view["names"].get(str(seat)) or say("Seat {seat}", seat=seat),
                    "short": naming.short(view, seat), "doing": doing,
                    **standing, "more": ([say(COMPUTER[bot])] if bot else []) + standing["more"]})
    return out
