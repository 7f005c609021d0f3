"""The journal's own thread: commit points in order, those that wait going together, a refusal refusing the rest."""
from __future__ import annotations

import threading

from companion.journal import Journal
from companion.journal.card import CardFault
from tests.waiting import wait_for

HEADER = {"game": "whakka-mole", "seats": 2, "settings": {}, "seed": 0, "dice": "virtual", "cards": "virtual",
          "version": 1, "bots": {}}


def rows(start: int, count: int) -> list:
    return [(i, {"seat": 1, "key": "popup", "value": [i]}, False) for i in range(start, start + count)]


def stored(journal: Journal, game: int) -> list:
    return journal.read(lambda records: records.load(game)).transcript["records"]


def test_commit_points_that_wait_while_one_is_on_its_way_go_together_in_order(tmp_path):
    journal = Journal(tmp_path / "molebox.db")
    game = journal.write(lambda records: records.begin(HEADER))
    card = threading.Event()
    journal.stall = card.wait                       # the card holds the first commit point
    first = journal.append(game, rows(0, 1), None)
    assert wait_for(lambda: journal.busy_for() > 0)
    waiting = [journal.append(game, rows(n, 1), None) for n in (1, 2, 3)]
    assert not first.done and not any(t.done for t in waiting)
    card.set()
    journal.wait_idle()
    assert first.done and all(t.done for t in waiting)
    assert len(journal.commit_s) == 2               # the three that waited: one commit point
    assert [r["value"] for r in stored(journal, game)] == [[0], [1], [2], [3]]
    journal.close()


def test_a_refused_commit_point_refuses_every_one_after_it_until_the_card_takes_writes(tmp_path):
    journal = Journal(tmp_path / "molebox.db")
    game = journal.write(lambda records: records.begin(HEADER))
    journal.read(lambda records: records.db.execute("PRAGMA query_only = 1"))     # the card turns read-only
    refused = journal.append(game, rows(0, 1), None)
    after = journal.append(game, rows(1, 1), None)
    journal.wait_idle()
    assert isinstance(refused.error, CardFault) and after.error is refused.error and not after.done
    journal.read(lambda records: records.db.execute("PRAGMA query_only = 0"))
    retried = []
    journal.retry(retried.append)
    journal.wait_idle()
    assert retried == [True] and journal.fault is None
    again = journal.append(game, rows(0, 1), None)
    journal.wait_idle()
    assert again.done and [r["value"] for r in stored(journal, game)] == [[0]]
    journal.close()


def test_a_write_waited_for_runs_after_every_commit_point_queued_before_it(tmp_path):
    journal = Journal(tmp_path / "molebox.db")
    game = journal.write(lambda records: records.begin(HEADER))
    card = threading.Event()
    journal.stall = card.wait
    ticket = journal.append(game, rows(0, 2), None)
    names = threading.Thread(target=journal.write, args=(lambda records: records.set_name(game, 1, "Ada"),))
    names.start()
    assert wait_for(lambda: journal.busy_for() > 0)
    card.set()
    names.join(10)
    assert ticket.done and journal.read(lambda records: records.names(game)) == {1: "Ada"}
    journal.close()
