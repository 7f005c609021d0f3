// The TV view: the table told to the room, drawn at the TV's size from the room's description (the `tv` event)
// and, on the host's TV, the free phone seats' join codes (`joins`). It draws only when a message comes: no
// animation runs at rest; a reveal and the game's end are moments (the picks appear together, then the outcome),
// with a short sound each if the host turns sound on (made here, no files).
"use strict";

(() => {
  const {config, t, listen, post} = molebox;
  const {node} = screens;
  const $ = (id) => document.getElementById(id);
  const stage = $("tv");
  let shown = null;                   // the description drawn now
  let moment = null;                  // the timer that hides the moment showing

  // ---- sound: off unless the host turns it on (the button, or /tv?sound=on for a kiosk): the switch is
  // the host's only (the Pi's own kiosk, or a device that entered the PIN), so a guest's TV stays silent ----
  let host = config.host;
  let audio = null;
  const SOUND = "molebox.sound";
  function setSound(on) {
    localStorage.setItem(SOUND, on ? "on" : "off");
    $("sound").textContent = on ? t("Sound on") : t("Sound off");
    $("sound").setAttribute("aria-pressed", String(on));
    if (on && !audio) audio = new AudioContext();
  }
  const soundOn = () => host && localStorage.getItem(SOUND) === "on";
  function beep(frequency, seconds, after = 0) {
    if (!audio || !soundOn()) return;
    const start = audio.currentTime + after, tone = audio.createOscillator(), level = audio.createGain();
    tone.frequency.value = frequency;
    level.gain.setValueAtTime(0.2, start);
    level.gain.exponentialRampToValueAtTime(0.001, start + seconds);
    tone.connect(level).connect(audio.destination);
    tone.start(start);
    tone.stop(start + seconds);
  }
  const CUES = {reveal: () => { beep(880, 0.12); beep(880, 0.12, 0.2); },        // as the box's buzzer: two short
                over: () => { beep(660, 0.25); beep(880, 0.25, 0.25); beep(1320, 0.6, 0.5); }};
  $("sound").addEventListener("click", () => setSound(!soundOn()));
  $("sound").hidden = !host;
  if (host && new URLSearchParams(location.search).get("sound") === "on") setSound(true);
  else if (host) setSound(soundOn());

  // The footer (the connection and the sound switch) shows a few seconds after a touch or a move of the mouse.
  let waking = null;
  for (const kind of ["pointermove", "pointerdown", "keydown"]) {
    addEventListener(kind, () => {
      document.body.classList.add("awake");
      clearTimeout(waking);
      waking = setTimeout(() => document.body.classList.remove("awake"), 5000);
    });
  }

  // ---- drawing ----

  const ROOMY = 6;                    // the most players the roomy layout holds: more, and the crowded one
  const SMALLEST = 4.2;               // the smallest words, in hundred-and-eighths of the screen's height (style.css)
  // Whether every word drawn on the board is as large as the smallest words the TV shows.
  function readable(box) {
    const least = 0.98 * SMALLEST * Math.min(innerHeight, 0.5625 * innerWidth) / 108;
    return [...box.querySelectorAll("text")]
      .every((text) => parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a >= least);
  }
  const overflows = (box) => box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
  // Whether what ``box`` draws runs into ``other``'s words or past its own edges (a crowded screen's last turn
  // grown into the board's room).
  const squeezed = (box, other) => {
    const svg = box.querySelector("svg");
    if (!svg) return false;
    const drawn = svg.getBoundingClientRect(), words = other.getBoundingClientRect();
    const past = (r) => r.top < drawn.top - 1 || r.bottom > drawn.bottom + 1 || r.left < drawn.left - 1 ||
                        r.right > drawn.right + 1;
    return (drawn.bottom > words.top && drawn.top < words.bottom) ||
      [...svg.children].some((part) => past(part.getBoundingClientRect()));
  };

  function draw(tv) {
    shown = tv;
    const playing = tv.mode === "play";
    stage.dataset.mode = tv.mode;
    stage.dataset.game = playing ? tv.game : "";
    stage.classList.toggle("over", playing && tv.over);
    $("tv-title").textContent = playing ? tv.title : "molebox";
    $("tv-status").textContent = playing ? tv.screen.status : "";
    const prompt = $("tv-prompt");
    prompt.classList.toggle("paused", Boolean(tv.paused));
    prompt.classList.remove("one-line");
    stage.classList.toggle("crowded", playing && tv.players.length > ROOMY);
    stage.classList.toggle("teaching", playing && !stage.classList.contains("crowded") &&
                           tv.turns.some((turn) => turn.teaching));
    if (tv.paused) prompt.textContent = t("Paused: {reason}", {reason: tv.paused});
    else if (!stage.classList.contains("crowded")) prompt.textContent = tv.screen.prompt;
    else {                                  // on one line: its longest wording that fits there, else its shortest
      const wordings = tv.screen.prompts || [tv.screen.prompt];
      prompt.classList.add("one-line");
      for (const words of wordings) {
        prompt.textContent = words;
        if (!overflows(prompt)) break;
      }
      prompt.classList.toggle("one-line", !overflows(prompt));
    }
    const board = $("tv-board");
    if (playing) {
      board.replaceChildren(...[boards.draw(tv)].filter(Boolean));
      const players = $("tv-players"), story = $("tv-story"), crowded = stage.classList.contains("crowded");
      room.players(players, tv);
      players.classList.remove("tight");
      if (crowded || overflows(players)) players.classList.add("tight");
      for (const name of players.querySelectorAll(".name")) {        // a whole name that does not fit: its first word
        if (overflows(name)) name.textContent = name.textContent.split(" ")[0];
      }
      room.turns(story, tv, () => !overflows(story) && !(crowded && overflows(stage)));     // crowded: the screen
      board.classList.toggle("unread", crowded && (!readable(board) || squeezed(board, story)));
    } else {                                                    // the lobby: seat 1's menu, as its OLED has it
      const menu = node("div", "screen lobby");
      screens.draw(menu, {...tv.screen, title: "", status: ""});
      board.replaceChildren(menu);
      $("tv-players").replaceChildren();
      $("tv-story").replaceChildren();
    }
  }

  // A new reveal is a moment (room.moment): everyone's picks appear together over the board while the rest of the
  // page still shows the table before it (its prompt, scores and turns would give the outcome away); then the page
  // draws the table after it, and the outcome shows under the picks; after MOMENT_MS, the board.
  const MOMENT_MS = 9000;
  const show = room.moment((tv, at) => {
    drawn(tv);
    if (at !== undefined) told(tv, at);
  }, (turn) => {
    const box = $("tv-moment");
    const picks = node("ul", "picks");
    picks.append(...turn.reveal.picks.map((pick) => {
      const item = node("li");
      item.style.setProperty("--seat", boards.colour(pick.seat));
      item.append(node("span", "name", pick.name), node("span", "pick", pick.words));
      return item;
    }));
    box.replaceChildren(node("h2", "", t("Reveal")), picks);
    box.hidden = false;
    box.classList.remove("told");
    clearTimeout(moment);
    CUES.reveal();
    moment = setTimeout(() => { box.hidden = true; }, MOMENT_MS);
  });

  // The picks have shown: under them what they did (the reveal's turn).
  function told(tv, at) {
    const turn = (tv.turns || []).find((t) => t.reveal && t.reveal.at === at);
    const outcome = node("div", "outcome");
    outcome.append(...(turn ? turn.lines : []).map((line) => node("p", "", line)));
    $("tv-moment").append(outcome);
    $("tv-moment").classList.add("told");
  }

  // Draws a description, with the end's cue when it is the first to tell the end.
  function drawn(tv) {
    const before = shown;
    draw(tv);
    if (before && tv.mode === "play" && tv.over && !(before.mode === "play" && before.over)) CUES.over();
  }

  function drawJoins(joins) {
    const box = $("tv-joins");
    box.hidden = !joins.length;
    stage.classList.toggle("joining", joins.length > 0);
    if (!joins.length) return box.replaceChildren();
    const cards = joins.map((free) => {
      const card = node("figure", "join");
      card.dataset.seat = free.board.seat;
      const caption = node("figcaption");
      caption.append(node("span", "seat", free.status), node("b", "code", free.prompt));
      card.append(qr(free.board.qr, free.board.url), caption);
      return card;
    });
    box.replaceChildren(node("p", "how", t("Join on a phone: scan, or open {address} and type the code",
                                           {address: joins[0].lines[0]})), ...cards);
  }

  // A QR code from its rows of modules (1 dark), drawn dark on light with its quiet zone, as a camera wants it.
  function qr(rows, url) {
    const NS = "http://www.w3.org/2000/svg", size = rows.length + 8;
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", `-4 -4 ${size} ${size}`);
    svg.setAttribute("class", "qr");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("QR code of {url}", {url}));
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", rows.flatMap((row, y) => [...row].map((dark, x) => (dark === "1" ? `M${x} ${y}h1v1h-1z` : "")))
      .join(""));
    const ground = document.createElementNS(NS, "rect");
    for (const [key, value] of Object.entries({x: -4, y: -4, width: size, height: size, fill: "#fff"})) {
      ground.setAttribute(key, value);
    }
    svg.append(ground, path);
    return svg;
  }

  // The stream; opened again once this device has entered the host PIN (the Pi's own kiosk needs none): the join
  // codes come only to the host's.
  let stream = null;
  function follow() {
    stream?.close();
    stream = listen("/api/tv/events", {
      tv: show,
      joins: drawJoins,
    });
  }
  $("login").hidden = config.host;
  $("login").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await post("/api/host/login", {pin: $("pin").value});
      $("login").hidden = true;
      host = true;
      $("sound").hidden = false;
      setSound(soundOn());
      follow();
    } catch (error) {
      $("login-message").textContent = error.message;
    }
  });
  follow();
})();
