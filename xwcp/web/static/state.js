// @ts-check
// The page's one shared state and its events: the puzzle being built (grid, clues, theme, metadata, undo
// history) and the cursor; panels read `state`, change it through these functions and hear each other
// only through `on`/`emit`, never by calling one another.
import { BLOCK, EMPTY, blankGrid, findSlots, fromRows, toRows } from "./grid.js";
import { normalized, pairLetters } from "./gridtext.js";
import { cellFromText, readsWritten, usePack, written } from "./alphabet.js";

// What one undo step restores: the grid layer (cells with their rebus strings, bars, marks, a published numbering,
// listed entries and Schrödinger cells, the theme entries, the locked cells). Clues and metadata are not undone with the grid (a clue typed after an edit must survive that
// edit's undo).
export const GRID_FIELDS = ["cells", "bars", "marks", "numbers", "entries", "entriesOnly", "pairs", "theme", "locks"];
// The GRID_FIELDS kept inside state.grid, and their value in a grid without them (an undo step saved before
// bars and marks existed had none).
export const GRID_PARTS = { cells: null, bars: [], marks: {}, numbers: null, entries: [], entriesOnly: false, pairs: [] };
export const MAX_HISTORY = 500;

export const state = {
  id: null,                 // the saved puzzle's id in this browser (saved.js)
  grid: blankGrid(15, 15),  // { width, height, cells: ["#", ".", "A", "STAR", ...], bars, marks, numbers } (gridtext.js)
  clues: {},                // clue text by slot key (start cell + "A"/"D"): a block elsewhere renumbers, keys stay
  theme: [],                // slot keys of theme entries: locked, highlighted, listed apart
  locks: [],                // cells whose letters are locked (kept by typing, autofill, reroll and clear), not theme
  clueAnswers: {},          // by slot key: the entry's letters when its clue was written (a clue follows its answer)
  meta: { title: "", author: "", copyright: "", notes: "" },
  lists: [],                // a variety file's own clue lists: [{ title, clues: [{ label, entry: name | null, text, cells }] }]
                            // (a clue on an entry has its text in `clues`; `text` and `cells` are a clue's on no entry)
  labels: [],               // the labels a variety file prints in cells instead of numbers: [{ cell, corner, text }]
  history: [],              // grid-layer snapshots before each edit
  future: [],
  slots: [],
  numberByCell: new Map(),
  endCells: new Set(),      // cells where an entry ends: a Hebrew letter shows its final form there (writtenAtEnd)
  slotByKey: new Map(),
  pairCells: new Set(),     // the grid's Schrödinger cells (grid.pairs), for the per-cell checks of drawing and typing
  cell: 0,
  dir: "A",                 // the cursor's entry: "A", "D", or "=NAME" for the listed entry NAME (grid.js findSlots)
  mode: "build",            // "build" or "solve" (solve.js)
  solveOnly: null,          // a solve-only link's puzzle: { salt, codes } to check entries by, the answers not here
  language: "en",           // the puzzle's language (a pack's code, alphabet.js): its letters, direction and word list
  info: { formats: [] },
};

const listeners = new Map();

// Events: "edit" (the grid layer changed), "select" (the cursor moved), "clues", "meta", "puzzle" (a whole
// puzzle was loaded; "leaving" just before), "language" (the puzzle's language changed), "mode", "words" (the personal list changed), "message" (a line for the user).
export function on(event, listener) {
  if (!listeners.has(event)) listeners.set(event, []);
  listeners.get(event).push(listener);
}

export function emit(event, detail) {
  for (const listener of listeners.get(event) || []) {
    try {
      listener(detail);
    } catch (err) {
      console.error(err);
      if (event !== "message") emit("message", `internal error in the page: ${err.message}`);
    }
  }
}

export function say(text) { emit("message", text || ""); }

export function slotKey(slot) { return `${slot.cells[0]}${slot.dir}`; }

export function relayout() {
  const { slots, numberByCell } = findSlots(state.grid);
  state.slots = slots;
  state.numberByCell = numberByCell;
  state.endCells = new Set(slots.map((s) => s.cells[s.cells.length - 1]));
  state.slotByKey = new Map(slots.map((s) => [slotKey(s), s]));
  state.pairCells = new Set(state.grid.pairs || []);
}

export function slotAt(cell, dir) {
  return state.slots.find((s) => s.dir === dir && s.cells.includes(cell));
}

export function currentSlot() {
  return slotAt(state.cell, state.dir) || slotAt(state.cell, state.dir === "A" ? "D" : "A")
    || slotAt(state.cell, "A") || state.slots.find((s) => s.cells.includes(state.cell)); // a cell only a listed entry has
}

