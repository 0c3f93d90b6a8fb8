/**
 * The HTML report's script: it reads the report's data (JSON in a
 * `<script type="application/json">`) and draws the page with DOM calls only. Every piece
 * of text from an input is set with `textContent` or as an attribute value, control and
 * bidirectional characters made visible first; nothing is parsed as markup, nothing is
 * fetched, no URL is built from input. Written as plain ES2020 text (it runs as is in the
 * page, allowed by its hash in the page's Content-Security-Policy).
 * @module
 */

/** The page's script: draws the data of `#ag-ui-verify-data` into `#app` and `#detail`. */
export const PAGE_SCRIPT = String.raw`(function () {
"use strict";
var KINDS = ["text", "tool-call", "reasoning", "span", "step", "activity"];
var KIND_WORDS = ["text message", "tool call", "reasoning message", "reasoning span", "step", "activity"];
var ROW = 22;
var GAP = 6;
var data = JSON.parse(document.getElementById("ag-ui-verify-data").textContent);
var app = document.getElementById("app");
var detail = document.getElementById("detail");
var inputs = [];

function visible(text, lines) {
  var re = lines ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g
    : /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
  return String(text).replace(re, function (c) {
    return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4);
  });
}
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = visible(text, false);
  return e;
}
function add(parent) {
  for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]);
  return parent;
}
function num(n) { return Number(n).toLocaleString("en-US"); }
function plural(n, one) { return num(n) + " " + (n === 1 ? one : one + "s"); }
function sevWord(f) { return f[1] === 0 ? "error" : "warning"; }
function ruleLink(code) {
  if (typeof data.rules !== "string") return null;
  var a = el("a", "", "rule page: " + code);
  a.href = data.rules + "#" + encodeURIComponent(String(code).toLowerCase());
  a.rel = "noopener noreferrer";
  a.target = "_blank";
  return a;
}

function Ctx(m, k) {
  this.m = m; this.k = k; this.built = false;
  var g = m.gap;
  this.shownCount = m.sec.length;
  this.pos = function (i) {
    if (i < 0 || i >= m.events) return -1;
    if (g === null) return i < m.sec.length ? i : -1;
    return i < g[0] ? i : i >= g[1] ? i - (g[1] - g[0]) : -1;
  };
  this.index = function (p) { return g !== null && p >= g[0] ? p + (g[1] - g[0]) : p; };
  this.runLane = [];
  this.lanesByRun = m.runs.map(function () { return []; });
  for (var l = 0; l < m.lanes.length; l++) {
    var lane = m.lanes[l];
    if (lane[2] === null && this.runLane[lane[0]] === undefined) this.runLane[lane[0]] = l;
    if (this.lanesByRun[lane[0]]) this.lanesByRun[lane[0]].push(l);
  }
  this.barsByLane = m.lanes.map(function () { return []; });
  for (var b = 0; b < m.bars.length; b++) this.barsByLane[m.bars[b][0]].push(b);
  this.pinsBySection = {};
  this.atEvent = [];
  for (var f = 0; f < m.findings.length; f++) {
    var fd = m.findings[f];
    (this.pinsBySection[fd[9]] = this.pinsBySection[fd[9]] || []).push(f);
    this.markFinding(f);
  }
  this.barEls = []; this.pinEls = []; this.tickEls = {};
  this.rows = null; this.cur = -1;
}
Ctx.prototype.markFinding = function (f) {
  var fd = this.m.findings[f], m = this.m, found = 0;
  for (var i = fd[3]; i <= fd[4] && found < fd[5] && i < m.events; i++) {
    var p = this.pos(i);
    if (p === -1) { if (this.m.gap && i < this.m.gap[1]) { i = this.m.gap[1] - 1; } continue; }
    if (i === fd[3] || i === fd[4] || m.types[m.ty[p]] === fd[6]) {
      (this.atEvent[p] = this.atEvent[p] || []).push(f);
      found++;
    }
  }
};
Ctx.prototype.laneName = function (p) {
  var m = this.m, l = m.lane[p];
  if (m.sec[p] % 2 === 0) return "(outside runs)";
  if (l === -1 || m.lanes[l][2] === null) return "parent";
  return "subagent " + m.lanes[l][2];
};
Ctx.prototype.range = function (s) {
  var m = this.m, R = m.runs.length;
  if (s % 2 === 1) { var r = m.runs[(s - 1) / 2]; return [r[0], r[1]]; }
  var k = s / 2;
  return [k === 0 ? 0 : m.runs[k - 1][1] + 1, k < R ? m.runs[k][0] - 1 : m.events - 1];
};

function scale(ctx, a, b) {
  var g = ctx.m.gap;
  var crosses = g !== null && g[0] <= b && g[1] > a;
  var lead = crosses ? Math.max(0, g[0] - a) : 0;
  function base(i) {
    if (!crosses || i < g[0]) return i - a;
    if (i < g[1]) return lead + GAP / 2;
    return lead + GAP + (i - Math.max(g[1], a));
  }
  var total = Math.max(base(b) + 2, 1);
  return {
    crosses: crosses, lead: lead, total: total,
    at: function (i) { return (i > b ? base(b) + 1 : base(i)) / total * 100; },
    span: function (i, j) { return ((j > b ? base(b) + 1 : base(j)) - base(i) + 1) / total * 100; }
  };
}

function pinButton(ctx, f) {
  var fd = ctx.m.findings[f];
  var b = el("button", "pin " + sevWord(fd), (fd[1] === 0 ? "E" : "W") + (fd[5] > 1 ? " \u00d7" + num(fd[5]) : ""));
  b.type = "button";
  b.dataset.finding = fd[0];
  b.dataset.index = String(fd[3]);
  b.dataset.f = String(f);
  var label = sevWord(fd) + " " + fd[0] + " at event " + num(fd[3]) + (fd[5] > 1 ? " (" + num(fd[5]) + " events)" : "") + ": " + fd[8];
  b.setAttribute("aria-label", visible(label, false));
  b.title = visible(label, false);
  ctx.pinEls[f] = b;
  return b;
}

function laneOrder(ctx, r) {
  var m = ctx.m, all = ctx.lanesByRun[r], out = [], seen = {};
  var children = {};
  all.forEach(function (l) { var p = m.lanes[l][1]; (children[p] = children[p] || []).push(l); });
  var stack = [ctx.runLane[r]];
  while (stack.length) {
    var l = stack.pop();
    if (l === undefined || seen[l]) continue;
    seen[l] = true; out.push(l);
    var c = children[l] || [];
    for (var i = c.length - 1; i >= 0; i--) stack.push(c[i]);
  }
  all.forEach(function (l) { if (!seen[l]) out.push(l); });
  return out;
}

function drawSection(ctx, s, into) {
  var m = ctx.m, rg = ctx.range(s), a = rg[0], b = rg[1];
  var pins = ctx.pinsBySection[s] || [];
  var isRun = s % 2 === 1, r = (s - 1) / 2;
  if (!isRun && b < a && pins.length === 0) return;
  var box = el("div", isRun ? "run" : "strip");
  if (isRun) box.dataset.run = String(r); else box.dataset.strip = String(s / 2);
  var head = el("div", "run-head");
  if (isRun) {
    var run = m.runs[r];
    var status = { finished: "finished", error: "ended by RUN_ERROR", "late-error": "finished, then failed (late RUN_ERROR)", open: "not closed: the input ends inside it" }[run[2]];
    add(head, el("span", "", "Run " + r), el("span", "muted", (run[3] !== null ? " \u00b7 runId " + run[3] : "") + " \u00b7 events " + num(a) + "\u2013" + num(b) + " \u00b7 " + status));
  } else {
    add(head, el("span", "", s === 0 ? "Before the first run" : "After run " + (s / 2 - 1)), el("span", "muted", b >= a ? " \u00b7 events " + num(a) + "\u2013" + num(b) + " \u00b7 outside any run" : " \u00b7 at the end of input"));
  }
  add(box, head);
  var g = m.gap;
  if (g !== null && b >= a && a >= g[0] && b < g[1]) {
    box.dataset.elided = "";
    var body = add(el("div", "elided-run"), el("p", "muted", "Elided: all " + plural(b - a + 1, "event") + " of this " + (isRun ? "run" : "strip") + " lie in the part of the input the report leaves out."));
    var row = el("div", "pins");
    pins.forEach(function (f) { row.appendChild(pinButton(ctx, f)); });
    add(box, add(body, row));
    into.appendChild(box);
    return;
  }
  var sc = scale(ctx, a, b);
  var track = el("div", "track");
  track.style.width = Math.min(Math.max(sc.total * 12, 600), 30000) + 190 + "px";
  var lanes = isRun ? laneOrder(ctx, r) : [-1];
  var bodies = {};
  lanes.forEach(function (l) {
    var lane = l === -1 ? null : m.lanes[l];
    var L = el("div", "lane");
    var label;
    if (lane === null) {
      label = "outside runs";
    } else if (lane[2] === null) {
      L.dataset.lane = "parent";
      label = "parent";
    } else {
      L.dataset.lane = "subagent";
      L.dataset.subagent = lane[2];
      label = "subagent " + lane[2] + (lane[3] !== null ? " (" + lane[3] + ")" : "") + (lane[6] !== null ? " \u00b7 " + lane[6] : "");
    }
    var lab = el("div", "lane-label id", label);
    if (lane !== null) lab.style.paddingLeft = 6 + 14 * lane[7] + "px";
    var body = el("div", "lane-body");
    body.style.height = 30 + 16 * (lane === null ? 0 : lane[8]) + "px";
    if (lane !== null && lane[2] !== null && (lane[4] !== -1 || lane[5] !== -1)) {
      var from = lane[4] === -1 ? a : lane[4], to = lane[5] === -1 ? b + 1 : lane[5];
      var band = el("div", "band" + (lane[6] === "error" ? " error" : ""));
      band.style.left = sc.at(from) + "%";
      band.style.width = sc.span(from, to) + "%";
      body.appendChild(band);
    }
    if (sc.crosses) {
      var mark = add(el("div", "gapmark"), el("span", "", "\u22ef " + num(g[1] - g[0]) + " elided"));
      mark.style.left = sc.lead / sc.total * 100 + "%";
      mark.style.width = GAP / sc.total * 100 + "%";
      body.appendChild(mark);
    }
    add(track, add(L, lab, body));
    bodies[l] = body;
  });
  var main = isRun ? ctx.runLane[r] : -1;
  if (isRun) {
    lanes.forEach(function (l) {
      ctx.barsByLane[l].forEach(function (bi) {
        var bar = m.bars[bi];
        var e = el("button", "bar k-" + KINDS[bar[1]] + (bar[5] ? "" : " open"), bar[2]);
        e.type = "button";
        e.tabIndex = -1;
        e.dataset.entity = KINDS[bar[1]];
        e.dataset.id = bar[2];
        e.dataset.b = String(bi);
        e.style.left = sc.at(bar[3]) + "%";
        e.style.width = sc.span(bar[3], bar[4]) + "%";
        e.style.top = 30 + 16 * bar[6] + "px";
        e.title = visible(KIND_WORDS[bar[1]] + " " + bar[2] + ": events " + num(bar[3]) + "\u2013" + (bar[4] >= m.events ? "end of input" : num(bar[4])) + (bar[5] ? "" : " (unclosed)"), false);
        ctx.barEls[bi] = e;
        bodies[l].appendChild(e);
      });
    });
  }
  for (var i = Math.max(a, 0); i <= b; i++) {
    var p = ctx.pos(i);
    if (p === -1) { if (g !== null && i < g[1]) i = g[1] - 1; continue; }
    if (m.ent[p] !== -1) continue;
    var l = isRun ? (m.lane[p] === -1 ? main : m.lane[p]) : -1;
    var t = el("span", "tick");
    t.dataset.e = String(i);
    t.title = visible(i + ": " + m.types[m.ty[p]], false);
    t.style.left = sc.at(i) + "%";
    ctx.tickEls[i] = t;
    (bodies[l] || bodies[main]).appendChild(t);
  }
  var stackAt = {};
  pins.forEach(function (f) {
    var fd = ctx.m.findings[f];
    var l = isRun ? (fd[10] === -1 ? main : fd[10]) : -1;
    var pin = pinButton(ctx, f);
    var key = l + ":" + fd[3];
    var n = stackAt[key] = (stackAt[key] || 0) + 1;
    pin.style.left = "calc(" + sc.at(fd[3]) + "% + " + (n - 1) * 18 + "px)";
    (bodies[l] || bodies[main]).appendChild(pin);
  });
  add(box, add(el("div", "scroll"), track));
  into.appendChild(box);
}

function legend() {
  var box = el("div", "legend");
  KINDS.forEach(function (k, i) {
    add(box, add(el("span"), el("span", "swatch k-" + k), el("span", "", KIND_WORDS[i])));
  });
  add(box, add(el("span"), el("span", "pin error", "E"), el("span", "", "error")));
  add(box, add(el("span"), el("span", "pin warning", "W"), el("span", "", "warning")));
  add(box, el("span", "muted", "| tick: an event that opens nothing (state, raw, custom, a tool result…); a dashed end: never closed"));
  return box;
}

function showJson(ctx, i) {
  var p = ctx.pos(i), m = ctx.m;
  if (i >= m.events) return el("p", "hint", "At the end of input: there is no event here.");
  if (p === -1) return el("p", "hint", "Event " + num(i) + " lies in the elided part of the input.");
  var text = JSON.stringify(m.ev[p], null, 2);
  if (text === undefined) text = "undefined";
  if (text.length > 200000) text = text.slice(0, 200000) + "\n\u2026 (" + num(text.length) + " characters)";
  var pre = el("pre", "json");
  pre.textContent = visible(text, true);
  return pre;
}
function findingBlock(ctx, f) {
  var fd = ctx.m.findings[f], box = el("div", "finding");
  add(box, add(el("p"), el("span", "badge " + sevWord(fd), sevWord(fd)), el("strong", "", " " + fd[0]), el("span", "muted", fd[2] !== null ? " (rule " + fd[2] + ")" : "")));
  add(box, el("p", "", fd[8]));
  var where = fd[3] >= ctx.m.events ? "at the end of input" : "at event " + num(fd[3]) + (fd[6] !== null ? " (" + fd[6] + ")" : "");
  if (fd[5] > 1) where += "; " + num(fd[5]) + " events, the last at " + num(fd[4]);
  if (fd[7] !== null) where += "; field " + fd[7];
  if (fd[11] !== null) where += "; line " + num(fd[11]);
  add(box, el("p", "muted", where), add(el("p"), ruleLink(fd[0])));
  return box;
}
function setDetail(title, nodes) {
  detail.textContent = "";
  add(detail, el("h2", "", title));
  nodes.forEach(function (n) { add(detail, n); });
}
function highlight(ctx, bar, tick) {
  inputs.forEach(function (c) {
    c.barEls.forEach(function (e) { if (e) e.classList.remove("hl"); });
    Object.keys(c.tickEls).forEach(function (k) { c.tickEls[k].classList.remove("hl"); });
    c.pinEls.forEach(function (e) { if (e) e.classList.remove("sel"); });
  });
  var e = bar !== -1 ? ctx.barEls[bar] : ctx.tickEls[tick];
  if (e) {
    e.classList.add("hl");
    if (e.scrollIntoView) e.scrollIntoView({ block: "nearest", inline: "center" });
  }
}
function selectEvent(ctx, i, fromTable) {
  var p = ctx.pos(i), m = ctx.m, nodes = [];
  if (p !== -1) {
    var ent = m.ent[p];
    nodes.push(el("p", "muted", ctx.laneName(p) + (ent !== -1 ? " \u00b7 " + KIND_WORDS[m.bars[ent][1]] + " " + m.bars[ent][2] : "")));
    (ctx.atEvent[p] || []).forEach(function (f) { nodes.push(findingBlock(ctx, f)); });
    highlight(ctx, ent, i);
  }
  nodes.push(showJson(ctx, i));
  setDetail("Event " + num(i) + (p !== -1 ? ": " + m.types[m.ty[p]] : ""), nodes);
  if (!fromTable) tableTo(ctx, p);
}
function selectFinding(ctx, f) {
  var fd = ctx.m.findings[f], p = ctx.pos(fd[3]);
  setDetail(sevWord(fd) + " " + fd[0], [findingBlock(ctx, f), showJson(ctx, fd[3])]);
  highlight(ctx, p !== -1 ? ctx.m.ent[p] : -1, fd[3]);
  if (ctx.pinEls[f]) ctx.pinEls[f].classList.add("sel");
  tableTo(ctx, p);
}
function selectBar(ctx, b) {
  var bar = ctx.m.bars[b], nodes = [];
  nodes.push(el("p", "muted", "events " + num(bar[3]) + "\u2013" + (bar[4] >= ctx.m.events ? "end of input" : num(bar[4])) + (bar[5] ? "" : " \u00b7 never closed")));
  for (var i = bar[3]; i <= Math.min(bar[4], ctx.m.events - 1); i++) {
    var p = ctx.pos(i);
    if (p !== -1 && ctx.m.ent[p] === b) (ctx.atEvent[p] || []).forEach(function (f) { nodes.push(findingBlock(ctx, f)); });
  }
  nodes.push(showJson(ctx, bar[3]));
  setDetail(KIND_WORDS[bar[1]] + " " + bar[2], nodes);
  highlight(ctx, b, -1);
  tableTo(ctx, ctx.pos(bar[3]));
}

function drawTable(ctx, into) {
  var m = ctx.m;
  var filters = el("div", "filters");
  function select(label, options) {
    var s = el("select");
    options.forEach(function (o) { var opt = el("option", "", o[1]); opt.value = o[0]; s.appendChild(opt); });
    add(filters, add(el("label", "", label + " "), s));
    return s;
  }
  var types = [["", "all"]].concat(m.types.map(function (t, i) { return [String(i), t]; }));
  var laneNames = {}, lanes = [["", "all"]];
  for (var p = 0; p < m.sec.length && lanes.length < 500; p++) {
    var name = ctx.laneName(p);
    if (!laneNames[name]) { laneNames[name] = true; lanes.push([name, name]); }
  }
  var codes = [["", "all"], ["*", "any finding"]], seen = {};
  m.findings.forEach(function (f) { if (!seen[f[0]]) { seen[f[0]] = true; codes.push([f[0], f[0]]); } });
  var sType = select("type", types), sLane = select("lane", lanes), sCode = select("finding", codes);
  var countEl = el("span", "muted");
  add(filters, countEl);
  var headRow = el("div", "grid-head");
  ["#", "run", "lane", "type", "entity", "findings"].forEach(function (h) { add(headRow, el("span", "", h)); });
  var view = el("div", "viewport");
  view.tabIndex = 0;
  view.setAttribute("role", "grid");
  view.setAttribute("aria-label", "Events: arrow keys move, Enter shows the event");
  var spacer = el("div");
  view.appendChild(spacer);
  ctx.view = view;
  function apply() {
    var t = sType.value, l = sLane.value, c = sCode.value, rows = [];
    for (var p = 0; p < m.sec.length; p++) {
      if (t !== "" && String(m.ty[p]) !== t) continue;
      if (l !== "" && ctx.laneName(p) !== l) continue;
      if (c !== "") {
        var at = ctx.atEvent[p];
        if (!at) continue;
        if (c !== "*" && !at.some(function (f) { return m.findings[f][0] === c; })) continue;
      }
      rows.push(p);
    }
    ctx.rows = rows;
    ctx.cur = Math.min(ctx.cur, rows.length - 1);
    countEl.textContent = plural(rows.length, "event") + (m.gap !== null ? " shown (" + num(m.gap[1] - m.gap[0]) + " elided)" : "");
    spacer.style.height = rows.length * ROW + "px";
    render();
  }
  function render() {
    var rows = ctx.rows, top = Math.floor(view.scrollTop / ROW), end = Math.min(rows.length, top + Math.ceil(view.clientHeight / ROW) + 12);
    while (spacer.firstChild) spacer.removeChild(spacer.firstChild);
    for (var r = Math.max(0, top - 6); r < end; r++) {
      var p = rows[r], i = ctx.index(p), row = el("div", "row" + (r === ctx.cur ? " sel" : ""));
      row.style.top = r * ROW + "px";
      row.dataset.e = String(i);
      row.dataset.r = String(r);
      row.setAttribute("role", "row");
      if (r === ctx.cur) row.setAttribute("aria-selected", "true");
      var sec = m.sec[p], ent = m.ent[p], fs = el("span");
      (ctx.atEvent[p] || []).forEach(function (f) {
        var fd = m.findings[f];
        add(fs, el("span", fd[1] === 0 ? "e" : "w", (fd[1] === 0 ? "E " : "W ") + fd[0] + " "));
      });
      add(row, el("span", "", num(i)), el("span", "", sec % 2 === 1 ? String((sec - 1) / 2) : "\u2014"),
        el("span", "id", ctx.laneName(p)), el("span", "id", m.types[m.ty[p]]),
        el("span", "id", ent === -1 ? "" : KINDS[m.bars[ent][1]] + " " + m.bars[ent][2]), fs);
      spacer.appendChild(row);
    }
  }
  ctx.tableMove = function (r, show) {
    if (ctx.rows.length === 0) return;
    ctx.cur = Math.max(0, Math.min(ctx.rows.length - 1, r));
    var y = ctx.cur * ROW;
    if (y < view.scrollTop) view.scrollTop = y;
    else if (y + ROW > view.scrollTop + view.clientHeight) view.scrollTop = y + ROW - view.clientHeight;
    render();
    if (show) selectEvent(ctx, ctx.index(ctx.rows[ctx.cur]), true);
  };
  ctx.tableTo = function (p) {
    if (p === -1) return;
    var r = ctx.rows.indexOf(p);
    if (r === -1) { sType.value = ""; sLane.value = ""; sCode.value = ""; apply(); r = ctx.rows.indexOf(p); }
    ctx.tableMove(r, false);
  };
  view.addEventListener("scroll", render);
  view.addEventListener("keydown", function (e) {
    var page = Math.max(1, Math.floor(view.clientHeight / ROW) - 1);
    var to = { ArrowDown: ctx.cur + 1, ArrowUp: ctx.cur - 1, PageDown: ctx.cur + page, PageUp: ctx.cur - page, Home: 0, End: ctx.rows.length - 1 }[e.key];
    if (to !== undefined) { e.preventDefault(); ctx.tableMove(to, true); }
    else if (e.key === "Enter" && ctx.cur !== -1) { e.preventDefault(); ctx.tableMove(ctx.cur, true); }
  });
  view.addEventListener("click", function (e) {
    var row = e.target.closest(".row");
    if (row) ctx.tableMove(Number(row.dataset.r), true);
  });
  [sType, sLane, sCode].forEach(function (s) { s.addEventListener("change", apply); });
  add(into, add(el("div", "events"), el("h3", "", "Events"), filters, headRow, view));
  apply();
}
function tableTo(ctx, p) { if (ctx.tableTo) ctx.tableTo(p); }

function header(ctx) {
  var m = ctx.m, verdict = m.problem !== null && m.problem !== undefined ? "unreadable" : m.valid ? "valid" : "invalid";
  var h = add(el("span"), el("h2", "id", m.name), el("span", "", " "), el("span", "badge " + verdict, verdict));
  if (m.url !== null && m.url !== undefined) add(h, el("div", "muted id", m.url));
  return h;
}
function drawInput(ctx, body) {
  var m = ctx.m;
  if (m.problem !== null && m.problem !== undefined) { add(body, el("p", "", "Could not be read: " + m.problem)); return; }
  var stats = plural(m.events, "event") + " \u00b7 " + plural(m.errors, "error") + " \u00b7 " + plural(m.warnings, "warning");
  if (m.format !== null) stats += " \u00b7 " + m.format + (m.bytes !== null ? ", " + plural(m.bytes, "byte") : "");
  add(body, el("p", "stats", stats));
  if (m.omitted > 0) add(body, el("p", "note", plural(m.omitted, "more finding") + " not kept (maxFindings)."));
  if (m.gap !== null) add(body, el("p", "note", num(m.gap[1] - m.gap[0]) + " events elided (" + num(m.gap[0]) + "\u2013" + num(m.gap[1] - 1) + "): the timeline and the table show the first and the last " + num(m.gap[0]) + (m.elidedBars > 0 ? "; " + plural(m.elidedBars, "bar") + " lie wholly inside and are not drawn" : "") + "."));
  if (m.findings.length > 0) {
    var byCode = {}, order = [];
    m.findings.forEach(function (f) {
      if (!byCode[f[0]]) { byCode[f[0]] = { sev: f[1], kept: 0, events: 0 }; order.push(f[0]); }
      byCode[f[0]].kept++; byCode[f[0]].events += f[5];
    });
    var t = el("table", "codes"), thead = el("tr");
    ["code", "severity", "findings", "events", ""].forEach(function (x) { add(thead, el("th", "", x)); });
    add(t, thead);
    order.forEach(function (c) {
      var r = byCode[c], tr = el("tr");
      add(tr, el("td", "id", c), add(el("td"), el("span", "badge " + (r.sev === 0 ? "error" : "warning"), r.sev === 0 ? "error" : "warning")), el("td", "num", num(r.kept)), el("td", "num", num(r.events)), add(el("td"), ruleLink(c)));
      add(t, tr);
    });
    add(body, el("h3", "", "Findings by code"), t);
    var list = el("ul", "findings");
    var sorted = m.findings.map(function (f, i) { return i; }).sort(function (x, y) { return m.findings[x][1] - m.findings[y][1] || x - y; });
    sorted.forEach(function (f) {
      var fd = m.findings[f], b = el("button", "", (fd[1] === 0 ? "E " : "W ") + fd[0] + " @ " + (fd[3] >= m.events ? "end" : num(fd[3])) + (fd[5] > 1 ? " \u00d7" + num(fd[5]) : "") + ": " + fd[8].slice(0, 240));
      b.type = "button"; b.dataset.f = String(f);
      add(list, add(el("li"), b));
    });
    add(body, list);
  }
  add(body, el("h3", "", "Timeline"), legend());
  var tl = el("div", "timeline");
  for (var s = 0; s <= 2 * m.runs.length; s++) drawSection(ctx, s, tl);
  add(body, tl);
  drawTable(ctx, body);
}

function summary(into) {
  var box = el("section", "summary-box");
  var valid = 0, invalid = 0, unreadable = 0;
  inputs.forEach(function (c) { if (c.m.problem) unreadable++; else if (c.m.valid) valid++; else invalid++; });
  add(box, el("p", "stats", plural(inputs.length, "input") + " \u00b7 " + num(valid) + " valid \u00b7 " + num(invalid) + " invalid" + (unreadable ? " \u00b7 " + num(unreadable) + " unreadable" : "")));
  var filters = el("div", "filters"), text = el("input"), verdict = el("select");
  text.type = "search"; text.placeholder = "filter by input or code";
  text.setAttribute("aria-label", "filter inputs by name or code");
  [["", "all verdicts"], ["valid", "valid"], ["invalid", "invalid"], ["unreadable", "unreadable"]].forEach(function (o) { var opt = el("option", "", o[1]); opt.value = o[0]; verdict.appendChild(opt); });
  add(filters, text, verdict);
  var rows = inputs.map(function (c) {
    var m = c.m, first = null;
    for (var i = 0; i < m.findings.length; i++) if (m.findings[i][1] === 0) { first = m.findings[i]; break; }
    var v = m.problem ? "unreadable" : m.valid ? "valid" : "invalid";
    return { c: c, cells: [m.name + (m.url ? " " + m.url : ""), v, m.errors || 0, m.warnings || 0, first ? first[0] + " @ " + (first[3] >= m.events ? "end" : num(first[3])) : m.problem || ""], codes: m.findings.map(function (f) { return f[0]; }).join(" ") };
  });
  var table = el("table", "summary"), thead = el("thead"), hr = el("tr"), tbody = el("tbody");
  var sortBy = -1, dir = 1, ths = [];
  ["input", "verdict", "errors", "warnings", "first error"].forEach(function (h, col) {
    var th = el("th", col === 2 || col === 3 ? "num" : ""), b = el("button", "", h);
    b.type = "button";
    b.addEventListener("click", function () { dir = sortBy === col ? -dir : 1; sortBy = col; draw(); });
    ths.push(th);
    add(hr, add(th, b));
  });
  add(table, add(thead, hr), tbody);
  function draw() {
    var q = text.value.toLowerCase(), v = verdict.value;
    var shown = rows.filter(function (r) { return (v === "" || r.cells[1] === v) && (q === "" || (r.cells[0] + " " + r.codes).toLowerCase().indexOf(q) !== -1); });
    if (sortBy !== -1) shown.sort(function (x, y) { var a = x.cells[sortBy], b = y.cells[sortBy]; return (a < b ? -1 : a > b ? 1 : x.c.k - y.c.k) * dir; });
    ths.forEach(function (th, col) { th.setAttribute("aria-sort", col === sortBy ? (dir === 1 ? "ascending" : "descending") : "none"); });
    tbody.textContent = "";
    shown.forEach(function (r) {
      var tr = el("tr");
      tr.tabIndex = 0;
      tr.dataset.k = String(r.c.k);
      r.cells.forEach(function (cell, col) {
        var td = el("td", col === 2 || col === 3 ? "num" : col === 0 ? "id" : "", col === 1 ? null : typeof cell === "number" ? num(cell) : cell);
        if (col === 1) add(td, el("span", "badge " + cell, cell));
        add(tr, td);
      });
      add(tbody, tr);
    });
  }
  function open(e) {
    var tr = e.target.closest("tr[data-k]");
    if (!tr) return;
    var c = inputs[Number(tr.dataset.k)];
    c.details.open = true;
    build(c);
    c.section.scrollIntoView({ block: "start" });
  }
  tbody.addEventListener("click", open);
  tbody.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); open(e); } });
  text.addEventListener("input", draw);
  verdict.addEventListener("change", draw);
  add(into, add(box, filters, table));
  draw();
}

function build(c) {
  if (c.built) return;
  c.built = true;
  drawInput(c, c.body);
}

var single = data.inputs.length === 1;
add(app, el("h1", "", "AG-UI stream report"), el("p", "muted", data.tool + " \u00b7 select a finding, a bar or an event to see it here \u2192"));
data.inputs.forEach(function (m, k) { inputs.push(new Ctx(m, k)); });
document.title = single ? "ag-ui-verify: " + visible(data.inputs[0].name, false) : "ag-ui-verify: " + plural(data.inputs.length, "input");
if (!single) summary(app);
inputs.forEach(function (c) {
  var section = el("section", "input");
  section.dataset.input = c.m.name;
  if (c.m.url !== null && c.m.url !== undefined) section.dataset.url = c.m.url;
  section.dataset.k = String(c.k);
  var details = el("details"), sum = el("summary");
  add(details, add(sum, header(c)));
  c.body = el("div");
  add(details, c.body);
  c.section = section; c.details = details;
  details.addEventListener("toggle", function () { if (details.open) build(c); });
  add(app, add(section, details));
  if (single) { details.open = true; build(c); }
});
app.addEventListener("click", function (e) {
  var t = e.target.closest("[data-f],[data-b],.tick[data-e]");
  var sec = e.target.closest("section.input");
  if (!t || !sec) return;
  var c = inputs[Number(sec.dataset.k)];
  if (t.dataset.f !== undefined) selectFinding(c, Number(t.dataset.f));
  else if (t.dataset.b !== undefined) selectBar(c, Number(t.dataset.b));
  else selectEvent(c, Number(t.dataset.e), false);
});
setDetail("Details", [el("p", "hint", "Select a finding (E or W), a bar or an event: its message, its rule page and the event's JSON show here.")]);
document.documentElement.dataset.ready = "true";
})();
`;
