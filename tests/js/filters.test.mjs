// The suggestion list's filter box: which texts are filters, and what each keeps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { filterKeeps, filterProblem } from "../../xwcp/web/static/filters.js";

test("a filter starts with its sign and has something after it", () => {
  assert.equal(filterProblem(""), "");
  assert.equal(filterProblem("~.*ING"), "");
  assert.equal(filterProblem("+ing"), "");
  assert.equal(filterProblem("-ER"), "");
  assert.equal(filterProblem("!ice cream"), "");
  assert.match(filterProblem("?E"), /start with/);
  assert.match(filterProblem("~"), /needs a pattern/);
  assert.match(filterProblem("+"), /needs letters/);
  assert.match(filterProblem("~["), /not a pattern/);
  assert.match(filterProblem("+1A"), /letters only/);
  assert.equal(filterProblem("@personal"), "");
  assert.match(filterProblem("@words.txt"), /@personal is the one list/);
});

test("each filter keeps what the server's would", () => {
  assert.equal(filterKeeps("~.*ING", "RUNNING"), true);
  assert.equal(filterKeeps("~.*ING", "RUNNINGS"), false);  // the whole word matches, not a part
  assert.equal(filterKeeps("+ing", "SINGER"), true);
  assert.equal(filterKeeps("-ER", "SINGER"), false);
  assert.equal(filterKeeps("!ice cream", "ICECREAM"), false);
  assert.equal(filterKeeps("!ice cream", "ICECREAMS"), true);
  assert.equal(filterKeeps("", "ANY"), true);
  assert.equal(filterKeeps("?E", "ANY"), true);  // not a filter: nothing is left out
  assert.equal(filterKeeps("@personal", "ANY"), true);  // the server narrows to the personal list
});