// What each of the slot's cells holds (a rebus cell's whole string, a Schrödinger cell's two letters): what a clue is
// bound to.
export function slotCells(slot) { return slot.cells.map((cell) => state.grid.cells[cell]); }

// The slot's letters ("." for an empty cell); a slot through Schrödinger cells gives both readings, "LORES/LOBES".
export function slotText(slot) {
  if (!slot.pair) return slot.cells.map((cell) => state.grid.cells[cell]).join("");
  return [0, 1].map((i) => readingCells(slot, i).join("")).join("/");
}

// The slot's cells as reading `i` (0: the first, 1: the second) reads them: a Schrödinger cell gives one of its letters.
export function readingCells(slot, i) {
  return slot.cells.map((cell) => (state.pairCells.has(cell) ? pairLetters(state.grid.cells[cell])[i] : state.grid.cells[cell]));
}

export function isTheme(slot) { return !!slot && state.theme.includes(slotKey(slot)); }

// Letters of theme entries and locked cells: typing over, erasing, clearing and blocks leave them alone until the
// entry is unmarked or the cell unlocked (an empty cell of a theme entry still takes a letter).
export function lockedCells() {
  const locked = new Set();
  for (const key of state.theme) {
    const slot = state.slotByKey.get(key);
    if (slot) slot.cells.forEach((cell) => { if (state.grid.cells[cell] !== EMPTY) locked.add(cell); });
  }
  for (const cell of state.locks) if (state.grid.cells[cell] !== EMPTY && state.grid.cells[cell] !== BLOCK) locked.add(cell);
  return locked;
}

// A clue is bound to the letters its entry had when it was written: it is stale once one of them changed (a letter
// replaced or erased); undoing the change makes it current again. A clue written on a partly filled entry is bound
// to the letters it had.
export function isStale(slot) {
  const key = slotKey(slot);
  const bound = state.clueAnswers[key];
  if (!state.clues[key] || bound === undefined) return false;
  const now = slotCells(slot);
  if (!Array.isArray(bound) || bound.length !== now.length) return true;
  for (let i = 0; i < bound.length; i++) if (bound[i] !== EMPTY && bound[i] !== now[i]) return true;
  return false;
}

export function staleSlots() { return state.slots.filter(isStale); }

// Cells of theme entries (drawn highlighted).
export function themeCells() {
  const cells = new Set();
  for (const key of state.theme) {
    const slot = state.slotByKey.get(key);
    if (slot) slot.cells.forEach((cell) => cells.add(cell));
  }
  return cells;
}

function snapshot() {
  const snap = {};
  for (const field of GRID_FIELDS) {
    const value = field in GRID_PARTS ? state.grid[field] : state[field];
    snap[field] = Array.isArray(value) && field !== "theme" ? value.slice() : structuredClone(value); // cells, bars: strings
  }
  return snap;
}

// Put back the GRID_FIELDS of `snap`; with `whole`, a grid part it lacks is put back empty (an undo step saved without
// bars or marks had none), else only the fields it holds change (an edit).
function restore(snap, whole = true) {
  for (const field of GRID_FIELDS) {
    let value;
    if (field in snap) value = snap[field];
    else if (whole && field in GRID_PARTS && field !== "cells") value = GRID_PARTS[field];
    else if (whole && field === "locks") value = []; // an undo step saved before locks existed had none
    else continue;
    if (field in GRID_PARTS) state.grid = { ...state.grid, [field]: Array.isArray(value) ? value.slice() : structuredClone(value) };
    else state[field] = structuredClone(value);
  }
}

// One undoable edit of the grid layer: `change` holds the new values of some GRID_FIELDS.
export function commit(change, detail = {}) {
  state.history.push(snapshot());
  if (state.history.length > MAX_HISTORY) state.history.shift();
  state.future = [];
  restore(change, false);
  relayout();
  emit("edit", detail);
}

export function undo() {
  if (!state.history.length) return false;
  state.future.push(snapshot());
  restore(state.history.pop());
  relayout();
  emit("edit", { undo: true });
  return true;
}

export function redo() {
  if (!state.future.length) return false;
  state.history.push(snapshot());
  restore(state.future.pop());
  relayout();
  emit("edit", { redo: true });
  return true;
}

export function setClue(slot, text) {
  const key = slotKey(slot);
  if (text) { state.clues[key] = text; state.clueAnswers[key] = slotCells(slot); }
  else { delete state.clues[key]; delete state.clueAnswers[key]; }
  emit("clues", { key });
}

// How the puzzle's own lists name `slot`'s entry ("Blooms L1", "Diagonal:Southeast 1"), or its name when none does.
export function listedName(slot) {
  const entry = slot.name.replace(/\/[12]$/, "");
  for (const list of state.lists) {
    const clue = list.clues.find((c) => c.entry === entry);
    if (clue) return `${list.title} ${clue.label}`.trim();
  }
  return slot.name;
}

