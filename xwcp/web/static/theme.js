// Theme entries: mark the entry under the cursor as theme (locked against edits and blocks, highlighted, kept
// by autofill as entered letters are, listed apart in the statistics); undone like any grid edit.
import { commit, currentSlot, isTheme, on, say, slotKey, state } from "./state.js";

const $ = (id) => document.getElementById(id);

function toggle() {
  const slot = currentSlot();
  if (!slot || state.mode === "solve") return;
  const key = slotKey(slot);
  const theme = isTheme(slot) ? state.theme.filter((k) => k !== key) : [...state.theme, key];
  commit({ theme }, { theme: true });
  say(isTheme(slot) ? `${slot.name} is a theme entry: its letters are locked` : `${slot.name} is no longer a theme entry`);
}

function show() {
  const slot = currentSlot();
  const button = $("theme-toggle");
  button.disabled = !slot || state.mode === "solve";
  button.setAttribute("aria-pressed", isTheme(slot) ? "true" : "false");
}

export function initTheme() {
  $("theme-toggle").onclick = toggle;
  for (const event of ["select", "edit", "puzzle", "mode"]) on(event, show);
}
