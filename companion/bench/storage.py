"""The journal on disk: the commit points of a game, and resuming one, beside sqlite3 alone; a journal of many
finished games, for the history's readers."""
from __future__ import annotations

import random
import time

from companion.journal.records import Records
from rules.match import Header, Match

from . import raw

HISTORY_GAMES = 95      # finished games in a journal whose history guests read (issue 45's figure)


def random_game(decisions: int, seed: int = 7):
    """A 4-seat Whakka Mole game of ``decisions`` random legal seat decisions, and its commit points:
    for each decision, the journal rows it adds and whether it ended a turn (no secret pick held after it)."""
    rng = random.Random(seed)
    match = Match(Header("whakka-mole", 4, {"target": 500, "tokens": 2}))
    commits = []
    while match.seat_records() < decisions:
        d = match.decisions_for(rng.choice(sorted({x.seat for x in match.open_decisions()})))[0]
        start = len(match.records)
        match.submit(d.seat, d.key, rng.sample(d.options, rng.randint(0, min(2, d.max)))
                     if d.kind.value == "holes" else rng.choice(d.options))
        rows = [(i, match.records[i], i in match.secret_records) for i in range(start, len(match.records))]
        commits.append((rows, not match.held))
    return match, commits


def commit_points(samples: int, workdir: str) -> dict[str, list[float]]:
    """Every commit point of a game through the records, as the session makes them: ``emptied``, the WAL emptied
    into the main file at each turn end (what a lost -wal costs: at most the turn in play); ``kept``, the WAL
    left to SQLite's own checkpoints (before that change); ``raw``, a bare sqlite3 insert+commit (WAL, FULL)."""
    match, commits = random_game(samples)
    out: dict[str, list[float]] = {}
    for mode in ("kept", "emptied"):
        records = Records(f"{workdir}/{mode}.db")
        game = records.begin(match.transcript()["header"])
        times = out[mode] = []
        for rows, turn_end in commits:
            start = time.perf_counter()
            records.append(game, rows)
            if turn_end and mode == "emptied":
                records.checkpoint()
            times.append(time.perf_counter() - start)
        records.close()
    out["raw"] = raw.sqlite_commits(f"{workdir}/raw.db", len(commits))
    return out


def resume_time(workdir: str, decisions: int = 200) -> tuple[float, float]:
    """Open the journal and rebuild a game of ``decisions`` seat decisions, beside reading its rows raw."""
    match, _ = random_game(decisions)
    path = f"{workdir}/resume.db"
    records = Records(path)
    game = records.begin(match.transcript()["header"])
    records.append(game, [(i, r, i in match.secret_records) for i, r in enumerate(match.records)])
    records.close()
    start = time.perf_counter()
    records = Records(path)
    replayed = Match.replay(records.unfinished().transcript)
    ours = time.perf_counter() - start
    records.close()
    assert replayed.view(None) == match.view(None)
    return ours, raw.sqlite_read(path)


def finished_games(path: str, count: int = HISTORY_GAMES, turns: int = 12) -> None:
    """A new journal at ``path`` holding ``count`` finished 8-seat Whakka Mole games, each with its scores turn by
    turn, as a box has after a few nights."""
    records = Records(path)
    try:
        for n in range(count):
            header = Match(Header(game="whakka-mole", seats=8, seed=n)).transcript()["header"]
            game_id = records.begin(header, names={seat: f"Player {seat}" for seat in range(1, 9)})
            history = [[turn * seat % 7 for seat in range(1, 9)] for turn in range(1, turns + 1)]
            records.append(game_id, [], {"scores": history[-1], "winners": [1], "history": history})
    finally:
        records.close()
