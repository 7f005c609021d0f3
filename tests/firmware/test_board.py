"""The board's state machine, on CPython with a hand-driven clock: scans, frames, lamps, silence."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from firmware import protocol as p
from firmware.board import DIM_LEVEL, Board, ticks_diff

WRAP = 0x3FFFFFFF       # MicroPython ticks wrap here


def out(board: Board) -> list[tuple[int, int, bytes]]:
    return p.Decoder().feed(b"".join(board.take()))


def send(board: Board, now: int, ftype: int, payload: bytes = b"", seq: int = 0) -> list:
    board.feed(p.frame(ftype, seq, payload), now)
    board.poll(now)
    return out(board)


def linked(now: int = 0, **kw) -> Board:
    board = Board(now, **kw)
    board.poll(now)
    board.take()
    [(ftype, _, payload)] = send(board, now, p.HELLO, p.hello(7))
    assert ftype == p.WELCOME and p.parse_welcome(payload)[:2] == (p.VERSION, 7)
    return board


def rows(seat: int = 0, bits: int = 0, seats: int = 8) -> bytes:
    return bytes(bits if s == seat else 0 for s in range(seats))


def test_a_fresh_board_announces_itself_until_greeted():
    board = Board(0)
    board.poll(0)
    assert out(board) == [(p.BOOT, 0, bytes((p.VERSION, p.RESET)))]
    watched = Board(0, reason=p.WATCHDOG)
    watched.poll(0)
    assert out(watched) == [(p.BOOT, 0, bytes((p.VERSION, p.WATCHDOG)))]
    board.poll(199)
    assert out(board) == []
    board.poll(200)
    assert [f[0] for f in out(board)] == [p.BOOT]
    assert [f[0] for f in send(board, 210, p.LAMPS, p.lamps(1, (1, 1, 1), (1,) * 5))] == [p.BOOT]   # greet first
    board.scan(rows(0, 1), 220)
    assert out(board) == [] and not board.linked


def test_hello_links_and_the_welcome_carries_the_build_and_the_state():
    board = Board(0, debounce_ms=0, lamp_type=1, boot_id=0x1234)
    board.scan(rows(2, 0b100001), 1)
    [(boot, _, _), (_, _, payload)] = send(board, 5, p.HELLO, p.hello(0xBEEF))     # why it started, first
    assert boot == p.BOOT
    version, nonce, build, lamp_type, boot_id, levels, counts = p.parse_welcome(payload)
    assert (version, nonce, build, lamp_type, boot_id) == (p.VERSION, 0xBEEF, p.BUILD, 1, 0x1234)
    assert (levels[2], counts[12], counts[17]) == (0b100001, 1, 1)
    assert board.linked


def test_another_version_is_answered_but_not_linked():
    board = Board(0)
    boot, (ftype, _, payload) = send(board, 0, p.HELLO, bytes((p.VERSION + 1, 0, 1)))
    assert ftype == p.WELCOME and payload[0] == p.VERSION and boot[0] == p.BOOT and not board.linked


def test_a_repeated_hello_keeps_the_lamps_and_a_new_one_clears_them():
    board = linked()
    send(board, 1, p.LAMPS, p.lamps(1, (9, 9, 9), (1, 1, 1, 1, 1)), seq=4)
    send(board, 2, p.HELLO, p.hello(7))
    assert bytes(board.lamps[:5]) == bytes((1,) * 5)
    send(board, 3, p.HELLO, p.hello(8))
    assert bytes(board.lamps[:5]) == bytes(5)


def test_a_press_is_reported_at_once_and_resent_until_acked():
    board = linked(debounce_ms=0)
    board.scan(rows(1, 0b10), 10)
    [(ftype, seq, payload)] = out(board)
    levels, counts = p.parse_state(payload)
    assert ftype == p.REPORT and levels[1] == 0b10 and counts[7] == 1
    board.poll(49)
    assert out(board) == []
    board.poll(50)
    assert out(board) == [(p.REPORT, seq, payload)]            # the same report again
    board.feed(p.frame(p.ACK, 0, bytes((seq,))), 51)
    board.poll(249)
    assert out(board) == []
    board.poll(250)
    assert out(board) == [(p.REPORT, seq, payload)]            # the heartbeat
    board.scan(rows(), 260)
    board.scan(rows(1, 0b10), 261)
    [_, (_, seq2, payload2)] = out(board)
    assert seq2 == (seq + 2) & 0xFF and p.parse_state(payload2)[1][7] == 2


def test_an_ack_for_an_older_report_does_not_stop_the_newest():
    board = linked(debounce_ms=0)
    board.scan(rows(0, 1), 10)
    board.scan(rows(0, 0), 11)
    (_, first, _), (_, second, _) = out(board)
    board.feed(p.frame(p.ACK, 0, bytes((first,))), 12)
    board.poll(51)
    assert [f[1] for f in out(board)] == [second]


def test_debounce_holds_a_change_until_the_button_has_settled():
    board = linked(debounce_ms=10)
    board.scan(rows(0, 1), 100)
    assert board.counts[0] == 1
    board.scan(rows(0, 0), 105)             # bounce: too soon after the press
    board.scan(rows(0, 1), 106)
    board.scan(rows(0, 0), 109)
    assert board.levels[0] == 1
    board.scan(rows(0, 0), 110)             # still released once it may change again
    assert board.levels[0] == 0 and board.counts[0] == 1


def test_lamp_commands_are_acked_idempotent_and_rendered():
    board = linked(brightness=255)
    command = p.lamps(2, (200, 100, 0), (p.ON, p.DIM, p.BLINK, p.FAST, p.OFF))
    assert send(board, 10, p.LAMPS, command, seq=5) == [(p.ACK, 0, b"\x05")]
    assert send(board, 11, p.LAMPS, command, seq=6) == [(p.ACK, 0, b"\x06")]
    assert send(board, 12, p.LAMPS, p.lamps(9, (1, 1, 1), (1,) * 5), seq=7) == []     # no ninth seat
    pixels = bytearray(8 * 15)

    def seat2(now):
        board.render(now, pixels)
        return [tuple(pixels[15 + 3 * h:18 + 3 * h]) for h in range(5)]

    dim = (-(-200 * DIM_LEVEL // 255), -(-100 * DIM_LEVEL // 255), 0)      # rounded up
    assert seat2(800) == [(200, 100, 0), dim, (200, 100, 0), (200, 100, 0), (0, 0, 0)]
    assert seat2(880)[3] == (0, 0, 0) and seat2(1200)[2] == (0, 0, 0)
    assert not board.render(1201, pixels)           # nothing changes inside a blink step


def test_dark_colours_keep_their_dim_and_idle_lamps_lit():
    """Rounded up: at the WS2812 cap of 64/255, #200000's DIM would be 0.5/255, and rounded down it was dark."""
    board = linked()
    send(board, 10, p.LAMPS, p.lamps(1, (32, 0, 0), (p.ON, p.DIM, p.OFF, p.OFF, p.OFF)), seq=1)
    pixels = bytearray(8 * 15)
    board.render(10, pixels)
    assert bytes(pixels[:9]) == bytes((9, 0, 0, 1, 0, 0, 0, 0, 0))
    board.poll(1010)                                # the host goes quiet: the idle pattern, just as visible
    board.render(1010, pixels)
    assert sorted({pixels[3 * i] for i in range(5)}) == [0, 1]


