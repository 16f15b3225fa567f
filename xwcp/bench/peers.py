"""Run external crossword fillers (Qxw, MiniZinc+Gecode, Blacksquare) on a grid and word list, side by side.

A peer gets exactly the problem xwcp solves: the same slots (maximal runs of two or more white
cells, across and down), the same words (those whose length matches a slot) and the same
pre-filled letters, with "no word twice" when `unique` is set. Each peer runs as a child
process in its own process group, under a wall-clock limit that this module enforces; the
measured wall time covers the whole peer command, including the peer reading its word list.

- ``qxw``: Qxw's batch mode (``qxw -b DECK``; Debian package ``qxw``). The deck format is
  documented only in Qxw's source (``deck.c``): header directives, then one line per slot
  naming its cells, ``=X`` after a pre-filled cell. Word scores become Qxw's log10 weights.
- ``gecode``: a MiniZinc model (one word-index variable per slot, letters channelled by
  ``element``, ``all_different`` per word length, first-fail search on the words with the
  best-scored word tried first) compiled by ``minizinc -c`` and solved by ``fzn-gecode``
  (Debian packages ``minizinc`` and ``flatzinc``).
- ``blacksquare``: the Python crossword library a Python user would pick (``pip install
  blacksquare``; a Rust backtracking filler under a ``Crossword`` object). It runs in a child
  Python (``BLACKSQUARE_SCRIPT``) that imports it, reads the word list (``WORD;score`` lines; it
  scales scores to 0-1 itself), builds the grid (``#`` block, ``?`` empty, letters) and calls
  ``Crossword.fill`` with the time left and ``allow_repeats`` off when ``unique``. Its repeat
  check misses entries completed by crossings, so a fill is checked here like every other
  peer's; a fill with a word twice is an ERROR naming the word. ``fill`` answers None both when
  its search ends and when its timeout passes: None well before the timeout is reported as
  UNFILLABLE (the search ended without a fill), at the timeout as LIMIT.

The word-list file each peer reads is written once per distinct content (named by a content
hash inside `workdir`) and reused, so benchmarking many grids does not rewrite it every time.
Writing it is not timed; the peer reading it is.

Standalone on purpose: no imports from the rest of xwcp, plain types in and out.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xwcp.model.alphabet import Alphabet

PEERS = ("qxw", "gecode", "blacksquare")

BLACKSQUARE_MODULE = "blacksquare"
"""The Python package run as the Blacksquare peer (a name here, so a test can stand in another)."""
# The child's own start (Python, numpy and blacksquare imports, the list read) is inside the limit, as
# every peer's is; it stops its search this long before the limit to print its answer.
BLACKSQUARE_MARGIN_S = 0.1
# A None from Crossword.fill this long before its timeout is an ended search, not a timeout.
BLACKSQUARE_ENDED_S = 0.25
BLACKSQUARE_SCRIPT = """
import json, sys, time
module, words_path, rows, deadline, unique = sys.argv[1:6]
bs = __import__(module)
words = bs.WordList(words_path)
grid = [["?" if ch == "." else ch for ch in row] for row in json.loads(rows)]
crossword = bs.Crossword(grid=grid, symmetry=None, word_list=words)
timeout = max(0.01, float(deadline) - time.time())
start = time.perf_counter()
filled = crossword.fill(word_list=words, timeout=timeout, show_progress=False, allow_repeats=unique != "1")
seconds = time.perf_counter() - start
cells = None if filled is None else [cell.str for cell in filled.itercells()]
print(json.dumps({"cells": cells, "fill_s": seconds, "timeout_s": timeout}))
"""

# Debian installs qxw under /usr/games, which is often not on PATH.
QXW_FALLBACK_PATHS = ("/usr/games/qxw",)
# Grace after SIGINT for fzn-gecode to print its statistics before it is killed.
INTERRUPT_GRACE_S = 2.0
# How much of a peer's stderr/stdout goes into an error note.
NOTE_SNIPPET_CHARS = 300
# Qxw reads "WORD score" with score = log10 weight, clamped by Qxw to -10..10.
QXW_SCORE_MIN, QXW_SCORE_MAX = -10.0, 10.0
# Our scores run 0..100 with 50 the default; Qxw's weight 10**((score - 50) / 10) keeps the order.
QXW_SCORE_CENTRE, QXW_SCORE_PER_DECADE = 50, 10.0
# Qxw exit codes (deck.c/qxw.c): 0 fill printed, 4 no fill exists, 16 error.
QXW_EXIT_FILLED, QXW_EXIT_NO_FILL = 0, 4

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_GRID_CHARS = frozenset("#." + _ALPHABET)
QXW_ALPHABET_BY_CODE = {
    "en": "AZ",
    "es": "ES",
    "ru": "RU",
    "pl": "PL",
    "el": "EL",
    "cs": "CZ",
    "sv": "SE",
    "fi": "FI",
    "da": "DA",
    "no": "NO",
    "fr": "FR",
    "it": "IT",
    "de": "DE",
    "et": "EE",
    "sl": "SI",
    "ro": "RO",
    "grc": "AG",
}
"""xwcp language pack -> Qxw's `-a` alphabet code, for the packs each of whose letters is a letter of that Qxw
alphabet, so a word passes through Qxw unchanged (its alphabets.c, see /work/shared/SOLVER-FACTS.md): Spanish keeps
Ñ, Russian folds Ё, German writes Ä as AE, Polish and Czech keep their accented letters, Estonian keeps Š Ž Õ Ä Ö Ü,
Slovenian Č Š Ž, Romanian folds every diacritic (xwcp's rebus `ro`), Ancient Greek writes an iota subscript as
ΑΙ ΗΙ ΩΙ. Not here: Hungarian (Qxw folds Í Ó Ő Ú Ű into I O Ö U Ü), ro-diacritics and de-umlaut (Qxw folds
Ă Ä into A), Dutch (IJ one cell), and packs Qxw lacks (Welsh, Turkish, Hebrew...). A pack with a letter of
several code points (Czech CH) is skipped whatever this says."""


class PeerStatus(Enum):
    """How a peer's run ended."""

    FILLED = "filled"  # a fill was found (and checked against the problem)
    UNFILLABLE = "unfillable"  # the peer proved no fill exists
    LIMIT = "limit"  # the wall-clock limit ran out first
    SKIPPED = "skipped"  # the peer is not installed
    ERROR = "error"  # the peer crashed, failed or printed something we cannot read


@dataclass(frozen=True)
class PeerResult:
    """What one peer run gave back.

    `rows` holds the filled grid ('#' blocks, 'A'-'Z' letters) only when `status` is FILLED; a
    white cell that lies in no slot keeps its '.' or pre-filled letter. `wall_time_s` is the
    wall time of the peer's whole command(s), including its reading of the word list.
    """

    peer: str
    status: PeerStatus
    rows: tuple[str, ...] | None
    wall_time_s: float
    note: str = ""


@dataclass(frozen=True)
class _Slot:
    """One slot: its cells as (row, col) in reading order."""

    cells: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class _Run:
    """How one child process ended."""

    returncode: int | None  # None when it had to be killed
    stdout: str
    stderr: str
    is_timed_out: bool
    wall_time_s: float


def peer_available(name: str) -> bool:
    """Tell whether a peer's commands are installed.

    Args:
        name: a peer name from `PEERS`.

    Returns:
        True if every command the peer needs is found.

    Raises:
        ValueError: `name` is not one of `PEERS`.
    """
    return not _missing_commands(name)


def run_peer(
    name: str,
    rows: Sequence[str],
    words: Sequence[tuple[str, int]],
    time_limit_s: float,
    *,
    unique: bool = True,
    workdir: Path | None = None,
    word_file: Path | None = None,
    alphabet: Alphabet | None = None,
) -> PeerResult:
    """Fill a grid with an external filler and report how it went.

    Args:
        name: which peer, one of `PEERS` ("qxw" or "gecode").
        rows: grid rows of equal length: '#' block, '.' empty, 'A'-'Z' pre-filled letter.
        words: (word, score) pairs; words are upper-case A-Z, scores 0..100 (50 = default).
            Only words whose length matches a slot are passed on; a repeated word keeps its
            best score.
        time_limit_s: wall-clock limit for the peer's whole run, in seconds.
        unique: forbid any word appearing twice in the fill.
        workdir: folder for the cached word-list files (named by content hash) and the
            per-run scratch files. Default: ``$XWCP_CACHE_DIR/peers``, else
            ``$XDG_CACHE_HOME/xwcp/peers``, else ``~/.cache/xwcp/peers``.
        word_file: where to keep this peer's word-list file instead of the content-hash name
            (for "gecode" it must end in ".dzn", as MiniZinc insists). If it exists and holds
            what this function would write (the same peer, words and slot lengths) it is
            reused; otherwise (damaged, or made for other words) it is written again.
        alphabet: the letters of `rows` and `words` (code chars of an xwcp pack; default English A-Z). Only
            Qxw takes another alphabet, and only one of QXW_ALPHABET_BY_CODE; other peers and packs are SKIPPED.

    Returns:
        A PeerResult. Peer failures are results, not exceptions: a missing command gives
        SKIPPED, a crash or unreadable output gives ERROR, the limit gives LIMIT. Child
        processes never outlive this call, even when it is interrupted (KeyboardInterrupt).

    Raises:
        ValueError: unknown peer name, ragged rows, a character other than '#', '.', 'A'-'Z'
            in the grid, a word that is not upper-case A-Z, or a "gecode" `word_file` whose
            name does not end in ".dzn".
    """
    missing = _missing_commands(name)
    letters = _ALPHABET if alphabet is None or alphabet.is_ascii else alphabet.chars
    grid = _check_grid(rows, letters)
    if name == "gecode" and word_file is not None and Path(word_file).suffix != ".dzn":
        raise ValueError(f"MiniZinc reads data only from .dzn files, not {word_file}")
    slots = _find_slots(grid)
    # checked before the peer is looked for, so bad input is an error whether or not it is installed
    score_by_word = _words_for_slots(words, {len(slot.cells) for slot in slots}, letters)
    if letters != _ALPHABET:
        assert alphabet is not None  # letters come from it
        qxw_code = QXW_ALPHABET_BY_CODE.get(alphabet.code)
        if name != "qxw" or qxw_code is None or alphabet.has_multi_letters:
            return PeerResult(name, PeerStatus.SKIPPED, None, 0.0, f"{name} is not given {alphabet.name} here")
    if missing:
        return PeerResult(name, PeerStatus.SKIPPED, None, 0.0, "not installed: " + "; ".join(missing))
    if not slots:
        return PeerResult(name, PeerStatus.FILLED, grid, 0.0, "no slots: nothing to fill")
    workdir = Path(workdir) if workdir is not None else _default_workdir()
    workdir.mkdir(parents=True, exist_ok=True)
    if name == "qxw":
        qxw_alphabet = None if alphabet is None else QXW_ALPHABET_BY_CODE[alphabet.code]
        return _run_qxw(grid, slots, score_by_word, time_limit_s, unique, workdir, word_file, qxw_alphabet)
    if name == "blacksquare":
        return _run_blacksquare(grid, slots, score_by_word, time_limit_s, unique, workdir, word_file)
    return _run_gecode(grid, slots, score_by_word, time_limit_s, unique, workdir, word_file)


# ---------------------------------------------------------------- problem


def _check_grid(rows: Sequence[str], letters: str = _ALPHABET) -> tuple[str, ...]:
    grid = tuple(rows)
    if not grid or not grid[0]:
        raise ValueError("grid has no cells")
    width = len(grid[0])
    for row_index, row in enumerate(grid):
        if len(row) != width:
            raise ValueError(f"row {row_index} has {len(row)} cells, row 0 has {width}")
        bad = set(row) - (_GRID_CHARS if letters == _ALPHABET else frozenset("#." + letters))
        if bad:
            raise ValueError(f"row {row_index} has characters other than '#', '.' and letters: {sorted(bad)}")
    return grid


def _find_slots(grid: tuple[str, ...]) -> list[_Slot]:
    """Maximal runs of >= 2 white cells: all across slots in reading order, then all down slots."""
    height, width = len(grid), len(grid[0])
    slots: list[_Slot] = []
    for lines in (
        [[(row, col) for col in range(width)] for row in range(height)],
        [[(row, col) for row in range(height)] for col in range(width)],
    ):
        for line in lines:
            run: list[tuple[int, int]] = []
            for row, col in line + [(-1, -1)]:
                if row >= 0 and grid[row][col] != "#":
                    run.append((row, col))
                    continue
                if len(run) >= 2:
                    slots.append(_Slot(tuple(run)))
                run = []
    down = [slot for slot in slots if slot.cells[0][1] == slot.cells[1][1]]
    across = [slot for slot in slots if slot.cells[0][1] != slot.cells[1][1]]
    return across + sorted(down, key=lambda slot: slot.cells[0])


def _words_for_slots(words: Sequence[tuple[str, int]], lengths: set[int], letters: str = _ALPHABET) -> dict[str, int]:
    """Words whose length is a slot length, each with its best score, in first-seen order."""
    score_by_word: dict[str, int] = {}
    allowed = None if letters == _ALPHABET else frozenset(letters)
    for word, score in words:
        if len(word) not in lengths:
            continue
        if allowed is not None:
            if not word or not set(word) <= allowed:
                raise ValueError(f"word {word!r} is not letters of the alphabet")
        elif not (word.isascii() and word.isalpha() and word.isupper()):
            raise ValueError(f"word {word!r} is not upper-case A-Z")
        old = score_by_word.get(word)
        if old is None or score > old:
            score_by_word[word] = int(score)
    return score_by_word


def _assemble_fill(
    grid: tuple[str, ...],
    slots: Sequence[_Slot],
    slot_words: Sequence[str],
    score_by_word: dict[str, int],
    unique: bool,
) -> tuple[tuple[str, ...] | None, str]:
    """Write the peer's slot words into the grid; (rows, "") or (None, what is wrong)."""
    if len(slot_words) != len(slots):
        return None, f"peer gave {len(slot_words)} words for {len(slots)} slots"
    cells = [list(row) for row in grid]
    for slot_id, (slot, word) in enumerate(zip(slots, slot_words)):
        if len(word) != len(slot.cells):
            return None, f"slot {slot_id}: word {word!r} does not fit {len(slot.cells)} cells"
        if word not in score_by_word:
            return None, f"slot {slot_id}: {word!r} is not in the word list"
        for (row, col), letter in zip(slot.cells, word):
            if cells[row][col] not in (".", letter):
                return None, f"slot {slot_id}: {word!r} clashes with {cells[row][col]!r} at r{row}c{col}"
            cells[row][col] = letter
    if unique and len(set(slot_words)) != len(slot_words):
        repeated = sorted({word for word in slot_words if slot_words.count(word) > 1})
        return None, f"peer repeated words: {repeated[:5]}"
    return tuple("".join(row) for row in cells), ""


# ---------------------------------------------------------------- Qxw


def _qxw_command() -> str | None:
    found = shutil.which("qxw")
    if found:
        return found
    for path in QXW_FALLBACK_PATHS:
        if os.access(path, os.X_OK):
            return path
    return None


def _qxw_score(score: int) -> str:
    weight = (score - QXW_SCORE_CENTRE) / QXW_SCORE_PER_DECADE
    return f"{min(QXW_SCORE_MAX, max(QXW_SCORE_MIN, weight)):.1f}"


def _qxw_cell(row: int, col: int) -> str:
    # Qxw treats entry names as opaque tokens (letters, digits, '$', '_'; at most 31 chars).
    return f"r{row}c{col}"


def _qxw_unposable(grid: tuple[str, ...], slots: Sequence[_Slot], score_by_word: dict[str, int], unique: bool) -> str:
    """Why Qxw cannot be given this problem faithfully, or "" if it can.

    Qxw treats a slot whose letters are all pre-filled as done: it never checks that it is a
    word, nor that it differs from other fully pre-filled slots (it does keep the words it
    places apart from them). Such a grid has no fill, but Qxw would print one.
    """
    fixed_words = []
    for slot_id, slot in enumerate(slots):
        word = "".join(grid[row][col] for row, col in slot.cells)
        if "." in word:
            continue
        if word not in score_by_word:
            return f"Qxw does not check fully pre-filled slots, and slot {slot_id} {word!r} is not a word"
        if unique and word in fixed_words:
            return f"Qxw does not check fully pre-filled slots, and {word!r} is pre-filled twice"
        fixed_words.append(word)
    return ""


def _qxw_deck(grid: tuple[str, ...], slots: Sequence[_Slot], dictionary: Path, unique: bool) -> str:
    lines = [
        f".DICTIONARY 1 {dictionary}",
        ".RANDOM 0",  # deterministic: best-scored words first
        f".UNIQUE {1 if unique else 0}",
    ]
    for slot in slots:
        tokens = []
        for row, col in slot.cells:
            tokens.append(_qxw_cell(row, col))
            if grid[row][col] != ".":
                tokens.append("=" + grid[row][col])  # constrains the entry just named
        lines.append(" ".join(tokens))
    return "\n".join(lines) + "\n"


def _run_qxw(
    grid: tuple[str, ...],
    slots: Sequence[_Slot],
    score_by_word: dict[str, int],
    time_limit_s: float,
    unique: bool,
    workdir: Path,
    word_file: Path | None,
    qxw_alphabet: str | None = None,
) -> PeerResult:
    command = _qxw_command()
    assert command is not None  # checked by run_peer
    unposable = _qxw_unposable(grid, slots, score_by_word, unique)
    if unposable:
        return PeerResult("qxw", PeerStatus.SKIPPED, None, 0.0, unposable)
    # Qxw refuses an empty dictionary; a word longer than every slot changes nothing else.
    placeholder = "" if score_by_word else "Q" * (max(len(slot.cells) for slot in slots) + 1) + " 0\n"
    dictionary = _word_file(
        workdir,
        word_file,
        "qxw-dict",
        ".txt",
        lambda: placeholder + "".join(f"{word} {_qxw_score(score)}\n" for word, score in score_by_word.items()),
    )
    with tempfile.TemporaryDirectory(dir=workdir, prefix="qxw-run-") as scratch:
        deck = Path(scratch) / "grid.qxd"
        deck.write_text(_qxw_deck(grid, slots, dictionary.resolve(), unique), encoding="utf-8")
        alphabet_args = [] if qxw_alphabet is None else ["-a", qxw_alphabet]
        run = _run_process(
            [command, "-b", *alphabet_args, str(deck)], time_limit_s, cwd=Path(scratch), interrupt_first=False
        )
    if run.is_timed_out:
        return PeerResult("qxw", PeerStatus.LIMIT, None, run.wall_time_s, f"killed at the {time_limit_s:g} s limit")
    if run.returncode == QXW_EXIT_NO_FILL:
        return PeerResult("qxw", PeerStatus.UNFILLABLE, None, run.wall_time_s, _snippet(run.stderr))
    if run.returncode != QXW_EXIT_FILLED:
        return PeerResult(
            "qxw",
            PeerStatus.ERROR,
            None,
            run.wall_time_s,
            f"exit {run.returncode}: {_snippet(run.stderr or run.stdout)}",
        )
    slot_words: dict[int, str] = {}
    for line in run.stdout.splitlines():
        if line.startswith("#") or not line.strip():
            continue  # "# WORD" lines list each slot's remaining candidates
        match = re.fullmatch(r"W(\d+) ([A-Z]+)" if qxw_alphabet is None else r"W(\d+) (\w+)", line.strip())
        if not match:
            return PeerResult("qxw", PeerStatus.ERROR, None, run.wall_time_s, f"unreadable line: {_snippet(line)}")
        slot_words[int(match.group(1))] = match.group(2)
    if sorted(slot_words) != list(range(len(slots))):
        return PeerResult(
            "qxw",
            PeerStatus.ERROR,
            None,
            run.wall_time_s,
            f"expected W0..W{len(slots) - 1}, got {len(slot_words)} words: {_snippet(run.stdout)}",
        )
    filled, problem = _assemble_fill(grid, slots, [slot_words[i] for i in range(len(slots))], score_by_word, unique)
    if filled is None:
        return PeerResult("qxw", PeerStatus.ERROR, None, run.wall_time_s, problem)
    return PeerResult("qxw", PeerStatus.FILLED, filled, run.wall_time_s, f"{len(score_by_word)} words")


# ---------------------------------------------------------------- MiniZinc + Gecode


def _gecode_data(score_by_word: dict[str, int], lengths: Sequence[int]) -> str:
    """The word list as MiniZinc data: per slot length k, N<k> words and one letter column per position.

    Words of one length are sorted best score first, so word index 1 is the best word and
    `indomain_min` tries words in score order. Letters are 1..26. A length with no words
    still gets its (empty) arrays, which the model declares.
    """
    words_by_length: dict[int, list[str]] = {length: [] for length in lengths}
    for word, _ in sorted(score_by_word.items(), key=lambda item: -item[1]):
        words_by_length[len(word)].append(word)
    lines = []
    for length in sorted(words_by_length):
        bucket = words_by_length[length]
        lines.append(f"N{length} = {len(bucket)};")
        for pos in range(length):
            column = ",".join(str(ord(word[pos]) - 64) for word in bucket)
            lines.append(f"C{length}_{pos + 1} = [{column}];")
    return "\n".join(lines) + "\n"


def _gecode_model(
    grid: tuple[str, ...],
    slots: Sequence[_Slot],
    cell_order: Sequence[tuple[int, int]],
    lengths: Sequence[int],
    unique: bool,
) -> str:
    """The grid as a MiniZinc model over the data from `_gecode_data`; L[i] is `cell_order[i - 1]`.

    Gecode's bundled MiniZinc library predates MiniZinc 2.6, so `include "globals.mzn"` fails
    to type-check; the one Gecode builtin used is declared here instead.
    """
    cell_ids = {cell: index for index, cell in enumerate(cell_order, start=1)}
    lines = [
        "predicate all_different_int(array[int] of var int: x);",
        "% letters 1..26 = A..Z; words of length k are indexed 1..Nk, best score first",
    ]
    for length in lengths:
        lines.append(f"int: N{length};")
        lines.extend(f"array[int] of int: C{length}_{pos};" for pos in range(1, length + 1))
    lines.append(f"array[1..{len(cell_ids)}] of var 1..26: L;")
    for slot_id, slot in enumerate(slots):
        lines.append(f"var 1..N{len(slot.cells)}: W{slot_id};")
    lines.append(f"array[1..{len(slots)}] of var int: W = [{','.join(f'W{i}' for i in range(len(slots)))}];")
    for slot_id, slot in enumerate(slots):
        length = len(slot.cells)
        for pos, cell in enumerate(slot.cells, start=1):
            lines.append(f"constraint L[{cell_ids[cell]}] = C{length}_{pos}[W{slot_id}];")
    for (row, col), cell_id in cell_ids.items():
        if grid[row][col] != ".":
            lines.append(f"constraint L[{cell_id}] = {ord(grid[row][col]) - 64};")
    if unique:
        for length in lengths:
            same = [f"W{i}" for i, slot in enumerate(slots) if len(slot.cells) == length]
            if len(same) > 1:
                lines.append(f"constraint all_different_int([{','.join(same)}]);")
    lines.append("solve :: int_search(W, first_fail, indomain_min, complete) satisfy;")
    lines.append('output ["L = ", show(L), "\\n"];')
    return "\n".join(lines) + "\n"


def _gecode_stats(stdout: str) -> str:
    keep = ("nodes", "failures", "solveTime", "initTime", "peakDepth")
    stats = []
    for match in re.finditer(r"^%+(?:mzn-stat:)?\s*(\w+)\s*[=:]\s*(\S+)", stdout, re.MULTILINE):
        if match.group(1) in keep:
            stats.append(f"{match.group(1)}={match.group(2)}")
    return " ".join(stats)


def _run_gecode(
    grid: tuple[str, ...],
    slots: Sequence[_Slot],
    score_by_word: dict[str, int],
    time_limit_s: float,
    unique: bool,
    workdir: Path,
    word_file: Path | None,
) -> PeerResult:
    lengths = sorted({len(slot.cells) for slot in slots})
    data = _word_file(workdir, word_file, "gecode-words", ".dzn", lambda: _gecode_data(score_by_word, lengths))
    cell_order = list(dict.fromkeys(cell for slot in slots for cell in slot.cells))  # cells in some slot
    with tempfile.TemporaryDirectory(dir=workdir, prefix="gecode-run-") as scratch_name:
        scratch = Path(scratch_name)
        model = scratch / "grid.mzn"
        model.write_text(_gecode_model(grid, slots, cell_order, lengths, unique))
        flat = scratch / "grid.fzn"
        compile_run = _run_process(
            [
                "minizinc",
                "-c",
                "--solver",
                "gecode",
                str(model),
                str(data.resolve()),
                "--fzn",
                str(flat),
                "--no-output-ozn",
            ],
            time_limit_s,
            cwd=scratch,
            interrupt_first=False,
        )
        wall_time_s = compile_run.wall_time_s
        if compile_run.is_timed_out:
            return PeerResult(
                "gecode",
                PeerStatus.LIMIT,
                None,
                wall_time_s,
                f"killed at the {time_limit_s:g} s limit while flattening",
            )
        if compile_run.returncode != 0:
            if "UNSATISFIABLE" in compile_run.stdout:
                return PeerResult("gecode", PeerStatus.UNFILLABLE, None, wall_time_s, "unsatisfiable when flattened")
            return PeerResult(
                "gecode",
                PeerStatus.ERROR,
                None,
                wall_time_s,
                f"minizinc exit {compile_run.returncode}: {_snippet(_errors_only(compile_run.stderr))}",
            )
        solve_run = _run_process(
            ["fzn-gecode", "-s", str(flat)],
            max(0.0, time_limit_s - wall_time_s),
            cwd=scratch,
            interrupt_first=True,
        )
    wall_time_s += solve_run.wall_time_s
    stats = _gecode_stats(solve_run.stdout)
    note = f"flatten {compile_run.wall_time_s:.2f} s, solve {solve_run.wall_time_s:.2f} s"
    note += f"; {stats}" if stats else ""
    out = solve_run.stdout
    if "=====UNSATISFIABLE=====" in out:
        return PeerResult("gecode", PeerStatus.UNFILLABLE, None, wall_time_s, note)
    match = re.search(r"^L = (?:array1d\([^,]*,\s*)?\[([\d,\s]*)\]", out, re.MULTILINE)
    if match and "----------" in out:
        letters = [int(value) for value in match.group(1).replace(",", " ").split()]
        if len(letters) != len(cell_order) or not all(1 <= value <= 26 for value in letters):
            return PeerResult(
                "gecode", PeerStatus.ERROR, None, wall_time_s, f"expected {len(cell_order)} letters: {_snippet(out)}"
            )
        letter_by_cell = {cell: _ALPHABET[value - 1] for cell, value in zip(cell_order, letters)}
        slot_words = ["".join(letter_by_cell[cell] for cell in slot.cells) for slot in slots]
        filled, problem = _assemble_fill(grid, slots, slot_words, score_by_word, unique)
        if filled is None:
            return PeerResult("gecode", PeerStatus.ERROR, None, wall_time_s, problem)
        return PeerResult("gecode", PeerStatus.FILLED, filled, wall_time_s, note)
    if solve_run.is_timed_out or (compile_run.wall_time_s + solve_run.wall_time_s >= time_limit_s):
        return PeerResult(
            "gecode", PeerStatus.LIMIT, None, wall_time_s, f"stopped at the {time_limit_s:g} s limit; {note}"
        )
    return PeerResult(
        "gecode",
        PeerStatus.ERROR,
        None,
        wall_time_s,
        f"fzn-gecode exit {solve_run.returncode}: {_snippet(solve_run.stderr or out)}",
    )


# ---------------------------------------------------------------- Blacksquare


def _run_blacksquare(
    grid: tuple[str, ...],
    slots: Sequence[_Slot],
    score_by_word: dict[str, int],
    time_limit_s: float,
    unique: bool,
    workdir: Path,
    word_file: Path | None,
) -> PeerResult:
    words = _word_file(
        workdir,
        word_file,
        "blacksquare-words",
        ".txt",
        lambda: "".join(f"{word};{score}\n" for word, score in score_by_word.items()),
    )
    deadline = time.time() + time_limit_s - BLACKSQUARE_MARGIN_S
    with tempfile.TemporaryDirectory(dir=workdir, prefix="blacksquare-run-") as scratch:
        run = _run_process(
            [
                sys.executable,
                "-c",
                BLACKSQUARE_SCRIPT,
                BLACKSQUARE_MODULE,
                str(words.resolve()),
                json.dumps(list(grid)),
                repr(deadline),
                "1" if unique else "0",
            ],
            time_limit_s,
            cwd=Path(scratch),
            interrupt_first=False,
        )
    if run.is_timed_out:
        return PeerResult(
            "blacksquare", PeerStatus.LIMIT, None, run.wall_time_s, f"killed at the {time_limit_s:g} s limit"
        )
    if run.returncode != 0:
        return PeerResult(
            "blacksquare",
            PeerStatus.ERROR,
            None,
            run.wall_time_s,
            f"exit {run.returncode}: {_snippet(run.stderr or run.stdout)}",
        )
    try:
        answer = json.loads(run.stdout.strip().splitlines()[-1])
        cells, fill_s, timeout_s = answer["cells"], float(answer["fill_s"]), float(answer["timeout_s"])
    except (ValueError, IndexError, KeyError, TypeError):
        return PeerResult(
            "blacksquare",
            PeerStatus.ERROR,
            None,
            run.wall_time_s,
            f"unreadable output: {_snippet(run.stdout + run.stderr)}",
        )
    note = f"fill {fill_s:.2f} s of {run.wall_time_s:.2f} s"
    if cells is None:
        if fill_s < timeout_s - BLACKSQUARE_ENDED_S:
            return PeerResult(
                "blacksquare", PeerStatus.UNFILLABLE, None, run.wall_time_s, f"its search ended without a fill; {note}"
            )
        return PeerResult(
            "blacksquare",
            PeerStatus.LIMIT,
            None,
            run.wall_time_s,
            f"no fill within the {time_limit_s:g} s limit; {note}",
        )
    width = len(grid[0])
    if not isinstance(cells, list) or len(cells) != len(grid) * width:
        return PeerResult(
            "blacksquare",
            PeerStatus.ERROR,
            None,
            run.wall_time_s,
            f"expected {len(grid) * width} cells: {_snippet(run.stdout)}",
        )
    letter_by_cell = {(index // width, index % width): str(value).upper() for index, value in enumerate(cells)}
    slot_words = ["".join(letter_by_cell[cell] for cell in slot.cells) for slot in slots]
    filled, problem = _assemble_fill(grid, slots, slot_words, score_by_word, unique)
    if filled is None:
        return PeerResult("blacksquare", PeerStatus.ERROR, None, run.wall_time_s, problem)
    return PeerResult("blacksquare", PeerStatus.FILLED, filled, run.wall_time_s, note)


# ---------------------------------------------------------------- plumbing


def _missing_commands(name: str) -> list[str]:
    if name == "qxw":
        return [] if _qxw_command() else ["qxw (Debian package qxw; see bench/peers/install.sh)"]
    if name == "gecode":
        missing = []
        if not shutil.which("minizinc"):
            missing.append("minizinc (Debian package minizinc; see bench/peers/install.sh)")
        if not shutil.which("fzn-gecode"):
            missing.append("fzn-gecode (Debian package flatzinc; see bench/peers/install.sh)")
        return missing
    if name == "blacksquare":
        found = importlib.util.find_spec(BLACKSQUARE_MODULE) is not None
        return [] if found else [f"{BLACKSQUARE_MODULE} (pip install blacksquare)"]
    raise ValueError(f"unknown peer {name!r}; peers are {', '.join(PEERS)}")


def _default_workdir() -> Path:
    env = os.environ.get("XWCP_CACHE_DIR")
    if env:
        return Path(env) / "peers"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "xwcp" / "peers"


def _word_file(workdir: Path, word_file: Path | None, prefix: str, suffix: str, make_text: Callable[[], str]) -> Path:
    """The peer's word-list file: `word_file`, else one named by its content's hash; reused when it holds
    exactly the text, else written (a file damaged in place, even with its size and time kept, is never
    handed to a peer: it would answer for other words)."""
    data = make_text().encode("utf-8")  # ASCII for English; Qxw reads its dictionary as UTF-8
    if word_file is not None:
        path = Path(word_file)
    else:
        path = workdir / f"{prefix}-{hashlib.sha256(data).hexdigest()[:20]}{suffix}"
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return path
    except OSError:
        pass  # not there yet (or unreadable): written below
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp_name, 0o644)
        os.replace(tmp_name, path)  # atomic: a concurrent run never reads half a file
    finally:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
    return path


def _run_process(argv: list[str], time_limit_s: float, *, cwd: Path, interrupt_first: bool) -> _Run:
    """Run `argv` in its own process group; at the limit SIGINT it (if asked), then kill the group.

    The group is killed in a `finally`, so nothing outlives this call, even on KeyboardInterrupt.
    """
    start = time.perf_counter()
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
            start_new_session=True,
        )
    except OSError as error:
        return _Run(None, "", f"cannot start {argv[0]}: {error}", False, time.perf_counter() - start)
    is_timed_out = False
    stdout: str | None
    stderr: str | None
    try:
        try:
            stdout, stderr = process.communicate(timeout=max(0.0, time_limit_s))
        except subprocess.TimeoutExpired:
            is_timed_out = True
            stdout = stderr = None
            if interrupt_first:
                _signal_group(process, signal.SIGINT)
                try:
                    stdout, stderr = process.communicate(timeout=INTERRUPT_GRACE_S)
                except subprocess.TimeoutExpired:
                    pass
            if stdout is None:
                _signal_group(process, signal.SIGKILL)
                stdout, stderr = process.communicate()
        wall_time_s = time.perf_counter() - start
    finally:
        if process.poll() is None:  # e.g. KeyboardInterrupt while waiting
            _signal_group(process, signal.SIGKILL)
            process.wait()
    return _Run(process.returncode, stdout or "", stderr or "", is_timed_out, wall_time_s)  # both read by now


def _signal_group(process: subprocess.Popen[str], sig: int) -> None:
    try:
        os.killpg(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _errors_only(stderr: str) -> str:
    """MiniZinc's stderr without its deprecation warnings about Gecode's old library."""
    kept = [
        block
        for block in stderr.split("\n\n")
        if block.strip() and not block.lstrip().startswith("Warning: included file")
    ]
    return "\n".join(kept)


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NOTE_SNIPPET_CHARS else text[:NOTE_SNIPPET_CHARS] + "..."
