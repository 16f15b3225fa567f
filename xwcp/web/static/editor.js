// The grid on screen: draws it (letters and rebus text, numbers, bars, circles and shading, cursor, live-help colours,
// theme entries, solve mode) and turns keys and clicks into edits of the shared state.
import {
  BLOCK, EMPTY, barCells, drawnWith, edgeBar, fitText, freeEntryName, partners, slotsThrough, symmetryFits, toggledBars,
  withEntry,
} from "./grid.js";
import { BELOW, RIGHT, hasMark, isLetters, isRebus, pairContent, pairErased, pairLetters, pairTyped } from "./gridtext.js";
import {
  listedName, commit, currentSlot, emit, isStale, isTheme, lockedCells, on, redo, say, slotAt, slotKey, state, themeCells, undo,
} from "./state.js";
import { cellLabel } from "./a11y.js";
import { cut, isRtl, joined, pack, typed, written, writtenAtEnd } from "./alphabet.js";

const $ = (id) => document.getElementById(id);

// Live-help layers drawn over the grid; help.js and autofill.js set them and emit "render". `draw`: the free entry
// being drawn ({ cells } in order), null when not drawing.
// `chains`: the last autofill's words of each chain (by chain name), which the clue list shows while they are the
// chain's letters (in pencil, or accepted).
export const overlay = { heat: null, pencil: null, core: null, region: null, unfair: null, draw: null, chains: null };

function symmetry() { return $("symmetry").value; }
function clickMode() { return document.querySelector("input[name=mode]:checked").value; }

// ----- edits -----------------------------------------------------------------------------------

function lockedMessage(cell) {
  const slot = state.slots.find((s) => isTheme(s) && s.cells.includes(cell));
  if (slot) say(`${slot.name} is a theme entry: unmark it (Theme entry) to change it`);
  else say("This letter is locked: unlock it (Lock) to change it");
}

function advance(slot, step) {
  if (!slot) return;
  state.dir = slot.dir;
  const pos = slot.cells.indexOf(state.cell) + step;
  if (pos >= 0 && pos < slot.cells.length) state.cell = slot.cells[pos];
}

// After a letter: a locked letter (theme entry or lock) ahead in the entry is stepped over, as the letter typed there
// would be refused.
function skipLocked(slot) {
  if (!slot) return;
  const locked = lockedCells();
  let pos = slot.cells.indexOf(state.cell);
  while (pos >= 0 && pos < slot.cells.length - 1 && locked.has(slot.cells[pos])) pos++;
  if (pos >= 0) state.cell = slot.cells[pos];
}

// The cell a letter was last typed into and the letter: a letter typed right after it that the language writes
// together with it as one letter ("I" then "J" in Dutch) joins it there.
let lastTyped = null;

function typeLetter(letter) {
  const cell = state.cell;
  if (state.grid.cells[cell] === BLOCK) return;
  const before = lastTyped;
  lastTyped = null;
  if (before && state.mode !== "solve" && before.cell !== cell && state.grid.cells[before.cell] === before.letter) {
    const one = joined(before.letter, letter);
    if (one && !lockedCells().has(before.cell)) {
      const cells = state.grid.cells.slice();
      cells[before.cell] = one;
      lastTyped = { cell: before.cell, letter: one }; // a Hindi akshara may take more pieces
      commit({ cells }, { typed: true });
      return;
    }
  }
  if (state.mode === "solve") {
    const typed = state.pairCells.has(cell) ? pairTyped(state.solve.cells[cell], letter) : { content: letter, done: true };
    emit("solve-type", { cell, letter: typed.content });
    if (typed.done) advance(currentSlot(), 1);
    emit("select");
    return;
  }
  if (state.pairCells.has(cell)) { typePair(cell, letter); return; }
  if (lockedCells().has(cell) && state.grid.cells[cell] !== letter) { lockedMessage(cell); return; }
  const cells = state.grid.cells.slice();
  cells[cell] = letter;
  lastTyped = { cell, letter };
  advance(currentSlot(), 1);
  skipLocked(currentSlot());
  commit({ cells }, { typed: true });
}

// A letter typed into a Schrödinger cell: its first letter, then its second (the cursor moves on after the second); a
// cell with both letters starts again with the first.
function typePair(cell, letter) {
  if (lockedCells().has(cell)) { lockedMessage(cell); return; }
  const typed = pairTyped(state.grid.cells[cell], letter);
  const cells = state.grid.cells.slice();
  cells[cell] = typed.content;
  if (typed.done) { advance(currentSlot(), 1); skipLocked(currentSlot()); }
  commit({ cells }, { typed: true });
}

// Text from the system keyboard (a key, an input method's or a dead key's composed text, pasted letters) or a letter
// button: each letter of the puzzle's language typed in turn; a character of no letter is refused with a message.
export function typeText(text) {
  const got = typed(text);
  if (!got) return false;
  if (got.bad) { say(`${got.bad} is not a letter of ${pack().name}`); return true; }
  for (const letter of got.letters) { emit("keystroke"); typeLetter(letter); }
  return true;
}

// Backspace: erase the cursor's letter, or (an empty cell) step back and erase there; a locked letter (theme entry or
// lock) is stepped over to the nearest unlocked cell before it in the entry; with none, the cursor stays.
function erase() {
  if (state.grid.cells[state.cell] === BLOCK) return;
  const shown = state.mode === "solve" ? state.solve.cells[state.cell] : state.grid.cells[state.cell];
  const locked = state.mode === "solve" ? new Set() : lockedCells();
  const slot = currentSlot();
  if (state.pairCells.has(state.cell) && shown !== EMPTY && !locked.has(state.cell)) {
    putValue(pairErased(shown), 0, { typed: true }); // a Schrödinger cell: its second letter goes first, then its first
    return;
  }
  if (slot && (shown === EMPTY || locked.has(state.cell))) {
    state.dir = slot.dir;
    let pos = slot.cells.indexOf(state.cell) - (shown === EMPTY || locked.has(state.cell) ? 1 : 0);
    while (pos >= 0 && locked.has(slot.cells[pos])) pos--;
    if (pos < 0) {
      if (locked.has(state.cell)) lockedMessage(state.cell);
      emit("select");
      return;
    }
    state.cell = slot.cells[pos];
  }
  putValue(EMPTY, 0, { typed: true });
}

