// Live help for the slot under the cursor: ranked suggestions (click to enter, one click to ban), the heat
// map and forced letters, the fillability light and the jump to the most constrained slot.
import { isAbort, post, postLines, withLanguage } from "./api.js";
import { enterWord, jumpToSlot, overlay } from "./editor.js";
import { serverName, toRows } from "./grid.js";
import { writtenAtEnd } from "./alphabet.js";
import { filterKeeps, filterProblem } from "./filters.js";
import { currentSlot, emit, listedName, on, say, slotText, state } from "./state.js";

const NO_LIST = 409; // the puzzle's language has no word list here: the note under the grid says how to get one (language.js)

// A failed request's line for the user; the missing list is said once, under the grid, not after every keystroke.
function tell(err) { if (err.status !== NO_LIST && document.getElementById("language-note").hidden) say(err.message); }

const $ = (id) => document.getElementById(id);
const HEAT_DELAY_MS = 60;    // typing fast sends one heat-map request per pause, not one per key
const CHECK_DELAY_MS = 300;  // the fillability check runs a solver: only once the typing pauses
const FILTER_DELAY_MS = 200; // typing a filter asks the server once it pauses
const help = { seq: 0, heatTimer: null, checkTimer: null, keyTime: null, check: null, slotName: null, proven: -1 };
let suggestController = null;

// After an edit: the suggestions at once (what the constructor waits for), then the heat map and forced
// letters, then the fillability check, each dropped if a newer edit came.
export function refreshHelp() {
  if (state.mode === "solve") return;
  const seq = ++help.seq;
  const rows = toRows(state.grid);
  refreshSuggestions();
  clearTimeout(help.heatTimer);
  help.heatTimer = setTimeout(() => { runHeatmap(seq, rows); runCrossings(seq, rows); }, HEAT_DELAY_MS);
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
    if (seq === help.seq && !isAbort(err)) { overlay.heat = null; tell(err); emit("render"); }
  });
}

// Crossings of two tagged complete entries (two names, a name and an abbreviation): marked on their cells with the
// reason (/api/crossings); the constructor judges them.
function runCrossings(seq, rows) {
  post("/api/crossings", { grid: rows }).then((data) => {
    if (seq !== help.seq) return;
    overlay.unfair = data.crossings.length ? data.crossings : null;
    emit("render");
  }).catch((err) => { if (seq === help.seq && !isAbort(err)) { overlay.unfair = null; emit("render"); } });
}

function runCheck(seq, rows) {
  if (help.proven !== seq) setLight("unknown", "checking…");
  postLines("/api/check?stream=1", { grid: rows, time_limit_s: 2 }, (data) => {
    if (seq !== help.seq) return;
    if (data.type === "error") { setLight("unknown", data.status === NO_LIST ? "no word list for this language" : data.error); return; }
    if (data.type === "verdict") { // the verdict first; the core (outlined cells) follows
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
    } else if (help.proven !== seq) setLight("unknown", "unknown: no dead end found, no fill within 2 s");
    $("jump").disabled = !data.most_constrained;
  }).catch((err) => { if (seq === help.seq && !isAbort(err)) setLight("unknown", err.status === NO_LIST ? "no word list for this language" : err.message); });
}

function setLight(kind, text) {
  $("light").className = `light ${kind}`;
  $("light-text").textContent = text;
}

// The suggestion list: the words that survive being entered come at once (/api/suggest, timed from the
// keystroke); the solver's labels stream in over /ws/suggest as each word is settled. Viable words rise to the
// top, dead ends sink and are marked (a text label, not colour only), never hidden unless "fits only" is ticked;
// the labelling runs on while the constructor is idle and is cancelled by the next edit or slot change.
const LABEL_BUDGET_S = 10; // the shown words' budget: a word it leaves unsettled says so, never an endless "…"
const RUN_ON_BUDGET_S = 60; // labelling runs on through the list while idle; the next request cancels it
const LIST_K = 40;
const MORE_K = 40; // the idle run-on: this many more words labelled each time the list is settled
const MAX_LIST_K = 200; // the server's MAX_K
const IDLE_MS = 1500; // no keystroke for this long after the list is settled: label the next MORE_K words
const sug = { socket: null, queued: null, id: 0, seq: -1, data: null, labels: new Map(), counts: null,
              done: false, slot: null, frame: 0, error: "", body: null, idle: 0, chain: "" };

