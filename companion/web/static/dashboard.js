// The dashboard: scores, turn log and winner from the public view; history, charts, names; the host's actions.
"use strict";

(() => {
  const {config, t, ts, get, post, listen, showFrame} = molebox;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let told = [];                  // the public log told as turns, streamed apart from the state as appends
  let shownGame = null;            // a past game picked from the history, or null: the game in play
  let historyKey = null;           // refetch the history when this changes (a game ends or starts, a name changes)
  let host = config.host;          // this device may take host actions (always on 127.0.0.1; after the PIN on the LAN)

  const names = () => (state && state.names) || {};
  const who = (seat) => names()[seat] || t("Seat {seat}", {seat});

  // Games whose view reads differently: Mouse Madness counts turns in `turns` and keeps each mouse's space in
  // `positions`.
  const GAMES = {
    "mouse-madness": {
      heading: (s) => (s.turns ? t("Turn {turn}", {turn: s.turns}) : t("Rolls for the first turn")),
      scores: (s) => s.positions,
      won: (winners) => t("{winners} won on the cheese!", {winners}),
    },
    // Mole Park: the score is each seat's prize stars.
    "mole-park": {
      heading: (s) => t("Round {round}, King Mole: {king}", {round: s.round, king: who(s.king_mole)}),
      scores: (s) => s.seats.map((seat) => seat.stars),
    },
    // Mole Hill: a round is one mole's walk; the heading says who plays which side.
    "mole-hill": {
      heading: (s) => t("Round {round}: {mole} is the mole, {gardener} the gardener",
                        {round: s.round, mole: who(s.mole), gardener: who(s.gardener)}),
    },
    // Mole: the heading keeps the roles and the target in sight.
    "mole": {
      heading: (s) => t("Round {round}, turn {turn}: {mole} is the mole; {target} points by {margin}",
                        {round: s.round, turn: s.turn, mole: who(s.mole), target: s.target, margin: s.margin}),
    },
  };
  const game = () => (state && state.view && GAMES[state.view.game]) || {};

  function item(tag, text, className) {
    const node = document.createElement(tag);
    node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  // The turns as the box tells them (companion/render/turns.py), the latest first.
  function renderTurns() {
    $("turns").replaceChildren(...told.filter((turn) => turn.lines.length).map((turn) => {
      const li = item("li", "");
      const rows = item("ul", "");
      rows.append(...turn.lines.map((line) => item("li", line)));
      li.append(item("h3", turn.title), rows);
      return li;
    }).reverse());
  }

  function renderScores(view) {
    const s = view.state;
    const scores = (game().scores || ((st) => st.scores))(s) || [];
    const best = Math.max(...scores);
    $("scores").replaceChildren(...Array.from({length: view.seats}, (_, i) => {
      const seat = i + 1;
      const li = item("li", "", view.winners.includes(seat) ? "won" : "");
      li.append(item("span", who(seat), "who"), item("span", scores.length ? String(scores[i]) : "", "points"));
      const bot = (state.bots || {})[seat];
      if (bot) li.append(item("span", t("computer, {bot}", {bot}), "tag bot"));
      if (view.locked.includes(seat)) li.append(item("span", t("locked in"), "tag"));
      else if (view.waiting.includes(seat)) li.append(item("span", t("choosing"), "tag dim"));
      if (scores.length && scores[i] === best && best > 0 && !view.over) li.classList.add("lead");
      return li;
    }));
    const waiting = view.waiting.map(who).join(", ") || t("nobody");
    $("waiting").textContent = view.over ? "" : t("Waiting for {seats}.", {seats: waiting});
    const winners = view.over
      && view.winners.map(who).reduce((first, second) => t("{first} and {second}", {first, second}));
    $("winner").textContent = !view.over ? "" : game().won ? game().won(winners)
      : scores.length ? ts("{winners} won with {count} point!", "{winners} won with {count} points!", best, {winners})
        : t("{winners} won!", {winners});
  }

  // Scores over turns: a past game picked from the history, else the game in play (when its view keeps them).
  function renderProgress() {
    const live = state && state.mode === "play" && Array.isArray(state.view.state.history) ? state.view : null;
    const game = shownGame || (live && {seats: live.seats, history: live.state.history, names: null});
    $("progress").hidden = !game;
    $("back-to-game").hidden = !shownGame;
    if (!game) return;
    const labels = Array.from({length: game.seats}, (_, i) => game.names ? game.names[i] : who(i + 1));
    const series = labels.map((label, i) => ({label, values: [0, ...game.history.map((row) => row[i])]}));
    $("progress-title").textContent = shownGame
      ? t("Scores over turns: game {id}, {title}", {id: shownGame.id, title: shownGame.title})
      : t("Scores over turns");
    $("score-chart").replaceChildren(charts.lines(series), charts.legend(labels));
  }

  function renderNameFields(view) {
    const fields = $("name-fields");
    if (fields.childElementCount !== view.seats) {
      fields.replaceChildren(...Array.from({length: view.seats}, (_, i) => {
        const seat = t("Seat {seat}", {seat: i + 1});
        const label = item("label", seat + " ");
        const input = document.createElement("input");
        Object.assign(input, {name: `seat${i + 1}`, maxLength: 16, autocomplete: "off", placeholder: seat});
        input.dataset.seat = i + 1;
        label.append(input);
        return label;
      }));
    }
    // The saved name is the field's default: it shows unless the host has typed over it.
    fields.querySelectorAll("input").forEach((input, i) => { input.defaultValue = names()[i + 1] || ""; });
  }

  function render() {
    const lobby = state.mode === "lobby";
    const view = state.view;
    $("game").textContent = lobby ? t("lobby") : view.title;
    $("winner").hidden = lobby || !view.over;
    $("names").hidden = lobby;
    if (lobby) {
      const l = state.lobby;
      $("round").textContent = t("Choosing the game");
      $("scores").replaceChildren();
      $("turns").replaceChildren();
      $("waiting").textContent = t("Seat 1 is choosing: {game}, {seats} seats, {dice} dice.",
                                   {game: l.games[l.index], seats: l.seats, dice: l.dice});
    } else {
      const s = view.state;
      $("round").textContent = view.over ? t("Final scores") : game().heading?.(s)
        || [s.turn && t("Turn {turn}", {turn: s.turn}), s.target && t("to {target} points", {target: s.target})]
          .filter(Boolean).join(", ") || t("Scores");
      renderScores(view);
      renderTurns();
      renderNameFields(view);
    }
    renderProgress();
    renderBox();
    const enabled = {"undo": !lobby, "end-game": !lobby && !view.over, "new-game": !lobby && view.over,
                     "teach": !lobby && !view.over && !state.teaching, "skip-teaching": !lobby && state.teaching,
                     "dismiss": state.notes.length > 0, "take-up": Boolean(state.ended)};
    $("end-game").disabled = !enabled["end-game"];
    if ($("end-game").disabled) $("confirm-end").hidden = true;
    $("ended").hidden = !state.ended;
    for (const button of document.querySelectorAll("[data-action]")) {
      button.disabled = !enabled[button.dataset.action];
    }
    const key = JSON.stringify([state.mode, state.finished, view && view.seats, state.names]);
    if (key !== historyKey) {
      historyKey = key;
      loadHistory();
    }
  }

  // ---- history and stats ----

  function when(seconds) {
    return new Date(seconds * 1000).toLocaleString([], {month: "short", day: "numeric", hour: "2-digit", minute: "2-digit"});
  }

  function renderHistory({games, stats}) {
    $("no-history").hidden = games.length > 0;
    $("games").hidden = !games.length;
    $("games").tBodies[0].replaceChildren(...games.map((game) => {
      const row = item("tr", "", game.history.length ? "" : "no-chart");
      const players = game.names.map((name, i) => `${name} ${game.scores[i]}`).join(", ");
      const winners = game.winners.map((seat) => game.names[seat - 1]).join(" & ");
      row.append(item("td", when(game.started)), item("td", game.title), item("td", players),
                 item("td", winners), item("td", (game.duration / 60).toFixed(0)));
      if (game.history.length) {                 // the games whose view keeps the scores turn by turn
        const show = () => { shownGame = game; renderProgress(); $("progress").scrollIntoView({block: "nearest"}); };
        Object.assign(row, {tabIndex: 0, title: t("show its scores over turns")});
        row.addEventListener("click", show);
        row.addEventListener("keydown", (event) => { if (event.key === "Enter") show(); });
      }
      return row;
    }));
    const players = Object.entries(stats.players);
    $("wins-title").hidden = !players.length;
    const note = (p) => {
      const wins = ts("{count} win", "{count} wins", p.wins), games = ts("{count} game", "{count} games", p.games);
      return t("{wins} in {games}", {wins, games});
    };
    $("wins-chart").replaceChildren(...(players.length ? [charts.bars(players.map(([name, p]) =>
      ({label: name, value: p.wins, note: note(p)})))] : []));
  }

  async function loadHistory() {
    try {
      renderHistory(await get("/api/history"));
    } catch (error) {
      $("no-history").hidden = false;
      $("no-history").textContent = t("History unavailable: {error}", {error: error.message});
    }
  }

  // What the host must know: why play is paused, and what the box set aside or repaired.
  function renderBox() {
    const {fault, notes} = state;
    $("box").hidden = !fault && !notes.length && $("guessing").hidden;
    $("fault").hidden = !fault;
    $("fault").textContent = fault ? t("Paused: {reason}", {reason: fault.text}) : "";
    $("notes").replaceChildren(...notes.map((note) => item("li", `${when(note.at)}: ${note.text}`)));
    $("dismiss").hidden = !notes.length;
  }

  // ---- the host's actions ----

  function showHost() {
    $("login").hidden = host;
    $("is-host").hidden = !(host && config.lan);
  }

  function tell(text, bad) {
    const message = $("host-message");
    message.textContent = text;
    message.classList.toggle("bad", Boolean(bad));
  }

  async function act(path, body) {
    try {
      const answer = await post(path, body);
      tell(t("done"));
      return answer;
    } catch (error) {
      tell(error.message, true);
      return null;
    }
  }

  $("login").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await act("/api/host/login", {pin: $("pin").value})) {
      host = true;
      $("pin").value = "";
      showHost();
      follow();
      tell(t("host actions unlocked on this device for tonight"));
    }
  });
  $("logout").addEventListener("click", async () => {
    if (await act("/api/host/logout", {})) {
      host = false;
      showHost();
      follow();
    }
  });
  showHost();
  $("lan-sim-label").hidden = !(config.lan && config.sim);
  $("lan-sim").checked = config.lanSim;
  $("sim-link").hidden = !(config.sim && (!config.lan || config.lanSim));
  for (const button of document.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => {
      $("confirm-end").hidden = true;
      act("/api/host/" + button.dataset.action, {});
    });
  }
  // Ending a game is the one action a stray tap should not do: it asks first, and can be taken back.
  $("end-game").addEventListener("click", () => { $("confirm-end").hidden = false; });
  $("keep-playing").addEventListener("click", () => { $("confirm-end").hidden = true; });
  $("lan-sim").addEventListener("change", async (event) => {
    const enabled = event.target.checked;
    if (await act("/api/host/lan-sim", {enabled})) $("sim-link").hidden = !enabled;
    else event.target.checked = !enabled;
  });
  $("names").addEventListener("submit", async (event) => {
    event.preventDefault();
    const changed = [...$("name-fields").querySelectorAll("input")].filter((input) => input.value !== input.defaultValue);
    for (const input of changed) {
      const answer = await act("/api/names", {seat: Number(input.dataset.seat), name: input.value});
      if (!answer) return;
      input.defaultValue = answer.name || "";
    }
    event.target.reset();          // every field shows its saved name again, and follows the next change
  });
  // Phone seats: free, held by a phone that is connected, or by one that is away; the host frees a held one.
  const HOLDERS = {free: t("free: the table display shows its code"), connected: t("a phone plays it"),
                   away: t("held by a phone that is away")};
  async function loadPhones() {
    const holders = await get("/api/seats").catch(() => null);
    if (!holders) return;
    $("phone-seats").replaceChildren(...Object.entries(holders).map(([seat, holder]) => {
      const row = item("li", `${who(Number(seat))}: ${HOLDERS[holder]} `, "phone-" + holder);
      row.dataset.seat = seat;
      if (holder !== "free") {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = t("Free seat {seat}", {seat});
        button.addEventListener("click", async () => {
          if (await act("/api/host/free-seat", {seat: Number(seat)})) loadPhones();
        });
        row.append(button);
      }
      return row;
    }));
  }
  $("phones").hidden = config.phones.length === 0;
  if (config.phones.length) {
    loadPhones();
    setInterval(loadPhones, 3000);
  }

  // Someone on the network guessing the PIN or the join codes: how much, and what it costs them now; ``what``
  // tells the secret's wrong guesses and its wait.
  const PINS = {wrong: (count) => ts("{count} wrong PIN", "{count} wrong PINs", count),
                wait: (wait) => t("Each PIN guess now waits {wait} s, for everyone.", {wait})};
  const CODES = {wrong: (count) => ts("{count} wrong join code", "{count} wrong join codes", count),
                 wait: (wait) => t("Each join code guess now waits {wait} s, for everyone.", {wait})};
  function guessed({wrong, refused, addresses, wait}, what) {
    if (!wrong && !refused) return "";
    const more = refused ? t(" ({refused} more refused while locked out)", {refused}) : "";
    return ts("{wrong} in the last hour, from {count} address{more}.",
              "{wrong} in the last hour, from {count} addresses{more}.", addresses, {wrong: what.wrong(wrong), more})
      + (wait ? " " + what.wait(wait) : "") + " ";
  }
  function renderGuessing({pins, codes}) {
    const text = guessed(pins, PINS) + guessed(codes, CODES);
    $("guessing").hidden = !text;
    $("guessing").textContent = text
      + (pins.wrong || pins.refused ? t("A device that entered the PIN is never locked out.") : "");
    if (state) renderBox();
  }

  $("back-to-game").addEventListener("click", () => { shownGame = null; renderProgress(); });

  // The stream; opened again when this device becomes the host's or stops being it (the host's shows the
  // join codes the table display shows).
  let stream = null;
  function follow() {
    if (stream) stream.close();
    stream = listen("/api/dashboard/events", {
      turns({from, turns}) { told = told.slice(0, from).concat(turns); if (state) render(); },
      state(next) { state = next; render(); },
      table(frame) { showFrame($("table"), frame); },
      guessing: renderGuessing,
    });
  }
  follow();
})();
