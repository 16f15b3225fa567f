// Autofill over the WebSocket: the whole grid or a dragged region, progress in pencil, stop, accept, reroll.
import { withLanguage } from "./api.js";
import { cellFromText, pack } from "./alphabet.js";
import { overlay } from "./editor.js";
import { EMPTY, toRows } from "./grid.js";
import { isLetters } from "./gridtext.js";
import { commit, emit, on, state } from "./state.js";

const $ = (id) => document.getElementById(id);
const SILENT_S = 10; // a fill that sends nothing for this long is reported, not waited on forever
let socket = null;
let lastRegion = null;
let seed = 0;
let watchdog = null;

// A fill's cells (code chars, or letters as written: "IJ") in the puzzle's letters.
function inLetters(contents) { return contents.map((row) => row.map((cell) => cellFromText(cell))); }

function stopSocket() {
  if (!socket) return;
  socket.onmessage = null;
  socket.onclose = null;
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "stop" }));
  socket.close();
  socket = null;
  setFilling(false);
}

function startFill(region) {
  if (socket || state.mode === "solve") return;
  overlay.pencil = null;  // the last fill's pencil goes at once: what is drawn from here on is this fill's
  overlay.core = null;
  overlay.chains = null;
  $("pencil-actions").hidden = true;
  emit("render");
  const time = Math.min(120, Math.max(1, Number($("time-limit").value) || 30));
  const request = { grid: toRows(state.grid), quality: $("quality").checked, time_limit_s: time, seed,
                    distinct_stems: $("distinct-stems").checked };
  if (region) request.region = region;
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/fill`);
  lastRegion = region;
  setFilling(true);
  setProgress("starting…");
  const heard = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      setProgress(`the server has sent nothing for ${SILENT_S} s: stopped waiting (try again)`, "error");
      stopSocket();
    }, SILENT_S * 1000);
  };
  heard();
  socket.onopen = () => socket.send(JSON.stringify(withLanguage(request)));
  socket.onmessage = (event) => {
    heard();
    const msg = JSON.parse(event.data);
    if (msg.type === "progress") {
      let line = `${msg.seconds.toFixed(1)} s`;
      if (msg.chain_splits !== undefined) line += ` · chain splits tried ${msg.chain_splits}`;
      if (msg.best) line += " · best fill so far drawn in pencil";
      else if (msg.n_slots) {
        line += ` · ${msg.nodes.toLocaleString()} nodes · ${msg.backtracks.toLocaleString()} backtracks`
          + ` · deepest ${msg.filled_slots}/${msg.n_slots} slots`;
      }
      if (msg.note) line += ` · ${msg.note}`;
      setProgress(line);
      // the search's current branch, or (quality) each better fill as it is found, in pencil
      if (msg.contents) { overlay.pencil = inLetters(msg.contents); emit("render"); }
    } else if (msg.type === "verdict") { // unfillable, proven: the core search follows
      overlay.pencil = null;
      setProgress(`unfillable (${msg.seconds} s): ${msg.reason} · finding the slots that cannot be filled together (stop keeps this verdict)…`, "unfillable");
      emit("render");
    } else if (msg.type === "core-progress") {
      const left = msg.slots === null ? "" : `${msg.slots} slots left, ${msg.needed} proven needed, `;
      setProgress(`unfillable · narrowing the core: ${left}${msg.core_seconds.toFixed(1)} s`, "unfillable");
    } else if (msg.type === "result") {
      showResult(msg);
    } else if (msg.type === "error") {
      setProgress(`error: ${msg.error}`, "error");
    }
  };
  socket.onerror = () => setProgress("the fill connection failed: is `xwcp serve` still running?", "error");
  socket.onclose = () => { clearTimeout(watchdog); socket = null; setFilling(false); };
}

function setProgress(text, status) {
  $("progress").textContent = text;
  if (status) $("progress").dataset.status = status; else delete $("progress").dataset.status;
}

let lastFilled = ""; // the last fill's status line, said again once it is accepted

function showResult(msg) {
  const where = `${msg.seconds} s, ${msg.nodes.toLocaleString()} nodes`;
  if (msg.status === "filled") {
    overlay.pencil = inLetters(msg.contents); // each cell's contents row by row (a rebus cell's whole string)
    overlay.chains = msg.chains || null; // each chain's words, by chain name: shown in its clue, kept on accepting
    $("pencil-actions").hidden = false;
    let scores = msg.scores ? ` · word scores min ${msg.scores.min}, mean ${msg.scores.mean}` : "";
    if (msg.quality && msg.quality.mean_bound !== null && msg.quality.mean_bound !== undefined) {
      scores += ` (bound ${msg.quality.mean_bound}${msg.quality.floor_optimal ? ", floor proven highest" : ""})`;
    }
    const words = msg.skipped_words || []; // "EATERY: shares EAT with ATECROW", once per pair of words
    const skipped = words.length ? ` · skipped by distinct stems: ${words.join("; ")}` : "";
    const splits = msg.chain_splits ? ` · chains split on try ${msg.chain_splits}` : "";
    lastFilled = `filled (${where})${splits}${scores}${skipped}`;
    setProgress(`${lastFilled} — accept or reroll`, "filled"); // a dash: the line may end in "SCATS: same stem as SCAT"
    if (overlay.chains) emit("clues"); // the chains' clues show their words in pencil
  } else if (msg.status === "unfillable") {
    overlay.pencil = null;
    overlay.core = msg.core ? msg.core.cells : null;
    const how = !msg.core ? "" : msg.core.minimal ? "" : msg.core.stopped ? ", stopped: perhaps not minimal" : ", perhaps not minimal";
    const slots = msg.core ? ` (outlined: ${msg.core.slots.join(", ")}${how}; core ${msg.core.seconds} s)` : "";
    setProgress(`unfillable (${where}): ${msg.reason}${slots}`, "unfillable");
  } else {
    overlay.pencil = null;
    setProgress(`${msg.status} (${where}): ${msg.reason}`, msg.status);
  }
  emit("render");
}

function setFilling(on_) {
  state.filling = on_;
  $("fill-all").disabled = on_;
  $("fill-region").disabled = on_ || !overlay.region;
  $("stop").disabled = !on_;
}

// A pencil cell the fill filled: the pack's letters, or in an open pack (Hindi) one akshara as written.
function isFilled(text) { return isLetters(text) || (pack().open && /^\p{L}\p{M}*$/u.test(text)); }

function acceptPencil() {
  if (!overlay.pencil) return;
  // only empty cells take the pencil's letters: an edit made while the fill ran is kept
  const pencil = overlay.pencil.flat();
  const cells = state.grid.cells.map((x, cell) => ((x === EMPTY || (state.pairCells.has(cell) && x.includes(EMPTY)))
    && isFilled(pencil[cell] || "") ? pencil[cell] : x)); // a Schrödinger square takes both letters, a given one kept
  overlay.pencil = null;
  $("pencil-actions").hidden = true;
  setProgress(`${lastFilled} — accepted (Ctrl+Z undoes)`, "filled"); // no longer "accept or reroll"
  commit({ cells }, { accepted: true });
}

export function initAutofill() {
  $("fill-all").onclick = () => startFill(null);
  $("fill-region").onclick = () => startFill(overlay.region);
  $("stop").onclick = () => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "stop" })); };
  $("accept").onclick = acceptPencil;
  $("discard").onclick = () => {
    overlay.pencil = null;
    overlay.chains = null;
    $("pencil-actions").hidden = true;
    setProgress("");
    emit("render");
    emit("clues");
  };
  $("reroll").onclick = () => { seed += 1; startFill(lastRegion); };
  on("edit", (detail) => {
    if (!detail.accepted && overlay.pencil && !socket) { overlay.pencil = null; $("pencil-actions").hidden = true; }
  });
  on("puzzle", () => { stopSocket(); overlay.chains = null; setProgress(""); $("pencil-actions").hidden = true; });
  on("mode", () => { if (state.mode === "solve") stopSocket(); });
}
