// The clue help panel beside the clue lists: for the entry under the cursor, once complete, the clues remembered for
// its answer (one click to use), the phrase it spells and its definitions with their licence (GET /api/clues); and the
// clue notes (POST /api/clues/check: the answer in its own clue, a rare word two clues share, a clue too long for
// .puz) shown under each clue they concern. cluehelp.js turns the server's answers into what is drawn here.
import { get, isAbort, post } from "./api.js";
import { helpView, notesBySlot } from "./cluehelp.js";
import { answerOf, recall } from "./cluememory.js";
import { currentSlot, on, puzzleJson, setClue, slotCells, slotKey, state } from "./state.js";

const $ = (id) => document.getElementById(id);
const CHECK_DELAY_MS = 700; // clue checks wait for a pause in typing
const helpByAnswer = new Map(); // the server's help, asked once per answer and page
let shownAnswer = null;
let notes = new Map();
let checkTimer = null;
let checkAbort = null;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function senseList(senses) {
  const list = el("ol", "senses");
  for (const sense of senses) {
    const li = el("li");
    li.append(el("span", "pos", sense.label), document.createTextNode(` ${sense.text}`));
    list.appendChild(li);
  }
  return list;
}

function draw(panel, slot, help) {
  const view = helpView(help, recall(help.answer), state.clues[slotKey(slot)] || "");
  panel.replaceChildren();
  const head = el("p", "clue-help-head");
  head.append(el("b", "", view.answer));
  if (view.phrase) {
    const phrase = el("span", "phrase", ` ${view.phrase}`);
    phrase.title = `the words it spells (from the ${view.phraseSource})`;
    head.append(phrase);
  }
  panel.appendChild(head);
  if (view.yours.length) {
    const yours = el("p", "yours");
    yours.append(el("span", "muted", "Your clues: "));
    for (const clue of view.yours) {
      const use = el("button", "link use-clue", clue);
      use.type = "button";
      use.title = `use this clue for ${slot.name}`;
      use.addEventListener("click", () => { setClue(slot, clue); });
      yours.append(use, document.createTextNode(" "));
    }
    panel.appendChild(yours);
  }
  if (view.senses.length) panel.appendChild(senseList(view.senses));
  if (view.more.length) {
    const more = el("details");
    more.append(el("summary", "", `${view.more.length} more`), senseList(view.more));
    panel.appendChild(more);
  }
  if (!view.yours.length && !view.senses.length && !view.phrase) panel.appendChild(el("p", "muted", "Nothing remembered or defined for it."));
  if (view.licence) panel.appendChild(el("p", "licence muted", view.licence));
  for (const note of view.notes) panel.appendChild(el("p", "muted", note));
}

// The panel for the entry under the cursor: hidden while test-solving or when the entry is not complete.
async function refreshHelp() {
  const panel = $("clue-help");
  const slot = currentSlot();
  const answer = state.mode === "solve" || !slot ? null : answerOf(slotCells(slot));
  panel.hidden = !answer;
  if (!answer) { shownAnswer = null; return; }
  if (answer === shownAnswer && helpByAnswer.has(answer)) { draw(panel, slot, helpByAnswer.get(answer)); return; }
  shownAnswer = answer;
  let help = helpByAnswer.get(answer);
  if (!help) {
    panel.replaceChildren(el("p", "muted", `Looking up ${answer}…`));
    try {
      help = await get(`/api/clues?answer=${encodeURIComponent(answer)}`);
      helpByAnswer.set(answer, help);
    } catch (err) {
      if (shownAnswer === answer) panel.replaceChildren(el("p", "muted", `No clue help: ${err.message}`));
      return;
    }
  }
  if (shownAnswer === answer) draw(panel, slot, help);
}

// Each clue's notes under it (the list is rebuilt by clues.js: drawn again after each of its events).
function drawNotes() {
  for (const li of document.querySelectorAll("#clues li[data-name]")) {
    const messages = state.mode === "solve" ? [] : notes.get(li.dataset.name) || [];
    let mark = li.querySelector(".clue-note");
    if (!messages.length) { if (mark) mark.remove(); continue; }
    if (!mark) { mark = el("span", "clue-note"); li.appendChild(mark); }
    const text = messages.join("; ");
    if (mark.textContent !== text) mark.textContent = text;
  }
  const count = [...notes.values()].length;
  $("clue-notes-count").textContent = count && state.mode !== "solve" ? `${count} clue${count === 1 ? "" : "s"} with notes` : "";
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(async () => {
    if (checkAbort) checkAbort.abort();
    if (!Object.values(state.clues).some((text) => text && text.trim())) { notes = new Map(); drawNotes(); return; }
    checkAbort = new AbortController();
    try {
      notes = notesBySlot(await post("/api/clues/check", { puzzle: puzzleJson() }, { signal: checkAbort.signal }));
    } catch (err) {
      if (isAbort(err)) return;
      notes = new Map();
    }
    drawNotes();
  }, CHECK_DELAY_MS);
}

export function initCluePanel() {
  for (const event of ["select", "edit", "mode", "puzzle"]) on(event, () => { refreshHelp(); drawNotes(); });
  on("clues", () => { drawNotes(); if (shownAnswer && helpByAnswer.has(shownAnswer)) refreshHelp(); });
  for (const event of ["clues", "edit", "puzzle"]) on(event, scheduleCheck);
}
