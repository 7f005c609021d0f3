"""The bench: ``python -m companion.bench`` (``make bench``) measures molebox beside the raw libraries.

It stands beside the product: it imports molebox, and molebox never imports it
(tests/test_imports.py). It ships in the package so that an installed box can
run it (docs/pi.md, tests/system). Its modules, each named for what it measures:

- :mod:`.press`: a panel's press to its lamp, with the web pages streaming, and through the IO board;
- :mod:`.phones`: a phone's press to its lamps, the box serving phones and dashboards
  (:mod:`.phone_client` the phones, :mod:`.streams` the pages open elsewhere);
- :mod:`.oled`: what a player waits for on the screens, on a timed I2C wire;
- :mod:`.storage`: the journal's commit points and resuming a game;
- :mod:`.probe`: start-up, idle CPU and memory, each in a process of its own;
- :mod:`.bots`: the computer players' think time;
- :mod:`.raw`: the raw references every figure is printed beside;
- :mod:`.table`: the whole table; :mod:`.common` its rows and what the figures share;
  :mod:`.usage` what a process used; :mod:`.serving` a web app served on a loop thread.
"""