export function refreshSuggestions() {
  const slot = currentSlot();
  help.slotName = slot ? slot.name : null;
  if (suggestController) suggestController.abort();
  const solving = state.mode === "solve"; // the answers stay hidden while test-solving
  $("slot-title").textContent = !slot ? "No slot here"
    : solving ? listedName(slot) : `${listedName(slot)}  ${writtenAtEnd(slotText(slot))}`;
  sug.id++;
  clearTimeout(sug.idle);
  Object.assign(sug, { data: null, labels: new Map(), counts: null, done: false, slot: slot ? slot.name : null,
                       seq: help.seq, error: "", body: null, retried: false, chain: "" });
  if (!slot || state.mode === "solve") { stopLabels(); drawSuggestions(null, []); return; }
  if (slot.words > 1) { // a chain: one slot on the server, whose whole-length words would not be what fills it
    sug.chain = `${listedName(slot)} is a chain of ${slot.words} words whose boundaries Autofill chooses: `
      + "the list suggests words for single entries only, not for a whole chain. Autofill fills it word by word.";
    stopLabels();
    drawSuggestions(null, []);
    return;
  }
  suggestController = new AbortController();
  const started = help.keyTime;
  const rows = toRows(state.grid);
  const body = { grid: rows, slot: serverName(slot), k: LIST_K }; // a Schrödinger entry: its first reading, with pairs
  const filter = $("suggest-filter").value.trim();
  const problem = filterProblem(filter);
  $("suggest-filter-error").textContent = problem;
  $("suggest-filter").setAttribute("aria-invalid", String(!!problem));
  if (filter && !problem) body.filter = filter;
  const id = sug.id;
  stopLabels(); // the CPU goes to this keystroke's list first; its labels are asked for once it is drawn
  post("/api/suggest", body, { signal: suggestController.signal }).then((data) => {
    if (id === sug.id && !sug.data) drawSuggestions(data, data.words);
    if (id === sug.id) requestLabels(body); // the server has this grid's list cached by now
    if (started !== null && started === help.keyTime) {
      window.xwcp.lastHelpMs = performance.now() - started;
      window.xwcp.helpTimes.push(window.xwcp.lastHelpMs);
      help.keyTime = null;
    }
  }).catch((err) => {
    if (!isAbort(err) && id === sug.id) { tell(err); drawSuggestions(null, []); if (err.status !== NO_LIST) requestLabels(body); }
  });
}

