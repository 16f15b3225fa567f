// The builder page: draws the grid, handles editing, asks the API for live help and streams autofill.
// All solving happens on the server (JSON API and /ws/fill); this file only edits and displays.
import {
  BLOCK, EMPTY, MAX_SIDE, blankGrid, decodeState, encodeState, findSlots, fromRows, slotAt, toRows, toggleBlock,
} from "./grid.js";
import { initDesign } from "./design.js";

const $ = (id) => document.getElementById(id);

const state = {
  grid: blankGrid(15, 15),
  clues: {},
  slots: [],
  numberByCell: new Map(),
  cell: 0,
  dir: "A",
  history: [],
  future: [],
  heat: null,          // last /api/heatmap answer
  check: null,         // last /api/check answer
  pencil: null,        // autofill result rows shown in pencil
  core: null,          // cells to outline on an unfillable grid
  region: null,        // [top, left, bottom, right] selected by dragging
  seed: 0,
  socket: null,
  info: { quality: false, formats: [] },
};
const help = { seq: 0, heatTimer: null, checkTimer: null, keyTime: null };
const HEAT_DELAY_MS = 60;   // typing fast sends one heat-map request per pause, not one per key
const CHECK_DELAY_MS = 300; // the fillability check runs a solver: only once the typing pauses
window.xwcp = { state, lastHelpMs: null, helpTimes: [] };

// ----- API -----------------------------------------------------------------------------------

async function api(path, body, signal) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal,
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

// ----- editing with undo ---------------------------------------------------------------------

function commit(cells, { keepPencil = false } = {}) {
  state.history.push(state.grid.cells);
  if (state.history.length > 500) state.history.shift();
  state.future = [];
  state.grid = { ...state.grid, cells };
  afterEdit(keepPencil);
}

function afterEdit(keepPencil = false) {
  if (!keepPencil) { state.pencil = null; $("pencil-actions").hidden = true; }
  state.core = null;
  const { slots, numberByCell } = findSlots(state.grid);
  state.slots = slots;
  state.numberByCell = numberByCell;
  history.replaceState(null, "", "#" + encodeState(state.grid, state.clues));
  render();
  refreshHelp();
}

function setGrid(grid, clues = {}) {
  if (state.socket) { // a fill of the old grid: stop it and drop what it still sends
    state.socket.onmessage = null;
    if (state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify({ type: "stop" }));
    state.socket.close();
  }
  state.pencil = null;
  state.history = [];
  state.future = [];
  state.grid = grid;
  state.clues = clues;
  state.cell = grid.cells.findIndex((x) => x !== BLOCK);
  if (state.cell < 0) state.cell = 0;
  state.dir = "A";
  state.region = null;
  $("progress").textContent = "";
  delete $("progress").dataset.status;
  showMessage("");
  buildGrid();
  afterEdit();
}

function undo() {
  if (!state.history.length) return;
  state.future.push(state.grid.cells);
  state.grid = { ...state.grid, cells: state.history.pop() };
  afterEdit();
}

function redo() {
  if (!state.future.length) return;
  state.history.push(state.grid.cells);
  state.grid = { ...state.grid, cells: state.future.pop() };
  afterEdit();
}

function symmetry() { return $("symmetry").value; }

function currentSlot() {
  return slotAt(state.slots, state.cell, state.dir) || slotAt(state.slots, state.cell, state.dir === "A" ? "D" : "A");
}

function typeLetter(letter) {
  if (state.grid.cells[state.cell] === BLOCK) return;
  const cells = state.grid.cells.slice();
  cells[state.cell] = letter;
  const slot = currentSlot();
  if (slot) {
    state.dir = slot.dir;
    const pos = slot.cells.indexOf(state.cell);
    if (pos + 1 < slot.cells.length) state.cell = slot.cells[pos + 1];
  }
  commit(cells);
}

