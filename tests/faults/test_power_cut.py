"""A power cut that takes the ``-wal`` with it (deleted, cut short or scribbled on) costs at most the turn in play.

The box is killed (SIGKILL) after a random number of acknowledged decisions; then the
journal's ``-wal`` is deleted, truncated or damaged, as a card may leave it after a cut;
then the box starts again on what is left. The journal checkpoints at every turn end (no
secret pick held), so every decision acknowledged up to the last turn end must still be
there. The figures (decisions acknowledged, lost, the worst cut) are printed for
docs/persistence.md.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal.records import Records
from tests.crash.test_soak import ROOT, reference

CUTS = 12


def delete(wal: Path) -> None:
    wal.unlink(missing_ok=True)
    Path(str(wal)[:-4] + "-shm").unlink(missing_ok=True)


def truncate(wal: Path) -> None:
    if wal.exists():
        with open(wal, "r+b") as f:
            f.truncate(wal.stat().st_size // 2)


def scribble(wal: Path) -> None:
    if wal.exists() and wal.stat().st_size > 64:
        with open(wal, "r+b") as f:
            f.seek(wal.stat().st_size // 3)
            f.write(os.urandom(64))


def stored(db: Path, plan: dict) -> int:
    """How many of the plan's seat decisions the journal holds now (opening it as the box would)."""
    store = Records(db)
    try:
        saved = store.unfinished()
        if saved is None:
            return len(plan["records"]) if store.finished_games() else 0
        records = [r for r in saved.transcript["records"] if r["seat"] is not None]
        assert records == plan["records"][:len(records)]
        return len(records)
    finally:
        store.close()


def cut_and_count(game: str, seed: int, damage, cuts: int, workdir: Path) -> list[tuple[int, int, int]]:
    """Play one reference game through ``cuts`` power cuts; (acknowledged, at the last turn end, kept) per cut."""
    plan, _ = reference(game, seed)
    plan_path, db = workdir / f"plan-{game}-{seed}.json", workdir / f"{game}-{seed}.db"
    plan_path.write_text(json.dumps(plan))
    rng = random.Random(f"cut/{game}/{seed}")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    figures, kept = [], 0
    while len(figures) < cuts:
        child = subprocess.Popen([sys.executable, "-m", "tests.crash.child", str(db), str(plan_path)],
                                 cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        budget, acked, turn_end, done = rng.randint(1, 6), kept, kept, False
        for line in child.stdout:
            word, *rest = line.split()
            if word == "DONE":
                done = True
            elif word == "ACK":
                acked = int(rest[0])
                if rest[1:] == ["turn"]:
                    turn_end = acked
                budget -= 1
                if budget == 0:
                    child.send_signal(signal.SIGKILL)
                    break
        child.stdout.close()
        child.wait()
        if done:
            break
        damage(Path(f"{db}-wal"))
        kept = stored(db, plan)
        figures.append((acked, turn_end, kept))
        assert kept >= turn_end, f"acknowledged {acked}, {turn_end} by the last turn end, but only {kept} kept"
    return figures


@pytest.mark.parametrize("damage", [delete, truncate, scribble], ids=["deleted", "truncated", "damaged"])
@pytest.mark.parametrize("game", ["whakka-mole", "mouse-madness"])
def test_a_cut_that_takes_the_wal_loses_at_most_the_turn_in_play(game, damage, tmp_path):
    figures, seed = [], 0
    while len(figures) < CUTS:
        figures += cut_and_count(game, seed, damage, CUTS - len(figures), tmp_path)
        seed += 1
    lost = [max(0, acked - kept) for acked, _, kept in figures]      # a commit may land before its ACK is said
    print(f"{game}, -wal {damage.__name__}: {len(figures)} cuts, decisions lost per cut: "
          f"{sum(lost) / len(lost):.1f} on average, at most {max(lost)}; every one after the last turn end")
    if game == "mouse-madness":                      # every decision is a turn of its own: nothing is ever lost
        assert sum(lost) == 0


def test_the_ok_that_ends_a_turn_is_answered_before_the_wal_is_emptied(box_factory, tmp_path):
    """The turn end's commit point lands, and its answer is on its way to the lamps, before the journal's thread
    empties the WAL: the emptying (a few ms, more than the commit) never stands between the OK and its lamps."""
    box = box_factory(seats=2, db=tmp_path / "molebox.db")
    box.play("1 hole1\n1 ok\n1 hole5\n1 ok\n2 hole2\n2 ok\n2 hole1")
    records, keeper = box.session.keeper.journal.records, box.session.keeper
    before, when_emptied = box.lamps(2), []
    empty = records.checkpoint
    records.checkpoint = lambda: (when_emptied.append([(t.done, box.session.queue.qsize()) for t, _ in keeper._waiters]),
                                  empty())
    box.press(2, "ok")                                  # seat 2 whacks: the reveal ends the turn
    assert box.match.view(None)["state"]["turn"] == 2
    assert when_emptied == [[(True, 1)]]                # landed, and the loop told, when the emptying began
    assert box.lamps(2) != before                       # answered
    assert (tmp_path / "molebox.db-wal").stat().st_size == 0
