"""Open every puzzle file of a folder with `xwcp check`, and compare what xwcp reads with each format's own reader.

Usage:
    python3 bench/puzzle_sweep.py FOLDER [--tree PATH] [--time-limit S] [--out TABLE.md]

For each .puz, .ipuz, .xd and .jpz file under FOLDER (recursively) this runs
`python3 -m xwcp check FILE --format json` from the xwcp checkout at --tree (default: this
one) and records the exit code: 0, 1 or 3 mean the file opened; 2 is a refusal, whose one line
is kept; anything else is a failure. Then it reads the file with that checkout's
`xwcp.formats.read_puzzle` and compares the grid and the clues with the file's own reader:
puzpy for .puz (after the two header repairs xwcp warns about: a missing
version, a clue count with its bytes swapped), the raw JSON for .ipuz, xdformat for .xd, the XML itself for .jpz (blocks,
letters and rebus strings, circles, bars, each clue on the entry its file gives it, clue text
compared on its ASCII letters). A variety puzzle (a clue list other than Across and Down, entries
given as cells that are not across and down runs: Patchwork, Two-Tone, Rows Garden, Marching
Bands, a diagonal clue) must be read exactly as its reader shows it: every clue of every list on
an entry of exactly its cells with its text, no entry the file does not list, clues placed on no
cells kept, the lists' titles in order and the labels its cells print. Reading it as across/down
is a misread; refusing one that its reader reads is counted apart ("variety refused").

Prints a table (file, format, opens, exit code, why, reads as its reader) and the counts.
The folder is not part of the repository: bench/README.md says how the collection was built.
"""

from __future__ import annotations

import argparse
import html.entities
import io
import json
import os
import re
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

SUFFIXES = (".puz", ".ipuz", ".xd", ".jpz")
HERE = Path(__file__).resolve().parent.parent


# ----- the reference views: what each file's own reader shows ---------------------------------


class View:
    """What a file's own reader shows: blocks, letters, circles, bars, and clues placed on entries."""

    def __init__(self, width: int, height: int):
        self.width, self.height = width, height
        self.blocks: set[int] = set()
        self.letters: dict[int, str] = {}  # cell -> contents, where the file gives them
        self.circles: set[int] | None = None  # None: the reader does not say
        self.bars: set[tuple[int, str]] | None = None
        self.entries: list[tuple[str, tuple[int, ...] | None, int | None, str]] = []
        # (direction A/D, cells or None, number or None, clue text)
        self.answers: dict[str, str] = {}  # slot name -> answer the file spells (xd)
        self.dot_cells: set[int] = set()  # xd '.' cells: block or empty, the answers decide
        self.letters_checked_by = None  # locked .puz: a function that tells if letters fit
        self.variety: str | None = None  # why the file is a variety puzzle (its listed entries must be read)
        self.listed: list[tuple[str, str, tuple[int, ...] | None, str]] = []
        # every clue of every list: (list title, label, cells or None, clue text)
        self.labels: set[tuple[int, str, str]] | None = None  # (cell, corner, text) the cells print
        self.title: str | None = None


def _bars(width: int, height: int, items) -> set[tuple[int, str]]:
    out = set()
    for cell, side in items:
        r, c = divmod(cell, width)
        if side == "L":
            r, c, side = r, c - 1, "R"
        elif side == "T":
            r, c, side = r - 1, c, "B"
        if r < 0 or c < 0 or (side == "R" and c >= width - 1) or (side == "B" and r >= height - 1):
            continue
        out.add((r * width + c, side))
    return out


