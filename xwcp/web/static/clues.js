// The Clues panel: every entry's clue in Across and Down lists (and an Entries list of the grid's listed entries; a
// variety file's own lists first, each under its title, with its labels and its clues on no entry), edited in place, with the entry and its length;
// the entry under the cursor is highlighted and kept in view; a clue box clicked or typed in moves the cursor there (Tab
// passing through leaves it). A clue
// whose entry's letters changed is flagged stale; a complete entry without a clue is offered the clue remembered for
// its answer from earlier puzzles (cluememory.js).
import { EMPTY } from "./grid.js";
import { overlay } from "./editor.js";
import { isRebus } from "./gridtext.js";
import { writtenAtEnd } from "./alphabet.js";
import { answerOf, recall, remember, rememberPuzzle } from "./cluememory.js";
import { currentSlot, emit, isStale, isTheme, on, setClue, setListClue, slotCells, slotKey, slotText, state } from "./state.js";

const $ = (id) => document.getElementById(id);
let layoutKey = "";
let shownCurrent = null; // the highlighted entries last scrolled into view

function entryText(slot) { // as the grid writes it: Hebrew's last letter in its final form (שלום)
  if (state.mode === "solve") return "";
  return writtenAtEnd(slotText(slot)).replaceAll(EMPTY, "·");
}

// A chain's words as the last autofill chose them ("RETITLES / PIMPLES"), while they are its letters (in pencil, or
// accepted and unchanged); else its letters as one run ("" when none).
function chainWords(slot) {
  const words = overlay.chains && overlay.chains[slot.name];
  if (!words || !(overlay.pencil || words.join("") === slotText(slot))) return "";
  return words.map((word) => writtenAtEnd(word)).join(" / ");
}

function letterLength(slot) {
  return slot.cells.reduce((n, cell) => n + (isRebus(state.grid.cells[cell]) && !state.pairCells.has(cell)
    ? state.grid.cells[cell].length : 1), 0);
}

// One clue's row: `slot`'s clue box (its key, edits go to `state.clues`), shown with `label` and named `aria`.
function entryItem(slot, label, aria) {
  const key = slotKey(slot);
  const li = document.createElement("li");
  li.dataset.key = key;
  li.dataset.name = slot.name;
  if (label !== null) li.dataset.label = label;
  li.innerHTML = '<span class="n"></span><input type="text" spellcheck="true"><span class="entry"></span>'
    + '<span class="stale-mark" hidden>changed</span><button type="button" class="memory link" hidden></button>';
  li.children[0].textContent = label ?? (slot.listed ? slot.name : slot.number);
  const input = li.children[1];
  input.value = state.clues[key] || "";
  input.setAttribute("aria-label", aria);
  input.placeholder = state.mode === "solve" ? "" : "clue…";
  input.readOnly = state.mode === "solve";
  input.addEventListener("input", () => {
    const now = state.slotByKey.get(key);
    if (now) { follow(now); setClue(now, input.value); }
  });
  input.addEventListener("change", () => {  // a clue finished: remembered for its answer
    const now = state.slotByKey.get(key);
    if (now) remember(answerOf(slotCells(now)), input.value);
  });
  li.children[4].addEventListener("click", () => {
    const now = state.slotByKey.get(key);
    if (!now || !li.children[4].dataset.clue) return;
    setClue(now, li.children[4].dataset.clue);
    input.value = li.children[4].dataset.clue;
  });
  // a click or a clue typed brings the cursor to its entry; focus passing through (Tab) leaves it where it was
  input.addEventListener("mousedown", () => { const now = state.slotByKey.get(key); if (now) follow(now); });
  input.addEventListener("keydown", nextOnEnter);
  return li;
}

function nextOnEnter(event) {
  const input = event.currentTarget;
  if (event.key === "Escape") { event.preventDefault(); $("grid").focus(); }
  if (event.key === "Enter") {
    event.preventDefault();
    const inputs = [...document.querySelectorAll("#clues input")];
    const next = inputs[inputs.indexOf(input) + 1];
    if (next) next.focus(); else $("grid").focus();
  }
}

