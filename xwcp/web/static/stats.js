// The Statistics panel, live: words, blocks, lengths, letters, unchecked cells, weak entries, repeats, shared
// substrings, entries of one stem and the theme entries apart (counted by the server: POST /api/stats).
import { isAbort, post } from "./api.js";
import { jumpToSlot } from "./editor.js";
import { toRows } from "./grid.js";
import { lockedCells, on, say, staleSlots, state, themeNames } from "./state.js";
import { written, writtenAtEnd } from "./alphabet.js";

const $ = (id) => document.getElementById(id);
const STATS_DELAY_MS = 150; // after the suggestions and the heat map: statistics can wait for a pause
let timer = null;
let controller = null;
let seq = 0;

let stale = true; // the grid changed while the panel was hidden: refresh when it is shown

// After an edit: refresh soon if the panel is shown, else only remember to (a hidden panel costs a keystroke
// nothing: no request, no redraw).
function schedule() {
  clearTimeout(timer);
  if ($("panel-stats").hidden) { stale = true; return; }
  timer = setTimeout(refresh, STATS_DELAY_MS);
}

function refresh() {
  stale = false;
  if (controller) controller.abort();
  controller = new AbortController();
  const mine = ++seq;
  const body = {
    grid: toRows(state.grid), theme: themeNames(),
    below_score: Math.max(0, Math.min(100, Number($("below-score").value) || 0)),
    substring: Math.max(2, Math.min(15, Number($("shared-length").value) || 4)),
  };
  post("/api/stats", body, { signal: controller.signal }).then((data) => {
    if (mine === seq) draw(data);
  }).catch((err) => { if (!isAbort(err)) say(`statistics: ${err.message}`); });
}

function jumpLink(name, text) {
  const a = document.createElement("button");
  a.type = "button";
  a.className = "link";
  a.textContent = text;
  a.title = `go to ${name}`;
  const entry = name.replace(/\/[12]$/, ""); // a Schrödinger entry's reading (7A/1) is its entry's slot here
  a.addEventListener("click", () => jumpToSlot(state.slots.find((s) => s.name === entry), { focusGrid: true }));
  return a;
}

function fillList(id, items, empty) {
  const ul = $(id);
  ul.innerHTML = "";
  if (!items.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = empty;
    ul.appendChild(li);
  }
  for (const parts of items) {
    const li = document.createElement("li");
    li.append(...parts);
    ul.appendChild(li);
  }
}

function bars(id, counts, labelOf) {
  const box = $(id);
  box.innerHTML = "";
  const max = Math.max(1, ...Object.values(counts));
  for (const [label, n] of Object.entries(counts)) {
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.title = labelOf(label, n);
    bar.innerHTML = '<span class="fill"></span><span class="n"></span><span class="label"></span>';
    bar.children[0].style.height = `${Math.round((48 * n) / max)}px`;
    bar.children[1].textContent = n;
    bar.children[2].textContent = label;
    box.appendChild(bar);
  }
}

function draw(data) {
  for (const el of document.querySelectorAll("#stats [data-stat]")) {
    const value = data[el.dataset.stat];
    el.textContent = value === null || value === undefined ? "–" : value;
  }
  bars("stat-lengths", data.lengths, (len, n) => `${n} entries of ${len} letters`);
  bars("stat-letters", Object.fromEntries(Object.entries(data.letters).map(([letter, n]) => [written(letter), n])),
    (letter, n) => `${letter}: ${n}`); // Dutch IJ as written
  fillList("stat-below", data.below.entries.map((e) => [jumpLink(e.id, e.id), ` ${writtenAtEnd(e.word)} `,
    Object.assign(document.createElement("span"), { className: "muted", textContent: e.score === null ? "not in the list" : `score ${e.score}` })]),
  "none");
  fillList("stat-repeated", data.repeated.map((r) => [`${writtenAtEnd(r.word)}: `, ...r.ids.flatMap((id, i) => [i ? ", " : "", jumpLink(id, id)])]),
    "none");
  const shared = data.shared.pairs.map((p) => [jumpLink(p.ids[0], `${p.ids[0]} ${writtenAtEnd(p.words[0])}`), " and ",
    jumpLink(p.ids[1], `${p.ids[1]} ${writtenAtEnd(p.words[1])}`), Object.assign(document.createElement("span"), { className: "muted", textContent: ` share ${written(p.substring)}` })]);
  if (data.shared.count > data.shared.pairs.length) shared.push([`… and ${data.shared.count - data.shared.pairs.length} more pairs`]);
  fillList("stat-shared", shared, "none");
  const stems = data.stems.pairs.map((p) => [jumpLink(p.ids[0], `${p.ids[0]} ${writtenAtEnd(p.words[0])}`), " and ",
    jumpLink(p.ids[1], `${p.ids[1]} ${writtenAtEnd(p.words[1])}`), Object.assign(document.createElement("span"), { className: "muted", textContent: ` ${p.reason}` })]);
  if (data.stems.count > data.stems.pairs.length) stems.push([`… and ${data.stems.count - data.stems.pairs.length} more pairs`]);
  fillList("stat-stems", stems, "none");
  fillList("stat-theme", data.theme.map((t) => [jumpLink(t.id, t.id), ` ${writtenAtEnd(t.word)} (${t.length})`]),
    "none: mark an entry with Theme entry");
  $("stats").dataset.version = Number($("stats").dataset.version || 0) + 1;
}

// Counted in the page: clues gone stale (their entry's letters changed since they were written) and locked
// letters (apart from the theme entries).
function drawLocal() {
  const stale = staleSlots();
  $("stat-stale").textContent = String(stale.length);
  $("stat-stale").title = stale.length ? `stale: ${stale.map((s) => s.name).join(", ")}` : "no clue is stale";
  const locked = lockedCells();
  $("stat-locks").textContent = String(state.locks.filter((cell) => locked.has(cell)).length);
}

export function initStats() {
  for (const event of ["edit", "clues", "puzzle"]) on(event, drawLocal);
  $("below-score").addEventListener("input", schedule);
  $("shared-length").addEventListener("input", schedule);
  on("edit", schedule);
  on("puzzle", schedule);
  on("words", schedule);
  on("language", schedule);
  $("tab-stats").addEventListener("click", () => { if (stale) refresh(); });
}
