// @ts-check
// The builder's grid model: cells, bars, marks, slots with the grid's numbering, symmetry, and the URL form of the
// state. Pure functions, no DOM: the page (app.js) draws what these return. The grid's shape is gridtext.js's.
import {
  BELOW, BLOCK, ENTRY_NAME, EMPTY, RIGHT, entriesProblem, gridLines, isPlain, normalized, parseLines, sortBars,
} from "./gridtext.js";
import { written } from "./alphabet.js";

export { BLOCK, EMPTY };
export const MAX_SIDE = 60;

export function blankGrid(width, height) {
  return { width, height, cells: Array(width * height).fill(EMPTY), bars: [], marks: {}, numbers: null, entries: [],
           entriesOnly: false, pairs: [] };
}

// The grid of lines in xwcp's text syntax (a plain grid's rows, or rows with [STAR], (A), {A}, | and bar lines);
// a published numbering equal to the standard one is dropped, as the server does.
export function fromRows(rows) {
  const grid = parseLines(rows);
  if (grid.numbers) {
    const standard = findSlots({ ...grid, numbers: null }).numberByCell;
    const own = Object.entries(grid.numbers);
    if (own.length === standard.size && own.every(([cell, n]) => standard.get(Number(cell)) === n)) grid.numbers = null;
  }
  return grid;
}

// The lines every request sends (xwcp.model.grid_lines): a plain grid's rows exactly as before.
export function toRows(grid) {
  return gridLines(grid);
}

// Slots as the server numbers them (xwcp/model/grid.py find_slots): a run of two or more white cells ended by
// blocks, bars and the edge; a cell that starts an across or a down run gets the next number in reading order,
// unless the grid carries its published numbering (`numbers`), which wins where it names a start cell. The listed
// entries follow (the runs left out when `entriesOnly`), each a slot named by its entry with `dir` "=NAME" (its own
// direction: the cursor follows it), `listed` true and `shape` "A" or "D" for a straight run, "" for any other
// cells; `words` (2 or more) for a chain, filled by that many words whose boundaries the fill chooses. `pair` is true
// for a slot through a Schrödinger cell: the server names its two readings NAME/1, NAME/2.
export function findSlots(grid) {
  const { width, height, cells } = grid;
  const barRight = new Set(), barBelow = new Set();
  for (const bar of grid.bars || []) (bar.endsWith(RIGHT) ? barRight : barBelow).add(parseInt(bar, 10));
  const white = (r, c) => r >= 0 && r < height && c >= 0 && c < width && cells[r * width + c] !== BLOCK;
  const joined = (r, c, dir) => (dir === "A"
    ? white(r, c) && white(r, c + 1) && !barRight.has(r * width + c)
    : white(r, c) && white(r + 1, c) && !barBelow.has(r * width + c));
  const own = grid.numbers || null;
  const numberByCell = new Map();
  /** @type {Array<{name: string, number: number, dir: string, cells: number[], listed?: boolean, shape?: string, words?: number, pair?: boolean}>} */
  const slots = [];
  let next = 1;
  /** @type {Array<[string, number, number]>} */
  const starts = [];
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      if (!white(r, c)) continue;
      const across = joined(r, c, "A") && !joined(r, c - 1, "A");
      const down = joined(r, c, "D") && !joined(r - 1, c, "D");
      const cell = r * width + c;
      if (across || down) {
        numberByCell.set(cell, own && own[cell] !== undefined ? own[cell] : next);
        next++;
      }
      if (across) starts.push(["A", r, c]);
      if (down) starts.push(["D", r, c]);
    }
  }
  for (const dir of grid.entriesOnly ? [] : ["A", "D"]) {
    for (const [d, r, c] of starts) {
      if (d !== dir) continue;
      const slotCells = [r * width + c];
      let rr = r, cc = c;
      while (joined(rr, cc, dir)) {
        if (dir === "A") cc++; else rr++;
        slotCells.push(rr * width + cc);
      }
      const number = numberByCell.get(r * width + c);
      slots.push({ name: `${number}${dir}`, number, dir, cells: slotCells });
    }
  }
  for (const entry of grid.entries || []) {
    const steps = new Set(entry.cells.slice(1).map((cell, i) => cell - entry.cells[i]));
    const first = entry.cells[0], last = entry.cells[entry.cells.length - 1];
    const shape = steps.size === 1 && steps.has(1) && Math.floor(first / width) === Math.floor(last / width) ? "A"
      : steps.size === 1 && steps.has(width) ? "D" : "";
    slots.push({ name: entry.name, number: numberByCell.get(first) || 0, dir: `=${entry.name}`, cells: entry.cells.slice(),
                 listed: true, shape, ...(entry.words > 1 ? { words: entry.words } : {}) });
  }
  const pairs = new Set(grid.pairs || []);
  if (pairs.size) for (const slot of slots) slot.pair = slot.cells.some((cell) => pairs.has(cell));
  return { slots, numberByCell };
}

