"""The IO board's logic, free of hardware: scans and host bytes in, frames and lamp colours out.

main.py is a thin adapter that hands this module the matrix rows it scanned,
the bytes the host sent and the time in milliseconds, writes out the frames
it takes, and shows the colours it renders. The same code runs on CPython in
the tests and behind the fake board of companion/hardware/fakeboard.py.

The board runs for months: its millisecond ticks wrap at 2**30 and
``ticks_diff`` is right only for intervals under 2**29 ms (6.2 days). So no
timestamp is kept once it has done its job: a button's debounce time is
dropped when it has passed, the host's and the heartbeat's are compared on
every ``poll`` and renewed within a second while linked (and set afresh at
every link), and the BOOT announcement's every 200 ms while unlinked. Call
``scan`` and ``poll`` at least every few hundred milliseconds, as main.py does.
"""
try:
    from . import protocol as p     # CPython: the firmware package
except ImportError:
    import protocol as p            # MicroPython: the files are copied flat

try:
    from time import ticks_add, ticks_diff
except ImportError:
    def ticks_diff(a, b):
        """MicroPython's ``time.ticks_diff``: millisecond ticks wrap at 2**30."""
        return ((a - b + 0x20000000) & 0x3FFFFFFF) - 0x20000000

    def ticks_add(a, b):
        """MicroPython's ``time.ticks_add``."""
        return (a + b) & 0x3FFFFFFF

# seat colours until the host sends its own: red, green, blue, yellow, magenta, cyan, orange, white
PALETTE = (255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 200, 0, 255, 0, 255, 0, 255, 255, 255, 96, 0, 255, 255, 255)
DIM_LEVEL = 31          # of 255, as the GPIO panels' dim
BLINK_MS = 400          # slow blink: on, then off, for this long each
FAST_MS = 80            # fast blink, likewise
IDLE_STEP_MS = 480      # idle: one dim lamp per seat walks along the holes
IDLE_LEVEL = 16


