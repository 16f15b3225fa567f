// Nothing lost: the puzzle in progress (grid, clues, theme, metadata, undo history) is saved in this browser as
// you work and comes back on reload; the Saved panel lists every saved puzzle to reopen or delete.
import { decodeState, encodeState } from "./grid.js";
import { written } from "./alphabet.js";
import { cluesByName, emit, filledCount, loadPuzzle, on, say, shareExtras, state } from "./state.js";

const $ = (id) => document.getElementById(id);
const PREFIX = "xwcp:puzzle:";
const INDEX = "xwcp:index";
const CURRENT = "xwcp:current";
const SAVE_DELAY_MS = 250;
const KEPT_HISTORY = 200;   // undo steps kept with a saved puzzle (the page itself keeps 500)
const STORE_VERSION = 1;
let timer = null;

function newId() { return `p${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`; }

function readJson(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : fallback;
  } catch {
    return fallback;
  }
}

export function savedIndex() {
  const index = readJson(INDEX, []);
  return Array.isArray(index) ? index : [];
}

// Undo snapshots are stored with their cells as one string when every cell is one character (a quarter of
// the size of an array); a grid with rebus cells keeps the array. Empty bars, marks, numbering, listed entries and
// Schrödinger cells are left out
// (state.js restores them as empty).
function pack(snap) {
  const cells = snap.cells.map((x) => written(x)); // a code char lives as long as the server's process: kept written
  const packed = cells.every((x) => x.length === 1) ? { ...snap, cells: cells.join("") } : { ...snap, cells };
  if (packed.bars && !packed.bars.length) delete packed.bars;
  if (packed.marks && !Object.keys(packed.marks).length) delete packed.marks;
  if (packed.numbers === null) delete packed.numbers;
  if (packed.entries && !packed.entries.length) delete packed.entries;
  if (packed.entriesOnly === false) delete packed.entriesOnly;
  if (packed.pairs && !packed.pairs.length) delete packed.pairs;
  return packed;
}

function unpack(snap) {
  return typeof snap.cells === "string" ? { ...snap, cells: snap.cells.split("") } : snap;
}

