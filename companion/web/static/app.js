// Shared by both pages: the page's config, GETs, POSTs with the CSRF token, event streams, PNG frames.
"use strict";

const molebox = (() => {
  const config = JSON.parse(document.querySelector('meta[name="molebox"]').content);
  const status = document.getElementById("status");

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
    source.onopen = () => say("live");
    source.onerror = () => say(source.readyState === EventSource.CLOSED
      ? "disconnected: reload the page" : "reconnecting…", true);
    return source;
  }

  function showFrame(img, png) {
    img.src = "data:image/png;base64," + png;
    img.hidden = false;
  }

  return {config, say, get, post, listen, showFrame};
})();