def _repaired_header(data: bytes) -> bytes:
    """The two header repairs xwcp makes with a warning, so that puzpy can be asked about the rest: a missing
    version read as 1.3, a clue count with its bytes swapped."""
    import struct

    start = data.find(b"ACROSS&DOWN") - 2
    if start < 0 or len(data) < start + 52:
        return data
    if not re.fullmatch(rb"\d\.\d.", data[start + 24 : start + 28], re.DOTALL):
        data = data[: start + 24] + b"1.3\x00" + data[start + 28 :]
    width, height, n_clues = struct.unpack_from("<BBH", data, start + 44)
    n_strings = data[start + 52 + 2 * width * height :].count(b"\x00")
    swapped = (n_clues >> 8) | ((n_clues & 0xFF) << 8)
    if n_strings < 3 + n_clues and 0 < swapped <= 2 * width * height and n_strings >= 3 + swapped:
        data = data[: start + 46] + struct.pack("<H", swapped) + data[start + 48 :]
    return data


def puz_view(path: Path) -> tuple[View | None, str]:
    import puz

    data = _repaired_header(path.read_bytes())
    p = puz.Puzzle()
    try:
        p.load(data)
    except puz.PuzzleFormatError as exc:
        if "checksum does not match" not in exc.message:
            return None, f"puzpy: {exc.message}"
    except Exception as exc:  # noqa: BLE001 - whatever puzpy raises, it does not open the file
        return None, f"puzpy: {exc.__class__.__name__}: {exc}"
    view = View(p.width, p.height)
    view.blocks = {i for i, ch in enumerate(p.solution) if ch in ".:"}
    rebus = p.rebus() if p.has_rebus() else None
    if p.is_solution_locked():

        def fits(letters: str) -> bool:  # the file's own block characters, xwcp's letters elsewhere
            return p.check_answers("".join(a if a in ".:" else b for a, b in zip(p.solution, letters)))

        view.letters_checked_by = fits
    elif p.solution_state != 0x0002:
        for i, ch in enumerate(p.solution):
            if i in view.blocks:
                continue
            if rebus is not None and rebus.is_rebus_square(i):
                view.letters[i] = rebus.get_rebus_solution(i).upper()
            elif ch != "-" and not ch.isspace():
                view.letters[i] = ch.upper()
    view.circles = set(p.markup().get_markup_squares(puz.GridMarkup.Circled)) if p.has_markup() else set()
    view.bars = set()
    try:
        numbering = p.clue_numbering()
        for direction, items in (("A", numbering.across), ("D", numbering.down)):
            for entry in items:
                step = 1 if direction == "A" else p.width
                cells = tuple(entry["cell"] + k * step for k in range(entry["len"]))
                view.entries.append((direction, cells, entry["num"], entry["clue"] or ""))
    except IndexError:
        pass  # clue count does not match the grid: puzpy places no clues
    view.title = p.title
    return view, ""


