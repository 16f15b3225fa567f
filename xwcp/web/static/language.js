// The puzzle's language control: the language selector (GET /api/languages), the on-screen row of the language's
// letters beyond A-Z (a click or tap types one into the grid), and what the page says and offers when this server
// has no word list in the language (an upload for it, or `xwcp words build`).
import { ApiError, get, request } from "./api.js";
import { allPacks, pack, setPacks } from "./alphabet.js";
import { emit, on, say, setLanguage, state } from "./state.js";

const $ = (id) => document.getElementById(id);

async function loadPacks() {
  try {
    setPacks(await get("/api/languages"));
  } catch (err) {
    say(`the languages could not be read (${err.message}): English only`);
  }
}

function fillSelect() {
  const select = $("language");
  select.innerHTML = "";
  for (const p of allPacks()) {
    const option = document.createElement("option");
    option.value = p.code;
    option.textContent = p.name;
    select.appendChild(option);
  }
  select.value = state.language;
}

// The letters of the language beyond A-Z as buttons: a click types the letter at the cursor (the grid keeps the focus);
// from the keyboard, Tab reaches them and Enter or Space types.
function drawLetterRow() {
  const row = $("letter-row");
  const p = pack();
  row.innerHTML = "";
  row.hidden = !p.beyond.length;
  row.setAttribute("aria-label", `letters of ${p.name}`);
  row.lang = p.code;
  row.dir = p.direction;
  for (const letter of p.beyond) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = letter;
    button.title = `type ${letter} in the grid`;
    button.dataset.letter = letter;
    button.addEventListener("mousedown", (event) => event.preventDefault()); // the grid keeps the focus
    button.addEventListener("click", () => emit("type-letter", letter));
    row.appendChild(button);
  }
}

// The language's list here: none makes suggestions and autofill impossible, which the page says at once (the server
// answers such requests 409 with the same advice).
function drawListNote() {
  const p = pack();
  const note = $("language-note");
  const perLanguage = p.list !== undefined; // this server keeps a list per language (else: one language, `served`)
  const missing = perLanguage ? p.code !== "en" && !p.list : p.served === false;
  note.hidden = !missing;
  const served = allPacks().find((x) => x.served);
  note.textContent = !missing ? "" : perLanguage
    ? `No ${p.name} word list on this server: suggestions and autofill need one. Upload a ${p.name} list in the `
      + `Word list panel, or build one with \`xwcp words build --language ${p.code}\`.`
    : `This server fills ${served ? served.name : "another language's"} puzzles: for ${p.name}, start one with `
      + `\`xwcp serve --language ${p.code} --words LIST\` (\`xwcp words build --language ${p.code}\` makes a list).`;
  $("language-words").hidden = p.code === "en" || !perLanguage;
  $("language-list").textContent = !perLanguage || p.code === "en" ? ""
    : !p.list ? `No ${p.name} list here yet.`
      : p.list.kind === "server" ? `This puzzle's words come from the server's list, ${p.list.source}.`
        : `This puzzle's words come from the ${p.name} list ${p.list.source} (${p.list.kind}); the personal list `
          + "above layers over the server's own list only.";
  $("language-upload-label").textContent = `Upload a ${p.name} list…`;
}

function show() {
  $("language").value = state.language;
  $("grid").lang = state.language;
  drawLetterRow();
  drawListNote();
}

async function upload(file) {
  const p = pack();
  try {
    const response = await request(`/api/languages/${encodeURIComponent(p.code)}/words?name=${encodeURIComponent(file.name)}`,
      { body: file, json: false, headers: { "Content-Type": "text/plain; charset=utf-8" }, timeoutMs: 120000 });
    const data = await response.json();
    say(`${file.name}: ${data.n_words.toLocaleString()} ${p.name} words in use${data.skipped ? ` (skipped ${data.skipped})` : ""}`);
    await loadPacks();
    show();
    emit("words");
  } catch (err) {
    say(err instanceof ApiError ? `cannot use ${file.name}: ${err.message}` : String(err.message || err));
  }
}

export async function initLanguage() {
  await loadPacks();
  fillSelect();
  $("language").addEventListener("change", () => {
    setLanguage($("language").value);
    say(`this puzzle is in ${pack().name}`);
  });
  $("language-upload").addEventListener("change", () => {
    const file = $("language-upload").files[0];
    if (file) upload(file);
    $("language-upload").value = "";
  });
  on("puzzle", show);
  on("language", show);
}