// The slot of `dir` through `cell`, or undefined (a block, or an unchecked cell in that direction).
export function slotAt(slots, cell, dir) {
  return slots.find((s) => s.dir === dir && s.cells.includes(cell));
}

// Every slot through `cell` (across, down, then listed entries in order): clicking the cell again steps through them.
export function slotsThrough(slots, cell) {
  return slots.filter((s) => s.cells.includes(cell));
}

// The name the server gives the slot's words: NAME/1 (its first reading) for a slot through a Schrödinger cell.
export function serverName(slot, reading = 1) {
  return slot.pair ? `${slot.name}/${reading}` : slot.name;
}

// A free entry drawn cell by cell: `cells` with `cell` added at the end (refused: a block, or a cell already in it).
export function drawnWith(grid, cells, cell) {
  if (grid.cells[cell] === BLOCK) return { cells, problem: "an entry goes through white cells only" };
  if (cells.includes(cell)) return { cells, problem: "the entry goes through this cell already" };
  return { cells: [...cells, cell], problem: "" };
}

// The grid with the drawn entry added as a listed entry called `name` (upper-cased), or { problem } in one line.
export function withEntry(grid, name, cells) {
  const upper = name.trim().toUpperCase();
  const derived = grid.entriesOnly ? [] : findSlots({ ...grid, entries: [] }).slots.map((s) => s.name);
  if (!upper) return { problem: "name the entry" };
  if (derived.includes(upper)) return { problem: `${upper} is the name of an across or down entry: pick another` };
  const entries = [...(grid.entries || []), { name: upper, cells: cells.slice() }];
  const problem = entriesProblem(entries, grid.cells);
  return problem ? { problem } : { entries };
}

// A free name for a new entry: E1, E2, ...
export function freeEntryName(grid) {
  const taken = new Set((grid.entries || []).map((e) => e.name));
  let n = 1;
  while (taken.has(`E${n}`)) n++;
  return `E${n}`;
}

// Cells that mirror `cell` under the symmetry: "rotational" (180 degrees), "mirror" (left-right), "top-bottom",
// "diagonal" (about the top-left to bottom-right diagonal), "anti-diagonal" (top-right to bottom-left), "none". The
// diagonals need a square grid: on another, none.
export function partners(grid, cell, symmetry) {
  const { width, height } = grid;
  const r = Math.floor(cell / width), c = cell % width;
  if (symmetry === "rotational") return [(height - 1 - r) * width + (width - 1 - c)];
  if (symmetry === "mirror") return [r * width + (width - 1 - c)];
  if (symmetry === "top-bottom") return [(height - 1 - r) * width + c];
  if (width !== height) return [];
  if (symmetry === "diagonal") return [c * width + r];
  if (symmetry === "anti-diagonal") return [(width - 1 - c) * width + (height - 1 - r)];
  return [];
}

// True when `symmetry` can be kept on this grid (a diagonal needs a square one).
export function symmetryFits(grid, symmetry) {
  return !(symmetry === "diagonal" || symmetry === "anti-diagonal") || grid.width === grid.height;
}