// Put `value` (EMPTY, a letter or a rebus) into the cursor's cell, then move `step` cells along the slot (0: stay);
// in test-solve it is the solver's entry. A locked (theme) cell is refused with a message.
function putValue(value, step, detail) {
  const cell = state.cell;
  if (state.grid.cells[cell] === BLOCK) return;
  if (state.mode === "solve") {
    emit("solve-type", { cell, letter: value });
    if (step) advance(currentSlot(), step);
    emit("select");
    return;
  }
  if (state.grid.cells[cell] === value) { emit("select"); return; }
  // refused: Backspace may already have stepped back, so the cursor is drawn where it now is
  if (lockedCells().has(cell)) { emit("select"); lockedMessage(cell); return; }
  const cells = state.grid.cells.slice();
  cells[cell] = value;
  if (step) advance(currentSlot(), step);
  commit({ cells }, detail);
}

// A block or a bar moved: a published numbering (from a file) no longer fits; the standard numbering takes over.
function structural(change) {
  if (state.grid.numbers) say("the puzzle's own numbering gave way to the standard numbering (the layout changed)");
  return { ...change, numbers: null };
}

export function toggleBlockAt(cell) {
  if (state.mode === "solve") return;
  if (!symmetryFits(state.grid, symmetry())) say(`a diagonal symmetry needs a square grid: this block has no partner`);
  const locked = lockedCells();
  const targets = [cell, ...partners(state.grid, cell, symmetry())];
  if (targets.some((c) => locked.has(c))) { lockedMessage(targets.find((c) => locked.has(c))); return; }
  const cells = state.grid.cells.slice();
  const makeBlock = cells[cell] !== BLOCK;
  const listed = makeBlock ? state.grid.entries.find((e) => targets.some((c) => e.cells.includes(c))) : null;
  if (listed) { say(`the entry ${listed.name} goes through this cell: delete the entry first (Alt+X on it)`); return; }
  for (const target of targets) cells[target] = makeBlock ? BLOCK : EMPTY;
  const change = { cells };
  if (makeBlock && targets.some((c) => state.pairCells.has(c))) change.pairs = state.grid.pairs.filter((c) => !targets.includes(c));
  if (makeBlock && targets.some((c) => state.grid.marks[c])) { // a block shows no circle or shading
    change.marks = { ...state.grid.marks };
    for (const target of targets) delete change.marks[target];
  }
  commit(structural(change));
}

// Toggle the bar `bar` ("12R": right edge of cell 12, "30B": bottom edge of cell 30) and its symmetric partners.
export function toggleBar(bar) {
  if (state.mode === "solve" || !bar) return;
  const [a, b] = barCells(state.grid, bar);
  if (state.grid.cells[a] === BLOCK || state.grid.cells[b] === BLOCK) {
    if (!state.grid.bars.includes(bar)) { say("a bar goes between two white cells"); return; }
  }
  commit(structural({ bars: toggledBars(state.grid, bar, symmetry()) }), { bar });
}

// Circle or shade (`kind`: "circle" | "shaded") the selected region's white cells, or the cursor's cell: set on all
// of them unless all have it already, then cleared.
export function toggleMark(kind) {
  if (state.mode === "solve") return;
  const { width, cells } = state.grid;
  const region = overlay.region;
  let targets = [state.cell];
  if (region) {
    targets = [];
    for (let r = region[0]; r <= region[2]; r++) for (let c = region[1]; c <= region[3]; c++) targets.push(r * width + c);
  }
  targets = targets.filter((cell) => cells[cell] !== BLOCK);
  if (!targets.length) { say("circles and shading go on white cells"); return; }
  const marks = structuredClone(state.grid.marks);
  const on_ = !targets.every((cell) => marks[cell] && marks[cell][kind]);
  for (const cell of targets) {
    const mark = { circle: false, shaded: false, color: null, ...(marks[cell] || {}), [kind]: on_ };
    if (hasMark(mark)) marks[cell] = mark; else delete marks[cell];
  }
  commit({ marks }, { mark: kind });
}

// Mark the cursor's cell as a Schrödinger square (two letters, one for each reading of the entries through it), or
// unmark it (it keeps its first letter).
export function togglePair() {
  if (state.mode === "solve") return;
  const cell = state.cell;
  const value = state.grid.cells[cell];
  if (value === BLOCK) { say("a Schrödinger square is a white cell"); return; }
  if (lockedCells().has(cell)) { lockedMessage(cell); return; }
  const cells = state.grid.cells.slice();
  if (state.pairCells.has(cell)) {
    cells[cell] = pairLetters(value)[0];
    commit({ cells, pairs: state.grid.pairs.filter((c) => c !== cell) }, { pair: false });
    say("one letter in this cell again");
    return;
  }
  if (value !== EMPTY && isRebus(value)) { say("a rebus cell cannot be a Schrödinger square: erase it first"); return; }
  cells[cell] = value === EMPTY ? EMPTY : pairContent(value, EMPTY);
  commit({ cells, pairs: [...state.grid.pairs, cell].sort((a, b) => a - b) }, { pair: true });
  say("Schrödinger square: type its two letters (the first for one reading, the second for the other)");
}

