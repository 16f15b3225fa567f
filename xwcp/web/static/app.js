// The builder page: wires the panels (each its own module, talking through state.js) and starts the page.
// All solving happens on the server (JSON API and /ws/fill); the page edits, shows and keeps the work.
import { initSuggestionKeys, initTabs } from "./a11y.js";
import { get } from "./api.js";
import { initAutofill } from "./autofill.js";
import { initCluePanel } from "./cluepanel.js";
import { initClues } from "./clues.js";
import { initDesign } from "./design.js";
import { initEditor, render } from "./editor.js";
import { initFiles, loadPresets, newPuzzle } from "./files.js";
import { initFind } from "./find.js";
import { encodeState, fromRows, toRows } from "./grid.js";
import { initHelp } from "./help.js";
import { initLanguage } from "./language.js";
import { initPrint } from "./print.js";
import { initSaved, restoreOnLoad } from "./saved.js";
import { initSolve } from "./solve.js";
import { initStats } from "./stats.js";
import { cluesByName, emit, on, say, shareExtras, state } from "./state.js";
import { initTheme } from "./theme.js";
import { initWordList } from "./wordlist.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_PRESET = "15x15-daily-01";
window.xwcp = { state, cluesByName, rows: () => toRows(state.grid), lastHelpMs: null, helpTimes: [], ready: false }; // tests and the bench read these

function initMessages() {
  let timer = null;
  on("message", (text) => {
    $("message").textContent = text || "";
    clearTimeout(timer);
    if (text) timer = setTimeout(() => { $("message").textContent = ""; }, 15000);
  });
  window.addEventListener("unhandledrejection", (event) => say(`unexpected error: ${event.reason && event.reason.message}`));
}

function initShare() {
  $("share").onclick = async () => {
    history.replaceState(null, "", "#" + encodeState(state.grid, cluesByName(), shareExtras()));
    const what = "it restores the grid, clues, title, author, copyright, notes, theme entries, locks and language, not the undo history";
    try {
      await navigator.clipboard.writeText(location.href);
      say(`Link copied: ${what}.`);
    } catch {
      say(`Share this link (${what}): ${location.href}`);
    }
  };
}

async function main() {
  initMessages();
  initTabs();
  initEditor();
  initHelp();
  initSuggestionKeys();
  initFind();
  initAutofill();
  initClues();
  initCluePanel();
  initStats();
  initTheme();
  initSolve();
  initPrint();
  initShare();
  initDesign();
  try {
    state.info = await get("/api/info");
  } catch (err) {
    say(err.message);
  }
  await initLanguage(); // the packs before any puzzle is loaded: its cells are read in its language's letters
  await initFiles();
  initSaved();
  initWordList();
  const presets = await loadPresets();
  if (!restoreOnLoad()) {
    const p = presets.find((x) => x.name === DEFAULT_PRESET) || presets[0];
    newPuzzle(fromRows(p.rows));
  }
  render();
  window.xwcp.ready = true;
  emit("ready");
}

main();
