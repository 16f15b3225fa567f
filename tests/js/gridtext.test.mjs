// xwcp/web/static/gridtext.js: the page reads and writes xwcp's text grid syntax as the server does.
// XWCP_JS_EXPECTED (written by tests/web/test_js_modules.py) names a JSON file of every model grid's lines and slot
// names as xwcp.model writes them; without it the round trips below still run.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import {
  GridSyntaxError, gridLines, hasVariety, isPlain, normalized, pairContent, pairErased, pairLetters, pairTyped, parseLines,
} from "../../xwcp/web/static/gridtext.js";

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

const VARIETY_MODELS = readdirSync(new URL("variety/", MODELS)).filter((n) => n.endsWith(".txt")).map((n) => `variety/${n}`);

test("every variety model grid (listed entries, Schrödinger squares) reads and writes back as xwcp.model writes it", () => {
  assert.ok(VARIETY_MODELS.length >= 4);
  for (const name of VARIETY_MODELS) {
    const grid = parseLines(modelLines(name));
    assert.ok(hasVariety(grid), name);
    const lines = gridLines(grid);
    assert.deepEqual(parseLines(lines), grid, name);
    if (EXPECTED) assert.deepEqual(lines, EXPECTED[name].lines, `${name}: the page writes what xwcp.model writes`);
  }
  assert.equal(parseLines(["[A<B]."]).cells[0], "A<B"); // a rebus holding '<' is still a rebus
});

test("listed entries, 'entries: listed' and Schrödinger cells are kept, marks around a pair cell too", () => {
  const lines = ["; entries: listed", "; entry: DIAG = 1,1 2,2 3,3", "; entry: RING = 1,2 1,3 2,3 3,3 3,2", "<CB>(<.A>).", "...", "..."];
  const grid = parseLines(lines);
  assert.equal(grid.entriesOnly, true);
  assert.deepEqual(grid.entries, [{ name: "DIAG", cells: [0, 4, 8] }, { name: "RING", cells: [1, 2, 5, 8, 7] }]);
  assert.deepEqual(grid.pairs, [0, 1]);
  assert.deepEqual(grid.cells.slice(0, 3), ["CB", ".A", "."]);
  assert.deepEqual(grid.marks[1], { circle: true, shaded: false, color: null });
  assert.equal(isPlain(grid), false);
  assert.deepEqual(gridLines(grid), lines);
  assert.deepEqual(gridLines(parseLines(["<..>.", ".."])), ["<..>.", ".."]);
  assert.equal(parseLines(["<..>.", ".."]).cells[0], ".");
  assert.deepEqual(pairLetters("C."), ["C", "."]);
  assert.equal(pairContent(".", "."), ".");
  assert.equal(pairContent("C", "."), "C.");
  assert.deepEqual(pairTyped(".", "N"), { content: "N.", done: false }); // the first letter, then the second
  assert.deepEqual(pairTyped("N.", "K"), { content: "NK", done: true });
  assert.deepEqual(pairTyped("NK", "L"), { content: "L.", done: false }); // both in: starts again
  assert.deepEqual(pairTyped(".K", "N"), { content: "NK", done: true });
  assert.equal(pairErased("NK"), "N.");
  assert.equal(pairErased("N."), ".");
  const back = normalized(grid);
  back.entries[0].cells.push(2); // a copy: the page's undo keeps the old entry as it was
  assert.deepEqual(grid.entries[0].cells, [0, 4, 8]);
});

test("bad entry lines and Schrödinger cells are refused with a message naming the problem", () => {
  assert.throws(() => parseLines(["; entry: D = 1,1 9,9", "..", ".."]), /outside the 2x2 grid/);
  assert.throws(() => parseLines(["; entry: D = 1,1 x", "..", ".."]), /'x' is no cell/);
  assert.throws(() => parseLines(["; entry: D = 1,1 1,2 1,1", "..", ".."]), /through a cell twice/);
  assert.throws(() => parseLines(["; entry: D = 1,1", "..", ".."]), /at least two/);
  assert.throws(() => parseLines(["; entry: D = 1,1 1,2", "; entry: d = 2,1 2,2", "..", ".."]), /two entries are named D/);
  assert.throws(() => parseLines(["; entry: D = 1,1 1,2", ".#", ".."]), /block/);
  assert.throws(() => parseLines(["<ABC>.", ".."]), /two letters inside < >/);
  assert.throws(() => parseLines(["; entries: some", "..", ".."]), /entries: listed/);
  assert.throws(() => parseLines(["; chain: R1 = 1,1 1,2 2,2 2,1", "..", ".."]), /say how many words/);
  assert.throws(() => parseLines(["; chain: R1 = 1 word: 1,1 1,2 2,2 2,1", "..", ".."]), /two or more/);
  assert.throws(() => parseLines(["; chain: R1 = 3 words: 1,1 1,2 2,2 2,1", "..", ".."]), /too few for 3 words/);
});

test("a chain (xwcp's `; chain:` line: a listed entry of several words) reads and writes as xwcp.model writes it", () => {
  const lines = ["; entries: listed", "; chain: ROWS.A = 2 words: 1,1 1,2 1,3 1,4", "; entry: B = 2,1 2,2", "....", "....", "....", "...."];
  const grid = parseLines(lines);
  assert.deepEqual(grid.entries, [{ name: "ROWS.A", cells: [0, 1, 2, 3], words: 2 }, { name: "B", cells: [4, 5] }]);
  assert.deepEqual(gridLines(grid), lines);
  assert.deepEqual(normalized(grid).entries, grid.entries); // the page's copy keeps the count of words
  assert.deepEqual(gridLines(parseLines(["; CHAIN: r = 2 Words: 1,1 1,2 1,3 1,4", "....", "...."])),
    ["; chain: R = 2 words: 1,1 1,2 1,3 1,4", "....", "...."]);
});
