"""The IO board's wire protocol: one codec for the board (MicroPython) and the host (CPython).

Every frame goes on the wire as ``00 COBS(body) 00``; the body is
``type seq payload crc_hi crc_lo`` with CRC-16/GENIBUS over type, seq and
payload. COBS leaves no zero byte inside a frame, so a zero always starts a
new one: line noise costs at most the frame it hits. docs/ioboard.md has the
frame types and the rules for sequence numbers, acks, retransmits and the
heartbeat.

Only what MicroPython has: no f-strings, dataclasses or typing; frames are
short (a body is at most ``MAX_BODY`` bytes), so every COBS block is shorter
than 254 bytes and one code byte per zero is all the encoding needs.
"""
try:
    from micropython import const
except ImportError:
    def const(value):
        return value

VERSION = const(2)      # HELLO, WELCOME's first three bytes and BOOT keep their layout in every version
BUILD = const(0x01CE0D)  # this firmware's build id, a digest of its files: test_protocol.py says when it is stale

# frame types, ASCII so a hex dump reads
HELLO = const(0x48)     # H  host -> board: version, nonce (2)
WELCOME = const(0x57)   # W  board -> host: version, nonce (2), build (3), lamp type, boot id (2), state
BOOT = const(0x42)      # B  board -> host: version, reason; the board wants a HELLO
LAMPS = const(0x4C)     # L  host -> board, acked: seat, r, g, b, five lamp codes
REPORT = const(0x52)    # R  board -> host, acked: state
ACK = const(0x41)       # A  both ways: the seq being acknowledged
PING = const(0x50)      # P  host -> board: heartbeat (the board's is its REPORT)

# lamp codes
OFF = const(0)
ON = const(1)
DIM = const(2)
BLINK = const(3)
FAST = const(4)

# BOOT reasons
RESET = const(0)        # the board has just started (power, reset button, a new USB host)
SILENCE = const(1)      # the host went quiet; the board shows its idle pattern
WATCHDOG = const(2)     # the board has just started, reset by its watchdog: the firmware hung

# lamp types (a build option of main.py), as WELCOME carries them
LAMP_TYPES = ("ws2812", "plain")

HOLES = const(5)
BUTTONS = const(6)      # hole1..hole5, ok: bit i of a seat's level byte
MAX_SEATS = const(8)
MAX_PAYLOAD = const(9 + 1 + MAX_SEATS * (1 + BUTTONS))   # a WELCOME for eight seats
MAX_BODY = const(MAX_PAYLOAD + 4)
MAX_WIRE = const(MAX_BODY + 1)                            # COBS adds one byte to a short body


def _crc_table():
    table = []
    for nibble in range(16):
        crc = nibble << 12
        for _ in range(4):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC = _crc_table()


def crc16(data):
    """CRC-16/GENIBUS: CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) inverted, a nibble at a time.

    Inverted, because without it a body that gains a zero byte after its CRC
    (a flipped trailing delimiter) still checks: crc(M + crc_hi) == crc_lo << 8.
    """
    crc = 0xFFFF
    for byte in data:
        crc = ((crc << 4) & 0xFFFF) ^ _CRC[(crc >> 12) ^ (byte >> 4)]
        crc = ((crc << 4) & 0xFFFF) ^ _CRC[(crc >> 12) ^ (byte & 0x0F)]
    return crc ^ 0xFFFF