def ipuz_view(path: Path) -> tuple[View | None, str]:
    text = path.read_text(encoding="utf-8-sig").strip()
    if text.startswith("ipuz(") and text.endswith(")"):
        text = text[5:-1]
    try:
        data = json.loads(text)
        width, height = int(data["dimensions"]["width"]), int(data["dimensions"]["height"])
        puzzle = data["puzzle"]
    except Exception as exc:  # noqa: BLE001
        return None, f"json: {exc.__class__.__name__}: {exc}"
    view = View(width, height)
    kinds = [str(k) for k in data.get("kind") or []]
    if kinds and not any(k.startswith("http://ipuz.org/crossword") for k in kinds):
        view.variety = f"kind {kinds[0]}"
    diagramless = any("diagramless" in k for k in kinds)
    block, empty = str(data.get("block", "#")), str(data.get("empty", "0"))
    solution = data.get("solution") or None
    styles = data.get("styles") if isinstance(data.get("styles"), dict) else {}
    view.circles, bars, numbers = set(), [], {}
    view.labels = set()
    for r in range(height):
        for c in range(width):
            cell = r * width + c
            raw = puzzle[r][c]
            value = raw.get("cell", 0) if isinstance(raw, dict) else raw
            sol = solution[r][c] if solution else None
            if isinstance(sol, dict):
                sol = sol.get("value")
            style = raw.get("style") if isinstance(raw, dict) else None
            style = styles.get(style) if isinstance(style, str) else style
            if value is None or str(value) == block or sol == block:
                view.blocks.add(cell)
                if isinstance(style, dict):  # a block's bars are on its edges all the same
                    bars += [(cell, s) for s in str(style.get("barred", "")).upper() if s in "TLRB"]
                continue
            if isinstance(value, (str, int)) and str(value).strip() not in ("", block, empty, "0", "#", "_"):
                view.labels.add((cell, "TL", str(value).strip()))
            if isinstance(style, dict) and isinstance(style.get("mark"), dict):
                view.labels |= {(cell, k, str(v).strip()) for k, v in style["mark"].items() if str(v).strip()}
            if isinstance(style, dict):
                if str(style.get("shapebg", "")).lower() == "circle":
                    view.circles.add(cell)
                bars += [(cell, s) for s in str(style.get("barred", "")).upper() if s in "TLRB"]
            if str(value).isdigit() and int(value) > 0:
                numbers[int(value)] = cell
            if isinstance(sol, str) and sol.strip() and sol.strip() not in (empty, "0", ".", "_"):
                view.letters[cell] = "".join(sol.split()).upper()
    view.bars = _bars(width, height, bars)
    clues = data.get("clues") if isinstance(data.get("clues"), dict) else {}
    base = (
        0
        if any(
            0 in pair
            for items in clues.values()
            if isinstance(items, list)
            for item in items
            if isinstance(item, dict)
            for pair in item.get("cells") or ()
            if isinstance(pair, list)
        )
        else 1
    )
    for key, items in clues.items():
        direction = {"across": "A", "down": "D"}.get(str(key).split(":")[0].strip().lower())
        if not isinstance(items, list):
            continue
        if direction is None and items:
            view.variety = f"clue set {key}"
        for item in items:
            number, clue, cells = None, "", None
            if isinstance(item, list) and len(item) >= 2:
                number, clue = item[0], item[1]
            elif isinstance(item, dict):
                number, clue, cells = item.get("number"), item.get("clue"), item.get("cells")
            elif isinstance(item, str):
                clue = item
            if cells:
                cells = tuple((int(y) - base) * width + (int(x) - base) for x, y in cells)
            n = int(number) if str(number).strip().isdigit() else None
            clue = clue if isinstance(clue, str) else ""
            view.listed.append((str(key), "" if number is None else str(number), cells or None, clue))
            if direction is not None:
                view.entries.append((direction, cells, n, clue))
    view.numbers = {} if diagramless else numbers
    view.title = data.get("title") if isinstance(data.get("title"), str) else ""
    return view, ""


def xd_view(path: Path) -> tuple[View | None, str]:
    import xdformat

    try:
        xd = xdformat.xdfile(path.read_text(encoding="utf-8"), filename=str(path))
        for key in [k for k in xd.headers if k.lower() == "rebus" and k != "Rebus"]:  # the header in any case
            xd.headers["Rebus"] = xd.headers[key]
        rebus = xd.rebus()
    except Exception as exc:  # noqa: BLE001
        return None, f"xdformat: {exc.__class__.__name__}: {exc}"
    rows = [row.strip() for row in xd.grid]
    if not rows:
        return None, "xdformat: no grid"
    view = View(len(rows[0]), len(rows))
    split = next((v for k, v in xd.headers.items() if k.lower() == "splitcharacter"), "")
    for cell, ch in enumerate("".join(rows)):
        if ch in "#_":
            view.blocks.add(cell)
        elif ch == ".":
            view.dot_cells.add(cell)
        else:
            view.letters[cell] = rebus.get(ch, ch).upper()
    for (direction, number), clue, answer in xd.clues:
        if direction in ("A", "D") and isinstance(number, int):
            view.entries.append((direction, None, number, "" if clue == "[XXX]" else clue))
            if answer:
                answer = answer.upper().replace(" ", "")
                view.answers[f"{number}{direction}"] = answer.replace(split, "") if split else answer
    view.title = next((v for k, v in xd.headers.items() if k.lower() == "title"), "")
    return view, ""


