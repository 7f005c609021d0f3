"""What a page looks like on its screen, measured in chromium: words and shapes cut off or off the screen,
words drawn over each other, buttons too small for a thumb, and the smallest words' size."""
from __future__ import annotations

CAP = 0.729                 # DejaVu Sans's capitals, as a share of its font size (1493 of 2048 units)
MM_PER_PX = 0.156           # a CSS px on the glass of an iPhone SE (326 ppi, 2 device px each): the densest common phone
THUMB_MM = 9.0              # a button a thumb finds, on the glass
THUMB_PX = THUMB_MM / MM_PER_PX

# Returns {problems: [...], smallest: the smallest text's font size in CSS px, as drawn}. Every visible element
# must lie on the screen (``scrolls``: a page that scrolls down may go below it) and inside each ancestor that
# clips it; no two elements' words may overlap (a text's box is its line's, so lines that merely touch are let
# be); every visible button is at least ``thumb`` px each way.
MEASURE_JS = """
([scrolls, thumb]) => {
  const problems = [], shown = (el) => {
    const style = getComputedStyle(el);
    return style.display !== "none" && style.visibility !== "hidden" && el.getClientRects().length > 0;
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (typeof el.className === "string" && el.className ? "." + el.className.split(" ").join(".") : "");
  const outside = (r, box) => r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 ||
                              r.bottom > box.bottom + 1;
  const screen = {left: 0, top: 0, right: innerWidth, bottom: scrolls ? Infinity : innerHeight};
  if (document.documentElement.scrollWidth > innerWidth) problems.push("the page scrolls sideways");
  for (const el of document.body.querySelectorAll("*")) {
    if (!shown(el) || el.closest("script, style, [hidden]")) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (outside(r, screen)) problems.push(`${name(el)} is off the screen`);
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if ((style.overflowX !== "visible" || style.overflowY !== "visible") && outside(r, up.getBoundingClientRect())) {
        problems.push(`${name(el)} is cut by ${name(up)}`);
        break;
      }
    }
    if (el.tagName === "BUTTON" && (r.width < thumb || r.height < thumb)) {
      problems.push(`${name(el)} is ${Math.round(r.width)} x ${Math.round(r.height)} px`);
    }
  }
  const words = [];
  let smallest = Infinity;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const el = text.parentElement;
    if (!text.textContent.trim() || !shown(el) || el.closest("script, style, [hidden]")) continue;
    const size = parseFloat(getComputedStyle(el).fontSize) * (el instanceof SVGElement ? el.getScreenCTM().a : 1);
    smallest = Math.min(smallest, size);
    const range = document.createRange();
    range.selectNodeContents(text);
    for (const r of range.getClientRects()) {
      const inset = r.height * 0.2;          // a line's box is taller than its letters
      words.push({el, said: text.textContent.trim().slice(0, 30),
                  r: {left: r.left, right: r.right, top: r.top + inset, bottom: r.bottom - inset}});
    }
  }
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j < words.length; j++) {
      const a = words[i], b = words[j];
      if (a.el === b.el) continue;
      const wide = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const high = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (wide > 1 && high > 1) problems.push(`"${a.said}" and "${b.said}" overlap`);
    }
  }
  return {problems, smallest};
}
"""


def measure(page, scrolls: bool, thumb: int = 0) -> dict:
    """The page as drawn now: ``problems`` (none, for a page that is laid out right) and the ``smallest`` font."""
    return page.evaluate(MEASURE_JS, [scrolls, thumb])


def laid_out(page, scrolls: bool, thumb: int = 0) -> float:
    """Assert the page is laid out right (see :data:`MEASURE_JS`); the cap height of its smallest words, in px. A
    page that scrolls is measured from its top (a tap low on it may have scrolled it)."""
    if scrolls:
        page.evaluate("window.scrollTo(0, 0)")
    found = measure(page, scrolls, thumb)
    assert not found["problems"], f"{page.url} at {page.viewport_size}: {found['problems']}"
    return found["smallest"] * CAP
