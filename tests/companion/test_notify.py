"""sd_notify against a fake NOTIFY_SOCKET: a real AF_UNIX datagram socket standing in for systemd.

READY once the box serves, WATCHDOG pings while the session loop runs healthy,
none while it is stuck or unhealthy, and on SIGTERM STOPPING and the parting
screen left on every display.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from companion.notify import Notifier, Watchdog
from companion.render.fault import parting
from companion import service
from tests.waiting import TIMEOUT_S, wait_for


class FakeSystemd:
    """The manager's end of NOTIFY_SOCKET: every datagram received, with the time it came."""

    def __init__(self, path: str):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.settimeout(0.05)
        self.messages: list[tuple[float, dict[str, str]]] = []
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            fields = dict(line.split("=", 1) for line in data.decode().splitlines())
            self.messages.append((time.monotonic(), fields))

    def pings(self, since: float = 0.0, until: float = float("inf")) -> int:
        return sum(1 for t, m in self.messages if since <= t <= until and m.get("WATCHDOG") == "1")

    def first(self, key: str, timeout: float = TIMEOUT_S) -> dict[str, str] | None:
        """The first message that carries ``key``, once one has come (None if none comes)."""
        def found():
            return next((fields for _, fields in list(self.messages) if key in fields), None)
        return found() if wait_for(lambda: found() is not None, timeout) else None

    def close(self) -> None:
        self._stop = True
        self._thread.join()
        self.sock.close()


@pytest.fixture
def systemd(tmp_path):
    fake = FakeSystemd(str(tmp_path / "notify"))
    yield fake
    fake.close()


def test_nothing_is_sent_without_a_notify_socket():
    assert Notifier({}).ready("serving") is False
    assert Watchdog(Notifier({}), lambda: None).every is None


def test_an_abstract_socket_name_is_understood():
    assert Notifier({"NOTIFY_SOCKET": "@/org/freedesktop/systemd1/notify"}).address.startswith("\0/org")


def test_a_watchdog_meant_for_another_process_is_not_fed():
    assert Notifier({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}).watchdog_s is None


def test_the_loop_pings_while_healthy_and_stops_while_stuck_or_unhealthy(box, systemd):
    notifier = Notifier({"NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "400000"})   # a ping every 0.2 s at most
    session, stop = box.session, threading.Event()
    loop = threading.Thread(target=session.run, args=(stop, Watchdog(notifier, session.health)), daemon=True)
    loop.start()
    try:
        began = time.monotonic()
        for _ in range(8):                              # a busy loop pings no more than every 0.2 s
            session.call(lambda: None)
            time.sleep(0.05)
        assert wait_for(lambda: systemd.pings() >= 2)
        assert systemd.pings() <= (time.monotonic() - began) / 0.2 + 1

        stuck = threading.Event()
        session.call(stuck.wait)                        # the loop hangs in one step
        start = time.monotonic()
        time.sleep(1.2)
        assert systemd.pings(since=start + 0.3) == 0    # hung (a ping already on its way may land first)
        stuck.set()
        assert wait_for(lambda: systemd.pings(since=start + 1.2) >= 1)     # running again

        hang = threading.Event()
        session.out.displays.stuck_s = 0.1
        session.out.displays.submit("seat1", lambda: hang.wait() and parting())   # a frame that never ends
        assert wait_for(lambda: session.health() is not None)
        start = time.monotonic()
        session.call(lambda: None)
        time.sleep(1.0)
        assert systemd.pings(since=start) == 0          # the loop runs, but the box is not healthy
        assert wait_for(lambda: [m["STATUS"] for _, m in systemd.messages if "STATUS" in m][-1]
                        .startswith("unhealthy: one frame has been drawing"))
        hang.set()
    finally:
        stop.set()
        session.call(lambda: None)
        loop.join(2)


def test_ready_once_serving_then_sigterm_stops_cleanly_with_the_parting_screen(box, systemd, monkeypatch):
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.path)
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")
    answered: list[int] = []

    def operator():
        ready = systemd.first("READY")
        port = int(ready["STATUS"].rsplit(":", 1)[1].strip("/"))
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/dashboard", timeout=5) as reply:
            answered.append(reply.status)          # READY means the panel already answers
        wait_for(lambda: systemd.pings() >= 2)      # a few watchdog periods
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=operator, daemon=True).start()
    assert service.serve(box.session, service.listen("127.0.0.1", 0), "127.0.0.1") == 0
    assert answered == [200]
    assert systemd.pings() >= 2
    assert systemd.first("STOPPING", timeout=1) is not None
    for name, device in box.hw.displays().items():
        assert device.image.tobytes() == parting().tobytes(), name


def test_molebox_run_as_systemd_starts_it(systemd, tmp_path):
    """The service's own command line: READY, pings, and a clean exit on SIGTERM with the journal in place."""
    state = tmp_path / "state"
    state.mkdir()
    env = {**os.environ, "NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "1000000", "STATE_DIRECTORY": str(state)}
    run = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--backend", "sim", "--port", "0"],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        ready = systemd.first("READY", timeout=30)
        assert ready is not None and ready["STATUS"].startswith("serving http://127.0.0.1:")
        assert wait_for(lambda: systemd.pings() >= 2)
        run.send_signal(signal.SIGTERM)
        out, err = run.communicate(timeout=15)
        assert run.returncode == 0, err
        assert systemd.first("STOPPING", timeout=1) is not None
        assert (state / "molebox.db").exists()
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()


def test_molebox_run_frames_keeps_each_display_s_latest_frame_ending_with_the_parting_screen(systemd, tmp_path):
    """``--frames DIR`` (the sim backend): each display's frame as DIR/NAME.png while it runs; after SIGTERM
    every file holds the parting screen, the last frame each display showed."""
    from PIL import Image

    frames, state = tmp_path / "frames", tmp_path / "state"
    env = {**os.environ, "NOTIFY_SOCKET": systemd.path, "STATE_DIRECTORY": str(state)}
    run = subprocess.Popen([sys.executable, "-m", "companion.cli", "run", "--backend", "sim", "--wiring",
                            "gpio-2-mux", "--port", "0", "--frames", str(frames)],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert systemd.first("READY", timeout=30) is not None
        wait_for(lambda: len(list(frames.glob("*.png"))) >= 3)
        assert sorted(p.name for p in frames.glob("*.png")) == ["seat1.png", "seat2.png", "table.png"]
        assert Image.open(frames / "table.png").tobytes() != parting().tobytes()     # the lobby, before the stop
        run.send_signal(signal.SIGTERM)
        assert run.wait(timeout=15) == 0
        for name in ("seat1", "seat2", "table"):
            assert Image.open(frames / f"{name}.png").convert("1").tobytes() == parting().tobytes(), name
        assert not list(frames.glob("*.part"))
    finally:
        if run.poll() is None:
            run.kill()
        run.communicate()


def test_frames_are_for_the_sim_backend_only(tmp_path, capsys):
    from companion.cli import main

    assert main(["run", "--backend", "gpio", "--frames", str(tmp_path)]) == 2
    assert "--frames" in capsys.readouterr().err and not list(tmp_path.iterdir())
