// xwcp/web/static/grid.js: slots numbered as the server numbers them, symmetry, and the share link's round trip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import {
  blankGrid, decodeState, drawnWith, encodeState, findSlots, freeEntryName, fromRows, partners, serverName, slotsThrough, toRows,
  withEntry,
} from "../../xwcp/web/static/grid.js";

const MODELS = new URL("../../models/", import.meta.url);
const EXPECTED = process.env.XWCP_JS_EXPECTED ? JSON.parse(readFileSync(process.env.XWCP_JS_EXPECTED, "utf8")) : null;

test("slots of a small grid: across in reading order, then down, numbered by start cell", () => {
  const { slots } = findSlots(fromRows(["#...", "....", "....", "...#"]));
  assert.deepEqual(slots.map((s) => s.name), ["1A", "4A", "5A", "6A", "1D", "2D", "3D", "4D"]);
  assert.deepEqual(slots.find((s) => s.name === "4D").cells, [4, 8, 12]);
});

test("a bar ends an entry as a block does", () => {
  const { slots } = findSlots(fromRows(["..|..", "...."]));
  assert.deepEqual(slots.map((s) => `${s.name}:${s.cells.length}`), ["1A:2", "3A:2", "5A:4", "1D:2", "2D:2", "3D:2", "4D:2"]);
});

test("every model grid's slots are the server's", { skip: !EXPECTED && "run through tests/web/test_js_modules.py" }, () => {
  for (const name of readdirSync(MODELS).filter((n) => n.endsWith(".txt") && !n.includes("hindi"))) {
    const lines = readFileSync(new URL(name, MODELS), "utf8").split("\n").filter((line) => line !== "");
    assert.deepEqual(findSlots(fromRows(lines)).slots.map((s) => s.name), EXPECTED[name].slots, name);
  }
});

test("every variety model grid's slots are the server's entries", { skip: !EXPECTED && "run through tests/web/test_js_modules.py" }, () => {
  for (const name of readdirSync(new URL("variety/", MODELS)).filter((n) => n.endsWith(".txt"))) {
    const lines = readFileSync(new URL(`variety/${name}`, MODELS), "utf8").split("\n").filter((line) => line !== "");
    const { slots } = findSlots(fromRows(lines));
    assert.deepEqual(slots.map((s) => s.name), EXPECTED[`variety/${name}`].slots, name);
    assert.deepEqual(slots.map((s) => s.cells), EXPECTED[`variety/${name}`].cells, name);
  }
});

test("listed entries follow across and down, or replace them; a slot through a Schrödinger cell is marked", () => {
  const lines = ["; entry: DIAG = 1,1 2,2 3,3", "; entry: RING = 1,2 1,3 2,3 3,3 3,2", "; entry: COL = 1,3 2,3 3,3", "<..>..", "...", "..."];
  const { slots } = findSlots(fromRows(lines));
  assert.deepEqual(slots.map((s) => s.name), ["1A", "4A", "5A", "1D", "2D", "3D", "DIAG", "RING", "COL"]);
  const diag = slots.find((s) => s.name === "DIAG");
  assert.deepEqual(diag.cells, [0, 4, 8]);
  assert.equal(diag.dir, "=DIAG");
  assert.equal(diag.listed, true);
  assert.equal(diag.shape, "");
  assert.equal(diag.number, 1);
  assert.equal(slots.find((s) => s.name === "COL").shape, "D");
  assert.deepEqual(slots.filter((s) => s.pair).map((s) => s.name), ["1A", "1D", "DIAG"]);
  assert.equal(serverName(diag), "DIAG/1");
  assert.equal(serverName(slots.find((s) => s.name === "RING")), "RING");
  assert.deepEqual(slotsThrough(slots, 8).map((s) => s.name), ["5A", "3D", "DIAG", "RING", "COL"]);
  const only = findSlots(fromRows(["; entries: listed", ...lines]));
  assert.deepEqual(only.slots.map((s) => s.name), ["DIAG", "RING", "COL"]);
  assert.equal(only.numberByCell.get(0), 1); // the cells keep the grid's numbering
});

