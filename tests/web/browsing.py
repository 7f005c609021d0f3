"""Driving the simulator and the dashboard in chromium as a player does: clicks, keys, holds, and what the page shows.

Screenshots of the pages (docs/screenshots/) come from the browser tests: ``make screenshots``.
"""
from __future__ import annotations

import base64
import io
import math
import os
from pathlib import Path

from PIL import Image

from tests.waiting import TIMEOUT_S, wait_for
from tests.webclient import TAP_S, latest

SHOTS = os.environ.get("MOLEBOX_SCREENSHOTS")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}
TIMEOUT_MS = int(TIMEOUT_S * 1000)
PRESS_MS = int(TAP_S * 1000)   # a press and the gap after it, as a finger does it

# Records every message of every event stream the page opens, before the page's own code runs: all of them
# in window.__streamed, each stream's in window.__streams by its path.
RECORD_STREAMS = """
window.__streamed = [];
window.__streams = {};
const Source = window.EventSource;
window.EventSource = class extends Source {
  constructor(url, options) {
    super(url, options);
    this.__heard = window.__streams[new URL(url, location.href).pathname] = [];
  }
  addEventListener(kind, handler, options) {
    super.addEventListener(kind, (event) => {
      window.__streamed.push([kind, event.data]);
      this.__heard.push([kind, event.data]);
    });
    return super.addEventListener(kind, handler, options);
  }
};
"""

# Counts the page's requests still waiting for their answer (a press is queued on the box once its POST
# is answered), on every page.
COUNT_REQUESTS = """
window.__waiting = 0;
const fetchFirst = window.fetch;
window.fetch = (...args) => {
  window.__waiting++;
  return fetchFirst(...args).finally(() => window.__waiting--);
};
"""


def watch(page, record: bool = False) -> None:
    """Before the page opens: its requests counted (for :func:`quiet`), its streams recorded if asked."""
    page.set_default_timeout(TIMEOUT_MS)
    page.add_init_script(COUNT_REQUESTS)
    if record:
        page.add_init_script(RECORD_STREAMS)


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


def quiet(live, *pages) -> None:
    """Wait until every request the pages sent is answered, the box has nothing left to do (every press
    taken, every flash over, every display drawn), and each page that records its streams has been shown
    the box as it is (its latest of every topic is what a stream opened now starts with)."""
    for page in pages:
        page.wait_for_function("window.__waiting === 0")
    live.quiet()
    for page in pages:
        if page.evaluate("window.__streams === undefined"):
            continue
        for path in page.evaluate("Object.keys(window.__streams)"):
            assert wait_for(lambda: latest(page.evaluate("path => window.__streams[path]", path)) == live.now(path),
                            TIMEOUT_S), f"the page was never shown {path} as it is"


def settled_lamps(page, live, seat: int) -> list[str]:
    """Once the box is quiet (the ack flashes over), the page shows what the seat's lamp pins show."""
    quiet(live, page)
    pins = live.session.lamps.lit()[f"seat{seat}"]
    page.wait_for_function(f"([seat, pins]) => JSON.stringify(({LAMPS_JS})(seat)) === JSON.stringify(pins)",
                           arg=[seat, pins])
    return pins


def press_to_lamp(page, live, seat: int, presses: int = 10) -> list[float]:
    """Milliseconds from each of ``presses`` presses of the seat's hole 2 on the page to its lamp changing there
    (the ack flash), each once the last one's flash is over; inf for a press whose flash the page never showed
    (the news came so late that the flash was over: taken at its latest, the lamp was as before)."""
    page.evaluate("""(seat) => {
        window.__lampTimes = [];
        const hole = document.querySelector(`[data-seat="${seat}"] [data-control=hole2]`);
        const lamp = () => hole.className.match(/lamp-\\w+/)[0];
        let last = lamp();
        addEventListener("pointerdown", () => { window.__down = performance.now(); }, true);
        new MutationObserver(() => {
            if (lamp() !== last) { last = lamp(); window.__lampTimes.push(performance.now() - window.__down); }
        }).observe(hole, {attributes: true});
    }""", seat)
    delays = []
    for _ in range(presses):
        settled_lamps(page, live, seat)             # the last press's flash is over, on the pins and the page
        seen = page.evaluate("window.__lampTimes.length")
        button(page, seat, "hole2").hover()
        page.mouse.down()
        quiet(live, page)                           # the ack flash has lit and gone out, the page told of it
        page.mouse.up()
        shown = page.evaluate("window.__lampTimes")[seen:]
        delays.append(shown[0] if shown else math.inf)
    return delays


def oled(page, name: str) -> str:
    return page.get_attribute(f'img[data-display="{name}"]', "src")


def png_image(src: str) -> Image.Image:
    """A display as the page shows it (its <img>'s data: URL of a PNG), as a one-bit image."""
    return Image.open(io.BytesIO(base64.b64decode(src.split(",", 1)[1]))).convert("1")


def shown(page, selector: str) -> bytes | None:
    """The pixels of a display's <img> on the page (None: nothing drawn yet)."""
    src = page.get_attribute(selector, "src") or ""
    return png_image(src).tobytes() if src.startswith("data:image/png") else None


def shows_the_glass(page, live, *names: str) -> None:
    """Once the box is quiet, the simulator page draws each display as its device's pixels are."""
    quiet(live, page)
    for name in names:
        glass = live.hw.displays()[name].image.convert("1").tobytes()
        assert wait_for(lambda: shown(page, f'img[data-display="{name}"]') == glass, TIMEOUT_S), name


def wait_text(page, selector: str, text: str) -> None:
    """Wait until an element of ``selector`` says ``text``; if none ever does, fail saying what they say."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout     # the browser tests alone come here
    try:
        page.locator(selector, has_text=text).first.wait_for()
    except PlaywrightTimeout:
        raise AssertionError(f"no {selector} says {text!r}: {page.locator(selector).all_inner_texts()}") from None


def shoot(page, name: str) -> None:
    """The whole page as a PNG in the screenshots folder, if one is asked for: in 64 colours (a page's flat
    colours and their edges), so the docs stay small."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        image = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
        image.quantize(64, dither=Image.Dither.NONE).save(Path(SHOTS) / name, optimize=True)