def jpz_view(path: Path) -> tuple[View | None, str]:
    data = path.read_bytes()
    try:
        if data[:2] == b"PK":
            archive = zipfile.ZipFile(io.BytesIO(data))
            data = archive.read([n for n in archive.namelist() if not n.startswith("__MACOSX")][0])
        text = data.decode("utf-8")
        text = re.sub(r"^\s*<\?xml[^>]*\?>", "", text.removeprefix("\ufeff"))
        text = re.sub(
            r"&([A-Za-z][A-Za-z0-9]*);",
            lambda m: (
                m.group(0)
                if m.group(1) in ("amp", "lt", "gt", "quot", "apos") or m.group(1) not in html.entities.name2codepoint
                else f"&#{html.entities.name2codepoint[m.group(1)]};"
            ),
            text,
        )
        root = ElementTree.fromstring(text)
    except Exception as exc:  # noqa: BLE001
        return None, f"xml: {exc.__class__.__name__}: {exc}"
    for el in root.iter():
        if isinstance(el.tag, str):
            el.tag = el.tag.split("}", 1)[-1]
    rect = next((el for el in root.iter() if el.tag == "rectangular-puzzle"), None)
    kind = next((el for el in rect if el.tag not in ("metadata", "instructions")), None) if rect is not None else None
    if kind is None or kind.tag != "crossword":
        view = View(0, 0)
        view.variety = f"<{kind.tag if kind is not None else '?'}>"
        return view, ""
    grid = kind.find("grid")
    width, height = int(grid.get("width")), int(grid.get("height"))
    view = View(width, height)
    view.circles, bars = set(), []
    view.labels = set()
    for cell_el in grid.iter("cell"):
        cell = (int(cell_el.get("y")) - 1) * width + int(cell_el.get("x")) - 1
        if cell_el.get("type") in ("block", "void"):
            view.blocks.add(cell)
            continue
        view.labels |= {
            (cell, corner, cell_el.get(attr).strip())
            for attr, corner in (("number", "TL"), ("top-right-number", "TR"))
            if (cell_el.get(attr) or "").strip()
        }
        if cell_el.get("solution"):
            view.letters[cell] = cell_el.get("solution").upper()
        if cell_el.get("background-shape") == "circle":
            view.circles.add(cell)
        bars += [
            (cell, side)
            for attr, side in (("top-bar", "T"), ("left-bar", "L"), ("bottom-bar", "B"), ("right-bar", "R"))
            if cell_el.get(attr) == "true"
        ]
    view.bars = _bars(width, height, bars)

    def span(value):
        if not value:
            return None
        a, _, b = value.partition("-")
        a, b = int(a), int(b or a)
        return list(range(a, b + (1 if b >= a else -1), 1 if b >= a else -1))

    cells_by_word = {}
    for word in kind.iter("word"):
        cells = []
        for el in [word, *word.findall("cells")]:
            xs, ys = span(el.get("x")), span(el.get("y"))
            if xs and ys:
                cells += [(y - 1) * width + x - 1 for x in xs for y in ys]
        cells_by_word[word.get("id")] = tuple(cells)
    for clues in kind.iter("clues"):
        title = "".join(clues.find("title").itertext()).strip().lower() if clues.find("title") is not None else ""
        direction = "A" if title.startswith("across") else "D" if title.startswith("down") else None
        if direction is None and clues.findall("clue"):
            view.variety = f"clue list {title}"
        for clue in clues.findall("clue"):
            number = clue.get("number", "")
            cells = cells_by_word.get(clue.get("word"))
            text = "".join(clue.itertext())
            view.listed.append(
                (
                    "".join(clues.find("title").itertext()).strip() if clues.find("title") is not None else "",
                    number.strip(),
                    cells or None,
                    text,
                )
            )
            view.entries.append((direction, cells, int(number) if number.isdigit() else None, text))
    meta = rect.find("metadata")
    view.title = (
        "".join(meta.find("title").itertext()).strip() if meta is not None and meta.find("title") is not None else ""
    )
    return view, ""


