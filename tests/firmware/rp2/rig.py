"""The test's side of the simulated Pico, under the MicroPython unix port (machine.py, neopixel.py, time.py use it).

The test (tests/firmware/pico.py) talks to it over two pipes, a line a command:

    held 1 0 0 0 0 0 0 0    the buttons now held, a bit mask per seat (bit i: hole1..hole5, ok)
    jump 86400000 host      move the clock on the moment the host's next bytes are waiting
    jump 1500 quiet         ...or the moment none are: the board hears nothing across the jump
    rx 0                    cut the UART's RX line (rx 1: mend it); what the host sends is lost

and hears back ``scanned`` after the first full matrix scan that saw a ``held``, ``jumped TICKS``,
``pixels PIN HEX`` at every NeoPixel write, ``pwm PIN DUTY`` at every duty change and ``watchdog`` when
the watchdog would reset the board.

Time: ``ticks_ms`` is the unix port's clock read from a start the test chooses, plus every jump, modulo
2**30 as on the rp2 (the unix port wraps far later). ``sleep_us`` moves a separate microsecond clock
and nothing else, for the matrix: a column pulled low through a pressed switch stays low for
``RIG_RECOVER_US`` after its row lets go (the cable's capacitance against the pull-ups), so a row read
sooner sees a phantom press.
"""
import gc
import io
import micropython
import os
import select
import sys

PERIOD = 1 << 30
ROWS = tuple(int(n) for n in os.getenv("RIG_ROWS").split(","))          # GP of seat 1's row, seat 2's...
COLUMNS = tuple(int(n) for n in os.getenv("RIG_COLUMNS").split(","))    # GP of hole1..hole5, ok
RECOVER_US = int(os.getenv("RIG_RECOVER_US", "0"))
WDT_RESET = os.getenv("RIG_CAUSE") == "watchdog"


def _builtin_time():
    """The unix port's own ``time``: this rig's time.py stands in for it on the path."""
    me, path = sys.modules.get("time"), sys.path[:]
    sys.path[:] = []
    sys.modules.pop("time", None)
    import time as builtin
    sys.path[:] = path
    if me is not None:
        sys.modules["time"] = me
    return builtin


real = _builtin_time()
_commands = open("/dev/fd/" + os.getenv("RIG_IN"), "rb")
_replies = open("/dev/fd/" + os.getenv("RIG_OUT"), "wb")
_poll = select.poll()
_poll.register(_commands, select.POLLIN)
_poll.register(sys.stdin, select.POLLIN)
_started = real.ticks_ms()
_offset = int(os.getenv("RIG_TICKS", "0"))
_jumps = []                     # (ms, when): jumps not made yet
rx = True                       # the UART's RX line is whole
held = bytearray(int(n) for n in os.getenv("RIG_HELD").split(","))   # what is held as the board starts
levels = {}                     # GP -> the level an output pin drives
_released = {}                  # row GP -> microsecond it last went high
_us = 0
_scan_wanted = False
_rows_read = 0


def reply(line):
    _replies.write(line.encode() + b"\n")


def ticks_ms():
    """The rp2's clock; once a turn of the firmware's loop, also where the test's commands come in."""
    global _offset
    host_waiting = False
    for ready in _poll.poll(1):         # waits 1 ms at most: spinning as the board does would take a core
        if ready[0] is _commands:
            _command(_commands.readline().split())
        else:
            host_waiting = True
    while _jumps and host_waiting == (_jumps[0][1] == b"host"):
        _offset += _jumps.pop(0)[0]
        reply("jumped %d" % now())
    return now()


def now():
    return (real.ticks_ms() - _started + _offset) % PERIOD


def _command(words):
    global _scan_wanted, _rows_read, rx
    if not words:
        sys.exit(0)                     # the test has gone
    if words[0] == b"held":
        held[:] = bytes(int(w) for w in words[1:])
        _scan_wanted, _rows_read = True, 0
    elif words[0] == b"jump":
        _jumps.append((int(words[1]), words[2]))
    elif words[0] == b"rx":
        rx = words[1] == b"1"


