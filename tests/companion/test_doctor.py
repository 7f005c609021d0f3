"""``molebox doctor`` on a fake Pi: a scratch /dev and /sys, a group database, and OLEDs on fake I2C buses.

Every problem it can find is planted one at a time; each must be named with its fix.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from serial import SerialException

from companion import doctor
from companion.hardware.iolink import UPDATE
from companion.render.fonts import CHAIN
from firmware import protocol
from wiring.profile import load

from companion.hardware.fake.i2c import FakeBus
from companion.hardware.fake.oled import FakeOLED


class FakePi(doctor.System):
    """A Raspberry Pi as the doctor sees it, healthy until a test spoils something."""

    def __init__(self, root: Path, user: str = "pi"):
        super().__init__(root)
        self.name = user
        self.mine = {"pi", "gpio", "i2c", "spi", "dialout"}
        self.known = {"pi", "gpio", "i2c", "spi", "dialout", "molebox"}
        self.member_lists: dict[str, list[str]] = {}
        self.locked: set[str] = set()
        self.libraries = {"lgpio"}
        self.board: tuple | Exception = protocol.parse_welcome(protocol.welcome(1, 0, 7, bytes(8), bytes(48)))
        self.buses = {1: FakeBus({0x3C: FakeOLED(), 0x3D: FakeOLED("sh1106"), 0x70: FakeOLED()}),
                      **{n: FakeBus({0x3C: FakeOLED()}) for n in range(11, 19)}}     # a mux's 8 channels
        self.layout = True
        for node in ("dev/gpiochip0", "dev/i2c-1", *(f"dev/i2c-{n}" for n in range(11, 19)), "dev/ttyACM0",
                     *(str(face) for face in CHAIN)):
            self.path(node).parent.mkdir(parents=True, exist_ok=True)
            self.path(node).touch()
        self.speed(400_000)

    def speed(self, hz: int) -> None:
        node = self.path("/sys/class/i2c-adapter/i2c-1/of_node/clock-frequency")
        node.parent.mkdir(parents=True, exist_ok=True)
        node.write_bytes(hz.to_bytes(4, "big"))

    def user(self):
        return self.name

    def user_exists(self, name):
        return name in ("pi", "molebox", "root")

    def members(self, group):
        return self.member_lists.get(group, [])

    def groups(self):
        return self.mine

    def group_exists(self, name):
        return name in self.known

    def usable(self, path):
        return path.exists() and path.name not in self.locked

    def library(self, name):
        return name in self.libraries

    def raqm(self):
        return self.layout

    def greet(self, port, baud):
        if isinstance(self.board, Exception):
            raise self.board
        return self.board

    def answers(self, bus, address):
        try:
            self.buses[bus].write_quick(address)
        except (KeyError, OSError):
            return False
        return True


@pytest.fixture
def pi(tmp_path, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    return FakePi(tmp_path)


def problems(profile: str, system) -> dict[str, tuple[str, str]]:
    return {f.what: (f.detail, f.fix) for f in doctor.examine(load(profile), system) if not f.ok}


@pytest.mark.parametrize("profile", ["gpio-2", "gpio-2-mux"])
def test_a_healthy_pi_has_nothing_to_fix(pi, profile):
    findings = doctor.examine(load(profile), pi)
    assert all(f.ok for f in findings)
    assert doctor.report(load(profile), "pi", findings).endswith("all is well")
    assert {f.what for f in findings} >= {"letters", "group gpio", "group i2c", "GPIO", "pin factory", "I2C1",
                                          "I2C1 speed",
                                          "seat1 display", "seat2 display"}


def spoil_group(pi):
    pi.mine.discard("i2c")


def spoil_group_missing(pi):
    pi.mine.discard("gpio")
    pi.known.discard("gpio")


def spoil_i2c_off(pi):
    pi.path("/dev/i2c-1").unlink()


def spoil_i2c_locked(pi):
    pi.locked.add("i2c-1")


def spoil_slow_bus(pi):
    pi.speed(100_000)


def spoil_gpiochip(pi):
    pi.path("/dev/gpiochip0").unlink()


def spoil_library(pi):
    pi.libraries.clear()


def spoil_fonts(pi):
    pi.path(str(CHAIN[2])).unlink()


def spoil_layout(pi):
    pi.layout = False


def spoil_missing(pi):
    pi.buses[1].modules.pop(0x3C)


def spoil_unplugged(pi):
    pi.buses[1].unplug(0x3D)


SPOILS = [
    (spoil_group, "group i2c", "pi is not in it", "sudo usermod -aG i2c pi"),
    (spoil_group_missing, "group gpio", "no such group", "Raspberry Pi OS"),
    (spoil_i2c_off, "I2C1", "no /dev/i2c-1", "dtparam=i2c_arm=on"),
    (spoil_i2c_locked, "I2C1", "i2c-1 is not readable and writable for pi", "join the i2c group"),
    (spoil_slow_bus, "I2C1 speed", "100 kHz", "dtparam=i2c_arm_baudrate=400000"),
    (spoil_gpiochip, "GPIO", "no /dev/gpiochip0", "not a Raspberry Pi"),
    (spoil_library, "pin factory", "lgpio: lgpio is not importable", "sudo apt install python3-lgpio"),
    (spoil_fonts, "letters", "missing: fonts-wqy-microhei", "sudo apt install fonts-wqy-microhei"),
    (spoil_layout, "letters", "missing: libfribidi0", "sudo apt install libfribidi0"),
    (spoil_missing, "seat1 display", "nothing answers: ssd1306 at 0x3C on I2C1", "SDA to GPIO2 (pin 3)"),
    (spoil_unplugged, "seat2 display", "nothing answers: ssd1306 at 0x3D on I2C1", "SDA to GPIO2 (pin 3)"),
]


@pytest.mark.parametrize("spoil, what, detail, fix", SPOILS, ids=[s[0].__name__ for s in SPOILS])
def test_each_problem_is_named_with_its_fix(pi, spoil, what, detail, fix):
    spoil(pi)
    found = problems("gpio-2", pi)
    assert list(found) == [what]
    assert detail in found[what][0] and fix in found[what][1]


def test_the_mux_its_channels_and_their_displays(pi):
    pi.path("/dev/i2c-12").unlink()
    pi.buses[11].modules[0x3D] = pi.buses[11].modules.pop(0x3C)
    found = problems("gpio-2-mux", pi)
    assert set(found) == {"I2C12", "seat1 display"}
    assert "dtoverlay=i2c-mux,pca9548,addr=0x70" in found["I2C12"][1]
    assert "set address = 0x3D for seat1" in found["seat1 display"][1]
    pi.buses[1].modules.pop(0x70)
    assert "A0-A2" in problems("gpio-2-mux", pi)["mux"][1]


def test_the_io_board_port_and_its_group(pi, tmp_path):
    profile = tmp_path / "board.toml"
    profile.write_text(load("ioboard-8").text.replace('usb_id = "2E8A:0005"', 'port = "/dev/ttyACM0"'))
    assert problems(str(profile), pi) == {}
    pi.locked.add("ttyACM0")
    pi.mine.discard("dialout")
    found = problems(str(profile), pi)
    assert "sudo usermod -aG dialout pi" in found["group dialout"][1]
    assert "join the dialout group" in found["IO board"][1]
    pi.path("/dev/ttyACM0").unlink()
    assert "set port" in problems(str(profile), pi)["IO board"][1]


def test_run_with_sudo_it_checks_the_service_user(pi):
    pi.name = "root"
    pi.member_lists = {"gpio": ["molebox"], "i2c": []}
    found = problems("gpio-2", pi)
    assert list(found) == ["group i2c"] and "sudo usermod -aG i2c molebox" in found["group i2c"][1]


def test_the_profile_is_the_installed_services_unless_told(pi):
    assert doctor.service_wiring(pi) is None
    pi.path("/etc/default").mkdir(parents=True)
    pi.path("/etc/default/molebox").write_text('# comment\nMOLEBOX_ARGS="--backend ioboard --wiring ioboard-8"\n')
    assert doctor.service_wiring(pi) == "ioboard-8"


def two_buses(pi: FakePi, hz: int = 400_000) -> FakePi:
    """The Pi wired as ioboard-8-two-buses: a second mux on I2C0, its channels 19-22."""
    pi.buses[0] = FakeBus({0x70: FakeOLED()})
    pi.buses.update({n: FakeBus({0x3C: FakeOLED()}) for n in range(19, 23)})
    for node in ("dev/i2c-0", *(f"dev/i2c-{n}" for n in range(19, 23))):
        pi.path(node).touch()
    # I2C0's speed sits on the controller behind the Pi's pin mux, found by its device-tree label
    base = pi.path("/sys/firmware/devicetree/base")
    (base / "__symbols__").mkdir(parents=True, exist_ok=True)
    (base / "__symbols__/i2c0if").write_bytes(b"/soc/i2c@7e205000\0")
    (base / "soc/i2c@7e205000").mkdir(parents=True, exist_ok=True)
    (base / "soc/i2c@7e205000/clock-frequency").write_bytes(hz.to_bytes(4, "big"))
    return pi


def test_two_muxes_each_answers_on_its_own_bus(pi, tmp_path):
    profile = tmp_path / "two.toml"
    profile.write_text(load("ioboard-8-two-buses").text.replace('usb_id = "2E8A:0005"', 'port = "/dev/ttyACM0"'))
    findings = {f.what: f for f in doctor.examine(load(str(profile)), two_buses(pi))}
    assert [w for w, f in findings.items() if not f.ok] == []
    assert findings["mux I2C1"].detail == "TCA9548A at 0x70 on I2C1"
    assert findings["mux I2C0"].detail == "TCA9548A at 0x70 on I2C0"
    assert findings["I2C0 speed"].detail == "400 kHz" and findings["I2C1 speed"].detail == "400 kHz"
    assert findings["seat5 display"].detail == "ssd1306 at 0x3C on I2C19"


def test_the_second_bus_and_its_mux_named_with_their_config_lines(pi, tmp_path):
    profile = tmp_path / "two.toml"
    profile.write_text(load("ioboard-8-two-buses").text.replace('usb_id = "2E8A:0005"', 'port = "/dev/ttyACM0"'))
    two_buses(pi, hz=100_000)
    pi.path("/dev/i2c-20").unlink()
    pi.buses[0].modules.pop(0x70)
    found = problems(str(profile), pi)
    assert set(found) == {"I2C0 speed", "I2C20", "mux I2C0"}
    assert "dtparam=i2c_vc_baudrate=400000" in found["I2C0 speed"][1]
    assert "dtoverlay=i2c-mux,pca9548,addr=0x70,i2c0 in /boot/firmware/config.txt" in found["I2C20"][1]
    assert "SDA (GPIO0), SCL (GPIO1)" in found["mux I2C0"][1]
    pi.path("/dev/i2c-0").unlink()
    found = problems(str(profile), pi)
    assert "dtparam=i2c_vc=on and dtparam=i2c_vc_baudrate=400000" in found["I2C0"][1]
    assert "mux I2C0" not in found and "I2C0 speed" not in found        # nothing to probe without the bus


def test_the_io_board_s_firmware_build_with_the_update_command(pi, tmp_path):
    profile = tmp_path / "board.toml"
    profile.write_text(load("ioboard-8").text.replace('usb_id = "2E8A:0005"', 'port = "/dev/ttyACM0"'))
    assert problems(str(profile), pi) == {}
    pi.board = pi.board[:2] + (0x123456,) + pi.board[3:]      # a board of another firmware build
    detail, fix = problems(str(profile), pi)["IO board code"]
    assert detail == f"firmware build 123456, ws2812 lamps, 8 seats; this molebox's build is {protocol.BUILD:06x}"
    assert fix == UPDATE
    pi.board = SerialException("[Errno 11] Could not exclusively lock port /dev/ttyACM0")
    assert problems(str(profile), pi) == {}                     # the service has it: its notes say the rest
    pi.board = TimeoutError("no answer")
    assert "no answer to a HELLO within 1 s" in problems(str(profile), pi)["IO board code"][0]
