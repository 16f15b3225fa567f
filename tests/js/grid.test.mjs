// xwcp/web/static/grid.js: slots numbered as the server numbers them, symmetry, and the share link's round trip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { blankGrid, decodeState, encodeState, findSlots, fromRows, partners } from "../../xwcp/web/static/grid.js";

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
