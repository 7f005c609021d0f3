"""sd_notify against a fake NOTIFY_SOCKET: a real AF_UNIX datagram socket standing in for systemd.

READY once the box serves, WATCHDOG pings while the session loop runs healthy,
none while it is stuck or unhealthy, and on SIGTERM STOPPING and the parting
screen left on every display.
"""
from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request

import pytest

from companion.sd_notify import Notifier, Watchdog
from companion.render.fault import parting
from companion import service
from companion.script import FakeClock
from tests.waiting import TIMEOUT_S, on_loop, wait_for


class FakeSystemd:
    """The manager's end of NOTIFY_SOCKET: every datagram received, in the order it came."""

    def __init__(self, path: str):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.settimeout(0.05)
        self.messages: list[dict[str, str]] = []
        self._marks = itertools.count(1)
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop:
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            self.messages.append(dict(line.split("=", 1) for line in data.decode().splitlines()))

    def pings(self) -> int:
        return sum(1 for m in list(self.messages) if m.get("WATCHDOG") == "1")

    def first(self, key: str, timeout: float = TIMEOUT_S) -> dict[str, str] | None:
        """The first message that carries ``key``, once one has come (None if none comes)."""
        def found():
            return next((fields for fields in list(self.messages) if key in fields), None)
        return found() if wait_for(lambda: found() is not None, timeout) else None

    def pings_so_far(self) -> int:
        """The pings sent before now, every one of them: a marker is sent now and waited for. A datagram joins the
        receiving socket's queue as it is sent, so a ping sent before the marker is received before it."""
        mark, marker = f"marker {next(self._marks)}", Notifier({"NOTIFY_SOCKET": self.path})
        assert marker.status(mark)
        marker.close()
        assert wait_for(lambda: any(m.get("STATUS") == mark for m in list(self.messages))), f"{mark} never came"
        before = list(self.messages)
        before = before[:before.index({"STATUS": mark})]
        return sum(1 for m in before if m.get("WATCHDOG") == "1")

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


class PingsFrom(Notifier):
    """A notifier that notes the thread each watchdog ping is sent from."""

    def __init__(self, env):
        super().__init__(env)
        self.threads: set[str] = set()

    def watchdog(self) -> bool:
        self.threads.add(threading.current_thread().name)
        return super().watchdog()


class ReadFrom(FakeClock):
    """The fake clock, noting the thread each reading is made on."""

    def __init__(self):
        super().__init__()
        self.threads: set[str] = set()

    def __call__(self) -> float:
        self.threads.add(threading.current_thread().name)
        return super().__call__()


def passes(session, n: int = 3) -> None:
    """Wait until the running loop has made ``n`` passes from now, each fed to the watchdog: a pass takes one call
    and feeds the watchdog before it takes the next."""
    for _ in range(n + 1):
        on_loop(session, lambda: None)


def test_the_loop_pings_while_healthy_and_stops_while_stuck_or_unhealthy(box, systemd):
    """The watchdog's clock is a fake one, moved by the test: a ping is due when the test says, and every pass of the
    loop is one the test made and waited for."""
    notifier = PingsFrom({"NOTIFY_SOCKET": systemd.path, "WATCHDOG_USEC": "400000"})   # a ping every 0.2 s at most
    clock, asked = ReadFrom(), set()
    session, stop = box.session, threading.Event()

    def health():
        asked.add(threading.current_thread().name)
        return session.health()
    loop = threading.Thread(target=session.run, args=(stop, Watchdog(notifier, health, clock)),
                            name="session loop", daemon=True)
    loop.start()
    try:
        passes(session, 8)                              # a busy loop pings no more than every 0.2 s...
        assert systemd.pings_so_far() == 1
        clock.advance(0.1)
        passes(session)
        assert systemd.pings_so_far() == 1
        clock.advance(0.1)
        passes(session)                                 # ... and at once once 0.2 s have gone by
        assert systemd.pings_so_far() == 2

        stuck, hung = threading.Event(), threading.Event()
        session.call(lambda: hung.set() or stuck.wait())    # the loop hangs in one step
        assert hung.wait(TIMEOUT_S)
        clock.advance(1.0)                              # a ping long due
        assert systemd.pings_so_far() == 2              # hung: none
        stuck.set()
        passes(session, 1)
        assert systemd.pings_so_far() == 3              # running again

        hang = threading.Event()
        session.screens.worker.stuck_s = 0.1
        session.screens.worker.submit("seat1", lambda: hang.wait() and parting())   # a frame that never ends
        assert wait_for(lambda: session.health() is not None)
        clock.advance(1.0)
        passes(session)
        assert systemd.pings_so_far() == 3              # the loop runs, but the box is not healthy
        assert wait_for(lambda: [m["STATUS"] for m in list(systemd.messages) if "STATUS" in m
                                 and not m["STATUS"].startswith("marker")][-1]
                        .startswith("unhealthy: one frame has been drawing"))
        hang.set()
        assert wait_for(lambda: session.health() is None)
        passes(session, 1)
        assert systemd.pings_so_far() == 4              # healthy again
        # Every ping, and every question before one, from the loop: never from a timer thread, which would go on
        # pinging while the loop hangs.
        assert notifier.threads == asked == clock.threads == {"session loop"}
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
