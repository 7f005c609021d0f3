// The room's description of the table (companion/render/tv.py) drawn in HTML: the players with their scores and
// what they are doing, and the last turns in words. Shared by the TV view and a phone's public table.
"use strict";

const room = (() => {
  const {node} = screens;

  // Each player a row: the seat's colour, the whole name, what it is doing (locked in, never what), more of it
  // (King Mole, its hand's size, its side), the score and its unit.
  function players(list, room) {
    list.replaceChildren(...room.players.map((player) => {
      const row = node("li", [player.doing && "is-" + player.doing.replace(" ", "-")].filter(Boolean).join(" "));
      row.dataset.seat = player.seat;
      row.style.setProperty("--seat", boards.colour(player.seat));
      const who = node("span", "who");
      who.append(node("span", "name", player.name));
      if (player.doing) who.append(node("span", "doing", player.doing));
      if (player.more.length) who.append(node("span", "more", player.more.join(" · ")));
      const score = node("span", "score");
      score.append(node("b", "figure", player.score), node("span", "unit", player.unit));
      row.append(node("span", "mark"), who, score);
      return row;
    }));
  }

  // The last turns, the latest first, each its title and its sentences; ``fits()`` says whether what is drawn
  // still fits its box: a sentence that would not is left out whole, and older turns with it. A turn drawn already
  // and unchanged keeps its elements, so a live region (a screen reader) is told only the new and the changed.
  // ``linked``: each sentence opens the rule behind it (its clause's anchor of /rules/GAME) in a tab of its own, so
  // the page keeps its place.
  function turns(into, room, fits = () => true, linked = false) {
    const sentence = (turn, i) => {
      const clause = linked && turn.clauses?.[i];
      if (!clause) return node("p", "", turn.lines[i]);
      const link = node("a", "", turn.lines[i]);
      Object.assign(link, {href: `/rules/${room.game}#${clause}`, target: "_blank", rel: "noopener"});
      const line = node("p");
      line.append(link);
      return line;
    };
    const sentences = (turn, from) => turn.lines.slice(from).map((_, i) => sentence(turn, from + i));
    const drawn = new Map([...into.children].map((block) => [block.dataset.told, block]));
    const blocks = [...room.turns].reverse().filter((turn) => turn.lines.length).map((turn) => {
      const told = JSON.stringify([turn.title, turn.lines]);
      const kept = drawn.get(told);
      if (kept) {                                                   // whole again if cut short last time, to be fitted
        kept.append(...sentences(turn, kept.childElementCount - 1));
        return kept;
      }
      const block = node("div", "turn");
      block.dataset.told = told;
      block.append(node("h3", "", turn.title), ...sentences(turn, 0));
      return block;
    });
    [...into.children].filter((block) => !blocks.includes(block)).forEach((block) => block.remove());
    blocks.forEach((block, i) => {
      if (into.children[i] !== block) into.insertBefore(block, into.children[i] || null);
    });
    while (into.lastElementChild && !fits()) {                     // the oldest sentence drawn goes first
      const block = into.lastElementChild;
      block.lastElementChild.remove();
      if (block.childElementCount === 1) block.remove();
    }
  }

  // A new reveal is a moment: for config.picksMs (the table display shows the picks as long) the picks show alone and
  // what came after them waits. ``moment(draw, picked)`` answers the function to hand each description of the room:
  // it draws it at once (``draw(room)``); at a new reveal it calls ``picked(turn)`` with the reveal's turn, and draws
  // the latest description once the picks have shown (``draw(room, at)``, ``at`` the reveal's place in the log).
  function moment(draw, picked) {
    let last;                           // the log index of the last reveal drawn (-1: none; undefined: nothing yet)
    let held = null;                    // the latest description, kept from the page while the picks show alone
    const revealing = (room) => [...(room.turns || [])].reverse().find((turn) => turn.reveal);
    const at = (room) => revealing(room)?.reveal.at ?? -1;
    return (room) => {
      if (held) {
        held = room;
        return;
      }
      const fresh = last !== undefined && at(room) > last;
      last = at(room);
      if (!fresh) return draw(room);
      const when = last;
      held = room;
      picked(revealing(room));
      setTimeout(() => {
        const latest = held;
        held = null;
        last = Math.max(last, at(latest));     // one that came meanwhile: drawn, no moment
        draw(latest, when);
      }, molebox.config.picksMs);
    };
  }

  return {players, turns, moment};
})();
