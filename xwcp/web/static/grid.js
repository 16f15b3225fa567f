// The builder's grid model: cells, slots with standard numbering, symmetry, and the URL form of the state.
// Pure functions, no DOM: the page (app.js) draws what these return.

export const BLOCK = "#";
export const EMPTY = ".";
export const MAX_SIDE = 60;

export function blankGrid(width, height) {
  return { width, height, cells: Array(width * height).fill(EMPTY) };
}

export function fromRows(rows) {
  return { width: rows[0].length, height: rows.length, cells: rows.join("").split("") };
}

export function toRows(grid) {
  const rows = [];
  for (let r = 0; r < grid.height; r++) rows.push(grid.cells.slice(r * grid.width, (r + 1) * grid.width).join(""));
  return rows;
}

// Slots as the server numbers them (xwcp/grid.py find_slots): a run of two or more white cells;
// a cell that starts an across or a down run gets the next number in reading order.
export function findSlots(grid) {
  const { width, height, cells } = grid;
  const white = (r, c) => r >= 0 && r < height && c >= 0 && c < width && cells[r * width + c] !== BLOCK;
  const numberByCell = new Map();
  const slots = [];
  let next = 1;
  const starts = [];
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      if (!white(r, c)) continue;
      const across = !white(r, c - 1) && white(r, c + 1);
      const down = !white(r - 1, c) && white(r + 1, c);
      if (across || down) numberByCell.set(r * width + c, next++);
      if (across) starts.push(["A", r, c]);
      if (down) starts.push(["D", r, c]);
    }
  }
  for (const dir of ["A", "D"]) {
    for (const [d, r, c] of starts) {
      if (d !== dir) continue;
      const slotCells = [];
      let rr = r, cc = c;
      while (white(rr, cc)) {
        slotCells.push(rr * width + cc);
        if (dir === "A") cc++; else rr++;
      }
      const number = numberByCell.get(r * width + c);
      slots.push({ name: `${number}${dir}`, number, dir, cells: slotCells });
    }
  }
  return { slots, numberByCell };
}

// The slot of `dir` through `cell`, or undefined (a block, or an unchecked cell in that direction).
export function slotAt(slots, cell, dir) {
  return slots.find((s) => s.dir === dir && s.cells.includes(cell));
}

// Cells that mirror `cell` under the symmetry: "rotational" (180 degrees), "mirror" (left-right), "none".
export function partners(grid, cell, symmetry) {
  const r = Math.floor(cell / grid.width), c = cell % grid.width;
  if (symmetry === "rotational") return [(grid.height - 1 - r) * grid.width + (grid.width - 1 - c)];
  if (symmetry === "mirror") return [r * grid.width + (grid.width - 1 - c)];
  return [];
}

export function toggleBlock(grid, cell, symmetry) {
  const cells = grid.cells.slice();
  const makeBlock = cells[cell] !== BLOCK;
  for (const target of [cell, ...partners(grid, cell, symmetry)]) cells[target] = makeBlock ? BLOCK : EMPTY;
  return { ...grid, cells };
}

// ----- the state in the URL: #w=15&h=15&g=<cells>&c=<clues as JSON> ------------------------
// In g, "_" is a block (a "#" would end the fragment), "." an empty cell, A-Z a letter.

export function encodeState(grid, clues) {
  const params = new URLSearchParams();
  params.set("w", grid.width);
  params.set("h", grid.height);
  params.set("g", grid.cells.map((x) => (x === BLOCK ? "_" : x)).join(""));
  const kept = Object.fromEntries(Object.entries(clues).filter(([, v]) => v));
  if (Object.keys(kept).length) params.set("c", JSON.stringify(kept));
  return params.toString();
}

export function decodeState(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const width = Number(params.get("w")), height = Number(params.get("h"));
  const g = params.get("g") || "";
  const sizeOk = width >= 2 && height >= 2 && width <= MAX_SIDE && height <= MAX_SIDE;
  if (!sizeOk || g.length !== width * height) return null;
  if (!/^[_.A-Z]*$/.test(g)) return null;
  let clues = {};
  try { clues = JSON.parse(params.get("c") || "{}"); } catch { clues = {}; }
  return { grid: { width, height, cells: g.split("").map((x) => (x === "_" ? BLOCK : x)) }, clues };
}