function erase() {
  const cells = state.grid.cells.slice();
  if (cells[state.cell] === BLOCK) return;
  if (cells[state.cell] === EMPTY) {
    const slot = currentSlot();
    const pos = slot ? slot.cells.indexOf(state.cell) : -1;
    if (pos > 0) state.cell = slot.cells[pos - 1];
  }
  if (cells[state.cell] === BLOCK) return;
  cells[state.cell] = EMPTY;
  commit(cells);
}

function toggleBlockAt(cell) {
  commit(toggleBlock(state.grid, cell, symmetry()).cells);
}

function enterWord(word) {
  const slot = currentSlot();
  if (!slot) return;
  const cells = state.grid.cells.slice();
  slot.cells.forEach((cell, pos) => { cells[cell] = word[pos]; });
  commit(cells);
}

function move(dr, dc) {
  const { width, height } = state.grid;
  const r = Math.floor(state.cell / width) + dr, c = (state.cell % width) + dc;
  if (r < 0 || r >= height || c < 0 || c >= width) return;
  state.cell = r * width + c;
  selectionChanged();
}

function jumpToSlot(slot) {
  if (!slot) return;
  state.dir = slot.dir;
  state.cell = slot.cells.find((cell) => state.grid.cells[cell] === EMPTY) ?? slot.cells[0];
  selectionChanged();
}

function nextSlot(step) {
  const slot = currentSlot();
  if (!state.slots.length) return;
  const index = slot ? state.slots.indexOf(slot) : -1;
  jumpToSlot(state.slots[(index + step + state.slots.length) % state.slots.length]);
}

let lastHelpSlot = null;
function selectionChanged() {
  render();
  const slot = currentSlot();
  if ((slot && slot.name) !== lastHelpSlot) refreshSuggestions();
}

// ----- drawing -------------------------------------------------------------------------------

function buildGrid() {
  const { width, height } = state.grid;
  const el = $("grid");
  const size = Math.max(18, Math.min(36, Math.floor(600 / Math.max(width, height))));
  document.documentElement.style.setProperty("--cell", `${size}px`);
  el.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
  el.innerHTML = "";
  for (let cell = 0; cell < width * height; cell++) {
    const div = document.createElement("div");
    div.className = "cell";
    div.dataset.cell = cell;
    div.innerHTML = '<span class="num"></span><span class="letter"></span><span class="count"></span>';
    el.appendChild(div);
  }
}

function heatColour(count) {
  if (count === 0) return "#ff8787";
  const t = Math.log(count) / Math.log(26); // 1 letter → 0, 26 letters → 1
  const hue = 10 + 120 * t;
  return `hsl(${hue}, 75%, ${72 + 16 * t}%)`;
}

function render() {
  const { grid } = state;
  const slot = currentSlot();
  const inSlot = new Set(slot ? slot.cells : []);
  const forced = new Map((state.heat && state.heat.forced || []).map((f) => [f.row * grid.width + f.col, f.letter]));
  const core = new Set((state.core || []).map(([r, c]) => r * grid.width + c));
  const showHeat = $("heat").checked;
  $("grid").classList.toggle("heat", showHeat);
  const region = state.region;
  for (const div of $("grid").children) {
    const cell = Number(div.dataset.cell);
    const value = grid.cells[cell];
    const r = Math.floor(cell / grid.width), c = cell % grid.width;
    div.classList.toggle("block", value === BLOCK);
    div.classList.toggle("current", cell === state.cell);
    div.classList.toggle("in-slot", inSlot.has(cell) && cell !== state.cell);
    div.classList.toggle("core", core.has(cell));
    div.classList.toggle("selected", !!region && r >= region[0] && r <= region[2] && c >= region[1] && c <= region[3]);
    const [num, letter, count] = div.children;
    num.textContent = state.numberByCell.get(cell) || "";
    letter.className = "letter";
    if (value === BLOCK) {
      letter.textContent = "";
    } else if (value !== EMPTY) {
      letter.textContent = value;
    } else if (state.pencil && /[A-Z]/.test(state.pencil[r][c])) {
      letter.textContent = state.pencil[r][c];
      letter.classList.add("pencil");
    } else if (forced.has(cell)) {
      letter.textContent = forced.get(cell);
      letter.classList.add("ghost");
    } else {
      letter.textContent = "";
    }
    const n = state.heat && state.heat.cells && state.heat.cells[r] ? state.heat.cells[r][c] : null;
    count.textContent = value === EMPTY && n !== null && n !== undefined ? n : "";
    div.style.background = showHeat && value === EMPTY && n !== null && n !== undefined && !inSlot.has(cell)
      && cell !== state.cell ? heatColour(n) : "";
  }
  const pattern = slot ? slot.cells.map((x) => grid.cells[x]).join("") : "";
  $("slot-title").textContent = slot ? `${slot.name}  ${pattern}` : "No slot here";
  const clue = $("clue");
  clue.disabled = !slot;
  if (document.activeElement !== clue) clue.value = slot ? state.clues[slot.name] || "" : "";
  $("undo").disabled = !state.history.length;
  $("redo").disabled = !state.future.length;
  $("fill-region").disabled = !region;
}

