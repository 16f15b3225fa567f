// xwcp/web/static/cluehelp.js: what the clue panel shows from the server's clue help and clue checks.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SHOWN_CLUES, SHOWN_SENSES, helpView, notesBySlot, offeredClues, senseLabel } from "../../xwcp/web/static/cluehelp.js";

const HELP = {
  answer: "RAN",
  memory: ["Sprinted", "Managed"],
  split: null,
  definitions: [1, 2, 3, 4, 5, 6].map((n) => ({ lemma: "run", pos: "verb", text: `sense ${n}`, examples: [], form_of: "run" })),
  licence: { source: "Princeton WordNet 3.0", name: "WordNet 3.0 licence", notice: "WordNet 3.0 Copyright 2006 by Princeton University." },
  notes: [],
};

test("remembered clues: this browser's first, no repeats, never the clue the entry has", () => {
  assert.deepEqual(offeredClues(["Managed", "Dashed"], ["Sprinted", "Managed"], "Dashed"), ["Managed", "Sprinted"]);
  assert.equal(offeredClues(["a", "b", "c", "d"], ["e", "f", "g"]).length, SHOWN_CLUES);
  assert.deepEqual(offeredClues([" "], []), []);
});

test("the view: senses cut at SHOWN_SENSES, the rest in more, the licence shown with definitions", () => {
  const view = helpView(HELP, ["Dashed"]);
  assert.equal(view.senses.length, SHOWN_SENSES);
  assert.equal(view.more.length, 6 - SHOWN_SENSES);
  assert.equal(view.senses[0].label, "verb, form of run");
  assert.deepEqual(view.yours, ["Dashed", "Sprinted", "Managed"]);
  assert.match(view.licence, /WordNet 3\.0 licence.*Princeton University/);
  assert.equal(view.phrase, "");
});

test("a phrase and no definitions: the split shown, no licence line", () => {
  const view = helpView({ ...HELP, answer: "TOLDALIE", definitions: [], split: { words: ["TOLD", "A", "LIE"], source: "list" } }, []);
  assert.equal(view.phrase, "TOLD A LIE");
  assert.equal(view.phraseSource, "list");
  assert.equal(view.licence, "");
});

test("a sense without form_of is labelled by its lemma", () => {
  assert.equal(senseLabel({ lemma: "ice-cream cone", pos: "noun", text: "", examples: [], form_of: null }), "noun, ice-cream cone");
});

test("clue notes by slot: a shared word's note goes to both slots", () => {
  const notes = notesBySlot({ notes: [
    { issue: "answer-in-clue", slots: ["1A"], word: "cab", message: "1A: the clue's word 'cab' gives away CAB" },
    { issue: "shared-rare-word", slots: ["1A", "3D"], word: "tapir", message: "1A and 3D: both use 'tapir'" },
  ] });
  assert.deepEqual(notes.get("1A"), ["the clue's word 'cab' gives away CAB", "both use 'tapir'"]);
  assert.deepEqual(notes.get("3D"), ["both use 'tapir'"]);
  assert.equal(notes.get("2D"), undefined);
});