VIEW_BY_SUFFIX = {".puz": puz_view, ".ipuz": ipuz_view, ".xd": xd_view, ".jpz": jpz_view}


# ----- comparing ------------------------------------------------------------------------------


def _ascii(text: str) -> str:
    text = re.sub(r"<[^>]+>", "", text or "")
    return " ".join("".join(ch for ch in text if ch.isascii()).split())


def _where(cell: int, width: int) -> str:
    return f"r{cell // width + 1}c{cell % width + 1}"


def compare(puzzle, view: View) -> list[str]:
    """Differences between xwcp's Puzzle and the reference view, as short phrases."""
    from xwcp.model import find_slots

    grid = puzzle.grid
    warned = bool(getattr(puzzle, "warnings", ()))  # (a checkout before issue 23 has no warnings)
    problems: list[str] = []
    if (grid.width, grid.height) != (view.width, view.height):
        return [f"size {grid.width}x{grid.height}, its reader {view.width}x{view.height}"]
    width = grid.width
    ours_blocks = {i for i, c in enumerate(grid.cells) if c == "#"}
    wrong = (ours_blocks ^ view.blocks) - view.dot_cells
    if wrong:
        problems.append(f"blocks differ at {len(wrong)} cells (first {_where(min(wrong), width)})")
    letters_read = any(c not in ("#", ".") for c in grid.cells)
    differ = [
        cell for cell, text in view.letters.items() if cell not in ours_blocks and grid.cells[cell] not in (".", text)
    ]
    if differ:
        problems.append(
            f"letters differ at {len(differ)} cells (first {_where(differ[0], width)}: "
            f"{grid.cells[differ[0]]!r}, its reader {view.letters[differ[0]]!r})"
        )
    if view.letters and not letters_read and not warned:
        problems.append("letters dropped without a warning")
    if view.letters_checked_by is not None and letters_read:
        solution = "".join("." if c == "#" else c[0] for c in grid.cells)
        if not view.letters_checked_by(solution):
            problems.append("unlocked letters fail the file's checksum")
    if view.circles is not None:
        circles = {cell for cell, mark in grid.marks if mark.circle}
        if circles != view.circles:
            problems.append(f"circles: {len(circles)} read, its reader {len(view.circles)}")
    if view.bars is not None and set(grid.bars) != view.bars:
        problems.append(f"bars: {len(grid.bars)} read, its reader {len(view.bars)}")
    slots = find_slots(grid)
    if view.variety or getattr(grid, "entries", ()) or getattr(grid, "entries_only", False):
        problems += compare_listed(puzzle, view, slots)
        if view.title is not None and _ascii(view.title) != _ascii(puzzle.title):
            problems.append("title differs")
        return problems
    by_name = {s.name: s for s in slots}
    by_cells = {s.cells: s for s in slots}
    numbers = getattr(view, "numbers", {})
    wrong_entries, wrong_clues = [], []
    for direction, cells, number, clue in view.entries:
        slot = None
        if cells is not None:
            slot = by_cells.get(cells)
            if slot is None:
                continue  # a clue on part of an entry: xwcp leaves it out with a warning
        elif number is not None and direction is not None:
            slot = by_name.get(f"{number}{direction}")
            if slot is not None and number in numbers and slot.cells[0] != numbers[number]:
                wrong_entries.append(f"{number}{direction}")
                continue
        if slot is None:
            if _ascii(clue):
                wrong_entries.append(f"{number}{direction or '?'}")
            continue
        if _ascii(clue) != _ascii(puzzle.clue_by_slot.get(slot.name, "")):
            wrong_clues.append(slot.name)
    if wrong_entries and not warned:
        problems.append(
            f"{len(wrong_entries)} clued entries missing without a warning ({', '.join(wrong_entries[:3])})"
        )
    if wrong_clues:
        problems.append(f"{len(wrong_clues)} clues differ ({', '.join(wrong_clues[:3])})")
    spelled = {s.name: "".join(grid.cells[c] for c in s.cells) for s in slots}
    bad = [
        name
        for name, answer in view.answers.items()
        if "." not in answer and "." not in spelled.get(name, ".") and spelled.get(name) != answer
    ]
    if bad and not warned:
        problems.append(f"{len(bad)} entries spell other than the file's answers ({', '.join(bad[:3])})")
    if view.title is not None and _ascii(view.title) != _ascii(puzzle.title):
        problems.append("title differs")
    return problems


