"""Simulated parts that stand in for hardware, for the tests, the bench and a maker without the part.

The rule, as gpiozero keeps its mock pins in ``gpiozero.pins.mock``: a part
molebox talks to has its fake here, part of the installed package, built from
the part's datasheet or firmware so that the real drivers and backends run on
it unchanged. The product's own modules never import this package
(tests/test_imports.py); the tests, ``python -m companion.bench`` and a maker
without the part do.

- :mod:`.i2c`: an I2C controller's wire that takes the wire's time, its buses,
  a TCA9548A mux's channels, and every display of a profile wired on them;
- :mod:`.oled`: an SSD1306 or SH1106 module, its display RAM and what its glass shows;
- :mod:`.board`: the IO board, the firmware's own logic behind a pseudo-terminal.
"""