// A clue of the puzzle's own lists on no entry (a piece the solver places, a one-letter word): its text is the list's.
function placedItem(listIndex, clueIndex, title) {
  const clue = state.lists[listIndex].clues[clueIndex];
  const li = document.createElement("li");
  li.className = "placed";
  li.innerHTML = '<span class="n"></span><input type="text" spellcheck="true"><span class="entry"></span>';
  li.children[0].textContent = clue.label;
  const input = li.children[1];
  input.value = clue.text;
  input.setAttribute("aria-label", `${title} ${clue.label || clueIndex + 1} clue`);
  input.readOnly = state.mode === "solve";
  input.addEventListener("input", () => setListClue(listIndex, clueIndex, input.value));
  input.addEventListener("keydown", nextOnEnter);
  li.dataset.cells = clue.cells.join(",");
  li.children[2].textContent = placedText(clue);
  return li;
}

// A clue on no entry: its cells' letters and their count (a one-letter word's letter is its crossing entries'), or
// that the solver places it.
function placedText(clue) {
  if (!clue.cells.length) return "(placed by the solver)";
  const letters = state.mode === "solve" ? "" : clue.cells.map((cell) => state.grid.cells[cell]).join("").replaceAll(EMPTY, "·");
  return `${letters ? `${letters} ` : ""}(${clue.cells.length})`;
}

// The puzzle's own clue lists (a variety file's: Rows, Blooms, Diagonal...), each under its heading, before the
// Across, Down and Entries lists, which keep the entries no own list names.
function buildOwnLists() {
  const box = $("own-lists");
  box.innerHTML = "";
  const named = new Set();
  state.lists.forEach((list, listIndex) => {
    const div = document.createElement("div");
    div.className = "clue-list own-list";
    const h3 = document.createElement("h3");
    h3.textContent = list.title;
    const ol = document.createElement("ol");
    div.append(h3, ol);
    list.clues.forEach((clue, clueIndex) => {
      if (!clue.entry) { ol.appendChild(placedItem(listIndex, clueIndex, list.title)); return; }
      const slot = state.slots.find((s) => s.name === clue.entry || s.name === `${clue.entry}/1`);
      if (!slot) return; // its cells became blocks: the entry is gone, and so is its clue on saving
      named.add(clue.entry);
      ol.appendChild(entryItem(slot, clue.label, `${list.title} ${clue.label || clueIndex + 1} clue`));
    });
    box.appendChild(div);
  });
  box.hidden = !state.lists.length;
  return named;
}

function build() {
  const focusedKey = document.activeElement && document.activeElement.closest("#clues li")
    ? document.activeElement.closest("li").dataset.key : null;
  const named = buildOwnLists();
  const rest = (slot) => !named.has(slot.name.replace(/\/[12]$/, ""));
  $("entries-list").hidden = !state.slots.some((s) => s.listed && rest(s));
  for (const [dir, id] of [["A", "clues-across"], ["D", "clues-down"], ["=", "clues-entries"]]) {
    const list = $(id);
    list.innerHTML = "";
    const slots = state.slots.filter((s) => (dir === "=" ? s.listed : s.dir === dir) && rest(s));
    if (dir !== "=") list.parentElement.hidden = !!state.lists.length && !slots.length;
    for (const slot of slots) {
      const aria = slot.listed ? `entry ${slot.name} clue` : `${slot.number} ${dir === "A" ? "Across" : "Down"} clue`;
      list.appendChild(entryItem(slot, null, aria));
    }
  }
  layoutKey = state.slots.map(slotKey).join(",");
  shownCurrent = null;
  refresh();
  if (focusedKey) {
    const input = document.querySelector(`#clues li[data-key="${focusedKey}"] input`);
    if (input) input.focus();
  }
}

// The cursor to `slot`'s first cell, unless it is already in that entry.
function follow(slot) {
  if (currentSlot() === slot) return;
  state.dir = slot.dir;
  state.cell = slot.cells[0];
  emit("select", { from: "clues" });
}

