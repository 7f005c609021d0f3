"""One scripted run of the board's logic, printed frame by frame and pixel by pixel.

Runs as it is under CPython (the firmware package) and under the MicroPython
unix port (the files compiled by mpy-cross for the Pico, flat on its path);
test_pico.py holds the two printouts equal. Its times stay far from the tick
wrap, where the unix port's own ``ticks_diff`` differs from the rp2's.
"""
try:
    from firmware import protocol as p
    from firmware.board import Board
except ImportError:
    import protocol as p
    from board import Board

SEED = 12345


def rand(n):
    """A small LCG, the same on both interpreters: the next number below ``n``."""
    global SEED
    SEED = (SEED * 1103515245 + 12345) & 0x7FFFFFFF
    return SEED % n


def show(board, now, pixels):
    for frame in board.take():
        print(now, "frame", frame.hex())
    if board.render(now, pixels):
        print(now, "pixels", pixels.hex())


def main():
    board = Board(1000, debounce_ms=10, lamp_type=1, boot_id=0xBEEF)
    pixels = bytearray(8 * 15)
    now = 1000
    for step in range(600):
        now += 1 + rand(7)
        kind = rand(10)
        if kind == 0 or step == 3:
            board.feed(p.frame(p.HELLO, 0, p.hello(rand(65536))), now)
        elif kind == 1:
            colour = (rand(256), rand(256), rand(256))
            codes = [rand(5) for _ in range(5)]
            board.feed(p.frame(p.LAMPS, rand(256), p.lamps(1 + rand(8), colour, codes)), now)
        elif kind == 2:
            board.feed(p.frame(p.ACK, 0, bytes((board._seq,))), now)
        elif kind == 3:
            board.feed(bytes(rand(256) for _ in range(rand(12))), now)
        elif kind == 4 and step > 500:
            now += 1500                                     # the host goes quiet
        else:
            board.feed(p.frame(p.PING, 0), now)
        rows = bytearray(8)
        rows[rand(8)] = rand(64)
        board.scan(rows, now)
        board.poll(now)
        show(board, now, pixels)
    print("end", board.linked, bytes(board.counts).hex())


main()
