"""``molebox run`` in a process of its own, as a host starts it, driven over HTTP as its pages drive it."""
from __future__ import annotations

import html
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from tests.waiting import TIMEOUT_S, wait_for
from tests.webclient import Client

ROOT = Path(__file__).resolve().parents[1]


def molebox(*args: str, env: dict | None = None, limit: str | None = None, **popen) -> subprocess.Popen:
    """Start the ``molebox`` command from this checkout with ``args``; ``limit``: a resource limit it starts under,
    as util-linux's prlimit takes it (``nofile=1024``), set by prlimit's exec, not a preexec_fn (a fork beside
    the test's threads may deadlock before its exec)."""
    under = ["prlimit", f"--{limit}", "--"] if limit else []
    return subprocess.Popen([*under, sys.executable, "-m", "companion.cli", *args], cwd=ROOT, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)


class Running(Client):
    """A box started with ``molebox run --backend sim --port 0 ARGS``; the token read from its page."""

    def __init__(self, *args: str, env: dict | None = None, **popen):
        self.proc = molebox("run", "--backend", "sim", "--port", "0", *args, env=env, **popen)
        first = self.proc.stdout.readline()
        found = re.match(r"molebox: http://[^:]+:(\d+)/", first)
        if not found:
            self.proc.kill()
            out, err = self.proc.communicate()
            raise RuntimeError(f"molebox run did not start (exit {self.proc.returncode}): {first}{out}{err}")
        super().__init__(int(found.group(1)), "")
        page = self.call("GET", "/dashboard", headers={}).body
        config = re.search(r'<meta name="molebox" content="([^"]*)">', page).group(1)
        self.token = json.loads(html.unescape(config))["token"]
        self._until_up()

    def _until_up(self, timeout: float = 2 * TIMEOUT_S) -> None:
        """Wait out the "starting up" 503 the page answers between binding its port and the first published state."""
        def answered() -> bool:
            return self.proc.poll() is not None or self.call("GET", "/api/state", headers={}).status != 503
        if not wait_for(answered, timeout) or self.proc.poll() is not None:
            raise RuntimeError("molebox run never published a state")

    def state(self) -> dict:
        return self.call("GET", "/api/state", headers={}).body

    def stop(self) -> tuple[int, str]:
        """SIGTERM, as systemctl stop sends; the exit status and what it wrote on stderr."""
        self.proc.send_signal(signal.SIGTERM)
        _, err = self.proc.communicate(timeout=20)
        return self.proc.returncode, err

    def kill(self) -> None:
        """The plug is pulled."""
        self.proc.kill()
        self.proc.communicate()