// The text of a clue of the puzzle's own lists that is on no entry (Patchwork's unplaced pieces, a one-letter word).
export function setListClue(listIndex, clueIndex, text) {
  state.lists[listIndex].clues[clueIndex].text = text;
  emit("clues", {});
}

export function setMeta(field, value) {
  state.meta[field] = value;
  emit("meta", { field });
}

// ----- whole puzzles: in from a file, a saved copy or a link; out to the server's .json shape --------

// Load a puzzle: { grid, clues by slot name (as files name them) or by key, theme keys, meta, history... }.
export function loadPuzzle(puzzle) {
  emit("leaving"); // the open puzzle's last edits are saved before it is replaced (saved.js)
  say(""); // the last puzzle's message ("opened x.ipuz: 68 bars") is not about this one
  state.id = puzzle.id || null;
  state.solveOnly = puzzle.solveOnly || null;
  state.language = usePack(puzzle.language || state.language).code; // a new puzzle keeps the language chosen
  state.grid = normalized(puzzle.grid);
  state.grid.cells = state.grid.cells.map((cell) => cellFromText(cell)); // "IJ" from a file is Dutch's one letter
  relayout();
  state.clues = {};
  if (puzzle.cluesByKey) Object.assign(state.clues, puzzle.cluesByKey);
  for (const [name, text] of Object.entries(puzzle.cluesByName || {})) {
    const entry = name.toUpperCase().replace(/\/[12]$/, ""); // a Schrödinger entry's readings (7A/1, 7A/2) share its clue
    const slot = state.slots.find((s) => s.name === entry);
    if (slot && text) state.clues[slotKey(slot)] = text;
  }
  // a clue from a file or a link is bound to the letters its entry has now; a saved puzzle keeps its bindings
  state.clueAnswers = Object.fromEntries(Object.entries(puzzle.clueAnswers || {}).map(([key, cells]) =>
    [key, Array.isArray(cells) ? cells.map((cell) => cellFromText(cell)) : cells]));
  for (const key of Object.keys(state.clues)) {
    const slot = state.slotByKey.get(key);
    if (slot && state.clueAnswers[key] === undefined) state.clueAnswers[key] = slotCells(slot);
  }
  state.theme = (puzzle.theme || []).slice();
  for (const name of puzzle.themeNames || []) {
    const slot = state.slots.find((s) => s.name === name.toUpperCase());
    if (slot && !state.theme.includes(slotKey(slot))) state.theme.push(slotKey(slot));
  }
  state.locks = (puzzle.locks || []).filter((cell) => Number.isInteger(cell) && cell >= 0 && cell < state.grid.cells.length);
  state.meta = { title: "", author: "", copyright: "", notes: "", ...(puzzle.meta || {}) };
  state.lists = ownLists(puzzle.lists);
  state.labels = (Array.isArray(puzzle.labels) ? puzzle.labels : []).filter((x) => x && Number.isInteger(x.cell)
    && x.cell >= 0 && x.cell < state.grid.cells.length && typeof x.text === "string" && typeof x.corner === "string")
    .map(({ cell, corner, text }) => ({ cell, corner, text }));
  // undo steps kept written (saved.js) take the language's code chars again
  const inLetters = (snap) => (Array.isArray(snap.cells) ? { ...snap, cells: snap.cells.map((cell) => cellFromText(cell)) } : snap);
  state.history = (puzzle.history || []).map(inLetters);
  state.future = (puzzle.future || []).map(inLetters);
  state.cell = puzzle.cell ?? state.grid.cells.findIndex((x) => x !== BLOCK);
  if (state.cell < 0 || state.cell >= state.grid.cells.length) state.cell = 0;
  state.dir = puzzle.dir === "D" || (typeof puzzle.dir === "string" && puzzle.dir.startsWith("=")) ? puzzle.dir : "A";
  emit("puzzle", {});
}

// A puzzle's own clue lists as the page keeps them (anything else in them dropped).
function ownLists(lists) {
  if (!Array.isArray(lists)) return [];
  return lists.filter((x) => x && typeof x.title === "string" && Array.isArray(x.clues)).map((x) => ({
    title: x.title,
    clues: x.clues.filter((c) => c && typeof c === "object").map((c) => ({
      label: typeof c.label === "string" ? c.label : "",
      entry: typeof c.entry === "string" ? c.entry.toUpperCase() : null,
      text: typeof c.text === "string" ? c.text : "",
      cells: Array.isArray(c.cells) ? c.cells.filter(Number.isInteger) : [],
    })),
  }));
}

