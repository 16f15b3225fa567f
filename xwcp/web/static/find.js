// Find words by pattern ("A?C??": letters, and ? or . for any letter): the word list's matches with their scores,
// asked of the server as the suggestions of a one-row grid holding the pattern (no crossing constrains it); Find with
// the box empty takes the current entry's pattern; a match clicked (or Enter) is entered into the current entry when
// it fits.
import { isAbort, post } from "./api.js";
import { EMPTY, MAX_SIDE, toRows } from "./grid.js";
import { enterWord } from "./editor.js";
import { pack, typed, written } from "./alphabet.js";
import { currentSlot, on, say, state } from "./state.js";

const $ = (id) => document.getElementById(id);
const MAX_MATCHES = 200; // the server's most suggestions at once
let controller = null;

// The pattern's cells (a letter's code char, or EMPTY), or { bad } naming what is not a letter of the puzzle's
// language.
export function patternCells(text) {
  const cells = [];
  for (const run of text.trim().split(/([?.])/)) {
    if (run === "?" || run === ".") { cells.push(EMPTY); continue; }
    if (!run.trim()) continue;
    const got = typed(run);
    if (!got) continue;
    if (got.bad) return { bad: got.bad };
    cells.push(...got.letters);
  }
  return { cells };
}

// The current entry as a pattern: its letters, ? for its empty cells (a rebus cell's letters each).
function entryPattern() {
  const slot = currentSlot();
  return slot ? slot.cells.map((cell) => (state.grid.cells[cell] === EMPTY ? "?" : written(state.grid.cells[cell]))).join("") : "";
}

async function find() {
  if (!$("find-pattern").value.trim()) $("find-pattern").value = entryPattern(); // empty: the current entry's
  const text = $("find-pattern").value;
  const { cells, bad } = patternCells(text);
  const count = $("find-count");
  const list = $("find-results");
  if (bad) { count.textContent = `${bad} is not a letter of ${pack().name}`; return; }
  if (!cells || cells.length < 2 || cells.length > MAX_SIDE) {
    count.textContent = `a pattern is 2 to ${MAX_SIDE} letters or ?`;
    return;
  }
  if (!cells.includes(EMPTY)) { count.textContent = "a pattern needs a ? (any letter)"; list.hidden = true; return; }
  if (controller) controller.abort();
  controller = new AbortController();
  const grid = { width: cells.length, height: 1, cells, bars: [], marks: {}, numbers: null };
  count.textContent = "finding…";
  try {
    const data = await post("/api/suggest", { grid: toRows(grid), slot: "1A", k: MAX_MATCHES }, { signal: controller.signal });
    const words = data.words.slice().sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || (a.word < b.word ? -1 : 1));
    const total = data.counts ? data.counts.pattern : words.length;
    const shown = written(cells.map((x) => (x === EMPTY ? "?" : x)).join(""));
    count.textContent = !words.length ? `no word matches ${shown}`
      : `${total.toLocaleString()} word${total === 1 ? " matches" : "s match"} ${shown}${total > words.length ? `, the best ${words.length} shown` : ""}`;
    draw(words);
  } catch (err) {
    if (!isAbort(err)) { count.textContent = ""; say(`find: ${err.message}`); list.hidden = true; }
  }
}

function draw(words) {
  const list = $("find-results");
  list.innerHTML = "";
  list.hidden = !words.length;
  for (const w of words) {
    const li = document.createElement("li");
    li.dataset.word = w.word;
    li.tabIndex = -1;
    li.title = `score ${w.score ?? "not listed"}; click to enter it into the current entry`;
    li.innerHTML = '<span class="word"></span><span class="score"></span>';
    li.children[0].textContent = written(w.word);
    li.children[1].textContent = w.score ?? "–";
    li.addEventListener("click", () => {
      const slot = currentSlot();
      if (!slot) { say("select an entry in the grid first"); return; }
      enterWord(w.word);
    });
    list.appendChild(li);
  }
}

export function initFind() {
  $("find-form").addEventListener("submit", (event) => { event.preventDefault(); find(); });
  on("words", () => { if (!$("find-results").hidden) find(); }); // a ban or a new score: the matches again
  on("language", () => { $("find-results").hidden = true; $("find-count").textContent = ""; });
  on("mode", () => { if (state.mode === "solve") { $("find-results").hidden = true; $("find-count").textContent = ""; } });
}