class Board:
    """The board's state machine; every method takes the time in ms (MicroPython ticks)."""

    def __init__(self, now, seats=p.MAX_SEATS, debounce_ms=10, retry_ms=40, heartbeat_ms=200,
                 silence_ms=1000, brightness=64, lamp_type=0, boot_id=0, reason=p.RESET):
        self.seats, self.lamp_type, self.boot_id = seats, lamp_type, boot_id
        self.debounce_ms, self.retry_ms = debounce_ms, retry_ms
        self.heartbeat_ms, self.silence_ms = heartbeat_ms, silence_ms
        self.brightness = brightness
        self.levels = bytearray(seats)                  # debounced, bit i = button i pressed
        self.counts = bytearray(seats * p.BUTTONS)      # presses so far, mod 256
        self.lamps = bytearray(seats * p.HOLES)         # lamp codes
        self.colours = bytearray(PALETTE[:3 * seats])
        self.linked = False
        self.reason = reason
        self._decoder = p.Decoder()
        self._settling = []                             # the buttons ignoring the matrix after a change...
        self._until = [0] * (seats * p.BUTTONS)         # ...each until this time
        self._nonce = None
        self._seq = 0               # of the latest REPORT
        self._acked = True
        self._sent_at = now         # of the latest REPORT
        self._heard_at = now        # of the host's latest good frame
        self._boot_at = now         # of the latest BOOT; None: send one now
        self._phase = None
        self._dirty = True
        self._out = [p.frame(p.BOOT, 0, p.boot(reason))]    # first, before any answer: why the board started

    # ---- in ---------------------------------------------------------------------------------

    def scan(self, rows, now):
        """One matrix scan: ``rows[s]`` has bit i set while seat s+1's button i is down."""
        if self._settling:
            self._settle(now)
        changed = False
        for s in range(self.seats):
            diff = rows[s] ^ self.levels[s]
            if not diff:
                continue
            for b in range(p.BUTTONS):
                i = s * p.BUTTONS + b
                if diff >> b & 1 and i not in self._settling:
                    self.levels[s] ^= 1 << b
                    self._until[i] = ticks_add(now, self.debounce_ms)
                    self._settling.append(i)
                    if self.levels[s] >> b & 1:
                        self.counts[i] = (self.counts[i] + 1) & 0xFF
                    changed = True
        if changed and self.linked:
            self._seq = (self._seq + 1) & 0xFF
            self._acked = False
            self._report(now)

    def _settle(self, now):
        """Let every button whose debounce time has passed follow the matrix again, and forget that time."""
        settling = self._settling
        for j in range(len(settling) - 1, -1, -1):
            if ticks_diff(now, self._until[settling[j]]) >= 0:
                settling.pop(j)

    def feed(self, data, now):
        """Bytes from the host, any of them noise."""
        for ftype, seq, payload in self._decoder.feed(data):
            self._heard_at = now
            if ftype == p.HELLO:
                self._hello(payload, now)
            elif not self.linked:
                self._boot_at = None        # whatever the host says, it must greet us first
            elif ftype == p.LAMPS:
                self._lamps(seq, payload)
            elif ftype == p.ACK and payload == bytes((self._seq,)):
                self._acked = True

    def _hello(self, payload, now):
        hello = p.parse_hello(payload)
        if hello is None:
            return
        version, nonce = hello
        if version == p.VERSION and not (self.linked and nonce == self._nonce):
            self.linked, self._nonce = True, nonce      # a new link: every timer of the last one is void
            self._acked, self._dirty = True, True
            self._sent_at = now                         # the WELCOME's state counts as this link's first report
            for i in range(len(self.lamps)):
                self.lamps[i] = p.OFF
        self._send(p.WELCOME, p.welcome(nonce, self.lamp_type, self.boot_id, self.levels, self.counts))

    def _lamps(self, seq, payload):
        parsed = p.parse_lamps(payload)
        if parsed is None or parsed[0] > self.seats:
            return
        seat, colour, codes = parsed
        s = seat - 1
        self.colours[3 * s:3 * s + 3] = colour
        self.lamps[p.HOLES * s:p.HOLES * s + p.HOLES] = codes
        self._dirty = True
        self._send(p.ACK, bytes((seq,)))

    # ---- out --------------------------------------------------------------------------------

    def poll(self, now):
        """Timers: host silence, retransmits, heartbeats, the BOOT announcement."""
        if self.linked and ticks_diff(now, self._heard_at) >= self.silence_ms:
            self.linked, self.reason, self._boot_at, self._dirty = False, p.SILENCE, None, True
        if not self.linked:
            if self._boot_at is None or ticks_diff(now, self._boot_at) >= self.heartbeat_ms:
                self._boot_at = now
                self._send(p.BOOT, p.boot(self.reason))
        elif ticks_diff(now, self._sent_at) >= (self.heartbeat_ms if self._acked else self.retry_ms):
            self._report(now)

    def take(self):
        """The frames to write to the host, oldest first."""
        out, self._out = self._out, []
        return out

    def _report(self, now):
        self._sent_at = now
        self._out.append(p.frame(p.REPORT, self._seq, p.state(self.levels, self.counts)))

    def _send(self, ftype, payload):
        self._out.append(p.frame(ftype, self._seq, payload))

    def render(self, now, out):
        """Write each lamp's (r, g, b), seat by seat, hole by hole, into ``out``; True if any changed.

        Lamps only change on a command or at a blink step, so most calls return at once.
        """
        phase = now // FAST_MS
        if phase == self._phase and not self._dirty:
            return False
        self._phase, self._dirty = phase, False
        slow = now // BLINK_MS & 1 == 0
        fast = phase & 1 == 0
        idle_hole = now // IDLE_STEP_MS % p.HOLES
        levels = (0, 255, DIM_LEVEL, 255 if slow else 0, 255 if fast else 0)
        changed = False
        for i in range(self.seats * p.HOLES):
            if self.linked:
                level = levels[self.lamps[i]]
            else:
                level = IDLE_LEVEL if i % p.HOLES == idle_hole else 0
            c = i // p.HOLES * 3
            for k in range(3):
                # rounded up: a lit lamp keeps at least 1/255 in each channel its colour has (DIM, idle)
                value = (self.colours[c + k] * level * self.brightness + 65024) // 65025
                if out[3 * i + k] != value:
                    out[3 * i + k] = value
                    changed = True
        return changed
