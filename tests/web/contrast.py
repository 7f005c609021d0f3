"""How well each word on a page stands out from what is behind it, measured in chromium as it is drawn.

For every text the page shows (an HTML text, an SVG ``<text>``, a field's value or placeholder) the page is asked for the
colour it is drawn in (``color``, or ``fill`` in SVG) and for what lies under the middle of each of its lines:
``document.elementsFromPoint`` there, from the text down to the first opaque layer (an element's
``background-color``, an SVG shape's ``fill``), each with its alpha and its ancestors' ``opacity``. A text that
something painted covers (the TV's reveal over its board) is not read. Python composites the layers and the
text's colour and computes WCAG 2's contrast ratio. Animations that end are let end; those that repeat (a
blinking lamp) are read at each of their keyframes.
"""
from __future__ import annotations

AA = 4.5                    # WCAG 2 AA for text; this project asks it of every word, large ones too

# Returns [{said, where, colour, layers}] for every text shown: colours as [r, g, b, a] (a: with the opacity of
# the element and its ancestors), ``layers`` from the nearest down to the first opaque one.
READ_JS = """
async () => {
  const endless = (a) => a.effect.getComputedTiming().iterations === Infinity;
  for (let ending; (ending = document.getAnimations().filter((a) => !endless(a) && a.playState !== "finished")).length;) {
    await Promise.all(ending.map((a) => a.finished.catch(() => null)));
  }
  const repeating = document.getAnimations().filter(endless);
  const offsets = [...new Set(repeating.flatMap((a) => a.effect.getKeyframes().map((k) => k.computedOffset)))];
  const rgba = (text) => {
    const n = text.match(/[\\d.]+/g).map(Number);
    return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1];
  };
  const opacity = (el) => {
    let product = 1;
    for (let up = el; up; up = up.parentElement) product *= Number(getComputedStyle(up).opacity);
    return product;
  };
  const shown = (el) => {
    const style = getComputedStyle(el);
    return style.display !== "none" && style.visibility !== "hidden" && el.getClientRects().length > 0 &&
           !el.closest("script, style, [hidden], title");
  };
  const SHAPES = new Set(["rect", "circle", "ellipse", "path", "polygon", "polyline"]);
  const paint = (el) => {               // what an element paints under a text: [r, g, b, a], or null
    const style = getComputedStyle(el);
    let colour;
    if (el instanceof SVGElement) {
      if (!SHAPES.has(el.tagName) || !style.fill.startsWith("rgb")) return null;
      colour = rgba(style.fill);
      colour[3] *= Number(style.fillOpacity);
    } else {
      colour = rgba(style.backgroundColor);
    }
    colour[3] *= opacity(el);
    return colour[3] > 0 ? colour : null;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "");
  const where = (el) => [...Array(3)].reduce((path, _, i) => {
    let up = el;
    for (let k = 0; k < i && up; k++) up = up.parentElement;
    return up && up !== document.body ? name(up) + (path ? " > " + path : "") : path;
  }, "");
  const canvas = rgba(getComputedStyle(document.body).backgroundColor);

  function read(el, rect, said, pseudo = null) {
    const x = rect.left + rect.width / 2, y = rect.top + rect.height / 2;
    const stack = document.elementsFromPoint(x, y);
    const at = stack.indexOf(el);
    if (at < 0 && !stack[0]?.contains(el)) return null;                   // covered, or off the screen
    if (stack.slice(0, Math.max(at, 0)).some((above) => !el.contains(above) && paint(above))) return null;
    const layers = [];
    for (const below of stack.slice(Math.max(at, 0))) {      // the text's own element paints under it too
      const colour = paint(below);
      if (!colour) continue;
      layers.push(colour);
      if (colour[3] >= 1) break;
    }
    if (!layers.length || layers[layers.length - 1][3] < 1) layers.push(canvas[3] ? canvas : [255, 255, 255, 1]);
    const style = getComputedStyle(el, pseudo);
    const colour = rgba(el instanceof SVGElement ? style.fill : style.color);
    colour[3] *= opacity(el) * (el instanceof SVGElement ? Number(style.fillOpacity) : 1);
    return {said, where: where(el), colour, layers};
  }

  function readAll() {
    const found = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const el = text.parentElement, said = text.textContent.trim();
      if (!said || !shown(el)) continue;
      el.scrollIntoView({block: "center", inline: "center"});
      const range = document.createRange();
      range.selectNodeContents(text);
      const rect = [...range.getClientRects()].find((r) => r.width > 0 && r.height > 0);
      const got = rect && read(el, rect, said);
      if (got) found.push(got);
    }
    for (const field of document.querySelectorAll("input:not([type=checkbox]):not([type=range]), textarea")) {
      const said = field.value || field.placeholder;
      if (!said || !shown(field)) continue;
      field.scrollIntoView({block: "center"});
      const got = read(field, field.getBoundingClientRect(), said, field.value ? null : "::placeholder");
      if (got) found.push(got);
    }
    return found;
  }

  if (!offsets.length) return readAll();
  const found = [];
  for (const offset of offsets) {
    for (const a of repeating) {
      const timing = a.effect.getComputedTiming();
      a.pause();
      a.currentTime = (timing.delay || 0) + offset * timing.duration * 0.999;
    }
    found.push(...readAll());
  }
  repeating.forEach((a) => a.play());
  return found;
}
"""


def luminance(rgb) -> float:
    """WCAG 2's relative luminance of an sRGB colour (0-255 each)."""
    def linear(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def over(top, below) -> tuple[float, float, float]:
    """``top`` ([r, g, b, a]) drawn over the opaque ``below``."""
    a = top[3]
    return tuple(a * t + (1 - a) * b for t, b in zip(top[:3], below[:3]))


def ratio(a, b) -> float:
    """WCAG 2's contrast ratio of two opaque colours: 1 to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def contrast(found: dict) -> float:
    """The ratio of a text read by :data:`READ_JS` to what is under it, its layers composited."""
    ground = found["layers"][-1]
    for layer in reversed(found["layers"][:-1]):
        ground = over(layer, ground)
    return ratio(over(found["colour"], ground), ground)


def read(page) -> list[tuple[str, str, float]]:
    """Every text on the page as drawn now: where it is, what it says and its contrast ratio."""
    found = page.evaluate(READ_JS)
    assert found, f"{page.url}: no text read"
    return [(f["where"], f["said"], contrast(f)) for f in found]


def faint(readings, least: float = AA) -> list[str]:
    """The texts of ``readings`` (:func:`read`) under ``least``, each said with where it is and its ratio."""
    return sorted({f"{where} {said[:40]!r}: {ratio:.2f}" for where, said, ratio in readings if ratio < least})
