"""The service's units, checked as CI checks them: systemd-analyze verify and security, sysusers.d
applied to a scratch root, and install.sh run twice and undone against a scratch root: its profiles in
/etc/molebox, the check before a restart, what it keeps on uninstall."""
from __future__ import annotations

import filecmp
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).parents[2] / "systemd"
PROFILES = Path(__file__).parents[2] / "wiring/profiles"
MOLEBOX = Path(sys.executable).parent / "molebox"        # the test venv's, standing in for /opt/molebox's
UNIT = SYSTEMD / "molebox.service"
SYSTEM_UNITS = next((p for p in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")) if p.is_dir()), None)
MAX_EXPOSURE = 2.5

needs_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None or SYSTEM_UNITS is None,
                                   reason="systemd-analyze is not installed (apt-get install systemd; CI has it)")
needs_sysusers = pytest.mark.skipif(shutil.which("systemd-sysusers") is None,
                                    reason="systemd-sysusers is not installed (apt-get install systemd; CI has it)")


def run(*cmd: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, **kw)


def verify(unit_text: str, root: Path) -> str:
    """Everything ``systemd-analyze verify`` says about the unit in a root holding what it refers to."""
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/systemd/system/molebox.service").write_text(unit_text)
    program = Path(re.search(r"^ExecStart=(\S+)", unit_text, re.M).group(1))
    (root / program.relative_to("/")).parent.mkdir(parents=True)
    (root / program.relative_to("/")).write_text("#!/bin/sh\n")
    (root / program.relative_to("/")).chmod(0o755)
    out = run("systemd-analyze", "verify", f"--root={root}", "molebox.service")
    return (out.stdout + out.stderr).strip() + ("" if out.returncode == 0 else f"\nexit status {out.returncode}")


@needs_analyze
def test_systemd_analyze_verify_has_nothing_to_say(tmp_path):
    assert verify(UNIT.read_text(), tmp_path) == ""


@needs_analyze
def test_the_verify_check_fails_on_an_unknown_key(tmp_path):
    # systemd-analyze verify exits 0 on unknown keys: only its output tells
    said = verify(UNIT.read_text().replace("[Service]\n", "[Service]\nWatchDogSec=10\n"), tmp_path)
    assert "Unknown key 'WatchDogSec'" in said


@needs_analyze
def test_security_exposure_is_2_5_or_better():
    out = run("systemd-analyze", "security", "--offline=true", "--no-pager", str(UNIT))
    found = re.search(r"Overall exposure level for molebox\.service: (\d+\.\d)", out.stdout)
    assert found, out.stdout + out.stderr
    assert float(found.group(1)) <= MAX_EXPOSURE


def test_the_hardening_leaves_gpio_i2c_spi_and_serial_reachable():
    lines = UNIT.read_text().splitlines()
    allowed = {line.split("=", 1)[1] for line in lines if line.startswith("DeviceAllow=")}
    assert {"char-gpiochip rw", "char-i2c rw", "char-spi rw", "char-ttyACM rw", "char-ttyAMA rw"} <= allowed
    assert "PrivateDevices=no" in lines and "PrivateUsers=yes" not in lines   # group access needs real groups


PI_GROUP = "root:x:0:\ndialout:x:20:pi\ngpio:x:997:pi\ni2c:x:998:pi\nspi:x:999:pi\npi:x:1000:\n"
PI_PASSWD = "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n"


def pi_root(root: Path) -> Path:
    (root / "etc").mkdir(parents=True)
    (root / "etc/group").write_text(PI_GROUP)
    (root / "etc/passwd").write_text(PI_PASSWD)
    return root


def groups(root: Path) -> dict[str, tuple[str, list[str]]]:
    out = {}
    for line in (root / "etc/group").read_text().splitlines():
        name, _, gid, members = line.split(":")
        out[name] = (gid, members.split(",") if members else [])
    return out


@needs_sysusers
def test_sysusers_makes_a_locked_system_user_in_the_device_groups(tmp_path):
    root = pi_root(tmp_path)
    out = run("systemd-sysusers", f"--root={root}", str(SYSTEMD / "molebox.sysusers"))
    assert out.returncode == 0, out.stderr
    user = next(line for line in (root / "etc/passwd").read_text().splitlines() if line.startswith("molebox:"))
    _, _, uid, _, _, home, shell = user.split(":")
    assert int(uid) < 1000 and home == "/var/lib/molebox" and shell.endswith("nologin")
    assert "molebox:!" in (root / "etc/shadow").read_text()      # no password: nobody logs in as it
    found = groups(root)
    for name, gid in (("dialout", "20"), ("gpio", "997"), ("i2c", "998"), ("spi", "999")):
        assert (found[name][0], sorted(found[name][1])) == (gid, ["molebox", "pi"]), name   # joined, kept
    before = (root / "etc/group").read_text()
    run("systemd-sysusers", f"--root={root}", str(SYSTEMD / "molebox.sysusers"))
    assert (root / "etc/group").read_text() == before


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def install_with(tmp_path: Path, defaults: str) -> subprocess.CompletedProcess:
    """install.sh on a Pi whose /etc/default/molebox the host already wrote so."""
    root = pi_root(tmp_path)
    (root / "etc/default").mkdir(parents=True)
    (root / "etc/default/molebox").write_text(defaults)
    return install(root)


def install(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ROOT": str(root), "MOLEBOX": str(MOLEBOX)}
    return run("bash", str(SYSTEMD / "install.sh"), *args, env=env)


@needs_sysusers
def test_install_is_idempotent_and_uninstall_undoes_it(tmp_path):
    root = pi_root(tmp_path)
    config = root / "boot/firmware/config.txt"
    config.parent.mkdir(parents=True)
    config.write_text("[all]\ndtparam=audio=on\ndtoverlay=i2c-mux,pca9548,addr=0x70\n\n[pi4]\narm_boost=1\n")
    original = config.read_text()

    first = install(root)
    assert first.returncode == 0, first.stderr
    assert "reboot" in first.stdout
    added = config.read_text()[len(original):].splitlines()
    # After the [pi4] section it ends in, and after the mux's overlay line: dtparams there would be looked
    # up in the overlay first, so `dtoverlay=` ends its scope before the Pi's own.
    assert added[1:5] == ["[all]", "dtoverlay=", "dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"]
    assert filecmp.cmp(root / "etc/systemd/system/molebox.service", UNIT, shallow=False)
    assert (root / "etc/modules-load.d/molebox.conf").read_text() == "i2c-dev\n"
    assert "molebox" in groups(root)["i2c"][1]
    (root / "etc/default/molebox").write_text('MOLEBOX_ARGS="--backend ioboard"\n')   # the host's own choice

    installed = snapshot(root)
    again = install(root)
    assert again.returncode == 0, again.stderr
    assert snapshot(root) == installed and "reboot" not in again.stdout

    gone = install(root, "--uninstall")
    assert gone.returncode == 0, gone.stderr
    assert config.read_text() == original
    left = {p for p in snapshot(root) if not p.startswith("etc/") or p.split("/")[1] in ("passwd", "group")}
    assert left == {"boot/firmware/config.txt", "etc/passwd", "etc/group"}
    assert not (root / "etc/molebox").exists() and not (root / "usr/local/bin/molebox").is_symlink()


@needs_sysusers
def test_profiles_go_to_etc_molebox_once_and_the_service_runs_one_from_there(tmp_path):
    root = pi_root(tmp_path)
    first = install(root)
    assert first.returncode == 0, first.stderr
    etc = root / "etc/molebox"
    assert sorted(p.name for p in etc.iterdir()) == ["gpio-2-mux.toml", "gpio-2.toml", "ioboard-8-two-buses.toml",
                                                     "ioboard-8.toml"]
    assert all(filecmp.cmp(p, PROFILES / p.name, shallow=False) for p in etc.iterdir())
    assert 'MOLEBOX_ARGS="--backend gpio --wiring /etc/molebox/gpio-2.toml --listen 0.0.0.0"' in \
        (root / "etc/default/molebox").read_text()
    assert f"{etc}/gpio-2.toml: ok: Two seats on GPIO" in first.stdout          # checked before the restart
    assert "dashboard: http://" in first.stdout and ".local:8080/dashboard" in first.stdout
    assert os.readlink(root / "usr/local/bin/molebox") == "/opt/molebox/venv/bin/molebox"

    mine = (etc / "gpio-2-mux.toml").read_text().replace("buses = [11, 12]", "buses = [21, 22]")
    (etc / "gpio-2-mux.toml").write_text(mine)                                 # as doctor numbered the channels
    assert install(root).returncode == 0
    assert (etc / "gpio-2-mux.toml").read_text() == mine                       # never overwritten

    gone = install(root, "--uninstall")
    assert "kept /etc/molebox/gpio-2-mux.toml: you edited it" in gone.stdout
    assert [p.name for p in etc.iterdir()] == ["gpio-2-mux.toml"]


@needs_sysusers
def test_a_profile_with_problems_stops_the_install_before_the_restart(tmp_path):
    root = pi_root(tmp_path)
    assert install(root).returncode == 0
    profile = root / "etc/molebox/gpio-2.toml"
    profile.write_text(profile.read_text().replace("ok = 11", "ok = 16"))      # seat 2's OK on seat 1's pin
    again = install(root)
    assert again.returncode == 1
    line = next(n for n, text in enumerate(profile.read_text().splitlines(), 1) if text == "ok = 16" and n > 20)
    assert f"{profile}:{line}: seats[2].ok = 16: GPIO16 is already the seat 1 OK" in again.stdout
    assert again.stdout.rstrip().endswith("fix /etc/molebox/gpio-2.toml (each problem above has its line and fix), "
                                          "then run this again; the service was not restarted")


@needs_sysusers
def test_the_host_may_slow_the_i2c_bus_for_long_cables(tmp_path):
    config = tmp_path / "boot/firmware/config.txt"
    config.parent.mkdir(parents=True)
    config.write_text("[all]\n")
    done = install_with(tmp_path, 'MOLEBOX_ARGS="--wiring /etc/molebox/gpio-2.toml"\nI2C_BAUDRATE=100000\n')
    assert done.returncode == 0, done.stdout + done.stderr
    assert "dtparam=i2c_arm_baudrate=100000" in config.read_text().splitlines()
    assert "I2C switched on at 100 kHz" in done.stdout


@needs_sysusers
def test_a_profile_in_the_hosts_home_is_refused_the_service_cannot_read_it(tmp_path):
    refused = install_with(tmp_path, 'MOLEBOX_ARGS="--backend gpio --wiring /home/pi/box.toml"\n')
    assert refused.returncode == 1
    assert "cannot read (ProtectHome=yes hides /home and /root from it): copy it to /etc/molebox/" in refused.stdout


@needs_sysusers
def test_the_dashboard_address_is_the_one_the_service_listens_on(tmp_path):
    done = install_with(tmp_path, 'MOLEBOX_ARGS="--backend ioboard --port 8090"\n')
    assert done.returncode == 0, done.stdout + done.stderr
    assert "wiring/profiles/ioboard-8.toml: ok: Eight seats" in done.stdout         # the built-in, checked
    assert "the service runs the built-in ioboard-8" in done.stdout
    assert "dashboard: http://127.0.0.1:8090/dashboard on this Pi only (--listen 127.0.0.1" in done.stdout


def test_the_unit_limits_open_files_to_what_the_flood_test_holds_against():
    from tests.web.test_crowd import BOX_FILES

    assert re.search(r"^LimitNOFILE=(\d+)$", UNIT.read_text(), re.M).group(1) == str(BOX_FILES)


def test_the_unit_lets_a_panels_presses_run_at_real_time_priority_1_and_no_higher():
    from companion.hardware.priority import PRESS_PRIORITY

    unit = UNIT.read_text()
    assert re.search(r"^LimitRTPRIO=(\d+)$", unit, re.M).group(1) == str(PRESS_PRIORITY)
    assert not re.search(r"^RestrictRealtime=yes$", unit, re.M), "it refuses SCHED_FIFO whatever the limit"
