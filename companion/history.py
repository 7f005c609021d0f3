"""History and stats of finished games, as tables for the terminal and data for the dashboard; players' names."""
from __future__ import annotations

import time
import unicodedata
from collections import Counter

from rules import registry

NAME_CHARS = 16


def clean_name(text: str) -> str | None:
    """A player's name as typed on the dashboard, tidied (its letters composed, as the screens' fonts draw them:
    a phone may send "e" and two marks for "ễ"); None for a blank one. ValueError says what is wrong."""
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if len(name) > NAME_CHARS:
        raise ValueError(f"a name has at most {NAME_CHARS} characters, not {len(name)}")
    if not all(ch.isprintable() and ch != "|" for ch in name):
        raise ValueError("a name is letters, digits, spaces and punctuation other than |")
    return name or None


def _title(game_id: str) -> str:
    try:
        return registry.game_class(game_id).title
    except ValueError:
        return game_id


def history_table(games: list[dict]) -> str:
    if not games:
        return "no finished games yet"
    lines = ["| # | when | game | players (score) | winner | minutes |", "| ---: | --- | --- | --- | --- | ---: |"]
    for g in games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g["started"]))
        players = ", ".join(f"{n} ({s})" for n, s in zip(g["names"], g["scores"]))
        winners = " & ".join(g["names"][w - 1] for w in g["winners"])
        lines.append(f"| {g['id']} | {when} | {_title(g['game'])} | {players} | {winners} | {g['duration'] / 60:.0f} |")
    return "\n".join(lines)


def stats(games: list[dict]) -> dict:
    """Wins and games per player name, games per game, and mean minutes per game."""
    wins, played, per_game, minutes = Counter(), Counter(), Counter(), Counter()
    for g in games:
        per_game[g["game"]] += 1
        minutes[g["game"]] += g["duration"] / 60
        for seat, name in enumerate(g["names"], 1):
            played[name] += 1
            wins[name] += seat in g["winners"]
    return {"players": {n: {"wins": wins[n], "games": played[n]} for n in sorted(played, key=lambda n: -wins[n])},
            "games": {gid: {"played": n, "minutes": minutes[gid] / n} for gid, n in per_game.items()}}


def dashboard(games: list[dict], limit: int) -> dict:
    """The dashboard's history: the latest ``limit`` finished games (newest first) and the stats of all."""
    summary = stats(games)
    for game_id, figures in summary["games"].items():
        figures["title"] = _title(game_id)
    return {"games": [{**g, "title": _title(g["game"])} for g in games[:limit]], "stats": summary}


def stats_table(games: list[dict]) -> str:
    if not games:
        return "no finished games yet"
    s = stats(games)
    lines = ["| player | wins | games |", "| --- | ---: | ---: |"]
    lines += [f"| {n} | {p['wins']} | {p['games']} |" for n, p in s["players"].items()]
    lines += ["", "| game | played | mean minutes |", "| --- | ---: | ---: |"]
    lines += [f"| {_title(g)} | {p['played']} | {p['minutes']:.0f} |" for g, p in s["games"].items()]
    return "\n".join(lines)
