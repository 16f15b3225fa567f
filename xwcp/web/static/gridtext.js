// @ts-check
// xwcp's text grid syntax in the page (xwcp/model/text.py): grid lines from the server read into the page's grid,
// and the page's grid written back as the lines every request sends. Pure functions, no DOM.
//
// The page's grid: { width, height, cells, bars, marks, numbers, entries, entriesOnly, pairs }:
//   cells    "#" block, "." empty, "A"-"Z" a letter, "STAR" a rebus cell (several letters in one cell); in another
//            language a letter is the pack's code char (alphabet.js), written "[Ñ]" in a row as the server reads it;
//            a Schrödinger cell (in `pairs`) holds "." while both letters are open, else its two letters ("CB",
//            "C." with the second open), as xwcp.model.entries keeps it
//   bars     ["12R", "30B"]: a bar on the right / bottom edge of a cell (flat index row * width + col)
//   marks    { cell: { circle, shaded, color } } for cells with a circle, shading or a colour ("#RRGGBB")
//   numbers  null (the standard numbering) or { cell: number }, a published numbering kept from a file
//   entries  [{ name, cells }]: listed entries (`; entry: NAME = 1,1 2,2`), any white cells in their reading order;
//            a chain (`; chain: NAME = 2 words: 1,1 ...`) has `words`: that many words whose boundaries the fill chooses
//   entriesOnly  true: the listed entries are the only entries (`; entries: listed`), else added to across and down
//   pairs    [cell]: Schrödinger cells (`<CB>`), two letters each, one for each reading of the entries through it
// A grid with no bars, marks, rebus cells or numbering is written as its plain rows, exactly as before.

export const BLOCK = "#";
export const EMPTY = ".";
export const RIGHT = "R";
export const BELOW = "B";

