"""Driving the simulator and the dashboard in chromium as a player does: clicks, keys, holds, and what the page shows.

Screenshots of the simulator and the dashboard (docs/screenshots/) come from the browser tests:

    MOLEBOX_SCREENSHOTS=docs/screenshots make test ARGS=tests/web
"""
from __future__ import annotations

import os
from pathlib import Path

SHOTS = os.environ.get("MOLEBOX_SCREENSHOTS")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
TIMEOUT_MS = 5000
PRESS_MS = 40       # a press and the gap after it, as a finger does it (the debouncer takes 20 ms)

# Records every message of every event stream the page opens, before the page's own code runs.
RECORD_STREAMS = """
window.__streamed = [];
const Source = window.EventSource;
window.EventSource = class extends Source {
  addEventListener(kind, handler, options) {
    super.addEventListener(kind, (event) => window.__streamed.push([kind, event.data]));
    return super.addEventListener(kind, handler, options);
  }
};
"""


def button(page, seat: int, control: str):
    return page.locator(f'[data-seat="{seat}"] [data-control="{control}"]')


def click(page, seat: int, *controls: str) -> None:
    for control in controls:
        button(page, seat, control).click(delay=PRESS_MS)
        page.wait_for_timeout(PRESS_MS)


def keys(page, *codes: str) -> None:
    for code in codes:
        page.keyboard.press(code, delay=PRESS_MS)
        page.wait_for_timeout(PRESS_MS)


def hold(page, seat: int, control: str, ms: int = 1200) -> None:
    button(page, seat, control).hover()
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


LAMPS_JS = "seat => [...document.querySelectorAll(`[data-seat='${seat}'] .hole`)]" \
           ".map(b => b.className.match(/lamp-(\\w+)/)[1])"


def lamps(page, seat: int) -> list[str]:
    return page.evaluate(LAMPS_JS, seat)


def settled_lamps(page, live, seat: int) -> list[str]:
    """Once the ack flashes are over, the page shows what the seat's lamp pins show."""
    page.wait_for_timeout(200)
    pins = live.session.out.lamps()[f"seat{seat}"]
    page.wait_for_function(f"([seat, pins]) => JSON.stringify(({LAMPS_JS})(seat)) === JSON.stringify(pins)",
                           arg=[seat, pins])
    return pins


def oled(page, name: str) -> str:
    return page.get_attribute(f'img[data-display="{name}"]', "src")


def wait_text(page, selector: str, text: str) -> None:
    page.locator(selector, has_text=text).first.wait_for()


def shoot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)
