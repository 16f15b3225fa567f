// Word-list control: ban a word in one click (a suggestion, or the entry in the grid), boost or add a word with
// a score, upload a personal list; all kept by the server in the user's personal list (GET/POST /api/words).
import { get, post, request } from "./api.js";
import { EMPTY } from "./grid.js";
import { currentSlot, emit, on, say, slotText, state } from "./state.js";
import { writtenAtEnd } from "./alphabet.js";

const $ = (id) => document.getElementById(id);

async function edit(edits, done) {
  try {
    const data = await post("/api/words", { edits });
    draw(data);
    emit("words");
    // a word stored with other letters than typed (CAFÉ is CAFE in English): the server says so
    if (data.warnings && data.warnings.length) say(data.warnings.join("; "));
    else if (done) say(done);
  } catch (err) {
    say(`word list: ${err.message}`);
    emit("words"); // put back what an optimistic change hid
  }
}

export function ban(word) {
  return edit([{ word, score: 0 }], `${writtenAtEnd(word)} is banned: it is no longer suggested or used by autofill (Word list to undo)`);
}

function draw(data) {
  state.personal = data;
  $("words-summary").textContent = data.enabled
    ? `${data.n_words.toLocaleString()} word${data.n_words === 1 ? "" : "s"} in your list, ${data.n_banned.toLocaleString()} banned; `
      + `suggestions and autofill use ${data.list.n_words.toLocaleString()} words`
    : "this server was started with --no-personal: bans and boosts are off";
  $("words-path").textContent = data.path || "";
  $("words-error").textContent = data.error || "";
  const ul = $("words-list");
  ul.innerHTML = "";
  for (const entry of data.entries || []) {
    const li = document.createElement("li");
    li.innerHTML = '<span class="w"></span><span class="s"></span><button type="button" class="link"></button>';
    li.children[0].textContent = writtenAtEnd(entry.word); // as written (Hebrew: its final letter); kept plain
    li.children[1].textContent = entry.score <= 0 ? "banned"
      : `score ${entry.score}${entry.listed === null ? " (added)" : ` (list: ${entry.listed})`}`;
    li.classList.toggle("banned", entry.score <= 0);
    const remove = li.children[2];
    remove.textContent = entry.score <= 0 ? "Unban" : "Remove";
    remove.setAttribute("aria-label", `${entry.score <= 0 ? "Unban" : "Remove"} ${writtenAtEnd(entry.word)}`);
    remove.addEventListener("click", () => edit([{ word: entry.word, remove: true }], `${writtenAtEnd(entry.word)}: back to the list's own score`));
    ul.appendChild(li);
  }
  for (const id of ["word-set", "ban-entry", "words-upload"]) $(id).disabled = !data.enabled;
}

async function upload(file) {
  const mode = $("upload-mode").value;
  try {
    const response = await request(`/api/words/upload?mode=${mode}&name=${encodeURIComponent(file.name)}`, {
      body: file, json: false, headers: { "Content-Type": "text/plain" }, timeoutMs: 60000,
    });
    const data = await response.json();
    draw(data);
    emit("words");
    say(`${file.name}: ${mode === "replace" ? "is now your list" : "merged into your list"}`
        + (data.skipped ? `; skipped ${data.skipped}` : "")
        + (data.warnings && data.warnings.length ? `; ${data.warnings.join("; ")}` : ""));
  } catch (err) {
    say(`cannot use ${file.name}: ${err.message}`);
  }
}

// A banned word's item leaves the suggestion list; a focus inside it goes on to the next word (else the one before,
// else the list), never to the page's body.
function dropWord(li) {
  const list = li.parentElement;
  const focused = li.contains(document.activeElement);
  const next = [li.nextElementSibling, li.previousElementSibling].find((x) => x && x.dataset.word);
  li.remove();
  if (!focused || !list) return;
  if (next) { next.tabIndex = 0; next.focus(); } else list.focus();
}

export async function initWordList() {
  on("ban", ({ word, li }) => { if (li) dropWord(li); ban(word); });
  $("ban-entry").onclick = () => {
    const slot = currentSlot();
    const text = slot ? slotText(slot) : "";
    if (!slot || text.includes(EMPTY)) { say("Ban entry bans the word in the selected entry: fill the entry first"); return; }
    ban(text);
  };
  $("word-set").onclick = () => {
    const word = $("word-input").value.trim();
    const score = Number($("word-score").value);
    if (!word) { say("type the word to add or boost"); return; }
    edit([{ word, score }], score > 0 ? `${word.toUpperCase()} now scores ${score}` : `${word.toUpperCase()} is banned`);
  };
  $("word-input").addEventListener("keydown", (event) => { if (event.key === "Enter") $("word-set").click(); });
  $("words-upload").addEventListener("change", () => {
    const file = $("words-upload").files[0];
    if (file) upload(file);
    $("words-upload").value = "";
  });
  try {
    draw(await get("/api/words"));
  } catch (err) {
    say(`word list: ${err.message}`);
  }
}
