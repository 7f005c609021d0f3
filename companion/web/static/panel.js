// A seat's panel as a page draws it, shared by the simulator and a phone seat's page: the five hole
// buttons and OK pressed by pointer (held while held, as the real buttons), their lamps, and the seat's
// screen: the simulator's its OLED's pixels (with a real-size view), a phone's the screen's description in words.
"use strict";

const panels = (() => {
  const {t} = molebox;
  const CONTROLS = ["hole1", "hole2", "hole3", "hole4", "hole5", "ok"];

  // A seat's <section>: its title, its screen, five holes and OK; keyOf(index) labels each button's key ("" for
  // none). ``alt``: the OLED's description for the simulator; null: a phone's, whose screen is drawn in words
  // (screens.draw into its ``.screen``).
  function build(seat, keyOf, press, alt) {
    const panel = document.createElement("section");
    panel.className = "seat";
    panel.dataset.seat = seat;
    panel.innerHTML = `<h2></h2>${alt === null ? '<div class="screen" aria-live="polite"></div>' : '<img class="oled">'}` +
                      '<div class="holes"></div><button class="ok" data-control="ok">OK <kbd></kbd></button>';
    panel.querySelector("h2").textContent = t("Seat {seat}", {seat});
    const oled = panel.querySelector(".oled");
    if (oled) {
      oled.dataset.display = "seat" + seat;
      oled.alt = alt;
    }
    const holes = panel.querySelector(".holes");
    for (let i = 0; i < 5; i++) {
      const button = document.createElement("button");
      button.className = "hole lamp-off";
      button.dataset.control = CONTROLS[i];
      button.innerHTML = `<span class="number">${i + 1}</span><kbd>${keyOf(i)}</kbd>`;
      holes.append(button);
    }
    panel.querySelector(".ok kbd").textContent = keyOf(5);
    panel.querySelectorAll("button").forEach((button) => bind(button, (pressed) => press(button.dataset.control, pressed)));
    return panel;
  }

  // Down on pointerdown, up on release or when the pointer is lost: a long press is a hold.
  function bind(button, press) {
    button.addEventListener("pointerdown", (event) => {
      event.preventDefault();
      button.setPointerCapture(event.pointerId);
      press(true);
    });
    for (const kind of ["pointerup", "pointercancel", "lostpointercapture"]) {
      button.addEventListener(kind, () => press(false));
    }
    button.addEventListener("contextmenu", (event) => event.preventDefault());
  }

  // Each button's accessible name, from the seat's screen (its description): what the button does now, in the
  // screen's own words ("Hole 3: pop up or down", "OK: lock in", "Hold OK: change picks"), or that it does nothing.
  function name(panel, screen) {
    const gives = (button, hole) => {
      const range = button.match(/^([1-5])(?:-([1-5]))?$/);
      return range && Number(range[1]) <= hole && hole <= Number(range[2] || range[1]);
    };
    panel.querySelectorAll(".holes .hole").forEach((button, i) => {
      const does = screen.options.filter((option) => gives(option.button, i + 1))
        .map((option) => (option.chosen ? t("{words}, chosen", {words: option.words}) : option.words))
        .join("; ") || t("not used now");
      button.setAttribute("aria-label", t("Hole {hole}: {does}", {hole: i + 1, does}));
    });
    const ok = screen.options.filter((option) => option.button === "OK" || option.button === "hold OK")
      .map(({button, words}) => (button === "OK" ? t("OK: {words}", {words}) : t("Hold OK: {words}", {words})));
    panel.querySelector(".ok").setAttribute("aria-label", ok.join(". ") || t("OK: not used now"));
  }

  function showPressed(panel, control, pressed) {
    panel?.querySelector(`[data-control="${control}"]`)?.classList.toggle("pressed", pressed);
  }

  function paintLamps(panel, states) {
    panel?.querySelectorAll(".holes .hole").forEach((button, i) => {
      button.className = button.className.replace(/lamp-\w+/, "lamp-" + states[i]);
    });
  }

  // Real size: each OLED as wide as its panel's lit area (glass: display name -> [w, h] mm), in
  // millimetres the player calibrates against a bank card; kept in the browser.
  const CARD_MM = 85.6;
  function realSize(glass) {
    const box = document.getElementById("real-size");
    const pxPerMm = document.getElementById("px-per-mm");
    function apply() {
      const on = box.checked, scale = Number(pxPerMm.value);
      document.body.classList.toggle("real-size", on);
      document.getElementById("sizing").hidden = !on;
      document.getElementById("card-bar").style.width = CARD_MM * scale + "px";
      for (const img of document.querySelectorAll("img.oled")) {
        const mm = glass[img.dataset.display];
        img.style.width = on && mm ? mm[0] * scale + "px" : "";
      }
      localStorage.setItem("molebox.realSize", JSON.stringify({on, scale}));
    }
    const sizes = [...new Set(Object.values(glass).map(([w, h]) => t("{w} × {h} mm", {w, h})))];
    document.getElementById("glass-size").textContent = t("The OLEDs are drawn as large as the panels' lit area " +
      "({sizes}): judge at arm's length what a player will read. A browser only guesses a screen's millimetres: " +
      "hold a bank card (85.6 mm wide) against the bar and slide until they match.", {sizes: sizes.join(", ")});
    box.parentElement.hidden = sizes.length === 0;
    const saved = JSON.parse(localStorage.getItem("molebox.realSize") || "{}");
    pxPerMm.value = saved.scale ?? 96 / 25.4;           // CSS's own millimetre until calibrated
    box.checked = saved.on ?? true;                     // real size unless the maker turned it off
    box.addEventListener("change", apply);
    pxPerMm.addEventListener("input", apply);
    apply();
  }

  return {CONTROLS, build, name, showPressed, paintLamps, realSize};
})();
