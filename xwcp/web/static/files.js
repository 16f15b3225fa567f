// Puzzle files in the page: open any format the CLI reads (file picker or a file dropped on the page), save in
// every format it writes, and the title, author, copyright and notes that travel with them.
import { ApiError, request } from "./api.js";
import { MAX_SIDE, blankGrid, fromRows } from "./grid.js";
import { isLetters, isRebus } from "./gridtext.js";
import { loadPuzzle, on, puzzleFromJson, puzzleJson, say, setMeta, staleSlots, state, themeNames } from "./state.js";

const $ = (id) => document.getElementById(id);
const META_FIELDS = ["title", "author", "copyright", "notes"];
const MAX_FILE_BYTES = 1 << 20;
const KEEPS_THEME = new Set(["ipuz", "json"]); // the formats with a place for theme entries and locks

export async function openFile(file) {
  if (file.size > MAX_FILE_BYTES) { say(`${file.name} is ${file.size.toLocaleString()} bytes: not a puzzle file`); return; }
  say(`opening ${file.name}…`);
  try {
    const response = await request(`/api/open?name=${encodeURIComponent(file.name)}`, {
      body: file, json: false, headers: { "Content-Type": "application/octet-stream" },
    });
    const data = await response.json();
    loadPuzzle({ ...puzzleFromJson(data.puzzle), id: null, source: file.name });
    const n = data.puzzle.entries.filter((e) => e.clue).length;
    say(`opened ${file.name}: ${state.grid.width}x${state.grid.height}, ${n} clues${describe(state.grid)}`);
    showWarnings(file.name, data.warnings || []);
  } catch (err) {
    say(err instanceof ApiError ? `cannot open ${err.message.startsWith(`${file.name}: `) ? err.message : `${file.name}: ${err.message}`}` : String(err.message || err)); // the server's line may name the file already
  }
}

async function save(format) {
  try {
    const response = await request("/api/export", { body: { puzzle: puzzleJson(), format } });
    const match = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = match ? match[1] : `puzzle.${format}`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    say(`saved ${link.download}${format === "txt" ? " (a text grid keeps no clues)" : ""}${staleWarning()}${lostWarning(format)}`);
  } catch (err) {
    say(`cannot save as .${format}: ${err.message}`);
  }
}

function staleWarning() {
  const stale = staleSlots();
  if (!stale.length) return "";
  const one = stale.length === 1;
  return ` · warning: ${stale.length} clue${one ? " no longer matches its entry" : "s no longer match their entries"}`
    + ` (${stale.slice(0, 6).map((s) => s.name).join(", ")}${stale.length > 6 ? "…" : ""}): saved as written, check them`;
}

// A format with no place for theme entries or locks: one line says what the file leaves out.
function lostWarning(format) {
  if (KEEPS_THEME.has(format)) return "";
  const nTheme = themeNames().length, nLocks = state.locks.length;
  if (!nTheme && !nLocks) return "";
  const what = [nTheme && `${nTheme} theme entr${nTheme === 1 ? "y" : "ies"}`, nLocks && `${nLocks} locked cell${nLocks === 1 ? "" : "s"}`]
    .filter(Boolean).join(" and ");
  return ` · warning: .${format} has no place for the ${what} (their letters are saved): save as .ipuz or .json to keep them`;
}

// What a grid holds beyond blocks and letters, for the "opened" line: ", 74 bars, 4 rebus cells, 12 circles".
function describe(grid) {
  const marks = Object.values(grid.marks);
  const pairs = new Set(grid.pairs || []);
  const rebus = grid.cells.filter((cell, i) => isRebus(cell) && !pairs.has(i));
  const symbols = rebus.filter((cell) => !isLetters(cell)).length;
  const parts = [[grid.bars.length, "bar"], [rebus.length - symbols, "rebus cell"], [symbols, "symbol cell"],
    [marks.filter((m) => m.circle).length, "circle"], [marks.filter((m) => m.shaded || m.color).length, "shaded cell"],
    [(grid.entries || []).length, "listed entry", "listed entries"], [pairs.size, "Schrödinger square"]];
  const text = parts.filter(([n]) => n).map(([n, what, many]) => `${n} ${n === 1 ? what : many || `${what}s`}`).join(", ");
  return (text ? `, ${text}` : "") + (grid.entriesOnly ? " (the only entries)" : "") + (grid.numbers ? ", its own numbering" : "");
}

// What reading the file said (a lock opened with a key, a checksum that does not match): kept in view until
// dismissed or another puzzle is loaded.
function showWarnings(name, warnings) {
  const box = $("file-warnings");
  box.hidden = !warnings.length;
  box.querySelector("b").textContent = `${name}: ${warnings.length === 1 ? "a warning" : `${warnings.length} warnings`}`;
  const ul = box.querySelector("ul");
  ul.innerHTML = "";
  for (const text of warnings) {
    const li = document.createElement("li");
    li.textContent = text;
    ul.appendChild(li);
  }
}

function showMeta() {
  for (const field of META_FIELDS) {
    const el = $(`meta-${field}`);
    if (document.activeElement !== el) el.value = state.meta[field] || "";
  }
  document.title = state.meta.title ? `${state.meta.title} · xwcp builder` : "xwcp builder";
}

export function newPuzzle(grid) {
  loadPuzzle({ grid, id: null });
}

export async function initFiles() {
  $("open-file").addEventListener("change", () => {
    const file = $("open-file").files[0];
    if (file) openFile(file);
    $("open-file").value = "";
  });
  // a file dropped anywhere on the page opens it
  let depth = 0;
  const hasFile = (event) => [...(event.dataTransfer && event.dataTransfer.types || [])].includes("Files");
  document.addEventListener("dragenter", (event) => { if (hasFile(event)) { depth++; document.body.classList.add("dropping"); } });
  document.addEventListener("dragleave", () => { depth = Math.max(0, depth - 1); if (!depth) document.body.classList.remove("dropping"); });
  document.addEventListener("dragover", (event) => { if (hasFile(event)) event.preventDefault(); });
  document.addEventListener("drop", (event) => {
    if (!hasFile(event)) return;
    event.preventDefault();
    depth = 0;
    document.body.classList.remove("dropping");
    const file = event.dataTransfer.files[0];
    if (file) openFile(file);
  });
  for (const format of state.info.formats) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `download-${format}`;
    button.textContent = `.${format}`;
    button.title = `save this puzzle as a .${format} file`;
    button.addEventListener("click", () => save(format));
    $("save-buttons").appendChild(button);
  }
  for (const field of META_FIELDS) $(`meta-${field}`).addEventListener("input", () => setMeta(field, $(`meta-${field}`).value));
  $("new-grid").onclick = () => {
    const w = Math.min(MAX_SIDE, Math.max(2, Number($("new-width").value) || 15));
    const h = Math.min(MAX_SIDE, Math.max(2, Number($("new-height").value) || 15));
    $("preset").value = "";
    newPuzzle(blankGrid(w, h));
  };
  on("puzzle", showMeta);
  on("puzzle", () => showWarnings("", []));
  $("file-warnings-close").onclick = () => showWarnings("", []);
  on("meta", showMeta);
}

export async function loadPresets() {
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
    select.value = ""; // an action, not a state: the next choice of the same preset starts another puzzle
    if (p) newPuzzle(fromRows(p.rows));
  });
  return presets;
}
