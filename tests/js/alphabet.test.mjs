// xwcp/web/static/alphabet.js: typed text turned into a language's letters and shown as the language writes them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ENGLISH, cut, makePack, typed, written, writtenAtEnd } from "../../xwcp/web/static/alphabet.js";

const ASCII = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");
const dutch = makePack({ code: "nl", name: "Dutch", letters: [...ASCII, "IJ"], direction: "ltr", list: null });
const spanish = makePack({ code: "es", name: "Spanish", letters: [...ASCII.slice(0, 14), "Ñ", ...ASCII.slice(14)],
                           direction: "ltr", list: null });
const turkish = makePack({ code: "tr", name: "Turkish", letters: [...ASCII, "İ"], direction: "ltr", list: null });
const hebrewLetters = "אבגדהוזחטיכלמנסעפצקרשת".split("");
const hebrew = makePack({ code: "he", name: "Hebrew", letters: hebrewLetters, direction: "rtl", list: null,
                          fold: { "ם": "מ" }, final: { "מ": "ם" } });

test("a letter of several characters is one code char, written back in full", () => {
  const letters = cut("IJS", dutch);
  assert.equal(letters.length, 2);
  assert.equal(written(letters.join(""), dutch), "IJS");
});

test("typing folds what the language folds and refuses what it lacks", () => {
  assert.deepEqual(typed("ñ", spanish), { letters: ["Ñ"] });
  assert.deepEqual(typed("é", ENGLISH), { letters: ["E"] });
  assert.deepEqual(typed("i", turkish), { letters: ["İ"] });
  assert.deepEqual(typed("ж", ENGLISH), { bad: "Ж" });
  assert.equal(typed(" - ", ENGLISH), null);
});

test("Hebrew: a final form typed is the plain letter, shown final where an entry ends", () => {
  assert.deepEqual(typed("ם", hebrew), { letters: ["מ"] });
  assert.equal(writtenAtEnd("שלומ", hebrew), "שלום");
  assert.equal(written("שלומ", hebrew), "שלומ");
});
