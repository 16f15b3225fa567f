// The "Design grid" panel: theme entries typed in, /ws/design streams the patterns tried and the designs found;
// a design (or only its blocks and theme entries) opens in the editor as a new puzzle, its theme entries marked.
// It builds its own markup inside #design-panel and reaches the rest of the page only through state.js.
import { withLanguage } from "./api.js";
import { fromRows } from "./grid.js";
import { loadPuzzle } from "./state.js";

const SIZES = ["15x15", "13x13", "11x11", "21x21"];

const design = {
  socket: null,
  designs: [],   // design objects as the server sends them (grid, words, blocks, quality, themes)
  status: null,  // the last result's status
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// A small picture of a grid: blocks black, letters small.
function miniGrid(rows) {
  const width = rows[0].length;
  const box = el("div", { class: "mini-grid" });
  box.style.gridTemplateColumns = `repeat(${width}, var(--mini))`;
  for (const row of rows) {
    for (const ch of row) {
      box.append(el("div", { class: ch === "#" ? "b" : "", text: ch === "#" || ch === "." ? "" : ch }));
    }
  }
  return box;
}

// The design's blocks and theme entries only: the rest left empty, for a constructor who fills it by hand.
function patternRows(d) {
  const cells = d.grid.map((row) => row.split("").map((ch) => (ch === "#" ? "#" : ".")));
  for (const t of d.themes) {
    for (let k = 0; k < t.word.length; k++) {
      const r = t.row - 1 + (t.direction === "down" ? k : 0);
      const c = t.col - 1 + (t.direction === "across" ? k : 0);
      cells[r][c] = t.word[k];
    }
  }
  return cells.map((row) => row.join(""));
}

// The editor's keys of the design's theme entries (start cell and direction, as state.js keys slots).
function themeKeys(d) {
  const width = d.grid[0].length;
  return d.themes.map((t) => `${(t.row - 1) * width + (t.col - 1)}${t.direction === "down" ? "D" : "A"}`);
}

function qualityText(q) {
  if (!q || q.mean_score === null || q.mean_score === undefined) return "";
  return `mean ${q.mean_score.toFixed(1)}, min ${q.min_score}`;
}

const DESIGN_SYMMETRIES = ["rotational", "mirror", "none"]; // what the designer builds patterns with

// The toolbar's symmetry when the designer builds with it; top-bottom and the diagonals are the editor's only, and a
// design then keeps rotational symmetry (the panel says so).
function currentSymmetry() {
  const select = document.getElementById("symmetry");
  return select && DESIGN_SYMMETRIES.includes(select.value) ? select.value : "rotational";
}

// Open a design in the editor as a new puzzle (undo starts afresh), its theme entries marked as theme.
function openDesign(d, rows) {
  loadPuzzle({ grid: fromRows(rows), theme: themeKeys(d), id: null });
}

export function initDesign({ symmetry = currentSymmetry } = {}) {
  const panel = document.getElementById("design-panel");
  if (!panel) return;
  const themes = el("textarea", { id: "design-themes", rows: "4", placeholder: "one theme entry per line",
    spellcheck: "false", "aria-label": "theme entries" });
  const size = el("select", { id: "design-size", "aria-label": "design size" },
    ...SIZES.map((s) => el("option", { value: s, text: s })));
  const count = el("input", { id: "design-count", type: "number", min: "1", max: "5", value: "2", "aria-label": "designs" });
  const limit = el("input", { id: "design-time", type: "number", min: "5", max: "600", value: "120",
    "aria-label": "design time limit" });
  const start = el("button", { id: "design-start", type: "button", class: "primary", text: "Design grid" });
  const stop = el("button", { id: "design-stop", type: "button", text: "Stop" });
  stop.disabled = true;
  const progress = el("p", { id: "design-progress", class: "progress", role: "status" });
  const preview = el("div", { id: "design-preview", class: "design-preview" });
  const results = el("ol", { id: "design-results", class: "design-results" });
  panel.append(
    el("h2", { text: "Design grid" }),
    el("label", { class: "design-themes" }, "Theme entries", themes),
    el("div", { class: "row" }, el("label", {}, "size ", size), el("label", {}, "designs ", count),
      el("label", {}, "time ", limit, " s")),
    el("div", { class: "row" }, start, stop),
    progress, preview, results,
  );

  function setRunning(on) {
    start.disabled = on;
    stop.disabled = !on;
  }

  function showDesign(d, index) {
    const take = el("button", { type: "button", class: "take", text: "Open in editor" });
    const pattern = el("button", { type: "button", class: "take-pattern", text: "Pattern only" });
    take.addEventListener("click", () => openDesign(d, d.grid));
    pattern.addEventListener("click", () => openDesign(d, patternRows(d)));
    const li = el("li", { "data-index": String(index) },
      miniGrid(d.grid),
      el("div", { class: "design-info" },
        el("div", { text: `${d.words} words, ${d.blocks} blocks` }),
        el("div", { class: "muted", text: qualityText(d.quality) }),
        el("div", { class: "row" }, take, pattern)));
    results.append(li);
  }

  function showAll(list) {
    results.innerHTML = "";
    list.forEach((d, i) => showDesign(d, i + 1));
  }

  start.addEventListener("click", () => {
    if (design.socket) return;
    const words = themes.value.split(/[\n,]+/).map((w) => w.trim()).filter(Boolean);
    design.designs = [];
    design.status = null;
    results.innerHTML = "";
    preview.innerHTML = "";
    delete progress.dataset.status;
    if (!words.length) { progress.textContent = "type at least one theme entry"; return; }
    const request = {
      themes: words, size: size.value, symmetry: symmetry(),
      count: Math.min(5, Math.max(1, Number(count.value) || 1)),
      time_limit_s: Math.min(600, Math.max(5, Number(limit.value) || 120)),
    };
    const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/design`);
    design.socket = socket;
    setRunning(true);
    const chosen = document.getElementById("symmetry");
    progress.textContent = chosen && !DESIGN_SYMMETRIES.includes(chosen.value)
      ? `starting… (the designer builds rotational, left-right or no symmetry: this design is rotational)` : "starting…";
    socket.onopen = () => socket.send(JSON.stringify(withLanguage(request)));
    socket.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "progress") {
        progress.textContent = `${msg.seconds.toFixed(1)} s · ${msg.patterns} patterns · ${msg.cuts} cuts · `
          + `${msg.designs} designs · ${msg.text}`;
        if (msg.grid) { preview.innerHTML = ""; preview.append(miniGrid(msg.grid)); }
      } else if (msg.type === "design") {
        design.designs.push(msg);
        showDesign(msg, design.designs.length);
      } else if (msg.type === "result") {
        design.status = msg.status;
        design.designs = msg.designs;
        showAll(msg.designs);  // best first
        preview.innerHTML = "";
        const n = msg.designs.length;
        progress.textContent = n
          ? `${n} design${n === 1 ? "" : "s"} in ${msg.seconds.toFixed(1)} s (${msg.stats.patterns} patterns tried)`
            + (msg.reason ? `: ${msg.reason}` : "") + ": open one in the editor"
          : `no design (${msg.status}): ${msg.reason}`;
        progress.dataset.status = msg.status;
      } else if (msg.type === "error") {
        progress.textContent = `error: ${msg.error}`;
        progress.dataset.status = "error";
      }
    };
    socket.onclose = () => { design.socket = null; setRunning(false); };
  });
  stop.addEventListener("click", () => {
    if (design.socket && design.socket.readyState === WebSocket.OPEN) design.socket.send(JSON.stringify({ type: "stop" }));
  });
  window.xwcp = Object.assign(window.xwcp || {}, { design });
}