function labelSocket() {
  if (sug.socket && sug.socket.readyState <= WebSocket.OPEN) return sug.socket;
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/suggest`);
  socket.onopen = () => { if (sug.queued) { socket.send(sug.queued); sug.queued = null; } };
  socket.onmessage = (event) => onLabelMessage(JSON.parse(event.data));
  socket.onclose = () => { if (sug.socket === socket) sug.socket = null; };
  sug.socket = socket;
  return socket;
}

// How many of the list's first rows are in view: the server labels those words first.
function visibleRows() {
  const list = $("suggestions");
  const box = list.getBoundingClientRect();
  const top = Math.max(box.top, 0), bottom = Math.min(box.bottom, window.innerHeight);
  let n = 0;
  list.querySelectorAll("li[data-word]").forEach((li, i) => {
    const r = li.getBoundingClientRect();
    if (r.bottom > top && r.top < bottom) n = i + 1;
  });
  return n || LIST_K;
}

function requestLabels(body, budgetS = LABEL_BUDGET_S) {
  sug.body = body;
  const message = JSON.stringify(withLanguage({ ...body, id: sug.id, time_limit_s: budgetS, visible: visibleRows() }));
  const socket = labelSocket();
  if (socket.readyState === WebSocket.OPEN) socket.send(message); else sug.queued = message;
}

function stopLabels() {
  sug.queued = null;
  if (sug.socket && sug.socket.readyState === WebSocket.OPEN) sug.socket.send(JSON.stringify({ type: "stop" }));
}

function onLabelMessage(m) {
  if (m.id !== sug.id) return; // a cancelled request's last words
  if (m.type === "words") { drawSuggestions(m, m.words); return; } // the list labelled (may be fuller than the first)
  if (m.type === "label") {
    sug.labels.set(m.word, m);
    if (m.verdict === "viable" && sug.seq === help.seq) { // a fill with this word exists: so does a fill of the grid
      help.proven = help.seq;
      setLight("fillable", `fillable: a full fill with ${writtenAtEnd(m.word)} in ${sug.slot} exists`);
    }
  } else if (m.type === "counts") sug.counts = m.counts;
  else if (m.type === "done") {
    sug.done = true;
    if (!m.cancelled && sug.data) { // a word the budget left unsettled says so
      for (const w of sug.data.words) if (!sug.labels.has(w.word)) sug.labels.set(w.word, { word: w.word, verdict: "unknown" });
    }
    runOnWhenIdle();
  }
  else if (m.type === "error") sug.error = m.error;
  agreeLight();
  if (!sug.frame) sug.frame = requestAnimationFrame(() => { sug.frame = 0; renderList(); });
}

// The labelling runs on through the list while the constructor is idle: once the shown words are settled and no
// key has been pressed for IDLE_MS, the next MORE_K words are asked for (the server sends the longer list with the
// labels it kept, then labels the new words); any edit or slot change cancels it (a new request id).
function runOnWhenIdle() {
  const id = sug.id;
  clearTimeout(sug.idle);
  sug.idle = setTimeout(() => {
    const counts = sug.counts || (sug.data && sug.data.counts);
    const body = sug.body;
    if (id !== sug.id || !body || !sug.data || state.mode === "solve") return;
    if (help.keyTime !== null) return;
    const unsettled = sug.data.words.some((w) => (sug.labels.get(w.word) || {}).verdict === "unknown");
    const more = body.k < MAX_LIST_K && !(counts && counts.complete && sug.data.words.length >= counts.survive)
      && sug.data.words.length >= body.k; // else every survivor is shown, or the list has no more
    if (!more && !(unsettled && !sug.retried)) return;
    sug.retried = sug.retried || !more; // the shown words' unsettled ones get one more, longer turn
    sug.done = false;
    requestLabels({ ...body, k: more ? Math.min(MAX_LIST_K, body.k + MORE_K) : body.k }, RUN_ON_BUDGET_S);
  }, IDLE_MS);
}

// Every word that survives propagation shown and proven a dead end: no fill exists, whatever the check says.
function agreeLight() {
  const counts = sug.counts || (sug.data && sug.data.counts);
  if (!sug.data || !counts || !counts.complete || sug.seq !== help.seq) return;
  const words = sug.data.words;
  if (words.length && words.length === counts.survive
      && words.every((w) => (sug.labels.get(w.word) || {}).verdict === "dead-end")) {
    setLight("unfillable", `unfillable: every word that fits ${sug.slot} leads to a dead end`);
  }
}

function drawSuggestions(data, words) {
  sug.data = data ? { ...data, words } : null;
  renderList();
}

const ORDER = { viable: 0, unknown: 1, "dead-end": 2 };
const LABEL_TEXT = { viable: "fits", "dead-end": "dead end", unknown: "unsettled" };

// The line over the list: how many words match, survive, are proven to fill or dead ends, and how far the labelling
// is; `data` the list's answer, `counts` the newest counts, `labels` by word, `done` the labelling finished.
export function countText({ data, counts, labels, done, error }) {
  if (!data) return "";
  const c = counts || data.counts;
  if (!c) return `${data.slot.size.toLocaleString()} words fit ${data.slot.pattern}`;
  const values = [...labels.values()];
  const viable = values.filter((l) => l.verdict === "viable").length;
  const dead = values.filter((l) => l.verdict === "dead-end").length;
  const one = (n, verb, ones) => `${n.toLocaleString()} ${n === 1 ? ones : verb}`;
  const survive = c.complete ? `${one(c.survive, "survive", "survives")} propagation`
    : `${c.survive.toLocaleString()}+ of ${c.checked.toLocaleString()} checked survive propagation`;
  const parts = [`${one(c.pattern, "match", "matches")} the pattern`, survive];
  if (data.words.length && data.slot.pattern.includes(".")) {
    const labelled = data.words.filter((w) => labels.has(w.word)).length;
    const settled = done || labelled >= data.words.length; // every shown word labelled: nothing left to wait for
    parts.push(`${viable} proven to fill${settled ? "" : " so far"}`);
    if (dead) parts.push(`${dead} dead end${dead === 1 ? "" : "s"}`);
    if (!settled) parts.push(`labelling ${labelled}/${data.words.length}…`);
  }
  if (error) parts.push(error);
  return parts.join(", ");
}

function countLine() {
  return countText({ data: sug.data, counts: sug.counts, labels: sug.labels, done: sug.done, error: sug.error });
}

/** @type {{ word: string, at: number } | null} the word (and its place) whose focus waits on the empty list */
let parkedFocus = null;

function renderList() {
  const list = $("suggestions");
  const data = sug.data;
  const words = data ? data.words : [];
  // the list is redrawn as labels arrive: a word focused from the keyboard keeps the focus across redraws
  const active = document.activeElement;
  const focusedItem = active && list.contains(active) ? active.closest("li[data-word]") : null;
  // focus parked on the list itself (it was empty while asked again) goes back to the word, or its place, it left
  const parked = active === list && parkedFocus ? parkedFocus : null;
  const focusedWord = focusedItem ? focusedItem.dataset.word : parked ? parked.word : null;
  const focusedAt = focusedItem ? [...list.querySelectorAll("li[data-word]")].indexOf(focusedItem) : parked ? parked.at : -1;
  parkedFocus = null;
  list.innerHTML = "";
  $("suggest-count").textContent = countLine();
  const fitsOnly = $("fits-only").checked;
  const verdictOf = (w) => (sug.labels.get(w.word) || {}).verdict || "pending";
  const filter = sug.body && sug.body.filter ? sug.body.filter : "";
  const shown = words.map((w, rank) => ({ w, rank, verdict: verdictOf(w) }))
    .filter((x) => (!fitsOnly || x.verdict === "viable") && filterKeeps(filter, x.w.word))
    .sort((a, b) => ((ORDER[a.verdict] ?? 1) - (ORDER[b.verdict] ?? 1)) || (a.rank - b.rank));
  if (!data && sug.chain) {
    const li = document.createElement("li");
    li.className = "empty chain-note";
    li.textContent = sug.chain;
    list.appendChild(li);
  }
  if (data && !shown.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = !words.length ? (data.status === "consistent" ? "complete entry" : "no word fits without a dead end")
      : sug.done ? "no word proven to fill (untick “fits only” to see the rest)" : "no word proven to fill yet…";
    list.appendChild(li);
  }
  const complete = data && data.slot && !data.slot.pattern.includes(".");
  for (const { w, verdict } of shown) {
    const li = document.createElement("li");
    li.dataset.word = w.word;
    li.dataset.verdict = verdict;
    if (verdict === "dead-end") li.classList.add("dead");
    li.title = `score ${w.score ?? "not listed"}, fit ${w.fit}`
      + (verdict === "viable" ? ": a full fill with it exists" : verdict === "dead-end" ? ": proven, no fill with it exists"
        : verdict === "unknown" ? ": the solver did not settle it" : ": being labelled") + "; click to enter";
    li.innerHTML = '<span class="word"></span><span class="score"></span>';
    li.children[0].textContent = writtenAtEnd(w.word); // a Hebrew word ends in its final form; data-word stays plain
    if (w.pairs && w.pairs.length) { // a Schrödinger slot: the second readings that go with this first reading
      const pairs = document.createElement("span");
      pairs.className = "pairs";
      pairs.textContent = `/ ${w.pairs.map((x) => writtenAtEnd(x)).join(" ")}`;
      pairs.title = "second readings that fit with it (the Schrödinger squares' other letters)";
      li.children[0].after(pairs);
    }
    li.children[1].textContent = w.score ?? "–";
    if (!complete) {
      const label = document.createElement("span");
      label.className = `label ${verdict}`;
      label.textContent = LABEL_TEXT[verdict] || "…";
      li.appendChild(label);
      const ban = document.createElement("button");
      ban.type = "button";
      ban.className = "ban";
      ban.textContent = "✕";
      ban.title = `never suggest or fill ${writtenAtEnd(w.word)} (your personal list)`;
      ban.setAttribute("aria-label", `Ban ${writtenAtEnd(w.word)}`);
      ban.addEventListener("click", (event) => { event.stopPropagation(); emit("ban", { word: w.word, li }); });
      li.appendChild(ban);
    }
    li.addEventListener("click", () => enterWord(w.word));
    li.tabIndex = -1;
    list.appendChild(li);
    if (w.word === focusedWord) { li.tabIndex = 0; li.focus({ preventScroll: true }); }
  }
  if (focusedWord !== null && !list.contains(document.activeElement)) { // the focused word left the list: its place
    const items = list.querySelectorAll("li[data-word]");
    const instead = items[Math.min(focusedAt, items.length - 1)];
    if (instead) { instead.tabIndex = 0; instead.focus({ preventScroll: true }); } else {
      list.focus({ preventScroll: true });
      parkedFocus = { word: focusedWord, at: focusedAt };
    }
  }
  list.dataset.labelled = String([...sug.labels.values()].filter((l) => l.verdict !== "unknown").length);
  list.dataset.slot = sug.slot || "";  // which slot the list (and its done flag) is for
  list.dataset.done = String(sug.done);
  list.dataset.version = Number(list.dataset.version) + 1;
}

export function initHelp() {
  window.xwcp.helpTimes = [];
  $("jump").onclick = () => {
    const m = help.check && help.check.most_constrained;
    if (m) jumpToSlot(state.slots.find((s) => s.name === m.id.replace(/\/[12]$/, "")), { focusGrid: true }); // 7A/1: 7A
  };
  $("fits-only").addEventListener("change", renderList);
  let filterTimer = 0;
  $("suggest-filter").addEventListener("input", () => {
    clearTimeout(filterTimer);
    filterTimer = setTimeout(refreshSuggestions, FILTER_DELAY_MS);
  });
  on("keystroke", () => { help.keyTime = performance.now(); });
  on("edit", refreshHelp);
  on("puzzle", refreshHelp);
  on("words", refreshHelp);
  on("language", refreshHelp); // another list answers
  on("mode", () => { if (state.mode === "build") refreshHelp(); else refreshSuggestions(); }); // solving: no answers shown
  on("select", () => {
    const slot = currentSlot();
    if ((slot && slot.name) !== help.slotName) { $("suggest-filter").value = ""; refreshSuggestions(); } // a filter is one slot's
  });
}
