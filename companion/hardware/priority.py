"""The threads that bring a panel's presses run before anything else on the box.

A press is answered on the thread its edge came on (a hole's lamps flip there: companion/loop.py). On
one busy core that thread, woken by the press, otherwise waits its turn behind the session loop, the
journal's writer and the render process: Linux's fair scheduler lets the running thread finish its
slice, and the tick that ends it may be 4 ms away (docs/benchmarks-history.md: on the one-core VM, press-to-lamp
p99 8-11 ms, and 1.5-2 ms with the pressing thread at real-time priority). So such a thread asks, at its
first edge, for ``SCHED_FIFO`` at priority 1, the lowest real-time one: it goes before every ordinary
thread the moment a press wakes it, and sleeps again a tenth of a millisecond later. Whatever real-time
threads do, the kernel keeps 5% of each second for the others (``sched_rt_runtime_us``).

Only the threads a panel's wiring paces ask for it (a pin factory's callback thread, the IO board's
serial reader): never the web panel's, which anyone on the LAN can keep busy. A thread or a process they
start is an ordinary one (``SCHED_RESET_ON_FORK``: a blinker's thread, a render process). Where the
system does not allow it (the service's unit does: ``LimitRTPRIO=1``), the log says so once and presses
run as before.
"""
from __future__ import annotations

import logging
import os
import threading

log = logging.getLogger("molebox.priority")
PRESS_PRIORITY = 1
_local = threading.local()          # .raised: this thread runs at the press priority
_refused: list[str] = []            # why the system said no, once it has


def press_thread() -> None:
    """Run the calling thread at the press priority (once a thread: cheap at every edge)."""
    if getattr(_local, "raised", False) or _refused:
        return
    why = _raise()
    if why is None:
        _local.raised = True
    else:
        _refused.append(why)
        log.warning("presses run at ordinary priority: %s", refusal(why))


def ordinary() -> None:
    """Run the calling thread as an ordinary one again (an unprivileged thread may not clear
    ``SCHED_RESET_ON_FORK``, and keeps it)."""
    if os.sched_getscheduler(0) & ~os.SCHED_RESET_ON_FORK != os.SCHED_OTHER:
        os.sched_setscheduler(0, os.SCHED_OTHER | os.SCHED_RESET_ON_FORK, os.sched_param(0))
    _local.raised = False


def refused() -> str | None:
    """Why this process's threads may not run at the press priority, or None: asked on a thread of its own,
    which then ends."""
    answer: list[str | None] = []
    thread = threading.Thread(target=lambda: answer.append(_raise()), name="priority probe")
    thread.start()
    thread.join()
    return answer[0]


def describe() -> str:
    """What this process's presses get, in words for the log."""
    why = refused()
    return f"a panel's at real-time priority {PRESS_PRIORITY}" if why is None else f"ordinary priority: {refusal(why)}"


def refusal(why: str) -> str:
    """The system's no, and what allows it, in words for the log."""
    return (f"real-time priority {PRESS_PRIORITY} refused ({why}); the service's unit allows it with "
            f"LimitRTPRIO={PRESS_PRIORITY}")


def _raise() -> str | None:
    """The calling thread to the press priority: None, or why the system said no."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO | os.SCHED_RESET_ON_FORK, os.sched_param(PRESS_PRIORITY))
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
