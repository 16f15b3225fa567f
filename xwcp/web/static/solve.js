// Test-solve: the grid blanked, the clues shown, the constructor solves it as a solver would and checks the answers;
// a solve-only link gives test-solvers the puzzle without its answers (each entry's check code instead).
import { BLOCK, EMPTY, encodeState } from "./grid.js";
import { written } from "./alphabet.js";
import { cluesByName, emit, on, say, state } from "./state.js";

const $ = (id) => document.getElementById(id);

// An entry's check code: FNV-1a (32 bits, hex) of the salt, the slot's name and its answer as written. It tells a
// right entry from a wrong one without the answer being in the link or the page.
export function entryCode(salt, name, answer) {
  let h = 0x811c9dc5;
  for (const ch of `${salt}\u0000${name}\u0000${answer}`) {
    h ^= ch.codePointAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

// The solve-only link's fragment: the grid's shape (blocks, bars, marks, numbering) without its letters, the clues,
// title and author, the language, and a check code per slot ("" for an entry not filled yet).
export function solveLinkState() {
  const salt = Math.random().toString(36).slice(2, 10);
  const codes = state.slots.map((slot) => {
    const cells = slot.cells.map((cell) => state.grid.cells[cell]);
    return cells.includes(EMPTY) ? "" : entryCode(salt, slot.name, cells.map((x) => written(x)).join(""));
  });
  const shape = { ...state.grid, cells: state.grid.cells.map((x) => (x === BLOCK ? BLOCK : EMPTY)) };
  const unfilled = codes.filter((code) => !code).length;
  return { fragment: encodeState(shape, cluesByName(), { meta: state.meta, language: state.language, lists: state.lists, labels: state.labels,
    solve: { salt, codes } }),
           unfilled };
}

function enter() {
  state.solve = { cells: state.grid.cells.map((x) => (x === BLOCK ? BLOCK : EMPTY)), wrong: new Set() };
  state.mode = "solve";
  $("solve-status").textContent = "solving: type the answers, then Check";
  emit("mode");
}

function leave() {
  state.mode = "build";
  state.solve = null;
  $("solve-status").textContent = "";
  emit("mode");
}

// A solve-only puzzle: each complete entry's code against the link's; a cell is marked wrong when every complete
// entry through it is wrong.
function checkByCodes() {
  const { salt, codes } = state.solveOnly;
  const rightCells = new Set(), wrongCells = new Set();
  let right = 0, wrong = 0, open = 0, unknown = 0;
  state.slots.forEach((slot, i) => {
    const given = slot.cells.map((cell) => state.solve.cells[cell]);
    if (!codes[i]) { unknown++; return; }
    if (given.includes(EMPTY)) { open++; return; }
    if (entryCode(salt, slot.name, given.map((x) => written(x)).join("")) === codes[i]) {
      right++;
      slot.cells.forEach((cell) => rightCells.add(cell));
    } else {
      wrong++;
      slot.cells.forEach((cell) => wrongCells.add(cell));
    }
  });
  state.solve.wrong = new Set([...wrongCells].filter((cell) => !rightCells.has(cell)));
  if (!wrong && !open && !unknown) return "Solved: every answer is right.";
  return `${right} entr${right === 1 ? "y" : "ies"} right, ${wrong} wrong (marked), ${open} not complete`
    + (unknown ? `; ${unknown} had no answer when the link was made and are not checked` : "");
}

function check() {
  let text;
  if (state.solveOnly) text = checkByCodes();
  else {
    const wrong = new Set();
    let right = 0, empty = 0, unknown = 0;
    state.grid.cells.forEach((answer, cell) => {
      if (answer === BLOCK) return;
      const given = state.solve.cells[cell];
      if (answer === EMPTY) { unknown++; return; }
      if (given === EMPTY) empty++;
      else if (given === answer) right++;
      else wrong.add(cell);
    });
    state.solve.wrong = wrong;
    if (!wrong.size && !empty && !unknown) text = "Solved: every answer is right.";
    else {
      text = `${right} right, ${wrong.size} wrong (marked), ${empty} empty`;
      if (unknown) text += `; ${unknown} cells have no answer in the grid yet and are not checked`;
    }
  }
  $("solve-status").textContent = text;
  say("");
  emit("render");
}

async function copySolveLink() {
  const { fragment, unfilled } = solveLinkState();
  const url = `${location.origin}${location.pathname}#${fragment}`;
  const note = unfilled ? ` ${unfilled} entr${unfilled === 1 ? "y has" : "ies have"} no answer yet: Check will not check ${unfilled === 1 ? "it" : "them"}.` : "";
  try {
    await navigator.clipboard.writeText(url);
    say(`Solve link copied: it opens the puzzle in test-solve mode with its clues, without the answers.${note}`);
  } catch {
    say(`Solve link (test-solve mode, clues, no answers):${note} ${url}`);
  }
}

export function initSolve() {
  $("solve-toggle").onclick = () => (state.mode === "solve" ? leave() : enter());
  $("solve-check").onclick = check;
  $("share-solve").onclick = copySolveLink;
  $("solve-clear").onclick = () => {
    if (state.mode !== "solve") return;
    state.solve.cells = state.grid.cells.map((x) => (x === BLOCK ? BLOCK : EMPTY));
    state.solve.wrong = new Set();
    $("solve-status").textContent = "cleared";
    emit("render");
  };
  on("solve-type", ({ cell, letter }) => {
    state.solve.cells[cell] = letter;
    state.solve.wrong.delete(cell);
  });
  on("puzzle", () => {
    if (state.mode === "solve") leave();
    if (state.solveOnly) enter();
  });
  let wasSolving = false;
  on("mode", () => {
    const solving = state.mode === "solve";
    if (wasSolving && !solving) say(""); // the solving hint and Check's verdict end with the test-solve
    wasSolving = solving;
    document.body.classList.toggle("solving", solving);
    $("solve-toggle").textContent = solving ? "Back to building" : "Test-solve";
    $("solve-toggle").setAttribute("aria-pressed", solving ? "true" : "false");
    $("solve-toggle").hidden = !!state.solveOnly; // a solve-only link has nothing to build on
    $("solve-check").hidden = !solving;
    $("solve-clear").hidden = !solving;
    $("stats").hidden = solving; // the statistics name the answers
    $("stats-hidden").hidden = !solving;
    if (state.solveOnly) say("A puzzle to test-solve: type the answers; Check says which entries are right.");
    else if (solving) say("Test-solve: the answers are hidden; Check marks the wrong ones. Back to building restores the editor.");
  });
}
