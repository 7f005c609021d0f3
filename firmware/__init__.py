"""MicroPython for the serial IO board (docs/ioboard.md), importable on CPython for the tests.

On the Pico the files are copied flat (``protocol.py``, ``board.py``, ``main.py``
at the root of its filesystem), so they import each other as top-level modules;
here they are this package's modules. ``main.py`` needs ``machine`` and runs
only on the board.
"""