def compare_listed(puzzle, view: View, slots) -> list[str]:
    """A variety puzzle's differences: each clue of each list on an entry of exactly its cells with its text,
    no entry the file does not list, clues on no cells kept in their lists, the lists' titles in order, and
    the cells' labels."""
    problems: list[str] = []
    by_cells = {s.cells: s for s in slots if getattr(s, "reading", 0) <= 1}
    listed_cells = {cells for _, _, cells, _ in view.listed if cells}
    ones = {
        (c.cells, _ascii(c.text)) for x in getattr(puzzle, "clue_lists", ()) for c in x.clues if len(c.cells) == 1
    }  # a one-letter word: a clue on its cell, no entry
    missing = [
        f"{title} {label}"
        for title, label, cells, clue in view.listed
        if cells and cells not in by_cells and (cells, _ascii(clue)) not in ones
    ]
    if missing:
        problems.append(f"{len(missing)} listed entries not read ({', '.join(missing[:3])})")
    wrong = [
        f"{title} {label}"
        for title, label, cells, clue in view.listed
        if cells in by_cells and _ascii(clue) != _ascii(puzzle.clue(by_cells[cells]))
    ]
    if wrong:
        problems.append(f"{len(wrong)} clues differ ({', '.join(wrong[:3])})")
    extra = [s.name for s in by_cells.values() if s.cells not in listed_cells]
    if extra and any(cells for _, _, cells, _ in view.listed):
        problems.append(f"{len(extra)} entries the file does not list ({', '.join(extra[:3])})")
    lists = getattr(puzzle, "clue_lists", ())
    titles = [_ascii(t) for t in dict.fromkeys(title for title, _, _, _ in view.listed)]
    if [_ascii(x.title) for x in lists] != titles:
        problems.append(f"clue lists {[x.title for x in lists]}, its reader {titles}")
    free = sorted(_ascii(clue) for _, _, cells, clue in view.listed if not cells)
    ours_free = sorted(_ascii(c.text) for x in lists for c in x.clues if c.entry is None and not c.cells)
    if free != ours_free:
        problems.append(f"{len(ours_free)} clues on no cells kept, its reader {len(free)}")
    if view.labels is not None and getattr(puzzle.grid, "entries_only", False):
        ours = {(c.cell, c.corner, c.text) for c in getattr(puzzle, "cell_labels", ())}
        if ours != view.labels:
            problems.append(f"cell labels differ at {len(ours ^ view.labels)} (cell, corner) places")
    return problems


# ----- the sweep --------------------------------------------------------------------------------


