"""The IO board program for a Raspberry Pi Pico: the hardware around board.Board (docs/ioboard.md).

Copied flat onto the Pico with protocol.py and board.py; it runs at power-up.
Ctrl-C is switched off by its first line, before anything is imported or
compiled (a 0x03 byte in a frame from the host must never stop it at the
REPL): hold seat 1's OK button while plugging the board in to get the REPL.
"""
import micropython

micropython.kbd_intr(-1)            # first of all: from here on a 0x03 from the host is data, not Ctrl-C
try:                                # a Ctrl-C that came in just before that line is raised at this loop's jump
    for _ in range(1):
        pass
except KeyboardInterrupt:
    pass

import os
import select
import sys
import time

import machine
from machine import Pin

import protocol
from board import Board

# ---- build options and pins (GP numbers) ------------------------------------------------------
SEATS = 8
LINK = "usb"                        # "usb": USB CDC serial; "uart": UART0, TX GP0 / RX GP1, at BAUD
BAUD = 115200
LAMPS = "ws2812"                    # "ws2812": one chain on PIXEL_PIN; "plain": one LED per pin below
PIXEL_PIN = 16
BRIGHTNESS = 64                     # WS2812 cap, of 255: 40 pixels stay under 0.6 A
LAMP_PINS = (16, 17, 18, 19, 20, 21, 22, 26, 27, 28)   # plain: seat 1 hole1..5, then seat 2
ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)                    # one row per seat, driven low in turn
FIRST_COLUMN = 10                   # columns GP10..GP15: hole1..hole5, ok; 4.7 kOhm pull-ups to 3V3
SETTLE_US = 30                      # per row: columns recover in 8 us on 16 m of cable (docs/ioboard.md)
SCAN_MS = 2
WATCHDOG_MS = 2000                  # a hung program resets; its BOOT frame tells the host

_SIO_GPIO_IN = 0xD0000004           # RP2040: every GPIO's input level in one register


class Matrix:
    """Seats x buttons through a diode per switch (cathode to the row)."""

    def __init__(self):
        self.rows = [Pin(n, Pin.OUT, value=1) for n in ROW_PINS[:SEATS]]
        for n in range(FIRST_COLUMN, FIRST_COLUMN + 6):
            Pin(n, Pin.IN, Pin.PULL_UP)
        self.state = bytearray(SEATS)

    def scan(self):
        for s, row in enumerate(self.rows):
            row.value(0)
            time.sleep_us(SETTLE_US)    # let the columns the last row pulled low rise through the pull-ups
            self.state[s] = ~(machine.mem32[_SIO_GPIO_IN] >> FIRST_COLUMN) & 0x3F
            row.value(1)
        return self.state


class Usb:
    def __init__(self):
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 64 and self.poll.poll(0):
            data += sys.stdin.buffer.read(1)
        return data

    def write(self, frame):
        sys.stdout.buffer.write(frame)      # raw: the text stream would turn \n into \r\n


class Uart:
    def __init__(self):
        self.uart = machine.UART(0, BAUD, tx=Pin(0), rx=Pin(1), rxbuf=512)

    def read(self):
        return self.uart.read() if self.uart.any() else b""

    def write(self, frame):
        self.uart.write(frame)


class Pixels:
    def __init__(self):
        from neopixel import NeoPixel
        self.chain = NeoPixel(Pin(PIXEL_PIN), SEATS * 5)

    def show(self, rgb):
        for i in range(len(self.chain)):
            self.chain[i] = (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2])
        self.chain.write()


class Leds:
    """Plain LEDs on PWM pins, as bright as the lamp's brightest colour channel."""

    def __init__(self):
        self.pwms = [machine.PWM(Pin(n), freq=1000) for n in LAMP_PINS[:SEATS * 5]]

    def show(self, rgb):
        for i, pwm in enumerate(self.pwms):
            pwm.duty_u16(max(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]) * 257)


def run():
    link = Uart() if LINK == "uart" else Usb()
    lamps = Leds() if LAMPS == "plain" else Pixels()
    matrix = Matrix()
    led = Pin("LED", Pin.OUT)
    now = time.ticks_ms()
    reason = protocol.WATCHDOG if machine.reset_cause() == machine.WDT_RESET else protocol.RESET
    board = Board(now, SEATS, brightness=255 if LAMPS == "plain" else BRIGHTNESS,
                  lamp_type=protocol.LAMP_TYPES.index(LAMPS), boot_id=int.from_bytes(os.urandom(2), "big"),
                  reason=reason)
    colours = bytearray(SEATS * 5 * 3)
    watchdog = machine.WDT(timeout=WATCHDOG_MS)
    next_scan = now
    while True:
        now = time.ticks_ms()
        data = link.read()
        if data:
            board.feed(data, now)
        if time.ticks_diff(now, next_scan) >= 0:
            board.scan(matrix.scan(), now)
            next_scan = time.ticks_add(now, SCAN_MS)
        board.poll(now)
        for frame in board.take():
            link.write(frame)
        if board.render(now, colours):
            lamps.show(colours)
        led.value(board.linked or now // 500 & 1)
        watchdog.feed()


if Matrix().scan()[0] & 0x20:
    micropython.kbd_intr(3)
    print("molebox IO board: seat 1 OK held, staying at the REPL")
else:
    run()