function showMessage(text) { $("message").textContent = text || ""; }

// ----- live help -----------------------------------------------------------------------------

// After an edit: the suggestions at once (what the constructor waits for), then the heat map and
// forced letters, then the fillability check (a solver run), each dropped if a newer edit came.
function refreshHelp() {
  const seq = ++help.seq;
  const rows = toRows(state.grid);
  refreshSuggestions();
  clearTimeout(help.heatTimer);
  help.heatTimer = setTimeout(() => runHeatmap(seq, rows), HEAT_DELAY_MS);
  clearTimeout(help.checkTimer);
  help.checkTimer = setTimeout(() => runCheck(seq, rows), CHECK_DELAY_MS);
}

function runHeatmap(seq, rows) {
  api("/api/heatmap", { grid: rows }).then((data) => {
    if (seq !== help.seq) return;
    showMessage("");
    state.heat = data;
    if (data.status !== "consistent") {
      state.core = data.core ? data.core.cells : data.dead_cells;
      setLight("unfillable", `Unfillable: ${data.reason}`);
    }
    render();
  }).catch((err) => { if (seq === help.seq) { state.heat = null; showMessage(err.message); render(); } });
}

function runCheck(seq, rows) {
  setLight("unknown", "checking…");
  api("/api/check", { grid: rows, time_limit_s: 2 }).then((data) => {
    if (seq !== help.seq) return;
    state.check = data;
    if (data.verdict === "fillable") setLight("fillable", "fillable: a full fill exists");
    else if (data.verdict === "unfillable") {
      setLight("unfillable", `unfillable${data.reason ? ": " + data.reason : ""}`);
      if (data.core) { state.core = data.core.cells; render(); }
    } else setLight("unknown", "unknown: no dead end found, no fill within 2 s");
    $("jump").disabled = !data.most_constrained;
  }).catch((err) => { if (seq === help.seq) setLight("unknown", err.message); });
}

function setLight(kind, text) {
  $("light").className = `light ${kind}`;
  $("light-text").textContent = text;
}

let suggestController = null;
function refreshSuggestions(verify = false) {
  const slot = currentSlot();
  lastHelpSlot = slot ? slot.name : null;
  if (suggestController) suggestController.abort();
  if (!slot) { drawSuggestions(null, []); return; }
  suggestController = new AbortController();
  const started = help.keyTime;
  const body = { grid: toRows(state.grid), slot: slot.name, k: verify ? 10 : 40 };
  if (verify) Object.assign(body, { verify: true, time_limit_s: 5 });
  api("/api/suggest", body, suggestController.signal).then((data) => {
    drawSuggestions(data, data.words);
    if (started !== null && started === help.keyTime) {
      window.xwcp.lastHelpMs = performance.now() - started;
      window.xwcp.helpTimes.push(window.xwcp.lastHelpMs);
      help.keyTime = null;
    }
  }).catch((err) => {
    if (err.name !== "AbortError") { showMessage(err.message); drawSuggestions(null, []); }
  });
}

