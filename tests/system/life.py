"""The service's life in one VM, as a host would live it: install, boot, play, stop, hang, fault, power cuts, uninstall.

Each step is a test with a row in the table (``Row``); they run in order on one disk, because each
starts from where the last left the box, as on a real card. A step that fails is reported and the
next one goes on where it can; once the service cannot be installed, the rest are not run.
"""
from __future__ import annotations

import io
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from . import gpio
from .finger import Finger, PinHands, WebHands
from .gpio import Header
from .images import ROOT, Image
from .panel import Panel, Stream, decisions, lock_ins
from .vm import Vm, fsck

FRAMES = "/var/lib/molebox/frames"
PROFILE = "gpio-2-mux"
DISPLAYS = ("seat1", "seat2", "table")            # the displays of the gpio-2-mux profile
SERVICE_ARGS = f"--backend sim --wiring {PROFILE} --listen 0.0.0.0 --lan-sim --frames {FRAMES}"
CUT_GAME_ARGS = "--game whakka-mole --seats 2 --set target=500"     # a game that outlasts every cut
WATCHDOG_S, RESTART_S = 10, 5                     # systemd/molebox.service
LATE_S = 3          # how late the emulated machine's timers may fire while the host is busy: systemd's restart
                    # timer came 6.2 s after an exit with RestartSec=5, two VMs and a test suite on two cores
LOBBY_TO_WHAKKA = "1 hole1\n1 ok\n1 ok\n1 ok\n"  # seat 1 in the lobby: game 1, seats as they are, players, start
GAME_SCRIPT = ROOT / "tests/system/whakka-2seat.txt"
UNPLUGGED = "2 hole2\n"                           # seat 2's first pick in turn 2 (the gpio rows: its display unplugged)
DOCTOR = "/opt/molebox/venv/bin/molebox doctor"   # as the service's venv has it (install.sh)


@dataclass
class Row:
    release: str
    test: str
    result: str = "not run"                       # pass, FAIL, not run
    figures: str = ""
    detail: str = ""


def systemd_show(vm: Vm, *props: str) -> dict[str, str]:
    out = vm.sh(f"systemctl show molebox {' '.join('-p ' + p for p in props)}")
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


