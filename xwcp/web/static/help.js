// Live help for the slot under the cursor: ranked suggestions (click to enter, one click to ban), the heat
// map and forced letters, the fillability light and the jump to the most constrained slot.
import { isAbort, post, postLines } from "./api.js";
import { enterWord, jumpToSlot, overlay } from "./editor.js";
import { toRows } from "./grid.js";
import { currentSlot, emit, on, say, state } from "./state.js";

const $ = (id) => document.getElementById(id);
const HEAT_DELAY_MS = 60;    // typing fast sends one heat-map request per pause, not one per key
const CHECK_DELAY_MS = 300;  // the fillability check runs a solver: only once the typing pauses
const help = { seq: 0, heatTimer: null, checkTimer: null, keyTime: null, check: null, slotName: null };
let suggestController = null;

// After an edit: the suggestions at once (what the constructor waits for), then the heat map and forced
// letters, then the fillability check, each dropped if a newer edit came.
export function refreshHelp() {
  if (state.mode === "solve") return;
  const seq = ++help.seq;
  const rows = toRows(state.grid);
  refreshSuggestions();
  clearTimeout(help.heatTimer);
  help.heatTimer = setTimeout(() => runHeatmap(seq, rows), HEAT_DELAY_MS);
  clearTimeout(help.checkTimer);
  help.checkTimer = setTimeout(() => runCheck(seq, rows), CHECK_DELAY_MS);
}

function runHeatmap(seq, rows) {
  post("/api/heatmap", { grid: rows }).then((data) => {
    if (seq !== help.seq) return;
    overlay.heat = data;
    if (data.status !== "consistent") {
      overlay.core = data.core ? data.core.cells : data.dead_cells;
      setLight("unfillable", `Unfillable: ${data.reason}`);
    }
    emit("render");
  }).catch((err) => {
    if (seq === help.seq && !isAbort(err)) { overlay.heat = null; say(err.message); emit("render"); }
  });
}

function runCheck(seq, rows) {
  setLight("unknown", "checking…");
  postLines("/api/check?stream=1", { grid: rows, time_limit_s: 2 }, (data) => {
    if (seq !== help.seq) return;
    if (data.type === "error") { setLight("unknown", data.error); return; }
    if (data.type === "verdict") { // the verdict first; the core (outlined cells) follows (issue 29)
      if (data.verdict === "unfillable") {
        setLight("unfillable", `unfillable${data.reason ? ": " + data.reason : ""} · finding the slots that cannot be filled together…`);
      }
      return;
    }
    help.check = data;
    if (data.verdict === "fillable") setLight("fillable", "fillable: a full fill exists");
    else if (data.verdict === "unfillable") {
      setLight("unfillable", `unfillable${data.reason ? ": " + data.reason : ""}`);
      if (data.core) { overlay.core = data.core.cells; emit("render"); }
    } else setLight("unknown", "unknown: no dead end found, no fill within 2 s");
    $("jump").disabled = !data.most_constrained;
  }).catch((err) => { if (seq === help.seq && !isAbort(err)) setLight("unknown", err.message); });
}

function setLight(kind, text) {
  $("light").className = `light ${kind}`;
  $("light-text").textContent = text;
}

export function refreshSuggestions(verify = false) {
  const slot = currentSlot();
  help.slotName = slot ? slot.name : null;
  if (suggestController) suggestController.abort();
  $("slot-title").textContent = slot ? `${slot.name}  ${slot.cells.map((c) => state.grid.cells[c]).join("")}` : "No slot here";
  if (!slot || state.mode === "solve") { drawSuggestions(null, []); return; }
  suggestController = new AbortController();
  const started = help.keyTime;
  const body = { grid: toRows(state.grid), slot: slot.name, k: verify ? 10 : 40 };
  if (verify) Object.assign(body, { verify: true, time_limit_s: 5 });
  if (verify) $("suggest-count").textContent = "the solver is labelling the top ten (up to 5 s)…";
  post("/api/suggest", body, { signal: suggestController.signal }).then((data) => {
    drawSuggestions(data, data.words);
    if (started !== null && started === help.keyTime) {
      window.xwcp.lastHelpMs = performance.now() - started;
      window.xwcp.helpTimes.push(window.xwcp.lastHelpMs);
      help.keyTime = null;
    }
  }).catch((err) => {
    if (!isAbort(err)) { say(err.message); drawSuggestions(null, []); }
  });
}

function drawSuggestions(data, words) {
  const list = $("suggestions");
  list.innerHTML = "";
  const size = data ? data.slot.size : 0;
  $("suggest-count").textContent = data ? `${size.toLocaleString()} word${size === 1 ? " fits" : "s fit"} ${data.slot.pattern}` : "";
  if (data && !words.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = data.status === "consistent" ? "complete entry" : "no word fits without a dead end";
    list.appendChild(li);
  }
  const complete = data && data.slot && !data.slot.pattern.includes(".");
  for (const w of words) {
    const li = document.createElement("li");
    li.dataset.word = w.word;
    li.title = `score ${w.score ?? "not listed"}, fit ${w.fit}: click to enter`;
    li.innerHTML = '<span class="word"></span><span class="score"></span>';
    li.children[0].textContent = w.word;
    li.children[1].textContent = w.score ?? "–";
    if (w.verdict) {
      const label = document.createElement("span");
      label.className = `label ${w.verdict}`;
      label.textContent = w.verdict;
      li.appendChild(label);
    }
    if (!complete) {
      const ban = document.createElement("button");
      ban.type = "button";
      ban.className = "ban";
      ban.textContent = "✕";
      ban.title = `never suggest or fill ${w.word} (your personal list)`;
      ban.setAttribute("aria-label", `Ban ${w.word}`);
      ban.addEventListener("click", (event) => { event.stopPropagation(); emit("ban", { word: w.word, li }); });
      li.appendChild(ban);
    }
    li.addEventListener("click", () => enterWord(w.word));
    list.appendChild(li);
  }
  list.dataset.version = Number(list.dataset.version) + 1;
}

export function initHelp() {
  window.xwcp.helpTimes = [];
  $("jump").onclick = () => {
    const m = help.check && help.check.most_constrained;
    if (m) jumpToSlot(state.slots.find((s) => s.name === m.id), { focusGrid: true });
  };
  $("label-words").onclick = () => refreshSuggestions(true);
  on("keystroke", () => { help.keyTime = performance.now(); });
  on("edit", refreshHelp);
  on("puzzle", refreshHelp);
  on("words", refreshHelp);
  on("mode", () => { if (state.mode === "build") refreshHelp(); else drawSuggestions(null, []); });
  on("select", () => {
    const slot = currentSlot();
    if ((slot && slot.name) !== help.slotName) refreshSuggestions();
  });
}
