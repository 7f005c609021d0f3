"""The Pi's header in the system test's VM: gpio-sim lines 0-27 standing for GPIO0-27, and the displays on
I2C1 (i2c-oled-sim.c). Test only.

    python3 header.py chip             make the chip (/dev/gpiochip0), every line pulled up as a button at rest
                                       is, and wait until udev has given it and the I2C bus their groups
    python3 header.py press N [MS]     a finger on GPIO N's button: pulled down, up again MS (50) ms later
    python3 header.py look N N ...     what an eye sees, as JSON: each GPIO's lamp over 1.2 s (on, off, dim, blink,
                                       fast), then each display's RAM (1024 bytes, hex) and whether it is on
    python3 header.py plug 3d N|Y      unplug the display at 0x3D, or plug it back

Standard library only: it runs on the guest's own python3.
"""
import json
import os
import subprocess
import sys
import time

CONFIG = "/sys/kernel/config/gpio-sim/pi"      # the chip's configfs entry (gpio-sim's own interface)
DISPLAYS = ("3c", "3d")
LINES = 28                                      # GPIO0-27, a Pi's header
LOOK_S = 1.2                                    # longer than a slow blink's period (0.8 s)
BLINK_S, FAST_S = 0.25, 0.04                    # a lit run this long: a slow blink (0.4 s), a fast one (0.08 s);
                                                # shorter, it is PWM's dim (lgpio: 100 Hz, 12 %)


def read(path):
    with open(path) as f:
        return f.read().strip()


def line(n):
    """GPIO n's sysfs folder: its value, and the pull that a button (or its absence) puts on it."""
    return f"/sys/devices/platform/{read(CONFIG + '/dev_name')}/{read(CONFIG + '/bank0/chip_name')}/sim_gpio{n}"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def mounted(path, kind):
    """``path`` with its filesystem: the test image mounts neither configfs (a module in Debian's kernels, loaded
    with gpio-sim after boot) nor debugfs."""
    if not os.path.ismount(path):
        subprocess.run(["mount", "-t", kind, kind, path], check=True)
    return path


def chip():
    mounted("/sys/kernel/config", "configfs")
    os.makedirs(CONFIG + "/bank0", exist_ok=True)
    write(CONFIG + "/bank0/num_lines", str(LINES))
    write(CONFIG + "/live", "1")
    for n in range(LINES):
        write(line(n) + "/pull", "pull-up")
    subprocess.run(["udevadm", "settle"], check=True)
    print(read(CONFIG + "/bank0/chip_name"))


def press(n, ms=50):
    write(line(n) + "/pull", "pull-down")
    time.sleep(ms / 1000)
    write(line(n) + "/pull", "pull-up")


def seen(times, lit):
    """What a lamp showed, from its samples: steady, or by its longest lit run."""
    if all(lit) or not any(lit):
        return "on" if lit[0] else "off"
    longest, since = 0.0, None
    for at, on in zip(times + [times[-1]], lit + [False]):
        if on and since is None:
            since = at
        elif not on and since is not None:
            longest, since = max(longest, at - since), None
    return "blink" if longest >= BLINK_S else "fast" if longest >= FAST_S else "dim"


def oleds():
    """i2c-oled-sim's debugfs folder."""
    return mounted("/sys/kernel/debug", "debugfs") + "/i2c-oled-sim/"


def plug(address, present):
    write(oleds() + address + "-present", present)


def look(*numbers):
    fds = [os.open(line(n) + "/value", os.O_RDONLY) for n in numbers]
    times, samples = [], []
    end = time.monotonic() + LOOK_S
    while time.monotonic() < end:
        times.append(time.monotonic())
        samples.append([os.pread(fd, 1, 0) == b"1" for fd in fds])
        time.sleep(0.002)
    lamps = {n: seen(times, [s[i] for s in samples]) for i, n in enumerate(numbers)}
    folder = oleds()
    shown = {}
    for address in DISPLAYS:
        with open(folder + address, "rb") as f:
            shown[address] = {"ram": f.read().hex(), "on": read(folder + address + "-on") == "1"}
    print(json.dumps({"lamps": lamps, "displays": shown}))


if __name__ == "__main__":
    command, *words = sys.argv[1:]
    if command == "plug":
        plug(*words)
    else:
        {"chip": chip, "press": press, "look": look}[command](*map(int, words))