const DIRECTIVE = /^;\s*(colou?rs?|numbers)\s*:\s*(.*)$/i;
const COLOR_ITEM = /^(\d+),(\d+)=(#[0-9A-Fa-f]{6})$/;
const NUMBER_ITEM = /^(\d+),(\d+)=(\d+)$/;
const ENTRY = /^;\s*entry\s*:\s*(.*)$/i;
const ENTRY_BODY = /^(\S+)\s*=\s*(.*)$/;
const ENTRY_CELL = /^(\d+),(\d+)$/;
const ENTRIES_LISTED = /^;\s*entries\s*:\s*(\S*)\s*$/i;
// `; chain: NAME = K words: 1,1 1,2 ...`: a listed entry filled by K words whose boundaries the fill chooses
const CHAIN = /^;\s*chain\s*:\s*(.*)$/i;
const CHAIN_WORDS = /^(\d+)\s+words?\s*:\s*(.*)$/i;
const CHAIN_HELP = "write '; chain: NAME = 2 words: 1,1 1,2 1,3 ...' (how many words, then the chain's cells in order)";
export const ENTRY_NAME = /^[A-Za-z0-9\-_.+*]+$/; // xwcp.model.entries NAME_CHARS: no spaces, '=' or '/'
const ASCII_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
let letterChars = ASCII_LETTERS; // the puzzle's letters as code chars (alphabet.js sets them)
let writtenToken = null; // a cell's token when the server reads letters as written (alphabet.js), else null

export class GridSyntaxError extends Error {}

// The puzzle's language's code chars (one per letter): what counts as a letter below; `token`, when given, writes a
// cell beyond A-Z for a server that reads the language's letters as written (Ñ bare, Dutch IJ as "{IJ}").
export function setLetterChars(chars, token = null) { letterChars = chars; writtenToken = token; }

// True for one or more letters of the puzzle's language (code chars).
export function isLetters(text) {
  if (!text) return false;
  for (const ch of text) if (!letterChars.includes(ch)) return false;
  return true;
}

// A cell the plain rows of the server's syntax carry as one character: a block, an empty cell, a letter A-Z.
function isPlainCell(cell) {
  return cell.length === 1 && (cell === BLOCK || cell === EMPTY || (cell >= "A" && cell <= "Z"));
}

// A cell's contents as a token: "#", ".", a letter A-Z, else "[...]" (a rebus, a symbol, a letter beyond A-Z).
export function contentToken(cell) {
  if (isPlainCell(cell)) return cell;
  return (writtenToken && writtenToken(cell)) || `[${cell}]`;
}

// True for a cell of several letters or a symbol (not one letter of the puzzle's language). Called per cell on every
// keystroke: one character is compared, not matched.
export function isRebus(cell) {
  return cell.length !== 1 || (cell !== BLOCK && cell !== EMPTY && !(cell >= "A" && cell <= "Z") && !letterChars.includes(cell));
}

export function hasMark(mark) { return !!mark && (!!mark.circle || !!mark.shaded || !!mark.color); }

// True for a grid the old plain rows describe fully (blocks and one-letter cells only).
export function isPlain(grid) {
  return !(grid.bars && grid.bars.length) && !Object.keys(grid.marks || {}).length && !grid.numbers
    && !hasVariety(grid) && grid.cells.every(isPlainCell);
}

// True for a grid with listed entries or Schrödinger cells (xwcp's Grid.has_variety).
export function hasVariety(grid) {
  return !!((grid.entries && grid.entries.length) || grid.entriesOnly || (grid.pairs && grid.pairs.length));
}

// The two letters of a Schrödinger cell's contents ("." for one still open).
export function pairLetters(content) {
  return content && content.length === 2 ? [content[0], content[1]] : [EMPTY, EMPTY];
}

// A Schrödinger cell's contents from its two letters: "." when both are open.
export function pairContent(first, second) {
  return first === EMPTY && second === EMPTY ? EMPTY : first + second;
}

// A letter typed into a Schrödinger cell holding `content`: its first letter, then its second; a cell with both
// letters starts again with the first. `done`: both letters are in (the cursor moves on).
export function pairTyped(content, letter) {
  const [first, second] = pairLetters(content);
  const now = first !== EMPTY && second === EMPTY ? pairContent(first, letter)
    : pairContent(letter, first === EMPTY ? second : EMPTY);
  return { content: now, done: !now.includes(EMPTY) };
}

// Backspace on a Schrödinger cell holding `content`: its second letter goes first, then its first.
export function pairErased(content) {
  const [first, second] = pairLetters(content);
  return second !== EMPTY ? pairContent(first, EMPTY) : EMPTY;
}

// A grid with the optional parts filled in (bars [], marks {}, numbers null): what the page keeps.
export function normalized(grid) {
  return { width: grid.width, height: grid.height, cells: grid.cells.slice(), bars: (grid.bars || []).slice(),
           marks: structuredClone(grid.marks || {}), numbers: grid.numbers ? { ...grid.numbers } : null,
           entries: (grid.entries || []).map((e) => ({ name: e.name, cells: e.cells.slice(), ...(e.words > 1 ? { words: e.words } : {}) })),
           entriesOnly: !!grid.entriesOnly, pairs: (grid.pairs || []).slice().sort((a, b) => a - b) };
}

function parseRow(line, rowNumber) {
  const row = { cells: [], circles: [], shades: [], pairs: new Set(), barAfter: new Set(), spans: [] };
  let pos = line.length - line.trimStart().length;
  const end = line.length;
  const fail = (problem) => new GridSyntaxError(`row ${rowNumber}, column ${row.cells.length + 1}: ${problem}`);
  while (pos < end) {
    if (line[pos] === "|") {
      if (!row.cells.length || row.barAfter.has(row.cells.length - 1)) throw fail("a bar '|' must stand between two cells");
      row.barAfter.add(row.cells.length - 1);
      pos++;
      continue;
    }
    const start = pos;
    let circle = false, shaded = false;
    if (line[pos] === "(") { circle = true; pos++; }
    if (pos < end && line[pos] === "{" && !/^\{[^[\]{}()#.|\s]{2,}\}/u.test(line.slice(pos))) { shaded = true; pos++; }
    if (pos >= end) throw fail("a mark '(' or '{' is not closed");
    const ch = line[pos];
    let content;
    const letter = ch === "{" ? /^\{([^[\]{}()#.|\s]{2,})\}/u.exec(line.slice(pos)) : null;
    if (letter) { // "{IJ}": a letter of several characters, written (the server's syntax for a language)
      content = letter[1].toUpperCase();
      pos += letter[0].length;
    } else if (ch === "[") {
      const close = line.indexOf("]", pos);
      const inner = close > 0 ? line.slice(pos + 1, close).replace(/[{}]/g, "") : ""; // "[{IJ}S]": IJ and S
      if (close < 0 || !inner || /[\s[\]#]/.test(inner) || inner === EMPTY) throw fail("a rebus cell needs letters inside [ ]");
      content = inner.toUpperCase();
      pos = close + 1;
    } else if (ch === "<") { // "<CB>": a Schrödinger cell, "." for a letter still open
      const close = line.indexOf(">", pos);
      const inner = close > 0 ? [...line.slice(pos + 1, close)] : [];
      if (inner.length !== 2 || inner.some((x) => x !== EMPTY && !/^\p{L}$/u.test(x))) {
        throw fail("a Schrödinger cell holds two letters inside < > ('.' for one still open: <..>, <C.>)");
      }
      content = pairContent(...inner.map((x) => x.toUpperCase()));
      row.pairs.add(row.cells.length);
      pos = close + 1;
    } else if (ch === BLOCK) { content = BLOCK; pos++; }
    else if (".?_".includes(ch)) { content = EMPTY; pos++; }
    else if (/^[A-Za-z]$/.test(ch)) { content = ch.toUpperCase(); pos++; }
    else if (/^\p{L}$/u.test(ch)) { // a letter beyond A-Z, with the marks written on it (an akshara): the page reads
      const letter = /^\p{L}\p{M}*/u.exec(line.slice(pos))[0]; // it in the puzzle's language (alphabet.cellFromText)
      content = letter.toUpperCase().length === letter.length ? letter.toUpperCase() : letter;
      pos += letter.length;
    }
    else throw fail(`unexpected character ${JSON.stringify(ch)}`);
    for (const [opened, closer] of [[shaded, "}"], [circle, ")"]]) {
      if (!opened) continue;
      if (pos >= end || line[pos] !== closer) throw fail(`expected '${closer}' to close the mark`);
      pos++;
    }
    row.cells.push(content);
    row.circles.push(circle);
    row.shades.push(shaded);
    row.spans.push([start, pos]);
  }
  return row;
}

function directiveItems(line, pattern) {
  const match = DIRECTIVE.exec(line);
  if (!match) return null;
  const items = match[2].split(/\s+/).filter(Boolean);
  const parsed = items.map((item) => pattern.exec(item));
  if (!items.length || !parsed.every(Boolean)) return null;
  return parsed.map((m) => m.slice(1));
}

// The page's grid from grid lines (the server's `grid` lines, a preset, a text file's rows).
// Throws GridSyntaxError on what xwcp.model.parse_grid refuses too.
export function parseLines(lines) {
  const rows = [];
  const below = [];
  const colors = [];
  const numbers = [];
  /** @type {Array<[string, boolean]>} */
  const entryLines = [];
  let entriesOnly = false;
  for (const raw of lines) {
    const line = raw.trimEnd();
    const stripped = line.trim();
    if (!stripped) continue;
    if (stripped.startsWith(";")) {
      const chain = CHAIN.exec(stripped);
      if (chain) { entryLines.push([chain[1], true]); continue; }
      const entry = ENTRY.exec(stripped);
      if (entry) { entryLines.push([entry[1], false]); continue; }
      const listed = ENTRIES_LISTED.exec(stripped);
      if (listed) {
        if (listed[1].toLowerCase() !== "listed") throw new GridSyntaxError(`'; entries: ${listed[1]}': write '; entries: listed'`);
        entriesOnly = true;
        continue;
      }
      const kind = DIRECTIVE.exec(stripped);
      if (kind) {
        const isColor = kind[1].toLowerCase().startsWith("col");
        const items = directiveItems(stripped, isColor ? COLOR_ITEM : NUMBER_ITEM);
        if (items) (isColor ? colors : numbers).push(...items);
      }
      continue;
    }
    if (/^[- ]+$/.test(line)) {
      if (!rows.length) throw new GridSyntaxError("a bar line ('-' under cells) must come right after a grid row");
      const above = rows[rows.length - 1];
      for (let offset = 0; offset < line.length; offset++) {
        if (line[offset] !== "-") continue;
        const col = above.spans.findIndex(([a, b]) => a <= offset && offset < b);
        if (col < 0) throw new GridSyntaxError(`the bar '-' at character ${offset + 1} is under no cell of row ${rows.length}`);
        below.push([rows.length - 1, col]);
      }
      continue;
    }
    rows.push(parseRow(line, rows.length + 1));
  }
  if (!rows.length) throw new GridSyntaxError("the grid has no rows");
  const width = rows[0].cells.length, height = rows.length;
  rows.forEach((row, index) => {
    if (row.cells.length !== width) {
      throw new GridSyntaxError(`row ${index + 1} has ${row.cells.length} cells but row 1 has ${width}`);
    }
  });
  const cells = rows.flatMap((row) => row.cells);
  const bars = new Set();
  rows.forEach((row, r) => row.barAfter.forEach((c) => { if (c < width - 1) bars.add(`${r * width + c}${RIGHT}`); }));
  for (const [r, c] of below) if (r < height - 1) bars.add(`${r * width + c}${BELOW}`);
  const marks = {};
  rows.forEach((row, r) => row.cells.forEach((_, c) => {
    if (row.circles[c] || row.shades[c]) marks[r * width + c] = { circle: row.circles[c], shaded: row.shades[c], color: null };
  }));
  const cellAt = (rText, cText) => {
    const r = Number(rText), c = Number(cText);
    if (r < 1 || r > height || c < 1 || c > width) throw new GridSyntaxError(`cell ${r},${c} is outside the ${width}x${height} grid`);
    return (r - 1) * width + (c - 1);
  };
  for (const [r, c, color] of colors) {
    const cell = cellAt(r, c);
    marks[cell] = { circle: false, shaded: false, ...(marks[cell] || {}), color: color.toUpperCase() };
  }
  let own = null;
  for (const [r, c, n] of numbers) (own ||= {})[cellAt(r, c)] = Number(n);
  const pairs = [];
  rows.forEach((row, r) => row.pairs.forEach((c) => pairs.push(r * width + c)));
  const entries = entryLines.map(([body, chain]) => parseEntry(body, cells, cellAt, chain));
  const problem = entriesProblem(entries, cells);
  if (problem) throw new GridSyntaxError(problem);
  return { width, height, cells, bars: sortBars([...bars]), marks, numbers: own, entries, entriesOnly,
           pairs: pairs.sort((a, b) => a - b) };
}

const ENTRY_HELP = "write '; entry: NAME = 1,1 2,2 3,3' (the entry's cells in reading order, row,column from 1)";

// One `; entry: NAME = r,c ...` line's entry { name, cells }, or with `chain` one `; chain: NAME = K words: r,c ...`
// line's { name, cells, words: K } (xwcp.model.text).
function parseEntry(body, cells, cellAt, chain = false) {
  const help = chain ? CHAIN_HELP : ENTRY_HELP;
  const match = ENTRY_BODY.exec(body.trim());
  if (!match) throw new GridSyntaxError(`${chain ? "chain" : "entry"} line '${body}': ${help}`);
  let listed = match[2];
  let words = 1;
  if (chain) {
    const count = CHAIN_WORDS.exec(listed.trim());
    if (!count || Number(count[1]) < 2) throw new GridSyntaxError(`chain ${match[1]}: say how many words fill it, two or more (${help})`);
    words = Number(count[1]);
    listed = count[2];
  }
  const items = listed.split(/\s+/).filter(Boolean);
  const places = items.map((item) => ENTRY_CELL.exec(item));
  const bad = items.find((_, i) => !places[i]);
  if (bad !== undefined) throw new GridSyntaxError(`entry ${match[1]}: '${bad}' is no cell; ${help}`);
  const entry = { name: match[1].toUpperCase(), cells: places.map((m) => cellAt(m[1], m[2])) };
  return words > 1 ? { ...entry, words } : entry;
}

// Why `entries` do not fit the grid's cells (xwcp.model.entries.entry_problem), or "" when they do.
export function entriesProblem(entries, cells) {
  const seen = new Set();
  for (const entry of entries) {
    if (!ENTRY_NAME.test(entry.name)) return `entry name '${entry.name}': use letters, digits and -_.+* only`;
    if (seen.has(entry.name)) return `two entries are named ${entry.name}`;
    seen.add(entry.name);
    if (entry.cells.length < 2) return `entry ${entry.name} has ${entry.cells.length} cell(s); an entry needs at least two`;
    if (new Set(entry.cells).size !== entry.cells.length) return `entry ${entry.name} goes through a cell twice`;
    if (entry.cells.some((cell) => cells[cell] === BLOCK)) return `entry ${entry.name} goes through a block`;
    const words = entry.words || 1;
    if (!Number.isInteger(words) || words < 1) return `entry ${entry.name}: ${words} words; an entry holds one word or more`;
    if (entry.cells.length < 2 * words) {
      return `chain ${entry.name} has ${entry.cells.length} cells: too few for ${words} words of two letters or more`;
    }
  }
  return "";
}

export function sortBars(bars) {
  return bars.sort((a, b) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b));
}

// The grid's lines as xwcp.model.grid_lines writes them: plain rows for a plain grid, else the full syntax.
export function gridLines(grid) {
  const { width, height, cells } = grid;
  if (isPlain(grid)) {
    const rows = [];
    for (let r = 0; r < height; r++) rows.push(cells.slice(r * width, (r + 1) * width).join(""));
    return rows;
  }
  const bars = new Set(grid.bars || []);
  const marks = grid.marks || {};
  const marked = Object.keys(marks).map(Number).filter((cell) => hasMark(marks[cell])).sort((a, b) => a - b);
  const place = (cell) => `${Math.floor(cell / width) + 1},${(cell % width) + 1}`;
  const lines = [];
  const colors = marked.filter((cell) => marks[cell].color);
  if (colors.length) lines.push("; colors: " + colors.map((cell) => `${place(cell)}=${marks[cell].color}`).join(" "));
  if (grid.numbers) {
    const own = Object.keys(grid.numbers).map(Number).sort((a, b) => a - b);
    lines.push("; numbers: " + own.map((cell) => `${place(cell)}=${grid.numbers[cell]}`).join(" "));
  }
  if (grid.entriesOnly) lines.push("; entries: listed");
  for (const entry of grid.entries || []) {
    const chain = (entry.words || 1) > 1;
    lines.push(`; ${chain ? "chain" : "entry"}: ${entry.name} = ${chain ? `${entry.words} words: ` : ""}${entry.cells.map(place).join(" ")}`);
  }
  const pairs = new Set(grid.pairs || []);
  for (let r = 0; r < height; r++) {
    let text = "";
    const under = [];
    for (let c = 0; c < width; c++) {
      const cell = r * width + c;
      let token = pairs.has(cell) ? `<${pairLetters(cells[cell]).join("")}>` : contentToken(cells[cell]);
      const mark = marks[cell];
      if (mark && mark.shaded) token = `{${token}}`;
      if (mark && mark.circle) token = `(${token})`;
      if (bars.has(`${cell}${BELOW}`)) under.push(text.length);
      text += token;
      if (bars.has(`${cell}${RIGHT}`)) text += "|";
    }
    lines.push(text);
    if (under.length) {
      const line = Array(under[under.length - 1] + 1).fill(" ");
      for (const offset of under) line[offset] = "-";
      lines.push(line.join(""));
    }
  }
  return lines;
}