test("drawing a free entry: cells in order, then named into the grid's listed entries", () => {
  const grid = fromRows(["...", ".#.", "..."]);
  let drawn = { cells: [], problem: "" };
  const problems = [];
  for (const cell of [0, 4, 1, 1, 2, 5]) {
    drawn = drawnWith(grid, drawn.cells, cell);
    problems.push(drawn.problem);
  }
  assert.deepEqual(drawn.cells, [0, 1, 2, 5]);
  assert.match(problems[1], /white cells/);
  assert.match(problems[3], /already/);
  assert.equal(freeEntryName(grid), "E1");
  assert.match(withEntry(grid, "1a", drawn.cells).problem, /across or down/);
  assert.match(withEntry(grid, "", drawn.cells).problem, /name/);
  assert.match(withEntry(grid, "a b", drawn.cells).problem, /letters, digits/);
  assert.match(withEntry(grid, "hook", [0]).problem, /at least two/);
  const added = withEntry(grid, "hook", drawn.cells);
  const withHook = { ...grid, entries: added.entries };
  assert.deepEqual(toRows(withHook), ["; entry: HOOK = 1,1 1,2 1,3 2,3", "...", ".#.", "..."]);
  assert.equal(freeEntryName(withHook), "E1");
  assert.match(withEntry(withHook, "Hook", [6, 7]).problem, /two entries are named HOOK/);
  assert.deepEqual(findSlots(fromRows(toRows(withHook))).slots.map((s) => s.name).slice(-1), ["HOOK"]);
});

test("a share link keeps listed entries and Schrödinger cells", () => {
  const grid = fromRows(["; entry: DIAG = 1,1 2,2", "<CB>.", ".."]);
  const back = decodeState(encodeState(grid, { DIAG: "a diagonal" }, { theme: ["DIAG", "1A"] }));
  assert.deepEqual(back.grid, grid);
  assert.deepEqual(back.clues, { DIAG: "a diagonal" });
  assert.deepEqual(back.theme, ["DIAG", "1A"]); // a listed entry may be a theme entry
});

test("a share link keeps a variety puzzle's own clue lists and cell labels", () => {
  const grid = fromRows(["; entries: listed", "; entry: ROWS.A = 1,1 1,2", "; entry: PIECES.1 = 1,2 2,2", "..", ".."]);
  const lists = [{ title: "Rows", clues: [{ label: "A", entry: "ROWS.A", text: "", cells: [] }] },
                 { title: "Pieces", clues: [{ label: "1", entry: "PIECES.1", text: "", cells: [] },
                                            { label: "", entry: null, text: "Placed by you", cells: [] }] }];
  const labels = [{ cell: 0, corner: "TL", text: "A" }, { cell: 1, corner: "TR", text: "1" }];
  const back = decodeState(encodeState(grid, { "ROWS.A": "Row clue" }, { lists, labels }));
  assert.deepEqual(back.grid, grid);
  assert.deepEqual(back.lists, lists);
  assert.deepEqual(back.labels, labels);
  const plain = decodeState(encodeState(blankGrid(3, 3), {}));
  assert.deepEqual([plain.lists, plain.labels], [[], []]);
});

test("rotational and diagonal partners", () => {
  const grid = blankGrid(5, 5);
  assert.deepEqual(partners(grid, 0, "rotational"), [24]);
  assert.deepEqual(partners(grid, 1, "diagonal"), [5]);
  assert.deepEqual(partners(blankGrid(5, 3), 1, "diagonal"), []);
});

test("a share link gives back the grid, clues and theme it holds", () => {
  const grid = fromRows(["#..", "CAT", "..#"]);
  const decoded = decodeState("#" + encodeState(grid, { "3A": "Pet" }, { theme: ["3A"] }));
  assert.deepEqual(decoded.grid.cells, grid.cells);
  assert.deepEqual(decoded.clues, { "3A": "Pet" });
  assert.deepEqual(decoded.theme, ["3A"]);
  assert.match(decodeState("#w=3&h=3&g=..").error, /cut short/);
});
