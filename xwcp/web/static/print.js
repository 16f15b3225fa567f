// The print view: title and author, the blank grid with its numbers, bars, circles and shading, the clues in three
// columns under it (a 15x15 and its clues on one Letter or A4 page, a 21x21 on two), and, when "with answers" is
// ticked, a small answer key beside the grid (rebus cells' letters shrunk to fit).
import { BLOCK, EMPTY, fitText } from "./grid.js";
import { BELOW, RIGHT } from "./gridtext.js";
import { slotKey, state, themeCells } from "./state.js";
import { isRtl, written, writtenAtEnd } from "./alphabet.js";

const $ = (id) => document.getElementById(id);

function gridTable(sizePx, withLetters) {
  const { grid } = state;
  const table = document.createElement("div");
  table.className = "print-grid";
  table.dir = isRtl() ? "rtl" : "ltr"; // Hebrew: numbered from the right
  table.style.gridTemplateColumns = `repeat(${grid.width}, ${sizePx}px)`;
  const theme = themeCells();
  const bars = new Set(grid.bars);
  const labelsByCell = new Map();
  for (const { cell, corner, text } of state.labels) labelsByCell.set(cell, { ...labelsByCell.get(cell), [corner]: text });
  grid.cells.forEach((value, cell) => {
    const div = document.createElement("div");
    div.style.height = `${sizePx}px`;
    const mark = value === BLOCK ? null : grid.marks[cell];
    if (value === BLOCK) div.className = "b";
    else if (withLetters && theme.has(cell)) div.className = "t";
    if (mark && (mark.shaded || mark.color)) {
      div.classList.add("s");
      if (mark.color) div.style.backgroundColor = mark.color;
    }
    if (mark && mark.circle) div.appendChild(Object.assign(document.createElement("i"), { className: "o" }));
    // a variety file's own labels replace the numbering: its TL label where a number goes, the others top right
    const own = labelsByCell.get(cell) || {};
    const number = labelsByCell.size ? own.TL : state.numberByCell.get(cell);
    if (number && !withLetters) div.appendChild(Object.assign(document.createElement("span"), { textContent: number }));
    const corners = Object.entries(own).filter(([corner]) => corner !== "TL").map(([, text]) => text).join(" ");
    if (corners && !withLetters) div.appendChild(Object.assign(document.createElement("span"), { className: "tr", textContent: corners }));
    if (withLetters && value !== BLOCK && value !== EMPTY) {
      const letter = document.createElement("b");
      letter.className = "l";
      const text = state.endCells.has(cell) ? writtenAtEnd(value) : written(value); // Dutch IJ in one cell; Hebrew ם
      letter.textContent = text;
      const fit = fitText(text);
      if (fit) {
        letter.classList.add("r");
        letter.classList.toggle("long", text.length > 5);
        letter.style.fontSize = `${(sizePx * fit).toFixed(1)}px`;
      }
      div.appendChild(letter);
    }
    if (bars.has(`${cell}${RIGHT}`)) div.appendChild(Object.assign(document.createElement("i"), { className: "br" }));
    if (bars.has(`${cell}${BELOW}`)) div.appendChild(Object.assign(document.createElement("i"), { className: "bb" }));
    table.appendChild(div);
  });
  return table;
}

// The clue lists printed: a variety file's own (its titles and labels, its clues on no entry too), then Across, Down
// and Entries with the entries no own list names; each clue as [label, text, number of cells].
function printedLists() {
  const out = [];
  const named = new Set();
  for (const list of state.lists) {
    const items = [];
    for (const clue of list.clues) {
      if (!clue.entry) { items.push([clue.label, clue.text, clue.cells.length]); continue; }
      const slot = state.slots.find((s) => s.name === clue.entry || s.name === `${clue.entry}/1`);
      if (!slot) continue;
      named.add(clue.entry);
      items.push([clue.label, state.clues[slotKey(slot)], slot.cells.length]);
    }
    out.push([list.title, items]);
  }
  const rest = state.slots.filter((s) => !named.has(s.name.replace(/\/[12]$/, "")));
  for (const [dir, title] of [["A", "Across"], ["D", "Down"], ["=", "Entries"]]) {
    const slots = rest.filter((s) => (dir === "=" ? s.listed : s.dir === dir));
    if (!slots.length && (dir === "=" || state.lists.length)) continue;
    out.push([title, slots.map((slot) => [slot.listed ? slot.name : String(slot.number), state.clues[slotKey(slot)], slot.cells.length])]);
  }
  return out;
}

export function buildPrintView() {
  const { grid, meta } = state;
  const view = $("print-view");
  view.innerHTML = "";
  const h1 = document.createElement("h1");
  h1.textContent = meta.title || "Crossword";
  view.appendChild(h1);
  if (meta.author) {
    const by = document.createElement("p");
    by.className = "byline";
    by.textContent = `by ${meta.author}`;
    view.appendChild(by);
  }
  const side = Math.max(grid.width, grid.height);
  const top = document.createElement("div");
  top.className = "print-top";
  top.appendChild(gridTable(Math.max(12, Math.min(26, Math.floor(340 / side))), false));
  view.appendChild(top);
  const lists = document.createElement("div");
  lists.className = "clue-lists";
  for (const [title, items] of printedLists()) {
    const h = document.createElement("h2");
    h.textContent = title;
    const ol = document.createElement("ol");
    for (const [label, text, length] of items) {
      const li = document.createElement("li");
      li.innerHTML = "<b></b> ";
      li.firstChild.textContent = label;
      li.append(`${text || "…"}${length ? ` (${length})` : ""}`); // cells: a rebus is not given away
      ol.appendChild(li);
    }
    const column = document.createElement("div");
    column.append(h, ol);
    lists.append(column);
  }
  view.appendChild(lists);
  if (meta.copyright) {
    const c = document.createElement("p");
    c.className = "copyright";
    c.textContent = meta.copyright;
    view.appendChild(c);
  }
  if (!$("print-answers").checked) return;
  const key = document.createElement("section");
  key.className = "answer-key";
  const h2 = document.createElement("h2");
  h2.textContent = "Answers";
  key.append(h2, gridTable(Math.max(7, Math.min(13, Math.floor(190 / side))), true));
  top.appendChild(key);
}

export function initPrint() {
  $("print").onclick = () => { buildPrintView(); window.print(); };
  window.addEventListener("beforeprint", buildPrintView);
}