// Entries, lengths, theme marks and the highlight, without rebuilding the boxes (typing in one keeps its focus).
function refresh() {
  const slot = currentSlot();
  const crossing = slot ? new Set(state.slots.filter((s) => s.dir !== slot.dir && s.cells.includes(state.cell)).map(slotKey))
    : new Set();
  let count = 0;
  let nStale = 0;
  state.lists.forEach((list) => list.clues.forEach((clue) => { // letters under clues on no entry follow the grid
    if (clue.entry || !clue.cells.length) return;
    const li = document.querySelector(`#own-lists li.placed[data-cells="${clue.cells.join(",")}"]`);
    if (li) setText(li.children[2], placedText(clue));
  }));
  for (const li of document.querySelectorAll("#clues li[data-key]")) {
    const now = state.slotByKey.get(li.dataset.key);
    if (!now) continue;
    setText(li.children[0], li.dataset.label ?? (now.listed ? now.name : String(now.number)));
    // building: the entry's letters (a rebus cell counts all of its own); test-solving: its cells, as a solver sees them
    const words = now.words ? `, ${now.words} words` : ""; // a chain: its words' boundaries are the fill's to choose
    const shown = (now.words && chainWords(now)) || entryText(now);
    setText(li.children[2], state.mode === "solve" ? `(${now.cells.length}${words})` : `${shown} (${letterLength(now)}${words})`);
    li.classList.toggle("chain", !!now.words);
    li.classList.toggle("current", slot === now);
    li.classList.toggle("crossing", crossing.has(li.dataset.key));
    li.classList.toggle("theme", isTheme(now));
    li.classList.toggle("missing", !state.clues[li.dataset.key]);
    const stale = state.mode !== "solve" && isStale(now);
    li.classList.toggle("stale", stale);
    if (stale) nStale++;
    const mark = li.children[3];
    mark.hidden = !stale;
    if (stale) mark.title = `the entry's letters changed since this clue was written (was ${bound(now)}): rewrite it, or undo`;
    offerMemory(li, now, stale);
    const input = li.children[1];
    if (document.activeElement !== input && input.value !== (state.clues[li.dataset.key] || "")) {
      input.value = state.clues[li.dataset.key] || "";
    }
    if (state.clues[li.dataset.key]) count++;
  }
  $("clue-count").textContent = `${count} of ${state.slots.length} clued${nStale ? `, ${nStale} stale` : ""}`;
  const current = [...document.querySelectorAll("#clues li.current, #clues li.crossing")];
  const shown = current.map((li) => li.dataset.key).join();
  if (shown !== shownCurrent) {  // scrolling measures the layout: only when the highlight moved
    shownCurrent = shown;
    current.forEach(keepInView);
  }
}

function bound(slot) {
  return (state.clueAnswers[slotKey(slot)] || []).map((x) => (x === EMPTY ? "·" : x)).join("");
}

// A complete entry with no clue, or a stale one: the newest clue remembered for its answer, one click to use.
function offerMemory(li, slot, stale) {
  const button = li.children[4];
  const text = state.clues[li.dataset.key];
  const answer = state.mode === "solve" || (text && !stale) ? null : answerOf(slotCells(slot));
  const offered = recall(answer).filter((clue) => clue !== text);
  button.hidden = !offered.length;
  const label = offered.length ? `remembered for ${answer}: ${offered[0]}` : "";
  if (button.dataset.clue === (offered[0] || "") && button.textContent === label) return;
  button.dataset.clue = offered[0] || "";
  button.textContent = label;
  button.title = offered.length ? `use this clue (written for ${answer} before)${offered.length > 1 ? `; others: ${offered.slice(1).join(" | ")}` : ""}` : "";
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function keepInView(li) {
  const column = li.closest(".clue-list");
  const box = column.getBoundingClientRect(), row = li.getBoundingClientRect();
  if (row.top < box.top || row.bottom > box.bottom) column.scrollTop += row.top - box.top - box.height / 3;
}

function update() {
  if (state.slots.map(slotKey).join(",") !== layoutKey) build();
  else refresh();
}

// Once per browser: the clues of the puzzles already saved here go into the memory.
function seedMemory() {
  if (localStorage.getItem("xwcp:clue-memory") !== null) return;
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith("xwcp:puzzle:")) continue;
    try {
      const data = JSON.parse(localStorage.getItem(key));
      if (data && data.grid && Array.isArray(data.grid.cells) && data.clues) {
        rememberPuzzle(data.grid, data.clues, data.clueAnswers || {});
      }
    } catch { /* an unreadable saved puzzle adds nothing */ }
  }
  localStorage.setItem("xwcp:clue-memory", localStorage.getItem("xwcp:clue-memory") || "{}");
}

export function initClues() {
  seedMemory();
  on("puzzle", () => {
    // a file opened or a puzzle reopened: its clues are remembered (not a stale one: it was written for other letters)
    const current = Object.fromEntries(Object.entries(state.clues).filter(([key]) => {
      const slot = state.slotByKey.get(key);
      return slot && !isStale(slot);
    }));
    rememberPuzzle(state.grid, current);
    build();
  });
  on("edit", update);
  on("select", refresh);
  on("clues", () => refresh());
  on("mode", build);
  on("focus-clue", (slot) => {
    const input = document.querySelector(`#clues li[data-key="${slotKey(slot)}"] input`);
    if (input) { input.focus(); input.select(); }
  });
}
