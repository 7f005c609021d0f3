// The dashboard: scores, turn log and winner from the public view; history, charts, names; the host's actions.
"use strict";

(() => {
  const {config, get, post, listen, showFrame} = molebox;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let log = [];                    // the public log, streamed apart from the state as appends
  let shownGame = null;            // a past game picked from the history, or null: the game in play
  let historyKey = null;           // refetch the history when this changes (a game ends or starts, a name changes)
  let host = config.host;          // this device may take host actions (always on 127.0.0.1; after the PIN on the LAN)

  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const names = () => (state && state.names) || {};
  const who = (seat) => names()[seat] || "Seat " + seat;
  const short = (seat) => names()[seat] || "S" + seat;

  // One line per public event; the lock-ins show live beside the scores instead.
  const DESCRIBE = {
    popup: (e) => `popped up ${e.holes.length ? "hole " + e.holes.join(", ") : "nothing"}`,
    whack: (e) => `whacked ${short(e.target)} hole ${e.hole}: ${e.hit ? `hit, ${plural(e.tokens, "token")} knocked out` : "miss"}`,
    score: (e) => `+${e.points}${e.whack ? ` (whack ${e.whack} + ${plural(e.tokens, "token")})` : ""} = ${e.total}`,
    game_over: (e) => `game over: ${e.winners.map(short).join(", ")} won`,
  };
  const QUIET = new Set(["locked", "unlocked", "reveal", "turn"]);

  // Games whose view and log read differently: Mouse Madness calls the mover `turn`, counts turns in
  // `turns`, keeps each mouse's space in `positions`, and a turn begins with its die roll.
  const GAMES = {
    "mouse-madness": {
      describe: {
        start_roll: (e) => `rolls ${e.roll} for the first turn`,
        reroll: (e) => `tie at ${e.roll}: ${e.seats.map(short).join(", ")} roll again`,
        first: (e) => `goes first with ${e.roll}`,
        roll: (e) => `rolls ${e.roll}`,
        move: (e) => `moves ${e.forced ? "" : e.direction + " "}from ${e.from} to ${e.to}`,
        jump: (e) => `jumps ${short(e.over)} to ${e.to}`,
        push: (e) => `pushed by ${short(e.by)} from ${e.from} to ${e.to}`,
        fall: (e) => `falls through the mouse hole on ${e.from} to ${e.to}`,
        win: (e) => `lands on the cheese (${e.space})`,
      },
      turnStart: "roll",
      heading: (s) => (s.turns ? `Turn ${s.turns}` : "Rolls for the first turn"),
      scores: (s) => s.positions,
      won: "on the cheese",
    },
    // Mole Park: a round begins with the deal; the score is each seat's prize stars.
    "mole-park": {
      describe: {
        deal: (e) => `moles dealt to the holes: ${e.holes.join(" ")}`,
        crown: (e) => (e.declare ? "goes for the Crown!" : "does not go for the Crown"),
        roll: (e) => `the ${DIE_NAMES[e.die]} rolls ${e.face === "X" ? "X, a miss" : e.face}`,
        whack: (e) => `hole ${e.hole}: ${e.dice.map(([seat]) => short(seat)).join(" and ")}, ${plural(e.each, "mole")} each${e.stays ? `, ${e.stays} stay` : ""}`,
        take: (e) => `takes a ${e.stars}-star mole`,
        discard: (e) => `discards down to ${e.hand}`,
        flee: (e) => `the ${plural(e.moles, "mole")} on hole ${e.hole} flee`,
        reshuffle: (e) => `the discards are shuffled into the deck (${e.deck})`,
        cash_in: (e) => `cashes in ${plural(e.moles.length, "mole")} + prize die ${e.die} + ${e.prizes} = ${e.total} stars`,
        order: (e) => `as King Mole, lets ${short(e.next)} go next`,
        prize: (e) => `takes ${e.name} (${e.stars} stars) from stand ${e.stand}: ${e.total_stars} stars`,
        no_prize: (e) => `no prize at ${e.total} stars`,
        restock: (e) => `stand ${e.stand} shows ${e.name} (${e.stars} stars), ${e.left} left`,
        crown_failed: (e) => `falls short of the Crown with ${e.total} stars`,
        crown_won: () => "wins the Crown and is King Mole!",
        showdown: (e) => `Showdown between ${e.contenders.map(short).join(", ")}`,
        showdown_score: (e) => `showdown total ${e.total}`,
      },
      turnStart: "deal",
      turnWord: "Round",
      heading: (s) => `Round ${s.round}, King Mole: ${short(s.king_mole)}`,
      scores: (s) => s.seats.map((seat) => seat.stars),
    },
    // Mole Hill: a round is one mole's walk, from where it sets down to where it stops.
    "mole-hill": {
      describe: {
        place: (e) => `sets the mole down on ${space(e.cell)}${e.flower ? ` (a ${e.flower}-point flower)` : ""}`,
        rod: (e) => `places a rod ${edge(e.edge)}, ${e.rods_left} left`,
        pass: () => "passes: no rods left",
        move: (e) => `moves to ${space(e.to)}, leaving a ${e.left} piece${e.flower ? ` (a ${e.flower}-point flower)` : ""}`,
        jump: (e) => `jumps from the centre to ${space(e.to)}, leaving a ${e.left} piece`,
        round_over: (e) => `round ${e.round} over (${e.reason === "pieces" ? "no pieces left" : "no move left"}): ${e.dark} dark + ${e.flowers} for flowers = ${e.score}`,
      },
      turnStart: "place",
      turnWord: "Round",
      heading: (s) => `Round ${s.round}: ${short(s.mole)} is the mole, ${short(s.gardener)} the gardener`,
    },
    // Mole: each flick is a turn, opened by its call; the heading keeps the roles and the target in sight.
    "mole": {
      describe: {
        call: (e) => `${e.side === "mole" ? "the mole calls" : "the mignettes call"} ${MOLE_CALLS[e.call]}`,
        flick: (e) => `the mole ${MOLE_WHERE[e.where]}${e.gad ? ` (${e.gad.replace("_", " ")})` : ""}${e.dead.length ? `, mignette ${e.dead.join(", ")} dead` : ""}`,
        mole_back: (e) => `the mole goes back (${e.why})`,
        died: (e) => `mignette ${e.mignette} died (${e.how}), ${e.alive} left`,
        push: (e) => `claims a push by ${short(e.against)}`,
        round_over: (e) => `round ${e.round}: ${e.winner === "tie" ? "a tie" : e.winner + " win"}, ${e.text} (${e.scores.join("-")})`,
      },
      turnStart: "call",
      heading: (s) => `Round ${s.round}, turn ${s.turn}: ${short(s.mole)} is the mole; ${s.target} points by ${s.margin}`,
    },
  };
  const MOLE_CALLS = {flick: "a flick", nasdaq: "Nasdaq", taupiniere: "taupiniere"};
  const MOLE_WHERE = {board: "stays on the board", gad: "is in Gad", line: "is over the winning line",
                      back: "is off the back", side: "is off a side", under: "is under a mignette"};
  const DIE_NAMES = {glove: "Boxing Glove", pan: "Frying Pan", mallet: "Giant Mallet", prize: "Prize die"};
  const space = ([col, row]) => `column ${col}, row ${row}`;
  const edge = ([col, row, side]) => `${side === "E" ? "east" : "south"} of ${space([col, row])}`;
  const game = () => (state && state.view && GAMES[state.view.game]) || {};

  function describe(event) {
    const text = (game().describe?.[event.kind] || DESCRIBE[event.kind])?.(event);
    if (text) return text;
    const {kind, seat, ...rest} = event;
    return `${kind} ${JSON.stringify(rest)}`;
  }

  // Turns start at each reveal (or the game's own turnStart event); without either, one turn in all.
  function turns(log) {
    const out = [];
    const start = game().turnStart || "reveal";
    for (const event of log) {
      if (event.kind === start || !out.length) out.push([]);
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
    const all = turns(log);
    const before = all.length && game().turnStart && all[0][0].kind !== game().turnStart ? 1 : 0;
    $("turns").replaceChildren(...all.map((turn, i) => {
      const li = item("li", "");
      li.append(item("h3", i < before ? "Before the first turn" : `${game().turnWord || "Turn"} ${i + 1 - before}`));
      const bySeat = new Map();
      for (const event of turn) {
        const label = event.seat ? short(event.seat) : "";
        if (!bySeat.has(label)) bySeat.set(label, []);
        bySeat.get(label).push(describe(event));
      }
      const rows = item("ul", "");
      for (const [label, lines] of bySeat) rows.append(item("li", (label ? label + ": " : "") + lines.join(" · ")));
      li.append(rows);
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
      if (bot) li.append(item("span", `computer, ${bot}`, "tag bot"));
      if (view.locked.includes(seat)) li.append(item("span", "locked in", "tag"));
      else if (view.waiting.includes(seat)) li.append(item("span", "choosing", "tag dim"));
      if (scores.length && scores[i] === best && best > 0 && !view.over) li.classList.add("lead");
      return li;
    }));
    $("waiting").textContent = view.over ? "" : `Waiting for ${view.waiting.map(short).join(", ") || "nobody"}.`;
    $("winner").textContent = view.over
      ? `${view.winners.map(who).join(" and ")} won${game().won ? " " + game().won
        : scores.length ? " with " + plural(best, "point") : ""}!` : "";
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
      ? `Scores over turns: game ${shownGame.id}, ${shownGame.title}` : "Scores over turns";
    $("score-chart").replaceChildren(charts.lines(series), charts.legend(labels));
  }

  function renderNameFields(view) {
    const fields = $("name-fields");
    if (fields.childElementCount !== view.seats) {
      fields.replaceChildren(...Array.from({length: view.seats}, (_, i) => {
        const label = item("label", `Seat ${i + 1} `);
        const input = document.createElement("input");
        Object.assign(input, {name: `seat${i + 1}`, maxLength: 16, autocomplete: "off", placeholder: `Seat ${i + 1}`});
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
    $("game").textContent = lobby ? "lobby" : view.title;
    $("winner").hidden = lobby || !view.over;
    $("names").hidden = lobby;
    if (lobby) {
      const l = state.lobby;
      $("round").textContent = "Choosing the game";
      $("scores").replaceChildren();
      $("turns").replaceChildren();
      $("waiting").textContent = `Seat 1 is choosing: ${l.games[l.index]}, ${l.seats} seats, ${l.dice} dice.`;
    } else {
      const s = view.state;
      $("round").textContent = view.over ? "Final scores" : game().heading?.(s)
        || [s.turn && `Turn ${s.turn}`, s.target && `to ${s.target} points`].filter(Boolean).join(", ") || "Scores";
      renderScores(view);
      renderTurns(log);
      renderNameFields(view);
    }
    renderProgress();
    renderBox();
    const enabled = {"undo": !lobby, "end-game": !lobby && !view.over, "new-game": !lobby && view.over,
                     "dismiss": state.alerts.length > 0, "take-up": Boolean(state.ended)};
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
        Object.assign(row, {tabIndex: 0, title: "show its scores over turns"});
        row.addEventListener("click", show);
        row.addEventListener("keydown", (event) => { if (event.key === "Enter") show(); });
      }
      return row;
    }));
    const players = Object.entries(stats.players);
    $("wins-title").hidden = !players.length;
    $("wins-chart").replaceChildren(...(players.length ? [charts.bars(players.map(([name, p]) =>
      ({label: name, value: p.wins, note: `${plural(p.wins, "win")} in ${plural(p.games, "game")}`})))] : []));
  }

  async function loadHistory() {
    try {
      renderHistory(await get("/api/history"));
    } catch (error) {
      $("no-history").hidden = false;
      $("no-history").textContent = "History unavailable: " + error.message;
    }
  }

  // What the host must know: why play is paused, and what the box set aside or repaired.
  function renderBox() {
    const {fault, alerts} = state;
    $("box").hidden = !fault && !alerts.length && $("guessing").hidden;
    $("fault").hidden = !fault;
    $("fault").textContent = fault ? `Paused: ${fault.text}` : "";
    $("alerts").replaceChildren(...alerts.map((alert) => item("li", `${when(alert.at)}: ${alert.text}`)));
    $("dismiss").hidden = !alerts.length;
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
      tell("done");
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
      tell("host actions unlocked on this device for tonight");
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
  const HOLDERS = {free: "free: the table display shows its code", connected: "a phone plays it",
                   away: "held by a phone that is away"};
  async function loadPhones() {
    const holders = await get("/api/seats").catch(() => null);
    if (!holders) return;
    $("phone-seats").replaceChildren(...Object.entries(holders).map(([seat, holder]) => {
      const row = item("li", `${who(Number(seat))}: ${HOLDERS[holder]} `, "phone-" + holder);
      row.dataset.seat = seat;
      if (holder !== "free") {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = `Free seat ${seat}`;
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

  // Someone on the network guessing the PIN or the join codes: how much, and what it costs them now.
  function guessed({wrong, refused, addresses, wait}, what) {
    if (!wrong && !refused) return "";
    const more = refused ? ` (${refused} more refused while locked out)` : "";
    const slowed = wait ? ` Each ${what} guess now waits ${wait} s, for everyone.` : "";
    return `${plural(wrong, "wrong " + what)} in the last hour, from ${addresses} address${addresses === 1 ? "" : "es"}`
      + `${more}.${slowed} `;
  }
  function renderGuessing({pins, codes}) {
    const text = guessed(pins, "PIN") + guessed(codes, "join code");
    $("guessing").hidden = !text;
    $("guessing").textContent = text + (pins.wrong || pins.refused ? "A device that entered the PIN is never locked out." : "");
    if (state) renderBox();
  }

  $("back-to-game").addEventListener("click", () => { shownGame = null; renderProgress(); });

  // The stream; opened again when this device becomes the host's or stops being it (the host's shows the
  // join codes the table display shows).
  let stream = null;
  function follow() {
    if (stream) stream.close();
    stream = listen("/api/dashboard/events", {
      log({from, events}) { log = log.slice(0, from).concat(events); if (state) render(); },
      state(next) { state = next; render(); },
      table(frame) { showFrame($("table"), frame); },
      guessing: renderGuessing,
    });
  }
  follow();
})();
