// Keyboard and screen-reader access: each grid cell's accessible name, the tabs as WAI-ARIA tabs (arrow keys, Home,
// End), and the suggestion list reached and used from the keyboard (roving focus over its words).
import { BLOCK, EMPTY } from "./grid.js";
import { on, state } from "./state.js";

const $ = (id) => document.getElementById(id);
let placeOfSlots = null;
let placeByCell = new Map(); // cell -> { A: [slot, position], D: [slot, position] }

function places() {
  if (placeOfSlots !== state.slots) {
    placeOfSlots = state.slots;
    placeByCell = new Map();
    for (const slot of state.slots) {
      slot.cells.forEach((cell, i) => {
        if (!placeByCell.has(cell)) placeByCell.set(cell, {});
        placeByCell.get(cell)[slot.dir] = [slot, i];
      });
    }
  }
  return placeByCell;
}

function spoken(slot, i) {
  return `${slot.number} ${slot.dir === "A" ? "Across" : "Down"}, letter ${i + 1} of ${slot.cells.length}`;
}

// "14 Across, letter 3 of 7, R" (the cursor's direction first, then the crossing entry); "blank" for an empty cell,
// "R in pencil" for an autofill's letter not yet accepted; "block, row 1 column 4" for a block.
export function cellLabel(cell, shown, pencil) {
  const r = Math.floor(cell / state.grid.width) + 1, c = (cell % state.grid.width) + 1;
  if (state.grid.cells[cell] === BLOCK) return `block, row ${r} column ${c}`;
  const place = places().get(cell) || {};
  const order = state.dir === "D" ? ["D", "A"] : ["A", "D"];
  const where = order.filter((dir) => place[dir]).map((dir) => spoken(...place[dir]));
  const what = shown && shown !== EMPTY ? shown : pencil ? `${pencil} in pencil` : "blank";
  return `${where.join("; ") || `row ${r} column ${c}`}, ${what}`;
}

// role=tablist: the selected tab alone is in the Tab order; Left/Right (wrapping), Home and End move to a tab and open
// it; Enter and Space open the focused tab (a button's own click).
export function initTabs() {
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  const show = (tab) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", selected ? "true" : "false");
      other.tabIndex = selected ? 0 : -1;
      $(other.getAttribute("aria-controls")).hidden = !selected;
    }
  };
  for (const tab of tabs) {
    tab.addEventListener("click", () => show(tab));
    tab.addEventListener("keydown", (event) => {
      const i = tabs.indexOf(tab);
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      const target = tabs[(next + tabs.length) % tabs.length];
      target.focus();
      target.click();
    });
  }
  for (const panel of document.querySelectorAll('[role="tabpanel"]')) panel.tabIndex = 0;
  show(tabs.find((t) => t.getAttribute("aria-selected") === "true") || tabs[0]);
}

// A list of words (the suggestions, a pattern's matches): one Tab stop (the list); Down/Up move through its words,
// Home/End to the first/last, Enter or Space enters the focused word (its click), Delete bans it (its ban button, where
// it has one) and the focus stays in the list, Escape goes back to the grid.
function wordListKeys(list) {
  list.tabIndex = 0;
  const words = () => [...list.querySelectorAll("li[data-word]")];
  const focusWord = (li) => {
    if (!li) return;
    for (const other of words()) other.tabIndex = -1;
    li.tabIndex = 0;
    li.focus();
    li.scrollIntoView({ block: "nearest" });
  };
  list.addEventListener("keydown", (event) => {
    if (event.key === "Escape") { event.preventDefault(); $("grid").focus(); return; }
    const all = words();
    if (!all.length) return;
    const here = event.target.closest("li[data-word]");
    const i = here ? all.indexOf(here) : -1;
    if (event.target.closest("button")) return; // a ban button keeps its own keys
    let target = null;
    if (event.key === "ArrowDown") target = all[Math.min(all.length - 1, i + 1)];
    else if (event.key === "ArrowUp") target = all[Math.max(0, i - 1)];
    else if (event.key === "Home") target = all[0];
    else if (event.key === "End") target = all[all.length - 1];
    else if ((event.key === "Enter" || event.key === " ") && here) { event.preventDefault(); here.click(); return; }
    else if (event.key === "Delete" && here) {
      const ban = here.querySelector("button.ban");
      if (ban) { event.preventDefault(); ban.click(); } // the focus goes on to the next word (wordlist.js)
      return;
    } else return;
    event.preventDefault();
    focusWord(target);
  });
  return { words, focusWord };
}

// The suggestion list by keys (wordListKeys); Alt+W in the grid comes here, with the Fill panel shown.
export function initSuggestionKeys() {
  const list = $("suggestions");
  list.setAttribute("aria-label", "suggestions: arrow keys choose, Enter enters the word, Delete bans it, Escape goes back to the grid");
  // the words' ban buttons are reached by Delete, not each by Tab (the list stays one Tab stop)
  new MutationObserver(() => {
    for (const ban of list.querySelectorAll("button.ban")) ban.tabIndex = -1;
  }).observe(list, { childList: true, subtree: true });
  const { words, focusWord } = wordListKeys(list);
  on("focus-suggestions", () => {
    if ($("tab-fill").getAttribute("aria-selected") !== "true") $("tab-fill").click();
    const first = words()[0];
    if (first) focusWord(first); else list.focus();
  });
  wordListKeys($("find-results"));
}
