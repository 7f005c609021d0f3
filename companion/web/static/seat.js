// A phone seat's page: that seat's screen in words (the description its OLED draws), its lamps and buttons, and
// under them the table as the room sees it (scores, board, last turns); nothing of any other seat. Presses name
// the event stream they were pressed on: one sent while the page had lost the box is refused.
"use strict";

(() => {
  const {config, t, say, post, listen} = molebox;
  const notice = document.getElementById("notice");
  const joinForm = document.getElementById("join");

  function tell(text) {
    notice.textContent = text;
    notice.hidden = !text;
  }

  async function join(code) {
    try {
      const answer = await post("/api/join", {code});
      location.replace(answer.page);
    } catch (error) {
      document.getElementById("join-error").textContent = error.message;
      joinForm.hidden = false;
      say(t("not joined"), true);
    }
  }

  joinForm.addEventListener("submit", (event) => {
    event.preventDefault();
    join(document.getElementById("code").value);
  });

  function joining() {
    joinForm.hidden = false;
    say(t("not joined"));
    if (config.asked) tell(t("This phone does not hold seat {seat}: join it with its code.", {seat: config.asked}));
    if (config.code) {                        // the QR code's address: the code shows, its key joins with it
      document.getElementById("code").value = config.code;
      join(config.code + config.key);
    }
  }

  // How to play the game in play (in the lobby, the one seat 1 has chosen), one tap away: the page's config has it
  // for every game (companion/render/how.py's told), drawn in place of the seat and the table until it is closed.
  const teach = (() => {
    const {node} = screens;
    const $ = (id) => document.getElementById(id);
    const open = $("how-open"), panel = $("how"), main = document.querySelector("main");
    let shown = null;

    function draw(game, title, told) {
      const said = told || config.how[game];
      $("how-title").textContent = t("How to play {game}", {game: title});
      const part = (heading, ...body) => [node("h3", "", heading), ...body];
      const list = (tag, lines) => {
        const made = node(tag);
        made.append(...lines.map((line) => node("li", "", line)));
        return made;
      };
      const words = node("dl");
      for (const word of said.jargon) words.append(node("dt", "", word.term), node("dd", "", word.means));
      $("how-told").replaceChildren(
        node("p", "theme", said.theme),
        ...part(t("Goal"), node("p", "", said.goal)),
        ...part(t("How you score"), list("ul", said.scoring)),
        ...part(t("A turn"), list("ol", said.turn)),
        ...part(t("Buttons"), node("p", "", said.buttons)),
        ...part(t("Seats and length"), node("p", "", said.size)),
        ...(said.jargon.length ? part(t("The rules' own words"), words) : []));
    }

    function show(reading) {
      main.classList.toggle("reading", reading);
      panel.hidden = !reading;
      open.setAttribute("aria-expanded", String(reading));
      if (reading) {
        scrollTo(0, 0);
        $("how-title").focus();
      } else open.focus();
    }
    $("how-title").tabIndex = -1;
    open.hidden = !Object.keys(config.how).length;     // a held seat's page has it from the start: nothing moves later
    open.addEventListener("click", () => show(panel.hidden));
    $("how-close").addEventListener("click", () => show(false));

    // The game told now (``game`` its id, ``title`` its name; ``told``, how to play it with the match's own figures
    // where its settings change them): the button names it, an open panel tells it.
    function game(game, title, told) {
      open.disabled = !(game in config.how);
      const key = JSON.stringify([game, title, told]);
      if (open.disabled || key === shown) return;
      shown = key;
      open.setAttribute("aria-label", t("Show how to play {game}", {game: title}));
      draw(game, title, told);
    }
    return {game};
  })();

  function playing(seat) {
    document.getElementById("title").textContent = t("seat {seat}", {seat});
    document.title = t("molebox seat {seat}", {seat});
    let stream = null;                 // the live stream's id; null while the box is out of reach
    let sending = Promise.resolve();   // presses reach the box in the order they happened
    const held = new Set();

    function press(control, pressed) {
      if (pressed === held.has(control)) return;
      pressed ? held.add(control) : held.delete(control);
      panels.showPressed(panel, control, pressed);
      if (stream === null) {
        if (pressed) tell(t("Not sent: the box is out of reach. Press again once this page says live."));
        return;
      }
      const body = {control, pressed, stream};
      sending = sending.then(() => post(`/api/seat/${seat}/press`, body)).then(() => {
        if (!pressed) return;
        tell("");
        navigator.vibrate?.(15);
        panel.classList.add("sent");
        setTimeout(() => panel.classList.remove("sent"), 150);
      }).catch((error) => tell(error instanceof TypeError         // fetch's own failure: no network
        ? t("Not sent: the box is out of reach. Press again once this page says live.") : error.message));
    }

    const panel = panels.build(seat, () => "", press, null);
    document.getElementById("seats").append(panel);
    addEventListener("blur", () => [...held].forEach((control) => press(control, false)));

    // A taught game's hint: hole 5 held, as on a panel (the box answers with the strong computer's pick as the
    // seat's draft, on its own screen alone: docs/teaching.md).
    const hint = document.getElementById("hint");
    hint.addEventListener("click", () => {
      press("hole5", true);
      setTimeout(() => press("hole5", false), config.holdMs + 100);
    });

    let mine = null, table = null;                 // the seat's own screen, the room's table: as last sent
    function drawRoom() {
      if (!table) return;
      teach.game(table.game, table.title, table.how);
      const playing = table.mode === "play";
      hint.hidden = !(playing && table.hints && mine && mine.options.length);
      document.getElementById("room").hidden = !playing;
      const me = playing && table.players[seat - 1];
      const mark = t("Seat {seat}", {seat});
      panel.querySelector("h2").textContent = me && me.name !== mark
        ? t("Seat {seat}: {name}", {seat, name: me.name}) : mark;
      if (!playing) return;
      document.getElementById("room-title").textContent = [table.title, table.screen.status].filter(Boolean).join(", ");
      document.getElementById("room-prompt").textContent = table.paused
        ? t("Paused: {reason}", {reason: table.paused}) : table.screen.prompt;
      room.players(document.getElementById("room-players"), table);
      document.getElementById("room-board").replaceChildren(
        ...[boards.draw(table, mine && mine.board)].filter(Boolean));
      room.turns(document.getElementById("room-turns"), table, undefined, true);     // each opens its rule
    }

    const source = listen(`/api/seat/${seat}/events`, {
      hello(hello) {
        stream = hello.stream;
        tell("");
      },
      lamps(states) {
        panels.paintLamps(panel, states);
      },
      screen(screen) {
        mine = screen;
        const shown = panel.querySelector(".screen");
        screens.draw(shown, screen);
        panels.name(panel, screen);
        const own = boards.own(screen.board);
        if (own) shown.querySelector(".prompt, .bar")?.after(own);
        drawRoom();                                 // the seat's cursor or choice, over the table's board
      },
      tv: room.moment((tv) => {                     // the outcome waits while the picks show, over the room's prompt
        table = tv;
        drawRoom();
      }, (turn) => {
        document.getElementById("room-prompt").textContent = t("Reveal: {picks}", {
          picks: turn.reveal.picks.map((pick) => t("{player}: {pick}", {player: pick.name, pick: pick.words})).join("; ")});
      }),
    });
    source.onerror = () => {
      stream = null;
      if (source.readyState !== EventSource.CLOSED) {
        say(t("reconnecting…"), true);
        return;
      }
      say(t("not joined"), true);
      tell(t("This phone no longer holds seat {seat} (the host freed it, or the box restarted): join again.", {seat}));
      joinForm.hidden = false;
    };
  }

  config.seat ? playing(config.seat) : joining();
})();