class Life:
    def __init__(self, image: Image, wheels: Path, work: Path, cuts: int, seed: int = 0, cpus: int = 1,
                 pi: Path | None = None, sim_answer=None, only_gpio: bool = False):
        """``pi``: the parts for the gpio rows (``piparts.pi_parts``), and ``sim_answer()`` the sim backend's answer
        to their presses (``gpio.sim_replay``); none, no gpio rows. ``only_gpio``: the install and the gpio rows
        alone."""
        self.release = image.release
        self.image, self.work, self.cuts = image, work, cuts
        self.pi, self.sim_answer, self.only_gpio = pi, sim_answer, only_gpio
        self.header: Header | None = None
        self.rng = random.Random(f"{self.release}/{seed}")
        self.rows: list[Row] = []
        self.boot_to_ready: list[float] = []
        share = work / "share"
        shutil.rmtree(work, ignore_errors=True)
        (share / "molebox").mkdir(parents=True)
        _copy_checkout(share / "molebox")
        shutil.copytree(wheels, share / "wheels")
        if pi is not None:
            shutil.copytree(pi, share / "pi")
        disk = work / "root.img"
        subprocess.run(["cp", "--sparse=always", str(image.disk), str(disk)], check=True)
        self.vm = Vm(image, disk, work / "logs", share, cpus)
        self.panel: Panel | None = None

    # ---- running the steps ----

    def run(self) -> list[Row]:
        steps = [("install: make install (systemd/install.sh)", self.install),
                 ("boot: READY, NotifyAccess, status line, presses at real-time priority", self.ready),
                 ("web panel answers on the forwarded port", self.web),
                 ("molebox doctor runs", self.doctor),
                 ("a scripted game through the web panel", self.game),
                 ("systemctl stop: the parting screen on every display", self.stop),
                 ("watchdog: a hung loop is killed and restarted", self.watchdog),
                 ("fault at start: damaged journal, no crash loop", lambda: self.fault_at_start("damaged")),
                 ("fault at start: lost key, no crash loop", lambda: self.fault_at_start("key")),
                 (f"power cuts while presses arrive (x{self.cuts})", self.power_cuts),
                 ("make uninstall: service gone, journal kept", self.uninstall)]
        gpio_steps = [("gpio backend on gpio-sim lines: READY under the unit, doctor finds GPIO and lgpio",
                       self.gpio_ready),
                      ("gpio: the unit's DeviceAllow and groups are install.sh's, nothing wider", self.gpio_allowed),
                      ("gpio: presses on the lines: lamps and I2C displays as the sim's, a game started, a turn played",
                       self.gpio_play),
                      ("gpio: a display unplugged mid-game (the bus's NACK): the game goes on, and it shows it again "
                       "when plugged back", self.gpio_unplugged),
                      (f"gpio: power cuts while presses arrive on the lines (x{self.gpio_cuts})", self.gpio_power_cuts)]
        if self.only_gpio:
            steps = steps[:2] + steps[-1:]
        if self.pi is not None:
            steps[-1:-1] = gpio_steps
        try:
            for name, step in steps:
                row = Row(self.release, name)
                self.rows.append(row)
                if len(self.rows) > 1 and self.rows[0].result != "pass":
                    continue                      # nothing to test without the service installed
                started = time.monotonic()
                try:
                    row.figures = step() or ""
                    row.result = "pass"
                except Exception as exc:
                    row.result = "FAIL"
                    row.detail = f"{type(exc).__name__}: {exc}"
                    (self.work / "logs").mkdir(parents=True, exist_ok=True)
                    with (self.work / "logs" / "failures.txt").open("a") as out:
                        out.write(f"== {name}\n{traceback.format_exc()}\n")
                    self._recover()
                row.figures = f"{row.figures}{'; ' if row.figures else ''}{time.monotonic() - started:.0f} s"
        finally:
            self.vm.close()
        return self.rows

    def _recover(self) -> None:
        """After a failed step: the journal of the service for the log, and a running box for the next step."""
        try:
            log = self.vm.sh("journalctl -u molebox -b --no-pager | tail -n 60", timeout=30, check=False)
            with (self.work / "logs" / "failures.txt").open("a") as out:
                out.write(f"-- journalctl -u molebox (last lines)\n{log}\n")
        except Exception:
            pass

    def _boot(self) -> float:
        """Start the VM and wait for the web panel: the seconds from power on to READY."""
        self.vm.start()
        self.panel = Panel(self.vm.web_port)
        self.panel.wait_ready(timeout=300, alive=lambda: self.vm.process.poll() is None)
        seconds = time.monotonic() - self.vm.started
        self.boot_to_ready.append(seconds)
        return seconds

    def _restart(self) -> None:
        self.vm.sh("systemctl restart molebox", timeout=120)
        self.panel.wait_ready(timeout=120)

    def _fresh_start(self, args: str) -> None:
        """The service restarted from a fresh journal with ``args``."""
        self.vm.sh("systemctl stop molebox && rm -rf /var/lib/molebox/molebox.* " + FRAMES, timeout=60)
        self._set_args(args)
        self.vm.sh("systemctl start molebox", timeout=120)
        self.panel.wait_ready(timeout=120)

    def _set_args(self, args: str) -> None:
        self.vm.sh(f"printf 'MOLEBOX_ARGS=\"%s\"\\n' '{args}' > /etc/default/molebox")

    def _start_game(self) -> None:
        """From the lobby, seat 1 starts Whakka Mole for two; one turn, so the journal holds sealed picks."""
        self.panel.refresh()
        stream = Stream(self.vm.web_port)
        try:
            assert stream.wait(lambda s: s.state is not None, 60), "no state on the dashboard stream"
            if stream.state["mode"] == "lobby":
                self.panel.play(LOBBY_TO_WHAKKA)
                for _ in range(2):                # an alert on the lobby takes seat 1's first OK ("got it")
                    if stream.wait(lambda s: s.state["mode"] == "play", 20):
                        break
                    self.panel.press(1, "ok")
                assert stream.wait(lambda s: s.state["mode"] == "play", 40), f"the game did not start: {stream.state}"
            self.panel.play(GAME_SCRIPT.read_text().split("# turn 2")[0])
        finally:
            stream.close()
        def revealed(state: dict) -> bool:
            return any(event["kind"] == "reveal" for event in state["log"])

        assert revealed(self.panel.wait_state(revealed)), "the first turn was not revealed"

    def bench(self, presses: int, runs: int) -> Iterator[str]:
        """The service installed, then stopped, and `make bench`'s press-to-lamp rows run in its venv ``runs``
        times in a row: each run's table as it ends, headed by its number and the time it began."""
        try:
            self.install()
            self.vm.sh("systemctl stop molebox")
            for n in range(1, runs + 1):
                began = time.strftime('%H:%M', time.gmtime())
                yield f"run {n} of {runs}, {began} UTC:\n" + self.vm.sh(
                    f"cd /tmp && /opt/molebox/venv/bin/python -m companion.bench --press-only --samples {presses}",
                    timeout=3600)
        finally:
            self.vm.close()

    # ---- the steps ----

    def install(self) -> str:
        boot = self.vm.wait_agent() if self.vm.process else (self.vm.start(), self.vm.wait_agent())[1]
        self.vm.sh("mkdir -p /mnt/share && mount -t 9p -o trans=virtio,version=9p2000.L,ro share /mnt/share")
        self.vm.sh("cp -a /mnt/share/molebox /root/molebox && mkdir -p /var/cache/molebox-wheels && "
                   "cp /mnt/share/wheels/* /var/cache/molebox-wheels/ && "
                   "{ [ ! -d /mnt/share/pi ] || cp -a /mnt/share/pi /root/pi; } && umount /mnt/share")
        # No network in the VM: pip takes the host's wheelhouse. The host's settings go in first, as
        # docs/pi.md says (install.sh writes /etc/default/molebox only when there is none).
        self.vm.sh("printf '[global]\\nno-index = true\\nfind-links = /var/cache/molebox-wheels\\n' > /etc/pip.conf")
        self._set_args(SERVICE_ARGS)
        started = time.monotonic()
        out = self.vm.sh("cd /root/molebox && make install 2>&1", timeout=1800)
        took = time.monotonic() - started
        (self.work / "logs" / "install.txt").write_text(out)
        assert "molebox: running" in out, f"make install did not end with the service running:\n{out[-2000:]}"
        python = self.vm.sh("/opt/molebox/venv/bin/python -c 'import sys; print(sys.version.split()[0])'").strip()
        return f"first boot {boot:.0f} s, make install {took:.0f} s, venv Python {python}"

    def ready(self) -> str:
        self.vm.poweroff()
        seconds = self._boot()
        show = systemd_show(self.vm, "ActiveState", "SubState", "Type", "NotifyAccess", "StatusText", "WatchdogUSec",
                            "NRestarts", "ActiveEnterTimestampMonotonic", "InactiveExitTimestampMonotonic", "User")
        active = self.vm.sh("systemctl is-active molebox", check=False).strip()
        assert active == "active", f"systemctl is-active: {active}"
        assert show["Type"] == "notify" and show["NotifyAccess"] == "main", show
        assert show["StatusText"].startswith("serving http://"), f"status line: {show['StatusText']!r}"
        assert show["WatchdogUSec"] in ("10s", str(WATCHDOG_S * 1_000_000)), show["WatchdogUSec"]
        assert show["NRestarts"] == "0" and show["User"] == "molebox", show
        presses = self.vm.sh("journalctl -u molebox -b -o cat --no-pager | grep -F '  presses ' | tail -n 1").strip()
        assert presses.endswith("a panel's at real-time priority 1"), f"the unit's presses: {presses!r}"
        ready, starting = (int(show[f"{p}TimestampMonotonic"]) / 1e6 for p in ("ActiveEnter", "InactiveExit"))
        return (f"power on to READY {seconds:.1f} s: kernel to ExecStart {starting:.1f} s, ExecStart to READY "
                f"{ready - starting:.1f} s; status {show['StatusText']!r}")

    def web(self) -> str:
        status, body = self.panel.request("GET", "/dashboard")
        assert status == 200 and b"molebox" in body, f"/dashboard: {status}"
        config = self.panel.page_config("/")
        assert config["sim"] and config["lan"] and config["displays"] == list(DISPLAYS), config
        state = self.panel.get_json("/api/state")
        assert state["mode"] == "lobby", state
        return f"/dashboard 200, simulator with {config['panels']} panels, displays {', '.join(config['displays'])}"

    def doctor(self) -> str:
        out = self.vm.sh(f"{DOCTOR}; echo \"exit status $?\"", check=False)
        return doctor_verdict(out, PROFILE) + " (a VM has no GPIO chip or I2C bus)"

    def game(self) -> str:
        expected = host_game()
        self.panel.play(LOBBY_TO_WHAKKA)
        self.panel.play(GAME_SCRIPT.read_text())
        state = self.panel.wait_state(lambda s: s.get("log") == expected["log"])
        assert state["mode"] == "play", state
        assert state["log"] == expected["log"], "the game in the VM went otherwise than `molebox sim` on the host"
        assert state["view"] == expected["view"], "the public view differs from `molebox sim` on the host"
        scores = state["view"]["state"]["scores"]
        return f"{decisions(state['log'])} lock-ins, {len(state['log'])} events, scores {scores}: as `molebox sim` on the host"

    def stop(self) -> str:
        from PIL import Image as PilImage

        from companion import scene
        from companion.render import host_pin
        from companion.render.fault import parting
        from wiring.profile import load

        self.vm.sh("systemctl stop molebox", timeout=60)
        try:
            show = systemd_show(self.vm, "ActiveState", "Result", "ExecMainStatus")
            assert show == {"ActiveState": "inactive", "Result": "success", "ExecMainStatus": "0"}, show
            pin = self.vm.sh("molebox pin").split()[-1]
            glass = dict(scene.panels(load(PROFILE)))
            for name in DISPLAYS:
                shown = PilImage.open(io.BytesIO(self.vm.read(f"{FRAMES}/{name}.png"))).convert("1")
                # In LAN mode the table's glass keeps the host PIN stamped in its bottom-right corner.
                parted = host_pin.stamp(parting(), pin, glass[name]) if name == "table" else parting()
                if shown.tobytes() != parted.convert("1").tobytes():
                    shown.save(self.work / "logs" / f"stopped-{name}.png")
                    raise AssertionError(f"{name} does not show the parting screen (it shows logs/stopped-{name}.png)")
        finally:                                    # the next steps need it running, whatever this one found
            self.vm.sh("systemctl start molebox", timeout=120)
            self.panel.wait_ready(timeout=120)
        return f"stopped cleanly (status 0); {', '.join(DISPLAYS)} keep the parting screen"

    def watchdog(self) -> str:
        before = self.panel.get_json("/api/state")
        assert before["mode"] == "play" and before["log"], "no game in progress to resume"
        out = self.vm.sh("pid=$(systemctl show -p MainPID --value molebox); n=$(systemctl show -p NRestarts --value "
                         "molebox); kill -STOP $pid; echo $pid $n $(cut -d' ' -f1 /proc/uptime)")
        pid, restarts, stopped_at = out.split()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            show = systemd_show(self.vm, "MainPID", "NRestarts", "ActiveState", "StatusText",
                                "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic")
            if show["MainPID"] not in ("0", pid) and show["ActiveState"] == "active" and show["StatusText"].startswith("serving"):
                break
            time.sleep(0.5)
        else:
            raise AssertionError(f"not restarted within 120 s: {show}")
        assert int(show["NRestarts"]) == int(restarts) + 1, show
        fired, exited = self._journal_times("Watchdog timeout", "Main process exited")
        fired, exited = fired - float(stopped_at), exited - float(stopped_at)
        restart = int(show["ExecMainStartTimestampMonotonic"]) / 1e6 - float(stopped_at)
        ready = int(show["ActiveEnterTimestampMonotonic"]) / 1e6 - float(stopped_at)
        # The last ping came up to WatchdogSec/2 before the hang; systemd waits RestartSec after the exit (the
        # exit's line may reach the journal a little after it; the emulated machine's timers may fire LATE_S late).
        assert fired <= WATCHDOG_S + LATE_S, f"the watchdog fired {fired:.1f} s after the hang"
        assert RESTART_S - 1 <= restart - exited <= RESTART_S + LATE_S, \
            f"restarted {restart - exited:.1f} s after the exit"
        self.panel.wait_ready(timeout=60)
        after = self.panel.get_json("/api/state")
        assert after["mode"] == "play" and after["log"] == before["log"] and after["view"] == before["view"], \
            "the game did not resume where it was"
        return (f"after SIGSTOP: watchdog fired {fired:.1f} s (WatchdogSec {WATCHDOG_S}), process gone "
                f"{exited - fired:.1f} s later, new one {restart - exited:.1f} s after (RestartSec {RESTART_S}): "
                f"{restart:.1f} s in all, READY at {ready:.1f} s; game resumed at {len(after['log'])} events")

    def _journal_times(self, *phrases: str) -> list[float]:
        """The monotonic time of the last line of the service's journal holding each phrase."""
        lines = self.vm.sh("journalctl -u molebox -b --no-pager -o short-monotonic").splitlines()
        times = []
        for phrase in phrases:
            found = [line for line in lines if phrase in line]
            assert found, f"the journal does not say {phrase!r}"
            times.append(float(found[-1].split("]")[0].strip("[ ")))
        return times

    def fault_at_start(self, fault: str) -> str:
        if self.panel.get_json("/api/state")["mode"] != "play":
            self._start_game()
        self.vm.sh("systemctl stop molebox", timeout=60)
        if fault == "damaged":       # pages 2 and 3 of the journal overwritten: SQLite finds it damaged
            self.vm.sh("dd if=/dev/urandom of=/var/lib/molebox/molebox.db bs=4096 seek=1 count=2 conv=notrunc 2>/dev/null")
        else:
            self.vm.sh("rm /var/lib/molebox/molebox.key")
        self.vm.sh("systemctl start --no-block molebox")
        time.sleep(WATCHDOG_S + RESTART_S + 5)        # long enough for a crash loop to show
        show = systemd_show(self.vm, "ActiveState", "SubState", "NRestarts", "StatusText")
        assert show["ActiveState"] == "active" and show["NRestarts"] == "0", \
            f"the service is {show['ActiveState']}/{show['SubState']} after {show['NRestarts']} restarts"    # counted from the start
        self.panel.wait_ready(timeout=60)
        state = self.panel.get_json("/api/state")
        assert state["mode"] == "lobby", f"not at the lobby: {state['mode']}"
        notes = state.get("notes") or []
        assert notes, "the dashboard shows no note about the game set aside"
        return f"active, no restart, lobby; note: {notes[0]['text'][:90]!r}"

    def power_cuts(self) -> str:
        return self._cut_presses(SERVICE_ARGS, self.cuts, lambda rng, acked: Finger(
            WebHands(self.panel, Stream(self.vm.web_port)), self.panel, rng, acked))

    def _cut_presses(self, args: str, cuts: int, finger, answered_first: bool = False) -> str:
        """``cuts`` power cuts at random moments while ``finger(rng, acked)`` presses (``stop()`` ends it), from a
        fresh journal, the service run with ``args`` and a game that outlasts the cuts; after each, the filesystem
        is clean and every lock-in the seats' lamps acknowledged is still there. ``answered_first``: each cut comes
        after the finger's first acknowledged lock-in of that boot (its ``answered`` event), so that each tests
        some; else the last does if none before it had one (a cut comes 0.3-6 s into the presses, often before the
        first OK is answered under emulation: one cut alone tested none once)."""
        self._fresh_start(f"{args} {CUT_GAME_ARGS}")
        acked: dict[int, int] = {}          # seat: how many of its lock-ins its own lamps acknowledged
        lost = dirty = 0
        for cut in range(cuts + 1):
            if cut:
                self._boot()
            state = self.panel.wait_state(lambda s: s.get("mode") == "play")
            assert state.get("mode") == "play", f"boot {cut}: no game in play: {state.get('mode')}"
            stored = lock_ins(state["log"])
            missing = {seat: n - stored.get(seat, 0) for seat, n in acked.items() if n > stored.get(seat, 0)}
            if missing:
                lost += sum(missing.values())
                print(f"{self.release}: cut {cut}: acknowledged lock-ins lost, by seat: {missing}", file=sys.stderr)
            if cut == cuts:
                break
            self.panel.refresh()
            presses = finger(random.Random(self.rng.random()), acked)
            if answered_first or (cut == cuts - 1 and not acked):      # else a row of few cuts may test none
                assert presses.answered.wait(180), f"boot {cut}: no lock-in acknowledged in 180 s"
            time.sleep(self.rng.uniform(0.3, 6.0))        # the cut comes at a random moment of the play
            self.vm.cut()
            presses.stop()
            clean, report = fsck(self.vm.disk)
            if not clean:
                dirty += 1
                with (self.work / "logs" / "fsck.txt").open("a") as out:
                    out.write(f"== after cut {cut + 1}\n{report}\n")
        total = sum(acked.values())
        assert total > 0, "no lock-in was acknowledged across the cuts"
        assert dirty == 0, f"e2fsck found damage after {dirty} of {cuts} cuts"
        assert lost == 0, f"{lost} acknowledged lock-ins lost"
        boots = sorted(self.boot_to_ready[-cuts:])
        return (f"{cuts}/{cuts} survived, fsck clean after each; {total} lock-ins acknowledged on their "
                f"seats' lamps, {lost} lost; boot to READY median {boots[len(boots) // 2]:.1f} s")

    # ---- the gpio backend (gpio.py) ----

    @property
    def gpio_cuts(self) -> int:
        """The gpio rows' power cuts: one for five of the sim's (each is a boot: the sim's rows count them)."""
        return max(1, self.cuts // 5)

    def gpio_ready(self) -> str:
        self.header = Header(self.vm)
        self.header.install("/root/pi")
        started = time.monotonic()
        self._fresh_start(gpio.ARGS)
        took = time.monotonic() - started
        show = systemd_show(self.vm, "ActiveState", "StatusText", "NRestarts")
        assert show["ActiveState"] == "active" and show["NRestarts"] == "0", show
        assert show["StatusText"].startswith("serving http://"), f"status line: {show['StatusText']!r}"
        opened = self.vm.sh("journalctl -u molebox -b -o cat --no-pager | grep -F '  presses ' | tail -n 1").strip()
        assert opened.endswith("a panel's at real-time priority 1"), f"the unit's presses: {opened!r}"
        out = self.vm.sh(f"{DOCTOR}; echo \"exit status $?\"", check=False)
        verdict = doctor_verdict(out, gpio.PROFILE)
        found = {what for what in ("GPIO", "pin factory") if re.search(rf"^  ok\s+{what}\b", out, re.M)}
        assert found == {"GPIO", "pin factory"} and "lgpio (lgpio imports)" in out, f"doctor:\n{out}"
        chip = self.vm.sh("ls -l /dev/gpiochip0").split()
        return (f"{gpio.ARGS!r}: READY {took:.1f} s after the restart, presses at real-time priority 1; "
                f"/dev/gpiochip0 {chip[0]} {chip[2]}:{chip[3]}; doctor {verdict}, GPIO and lgpio ok")

    def gpio_allowed(self) -> str:
        unit = (ROOT / "systemd/molebox.service").read_text()
        allowed = [line.split("=", 1)[1] for line in unit.splitlines() if line.startswith("DeviceAllow=")]
        allowed.append("char-rtc r")        # ProtectClock=yes's own: the clock's device, read-only
        running = [line.split("=", 1)[1] for line in self.vm.sh("systemctl show -p DeviceAllow molebox").splitlines()]
        show = systemd_show(self.vm, "DevicePolicy", "PrivateDevices", "MainPID")
        assert show["DevicePolicy"] == "closed" and show["PrivateDevices"] == "no", show
        assert sorted(running) == sorted(allowed), f"DeviceAllow {running}, the unit's {allowed}"
        sysusers = (ROOT / "systemd/molebox.sysusers").read_text().splitlines()
        groups = {"molebox"} | {line.split()[2] for line in sysusers if line.startswith("m molebox ")}
        status = f"/proc/{show['MainPID']}/status"       # its group and supplementary groups, by name
        held = set(self.vm.sh(f"for g in $(awk '/^Gid:/ {{print $2}} /^Groups:/ {{$1=\"\"; print}}' {status}); "
                              "do getent group $g | cut -d: -f1; done").split())
        assert held == groups, f"the service holds the groups {sorted(held)}, install.sh gives {sorted(groups)}"
        dropins = self.vm.sh("cat /etc/systemd/system/molebox.service.d/*.conf | grep -v '^#'").split()
        assert dropins == ["[Service]", f"BindReadOnlyPaths={gpio.LIB}/cpuinfo:/proc/cpuinfo"], dropins
        return (f"DevicePolicy=closed, DeviceAllow the unit's {len(allowed) - 1} lines and ProtectClock's char-rtc r; "
                f"the process in "
                f"{', '.join(sorted(held))}; the test's drop-in binds /proc/cpuinfo only")

    def _gpio_press(self, n: int, seat: int, control: str, wanted: gpio.Shown, dark: tuple[str, ...] = ()) -> float:
        """Press ``n`` of the gpio rows' script on its line; the seconds until the lamps and the displays (but the
        ``dark`` ones) showed what the sim's did."""
        self.header.press(seat, control)
        started = time.monotonic()
        seen, images = self.header.wait_shown(wanted, dark)
        if seen != gpio.Shown(wanted.lamps, {name: wanted.frames[name] for name in seen.frames}):
            for name, image in images.items():
                image.save(self.work / "logs" / f"gpio-press{n}-{name}.png")
            differ = [name for name in seen.frames if seen.frames[name] != wanted.frames[name]]
            raise AssertionError(f"press {n} ({seat} {control}): the lamps show {seen.lamps}, the sim's "
                                 f"{wanted.lamps}; displays unlike the sim's: {differ or 'none'} "
                                 f"(logs/gpio-press{n}-*.png)")
        return time.monotonic() - started

    def gpio_play(self) -> str:
        answers, logs = self.sim_answer()
        script = gpio_script()[:-1]             # from the lobby gpio_ready started afresh: nothing pressed since
        waited = [self._gpio_press(n, seat, control, wanted)
                  for n, ((seat, control), wanted) in enumerate(zip(script, answers), 1)]
        log = logs[len(script) - 1]
        state = self.panel.wait_state(lambda s: s["log"] == log)
        assert state["log"] == log, "the game on the lines went otherwise than the sim's for the same presses"
        return (f"{len(script)} presses; after each the lamps (read from the lines) and the displays (read from "
                f"I2C1) as the sim's, within {max(waited):.1f} s; {decisions(log)} lock-ins, the turn revealed")

    def gpio_unplugged(self) -> str:
        answers, logs = self.sim_answer()
        script = gpio_script()
        (seat, control), name = script[-1], f"seat{script[-1][0]}"
        self.header.plug(name, False)
        try:
            went_on = self._gpio_press(len(script), seat, control, answers[-1], dark=(name,))
            lost = self.vm.sh("journalctl -u molebox -b -o cat --no-pager | grep -F 'display lost' | tail -n 1",
                              check=False).strip()
            assert lost, "the service's journal says nothing of the display it lost"
        finally:
            self.header.plug(name, True)
        started = time.monotonic()
        seen, _ = self.header.wait_shown(answers[-1])
        assert seen == answers[-1], f"{name}'s display plugged back does not show the game as the sim's"
        back = time.monotonic() - started
        assert self.panel.wait_state(lambda s: s["log"] == logs[-1])["log"] == logs[-1], "the game went otherwise"
        return (f"{name} unplugged, then '{seat} {control}': lamps and the other display as the sim's within "
                f"{went_on:.1f} s; the journal: {lost!r}; plugged back, it showed the sim's frame again within "
                f"{back:.1f} s")

    def gpio_power_cuts(self) -> str:
        return self._cut_presses(gpio.ARGS, self.gpio_cuts,
                                 lambda rng, acked: Finger(PinHands(self.header, self.panel), self.panel, rng, acked),
                                 answered_first=True)

    def uninstall(self) -> str:
        self.vm.sh("cd /root/molebox && make uninstall", timeout=300)
        gone = self.vm.sh("systemctl cat molebox >/dev/null 2>&1 && echo present; "
                          "ls /etc/systemd/system/molebox.service /opt/molebox /etc/default/molebox 2>/dev/null; "
                          "systemctl is-active molebox", check=False).split()
        assert gone == ["inactive"], f"left behind: {gone}"
        size = int(self.vm.sh("stat -c %s /var/lib/molebox/molebox.db"))
        self.vm.sh("id molebox >/dev/null")
        self.vm.poweroff()
        return f"unit, venv and settings gone; journal kept ({size // 1024} KiB) and the molebox user"


def doctor_verdict(out: str, profile: str) -> str:
    """What ``molebox doctor; echo "exit status $?"`` printed, checked: no traceback, its exit status as its count."""
    assert "Traceback" not in out, out
    assert out.startswith(f"molebox doctor: {profile}"), out
    status = int(out.rsplit("exit status ", 1)[1])
    problems = re.search(r"^(\d+) problems? to fix", out, re.M)
    assert status in (0, 1) and (status == 0) == (problems is None), out
    return f"exit {status}: {problems.group(0) if problems else 'all ok'}"


def gpio_script() -> list[tuple[int, str]]:
    """The gpio rows' presses: seat 1 starts Whakka Mole for two from the lobby, both play its first turn, and seat 2
    makes its first pick of the second with its display unplugged."""
    return gpio.presses(LOBBY_TO_WHAKKA + GAME_SCRIPT.read_text().split("# turn 2")[0] + UNPLUGGED)


def host_game() -> dict:
    """The state ``molebox sim`` ends the system test's game in, on this host: what every guest must match."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([sys.executable, "-m", "companion.cli", "sim", "--game", "whakka-mole", "--seats", "2",
                        "--script", str(GAME_SCRIPT), "--out", out], check=True, capture_output=True, cwd=ROOT)
        return json.loads((Path(out) / "state.json").read_text())


def _copy_checkout(dest: Path) -> None:
    """The checkout as a contributor has it (tracked and new files, not what .gitignore leaves out)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
