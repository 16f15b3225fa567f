// @ts-check
// The suggestion list's filter box: what a filter's text means (the server's per-slot filters: ~REGEX, +TEXT,
// -TEXT, !WORD, and @personal: only your personal list's words), checked here first so a half-typed filter says
// what is wrong instead of asking the server.

/** The signs a filter starts with, and what each asks of the slot's word. */
export const FILTER_SIGNS = { "~": "matches the pattern", "+": "contains", "-": "lacks", "!": "is not" };

/**
 * Why `text` is not a filter, or "" when it is one (or is empty: no filter).
 * @param {string} text the filter box's text
 * @returns {string}
 */
export function filterProblem(text) {
  const t = text.trim();
  if (!t) return "";
  const sign = t[0];
  const body = t.slice(1).trim();
  if (sign === "@") return body.toLowerCase() === "personal" ? "" : "@personal is the one list a filter can name";
  if (!(sign in FILTER_SIGNS)) return "start with ~ (pattern), + (contains), - (lacks), ! (not this word) or @personal";
  if (!body) return `${sign} needs ${sign === "~" ? "a pattern" : "letters"} after it`;
  if (sign === "~") {
    try { new RegExp(`^(?:${body})$`, "iu"); } catch (err) { return `not a pattern: ${err instanceof Error ? err.message : err}`; }
    return "";
  }
  if (!/^[\p{L}\p{M}' -]+$/u.test(body)) return "letters only after the sign";
  return "";
}

/**
 * Does `word` (as written, upper case) pass the filter `text`? The server applies filters to the whole slot;
 * the page uses this to keep the list it shows consistent while the next answer is on its way.
 * @param {string} text a filter (`filterProblem(text) === ""`)
 * @param {string} word
 * @returns {boolean}
 */
export function filterKeeps(text, word) {
  const t = text.trim();
  if (!t || filterProblem(t) || t[0] === "@") return true; // @personal: the server knows the list
  const sign = t[0];
  const body = t.slice(1).trim().toUpperCase().replace(/[ '-]/g, "");
  const upper = word.toUpperCase();
  if (sign === "~") return new RegExp(`^(?:${t.slice(1).trim()})$`, "iu").test(upper);
  if (sign === "+") return upper.includes(body);
  if (sign === "-") return !upper.includes(body);
  return upper !== body;
}
