// xwcp/web/static/gridtext.js: the page reads and writes xwcp's text grid syntax as the server does.
// XWCP_JS_EXPECTED (written by tests/web/test_js_modules.py) names a JSON file of every model grid's lines and slot
// names as xwcp.model writes them; without it the round trips below still run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { GridSyntaxError, gridLines, isPlain, parseLines } from "../../xwcp/web/static/gridtext.js";

const MODELS = new URL("../../models/", import.meta.url);
const EXPECTED = process.env.XWCP_JS_EXPECTED ? JSON.parse(readFileSync(process.env.XWCP_JS_EXPECTED, "utf8")) : null;

function modelLines(name) {
  return readFileSync(new URL(name, MODELS), "utf8").split("\n").filter((line) => line !== "");
}

const ENGLISH_MODELS = readdirSync(MODELS).filter((name) => name.endsWith(".txt") && !name.includes("hindi"));

test("every English model grid reads and writes back as the lines it reads", () => {
  for (const name of ENGLISH_MODELS) {
    const grid = parseLines(modelLines(name));
    const lines = gridLines(grid);
    assert.deepEqual(parseLines(lines), grid, name);
    if (EXPECTED) assert.deepEqual(lines, EXPECTED[name].lines, `${name}: the page writes what xwcp.model writes`);
  }
});

test("bars, marks, a rebus and a published numbering survive a round trip", () => {
  const lines = ["; colors: 1,2=#FFCC00", "; numbers: 1,1=7", "[STAR]..|.", "  -", "(A){B}.."];
  const grid = parseLines(lines);
  assert.equal(grid.width, 4);
  assert.equal(grid.cells[0], "STAR");
  assert.deepEqual(grid.bars, ["0B", "2R"]);
  assert.deepEqual(grid.marks[4], { circle: true, shaded: false, color: null });
  assert.deepEqual(grid.marks[1], { circle: false, shaded: false, color: "#FFCC00" });
  assert.deepEqual(grid.numbers, { 0: 7 });
  assert.equal(isPlain(grid), false);
  assert.deepEqual(gridLines(grid), ["; colors: 1,2=#FFCC00", "; numbers: 1,1=7", "[STAR]..|.", "-", "(A){B}.."]);
});

test("a plain grid is written as its rows", () => {
  assert.deepEqual(gridLines(parseLines(["#..", "ABC"])), ["#..", "ABC"]);
});

test("bad grids are refused with a message naming the problem", () => {
  assert.throws(() => parseLines(["...", ".."]), (err) => err instanceof GridSyntaxError && /row 2 has 2 cells/.test(err.message));
  assert.throws(() => parseLines(["; only a comment"]), /no rows/);
  assert.throws(() => parseLines(["-", "..."]), /bar line/);
});

test("listed entries and Schrödinger squares are refused in one line, never dropped", () => {
  for (const name of readdirSync(new URL("variety/", MODELS)).filter((n) => n.endsWith(".txt"))) {
    const lines = readFileSync(new URL(`variety/${name}`, MODELS), "utf8").split("\n").filter((line) => line !== "");
    assert.throws(() => parseLines(lines), (err) => err instanceof GridSyntaxError && /listed entries/.test(err.message), name);
  }
  assert.equal(parseLines(["[A<B]."]).cells[0], "A<B"); // a rebus holding '<' is still a rebus
});