// The page's puzzle from the server's object (xwcp's .json document: grid lines in the text syntax, entries
// with clues, a variety file's own `lists` and cell `labels` with [row, column] cells).
export function puzzleFromJson(doc) {
  const at = (r, c) => r * doc.width + c;
  const lists = (Array.isArray(doc.lists) ? doc.lists : []).map((x) => ({
    title: x.title,
    clues: (Array.isArray(x.clues) ? x.clues : []).map((c) => ({
      label: c.label, entry: c.entry ?? null, text: c.clue,
      cells: Array.isArray(c.cells) ? c.cells.map(([r, col]) => at(r, col)) : [],
    })),
  }));
  const labels = (Array.isArray(doc.labels) ? doc.labels : []).map((x) => ({ cell: at(x.row, x.col), corner: x.corner, text: x.text }));
  const cluesByName = {};
  for (const entry of doc.entries || []) if (entry.clue) cluesByName[entry.id] = entry.clue;
  return {
    grid: fromRows(doc.grid),
    ...(typeof doc.language === "string" && doc.language ? { language: doc.language } : {}), // the file's language
    cluesByName,
    meta: { title: doc.title || "", author: doc.author || "", copyright: doc.copyright || "", notes: doc.notes || "" },
    themeNames: Array.isArray(doc.theme) ? doc.theme.filter((name) => typeof name === "string") : [],
    locks: Array.isArray(doc.locks) ? doc.locks.filter((p) => Array.isArray(p) && p.length === 2)
      .map(([r, c]) => r * doc.width + c) : [],
    lists,
    labels,
  };
}

export function cluesByName() {
  const out = {};
  for (const slot of state.slots) {
    const text = state.clues[slotKey(slot)];
    if (text) out[slot.name] = text;
  }
  return out;
}

// What the server reads as a puzzle (POST /api/export): xwcp's .json document with clues by slot id, theme entries by
// name and locked cells as [row, column]; a letter of
// several characters is written as the language writes it (Dutch IJ: a cell "[IJ]", as .ipuz and .jpz hold it).
// A server that reads letters as written gets them in its syntax ("{IJ}") and the puzzle's `language`.
export function puzzleJson() {
  const cells = readsWritten() ? state.grid.cells : state.grid.cells.map((cell) => written(cell));
  /** @type {Record<string, unknown>} */
  const doc = { ...state.meta, width: state.grid.width, height: state.grid.height, grid: toRows({ ...state.grid, cells }),
                clues: cluesByName() };
  if (state.language !== "en") doc.language = state.language;
  const theme = themeNames();
  if (theme.length) doc.theme = theme;
  if (state.locks.length) doc.locks = state.locks.map((cell) => [Math.floor(cell / state.grid.width), cell % state.grid.width]);
  const rc = (cell) => [Math.floor(cell / state.grid.width), cell % state.grid.width];
  if (state.lists.length) {
    doc.lists = state.lists.map((x) => ({
      title: x.title,
      clues: x.clues.map((c) => (c.entry ? { label: c.label, entry: c.entry } : { label: c.label, clue: c.text, cells: c.cells.map(rc) })),
    }));
  }
  if (state.labels.length) doc.labels = state.labels.map(({ cell, corner, text }) => { const [row, col] = rc(cell); return { row, col, corner, text }; });
  return doc;
}

// Change the open puzzle's language (its letters, direction and word list); the grid's letters stay.
export function setLanguage(code) {
  const asWritten = (cells) => cells.map((cell) => written(cell)); // in the old language's letters (IJ)...
  const grid = asWritten(state.grid.cells);
  const steps = [state.history, state.future].map((list) => list.map((snap) => ({ ...snap, cells: asWritten(snap.cells) })));
  state.language = usePack(code).code;
  const inLetters = (cells) => cells.map((cell) => cellFromText(cell)); // ...read in the new one's (English: a rebus)
  state.grid = { ...state.grid, cells: inLetters(grid) };
  [state.history, state.future] = steps.map((list) => list.map((snap) => ({ ...snap, cells: inLetters(snap.cells) })));
  relayout();
  emit("language", {});
}

// What a share link carries beside the grid and the clues: the title, author, copyright, notes, theme entries (by
// name), locked cells, and a variety puzzle's own clue lists and cell labels. It leaves out the undo history (say so
// where the link is given).
export function shareExtras() {
  return { meta: state.meta, theme: themeNames(), locks: state.locks, language: state.language, lists: state.lists,
           labels: state.labels };
}

export function themeNames() {
  return state.theme.map((key) => state.slotByKey.get(key)).filter(Boolean).map((s) => s.name);
}

export function filledCount() { return state.grid.cells.filter((x) => x !== BLOCK && x !== EMPTY).length; }