def test_a_silent_host_gets_the_idle_pattern_and_a_boot_frame():
    board = linked(brightness=255)
    send(board, 10, p.LAMPS, p.lamps(1, (255, 0, 0), (p.ON,) * 5), seq=1)
    board.poll(1009)
    assert board.linked and board.take()
    board.poll(1010)
    assert not board.linked and out(board) == [(p.BOOT, 0, bytes((p.VERSION, p.SILENCE)))]
    pixels = bytearray(8 * 15)
    board.render(1010, pixels)
    lit = [i for i in range(40) if any(pixels[3 * i:3 * i + 3])]
    assert len(lit) == 8 and len({i % 5 for i in lit}) == 1            # one dim lamp a seat


def test_ticks_wrap_like_micropython():
    assert ticks_diff(5, WRAP - 4) == 10 and ticks_diff(WRAP - 4, 5) == -10
    now = WRAP - 20
    board = linked(now, debounce_ms=10)
    board.scan(rows(0, 1), now)
    board.feed(p.frame(p.ACK, 0, bytes((board._seq,))), now)
    board.scan(rows(0, 0), 5)                       # 26 ms later, across the wrap
    assert board.levels[0] == 0
    board.poll(978)
    assert board.linked
    board.poll(979)                                 # 1000 ms after the host's last frame
    assert not board.linked


DAY = 24 * 3600 * 1000


def beats(board: Board, start: int, end: int, step: int = 150) -> None:
    """The host keeps the link: a PING and an ACK every ``step`` ms from ``start`` to ``end``."""
    for now in range(start, end, step):
        board.feed(p.frame(p.PING, 0) + p.frame(p.ACK, 0, bytes((board._seq,))), now & WRAP)
        board.scan(bytes(board.levels), now & WRAP)
        board.poll(now & WRAP)
        board.take()


@pytest.mark.parametrize("days", [6.3, 7, 12.5, 20])
def test_an_untouched_button_still_presses_after_days_of_uptime(days):
    """A press after more than 2**29 ms (6.2 days) with the button untouched; the board runs in one-hour steps."""
    board = linked(debounce_ms=10)
    hour = 3600 * 1000
    for now in range(0, int(days * DAY), hour):
        beats(board, now, now + 300)
    now = int(days * DAY) & WRAP
    board.feed(p.frame(p.PING, 0), now)
    board.scan(rows(3, 0b1), now)
    assert board.levels[3] == 1 and board.counts[18] == 1
    [(ftype, _, payload)] = out(board)
    assert ftype == p.REPORT and p.parse_state(payload)[1][18] == 1


@pytest.mark.parametrize("days", [1, 6.3, 7, 12.5])
def test_a_board_unlinked_for_days_reports_within_a_heartbeat_of_linking_again(days):
    board = linked()
    for now in range(0, int(days * DAY), 3600 * 1000):   # unlinked, announcing itself
        board.poll(now & WRAP)
        board.take()
    assert not board.linked
    now = int(days * DAY) & WRAP
    [(ftype, _, _)] = send(board, now, p.HELLO, p.hello(8))
    assert ftype == p.WELCOME and board.linked
    board.poll((now + 199) & WRAP)
    assert out(board) == []
    board.poll((now + 200) & WRAP)
    assert [f[0] for f in out(board)] == [p.REPORT]


@settings(max_examples=300)
@given(st.lists(st.one_of(st.binary(max_size=80),
                          st.tuples(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=20))),
                max_size=30))
def test_the_board_survives_any_bytes_and_any_checked_frame(items):
    board = Board(0)
    pixels = bytearray(8 * 15)
    board.feed(p.frame(p.HELLO, 0, p.hello(1)), 0)
    for now, item in enumerate(items, 1):
        board.feed(item if isinstance(item, bytes) else p.frame(*item), now)
        board.scan(rows(now % 8, now % 64), now)
        board.poll(now)
        board.render(now, pixels)
        board.take()
