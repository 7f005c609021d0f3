"""A thin terminal face for the simulator: type presses, see lamps and scores.

The web panel is the simulator's real face; this stays small on purpose.
"""
from __future__ import annotations

import json
import sys
import threading
import time

from . import script


def serve(session, hardware) -> int:
    stop = threading.Event()
    loop = threading.Thread(target=session.run, args=(stop,), name="session", daemon=True)
    loop.start()
    print("molebox on simulated panels. Type presses as in a script ('1 hole3', '1 ok', '1 ok hold'),")
    print("'show' for the state, 'quit' to stop.")
    try:
        for line in sys.stdin:
            line = line.strip()
            if line in ("quit", "exit"):
                break
            if line == "show" or not line:
                print(json.dumps(session.public(), sort_keys=True)[:2000])
                print(json.dumps(session.lamps()))
                continue
            try:
                steps = script.parse(line, "input", panels=len(hardware.seats))
            except script.ScriptError as exc:
                print(exc)
                continue
            for step in steps:
                if isinstance(step, script.Wait):
                    time.sleep(step.ms / 1000)
                    continue
                hardware.drive(step.seat, step.control, True)
                time.sleep(1.1 if step.hold else 0.05)
                hardware.drive(step.seat, step.control, False)
            time.sleep(0.05)
            print(json.dumps(session.lamps()))
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        loop.join(timeout=2)
        session.close()
    return 0