// The bars that mirror `bar` ("12R" / "30B") under the symmetry, as blocks mirror (partners); a diagonal turns a
// bar on a cell's right into one below a cell, and back.
export function barPartners(grid, bar, symmetry) {
  const { width, height } = grid;
  const cell = parseInt(bar, 10), side = bar.slice(-1);
  const r = Math.floor(cell / width), c = cell % width;
  const right = side === RIGHT;
  let rr, cc, other = side;
  if (symmetry === "rotational") [rr, cc] = right ? [height - 1 - r, width - 2 - c] : [height - 2 - r, width - 1 - c];
  else if (symmetry === "mirror") [rr, cc] = right ? [r, width - 2 - c] : [r, width - 1 - c];
  else if (symmetry === "top-bottom") [rr, cc] = right ? [height - 1 - r, c] : [height - 2 - r, c];
  else if (width === height && symmetry === "diagonal") { [rr, cc] = [c, r]; other = right ? BELOW : RIGHT; }
  else if (width === height && symmetry === "anti-diagonal") {
    [rr, cc] = right ? [width - 2 - c, height - 1 - r] : [width - 1 - c, height - 2 - r];
    other = right ? BELOW : RIGHT;
  } else return [];
  const partner = `${rr * width + cc}${other}`;
  return partner === bar ? [] : [partner];
}

// The edge of `cell` nearest to a point (x, y from the cell's top left, in a cell of `size` pixels) as a bar
// ("12R", "30B"), or null on the grid's outer edge.
export function edgeBar(grid, cell, x, y, size) {
  const { width, height } = grid;
  const r = Math.floor(cell / width), c = cell % width;
  const distances = [[x, "L"], [size - x, "R"], [y, "T"], [size - y, "B"]].sort((a, b) => a[0] - b[0]);
  const side = distances[0][1];
  if (side === "L") return c > 0 ? `${cell - 1}${RIGHT}` : null;
  if (side === "R") return c < width - 1 ? `${cell}${RIGHT}` : null;
  if (side === "T") return r > 0 ? `${cell - width}${BELOW}` : null;
  return r < height - 1 ? `${cell}${BELOW}` : null;
}

// The two cells a bar stands between.
export function barCells(grid, bar) {
  const cell = parseInt(bar, 10);
  return [cell, bar.endsWith(RIGHT) ? cell + 1 : cell + grid.width];
}

// `bars` with `bar` and its partners all set (when `bar` was absent) or all cleared.
export function toggledBars(grid, bar, symmetry) {
  const bars = new Set(grid.bars || []);
  const add = !bars.has(bar);
  for (const target of [bar, ...barPartners(grid, bar, symmetry)]) {
    if (add) bars.add(target); else bars.delete(target);
  }
  return sortBars([...bars]);
}

// Drawing: the font size of a cell's text as a share of the cell: one letter large, a rebus shrunk to fit (two lines from
// six letters on).
export function fitText(text) {
  const n = text.length;
  if (n <= 1) return null;
  const perLine = n > 5 ? Math.ceil(n / 2) : n;
  return Math.max(0.14, Math.min(0.56, 1.15 / perLine, n > 5 ? 0.34 : 1)).toFixed(3);
}

// ----- the state in the URL: #w=15&h=15&g=<cells>&c=<clues as JSON>&m=<title, author...>&th=<theme>&lk=<locks> --
// In g, "_" is a block (a "#" would end the fragment), "." an empty cell, A-Z a letter. A grid with bars,
// marks, rebus cells, its own numbering or a letter beyond A-Z ("[Ñ]") is given instead as t=<its lines in the text
// syntax, one per line>. lang=<code> is the puzzle's language (absent: English). A solve-only link (solve.js) has
// ck=<each slot's check code, "." between> and s=<their salt>, and a grid without letters.

