// Shared by every page: the page's config, its words, GETs, POSTs with the CSRF token, event streams, PNG frames.
"use strict";

const molebox = (() => {
  const config = JSON.parse(document.querySelector('meta[name="molebox"]').content);
  const status = document.getElementById("status");

  // A sentence in the box's language (the server gives the page its words: companion/web/words.py), its
  // {fields} filled in; ts: the form the number ``count`` takes in the language (config.plural: the form of each
  // number below its length, a larger one taking 100 + its last two digits'), which fills {count}.
  const fill = (words, fields) =>
    words.replace(/\{(\w+)\}/g, (kept, name) => (name in fields ? fields[name] : kept));
  const t = (message, fields = {}) => fill(config.words[message] ?? message, fields);
  const plural = config.plural ?? [];
  const form = (n) => plural[n < plural.length ? n : 100 + (n % 100)] ?? (n === 1 ? 0 : 1);
  function ts(singular, pluralWords, count, fields = {}) {
    const forms = config.words[singular] ?? [singular, pluralWords];
    return fill(forms[form(count)] ?? forms[forms.length - 1], {count, ...fields});
  }
  // The page's own marked words: each element marked data-t, its words (an element of text alone) and its
  // aria-label, alt and title.
  for (const marked of document.querySelectorAll("[data-t]")) {
    if (!marked.childElementCount && marked.textContent.trim()) {
      marked.textContent = t(marked.textContent.trim().replace(/\s+/g, " "));
    }
    for (const name of ["aria-label", "alt", "title"]) {
      if (marked.hasAttribute(name)) marked.setAttribute(name, t(marked.getAttribute(name)));
    }
  }

  function say(text, bad) {
    status.textContent = text;
    status.classList.toggle("bad", Boolean(bad));
  }

  // The JSON answer to a request; rejects with the server's message.
  async function answer(response) {
    const body = await response.json().catch(() => ({error: response.statusText}));
    if (!response.ok) throw new Error(body.error || response.statusText);
    return body;
  }

  // POST JSON with the page's token; resolves to the answer.
  async function post(path, body) {
    return answer(await fetch(path, {
      method: "POST",
      headers: {"Content-Type": "application/json", "X-Molebox-Token": config.token},
      body: JSON.stringify(body || {}),
    }));
  }

  const get = async (path) => answer(await fetch(path));

  // Listen to a server-sent event stream: handlers by event kind, each given the parsed data.
  function listen(path, handlers) {
    const source = new EventSource(path);
    for (const [kind, handle] of Object.entries(handlers)) {
      source.addEventListener(kind, (event) => handle(JSON.parse(event.data)));
    }
    source.onopen = () => say(t("live"));
    source.onerror = () => say(source.readyState === EventSource.CLOSED
      ? t("disconnected: reload the page") : t("reconnecting…"), true);
    return source;
  }

  // A display's one-bit frame (its rows of packed bits, most significant first, 1 lit) drawn into an
  // <img>: the server only packs bits, the page makes the picture.
  const canvas = document.createElement("canvas");
  function showFrame(img, {width, height, bits}) {
    const packed = atob(bits);
    const stride = Math.ceil(width / 8);
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    const pixels = context.createImageData(width, height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const lit = packed.charCodeAt(y * stride + (x >> 3)) & (0x80 >> (x & 7));
        const at = (y * width + x) * 4;
        pixels.data.fill(lit ? 255 : 0, at, at + 3);
        pixels.data[at + 3] = 255;
      }
    }
    context.putImageData(pixels, 0, 0);
    img.src = canvas.toDataURL();
    img.hidden = false;
  }

  return {config, t, ts, say, get, post, listen, showFrame};
})();
