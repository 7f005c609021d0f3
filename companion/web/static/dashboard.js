// The dashboard: scores, the turn log and the winner from the public view, and the host's actions.
"use strict";

(() => {
  const {config, post, listen, showFrame} = molebox;
  const $ = (id) => document.getElementById(id);
  let state = null;

  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  // One line per public event; the lock-ins show live beside the scores instead.
  const DESCRIBE = {
    popup: (e) => `popped up ${e.holes.length ? "hole " + e.holes.join(", ") : "nothing"}`,
    whack: (e) => `whacked S${e.target} hole ${e.hole}: ${e.hit ? `hit, ${plural(e.tokens, "token")} knocked out` : "miss"}`,
    score: (e) => `+${e.points}${e.whack ? ` (whack ${e.whack} + ${plural(e.tokens, "token")})` : ""} = ${e.total}`,
    game_over: (e) => `game over: ${e.winners.map((s) => "S" + s).join(", ")} won`,
  };
  const QUIET = new Set(["locked", "unlocked", "reveal"]);

  function describe(event) {
    const text = DESCRIBE[event.kind]?.(event);
    if (text) return text;
    const {kind, seat, ...rest} = event;
    return `${kind} ${JSON.stringify(rest)}`;
  }

  // Turns start at each reveal; a game without secret groups logs one turn per event.
  function turns(log) {
    const out = [];
    for (const event of log) {
      if (event.kind === "reveal" || !out.length) out.push([]);
      if (!QUIET.has(event.kind)) out[out.length - 1].push(event);
    }
    return out.filter((turn) => turn.length);
  }

  function item(tag, text, className) {
    const node = document.createElement(tag);
    node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function renderTurns(log) {
    const list = $("turns");
    list.replaceChildren(...turns(log).map((turn, i) => {
      const li = item("li", "");
      li.append(item("h3", `Turn ${i + 1}`));
      const bySeat = new Map();
      for (const event of turn) {
        const who = event.seat ? "S" + event.seat : "";
        if (!bySeat.has(who)) bySeat.set(who, []);
        bySeat.get(who).push(describe(event));
      }
      const rows = item("ul", "");
      for (const [who, lines] of bySeat) rows.append(item("li", (who ? who + ": " : "") + lines.join(" · ")));
      li.append(rows);
      return li;
    }).reverse());
  }

  function render() {
    const lobby = state.mode === "lobby";
    const view = state.view;
    $("game").textContent = lobby ? "lobby" : view.title;
    $("winner").hidden = lobby || !view.over;
    $("scores").replaceChildren();
    $("turns").replaceChildren();
    if (lobby) {
      const l = state.lobby;
      $("round").textContent = "Choosing the game";
      $("waiting").textContent = `Seat 1 is choosing: ${l.games[l.index]}, ${l.seats} seats, ${l.dice} dice.`;
    } else {
      const s = view.state;
      $("round").textContent = view.over ? "Final scores"
        : [s.turn && `Turn ${s.turn}`, s.target && `to ${s.target} points`].filter(Boolean).join(", ") || "Scores";
      const scores = s.scores || [];
      const best = Math.max(...scores);
      $("scores").replaceChildren(...Array.from({length: view.seats}, (_, i) => {
        const seat = i + 1;
        const li = item("li", "", view.winners.includes(seat) ? "won" : "");
        li.append(item("span", "Seat " + seat, "who"), item("span", scores.length ? String(scores[i]) : "", "points"));
        if (view.locked.includes(seat)) li.append(item("span", "locked in", "tag"));
        else if (view.waiting.includes(seat)) li.append(item("span", "choosing", "tag dim"));
        if (scores.length && scores[i] === best && best > 0 && !view.over) li.classList.add("lead");
        return li;
      }));
      $("waiting").textContent = view.over ? "" : `Waiting for ${view.waiting.map((s) => "S" + s).join(", ") || "nobody"}.`;
      $("winner").textContent = view.over
        ? `${view.winners.map((s) => "Seat " + s).join(" and ")} won${scores.length ? " with " + best + " points" : ""}!` : "";
      renderTurns(state.log);
    }
    const enabled = {"undo": !lobby, "end-game": !lobby && !view.over, "new-game": !lobby && view.over};
    for (const button of document.querySelectorAll("[data-action]")) {
      button.disabled = !enabled[button.dataset.action];
    }
  }

  async function act(path, body) {
    const message = $("host-message");
    try {
      await post(path, config.lan ? {...body, pin: $("pin").value} : body);
      message.textContent = "done";
      message.classList.remove("bad");
      return true;
    } catch (error) {
      message.textContent = error.message;
      message.classList.add("bad");
      return false;
    }
  }

  $("pin-label").hidden = !config.lan;
  $("lan-sim-label").hidden = !(config.lan && config.sim);
  $("lan-sim").checked = config.lanSim;
  $("sim-link").hidden = !(config.sim && (!config.lan || config.lanSim));
  for (const button of document.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => act("/api/host/" + button.dataset.action, {}));
  }
  $("lan-sim").addEventListener("change", async (event) => {
    const enabled = event.target.checked;
    if (await act("/api/host/lan-sim", {enabled})) $("sim-link").hidden = !enabled;
    else event.target.checked = !enabled;
  });

  listen("/api/dashboard/events", {
    state(next) { state = next; render(); },
    table({png}) { showFrame($("table"), png); },
  });
})();
