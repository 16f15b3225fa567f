// xwcp/web/static/state.js: the page's one state; an edit is undone and redone whole, and a loaded puzzle goes out
// as the server's .json document with its clues by slot name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { commit, loadPuzzle, on, puzzleJson, redo, state, undo } from "../../xwcp/web/static/state.js";
import { fromRows } from "../../xwcp/web/static/grid.js";

test("an edit is undone and redone, and each step says so", () => {
  loadPuzzle({ grid: fromRows(["#..", "...", "..#"]) });
  const heard = [];
  on("edit", (detail) => heard.push(detail));
  const before = state.grid.cells.slice();
  commit({ cells: ["#", "C", "A", ".", ".", ".", ".", ".", "#"] });
  assert.equal(state.grid.cells[1], "C");
  assert.equal(undo(), true);
  assert.deepEqual(state.grid.cells, before);
  assert.equal(redo(), true);
  assert.equal(state.grid.cells[1], "C");
  assert.equal(redo(), false);
  assert.deepEqual(heard.map((d) => Object.keys(d)), [[], ["undo"], ["redo"]]);
});

test("a loaded puzzle goes out with its grid lines and its clues by slot name", () => {
  loadPuzzle({ grid: fromRows(["#..", "CAT", "..#"]), cluesByKey: { "3A": "Pet" }, meta: { title: "Tiny" } });
  const doc = puzzleJson();
  assert.deepEqual(doc.grid, ["#..", "CAT", "..#"]);
  assert.equal(doc.width, 3);
  assert.deepEqual(doc.clues, { "3A": "Pet" });
});
