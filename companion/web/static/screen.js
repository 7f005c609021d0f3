// A screen's description (companion/render/screen.py's Screen, as_dict) drawn in HTML: the same words the OLED
// draws, in their longest wording. Used by a phone seat's page (its own screen) and the TV view (the lobby, the
// join codes).
"use strict";

const screens = (() => {
  function node(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  // ``into``'s children become the description's: the title bar, the notice, the prompt, the options (each its
  // button and words, the draft marked), the other lines. Empty parts are left out.
  function draw(into, screen) {
    const parts = [];
    if (screen.title || screen.status) {
      const bar = node("p", "bar");
      bar.append(node("span", "title", screen.title), node("span", "status", screen.status));
      parts.push(bar);
    }
    if (screen.notice) parts.push(node("p", "notice", screen.notice));
    if (screen.prompt) parts.push(node("p", "prompt", screen.prompt));
    if (screen.options.length) {
      const list = node("ul", "options");
      for (const option of screen.options) {
        const item = node("li", option.chosen ? "chosen" : "");
        item.append(node("kbd", "button", option.button), node("span", "words", option.words));
        list.append(item);
      }
      parts.push(list);
    }
    if (screen.lines.length) {
      const lines = node("ul", "lines");
      lines.append(...screen.lines.map((line) => node("li", "", line)));
      parts.push(lines);
    }
    into.replaceChildren(...parts);
  }

  return {draw, node};
})();
