// The grid on screen: draws it (letters, numbers, cursor, live-help colours, theme entries, solve mode) and
// turns keys and clicks into edits of the shared state.
import { BLOCK, EMPTY, partners } from "./grid.js";
import {
  commit, currentSlot, emit, isTheme, lockedCells, on, redo, say, slotAt, slotKey, state, themeCells, undo,
} from "./state.js";

const $ = (id) => document.getElementById(id);

// Live-help layers drawn over the grid; help.js and autofill.js set them and emit "render".
export const overlay = { heat: null, pencil: null, core: null, region: null };

function symmetry() { return $("symmetry").value; }
function clickMode() { return document.querySelector("input[name=mode]:checked").value; }

// ----- edits -----------------------------------------------------------------------------------

function lockedMessage(cell) {
  const slot = state.slots.find((s) => isTheme(s) && s.cells.includes(cell));
  say(`${slot ? slot.name : "This cell"} is a theme entry: unmark it (Theme entry) to change it`);
}

function advance(slot, step) {
  if (!slot) return;
  state.dir = slot.dir;
  const pos = slot.cells.indexOf(state.cell) + step;
  if (pos >= 0 && pos < slot.cells.length) state.cell = slot.cells[pos];
}

function typeLetter(letter) {
  const cell = state.cell;
  if (state.grid.cells[cell] === BLOCK) return;
  if (state.mode === "solve") {
    emit("solve-type", { cell, letter });
    advance(currentSlot(), 1);
    emit("select");
    return;
  }
  if (lockedCells().has(cell) && state.grid.cells[cell] !== letter) { lockedMessage(cell); return; }
  const cells = state.grid.cells.slice();
  cells[cell] = letter;
  advance(currentSlot(), 1);
  commit({ cells }, { typed: true });
}

function erase() {
  if (state.grid.cells[state.cell] === BLOCK) return;
  const shown = state.mode === "solve" ? state.solve.cells[state.cell] : state.grid.cells[state.cell];
  if (shown === EMPTY) advance(currentSlot(), -1);
  const cell = state.cell;
  if (state.grid.cells[cell] === BLOCK) return;
  if (state.mode === "solve") {
    emit("solve-type", { cell, letter: EMPTY });
    emit("select");
    return;
  }
  if (state.grid.cells[cell] === EMPTY) { emit("select"); return; }
  if (lockedCells().has(cell)) { lockedMessage(cell); return; }
  const cells = state.grid.cells.slice();
  cells[cell] = EMPTY;
  commit({ cells }, { typed: true });
}

export function toggleBlockAt(cell) {
  if (state.mode === "solve") return;
  const locked = lockedCells();
  const targets = [cell, ...partners(state.grid, cell, symmetry())];
  if (targets.some((c) => locked.has(c))) { lockedMessage(targets.find((c) => locked.has(c))); return; }
  const cells = state.grid.cells.slice();
  const makeBlock = cells[cell] !== BLOCK;
  for (const target of targets) cells[target] = makeBlock ? BLOCK : EMPTY;
  commit({ cells });
}

// Put `word` into the current slot (a suggestion clicked).
export function enterWord(word) {
  const slot = currentSlot();
  if (!slot || state.mode === "solve") return;
  const locked = lockedCells();
  const cells = state.grid.cells.slice();
  slot.cells.forEach((cell, pos) => { if (!locked.has(cell)) cells[cell] = word[pos]; });
  commit({ cells }, { word });
}

function move(dr, dc) {
  const { width, height } = state.grid;
  const r = Math.floor(state.cell / width) + dr, c = (state.cell % width) + dc;
  if (r < 0 || r >= height || c < 0 || c >= width) return;
  state.cell = r * width + c;
  emit("select");
}

export function jumpToSlot(slot, { focusGrid = false } = {}) {
  if (!slot) return;
  state.dir = slot.dir;
  const cells = state.mode === "solve" ? state.solve.cells : state.grid.cells;
  state.cell = slot.cells.find((cell) => cells[cell] === EMPTY) ?? slot.cells[0];
  if (focusGrid) $("grid").focus();
  emit("select");
}

function nextSlot(step) {
  if (!state.slots.length) return;
  const slot = currentSlot();
  const index = slot ? state.slots.indexOf(slot) : -1;
  jumpToSlot(state.slots[(index + step + state.slots.length) % state.slots.length]);
}

// ----- drawing -----------------------------------------------------------------------------------

export function buildGrid() {
  const { width, height } = state.grid;
  const el = $("grid");
  const size = Math.max(18, Math.min(36, Math.floor(510 / Math.max(width, height))));
  document.documentElement.style.setProperty("--cell", `${size}px`);
  el.closest(".board").style.width = `${Math.max(380, width * (size + 1) + 3)}px`; // the clue line wraps, not widens
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
  const t = Math.log(count) / Math.log(26); // 1 letter -> 0, 26 letters -> 1
  return `hsl(${10 + 120 * t}, 75%, ${72 + 16 * t}%)`;
}

