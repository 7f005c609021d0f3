"""The crash soak's child: a box on simulated pins, journaling to DB, pressing its way through a plan.

Usage: python -m tests.crash.child DB PLAN.json. PLAN holds a header and the seat
records of a reference game. The child resumes whatever the journal holds,
presses the panel for every record still to come, and prints ``ACK n`` once
the n-th decision has been acknowledged on the lamps (after its commit point),
``ACK n turn`` when that decision ended a turn (no secret pick held: the journal
checkpoints there), then ``DONE`` with the result.
"""
from __future__ import annotations

import json
import sys

from companion import script
from companion.hardware.sim import open_sim
from companion.journal import Journal
from companion.table import Start
from companion.session import Session
from rules.match import RETRACT
from tests.presses import presses_for
from wiring.profile import load


def main(db: str, plan_path: str) -> None:
    plan = json.loads(open(plan_path).read())
    header = plan["header"]
    journal = Journal(db)
    finished = journal.records.finished_games()
    if finished:                      # killed after the last commit point, before saying DONE
        print("DONE", json.dumps({"scores": finished[0]["scores"], "winners": finished[0]["winners"]}))
        return
    clock = script.FakeClock()
    hw = open_sim(load("sim-8"), clock)
    session = Session(hw, clock, start=Start(header["game"], header["seats"], settings=header["settings"]),
                      seed=header["seed"], journal=journal)
    for record in plan["records"][session.state.match.seat_records():]:
        seat = record["seat"]
        if record["key"] == RETRACT:
            steps = [script.Press(0, seat, "ok", hold=True)]
        else:
            decision = next(d for d in session.state.match.decisions_for(seat) if d.key == record["key"])
            steps = [script.Press(0, seat, c) for c in presses_for(decision, record["value"])]
        script.run(session, hw, clock, steps, settle=False)
        print(f"ACK {session.state.match.seat_records()}{'' if session.state.match.held else ' turn'}", flush=True)
    result = session.state.match.result()
    print("DONE", json.dumps({"scores": list(result.scores), "winners": list(result.winners)}), flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
