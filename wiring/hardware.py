"""The hardware a box is built from, as data: the displays, lamps and controllers molebox supports.

Like luma's table of supported devices, each row says what the part is and
the figures the parts list and the current budget (``wiring/parts.py``) rest
on, with where the figure comes from. A figure that is a typical value
rather than a limit says so.
"""
from __future__ import annotations

from dataclasses import dataclass

GPIO_VOLTS = 3.3                    # the Pi's and the Pico's logic level


@dataclass(frozen=True)
class Display:
    """An I2C OLED module, by its controller (the profile's ``driver``)."""

    controller: str
    size: str                       # the usual size of modules with this controller
    ma: float                       # its current from 3.3 V with every pixel lit (about)
    glass_mm: tuple[float, float]   # the lit area, width x height (the panel datasheets' "active area")
    why: str


DISPLAYS = {
    # Active areas: 21.744 x 10.864 mm for the 0.96" panels (UG-2864HSWEG01 datasheet, 0.17 mm pitch),
    # 29.42 x 14.70 mm for the 1.3" ones (0.23 mm pitch), 55.01 x 27.49 mm for the 2.42" ones (0.43 mm pitch).
    # The screens size their type from these (docs/screens.md): a 2.42" panel says the most.
    "ssd1306": Display("SSD1306", '0.96"', 20, (21.744, 10.864), "the common 0.96\" 128x64 module; luma's ssd1306 driver"),
    "sh1106": Display("SH1106", '1.3"', 30, (29.42, 14.70), "most 1.3\" 128x64 modules; luma's sh1106 driver (an SSD1306 driver "
                                            "shows them shifted by two columns, with a stripe of noise)"),
    "ssd1309": Display("SSD1309", '2.42"', 60, (55.01, 27.49), "the 2.42\" 128x64 module; luma's ssd1309 driver (most "
                                              "ship wired for SPI: move its resistors to the I2C setting)"),
}
PANELS = {display.size: driver for driver, display in DISPLAYS.items()}   # a profile's `panel`, by its size
ADDRESS_JUMPER = {0x3C: "as shipped (the back reads 0x78, the same address shifted left)",
                  0x3D: "move the address resistor on the back to 0x7A"}


@dataclass(frozen=True)
class Controller:
    """What drives the lamp pins: the most current one pin and all pins together may give."""

    name: str
    pin_ma: float
    total_ma: float
    source: str


# The Pi's figures: raspberrypi.com/documentation/computers/raspberry-pi.html, Power supply (its source:
# raspberrypi/documentation, documentation/asciidoc/computers/raspberry-pi/power-supplies.adoc). It gives no
# current limit for the 3V3 pins themselves: the budget shows their draw with no limit (parts.Row.limit None).
PI = Controller("Raspberry Pi GPIO", 16, 50,
                "raspberrypi.com documentation, Power supply: 'The GPIO pins can draw 50mA safely ... an "
                "individual GPIO pin can only safely draw 16mA'")
PICO = Controller("Pico GPIO", 12, 50,
                  "RP2040 datasheet: drive strengths 2, 4, 8 or 12 mA; IIOVDD_MAX 50 mA summed over the pins")
PI_5V_SPARE_MA = 1000   # a 3 A supply on a Pi 4: its own stress maximum is 1.25 A, USB devices take the rest
PI_USB_MA = 1200        # the same page's table, "Maximum total USB peripheral current draw": 1.2A on a 3B+ or 4.
#                         A Pi 5 limits it to 600 mA on a supply that cannot give 5 A at 5 V (Raspberry Pi's text
#                         on powering the Pi 5, read as quoted); the 1.6 A it is said to give on its 5 A supply we
#                         found only in third-party write-ups, so nothing here rests on it (docs/build.md,
#                         The choices that matter)


@dataclass(frozen=True)
class LampKind:
    """What each lamp pin drives (the profile's ``[lamp] kind``)."""

    part: str
    volts: float            # the lamp's supply
    driver: str | None      # the chip between the pin and the lamp, if any
    gpio_ma: float          # current from the pin while lit, through the driver (0: the pin sets it, see LED)
    ma: float               # the lamp's own current while lit (the default of ``ma``)
    why: str


ULN2803A_INPUT_MA = 0.7     # (3.3 V - 1.4 V) / 2.7 kOhm: the datasheet's input resistor and two base-emitter drops
ULN2803A_CHANNEL_MA = 500   # the datasheet's collector current per channel
LAMP_KINDS = {
    "led": LampKind("plain LED (no built-in resistor) in or beside the button", GPIO_VOLTS, None, 0, 3,
                    "cheapest: the pin lights it through its resistor, a few mA each so all ten stay in the "
                    "Pi's 50 mA"),
    "5v": LampKind("lit arcade button with a 5 V LED lamp", 5, "ULN2803A", ULN2803A_INPUT_MA, 20,
                   "the usual lit arcade button; the Pi's 5 V pins feed the lamps, a ULN2803A switches them "
                   "(a pin's 3.3 V cannot light a 5 V lamp, and its 20 mA is more than a pin may give)"),
    "12v": LampKind("lit arcade button with a 12 V LED lamp", 12, "ULN2803A", ULN2803A_INPUT_MA, 20,
                    "the other usual lit arcade button; a 12 V adapter feeds the lamps, a ULN2803A switches "
                    "them"),
    "ws2812": LampKind("WS2812B pixel under the button", 5, None, 0, 60,
                       "one data line lights every lamp in any colour (the IO board only)"),
}