// `link`: the URL state written with this save; `shownLink`: the one the address bar held until now (a save made as
// the page goes away cannot change the address the reload uses: that link still means this puzzle).
function record(historyKept, link) {
  return {
    version: STORE_VERSION, id: state.id, grid: { ...state.grid, cells: state.grid.cells.map((x) => written(x)) },
    clues: state.clues, theme: state.theme, meta: state.meta, lists: state.lists, labels: state.labels,
    locks: state.locks, clueAnswers: Object.fromEntries(Object.entries(state.clueAnswers).map(([key, cells]) =>
      [key, Array.isArray(cells) ? cells.map((x) => written(x)) : cells])), language: state.language,
    history: state.history.slice(-historyKept).map(pack), future: state.future.slice(-50).map(pack),
    cell: state.cell, dir: state.dir, updated: Date.now(), link, shownLink: location.hash.replace(/^#/, ""),
  };
}

function indexEntry() {
  const white = state.grid.cells.filter((x) => x !== "#").length;
  return { id: state.id, title: state.meta.title || "", size: `${state.grid.width}x${state.grid.height}`,
           filled: white ? Math.round((100 * filledCount()) / white) : 0, clued: Object.keys(cluesByName()).length,
           words: state.slots.length, updated: Date.now() };
}

// Write the open puzzle now; when the browser's storage is full, keep fewer undo steps, then say so.
export function saveNow() {
  clearTimeout(timer);
  timer = null;
  if (!state.id || state.solveOnly) return; // a solve-only link's puzzle is the link's, not this browser's
  const link = encodeState(state.grid, cluesByName(), shareExtras());
  for (const kept of [KEPT_HISTORY, 50, 0]) {
    try {
      localStorage.setItem(PREFIX + state.id, JSON.stringify(record(kept, link)));
      const index = savedIndex().filter((e) => e.id !== state.id);
      index.unshift(indexEntry());
      localStorage.setItem(INDEX, JSON.stringify(index));
      localStorage.setItem(CURRENT, state.id);
      // the link too, here rather than at every keystroke (replaceState costs milliseconds in Chromium)
      history.replaceState(null, "", "#" + link);
      if (kept < KEPT_HISTORY) say(`browser storage is nearly full: this puzzle was saved with ${kept} undo steps; delete old puzzles in Saved`);
      drawList();
      return;
    } catch (err) {
      if (kept === 0) say(`cannot save in this browser (${err.name}): download the puzzle as a file to keep it`);
    }
  }
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(saveNow, SAVE_DELAY_MS);
}

function stored(id) {
  const data = readJson(PREFIX + id, null);
  if (!data || data.version !== STORE_VERSION || !data.grid || !Array.isArray(data.grid.cells)) return null;
  return data;
}

export function openSaved(id) {
  if (state.id) saveNow();
  const data = stored(id);
  if (!data) { say("that saved puzzle cannot be read any more"); return false; }
  loadPuzzle({ ...data, language: data.language || "en", cluesByKey: data.clues, history: (data.history || []).map(unpack),
               future: (data.future || []).map(unpack) });
  return true;
}

function remove(id) {
  localStorage.removeItem(PREFIX + id);
  localStorage.setItem(INDEX, JSON.stringify(savedIndex().filter((e) => e.id !== id)));
  drawList();
}

function ago(ms) {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

function drawList() {
  const ul = $("saved-list");
  ul.innerHTML = "";
  for (const entry of savedIndex()) {
    const li = document.createElement("li");
    li.dataset.id = entry.id;
    li.classList.toggle("open", entry.id === state.id);
    li.innerHTML = '<span class="t"></span><span class="muted d"></span><span class="b"></span>';
    li.children[0].textContent = entry.title || "Untitled";
    li.children[1].textContent = `${entry.size} · ${entry.filled}% filled · ${entry.clued}/${entry.words} clued · ${ago(entry.updated)}`;
    const open = document.createElement("button");
    open.type = "button";
    open.textContent = entry.id === state.id ? "Open now" : "Open";
    open.disabled = entry.id === state.id;
    open.setAttribute("aria-label", `Open ${entry.title || "Untitled"} (${entry.size})`);
    open.onclick = () => openSaved(entry.id);
    const del = document.createElement("button");
    del.type = "button";
    del.textContent = "Delete";
    del.disabled = entry.id === state.id;
    del.title = entry.id === state.id ? "this puzzle is open: open another one first" : "delete this saved puzzle";
    del.setAttribute("aria-label", `Delete ${entry.title || "Untitled"} (${entry.size})`);
    const label = `${entry.title || "Untitled"} (${entry.size})`;
    del.onclick = () => {  // a second click within 4 s deletes
      if (del.dataset.armed) { remove(entry.id); return; }
      del.dataset.armed = "1";
      del.textContent = "Really delete?";
      del.setAttribute("aria-label", `Really delete ${label}?`);
      setTimeout(() => {
        delete del.dataset.armed;
        del.textContent = "Delete";
        del.setAttribute("aria-label", `Delete ${label}`);
      }, 4000);
    };
    li.children[2].append(open, del);
    ul.appendChild(li);
  }
  $("saved-count").textContent = `${savedIndex().length} saved in this browser`;
}

// The puzzle to show on load: a link's grid (#w=..&g=..), the puzzle open last time, or none (the caller's default).
export function restoreOnLoad() {
  const hash = location.hash;
  if (hash === "#new") return false;
  const current = localStorage.getItem(CURRENT);
  let restored = decodeState(hash);
  if (restored && restored.error) { // a share link that cannot be read: say so, never swap in another puzzle unsaid
    const instead = current && stored(current) ? "the puzzle open last time" : "a new puzzle";
    const message = `This link's puzzle could not be read: ${restored.error}. Showing ${instead} instead.`;
    setTimeout(() => say(message), 0); // after the page's first drawing, which clears the message line
    restored = null;
  }
  if (restored && restored.solve) { // a solve-only link: test-solved as it is, never saved here
    loadPuzzle({ grid: restored.grid, cluesByName: restored.clues, id: null, meta: restored.meta,
                 language: restored.language, solveOnly: restored.solve, lists: restored.lists, labels: restored.labels });
    return true;
  }
  if (current && stored(current)) {
    const data = stored(current);
    // the link of the puzzle open last time (a reload): the saved copy has its clues, theme and undo history too,
    // and the edits saved as the page went away
    const link = hash.replace(/^#/, "");
    if (!restored || link === data.link || link === data.shownLink
        || encodeState(restored.grid, {}) === encodeState(data.grid, {})) return openSaved(current);
  }
  if (restored) {
    loadPuzzle({ grid: restored.grid, cluesByName: restored.clues, id: null, meta: restored.meta,
                 themeNames: restored.theme, locks: restored.locks, language: restored.language,
                 lists: restored.lists, labels: restored.labels });
    return true;
  }
  return false;
}

export function initSaved() {
  on("puzzle", () => {
    if (state.solveOnly) return;
    if (!state.id) state.id = newId();
    saveNow();
  });
  for (const event of ["edit", "clues", "meta", "language"]) on(event, schedule);
  on("leaving", () => { if (timer) saveNow(); }); // an edit made just before another puzzle opens is kept
  window.addEventListener("pagehide", () => { if (timer) saveNow(); });
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden" && timer) saveNow(); });
  drawList();
  setInterval(drawList, 60_000); // the "… min ago" labels
  emit("saved-ready");
}
