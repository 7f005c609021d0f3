// A phone seat's page: that seat's OLED, lamps and buttons, and nothing of any other seat. Presses
// name the event stream they were pressed on: one sent while the page had lost the box is refused.
"use strict";

(() => {
  const {config, say, post, listen, showFrame} = molebox;
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
      say("not joined", true);
    }
  }

  joinForm.addEventListener("submit", (event) => {
    event.preventDefault();
    join(document.getElementById("code").value);
  });

  function joining() {
    document.getElementById("real-size-label").hidden = true;
    joinForm.hidden = false;
    say("not joined");
    if (config.asked) tell(`This phone does not hold seat ${config.asked}: join it with its code.`);
    if (config.code) {
      document.getElementById("code").value = config.code;
      join(config.code);
    }
  }

  function playing(seat) {
    document.getElementById("title").textContent = "seat " + seat;
    document.title = "molebox seat " + seat;
    let stream = null;                 // the live stream's id; null while the box is out of reach
    let sending = Promise.resolve();   // presses reach the box in the order they happened
    const held = new Set();

    function press(control, pressed) {
      if (pressed === held.has(control)) return;
      pressed ? held.add(control) : held.delete(control);
      panels.showPressed(panel, control, pressed);
      if (stream === null) {
        if (pressed) tell("Not sent: the box is out of reach. Press again once this page says live.");
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
        ? "Not sent: the box is out of reach. Press again once this page says live." : error.message));
    }

    const panel = panels.build(seat, () => "", press, "your seat's screen");
    document.getElementById("seats").append(panel);
    panels.realSize({["seat" + seat]: config.glassMm});
    addEventListener("blur", () => [...held].forEach((control) => press(control, false)));

    const source = listen(`/api/seat/${seat}/events`, {
      hello(hello) {
        stream = hello.stream;
        tell("");
      },
      state(state) {
        const name = state.names && state.names[seat];
        panel.querySelector("h2").textContent = name ? `Seat ${seat}: ${name}` : `Seat ${seat}`;
      },
      lamps(states) {
        panels.paintLamps(panel, states);
      },
      frame({name, ...frame}) {
        showFrame(panel.querySelector(".oled"), frame);
      },
    });
    source.onerror = () => {
      stream = null;
      if (source.readyState !== EventSource.CLOSED) {
        say("reconnecting…", true);
        return;
      }
      say("not joined", true);
      tell(`This phone no longer holds seat ${seat} (the host freed it, or the box restarted): join again.`);
      joinForm.hidden = false;
    };
  }

  config.seat ? playing(config.seat) : joining();
})();
