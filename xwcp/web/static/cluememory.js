// The constructor's clue memory: clues written for an answer in earlier puzzles (this browser's saved puzzles and the
// files opened here), offered when that answer appears again. Kept in localStorage as { ANSWER: [clue, ...] }.
import { BLOCK, EMPTY, findSlots } from "./grid.js";

const KEY = "xwcp:clue-memory";
const PER_ANSWER = 5;      // the latest clues kept for one answer
const MAX_ANSWERS = 5000;  // oldest answers dropped past this
let memory = null;

function load() {
  if (memory) return memory;
  try { memory = JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { memory = {}; }
  if (!memory || typeof memory !== "object" || Array.isArray(memory)) memory = {};
  return memory;
}

function store() {
  load();
  const keys = Object.keys(memory);
  for (const answer of keys.slice(0, Math.max(0, keys.length - MAX_ANSWERS))) delete memory[answer];
  try { localStorage.setItem(KEY, JSON.stringify(memory)); } catch { /* full: the memory is a convenience */ }
}

// The answer of an entry's cells, or null when it is not complete (a rebus cell gives its whole string).
export function answerOf(cells) {
  if (cells.some((x) => x === EMPTY || x === BLOCK)) return null;
  return cells.join("");
}

// Remember clue `text` for `answer` (the newest first); `save` false batches several before one write.
export function remember(answer, text, save = true) {
  const clue = (text || "").trim();
  if (!answer || !clue) return;
  const m = load();
  const list = (m[answer] || []).filter((x) => x !== clue);
  delete m[answer]; // re-inserted: the most recently used answers are kept longest
  m[answer] = [clue, ...list].slice(0, PER_ANSWER);
  if (save) store();
}

// Remember every clue of a whole puzzle: { grid, clues by slot key }; with `boundByKey` (a saved puzzle's clueAnswers)
// a clue written for other letters than the entry has now is left out.
export function rememberPuzzle(grid, cluesByKey, boundByKey = {}) {
  const { slots } = findSlots(grid);
  for (const slot of slots) {
    const key = `${slot.cells[0]}${slot.dir}`;
    const text = cluesByKey[key];
    const now = slot.cells.map((cell) => grid.cells[cell]);
    const bound = boundByKey[key];
    const stale = Array.isArray(bound) && (bound.length !== now.length || bound.some((x, i) => x !== EMPTY && x !== now[i]));
    if (text && !stale) remember(answerOf(now), text, false);
  }
  store();
}

// The remembered clues for `answer`, the newest first.
export function recall(answer) {
  return answer ? (load()[answer] || []).slice() : [];
}
