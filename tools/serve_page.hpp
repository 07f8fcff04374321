// The page `cgtb serve` answers at / (tools/cmd_serve.cpp): plain HTML and
// JavaScript, every asset embedded, nothing fetched but the server's own API.
#pragma once

namespace cgtb::tools {

inline const char* const kServePage = R"PAGE(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cgtb explorer</title>
<style>
body { font-family: sans-serif; margin: 1.5em; max-width: 70em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.2em; }
table.board { border-collapse: collapse; margin: 0.5em 0; }
table.board td { width: 2.4em; height: 2.4em; border: 1px solid #555; text-align: center; cursor: pointer; }
td.empty { background: #f4f4ec; } td.covered { background: #555; cursor: default; }
td.sel { background: #ffd54f; }
table.vals, table.opts { border-collapse: collapse; }
table.vals td, table.opts td, table.opts th { border: 1px solid #ccc; padding: 0.2em 0.5em; font-family: monospace; }
table.opts th { background: #eee; font-family: sans-serif; }
.win { color: #0a0; font-weight: bold; } .err { color: #b00; } .mono { font-family: monospace; }
a.move { cursor: pointer; color: #06c; text-decoration: underline; white-space: nowrap; }
input.pos { width: 30em; font-family: monospace; }
</style>
</head>
<body>
<h1><a href="/">cgtb explorer</a></h1>
<div id="main">loading...</div>
<script>
"use strict";
const params = new URLSearchParams(location.search);
const main = document.getElementById("main");
let tables = [], tb = null, pos = "", history_ = [], sel = null, board = null;

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) { if (k === "onclick") e.onclick = attrs[k]; else e.setAttribute(k, attrs[k]); }
  for (const c of kids) e.append(c);
  return e;
}
async function api(path) {
  const r = await fetch(path);
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || ("HTTP " + r.status));
  return j;
}
function showList() {
  main.replaceChildren(el("h2", {}, "Tablebases"));
  const ul = el("ul");
  for (const t of tables)
    ul.append(el("li", {}, el("a", {href: "?tb=" + encodeURIComponent(t.name)}, t.name),
      " \u2014 " + t.game + " " + t.params + " (" + t.family + "; values " + t.values.join(", ") +
      "; levels " + t.levels.map(l => l.level).join(" ") + ")"));
  main.append(ul);
}
// Cram and Domineering tables with an RxC board are drawn as a grid.
function boardOf(t) {
  if (t.game !== "cram" && t.game !== "domineering") return null;
  const m = /^(\d+)x(\d+)$/.exec(t.params);
  return m ? {rows: +m[1], cols: +m[2]} : null;
}
function startPos() {
  return board ? Array(board.rows).fill(".".repeat(board.cols)).join("/") : "";
}
function cells() { return pos.split("/").map(r => r.split("")); }
function setPos(p, remember) {
  if (remember && p !== pos) history_.push(pos);
  pos = p; sel = null;
  const q = new URLSearchParams({tb: tb.name});
  if (pos) q.set("pos", pos);
  window.history.replaceState(null, "", "?" + q.toString());
  render();
}
function clickCell(r, c) {
  const g = cells();
  if (!g[r] || g[r][c] !== ".") return;
  if (!sel) { sel = [r, c]; render(); return; }
  const [r0, c0] = sel;
  if (r0 === r && c0 === c) { sel = null; render(); return; }
  if (Math.abs(r0 - r) + Math.abs(c0 - c) !== 1) { sel = [r, c]; render(); return; }
  g[r0][c0] = "#"; g[r][c] = "#";
  setPos(g.map(x => x.join("")).join("/"), true);
}
function drawBoard() {
  const g = cells();
  const t = el("table", {class: "board"});
  g.forEach((row, r) => {
    const tr = el("tr");
    row.forEach((ch, c) => {
      const isSel = sel && sel[0] === r && sel[1] === c;
      tr.append(el("td", {class: ch === "." ? (isSel ? "empty sel" : "empty") : "covered",
        title: String.fromCharCode(97 + c) + (r + 1), onclick: () => clickCell(r, c)}));
    });
    t.append(tr);
  });
  return t;
}
function valuesTable(obj, skip) {
  const t = el("table", {class: "vals"});
  for (const k in obj) {
    if (skip.includes(k)) continue;
    const v = obj[k];
    t.append(el("tr", {}, el("td", {}, k), el("td", {}, Array.isArray(v) ? v.join(" ") : String(v))));
  }
  return t;
}
// Whether an option wins for its mover, under normal play and under misere play.
function wins(o, side) {
  if (side === null) {  // impartial: the option is a P-position
    return [o.grundy === undefined ? null : o.grundy === 0, o.misere === undefined ? null : o.misere === 0];
  }
  const good = side === "left" ? ["L", "P"] : ["R", "P"];
  const w = x => x === undefined ? null : good.includes(x);
  return [w(o.normal_outcome), w(o.misere_outcome)];
}
function optionsTable(list, side) {
  if (!list.length) return el("p", {}, "no options");
  const keys = [];
  for (const o of list) for (const k in o) if (k !== "move" && k !== "position" && !keys.includes(k)) keys.push(k);
  // A "wins" column per convention the table has values of (a table built
  // with --values normal has no misere column).
  const marks = [["wins (normal)", 0], ["wins (mis\u00e8re)", 1]].filter(([, i]) => list.some(o => wins(o, side)[i] !== null));
  const t = el("table", {class: "opts"});
  t.append(el("tr", {}, el("th", {}, "move"), el("th", {}, "position"), ...keys.map(k => el("th", {}, k)),
    ...marks.map(([title]) => el("th", {}, title))));
  for (const o of list) {
    const w = wins(o, side);
    const mark = x => x === null ? el("td", {}, "?") : el("td", {class: x ? "win" : ""}, x ? "\u2714 wins" : "");
    t.append(el("tr", {}, el("td", {}, el("a", {class: "move", onclick: () => setPos(o.position, true)}, o.move)),
      el("td", {}, o.position), ...keys.map(k => el("td", {}, o[k] === undefined ? "" : String(o[k]))),
      ...marks.map(([, i]) => mark(w[i]))));
  }
  return t;
}
async function render() {
  main.replaceChildren(el("h2", {}, tb.name + " \u2014 " + tb.game + " " + tb.params));
  const box = el("input", {class: "pos", value: pos, "aria-label": "position"});
  const go = el("button", {onclick: () => setPos(box.value.trim(), true)}, "Go");
  box.addEventListener("keydown", e => { if (e.key === "Enter") go.click(); });
  const undo = el("button", {onclick: () => { if (history_.length) { pos = history_.pop(); setPos(pos, false); } }}, "Undo");
  const reset = el("button", {onclick: () => setPos(startPos(), true)}, "Reset");
  main.append(el("p", {}, "Position: ", box, " ", go, " ", undo, " ", reset));
  if (board && /^[.#]+(\/[.#]+)*$/.test(pos)) {
    main.append(drawBoard());
    main.append(el("p", {}, "Click two adjacent empty cells to place a domino" +
      (tb.game === "domineering" ? " (Left plays vertical, Right horizontal)." : ".")));
  }
  if (!pos) return;
  const out = el("div");
  main.append(out);
  try {
    const q = "tb=" + encodeURIComponent(tb.name) + "&pos=" + encodeURIComponent(pos);
    // Both requests at once; the values' error, if any, is the one shown (the
    // two may word the same refusal differently).
    const [vr, ores] = await Promise.allSettled([api("/api/query?" + q), api("/api/options?" + q)]);
    if (vr.status === "rejected") throw vr.reason;
    if (ores.status === "rejected") throw ores.reason;
    const v = vr.value, o = ores.value;
    out.append(el("h2", {}, "Values"), valuesTable(v, ["position"]));
    if (o.options) out.append(el("h2", {}, "Options"), optionsTable(o.options, null));
    if (o.left_options) out.append(el("h2", {}, "Left's options"), optionsTable(o.left_options, "left"));
    if (o.right_options) out.append(el("h2", {}, "Right's options"), optionsTable(o.right_options, "right"));
  } catch (e) {
    out.append(el("p", {class: "err"}, "error: " + e.message));
  }
}
(async () => {
  try {
    tables = await api("/api/tablebases");
  } catch (e) { main.replaceChildren(el("p", {class: "err"}, "error: " + e.message)); return; }
  const name = params.get("tb");
  tb = tables.find(t => t.name === name) || null;
  if (!tb) { showList(); if (name) main.prepend(el("p", {class: "err"}, "unknown tablebase " + name)); return; }
  board = boardOf(tb);
  pos = params.has("pos") ? params.get("pos") : startPos();
  setPos(pos, false);
})();
</script>
</body>
</html>
)PAGE";

}  // namespace cgtb::tools
