// The simulator: every seat's panel in play, its lamps and OLED, pressed by mouse, touch or keyboard.
"use strict";

(() => {
  const {config, say, post, listen, showFrame} = molebox;
  const CONTROLS = ["hole1", "hole2", "hole3", "hole4", "hole5", "ok"];
  // Keys by position (KeyboardEvent.code): seats 1-4 below, seats 5-8 the same keys with Shift.
  const KEYS = [
    ["Digit1", "Digit2", "Digit3", "Digit4", "Digit5", "KeyQ"],
    ["KeyA", "KeyS", "KeyD", "KeyF", "KeyG", "KeyZ"],
    ["Digit6", "Digit7", "Digit8", "Digit9", "Digit0", "KeyY"],
    ["KeyH", "KeyJ", "KeyK", "KeyL", "Semicolon", "KeyN"],
  ];
  const seatsBox = document.getElementById("seats");
  const template = document.getElementById("seat-template");
  const panels = new Map();        // seat -> its <section>
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
    panels.get(seat)?.querySelector(`[data-control="${control}"]`)?.classList.toggle("pressed", pressed);
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

  function bind(button, seat) {
    const control = button.dataset.control;
    button.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      button.setPointerCapture(event.pointerId);
      press(seat, control, true);
    });
    for (const kind of ["pointerup", "pointercancel", "lostpointercapture"]) {
      button.addEventListener(kind, () => press(seat, control, false));
    }
    button.addEventListener("contextmenu", (event) => event.preventDefault());
  }

  function buildPanel(seat) {
    const panel = template.content.firstElementChild.cloneNode(true);
    panel.dataset.seat = seat;
    panel.querySelector("h2").textContent = "Seat " + seat;
    panel.querySelector(".oled").dataset.display = "seat" + seat;
    const holes = panel.querySelector(".holes");
    for (let i = 0; i < 5; i++) {
      const button = document.createElement("button");
      button.className = "hole lamp-off";
      button.dataset.control = CONTROLS[i];
      button.innerHTML = `<span class="number">${i + 1}</span><kbd>${keyOf(seat, i)}</kbd>`;
      holes.append(button);
    }
    panel.querySelector(".ok kbd").textContent = keyOf(seat, 5);
    panel.querySelectorAll("button").forEach((button) => bind(button, seat));
    return panel;
  }

  for (let seat = 1; seat <= config.panels; seat++) {
    const panel = buildPanel(seat);
    panel.hidden = true;
    panels.set(seat, panel);
    seatsBox.append(panel);
    const row = document.createElement("tr");
    row.innerHTML = `<td>${seat}</td><td>${[0, 1, 2, 3, 4].map((i) => `<kbd>${keyOf(seat, i)}</kbd>`).join(" ")}</td>`
      + `<td><kbd>${keyOf(seat, 5)}</kbd></td>`;
    document.querySelector("#keymap tbody").append(row);
  }
  document.getElementById("table").hidden = !config.displays.includes("table");

  // Real size: each OLED as wide as its panel's lit area, in millimetres the host calibrates with a card.
  const CARD_MM = 85.6;
  const realSize = document.getElementById("real-size");
  const pxPerMm = document.getElementById("px-per-mm");
  function sizeOleds() {
    const on = realSize.checked, scale = Number(pxPerMm.value);
    document.body.classList.toggle("real-size", on);
    document.getElementById("sizing").hidden = !on;
    document.getElementById("card-bar").style.width = CARD_MM * scale + "px";
    for (const img of document.querySelectorAll("img.oled")) {
      const glass = config.glass[img.dataset.display];
      img.style.width = on && glass ? glass[0] * scale + "px" : "";
    }
    localStorage.setItem("molebox.realSize", JSON.stringify({on, scale}));
  }
  const sizes = [...new Set(Object.values(config.glass).map(([w, h]) => `${w} × ${h} mm`))];
  document.getElementById("glass-size").textContent = sizes.join(", ");
  realSize.parentElement.hidden = sizes.length === 0;
  const saved = JSON.parse(localStorage.getItem("molebox.realSize") || "{}");
  pxPerMm.value = saved.scale ?? 96 / 25.4;           // CSS's own millimetre until calibrated
  realSize.checked = Boolean(saved.on);
  realSize.addEventListener("change", sizeOleds);
  pxPerMm.addEventListener("input", sizeOleds);
  sizeOleds();

  function seatsInPlay(state) {
    return state.mode === "lobby" ? Math.max(state.lobby.seats, 1) : state.view.seats;
  }

  addEventListener("keydown", (event) => {
    if (event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
    const group = KEYS.findIndex((codes) => codes.includes(event.code));
    const seat = group + 1 + (event.shiftKey ? KEYS.length : 0);
    if (group < 0 || !panels.has(seat) || panels.get(seat).hidden) return;
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
      for (const [seat, panel] of panels) {
        panel.hidden = seat > count;
        const name = state.names && state.names[seat];
        panel.querySelector("h2").textContent = name ? `Seat ${seat}: ${name}` : `Seat ${seat}`;
      }
    },
    lamps(lamps) {
      for (const [name, states] of Object.entries(lamps)) {
        const panel = panels.get(Number(name.slice(4)));
        panel?.querySelectorAll(".hole").forEach((button, i) => {
          button.className = button.className.replace(/lamp-\w+/, "lamp-" + states[i]);
        });
      }
    },
    frame({name, ...frame}) {
      const img = document.querySelector(`img[data-display="${name}"]`);
      if (img) showFrame(img, frame);
    },
  });
})();