// `extra`: { meta: {title, author, copyright, notes}, theme: slot names, locks: cells } (each optional).
// Letters are written as the puzzle's language writes them ("[IJ]"): a code char lives only as long as the server's
// process (xwcp/model/alphabet.py), a link longer; loadPuzzle reads them back (alphabet.cellFromText).
export function encodeState(grid, clues, extra = {}) {
  grid = { ...grid, cells: grid.cells.map((cell) => written(cell)) };
  const params = new URLSearchParams();
  params.set("w", grid.width);
  params.set("h", grid.height);
  if (isPlain(grid)) params.set("g", grid.cells.map((x) => (x === BLOCK ? "_" : x)).join(""));
  else params.set("t", gridLines(grid).join("\n"));
  const kept = Object.fromEntries(Object.entries(clues).filter(([, v]) => v));
  if (Object.keys(kept).length) params.set("c", JSON.stringify(kept));
  const meta = Object.fromEntries(Object.entries(extra.meta || {}).filter(([, v]) => v));
  if (Object.keys(meta).length) params.set("m", JSON.stringify(meta));
  if (extra.theme && extra.theme.length) params.set("th", extra.theme.join(","));
  if (extra.locks && extra.locks.length) params.set("lk", extra.locks.join(","));
  if (extra.language && extra.language !== "en") params.set("lang", extra.language);
  if (extra.lists && extra.lists.length) params.set("ls", JSON.stringify(extra.lists));
  if (extra.labels && extra.labels.length) params.set("lb", JSON.stringify(extra.labels.map((x) => [x.cell, x.corner, x.text])));
  if (extra.solve) { params.set("s", extra.solve.salt); params.set("ck", extra.solve.codes.join(".")); }
  return params.toString();
}

// A share link's puzzle (`encodeState`'s fragment): { grid, clues, meta, theme, locks, language, solve }; null when the
// fragment is no share link; { error } when it is one that cannot be read (cut short, or changed by hand).
export function decodeState(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  if (!["w", "h", "g", "t"].some((key) => params.has(key))) return null;
  const width = Number(params.get("w")), height = Number(params.get("h"));
  const sizeOk = width >= 2 && height >= 2 && width <= MAX_SIDE && height <= MAX_SIDE;
  if (!sizeOk) return { error: `its size (w=${params.get("w")}, h=${params.get("h")}) is not 2 to ${MAX_SIDE} a side` };
  let grid;
  if (params.has("t")) {
    try { grid = fromRows(params.get("t").split("\n")); } catch (err) { return { error: `its grid: ${err.message}` }; }
    if (grid.width !== width || grid.height !== height) {
      return { error: `its grid is ${grid.width}x${grid.height}, not the ${width}x${height} it says (cut short?)` };
    }
  } else {
    const g = params.get("g") || "";
    if (g.length !== width * height) return { error: `its grid has ${g.length} cells, not ${width}x${height} (cut short?)` };
    if (!/^[_.A-Z]*$/.test(g)) return { error: "its grid has characters other than A-Z, '.' and '_'" };
    grid = normalized({ width, height, cells: g.split("").map((x) => (x === "_" ? BLOCK : x)) });
  }
  let clues = {};
  try { clues = JSON.parse(params.get("c") || "{}"); } catch { clues = {}; }
  let meta = {};
  try { meta = JSON.parse(params.get("m") || "{}"); } catch { meta = {}; }
  meta = Object.fromEntries(["title", "author", "copyright", "notes"].filter((k) => typeof meta[k] === "string")
    .map((k) => [k, meta[k]]));
  const theme = (params.get("th") || "").split(",").filter((name) => ENTRY_NAME.test(name)); // 12A, or a listed entry
  const locks = (params.get("lk") || "").split(",").filter((x) => /^\d+$/.test(x)).map(Number)
    .filter((cell) => cell < width * height);
  const language = /^[a-z][a-z0-9_-]{0,15}$/i.test(params.get("lang") || "") ? params.get("lang") : "en";
  const solve = params.has("ck") ? { salt: params.get("s") || "", codes: params.get("ck").split(".") } : null;
  let lists = [], labels = []; // a variety puzzle's own clue lists and cell labels (loadPuzzle keeps what is sound)
  try { lists = JSON.parse(params.get("ls") || "[]"); } catch { lists = []; }
  try { labels = JSON.parse(params.get("lb") || "[]"); } catch { labels = []; }
  labels = Array.isArray(labels) ? labels.filter(Array.isArray).map(([cell, corner, text]) => ({ cell, corner, text })) : [];
  return { grid, clues, meta, theme, locks, language, solve, lists, labels };
}