function drawSuggestions(data, words) {
  const list = $("suggestions");
  list.innerHTML = "";
  $("suggest-count").textContent = data ? `${data.slot.size.toLocaleString()} words fit ${data.slot.pattern}` : "";
  if (data && !words.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = data.status === "consistent" ? "complete entry" : "no word fits without a dead end";
    list.appendChild(li);
  }
  for (const w of words) {
    const li = document.createElement("li");
    li.dataset.word = w.word;
    li.title = `score ${w.score}, fit ${w.fit}: click to enter`;
    li.innerHTML = `<span class="word"></span><span class="score"></span>`;
    li.children[0].textContent = w.word;
    li.children[1].textContent = w.score;
    if (w.verdict) {
      const label = document.createElement("span");
      label.className = `label ${w.verdict}`;
      label.textContent = w.verdict;
      li.appendChild(label);
    }
    li.addEventListener("click", () => enterWord(w.word));
    list.appendChild(li);
  }
  list.dataset.version = Number(list.dataset.version) + 1;
}

// ----- autofill over the WebSocket -----------------------------------------------------------

function startFill(region) {
  if (state.socket) return;
  state.pencil = null;
  state.core = null;
  $("pencil-actions").hidden = true;
  const time = Math.min(120, Math.max(1, Number($("time-limit").value) || 30));
  const request = { grid: toRows(state.grid), quality: $("quality").checked, time_limit_s: time, seed: state.seed };
  if (region) request.region = region;
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/fill`);
  state.socket = socket;
  state.lastRegion = region;
  setFilling(true);
  $("progress").textContent = "starting…";
  socket.onopen = () => socket.send(JSON.stringify(request));
  socket.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "progress") {
      let line = `${msg.seconds.toFixed(1)} s`;
      if (msg.n_slots) {
        line += ` · ${msg.nodes.toLocaleString()} nodes · ${msg.backtracks.toLocaleString()} backtracks`
          + ` · deepest ${msg.filled_slots}/${msg.n_slots} slots`;
      }
      if (msg.note) line += ` · ${msg.note}`;
      $("progress").textContent = line;
      if (msg.grid) { state.pencil = msg.grid; render(); } // the search's current branch, in pencil
    } else if (msg.type === "result") {
      showResult(msg);
    } else if (msg.type === "error") {
      $("progress").textContent = `error: ${msg.error}`;
    }
  };
  socket.onclose = () => { state.socket = null; setFilling(false); };
}

function showResult(msg) {
  const where = `${msg.seconds} s, ${msg.nodes.toLocaleString()} nodes`;
  if (msg.status === "filled") {
    state.pencil = msg.grid;
    $("pencil-actions").hidden = false;
    let scores = msg.scores ? ` · word scores min ${msg.scores.min}, mean ${msg.scores.mean}` : "";
    if (msg.quality && msg.quality.mean_bound !== null && msg.quality.mean_bound !== undefined) {
      scores += ` (bound ${msg.quality.mean_bound}${msg.quality.floor_optimal ? ", floor proven highest" : ""})`;
    }
    $("progress").textContent = `filled (${where})${scores}: accept or reroll`;
    $("progress").dataset.status = "filled";
  } else if (msg.status === "unfillable") {
    state.pencil = null;
    state.core = msg.core ? msg.core.cells : null;
    const slots = msg.core ? ` (outlined: ${msg.core.slots.join(", ")})` : "";
    $("progress").textContent = `unfillable (${where}): ${msg.reason}${slots}`;
    $("progress").dataset.status = "unfillable";
  } else {
    state.pencil = null;
    $("progress").textContent = `${msg.status} (${where}): ${msg.reason}`;
    $("progress").dataset.status = msg.status;
  }
  render();
}

function setFilling(on) {
  $("fill-all").disabled = on;
  $("fill-region").disabled = on || !state.region;
  $("stop").disabled = !on;
}

function acceptPencil() {
  if (!state.pencil) return;
  // only empty cells take the pencil's letters: an edit made while the fill ran is kept
  const pencil = state.pencil.join("");
  const cells = state.grid.cells.map((x, cell) => (x === EMPTY && /[A-Z]/.test(pencil[cell]) ? pencil[cell] : x));
  state.pencil = null;
  commit(cells);
}

// ----- share, print, download ----------------------------------------------------------------

function buildPrintView() {
  const { grid } = state;
  const view = $("print-view");
  view.innerHTML = "<h1>Crossword</h1>";
  const size = Math.min(30, Math.floor(520 / Math.max(grid.width, grid.height)));
  const table = document.createElement("div");
  table.className = "print-grid";
  table.style.gridTemplateColumns = `repeat(${grid.width}, ${size}px)`;
  grid.cells.forEach((value, cell) => {
    const div = document.createElement("div");
    div.style.height = `${size}px`;
    if (value === BLOCK) div.className = "b";
    const number = state.numberByCell.get(cell);
    if (number) div.innerHTML = `<span>${number}</span>`;
    table.appendChild(div);
  });
  view.appendChild(table);
  const lists = document.createElement("div");
  lists.className = "clue-lists";
  for (const [dir, title] of [["A", "Across"], ["D", "Down"]]) {
    const h = document.createElement("h2");
    h.textContent = title;
    const ol = document.createElement("ol");
    for (const slot of state.slots.filter((s) => s.dir === dir)) {
      const li = document.createElement("li");
      li.innerHTML = "<b></b> ";
      li.firstChild.textContent = slot.number;
      li.append(`${state.clues[slot.name] || "…"} (${slot.cells.length})`);
      ol.appendChild(li);
    }
    const column = document.createElement("div");
    column.append(h, ol);
    lists.append(column);
  }
  view.appendChild(lists);
}

async function download(format) {
  const response = await fetch("/api/export", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ grid: toRows(state.grid), clues: state.clues, format }),
  });
  if (!response.ok) { showMessage((await response.json()).error); return; }
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = `puzzle.${format}`;
  link.click();
}

// ----- events --------------------------------------------------------------------------------

function onKey(event) {
  if (event.target.closest("input, select, textarea")) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "Z")) {
    event.preventDefault();
    if (event.shiftKey) redo(); else undo();
    return;
  }
  if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); redo(); return; }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[a-zA-Z]$/.test(key)) { help.keyTime = performance.now(); typeLetter(key.toUpperCase()); }
  else if (key === "Backspace" || key === "Delete") { help.keyTime = performance.now(); erase(); }
  else if (key === " ") toggleBlockAt(state.cell);
  else if (key === "Enter") { state.dir = state.dir === "A" ? "D" : "A"; selectionChanged(); }
  else if (key === "Tab") nextSlot(event.shiftKey ? -1 : 1);
  else if (key.startsWith("Arrow")) {
    const dir = key === "ArrowLeft" || key === "ArrowRight" ? "A" : "D";
    if (dir !== state.dir && slotAt(state.slots, state.cell, dir)) { state.dir = dir; selectionChanged(); }
    else move(...{ ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key]);
  } else return;
  event.preventDefault();
}

let dragAnchor = null;
function cellOf(event) {
  const div = event.target.closest(".cell");
  return div ? Number(div.dataset.cell) : null;
}

function wireGrid() {
  const el = $("grid");
  el.addEventListener("mousedown", (event) => {
    const cell = cellOf(event);
    if (cell === null) return;
    event.preventDefault();
    el.focus();
    if (document.querySelector("input[name=mode]:checked").value === "blocks") {
      state.cell = cell;
      toggleBlockAt(cell);
      return;
    }
    if (cell === state.cell) state.dir = state.dir === "A" ? "D" : "A";
    state.cell = cell;
    dragAnchor = cell;
    state.region = null;
    selectionChanged();
  });
  el.addEventListener("mouseover", (event) => {
    const cell = cellOf(event);
    if (dragAnchor === null || cell === null || !(event.buttons & 1) || cell === dragAnchor) return;
    const w = state.grid.width;
    const [r1, c1, r2, c2] = [Math.floor(dragAnchor / w), dragAnchor % w, Math.floor(cell / w), cell % w];
    state.region = [Math.min(r1, r2), Math.min(c1, c2), Math.max(r1, r2), Math.max(c1, c2)];
    render();
  });
  window.addEventListener("mouseup", () => { dragAnchor = null; });
}

async function loadPresets() {
  const presets = await (await fetch("/api/presets")).json();
  const select = $("preset");
  for (const p of presets) {
    const option = document.createElement("option");
    option.value = p.name;
    option.textContent = p.name;
    select.appendChild(option);
  }
  select.addEventListener("change", () => {
    const p = presets.find((x) => x.name === select.value);
    if (p) setGrid(fromRows(p.rows));
  });
  return presets;
}

async function main() {
  buildGrid();
  wireGrid();
  document.addEventListener("keydown", onKey);
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("new-grid").onclick = () => {
    const w = Math.min(MAX_SIDE, Math.max(2, Number($("new-width").value) || 15));
    const h = Math.min(MAX_SIDE, Math.max(2, Number($("new-height").value) || 15));
    $("preset").value = "";
    setGrid(blankGrid(w, h));
  };
  $("heat").onchange = render;
  $("jump").onclick = () => {
    const m = state.check && state.check.most_constrained;
    if (m) jumpToSlot(state.slots.find((s) => s.name === m.id));
  };
  $("label-words").onclick = () => refreshSuggestions(true);
  $("clue").addEventListener("input", () => {
    const slot = currentSlot();
    if (!slot) return;
    state.clues[slot.name] = $("clue").value;
    history.replaceState(null, "", "#" + encodeState(state.grid, state.clues));
  });
  $("fill-all").onclick = () => startFill(null);
  $("fill-region").onclick = () => startFill(state.region);
  $("stop").onclick = () => {
    if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify({ type: "stop" }));
  };
  $("accept").onclick = acceptPencil;
  $("discard").onclick = () => {
    state.pencil = null;
    $("pencil-actions").hidden = true;
    $("progress").textContent = "";
    render();
  };
  $("reroll").onclick = () => { state.seed += 1; startFill(state.lastRegion); };
  $("share").onclick = async () => {
    history.replaceState(null, "", "#" + encodeState(state.grid, state.clues));
    try {
      await navigator.clipboard.writeText(location.href);
      showMessage("Link copied: it restores this grid and its clues.");
    } catch {
      showMessage(`Share this link: ${location.href}`);
    }
  };
  $("print").onclick = () => { buildPrintView(); window.print(); };
  window.addEventListener("beforeprint", buildPrintView);
  $("download-puz").onclick = () => download("puz");
  $("download-ipuz").onclick = () => download("ipuz");

  initDesign({ takeGrid: (rows) => { $("preset").value = ""; setGrid(fromRows(rows)); }, symmetry });
  state.info = await (await fetch("/api/info")).json();
  $("quality").disabled = !state.info.quality;
  $("quality").parentElement.title = state.info.quality
    ? "best-quality fill: the highest floor, then the highest mean"
    : "quality fill is not available on this server";
  for (const format of state.info.formats) $(`download-${format}`).hidden = false;
  $("design-panel").hidden = !state.info.design;
  const presets = await loadPresets();
  const restored = decodeState(location.hash);
  if (restored) setGrid(restored.grid, restored.clues);
  else {
    const p = presets.find((x) => x.name === "15x15-daily-01") || presets[0];
    $("preset").value = p.name;
    setGrid(fromRows(p.rows));
  }
  window.xwcp.ready = true;
}

main();
