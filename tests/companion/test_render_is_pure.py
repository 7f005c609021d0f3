"""Rendering is pure: importing any screen module loads no hardware, wiring, firmware or serial code."""
from __future__ import annotations

import pkgutil
import subprocess
import sys

import pytest

import companion.render

IMPURE = ("gpiozero", "lgpio", "RPi", "serial", "smbus2", "luma.oled", "wiring", "firmware", "companion.hardware",
          "companion.session", "companion.journal", "aiohttp")
MODULES = [f"companion.render.{m.name}" for m in pkgutil.iter_modules(companion.render.__path__)]


@pytest.mark.parametrize("module", ["companion.render", *MODULES])
def test_importing_a_screen_module_loads_nothing_but_drawing(module):
    probe = (f"import sys, {module}\n"
             f"print('\\n'.join(m for m in sys.modules if m.split('.')[0] in {IMPURE!r} "
             f"or any(m == p or m.startswith(p + '.') for p in {IMPURE!r})))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert loaded == [], f"importing {module} loaded {loaded}"