// ----- drawing a free entry: cells clicked (or Space on the cursor's cell) in order, then named ----------------

export function isDrawing() { return overlay.draw !== null; }

export function startDrawing() {
  if (state.mode === "solve" || overlay.draw) return;
  overlay.draw = { cells: [] };
  $("draw-bar").hidden = false;
  $("entry-name").value = freeEntryName(state.grid);
  $("grid").classList.add("drawing");
  $("draw-entry").setAttribute("aria-pressed", "true");
  drawStatus();
  say("drawing an entry: click its cells in order (or Space on each); Enter finishes, Backspace removes the last, Esc cancels");
  render();
}

function drawStatus() {
  const n = overlay.draw ? overlay.draw.cells.length : 0;
  $("draw-count").textContent = `${n} cell${n === 1 ? "" : "s"}`;
  $("draw-finish").disabled = n < 2;
  $("draw-undo").disabled = n === 0;
}

export function drawCell(cell) {
  if (!overlay.draw) return;
  const got = drawnWith(state.grid, overlay.draw.cells, cell);
  if (got.problem) { say(got.problem); return; }
  overlay.draw.cells = got.cells;
  state.cell = cell;
  drawStatus();
  emit("select");
}

export function undrawCell() {
  if (!overlay.draw || !overlay.draw.cells.length) return;
  overlay.draw.cells.pop();
  drawStatus();
  render();
}

export function stopDrawing(message = "") {
  if (!overlay.draw) return;
  overlay.draw = null;
  $("draw-bar").hidden = true;
  $("grid").classList.remove("drawing");
  $("draw-entry").setAttribute("aria-pressed", "false");
  say(message);
  render();
}

// The drawn cells become a listed entry named as the name box says (xwcp's `; entry: NAME = ...` line).
export function finishDrawing() {
  if (!overlay.draw) return;
  const cells = overlay.draw.cells;
  if (cells.length < 2) { say("an entry needs at least two cells: click them in order"); return; }
  const got = withEntry(state.grid, $("entry-name").value, cells);
  if (got.problem) { say(got.problem); $("entry-name").focus(); return; }
  const name = got.entries[got.entries.length - 1].name;
  overlay.draw = null;
  commit({ entries: got.entries }, { entry: name });
  state.dir = `=${name}`;
  state.cell = cells[0];
  stopDrawing(`entry ${name} added (${cells.length} cells): clue it in the Entries list`);
  $("grid").focus();
  emit("select");
}

// Delete the listed entry under the cursor (its clue goes with it; Ctrl+Z brings both back).
export function deleteEntry() {
  if (state.mode === "solve") return;
  const slot = currentSlot();
  const listed = slot && slot.listed ? slot : state.slots.find((s) => s.listed && s.cells.includes(state.cell));
  if (!listed) { say("no listed entry here: the cursor's cell is in none"); return; }
  commit({ entries: state.grid.entries.filter((e) => e.name !== listed.name) }, { entry: listed.name });
  if (state.dir === listed.dir) state.dir = "A";
  say(`entry ${listed.name} deleted (Ctrl+Z brings it back)`);
  emit("select");
}

// The listed entries as the grid's only entries (`; entries: listed`), or added to the across and down runs.
export function setEntriesOnly(only) {
  if (state.mode === "solve" || only === state.grid.entriesOnly) return;
  if (only && !state.grid.entries.length) { say("draw the entries first: a grid of listed entries only has no others"); render(); return; }
  commit({ entriesOnly: only }, { entriesOnly: only });
  say(only ? "the listed entries are the only entries (no across and down runs)" : "across and down runs are entries again");
}

// Enter, or a click on the cursor's cell: the next entry through the cell (across, down, then its listed entries).
function turn() {
  const through = slotsThrough(state.slots, state.cell);
  if (through.length < 2 && !through.some((s) => s.listed)) { state.dir = state.dir === "A" ? "D" : "A"; return; }
  const now = currentSlot();
  state.dir = through[(through.indexOf(now) + 1) % through.length].dir;
}

// The cells of the dragged region, or else of the cursor's entry (white cells only).
function selectedCells() {
  const { width, cells } = state.grid;
  const region = overlay.region;
  const out = [];
  if (region) {
    for (let r = region[0]; r <= region[2]; r++) for (let c = region[1]; c <= region[3]; c++) out.push(r * width + c);
  } else {
    const slot = currentSlot();
    if (slot) out.push(...slot.cells);
  }
  return out.filter((cell) => cells[cell] !== BLOCK);
}

// Erase the letters of `targets` (the whole grid when null), keeping blocks, theme entries and locked letters.
export function clearFill(targets) {
  if (state.mode === "solve") return;
  const locked = lockedCells();
  const cells = state.grid.cells.slice();
  let n = 0;
  for (const cell of targets ?? cells.keys()) {
    if (cells[cell] !== BLOCK && cells[cell] !== EMPTY && !locked.has(cell)) { cells[cell] = EMPTY; n++; }
  }
  const kept = [...(targets ?? cells.keys())].filter((cell) => locked.has(cell)).length;
  say(n ? `cleared ${n} letter${n === 1 ? "" : "s"}${kept ? `, kept ${kept} theme or locked` : ""} (Ctrl+Z undoes)`
    : "nothing to clear here");
  if (n) commit({ cells }, { cleared: true });
}

export function clearSelection() { clearFill(selectedCells()); }