export function render() {
  const { grid } = state;
  if ($("grid").children.length !== grid.width * grid.height) buildGrid();
  const solving = state.mode === "solve";
  const slot = currentSlot();
  const inSlot = new Set(slot ? slot.cells : []);
  const theme = solving ? new Set() : themeCells();
  const heat = solving ? null : overlay.heat;
  const forced = new Map((heat && heat.forced || []).map((f) => [f.row * grid.width + f.col, f.letter]));
  const core = new Set((solving ? [] : overlay.core || []).map(([r, c]) => r * grid.width + c));
  const wrong = solving && state.solve.wrong ? state.solve.wrong : new Set();
  const showHeat = $("heat").checked && !solving;
  $("grid").classList.toggle("heat", showHeat);
  $("grid").classList.toggle("solving", solving);
  const region = solving ? null : overlay.region;
  const pencil = solving ? null : overlay.pencil;
  for (const div of $("grid").children) {
    const cell = Number(div.dataset.cell);
    const value = grid.cells[cell];
    const r = Math.floor(cell / grid.width), c = cell % grid.width;
    div.classList.toggle("block", value === BLOCK);
    div.classList.toggle("current", cell === state.cell);
    div.classList.toggle("in-slot", inSlot.has(cell) && cell !== state.cell);
    div.classList.toggle("theme", theme.has(cell));
    div.classList.toggle("core", core.has(cell));
    div.classList.toggle("wrong", wrong.has(cell));
    div.classList.toggle("selected", !!region && r >= region[0] && r <= region[2] && c >= region[1] && c <= region[3]);
    const [num, letter, count] = div.children;
    num.textContent = state.numberByCell.get(cell) || "";
    letter.className = "letter";
    const shown = solving ? state.solve.cells[cell] : value;
    if (value === BLOCK) {
      letter.textContent = "";
    } else if (shown !== EMPTY) {
      letter.textContent = shown;
    } else if (pencil && /[A-Z]/.test(pencil[r][c])) {
      letter.textContent = pencil[r][c];
      letter.classList.add("pencil");
    } else if (forced.has(cell)) {
      letter.textContent = forced.get(cell);
      letter.classList.add("ghost");
    } else {
      letter.textContent = "";
    }
    const n = heat && heat.cells && heat.cells[r] ? heat.cells[r][c] : null;
    count.textContent = value === EMPTY && n !== null && n !== undefined ? n : "";
    div.style.background = showHeat && value === EMPTY && n !== null && n !== undefined && !inSlot.has(cell)
      && cell !== state.cell ? heatColour(n) : "";
  }
  const bar = $("current-clue");
  if (slot) {
    const text = state.clues[slotKey(slot)];
    bar.querySelector(".id").textContent = slot.name;
    bar.querySelector(".text").textContent = text || (solving ? "(no clue)" : "no clue yet: write it in the Clues list");
    bar.classList.toggle("empty", !text);
  } else {
    bar.querySelector(".id").textContent = "";
    bar.querySelector(".text").textContent = "";
  }
  $("undo").disabled = !state.history.length || solving;
  $("redo").disabled = !state.future.length || solving;
  $("fill-region").disabled = !region || !!state.filling;
}

// ----- keys and the mouse --------------------------------------------------------------------------

function onKey(event) {
  if (event.target.closest("input, select, textarea, [contenteditable]")) return;
  if (document.querySelector("dialog[open]")) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "Z")) {
    event.preventDefault();
    if (state.mode !== "solve") { if (event.shiftKey) redo(); else undo(); }
    return;
  }
  if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); if (state.mode !== "solve") redo(); return; }
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (/^[a-zA-Z]$/.test(key)) { emit("keystroke"); typeLetter(key.toUpperCase()); }
  else if (key === "Backspace" || key === "Delete") { emit("keystroke"); erase(); }
  else if (key === " ") toggleBlockAt(state.cell);
  else if (key === "Enter") { state.dir = state.dir === "A" ? "D" : "A"; emit("select"); }
  else if (key === "Tab") nextSlot(event.shiftKey ? -1 : 1);
  else if (key.startsWith("Arrow")) {
    const dir = key === "ArrowLeft" || key === "ArrowRight" ? "A" : "D";
    if (dir !== state.dir && slotAt(state.cell, dir)) { state.dir = dir; emit("select"); }
    else move(...{ ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key]);
  } else return;
  event.preventDefault();
}

let dragAnchor = null;
function cellOf(event) {
  const div = event.target.closest(".cell");
  return div ? Number(div.dataset.cell) : null;
}

export function initEditor() {
  const el = $("grid");
  document.addEventListener("keydown", onKey);
  el.addEventListener("mousedown", (event) => {
    const cell = cellOf(event);
    if (cell === null) return;
    event.preventDefault();
    el.focus();
    if (clickMode() === "blocks" && state.mode !== "solve") {
      state.cell = cell;
      toggleBlockAt(cell);
      return;
    }
    if (cell === state.cell) state.dir = state.dir === "A" ? "D" : "A";
    state.cell = cell;
    dragAnchor = cell;
    if (overlay.region) { overlay.region = null; }
    emit("select");
  });
  el.addEventListener("mouseover", (event) => {
    const cell = cellOf(event);
    if (dragAnchor === null || cell === null || !(event.buttons & 1) || cell === dragAnchor || state.mode === "solve") return;
    const w = state.grid.width;
    const [r1, c1, r2, c2] = [Math.floor(dragAnchor / w), dragAnchor % w, Math.floor(cell / w), cell % w];
    overlay.region = [Math.min(r1, r2), Math.min(c1, c2), Math.max(r1, r2), Math.max(c1, c2)];
    render();
  });
  window.addEventListener("mouseup", () => { dragAnchor = null; });
  $("undo").onclick = undo;
  $("redo").onclick = redo;
  $("heat").onchange = render;
  $("current-clue").addEventListener("click", () => { const slot = currentSlot(); if (slot) emit("focus-clue", slot); });
  on("render", render);
  on("select", render);
  on("edit", () => { overlay.core = null; render(); });
  on("clues", render);
  on("mode", render);
  on("puzzle", () => {
    overlay.heat = overlay.pencil = overlay.core = overlay.region = null;
    buildGrid();
    render();
  });
}
