// @ts-check
// The puzzle's language in the page: its pack's letters (GET /api/languages, xwcp/model/alphabet.py), typed text
// turned into letters, and letters shown as the language writes them. Pure functions over a pack, no DOM.
//
// A cell holds one CODE CHAR per letter, as the server's grid does: the letter itself when it is one code point
// ("Ñ", "Ж", "א"), else the private-use char U+E000 + its index (Dutch "IJ"); a rebus cell holds several. Requests
// send a non-ASCII letter as "[Ñ]" in a row (gridtext.js), answers give code chars back; cells are shown through
// `written` ("IJ").
import { setLetterChars } from "./gridtext.js";

const ASCII = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const PRIVATE_BASE = 0xe000;

export const ENGLISH = makePack({ code: "en", name: "English", letters: ASCII.split(""), direction: "ltr", list: null });

let packs = [ENGLISH];
let current = ENGLISH;

// A pack from GET /api/languages' object: its code chars, and its letters longest first for cutting typed text.
export function makePack(data) {
  const letters = data.letters.slice();
  const chars = data.chars || letters.map((l, i) => (l.length === 1 ? l : String.fromCharCode(PRIVATE_BASE + i))).join("");
  const charByLetter = new Map(letters.map((l, i) => [l, chars[i]]));
  const letterByChar = new Map(letters.map((l, i) => [chars[i], l]));
  const longest = Math.max(...letters.map((l) => l.length));
  return { ...data, letters, chars, charByLetter, letterByChar, longest,
           beyond: letters.filter((l) => !(l.length === 1 && ASCII.includes(l))) };
}

// The server either gives its process's code chars (`chars`: requests carry them, "[Ñ]") or reads letters as
// written (no `chars`: "Ñ" bare, "{IJ}"); the page keeps code chars of its own in the second case.
let serverWritten = false;

export function setPacks(list) {
  serverWritten = list.length > 0 && !list.some((p) => typeof p.chars === "string");
  packs = list.map(makePack);
  if (!packs.some((p) => p.code === "en")) packs.unshift(ENGLISH);
}

export function readsWritten() { return serverWritten; }

// A cell's token in a request to a server that reads letters as written: Ñ bare, "{IJ}", a rebus "[{IJ}S]"; null for
// what the ordinary "[...]" carries.
function writtenToken(cell) {
  const parts = [...cell].map((ch) => current.letterByChar.get(ch));
  if (!parts.length || parts.some((letter) => !letter)) return null;
  const token = parts.map((letter) => (letter.length === 1 ? letter : `{${letter}}`)).join("");
  return parts.length === 1 ? token : `[${token}]`;
}

export function allPacks() { return packs; }

export function packOf(code) { return packs.find((p) => p.code === code) || ENGLISH; }

// The puzzle's pack: what typing, showing and the grid syntax's letters follow.
export function usePack(code) {
  current = packOf(code);
  setLetterChars(current.chars, serverWritten ? writtenToken : null);
  return current;
}

export function pack() { return current; }

export function isRtl(p = current) { return p.direction === "rtl"; }

// A cell's (or a word's) text as the language writes it: "\uE00BS" -> "IJS" in Dutch; other text unchanged.
export function written(text, p = current) {
  if (!text || p.longest === 1) return text;
  let out = "";
  for (const ch of text) { const letter = p.letterByChar.get(ch); out += letter && letter.length > 1 ? letter : ch; }
  return out;
}

// A cell's (or a word's) text as written where an entry ends: its last letter in its final form when the pack has
// one (Hebrew מ -> ם: the server's `final_cells` rule, a cell ending an entry across or down); else `written`.
export function writtenAtEnd(text, p = current) {
  const shown = written(text, p);
  const form = p.final && shown ? p.final[shown.slice(-1)] : undefined;
  return form ? shown.slice(0, -1) + form : shown;
}

// Upper case the language's way (Turkish i -> İ, ı -> I), a character at a time.
function upper(text, p = current) {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    let up;
    try { up = ch.toLocaleUpperCase(p.code); } catch { up = ch.toUpperCase(); } // a user's pack code: no locale
    out += up.length === 1 ? up : ch; // ß stays ß (its upper case is two letters)
  }
  return out;
}