// Lock (or unlock, when all are locked) the letters of the selected region or of the cursor's entry.
export function toggleLock() {
  if (state.mode === "solve") return;
  const targets = selectedCells();
  if (!targets.length) { say("select an entry or a region to lock"); return; }
  const locks = new Set(state.locks);
  const unlock = targets.every((cell) => locks.has(cell));
  for (const cell of targets) if (unlock) locks.delete(cell); else locks.add(cell);
  commit({ locks: [...locks].sort((a, b) => a - b) }, { lock: true });
  const slot = currentSlot();
  const where = overlay.region ? "the selected cells" : slot ? slot.name : "these cells";
  say(unlock ? `${where}: unlocked` : `${where}: letters locked (autofill, reroll and clear keep them; not theme)`);
}

export function isLockedHere() {
  const targets = selectedCells();
  return targets.length > 0 && targets.every((cell) => state.locks.includes(cell));
}

// Put `text` (letters; several make a rebus cell, none erases) into the cursor's cell: the rebus key's entry.
export function enterRebus(text) {
  putValue(text || EMPTY, 1, { typed: true, rebus: true });
}

// Put `word` into the current slot (a suggestion clicked): a rebus cell keeps its letters, every other cell takes one.
export function enterWord(text) {
  const slot = currentSlot();
  if (!slot || state.mode === "solve") return;
  const locked = lockedCells();
  const cells = state.grid.cells.slice();
  if (pack().open) { // Hindi: the word's aksharas, one a cell (each as typing it would give: a code char or written)
    const letters = typed(text)?.letters || [];
    if (letters.length !== slot.cells.length) { say(`${text} does not fit ${slot.name}`); return; }
    slot.cells.forEach((cell, i) => { if (!locked.has(cell)) cells[cell] = letters[i]; });
    commit({ cells }, { word: letters.join("") });
    return;
  }
  const word = (cut(text, pack(), false) || [...text]).join(""); // a word as written ("IJS") in the puzzle's letters
  if (slot.pair) { // a Schrödinger slot's word is its first reading: each square's first letter, the second kept
    if ([...word].length !== slot.cells.length) { say(`${writtenAtEnd(word)} does not fit ${slot.name}`); return; }
    [...word].forEach((letter, i) => {
      const cell = slot.cells[i];
      if (locked.has(cell)) return;
      cells[cell] = state.pairCells.has(cell) ? pairContent(letter, pairLetters(cells[cell])[1]) : letter;
    });
    commit({ cells }, { word });
    return;
  }
  const lengths = slot.cells.map((cell) => (isRebus(cells[cell]) ? cells[cell].length : 1));
  if (lengths.reduce((a, b) => a + b, 0) !== word.length) { say(`${writtenAtEnd(word)} does not fit ${slot.name}`); return; }
  let pos = 0;
  slot.cells.forEach((cell, i) => {
    if (!locked.has(cell) && !isRebus(cells[cell])) cells[cell] = word[pos];
    pos += lengths[i];
  });
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

// The cell size in pixels: 510 px for the grid's longer side on a wide screen (36 px cells at most, 18 at least); on a
// narrower one (a phone's 390 px) the grid with its lines fits the screen's width, down to 14 px cells.
function cellSize() {
  const { width, height } = state.grid;
  const side = Math.max(width, height);
  const room = document.documentElement.clientWidth - 28;
  if (room >= 510) return Math.max(18, Math.min(36, Math.floor(510 / side)));
  return Math.max(14, Math.min(36, Math.floor((room - 3) / side) - 1));
}

export function buildGrid() {
  const { width, height } = state.grid;
  const el = $("grid");
  const size = cellSize();
  const room = document.documentElement.clientWidth - 28;
  document.documentElement.style.setProperty("--cell", `${size}px`);
  const boardWidth = width * (size + 1) + 3;
  el.closest(".board").style.width = room < 380 ? "" : `${Math.max(380, boardWidth)}px`; // the clue line wraps, not widens
  el.style.gridTemplateColumns = `repeat(${width}, var(--cell))`;
  el.innerHTML = "";
  cellParts = [];
  let row = null;
  for (let cell = 0; cell < width * height; cell++) {
    if (cell % width === 0) {  // rows for assistive technology (role=row); `display: contents` keeps the CSS grid
      row = document.createElement("div");
      row.setAttribute("role", "row");
      row.className = "grid-row";
      el.appendChild(row);
    }
    const div = document.createElement("div");
    div.className = "cell";
    div.id = `cell-${cell}`;
    div.setAttribute("role", "gridcell");
    div.dataset.cell = cell;
    div.innerHTML = '<span class="shade"></span><span class="ring"></span><span class="num"></span>'
      + '<span class="letter"></span><span class="count"></span><span class="bar-r"></span><span class="bar-b"></span>'
      + '<span class="order" aria-hidden="true"></span><span class="lab"></span>';
    const [shade, , num, letter, count, , , order, lab] = div.children;
    cellParts.push({ div, shade, num, letter, count, order, lab });
    row.appendChild(div);
  }
}

let cellParts = [];

function showText(letter, cellText, atEnd = false) {
  // Dutch IJ, an akshara: the letter as written, shrunk to fit like a rebus; a Hebrew final form where an entry ends
  const text = atEnd ? writtenAtEnd(cellText) : written(cellText);
  if (letter.textContent === text) return;
  letter.textContent = text;
  const fit = fitText(text);
  if (!fit && !letter.classList.contains("rebus")) return; // one letter, as before: the common case, kept cheap
  letter.classList.toggle("rebus", !!fit);
  letter.classList.toggle("long", text.length > 5);
  if (fit) letter.style.setProperty("--fit", fit); else letter.style.removeProperty("--fit");
}

// A Schrödinger cell's two letters for a screen reader: "C and B", "C and an open second letter".
function pairLabel(value) {
  const [first, second] = pairLetters(value);
  if (value === EMPTY) return "";
  return `${first === EMPTY ? "an open first letter" : written(first)} and ${second === EMPTY ? "an open second letter" : written(second)}`;
}

// A Schrödinger cell's heat: how many letters each of its open letters can still take ("26/9"; "–" for one given).
function pairCount(value, counts) {
  const [first, second] = pairLetters(value);
  if (first !== EMPTY && second !== EMPTY) return "";
  return `${first === EMPTY ? counts[0] : "–"}/${second === EMPTY ? counts[1] : "–"}`;
}

function heatColour(count) {
  if (count === 0) return "#ff8787";
  const size = Math.max(2, pack().letters.length); // the puzzle's alphabet: 26 in English, 27 in Spanish
  const t = Math.min(1, Math.log(count) / Math.log(size)); // 1 letter -> 0, every letter -> 1
  return `hsl(${10 + 120 * t}, 75%, ${72 + 16 * t}%)`;
}

export function render() {
  const { grid } = state;
  if (cellParts.length !== grid.width * grid.height || !cellParts[0].div.isConnected) buildGrid();
  const solving = state.mode === "solve";
  const slot = currentSlot();
  const drawing = overlay.draw ? overlay.draw.cells : null;
  const inSlot = new Set(drawing || (slot ? slot.cells : []));
  // a listed entry's cells (or the cells being drawn) are numbered in their order: a diagonal, a ring, a scatter
  const orderOf = new Map((drawing || (slot && slot.listed && !solving ? slot.cells : [])).map((cell, i) => [cell, i + 1]));
  const theme = solving ? new Set() : themeCells();
  const heat = solving ? null : overlay.heat;
  const forced = new Map((heat && heat.forced || []).map((f) => [f.row * grid.width + f.col, f.letter]));
  const core = new Set((solving ? [] : overlay.core || []).map(([r, c]) => r * grid.width + c));
  const unfair = new Map((solving ? [] : overlay.unfair || []).map((x) => [x.row * grid.width + x.col, x.reason]));
  const wrong = solving && state.solve.wrong ? state.solve.wrong : new Set();
  const showHeat = $("heat").checked && !solving;
  $("grid").classList.toggle("heat", showHeat);
  $("grid").classList.toggle("solving", solving);
  const dir = isRtl() ? "rtl" : "ltr";
  if ($("grid").dir !== dir) $("grid").dir = dir; // Hebrew: column 1 on the right, entries read from the right
  const region = solving ? null : overlay.region;
  const pencil = solving ? null : overlay.pencil;
  const barRight = new Set(), barBelow = new Set();
  for (const bar of grid.bars) (bar.endsWith(RIGHT) ? barRight : barBelow).add(parseInt(bar, 10));
  const locks = new Set(solving ? [] : state.locks);
  const marks = grid.marks;
  const hasMarks = Object.keys(marks).length > 0;
  const labelsByCell = new Map();
  for (const { cell, corner, text } of state.labels) labelsByCell.set(cell, { ...labelsByCell.get(cell), [corner]: text });
  for (const { div, shade, num, letter, count, order, lab } of cellParts) {
    const cell = Number(div.dataset.cell);
    const value = grid.cells[cell];
    const mark = marks[cell];
    const r = Math.floor(cell / grid.width), c = cell % grid.width;
    div.classList.toggle("block", value === BLOCK);
    div.classList.toggle("current", cell === state.cell);
    div.classList.toggle("in-slot", inSlot.has(cell) && cell !== state.cell);
    const step = orderOf.get(cell);
    if (order.textContent !== (step ? String(step) : "")) order.textContent = step ? String(step) : "";
    div.classList.toggle("drawn", !!drawing && inSlot.has(cell));
    const pair = state.pairCells.has(cell);
    div.classList.toggle("pair", pair);
    div.classList.toggle("theme", theme.has(cell));
    div.classList.toggle("locked", locks.has(cell) && value !== BLOCK);
    div.classList.toggle("core", core.has(cell));
    div.classList.toggle("unfair", unfair.has(cell));
    const why = unfair.get(cell) || "";
    const tip = why ? `Unfair crossing: ${why}` : "";
    if (div.title !== tip) { if (tip) div.title = tip; else div.removeAttribute("title"); }
    div.classList.toggle("wrong", wrong.has(cell));
    div.classList.toggle("selected", !!region && r >= region[0] && r <= region[2] && c >= region[1] && c <= region[3]);
    if (barRight.size || barBelow.size || div.dataset.bars) {  // bars, circles and shading: skipped on plain grids
      div.classList.toggle("bar-right", barRight.has(cell));
      div.classList.toggle("bar-below", barBelow.has(cell));
      const barred = barRight.has(cell) || barBelow.has(cell) ? "1" : "";
      if (div.dataset.bars !== barred) div.dataset.bars = barred;
    }
    if (hasMarks || div.dataset.marks) {
      div.classList.toggle("circled", !!mark && !!mark.circle && value !== BLOCK);
      div.classList.toggle("shaded", !!mark && (!!mark.shaded || !!mark.color) && value !== BLOCK);
      const tint = mark && mark.color && value !== BLOCK ? mark.color : "";
      if (shade.dataset.tint !== tint) { shade.style.backgroundColor = tint; shade.dataset.tint = tint; }
      if (div.dataset.marks !== (mark ? "1" : "")) div.dataset.marks = mark ? "1" : "";
    }
    // a variety file's own labels replace the numbering: its TL label where a number goes, the others top right
    const own = labelsByCell.get(cell);
    const numText = labelsByCell.size ? (own && own.TL) || "" : String(state.numberByCell.get(cell) || "");
    if (num.textContent !== numText) num.textContent = numText;
    const labText = own ? Object.entries(own).filter(([corner]) => corner !== "TL").map(([, text]) => text).join(" ") : "";
    if (lab.textContent !== labText) lab.textContent = labText;
    letter.classList.remove("pencil", "ghost");
    const shown = solving ? state.solve.cells[cell] : value;
    if (value === BLOCK) {
      showText(letter, "");
    } else if (pair) { // both letters, stacked small: the first reading's over the second's
      const drawn = pencil && pencil[r] && value.includes(EMPTY) && isLetters(pencil[r][c] || "") ? pencil[r][c] : null;
      const [first, second] = pairLetters(drawn || shown);
      const text = !drawn && shown === EMPTY ? "" : `${first === EMPTY ? "·" : written(first)}\n${second === EMPTY ? "·" : written(second)}`;
      if (letter.textContent !== text) letter.textContent = text;
      letter.classList.remove("rebus", "long");
      letter.classList.toggle("pencil", !!drawn);
      letter.style.removeProperty("--fit");
    } else if (shown !== EMPTY) {
      showText(letter, shown, state.endCells.has(cell));
    } else if (pencil && pencil[r] && isLetters(pencil[r][c] || "")) {  // the fill's `contents`: a cell each
      showText(letter, pencil[r][c], state.endCells.has(cell));
      letter.classList.add("pencil");
    } else if (forced.has(cell)) {
      showText(letter, forced.get(cell), state.endCells.has(cell));
      letter.classList.add("ghost");
    } else {
      showText(letter, "");
    }
    const label = cellLabel(cell, pair ? pairLabel(shown) : written(shown),
      letter.classList.contains("pencil") ? letter.textContent : "")
      + (own ? `, labelled ${Object.values(own).join(" ")}` : "")
      + (why ? `, unfair crossing: ${why}` : "") + (step ? `, ${drawing ? "drawn" : slot.name} cell ${step}` : "");
    if (div.getAttribute("aria-label") !== label) div.setAttribute("aria-label", label);
    const n = heat && heat.cells && heat.cells[r] ? heat.cells[r][c] : null;
    const both = pair && heat && heat.pairs ? heat.pairs.find((x) => x.row === r && x.col === c) : null;
    count.textContent = both ? pairCount(value, both.counts)
      : value === EMPTY && n !== null && n !== undefined ? n : "";
    const heated = showHeat && value === EMPTY && n !== null && n !== undefined && !inSlot.has(cell) && cell !== state.cell;
    div.style.background = heated ? heatColour(n) : "";
    div.classList.toggle("heated", heated);
  }
  const active = `cell-${state.cell}`;
  if ($("grid").getAttribute("aria-activedescendant") !== active) $("grid").setAttribute("aria-activedescendant", active);
  const bar = $("current-clue");
  if (slot) {
    const text = state.clues[slotKey(slot)];
    bar.querySelector(".id").textContent = listedName(slot);
    bar.querySelector(".text").textContent = text || (solving ? "(no clue)" : "no clue yet: write it in the Clues list");
    bar.classList.toggle("empty", !text);
    bar.classList.toggle("stale", !solving && isStale(slot));
    bar.title = !solving && isStale(slot) ? "this clue was written for other letters: rewrite it, or undo" : "Click to edit this clue";
  } else {
    bar.querySelector(".id").textContent = "";
    bar.querySelector(".text").textContent = "";
  }
  const here = grid.cells[state.cell] === BLOCK ? null : grid.marks[state.cell];
  $("circle").setAttribute("aria-pressed", here && here.circle ? "true" : "false");
  $("shade").setAttribute("aria-pressed", here && here.shaded ? "true" : "false");
  $("circle").disabled = $("shade").disabled = solving;
  $("pair-cell").setAttribute("aria-pressed", state.pairCells.has(state.cell) ? "true" : "false");
  $("pair-cell").disabled = $("draw-entry").disabled = solving;
  $("delete-entry").disabled = solving || !state.slots.some((s) => s.listed && s.cells.includes(state.cell));
  $("entries-only").checked = !!grid.entriesOnly;
  $("entries-only").disabled = solving;
  $("undo").disabled = !state.history.length || solving;
  $("redo").disabled = !state.future.length || solving;
  $("fill-region").disabled = !region || !!state.filling;
  $("lock-entry").setAttribute("aria-pressed", !solving && isLockedHere() ? "true" : "false");
  $("lock-entry").disabled = $("clear-region").disabled = $("clear-all").disabled = solving;
}

// ----- keys and the mouse --------------------------------------------------------------------------

// The grid's keys go to the grid alone (when it has the focus, or its phone input has): a focused button, tab or box
// keeps Space, Enter and Tab for its own job. Undo and redo work anywhere but in a text box.
function gridHasFocus(event) {
  return event.target === $("grid") || event.target === $("grid-input");
}

function onKey(event) {
  if (event.target.closest("input, select, textarea, [contenteditable]") && event.target !== $("grid-input")) return;
  if (document.querySelector("dialog[open]")) return;
  const key = event.key;
  if ((event.ctrlKey || event.metaKey) && (key === "z" || key === "Z")) {
    event.preventDefault();
    if (state.mode !== "solve") { if (event.shiftKey) redo(); else undo(); }
    return;
  }
  if ((event.ctrlKey || event.metaKey) && key === "y") { event.preventDefault(); if (state.mode !== "solve") redo(); return; }
  if (!gridHasFocus(event)) return;
  if (overlay.draw && drawKey(event)) { event.preventDefault(); return; }
  if (event.altKey && !event.ctrlKey && !event.metaKey && ["KeyE", "KeyX", "Digit2"].includes(event.code)) {
    event.preventDefault();  // Alt+E draws an entry, Alt+X deletes the listed entry here, Alt+2 marks a Schrödinger square
    if (event.code === "KeyE") startDrawing(); else if (event.code === "KeyX") deleteEntry(); else togglePair();
    return;
  }
  if (event.altKey && !event.ctrlKey && !event.metaKey && (event.code === "KeyO" || event.code === "KeyS")) {
    event.preventDefault();  // by code: on a Mac, Alt+O types a letter
    toggleMark(event.code === "KeyO" ? "circle" : "shaded");
    return;
  }
  if (event.altKey && !event.ctrlKey && !event.metaKey && (event.code === "KeyW" || event.code === "KeyC")) {
    event.preventDefault();  // from the grid to the entry's suggestions (Alt+W) or to its clue (Alt+C)
    const slot = currentSlot();
    if (slot) emit(event.code === "KeyW" ? "focus-suggestions" : "focus-clue", slot);
    return;
  }
  if (event.isComposing || event.keyCode === 229 || key === "Dead") {  // an input method or a dead key composes:
    if (event.target === $("grid")) $("grid-input").focus({ preventScroll: true }); // its text arrives as input
    return;
  }
  if (event.ctrlKey || event.metaKey || (event.altKey && !/^\p{L}$/u.test(key))) return; // AltGr types letters
  if (key.length === 1 && /^\p{L}$/u.test(key)) typeText(key);
  else if (key === "Backspace" || key === "Delete") { emit("keystroke"); erase(); }
  else if (key === " ") toggleBlockAt(state.cell);
  else if (key === "Insert" || key === "Escape") openRebus();
  else if (key === "|") toggleBar(`${state.cell}${state.dir === "A" ? RIGHT : BELOW}`);
  else if (key === "Enter") { turn(); emit("select"); }
  else if (key === "PageDown" || key === "PageUp") nextSlot(key === "PageUp" ? -1 : 1);
  else if (key.startsWith("Arrow")) {
    const dir = key === "ArrowLeft" || key === "ArrowRight" ? "A" : "D";
    if (dir !== state.dir && slotAt(state.cell, dir) && !state.dir.startsWith("=")) { state.dir = dir; emit("select"); }
    else {
      const back = isRtl() ? 1 : -1; // right to left: the left arrow goes on along the entry
      move(...{ ArrowLeft: [0, back], ArrowRight: [0, -back], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key]);
    }
  } else return;
  event.preventDefault();
}

// The keys of drawing an entry (the grid focused): arrows move, Space (or a click) adds the cursor's cell, Backspace
// removes the last, Enter finishes, Esc cancels. True when the key was drawing's.
function drawKey(event) {
  const key = event.key;
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if (key === " ") drawCell(state.cell);
  else if (key === "Backspace" || key === "Delete") undrawCell();
  else if (key === "Enter") finishDrawing();
  else if (key === "Escape") stopDrawing("drawing cancelled: no entry added");
  else if (key.startsWith("Arrow")) {
    const back = isRtl() ? 1 : -1;
    move(...{ ArrowLeft: [0, back], ArrowRight: [0, -back], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[key]);
  } else if (key.length === 1) say("drawing an entry: Space adds the cursor's cell, Enter finishes, Esc cancels");
  else return false;
  return true;
}

let dragAnchor = null;
function cellOf(event) {
  const div = event.target.closest(".cell");
  return div ? Number(div.dataset.cell) : null;
}

// The bar at the cell edge nearest the mouse (bars mode), or null.
function barOf(event) {
  const div = event.target.closest(".cell");
  if (!div) return null;
  const box = div.getBoundingClientRect();
  const x = isRtl() ? box.right - event.clientX : event.clientX - box.left; // right to left: a cell's "right" is drawn left
  return edgeBar(state.grid, Number(div.dataset.cell), x, event.clientY - box.top, box.width);
}

// Bars mode: the edge a click would toggle, drawn faintly under the mouse.
let previewed = null;
function preview(bar) {
  if (bar === previewed) return;
  document.querySelectorAll("#grid .preview-right, #grid .preview-below").forEach((div) => div.classList.remove("preview-right", "preview-below"));
  previewed = bar;
  if (!bar) return;
  const part = cellParts[parseInt(bar, 10)];
  if (part) part.div.classList.add(bar.endsWith(RIGHT) ? "preview-right" : "preview-below");
}

// ----- the rebus key: several letters typed into one cell ----------------------------------------

let rebusBox = null;

function localeUpper(text) {
  try { return text.toLocaleUpperCase(pack().code); } catch { return text.toUpperCase(); } // Turkish i -> İ
}

// Insert or Escape (or the Rebus button): a box over the cell takes letters; Enter (or leaving it) puts them into
// the cell, Escape leaves the cell as it was.
export function openRebus() {
  if (rebusBox || state.grid.cells[state.cell] === BLOCK) return;
  const part = cellParts[state.cell];
  if (!part) return;
  const cell = state.cell;
  const box = document.createElement("input");
  box.id = "rebus-input";
  box.type = "text";
  box.autocomplete = "off";
  box.spellcheck = false;
  box.setAttribute("aria-label", "rebus: letters for this cell, Enter to enter");
  const current = state.mode === "solve" ? state.solve.cells[cell] : state.grid.cells[cell];
  box.value = current === EMPTY ? "" : state.pairCells.has(cell) && state.mode !== "solve"
    ? pairLetters(current).filter((x) => x !== EMPTY).map((x) => written(x)).join("") : written(current);
  part.div.appendChild(box);
  rebusBox = box;
  let done = false;
  const close = (keep) => {
    if (done) return;
    done = true;
    const raw = box.value.replace(/\s+/g, "");
    box.remove();
    rebusBox = null;
    $("grid").focus();
    if (!keep) return;
    const got = raw ? typed(raw) : null; // the language's letters, longest first: Dutch "IJS" is IJ and S
    if (got && got.bad) {
      say(pack().code === "en" ? "a rebus cell holds letters A-Z" : `a rebus cell holds letters of ${pack().name}: ${got.bad} is none`);
      return;
    }
    state.cell = cell;
    if (state.pairCells.has(cell) && state.mode !== "solve") { // a Schrödinger square: its two letters (or one, or none)
      const letters = got ? got.letters : [];
      if (letters.length > 2) { say("a Schrödinger square holds two letters: one for each reading"); return; }
      putValue(pairContent(letters[0] || EMPTY, letters[1] || EMPTY), 1, { typed: true });
      return;
    }
    enterRebus(got ? got.letters.join("") : "");
  };
  box.addEventListener("input", (event) => { if (!event.isComposing) box.value = localeUpper(box.value); });
  box.addEventListener("keydown", (event) => {
    if (event.isComposing || event.keyCode === 229) { event.stopPropagation(); return; } // an input method's keys
    event.stopPropagation();
    if (event.key === "Enter" || event.key === "Tab") { event.preventDefault(); close(true); }
    else if (event.key === "Escape") { event.preventDefault(); close(false); }
  });
  box.addEventListener("blur", () => close(true));
  box.addEventListener("mousedown", (event) => event.stopPropagation());
  box.focus();
  box.select();
}

// A phone, or a language beyond A-Z: a tap or click on a cell focuses the hidden text box over the grid, which
// brings up the system keyboard and takes what input methods and dead keys compose (´ then n is ñ; a Hindi or
// Japanese input method's text); what it types (keys, composed text, the keyboard's suggestions) goes into the grid
// as typed letters of the puzzle's language.
let touched = false;
function initPhoneInput() {
  const box = $("grid-input");
  box.addEventListener("beforeinput", (event) => {
    if (event.isComposing) return;
    if (event.inputType && event.inputType.startsWith("delete")) { event.preventDefault(); emit("keystroke"); erase(); }
  });
  // a space kept in the box: a phone keyboard's Backspace in an empty box sends nothing to delete
  const reset = () => { box.value = " "; box.setSelectionRange(1, 1); };
  const take = () => {
    const text = box.value;
    const deleted = text === "";  // the space deleted (no beforeinput on this keyboard)
    reset();
    if (deleted) { emit("keystroke"); erase(); }
    typeText(text);
  };
  box.addEventListener("input", (event) => { if (!event.isComposing) take(); }); // composed text: at its end
  box.addEventListener("compositionend", take);
  box.addEventListener("focus", reset);
}

function useTextBox() { return touched || pack().code !== "en"; }

export function initEditor() {
  const el = $("grid");
  document.addEventListener("keydown", onKey);
  initPhoneInput();
  el.addEventListener("pointerdown", (event) => { touched = event.pointerType === "touch"; });
  el.addEventListener("pointerup", (event) => { if (event.pointerType === "touch") $("grid-input").focus({ preventScroll: true }); });
  el.addEventListener("mousedown", (event) => {
    const cell = cellOf(event);
    if (cell === null) return;
    event.preventDefault();
    if (useTextBox()) $("grid-input").focus({ preventScroll: true }); else el.focus();
    if (overlay.draw) { drawCell(cell); return; }
    if (clickMode() === "blocks" && state.mode !== "solve") {
      state.cell = cell;
      toggleBlockAt(cell);
      return;
    }
    if (clickMode() === "bars" && state.mode !== "solve") {
      const bar = barOf(event);
      if (bar) toggleBar(bar); else say("bars stand between cells: click nearer an edge inside the grid");
      return;
    }
    if (cell === state.cell) turn();
    state.cell = cell;
    dragAnchor = cell;
    if (overlay.region) { overlay.region = null; }
    emit("select");
  });
  el.addEventListener("mousemove", (event) => {
    preview(clickMode() === "bars" && state.mode !== "solve" ? barOf(event) : null);
  });
  el.addEventListener("mouseleave", () => preview(null));
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => { el.classList.toggle("bar-mode", clickMode() === "bars"); preview(null); });
  }
  $("clear-region").onclick = clearSelection;
  $("clear-all").onclick = () => clearFill(null);
  $("lock-entry").onclick = toggleLock;
  $("circle").onclick = () => toggleMark("circle");
  $("shade").onclick = () => toggleMark("shaded");
  $("rebus").onclick = openRebus;
  $("pair-cell").onclick = togglePair;
  $("draw-entry").onclick = () => (overlay.draw ? stopDrawing("drawing cancelled: no entry added") : startDrawing());
  $("delete-entry").onclick = deleteEntry;
  $("entries-only").onchange = () => setEntriesOnly($("entries-only").checked);
  $("draw-finish").onclick = finishDrawing;
  $("draw-undo").onclick = undrawCell;
  $("draw-cancel").onclick = () => stopDrawing("drawing cancelled: no entry added");
  $("entry-name").addEventListener("keydown", (event) => {
    if (event.key === "Enter") { event.preventDefault(); finishDrawing(); }
    else if (event.key === "Escape") { event.preventDefault(); stopDrawing("drawing cancelled: no entry added"); $("grid").focus(); }
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
  let resizeTimer = null;  // a phone turned, a window narrowed: the cells fit the new width
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (`${cellSize()}px` !== document.documentElement.style.getPropertyValue("--cell")) { buildGrid(); render(); }
    }, 150);
  });
  on("render", render);
  on("select", render);
  on("edit", () => { overlay.core = null; render(); });
  on("clues", render);
  on("mode", () => { stopDrawing(); render(); });
  on("type-letter", (text) => { if (state.grid.cells[state.cell] !== BLOCK) typeText(text); });
  on("language", () => { lastTyped = null; render(); });
  on("puzzle", () => {
    stopDrawing();
    overlay.heat = overlay.pencil = overlay.core = overlay.region = overlay.unfair = null;
    buildGrid();
    render();
  });
}
