"""The wire codec: CRC, framing, what noise and bit flips cost, and a decoder that survives any bytes."""
from __future__ import annotations

import ast
import binascii
import hashlib
import random
import re
from pathlib import Path

from hypothesis import given, settings, strategies as st

from firmware import protocol as p

FIRMWARE = Path(p.__file__).parent
payloads = st.binary(max_size=p.MAX_PAYLOAD)
frames = st.tuples(st.integers(0, 255), st.integers(0, 255), payloads)


def test_the_crc_is_crc16_genibus():
    assert p.crc16(b"123456789") == 0xD64E
    rng = random.Random(1)
    for size in range(80):
        data = rng.randbytes(size)
        assert p.crc16(data) == binascii.crc_hqx(data, 0xFFFF) ^ 0xFFFF


@given(frames)
def test_a_frame_round_trips_with_zeros_only_at_its_ends(f):
    wire = p.frame(*f)
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    assert len(wire) == len(f[2]) + 7
    assert p.Decoder().feed(wire) == [f]


@given(st.lists(st.tuples(st.binary(max_size=40), frames), max_size=6), st.binary(max_size=40))
def test_noise_between_frames_costs_no_frame(stream, tail):
    decoder = p.Decoder()
    out = decoder.feed(b"".join(noise + p.frame(*f) for noise, f in stream) + tail)
    wanted = iter(out)
    assert all(f in wanted for _, f in stream)        # every frame, in order (noise may add a CRC fluke)


def test_a_flipped_bit_costs_the_frame_it_hits_and_no_other():
    sent = [(p.REPORT, 1, bytes(range(57))), (p.ACK, 0, b"\x07"), (p.LAMPS, 9, bytes((2, 255, 0, 0, 1, 0, 2, 3, 4)))]
    wires = [p.frame(*f) for f in sent]
    stream = b"".join(wires)
    starts = [sum(map(len, wires[:i])) for i in range(len(wires))]
    for bit in range(8 * len(stream)):
        hit = max(i for i, start in enumerate(starts) if start <= bit // 8)
        spoiled = bytearray(stream)
        spoiled[bit // 8] ^= 1 << bit % 8
        assert p.Decoder().feed(spoiled) == [f for i, f in enumerate(sent) if i != hit], bit


@settings(max_examples=500)
@given(st.lists(st.binary(max_size=200), max_size=20))
def test_the_decoder_survives_any_bytes_in_any_chunks(chunks):
    decoder = p.Decoder()
    for chunk in chunks:
        for ftype, seq, payload in decoder.feed(chunk):
            assert 0 <= ftype < 256 and 0 <= seq < 256 and len(payload) <= p.MAX_PAYLOAD
    assert decoder.feed(p.frame(p.PING, 3)) == [(p.PING, 3, b"")]     # and still decodes the next frame


@given(st.binary(max_size=80))
def test_payload_parsers_take_any_bytes(payload):
    for parse in (p.parse_hello, p.parse_state, p.parse_welcome, p.parse_lamps, p.parse_boot):
        parse(payload)


def test_payloads_round_trip():
    levels, counts = bytes(range(8)), bytes(range(48))
    assert p.parse_hello(p.hello(0xBEEF)) == (p.VERSION, 0xBEEF)
    assert p.parse_welcome(p.welcome(513, 1, 0xABCD, levels, counts)) == (p.VERSION, 513, p.BUILD, 1, 0xABCD,
                                                                          levels, counts)
    assert p.parse_welcome(bytes((p.VERSION + 1, 0xFF)))[0] == p.VERSION + 1
    assert p.parse_boot(p.boot(p.WATCHDOG)) == (p.VERSION, p.WATCHDOG)
    assert p.parse_lamps(p.lamps(3, (1, 2, 3), (0, 1, 2, 3, 4))) == (3, b"\x01\x02\x03", bytes(range(5)))
    assert p.parse_lamps(p.lamps(3, (1, 2, 3), (0, 1, 2, 3, 5))) is None
    assert len(p.frame(p.WELCOME, 0, p.welcome(0, 0, 0, levels, counts))) == p.MAX_WIRE + 2


def test_the_firmware_uses_only_what_micropython_has():
    """No f-strings, annotations, dataclasses or typing; imports only of modules MicroPython ships."""
    allowed = {"micropython", "time", "sys", "select", "os", "machine", "neopixel", "protocol", "board"}
    for path in ("protocol.py", "board.py", "main.py"):
        tree = ast.parse((FIRMWARE / path).read_text())
        for node in ast.walk(tree):
            assert not isinstance(node, (ast.JoinedStr, ast.AnnAssign)), (path, node.lineno)
            if isinstance(node, (ast.FunctionDef, ast.arg)):
                assert getattr(node, "returns", None) is None and getattr(node, "annotation", None) is None
            if isinstance(node, ast.Import):
                assert {a.name for a in node.names} <= allowed, (path, node.lineno)
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert node.module in allowed, (path, node.lineno)


def build_id() -> int:
    """A digest of the firmware's three files, less protocol.py's BUILD line and main.py's build options."""
    digest = hashlib.sha256()
    for name in ("protocol.py", "board.py", "main.py"):
        text = (FIRMWARE / name).read_text()
        text = re.sub(r"^BUILD = .*\n", "", text, flags=re.M)
        text = re.sub(r"^# ---- build options.*?\n\n", "", text, flags=re.M | re.S)
        digest.update(text.encode())
    return int.from_bytes(digest.digest()[:3], "big")


def test_the_build_id_names_this_firmware():
    """WELCOME carries BUILD, so the host can tell a board that runs other firmware: it must change with the code."""
    assert p.BUILD == build_id(), f"firmware/ changed: set BUILD = const(0x{build_id():06X}) in firmware/protocol.py"