def sleep_us(us):
    global _us
    _us += us


def drive(gp, level):
    """An output pin changes level: a row that goes high starts to let its columns go."""
    if gp in ROWS and level and not levels.get(gp, 1):
        _released[gp] = _us
    levels[gp] = level


def gpio_in():
    """The RP2040's SIO GPIO_IN register: pulled up, but where a pressed switch joins a low row."""
    global _scan_wanted, _rows_read
    value = 0x3FFFFFFF
    for s, row in enumerate(ROWS):
        low = levels.get(row, 1) == 0 or _us - _released.get(row, -RECOVER_US) < RECOVER_US
        if low:
            for b, column in enumerate(COLUMNS):
                if held[s] >> b & 1:
                    value &= ~(1 << column)
    if _scan_wanted:
        _rows_read += 1
        if _rows_read == len(ROWS):
            _scan_wanted = False
            reply("scanned")
    return value


def run(path="main.py"):
    """Run main.py as the rp2's pyexec does at power-up: compiled with Ctrl-C off, then run with it on (until
    main.py says otherwise); a traceback goes to stderr, not to stdout, the serial line.

    Ctrl-C comes as the rp2's USB stack raises it, from outside: the test's SIGINT stands for a 0x03 from
    the host, sent only while ``kbd_intr`` has Ctrl-C on. The rp2 holds it pending until the program's next
    jump; this port raises it at once, wherever the program is. So one that strikes before main.py's first
    jump (in the rig's own lines, or main.py's before its ``kbd_intr(-1)``) is run on from the start, as the
    rp2 would have run on to that jump inside main.py's ``try``; any other stops the board. A board it
    stops would sit at the REPL, deaf to the host: here it says so on stderr and exits.
    """
    code = compile(open(path).read(), path, "exec")     # Ctrl-C is still off: pico.py's BOOT switched it off
    try:
        held = _held_until(path)
    except ValueError as exc:
        _fail(exc)
    gc.collect()                                        # the rig's own garbage is not main.py's to carry
    stopped = False
    reply("pyexec")                                     # from now on the test may send Ctrl-C
    while not stopped:
        try:
            try:
                micropython.kbd_intr(3)
                exec(code, {"__name__": "__main__"})
                return
            except KeyboardInterrupt as exc:
                micropython.kbd_intr(-1)
                stopped = _main_line(exc, path) > held
        except KeyboardInterrupt:
            pass                # it struck the rig's own lines while Ctrl-C was on: pending on the rp2
        except Exception as exc:
            _fail(exc)
    sys.stderr.write("KeyboardInterrupt: stopped at the REPL by a Ctrl-C from the host\n")
    sys.exit(3)


def _held_until(path):
    """The line of main.py's ``kbd_intr(-1)``, its first statement after its docstring and the import of
    micropython: a Ctrl-C struck up to there waits, on the rp2, for the jump in main.py's ``try`` just after.
    Read a line at a time: the board's heap is main.py's."""
    quotes, imported = 0, False
    with open(path) as source:
        for n, line in enumerate(source, 1):
            line = line.rstrip("\n")
            if not imported:
                quotes += line.count('"""')
                imported = line == "import micropython" and quotes == 2
            elif line.strip():
                if line.startswith("micropython.kbd_intr(-1)"):
                    return n
                break
    raise ValueError("main.py must switch Ctrl-C off before anything else")


def _fail(exc):
    """A traceback to stderr (this port prints an uncaught one to stdout, the serial line), and stop."""
    sys.print_exception(exc, sys.stderr)
    sys.exit(1)


def _main_line(exc, path):
    """The line of main.py's own code where ``exc`` struck; 0 if it struck before main.py ran."""
    trace = io.StringIO()
    sys.print_exception(exc, trace)
    lines = [line for line in trace.getvalue().split("\n") if line.startswith('  File "%s", line ' % path)]
    return int(lines[0].split(", line ")[1].split(",")[0]) if lines else 0
