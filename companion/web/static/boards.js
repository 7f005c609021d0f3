// Each game's board drawn in SVG from its description's board data (the table's, and a seat's own marks over it),
// for the TV view and a phone's public table. The SVG keeps its own proportions; its words are figures and names
// from the description, drawn large enough for the TV's far end of the sofa (tests/web/test_tv.py measures them).
"use strict";

const boards = (() => {
  const {t} = molebox;
  const NS = "http://www.w3.org/2000/svg";
  const COLOURS = ["#e8544e", "#4e9de8", "#f2b134", "#7bd389", "#c77dff", "#ff9f5b", "#5fd4d0", "#f27ab8"];
  const TEXT = 46;                   // a figure's size, in the board's own units (about its pixels on a 1080p TV)

  function el(tag, attrs = {}, ...children) {
    const node = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    node.append(...children);
    return node;
  }

  function svg(width, height, label, ...children) {
    return el("svg", {viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, class: "board-svg"},
              ...children);
  }

  const text = (x, y, words, attrs = {}) =>
    el("text", {x, y, "font-size": TEXT, "text-anchor": "middle", "dominant-baseline": "central", ...attrs}, words);
  const colour = (seat) => COLOURS[(seat - 1) % COLOURS.length];
  const measure = document.createElement("canvas").getContext("2d");
  measure.font = `700 ${TEXT}px "DejaVu Sans Condensed", "DejaVu Sans", sans-serif`;     // as .board-svg draws names

  // A player's name as a board's name column of ``room`` units holds it: whole where it fits, else its short form
  // (companion/render/naming.py: "Mary", "Anna K."), pressed to fit where even that does not; never a cut word.
  function who(x, y, player, room, attrs) {
    const name = measure.measureText(player.name).width <= room ? player.name : player.short;
    const pressed = measure.measureText(name).width > room ? {textLength: room, lengthAdjust: "spacingAndGlyphs"} : {};
    return text(x, y, name, {class: "who", ...attrs, ...pressed});
  }
  // The room a column of the players' names takes (at least ``least``), so every short form is whole.
  const namesWidth = (players, least) => Math.max(least, ...players.map((p) => 30 + measure.measureText(p.short).width));

  // Whakka Mole: each seat's sheet, a row each: its five holes and their tokens; the last reveal's pop-ups ringed,
  // the hole whacked crossed.
  function whakka(board, players) {
    const rows = board.sheets.length, rowH = Math.min(110, Math.max(64, 560 / rows)), r = rowH * 0.4;
    const nameW = namesWidth(players, 330), step = 154, width = nameW + 5 * step;
    const out = [];
    board.sheets.forEach((sheet, i) => {
      const seat = i + 1, y = rowH * i + rowH / 2, last = (board.last || [])[i];
      const whacked = last && last.whacked_by ? board.last[last.whacked_by - 1].whack : null;
      out.push(who(nameW - 20, y, players[i], nameW - 30, {"text-anchor": "end", fill: colour(seat)}));
      sheet.forEach((tokens, h) => {
        const x = nameW + step * h + step / 2;
        const popped = last && last.popup.includes(h + 1);
        const hole = el("g", {class: "sheet-hole" + (tokens ? " tokens" : "") + (popped ? " popped" : ""),
                              "data-hole": h + 1, "data-tokens": tokens},
                        el("circle", {cx: x, cy: y, r}));
        if (tokens) hole.append(text(x, y, String(tokens), {class: "figure"}));
        if (whacked === h + 1) {
          hole.append(el("path", {d: `M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}`,
                                  class: "whacked"}));
        }
        out.push(hole);
      });
    });
    return svg(width, rowH * rows, t("each player's sheet of five holes and their tokens"), ...out);
  }

  // Mole Hill: the 9 x 7 board; flowers (red diamonds 2 points, white crosses 1), the trail's pieces (light, dark)
  // joined by the mole's path, the rods on the edges, the mole on its stack; a seat's cursor and targets over it.
  function moleHill(board, players, mine) {
    const cell = 86, pad = 12, w = board.cols * cell + 2 * pad, h = board.rows * cell + 2 * pad;
    const at = (col, row) => [pad + (col - 0.5) * cell, pad + (row - 0.5) * cell];
    const out = [el("rect", {x: 0, y: 0, width: w, height: h, rx: 14, class: "ground"})];
    const flowers = new Map(board.flowers.map(([c, r, points]) => [`${c},${r}`, points]));
    for (let row = 1; row <= board.rows; row++) {
      for (let col = 1; col <= board.cols; col++) {
        const [x, y] = at(col, row);
        const centre = col === board.centre[0] && row === board.centre[1];
        out.push(centre ? el("circle", {cx: x, cy: y, r: cell * 0.28, class: "centre"})
                        : el("circle", {cx: x, cy: y, r: 5, class: "space"}));
      }
    }
    for (const [col, row, kind] of board.trail) {
      const [x, y] = at(col, row);
      out.push(el("rect", {x: x - cell * 0.42, y: y - cell * 0.42, width: cell * 0.84, height: cell * 0.84, rx: 8,
                           class: "piece " + kind}));
    }
    for (const [key, points] of flowers) {
      const [x, y] = at(...key.split(",").map(Number)), s = cell * 0.26;
      out.push(points === 2
        ? el("path", {d: `M${x} ${y - s}L${x + s} ${y}L${x} ${y + s}L${x - s} ${y}Z`, class: "flower red"})
        : el("path", {d: `M${x - s} ${y - s}L${x + s} ${y + s}M${x + s} ${y - s}L${x - s} ${y + s}`,
                      class: "flower white"}));
    }
    if (board.trail.length > 1) {
      out.push(el("polyline", {points: board.trail.map(([c, r]) => at(c, r).join(",")).join(" "), class: "path"}));
    }
    for (const [col, row, side] of board.rods) {
      const [x, y] = at(col, row), half = cell / 2;
      out.push(side === "E"
        ? el("rect", {x: x + half - 6, y: y - half, width: 12, height: cell, rx: 4, class: "rod"})
        : el("rect", {x: x - half, y: y + half - 6, width: cell, height: 12, rx: 4, class: "rod"}));
    }
    if (board.position) {
      const [x, y] = at(...board.position);
      out.push(el("g", {class: "mole"}, el("circle", {cx: x, cy: y, r: cell * 0.34}),
                  el("circle", {cx: x - 10, cy: y - 8, r: 5, class: "eye"}),
                  el("circle", {cx: x + 10, cy: y - 8, r: 5, class: "eye"})));
    }
    for (const [col, row] of (mine && mine.targets) || []) {
      const [x, y] = at(col, row);
      out.push(el("circle", {cx: x, cy: y, r: cell * 0.4, class: "target"}));
    }
    if (mine && mine.cursor) {
      const [col, row, side] = mine.cursor, [x, y] = at(col, row), half = cell / 2;
      const box = !side ? [x - half, y - half, cell, cell]
        : side === "E" ? [x + half - 14, y - half, 28, cell] : [x - half, y + half - 14, cell, 28];
      out.push(el("rect", {x: box[0], y: box[1], width: box[2], height: box[3], rx: 8,
                           class: "cursor" + (mine.legal ? "" : " refused")}));
    }
    return svg(w, h, t("the Mole Hill board: the mole's path, its pieces, flowers and rods"), ...out);
  }

  // Mouse Madness: the track from the start (0) to the cheese, a row of spaces after another; mouse holes say where
  // they drop a mouse; each token a disc with its seat's number; a seat's chosen space marked.
  function mouseMadness(board, players, mine) {
    const spaces = board.length + 1, across = 8, cellW = 140, cellH = 150, gap = 12;
    const rows = Math.ceil(spaces / across), w = across * cellW, h = rows * cellH;
    const place = (space) => {
      const row = Math.floor(space / across), i = space % across;
      return [(row % 2 ? across - 1 - i : i) * cellW + cellW / 2, row * cellH + cellH / 2];
    };
    const holes = new Map(board.holes);
    const out = [];
    for (let space = 0; space < spaces; space++) {
      const [x, y] = place(space);
      const kind = space === 0 ? "start" : space === board.length ? "cheese" : holes.has(space) ? "mouse-hole" : "";
      const g = el("g", {class: "space " + kind, "data-space": space},
                   el("rect", {x: x - cellW / 2 + gap / 2, y: y - cellH / 2 + gap / 2, width: cellW - gap,
                               height: cellH - gap, rx: 18}),
                   text(x, y - 28, space === 0 ? "0" : String(space), {class: "figure"}));
      if (holes.has(space)) g.append(text(x, y + 30, "→" + holes.get(space), {class: "figure small"}));
      out.push(g);
    }
    const here = new Map();
    board.positions.forEach((space, i) => here.set(space, [...(here.get(space) || []), i + 1]));
    for (const [space, seats] of here) {
      const [x, y] = place(space), cy = y + 34;
      if (seats.length > 2) {                            // too many to read side by side: how many (whose: the players)
        out.push(el("g", {class: "token stack", "data-mice": seats.length},
                    el("rect", {x: x - 50, y: cy - 30, width: 100, height: 60, rx: 30}),
                    text(x, cy, `×${seats.length}`, {class: "figure on-token"})));
        continue;
      }
      seats.forEach((seat, k) => {                       // side by side
        const cx = x + (k - (seats.length - 1) / 2) * 64;
        out.push(el("g", {class: "token", "data-seat": seat, "data-mice": 1}, el("circle", {cx, cy, r: 30, fill: colour(seat)}),
                    text(cx, cy, String(seat), {class: "figure on-token"})));
      });
    }
    if (mine && mine.target != null) {
      const [x, y] = place(mine.target);
      out.push(el("rect", {x: x - cellW / 2 + 2, y: y - cellH / 2 + 2, width: cellW - 4, height: cellH - 4, rx: 20,
                           class: "cursor"}));
    }
    return svg(w, h, t("the Mouse Madness track, its mouse holes and every mouse"), ...out);
  }

  // Mole Park: the five holes and their moles, where the last dice landed (each seat's number), and the prize stands.
  function molePark(board) {
    const w = 1100, holeY = 150, r = 92, step = w / 5;
    const out = [];
    board.holes.forEach((moles, i) => {
      const x = step * i + step / 2;
      out.push(el("g", {class: "park-hole", "data-hole": i + 1, "data-moles": moles},
                  el("circle", {cx: x, cy: holeY, r}), text(x, holeY, String(moles), {class: "figure big"}),
                  text(x, holeY + r + 38, t("hole {hole}", {hole: i + 1}), {class: "label"})));
      const landed = board.rolls.filter((roll) => roll.die !== "prize" && Number(roll.face) === i + 1);
      landed.forEach((roll, k) => {
        const cx = x - r + 24 + k * 60, cy = holeY - r + 6;
        out.push(el("g", {class: "die", "data-seat": roll.seat},
                    el("rect", {x: cx - 28, y: cy - 28, width: 56, height: 56, rx: 10, fill: colour(roll.seat)}),
                    text(cx, cy, String(roll.seat), {class: "figure on-token"})));
      });
    });
    const standW = w / board.stands.length;
    board.stands.forEach((stand, i) => {
      const x = standW * i + 8, y = 330;
      out.push(el("g", {class: "stand" + (stand.shown ? "" : " empty"), "data-stand": stand.stand},
                  el("rect", {x, y, width: standW - 16, height: 150, rx: 14}),
                  text(x + (standW - 16) / 2, y + 52, stand.shown ? `${stand.stars}★` : "–", {class: "figure"}),
                  text(x + (standW - 16) / 2, y + 112, t("stand {stand}", {stand: stand.stand}), {class: "label"})));
    });
    // The star track while prizes are picked: each seat's total in picking order, in its colour; the seats done
    // with prizes dark inside their colour (their figures light, so as readable), those going for the Crown outlined.
    const track = board.track || [], trackW = Math.min(220, w / Math.max(1, track.length));
    track.forEach((entry, i) => {
      const x = trackW * i + 8, y = 510;
      out.push(el("g", {class: "track" + (entry.done ? " done" : "") + (entry.declared ? " crown" : ""),
                        "data-seat": entry.seat, style: `--seat: ${colour(entry.seat)}`},
                  el("rect", {x, y, width: trackW - 16, height: 90, rx: 14, fill: colour(entry.seat)}),
                  text(x + (trackW - 16) / 2, y + 45, `${entry.total}★`, {class: "figure on-token"})));
    });
    return svg(w, track.length ? 610 : 500,
               t("Mole Park's five holes with their moles, the prize stands and the star track"), ...out);
  }

  // Mole: each side's points on the way to the target, and the mignettes alive or dead.
  function mole(board, players) {
    const nameW = namesWidth(players, 330), w = Math.max(1100, nameW + board.target * 68), out = [];
    board.scores.forEach((points, i) => {
      const y = 70 + i * 130, seat = i + 1;
      out.push(who(0, y, players[i], nameW - 40, {"text-anchor": "start", fill: colour(seat)}));
      for (let p = 0; p < board.target; p++) {
        out.push(el("circle", {cx: nameW + p * 68, cy: y, r: 26, class: "pip" + (p < points ? " won" : ""),
                               "data-seat": seat}));
      }
    });
    const step = Math.min(200, w / board.count);
    for (let n = 1; n <= board.count; n++) {
      const x = step * (n - 1) + step / 2, y = 390, dead = board.dead[String(n)];
      out.push(el("g", {class: "mignette" + (dead ? " dead" : ""), "data-mignette": n},
                  el("circle", {cx: x, cy: y, r: 62}), text(x, y, `M${n}`, {class: "figure"}),
                  ...(dead ? [el("path", {d: `M${x - 50} ${y - 50}L${x + 50} ${y + 50}`, class: "whacked"}),
                              text(x, y + 100, dead, {class: "label"})] : [])));
    }
    return svg(w, 520, t("the score to {target} and the mignettes", {target: board.target}), ...out);
  }

  // A seat's own sheet in Whakka Mole, as its OLED draws it: its holes and tokens, the holes it is popping up marked.
  function ownSheet(board) {
    const r = 40, step = 100;
    return svg(step * board.sheet.length, 2 * r + 24, t("your sheet: the holes you pop up are marked"),
               ...board.sheet.map((tokens, h) => {
                 const x = step * h + step / 2, marked = board.marked.includes(h + 1);
                 return el("g", {class: "sheet-hole" + (tokens ? " tokens" : "") + (marked ? " marked" : ""),
                                 "data-hole": h + 1},
                           el("circle", {cx: x, cy: r + 4, r}),
                           ...(tokens ? [text(x, r + 4, String(tokens), {class: "figure"})] : []),
                           ...(marked ? [el("rect", {x: x - r, y: 2 * r + 14, width: 2 * r, height: 10, rx: 4,
                                                      class: "mark"})] : []));
               }));
  }

  const GAMES = {"whakka-mole": whakka, "mole-hill": moleHill, "mouse-madness": mouseMadness, "mole-park": molePark,
                 "mole": mole};

  // The game's board (null: none), from the room's description ``room`` and, on a phone, the seat's own
  // description's board (its cursor, its choice) over it.
  function draw(room, mine) {
    const drawing = GAMES[room.game];
    return drawing && room.screen.board ? drawing(room.screen.board, room.players, mine) : null;
  }

  // A seat's own board where its screen has one of its own to show (Whakka Mole's sheet); null elsewhere.
  const own = (board) => (board && board.sheet ? ownSheet(board) : null);

  return {draw, own, colour};
})();