// One character (already upper case) folded into letters when it is none itself: as the pack's own fold map writes
// it (Hebrew final ם -> מ, Romanian cedilla Ş -> Ș, German ß -> SS: the server's `fold`, as its lists read it), else
// its compatibility form (Dutch "Ĳ" -> "IJ"), else without its accents ("É" -> "E") when that is letters; null when
// none is.
function folded(ch, p) {
  const own = p.fold && Object.hasOwn(p.fold, ch) ? cut(upper(p.fold[ch], p), p, false) : null;
  if (own) return own;
  for (const form of [ch.normalize("NFKC"), ch.normalize("NFD").replace(/\p{M}/gu, "")]) {
    if (form !== ch && cut(upper(form, p), p, false)) return cut(upper(form, p), p, false);
  }
  return null;
}

// Typed or pasted text as code chars, each letter taken longest first ("IJS" -> IJ, S in Dutch); code chars pass as
// themselves. Returns null when some character is no letter of the pack (and does not fold into one).
export function cut(text, p = current, fold = true) {
  const out = [];
  let i = 0;
  const chars = [...text];
  while (i < chars.length) {
    let taken = false;
    for (let size = Math.min(p.longest, chars.length - i); size > 0 && !taken; size--) {
      const part = chars.slice(i, i + size).join("");
      const code = p.charByLetter.get(part) || (size === 1 && p.letterByChar.has(part) ? part : null);
      if (code) { out.push(code); i += size; taken = true; }
    }
    if (taken) continue;
    const alt = fold ? folded(chars[i], p) : null;
    if (!alt) return null;
    out.push(...alt);
    i++;
  }
  return out.length ? out : null;
}

// What the user typed (a key, an input method's text, a letter button): code chars, or null with nothing to type.
// Spaces and punctuation are dropped; a character outside the pack makes the answer { bad: the character }.
export function typed(text, p = current) {
  const cleaned = upper(text, p).replace(/[\s\-'’.·]/g, "");
  if (!cleaned) return null;
  if (p.open) return { letters: aksharas(cleaned, p) };
  const letters = cut(cleaned, p);
  if (letters) return { letters };
  const bad = [...cleaned].find((ch) => !cut(ch, p));
  return { bad: bad || cleaned };
}

// An open pack's letters (Hindi: any akshara is one, a consonant with its signs): the text's grapheme clusters, each
// a cell, a letter of the pack as its code char, any other akshara as written (the server's list knows it).
function aksharas(text, p) {
  const segmenter = new Intl.Segmenter(p.code, { granularity: "grapheme" });
  return [...segmenter.segment(text)].map(({ segment }) => p.charByLetter.get(segment) || segment);
}

// A cell's content read from a file or a link in the pack's letters: a letter written in full ("IJ", "ñ") becomes
// its code char; anything else (a rebus, a symbol) is kept as it is.
export function cellFromText(text, p = current) {
  if (text === "#" || text === "." || (text.length === 1 && p.letterByChar.has(text))) return text;
  if (p.code === "en") return text; // English cells are read as ever
  const letters = cut(upper(text, p), p, false); // "IJ" is Dutch's one letter; a rebus "IJS" is IJ and S
  if (letters) return letters.join("");
  const one = text.length === 1 ? cut(upper(text, p), p) : null; // a variant the pack folds: Hebrew's final ם is מ
  return one && one.length === 1 ? one[0] : text;
}

// The two letters typed one after the other that the pack writes as one letter ("I" then "J" -> "IJ"), as a code
// char; in an open pack (Hindi) the akshara typed so far with the next piece (क then ि -> कि); else null.
export function joined(before, after, p = current) {
  if (!before || !after) return null;
  if (p.open) { // an akshara typed a piece at a time: a vowel sign or mark joins it, and after a virama a consonant
    const prev = written(before, p);
    return /^\p{M}/u.test(after) || /\u094D$/.test(prev) ? prev + written(after, p) : null;
  }
  if (p.longest === 1) return null;
  return p.charByLetter.get(written(before, p) + written(after, p)) || null;
}