def frame(ftype, seq, payload=b""):
    """One frame as it goes on the wire: ``00 COBS(type seq payload crc) 00``."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = bytearray((ftype, seq & 0xFF))
    body += payload
    crc = crc16(body)
    body.append(crc >> 8)
    body.append(crc & 0xFF)
    out = bytearray(len(body) + 3)      # out[0] stays 0: the sync byte
    code_at, n = 1, 2
    for byte in body:
        if byte:
            out[n] = byte
            n += 1
        else:
            out[code_at] = n - code_at
            code_at = n
            n += 1
    out[code_at] = n - code_at
    return bytes(out)                   # the last byte stays 0: the frame ends at once


class Decoder:
    """Bytes in, checked frames out. Any byte sequence is safe to feed; ``bad`` counts what was dropped."""

    def __init__(self):
        self._buf = bytearray(MAX_WIRE)
        self._n = 0
        self.bad = 0

    def feed(self, data):
        """Return the ``(type, seq, payload)`` of every good frame that ends in ``data``."""
        frames = []
        buf, n = self._buf, self._n
        for byte in data:
            if byte:
                if n < MAX_WIRE:
                    buf[n] = byte
                n += 1
            elif n:
                decoded = self._decode(n) if n <= MAX_WIRE else None
                if decoded is None:
                    self.bad += 1
                else:
                    frames.append(decoded)
                n = 0
        self._n = n
        return frames

    def _decode(self, n):
        buf = self._buf
        body = bytearray(n)
        i = m = 0
        while i < n:
            end = i + buf[i]
            if end > n:
                return None
            i += 1
            while i < end:
                body[m] = buf[i]
                m += 1
                i += 1
            if i < n:
                m += 1                  # body[m] is already 0: the zero this block stood for
        if m < 4 or crc16(memoryview(body)[:m - 2]) != (body[m - 2] << 8 | body[m - 1]):
            return None
        return body[0], body[1], bytes(body[2:m - 2])


# ---- payloads: each parser returns None for a payload of the wrong shape ----------------------

def hello(nonce):
    return bytes((VERSION, nonce >> 8 & 0xFF, nonce & 0xFF))


def parse_hello(payload):
    if len(payload) != 3:
        return None
    return payload[0], payload[1] << 8 | payload[2]


def state(levels, counts):
    """Seat count, one level byte per seat, then six press counters per seat."""
    return bytes((len(levels),)) + bytes(levels) + bytes(counts)


def parse_state(payload):
    """``(levels, counts)`` from :func:`state`, or None."""
    if not payload:
        return None
    seats = payload[0]
    if seats > MAX_SEATS or len(payload) != 1 + seats * (1 + BUTTONS):
        return None
    return payload[1:1 + seats], payload[1 + seats:]


def welcome(nonce, lamp_type, boot_id, levels, counts):
    """The board's answer to HELLO: who it is (build, lamp type, this run's boot id) and its state."""
    return bytes((VERSION, nonce >> 8 & 0xFF, nonce & 0xFF, BUILD >> 16, BUILD >> 8 & 0xFF, BUILD & 0xFF,
                  lamp_type, boot_id >> 8 & 0xFF, boot_id & 0xFF)) + state(levels, counts)


def parse_welcome(payload):
    """``(version, nonce, build, lamp_type, boot_id, levels, counts)``; only the version when it is not ours."""
    if not payload:
        return None
    if payload[0] != VERSION:
        return payload[0], None, None, None, None, None, None
    if len(payload) < 9:
        return None
    parsed = parse_state(payload[9:])
    if parsed is None:
        return None
    return (VERSION, payload[1] << 8 | payload[2], payload[3] << 16 | payload[4] << 8 | payload[5], payload[6],
            payload[7] << 8 | payload[8], parsed[0], parsed[1])


def boot(reason):
    return bytes((VERSION, reason))


def parse_boot(payload):
    """``(version, reason)``, or None."""
    if len(payload) != 2:
        return None
    return payload[0], payload[1]


def lamps(seat, colour, codes):
    """Seat (from 1), its colour (r, g, b) and its five lamp codes."""
    return bytes((seat,)) + bytes(colour) + bytes(codes)


def parse_lamps(payload):
    """``(seat, colour, codes)``, or None."""
    if len(payload) != 4 + HOLES or payload[0] < 1:
        return None
    for code in payload[4:]:
        if code > FAST:
            return None
    return payload[0], payload[1:4], payload[4:]