@dataclass(frozen=True)
class Led:
    """A plain LED by colour: its forward voltage sets the resistor from a 3.3 V pin."""

    volts: float
    why: str = ""


LEDS = {
    "red": Led(2.0),
    "orange": Led(2.0),
    "yellow": Led(2.1),
    "green": Led(2.2, "a yellow-green LED; a true green one is 3 V, as blue"),
    "blue": Led(3.0, "too little headroom from a 3.3 V pin: take 5 V lamps through a driver"),
    "white": Led(3.0, "too little headroom from a 3.3 V pin: take 5 V lamps through a driver"),
}
MIN_HEADROOM_V = 0.5        # below this the resistor cannot set the current of a 3.3 V pin's LED

E12 = (10, 12, 15, 18, 22, 27, 33, 39, 47, 56, 68, 82)

# The IO board's own build (firmware/main.py, docs/ioboard.md); tests/wiring hold these to the firmware.
PICO_ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)
PICO_COLUMNS = "GP10-GP15"
PICO_COLUMN_PULLUP = "4.7 kOhm"     # one per column line to 3V3 (pin 36): columns settle in 8 us, not 130
PICO_PIXEL_PIN = 16
WS2812_BRIGHTNESS = 64      # of 255: the firmware's cap
WS2812_MA = 60              # a pixel at full white
PICO_MA = 50                # the Pico itself, from the Pi's USB port (about)

PICO_COLUMN_SERIES = "470 Ohm"     # between each column pin and its pull-up: 5 V on the cable drives 2.5 mA in
PICO_VSYS_DIODE = "1N5819"          # Schottky: the pixel supply's 5 V into VSYS (pin 39), never VBUS (pin 40)
PIXEL_PULLDOWN = "4.7 kOhm"         # the 74AHCT125's input (1A) to GND: the pixels' data stays low while the Pico resets;
#                                     at most 8.2 kOhm, which RP2350 erratum E9 (Pico 2) asks to hold an input low
MATRIX_DIODE = "BAT43"              # Schottky, at each switch: VF at most 0.33 V at 2 mA (its datasheet), against a
#                                     1N4148's 0.62-0.72 V at 5 mA, so a pressed column reads well under the RP2040's
#                                     0.8 V VIL even through the row's series resistor (docs/ioboard.md)
PICO_ROW_SERIES = "330 Ohm"         # in each row line, at the board: the row leaves the box on the panel cable
PICO_PIXEL_SERIES = "330 Ohm"       # 1Y -> the chain's DIN: the pixels' data leaves the box too
DECOUPLING = "100 nF"               # ceramic, across a chip's or a strip's supply and ground, beside it
BULK = "1000 uF 10 V"               # electrolytic, across the pixel chain's 5 V at its start (Adafruit's NeoPixel
#                                     Uberguide, Best Practices: "1000 uF, 6.3V or higher" across + and -)
# Fuses, each on a supply of the box's own where it enters (the Pi's supply has the Pi's own protection):
# radial polyfuses, by hold / trip current (Bourns MF-R series datasheet: MF-R050 0.50 / 1.00 A, MF-R110
# 1.10 / 2.20 A, both 60 V / 30 V rated), above the supply's load and below what its wiring carries.
STRIP_FUSE = {"12V": "MF-R050 polyfuse (0.5 A hold, 1 A trip)", "5V": "MF-R050 polyfuse (0.5 A hold, 1 A trip)"}
PIXEL_FUSE = "MF-R110 polyfuse (1.1 A hold, 2.2 A trip)"
BUTTON_SERIES = "2.2 kOhm"          # in each Pi button line at the box's socket: a press still reads 0.14 V against
#                                     the ~50 kOhm pull-up; 12 V on the line drives under 4 mA into the pin's clamp

# I2C pull-ups to 3.3 V, each line (docs/build.md, section 4): the Pi's own on I2C1, a TCA9548A breakout's
# (Adafruit's and its clones: 10 kOhm on the upstream SDA/SCL, none on the channels), an OLED module's, and
# the pair the hub adds on I2C0, which has none on the Pi.
PI_I2C1_PULLUP_OHMS = 1800
MUX_PULLUP_OHMS = 10_000
MODULE_PULLUP_OHMS = 4700
I2C0_PULLUP_OHMS = 2200
I2C_RISE_NS = 300           # fast mode (400 kHz): 30% to 70% of 3.3 V within this, 0.847 R C
I2C_PART_PF = 10            # each part on the bus, the Pi's pin included (datasheets: 10 pF at most)
CABLE_PF_PER_M = 100        # a core against its neighbours in ribbon or multicore cable
I2C_SINK_MA = 3             # what every I2C part must sink at 0.4 V (the I2C specification)

BUZZER_BASE_OHMS = 1000     # GPIO -> 1 kOhm -> a BC337's base: 2.6 mA from the pin
BUZZER_MA = 30              # a 5 V active buzzer (about)
STATUS_LED = "green"
STATUS_LED_MA = 3
MUX_MA = 1                  # a TCA9548A: under 0.1 mA, and its power LED if the breakout has one


def e12_at_least(ohms: float) -> int:
    """The smallest E12 resistor value of at least ``ohms``."""
    decade = 1
    while True:
        for base in E12:
            if base * decade >= ohms:
                return base * decade
        decade *= 10


def led_resistor(colour: str, ma: float) -> tuple[int, float]:
    """The resistor for an LED of ``colour`` at no more than ``ma`` from a 3.3 V pin, and the current it gives."""
    headroom = GPIO_VOLTS - LEDS[colour].volts
    ohms = e12_at_least(headroom / ma * 1000)
    return ohms, headroom / ohms * 1000
