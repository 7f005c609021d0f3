"""The crash soak: kill the box with SIGKILL at random points of scripted games, start it again, go on.

After every kill: the database passes ``PRAGMA integrity_check``, every decision
the box had acknowledged on the lamps is in the journal, and in the end the game
finishes with the result of an uninterrupted run with the same seed and presses.
"""
from __future__ import annotations

import json
import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.journal.records import Records
from rules import registry
from rules.match import Header, Match
from tests.random_play import random_answer

ROOT = Path(__file__).resolve().parents[2]
KILLS = 200
SEATS = {"whakka-mole": 3}


def reference(game: str, seed: int) -> tuple[dict, dict]:
    """A random legal game, played a seat's first open decision at a time (as the panel does)."""
    rng = random.Random(seed)
    cls = registry.game_class(game)
    seats = SEATS.get(game, cls.min_seats)
    match = Match(Header(game, seats, seed=seed))
    while not match.over:
        if match.held and rng.random() < 0.05:
            match.retract(rng.choice(sorted(match.held)))
            continue
        seat = rng.choice(sorted({d.seat for d in match.open_decisions()}))
        d = match.decisions_for(seat)[0]
        match.submit(seat, d.key, random_answer(d, rng))
    plan = {"header": match.transcript()["header"],
            "records": [r for r in match.records if r["seat"] is not None]}
    result = match.result()
    return plan, {"scores": list(result.scores), "winners": list(result.winners)}


def check_journal(db: Path, plan: dict, acked: int) -> int:
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    raw.close()
    store = Records(db)
    saved = store.unfinished()
    if saved is None:                       # finished, or killed before the game's first commit point
        finished = store.finished_games()
        assert len(finished) <= 1
        stored = len(plan["records"]) if finished else 0
    else:
        records = [r for r in saved.transcript["records"] if r["seat"] is not None]
        stored = len(records)
        assert records == plan["records"][:stored]
    store.close()
    assert stored >= acked, f"acknowledged {acked} decisions, the journal holds {stored}"
    return stored


def soak(game: str, seed: int, kills: int, workdir: Path) -> int:
    """Play one reference game to its end in a child that is killed up to ``kills`` times; return the kills."""
    plan, expected = reference(game, seed)
    plan_path, db = workdir / f"plan-{seed}.json", workdir / f"molebox-{seed}.db"
    plan_path.write_text(json.dumps(plan))
    rng = random.Random(f"{game}/{seed}")
    killed = 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    while True:
        child = subprocess.Popen([sys.executable, "-m", "tests.crash.child", str(db), str(plan_path)],
                                 cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        budget = rng.randint(0, 3) if killed < kills else None
        timer = threading.Timer(rng.uniform(0.05, 0.6), child.send_signal, (signal.SIGKILL,))
        if budget == 0:                               # somewhere in start-up, resume or the first press
            timer.start()
        acked, done = 0, None
        for line in child.stdout:
            word, _, rest = line.partition(" ")
            if word == "ACK":
                acked = int(rest.split()[0])
                if budget:
                    budget -= 1
                    if budget == 0:
                        time.sleep(rng.uniform(0, 0.004))
                        child.send_signal(signal.SIGKILL)
                        break
            elif word == "DONE":
                done = json.loads(rest)
        child.stdout.close()
        child.wait()
        timer.cancel()
        check_journal(db, plan, acked)
        killed += child.returncode == -signal.SIGKILL
        if done is not None:
            assert done == expected
            return killed
        assert killed <= kills + 5, "the game never finished"


@pytest.mark.parametrize("game", registry.ids())
def test_killed_at_random_the_box_loses_nothing_and_ends_the_same(game, tmp_path):
    wanted = math.ceil(KILLS / len(registry.ids()))
    killed, seed = 0, 0
    while killed < wanted:
        killed += soak(game, seed, wanted - killed, tmp_path)
        seed += 1
    print(f"{game}: {killed} kills over {seed} games")
