// Two small SVG charts for the dashboard, drawn from plain numbers: no library, nothing fetched.
"use strict";

const charts = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  // One colour per seat, told apart on a dark background and by most colour-blind eyes.
  const COLOURS = ["#f2b134", "#4ea8de", "#7bd389", "#ff6b5b", "#c792ea", "#f7f7f7", "#ff9f1c", "#2ec4b6"];

  function node(tag, attributes, text) {
    const element = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    if (text !== undefined) element.textContent = text;
    return element;
  }

  // A round step for an axis running to `top`: 1, 2, 5, 10, 20, 50...
  function step(top, ticks = 4) {
    const rough = Math.max(top / ticks, 1);
    const power = 10 ** Math.floor(Math.log10(rough));
    return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough);
  }

  // Horizontal bars in one colour (players are not seats): rows of {label, value, note}, in the order given.
  function bars(rows) {
    const height = 26, labelWidth = 110, width = 320;
    const top = Math.max(1, ...rows.map((r) => r.value));
    const svg = node("svg", {viewBox: `0 0 ${width} ${rows.length * height + 4}`, role: "img", class: "chart"});
    rows.forEach((row, i) => {
      const y = i * height + 2, length = (width - labelWidth - 40) * row.value / top;
      const group = node("g", {"data-label": row.label, "data-value": row.value});
      group.append(
        node("title", {}, `${row.label}: ${row.note}`),
        node("text", {x: labelWidth - 6, y: y + 16, "text-anchor": "end", class: "label"}, row.label),
        node("rect", {x: labelWidth, y: y + 3, width: Math.max(length, 1.5), height: height - 8, rx: 3, class: "bar"}),
        node("text", {x: labelWidth + length + 6, y: y + 16, class: "value"}, String(row.value)));
      svg.append(group);
    });
    return svg;
  }

  // Lines over turns: series of {label, values} (values[t] after turn t, t = 0 the start).
  function lines(series) {
    const width = 320, height = 180, left = 34, right = 8, topPad = 8, bottom = 22;
    const turns = Math.max(1, ...series.map((s) => s.values.length - 1));
    const top = Math.max(1, ...series.flatMap((s) => s.values));
    const unit = step(top);
    const ceiling = Math.ceil(top / unit) * unit;
    const x = (t) => left + (width - left - right) * t / turns;
    const y = (v) => topPad + (height - topPad - bottom) * (1 - v / ceiling);
    const svg = node("svg", {viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart"});
    for (let v = 0; v <= ceiling; v += unit) {
      svg.append(node("line", {x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid"}),
                 node("text", {x: left - 4, y: y(v) + 4, "text-anchor": "end", class: "axis"}, String(v)));
    }
    const turnStep = step(turns, 6);
    for (let t = 0; t <= turns; t += turnStep) {
      svg.append(node("text", {x: x(t), y: height - 6, "text-anchor": "middle", class: "axis"}, String(t)));
    }
    // Seats level at a turn are drawn side by side (SPREAD apart), never one hidden under another.
    const SPREAD = 3;
    const drawnAt = (i, t) => {
      const v = series[i].values[t];
      const level = series.map((s, j) => j).filter((j) => series[j].values[t] === v);
      return y(v) + (level.indexOf(i) - (level.length - 1) / 2) * SPREAD;
    };
    const marks = turns <= 40;
    series.forEach((s, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const points = s.values.map((v, t) => [x(t), drawnAt(i, t)]);
      const group = node("g", {"data-label": s.label, "data-values": s.values.join(",")});
      group.append(node("title", {}, `${s.label}: ${s.values.join(" → ")}`),
                   node("polyline", {points: points.map((p) => p.join(",")).join(" "),
                                     fill: "none", stroke: colour, "stroke-width": 2.5}));
      if (marks || points.length === 1) {
        for (const [cx, cy] of points) group.append(node("circle", {cx, cy, r: 2.5, fill: colour}));
      }
      svg.append(group);
    });
    return svg;
  }

  // The legend under a chart: one coloured key per series.
  function legend(labels) {
    const list = document.createElement("ul");
    list.className = "legend";
    labels.forEach((label, i) => {
      const item = document.createElement("li");
      item.style.setProperty("--key", COLOURS[i % COLOURS.length]);
      item.textContent = label;
      list.append(item);
    });
    return list;
  }

  return {bars, lines, legend};
})();
