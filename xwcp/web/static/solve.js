// Test-solve: the grid blanked, the clues shown, the constructor solves it as a solver would and checks the answers.
import { BLOCK, EMPTY } from "./grid.js";
import { emit, on, say, state } from "./state.js";

const $ = (id) => document.getElementById(id);

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

function check() {
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
  let text;
  if (!wrong.size && !empty && !unknown) text = "Solved: every answer is right.";
  else {
    text = `${right} right, ${wrong.size} wrong (marked), ${empty} empty`;
    if (unknown) text += `; ${unknown} cells have no answer in the grid yet and are not checked`;
  }
  $("solve-status").textContent = text;
  say("");
  emit("render");
}

export function initSolve() {
  $("solve-toggle").onclick = () => (state.mode === "solve" ? leave() : enter());
  $("solve-check").onclick = check;
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
  on("puzzle", () => { if (state.mode === "solve") leave(); });
  on("mode", () => {
    const solving = state.mode === "solve";
    document.body.classList.toggle("solving", solving);
    $("solve-toggle").textContent = solving ? "Back to building" : "Test-solve";
    $("solve-toggle").setAttribute("aria-pressed", solving ? "true" : "false");
    $("solve-check").hidden = !solving;
    $("solve-clear").hidden = !solving;
    if (solving) say("Test-solve: the answers are hidden; Check marks the wrong ones. Back to building restores the editor.");
  });
}