def check_file(path: Path, tree: Path, time_limit_s: float) -> tuple[int, str, list[str]]:
    """(exit code, first stderr line, warnings from the JSON) of `xwcp check`."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    try:
        run = subprocess.run(
            [sys.executable, "-m", "xwcp", "check", str(path), "--time-limit", str(time_limit_s), "--format", "json"],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=time_limit_s * 6 + 60,
        )
    except subprocess.TimeoutExpired:
        return -1, "timed out", []
    warnings = []
    try:
        warnings = json.loads(run.stdout).get("warnings", [])
    except (json.JSONDecodeError, AttributeError):
        pass
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    first = next((line for line in lines if "error" in line), lines[0] if lines else "")
    return run.returncode, first.replace(str(path) + ": ", ""), warnings


def read_and_compare(path: Path) -> tuple[str, list[str]]:
    """('read' | 'refused: why', differences with the file's own reader)."""
    try:  # the layered package (issue 33)
        from xwcp.base.errors import InputError
    except ImportError:  # a --tree from before the layers
        from xwcp.errors import InputError  # type: ignore[no-redef]
    from xwcp.formats import read_puzzle

    view, why_not = VIEW_BY_SUFFIX[path.suffix.lower()](path)
    try:
        puzzle = read_puzzle(path)
    except InputError as exc:
        refused = f"refused: {str(exc).replace(str(path) + ': ', '')}"
        if view is not None and view.variety and view.variety.startswith(("clue set", "clue list")):
            return refused, [f"a variety puzzle refused ({view.variety})"]
        return refused, []
    if view is None:
        return "read", [f"its reader refuses ({why_not})"]
    if view.variety and not (getattr(puzzle.grid, "entries", ()) or getattr(puzzle.grid, "entries_only", False)):
        return "read", [f"a variety puzzle read as across/down ({view.variety})"]
    return "read", compare(puzzle, view)


def _category(line: str) -> str:
    """A refusal's kind, for the counts."""
    if "variety puzzle" in line:
        return "a variety puzzle (entries that are not across and down runs)"
    if "not a crossword" in line:
        return "not a crossword (acrostic, coded)"
    if "largest supported" in line:
        return "larger than 60x60"
    if "not a valid" in line or "no ACROSS&DOWN" in line:
        return "structurally damaged"
    return re.sub(r"\d+", "N", line.split(": ", 2)[-1])[:60]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--tree", type=Path, default=HERE, help="the xwcp checkout to run (default: this one)")
    parser.add_argument("--time-limit", type=float, default=5.0, help="check's --time-limit (default 5)")
    parser.add_argument("--out", type=Path, help="also write the table (Markdown) to this file")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.tree.resolve()))
    files = sorted(p for p in args.folder.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())
    rows, exits, refusals, misreads, variety_refused = [], Counter(), Counter(), 0, 0
    for path in files:
        code, line, warnings = check_file(path, args.tree.resolve(), args.time_limit)
        read, problems = read_and_compare(path)
        exits[code] += 1
        opens = code in (0, 1, 3)
        why = (
            line
            if not opens
            else "; ".join(w.replace(str(path) + ": ", "") for w in warnings if w.startswith(str(path)))
        )
        if code == 2:
            refusals[_category(line)] += 1
        misreads += bool(problems) and read == "read"
        variety_refused += bool(problems) and read != "read"
        name = str(path.relative_to(args.folder))
        rows.append(
            f"| {name} | {path.suffix} | {'yes' if opens else 'no'} | {code} | {why.replace('|', '/')} | "
            f"{'; '.join(problems).replace('|', '/') or ('-' if read != 'read' else 'same')} |"
        )
        print(rows[-1], flush=True)
    table = ["| file | format | opens | exit | why | reads as its reader |", "|---|---|---|---|---|---|", *rows]
    summary = [
        f"files: {len(files)}; opens (exit 0, 1, 3): {sum(exits[c] for c in (0, 1, 3))}; "
        f"refused (exit 2): {exits[2]}; other exits: "
        f"{ {c: n for c, n in sorted(exits.items()) if c not in (0, 1, 2, 3)} }; "
        f"read but not as its own reader shows: {misreads}; variety puzzles refused: {variety_refused}",
        "exit codes: " + ", ".join(f"{c}: {n}" for c, n in sorted(exits.items())),
        "refusals: " + "; ".join(f"{why} ({n})" for why, n in refusals.most_common()),
    ]
    print("\n".join(summary))
    if args.out:
        args.out.write_text("\n".join(table + [""] + summary) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
