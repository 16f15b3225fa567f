// @ts-check
// Clue help beside the clue box, as data: the clues remembered for an answer (this browser's first, then the
// server's), the phrase it spells, its definitions with their source's licence, and the clue notes by slot. Pure: the
// page (clues.js) asks the server (GET /api/clues, POST /api/clues/check) and draws what these return.

/**
 * @typedef {{ lemma: string, pos: string, text: string, examples: string[], form_of: string | null }} Sense
 * @typedef {{ source: string, name: string, notice: string }} Licence
 * @typedef {{ answer: string, memory: string[], split: { words: string[], source: string } | null,
 *             definitions: Sense[], licence: Licence | null, notes: string[] }} ClueHelp
 * @typedef {{ issue: string, slots: string[], word: string, message: string }} ClueNote
 */

export const SHOWN_SENSES = 4; // the panel's first definitions; the rest behind "more"
export const SHOWN_CLUES = 5;  // remembered clues offered at once

/**
 * The remembered clues to offer: this browser's (newest first), then the server's it lacks; never the clue the entry
 * has now.
 * @param {string[]} local
 * @param {string[]} server
 * @param {string} [current]
 * @returns {string[]}
 */
export function offeredClues(local, server, current = "") {
  /** @type {string[]} */
  const out = [];
  for (const clue of [...local, ...server]) {
    const text = clue.trim();
    if (text && text !== current.trim() && !out.includes(text)) out.push(text);
  }
  return out.slice(0, SHOWN_CLUES);
}

/**
 * One definition's label: its part of speech and lemma ("noun, ice-cream cone"; "verb, form of run").
 * @param {Sense} sense
 */
export function senseLabel(sense) {
  return `${sense.pos}, ${sense.form_of ? `form of ${sense.form_of}` : sense.lemma}`;
}

/**
 * What the panel shows for one answer.
 * @param {ClueHelp} help the server's answer
 * @param {string[]} local this browser's remembered clues for the answer
 * @param {string} [current] the entry's clue now
 * @returns {{ answer: string, phrase: string, phraseSource: string, yours: string[],
 *             senses: { label: string, text: string }[], more: { label: string, text: string }[],
 *             licence: string, notes: string[] }}
 */
export function helpView(help, local, current = "") {
  const senses = help.definitions.map((sense) => ({ label: senseLabel(sense), text: sense.text }));
  const licence = help.licence && help.definitions.length
    ? `Definitions: ${help.licence.source} (${help.licence.name}). ${help.licence.notice}` : "";
  return {
    answer: help.answer,
    phrase: help.split ? help.split.words.join(" ") : "",
    phraseSource: help.split ? help.split.source : "",
    yours: offeredClues(local, help.memory, current),
    senses: senses.slice(0, SHOWN_SENSES),
    more: senses.slice(SHOWN_SENSES),
    licence,
    notes: help.notes.slice(),
  };
}

/**
 * A note as shown under its clue: its message without the slot names it starts with ("1A and 3D: ...").
 * @param {ClueNote} note
 */
export function noteText(note) {
  const prefix = `${note.slots.join(" and ")}: `;
  return note.message.startsWith(prefix) ? note.message.slice(prefix.length) : note.message;
}

/**
 * The notes of POST /api/clues/check by slot name ("17A"): each slot's notes as shown under its clue.
 * @param {{ notes: ClueNote[] }} checks
 * @returns {Map<string, string[]>}
 */
export function notesBySlot(checks) {
  /** @type {Map<string, string[]>} */
  const out = new Map();
  for (const note of checks.notes) {
    for (const name of note.slots) out.set(name, [...(out.get(name) || []), noteText(note)]);
  }
  return out;
}
