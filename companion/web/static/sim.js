// The simulator: every seat's panel in play, its lamps and OLED, pressed by mouse, touch or keyboard.
"use strict";

(() => {
  const {config, t, say, post, listen, showFrame} = molebox;
  const {CONTROLS} = panels;
  // Keys by position (KeyboardEvent.code): seats 1-4 below, seats 5-8 the same keys with Shift.
  const KEYS = [
    ["Digit1", "Digit2", "Digit3", "Digit4", "Digit5", "KeyQ"],
    ["KeyA", "KeyS", "KeyD", "KeyF", "KeyG", "KeyZ"],
    ["Digit6", "Digit7", "Digit8", "Digit9", "Digit0", "KeyY"],
    ["KeyH", "KeyJ", "KeyK", "KeyL", "Semicolon", "KeyN"],
  ];
  const seatsBox = document.getElementById("seats");
  const seatPanels = new Map();    // seat -> its <section>
  const held = new Set();          // "seat/control" pressed now, by any means
  const keysDown = new Map();      // KeyboardEvent.code -> [seat, control]
  let sending = Promise.resolve(); // presses reach the server in the order they happened

  function keyOf(seat, index) {
    const code = KEYS[(seat - 1) % KEYS.length][index];
    const label = code.replace(/^(Digit|Key)/, "").replace("Semicolon", ";");
    return seat > KEYS.length ? "⇧" + label : label;
  }

  function press(seat, control, pressed) {
    const id = seat + "/" + control;
    if (pressed === held.has(id)) return;
    pressed ? held.add(id) : held.delete(id);
    panels.showPressed(seatPanels.get(seat), control, pressed);
    sending = sending.then(() => post("/api/sim/press", {seat, control, pressed}))
      .catch((error) => say(error.message, true));
  }

  function releaseAll() {
    for (const id of [...held]) {
      const [seat, control] = id.split("/");
      press(Number(seat), control, false);
    }
    keysDown.clear();
  }

  for (let seat = 1; seat <= config.panels; seat++) {
    const panel = panels.build(seat, (i) => keyOf(seat, i), (control, pressed) => press(seat, control, pressed),
                               t("seat display"));
    panel.hidden = true;
    seatPanels.set(seat, panel);
    seatsBox.append(panel);
    const row = document.createElement("tr");
    row.innerHTML = `<td>${seat}</td><td>${[0, 1, 2, 3, 4].map((i) => `<kbd>${keyOf(seat, i)}</kbd>`).join(" ")}</td>`
      + `<td><kbd>${keyOf(seat, 5)}</kbd></td>`;
    document.querySelector("#keymap tbody").append(row);
  }
  document.getElementById("table").hidden = !config.displays.includes("table");

  panels.realSize(config.glass);
  if (config.lan) {
    document.getElementById("scope").textContent = t("A maker's tool, open to the network now: anyone on it sees "
      + "every seat's screen, secret picks included, and presses for any seat. The host closes it from the "
      + "dashboard.");
  }

  function seatsInPlay(state) {
    return state.mode === "lobby" ? Math.max(state.lobby.seats, 1) : state.view.seats;
  }

  addEventListener("keydown", (event) => {
    if (event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
    const group = KEYS.findIndex((codes) => codes.includes(event.code));
    const seat = group + 1 + (event.shiftKey ? KEYS.length : 0);
    if (group < 0 || !seatPanels.has(seat) || seatPanels.get(seat).hidden) return;
    event.preventDefault();
    const control = CONTROLS[KEYS[group].indexOf(event.code)];
    keysDown.set(event.code, [seat, control]);
    press(seat, control, true);
  });
  addEventListener("keyup", (event) => {
    const target = keysDown.get(event.code);
    if (!target) return;
    event.preventDefault();
    keysDown.delete(event.code);
    press(...target, false);
  });
  addEventListener("blur", releaseAll);

  listen("/api/sim/events", {
    state(state) {
      const count = seatsInPlay(state);
      for (const [seat, panel] of seatPanels) {
        panel.hidden = seat > count;
        const name = state.names && state.names[seat];
        panel.querySelector("h2").textContent = name
          ? t("Seat {seat}: {name}", {seat, name}) : t("Seat {seat}", {seat});
      }
    },
    lamps(lamps) {
      for (const [name, states] of Object.entries(lamps)) panels.paintLamps(seatPanels.get(Number(name.slice(4))), states);
    },
    frame({name, ...frame}) {
      const img = document.querySelector(`img[data-display="${name}"]`);
      if (img) showFrame(img, frame);
    },
  });
})();
