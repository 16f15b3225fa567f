"""Across Lite .puz files through puzpy: rebus cells, circles, diagramless grids, locked solutions, lenient checksums.

Reading takes the grid from the solution: '.' (':' in a diagramless file) a block, a letter an
entered letter, '-' an empty cell, any other character kept as given (a symbol cell). A rebus
cell (GRBS/RTBL) holds its whole string; a circled cell (GEXT) gets a circle mark. A locked
(scrambled) solution is unlocked by trying every key from 0000 to 9999 against its checksum
(`unlock_key`); when none fits, or the file has no solution, the layout is read without its
letters. A checksum that does not match is a warning (other tools leave them wrong), and so
is a missing version; a file cut short or with a header that contradicts its contents is
refused. Text (title, clues, ...) of a version 1.x file is read as Windows-1252 (what Across
Lite writes; UTF-8 when the bytes are valid UTF-8), of a 2.0 file as UTF-8. The language is the
pack code an xwcp `LANG` section names (`LANGUAGE_SECTION`); a file without one is read in the
one pack whose letters include every non-ASCII letter of its cells, else in English
(`letters_alphabet`). Everything the user should know lands in `Puzzle.warnings`.

Writing: version 1.3 with Windows-1252 text (curly quotes and dashes survive), or version 2.0
with UTF-8 text when some text or letter is outside Windows-1252 (Greek, Cyrillic, Ł); the
grid's letters in the solution ('-' where a cell is empty), rebus cells in GRBS/RTBL (the
solution holds their first character; in a 2.0 file every letter outside ASCII is a rebus cell,
as the solution holds one byte per cell), circles in GEXT, the diagramless flag, one clue per
slot in .puz order, each written as given, and a language other than English in a `LANG`
section. What .puz cannot hold (bars, shading and colours, a published numbering, more than
255 different rebus cells) is refused, naming a format that can.
"""

from __future__ import annotations

import re
import struct
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from xwcp.base.errors import InputError
from xwcp.formats._io import read_bytes
from xwcp.formats._language import letters_alphabet, named_alphabet
from xwcp.model.alphabet import ENGLISH
from xwcp.model.grid import (
    BLOCK,
    EMPTY,
    MAX_SIDE,
    NOT_CELL_CONTENTS,
    Grid,
    Mark,
    cell_upper,
    find_slots,
    is_cell_content,
    make_grid,
)
from xwcp.model.puzzle import Puzzle, clue_order
from xwcp.runtime.writes import write_output

if TYPE_CHECKING:
    import puz  # puzpy, imported where used (it has no type stubs: its names are Any to the checker)

_PUZ_BLOCK = "."
_PUZ_DIAGRAMLESS_BLOCK = ":"
_PUZ_EMPTY = "-"
_MAGIC = b"ACROSS&DOWN"
_HEADER_BYTES = 52
"""Size of the .puz header, from the checksum two bytes before ACROSS&DOWN to the solution state."""
_VERSION_AT = 24
"""Offset of the 4-byte version string ('1.3\\0') from the header's start."""
_DIAGRAMLESS = 0x0401
_SOLUTION_NOT_PROVIDED = 0x0002
_CIRCLED = 0x80
TEXT_ENCODING = "cp1252"
"""Across Lite's text encoding (Windows-1252, a superset of the ISO-8859-1 the 1.3 spec names)."""
KNOWN_EXTENSIONS = (b"GRBS", b"RTBL", b"RUSR", b"LTIM", b"GEXT")
"""Extension sections Across Lite writes; anything else after the strings is trailing data (but LANGUAGE_SECTION)."""
LANGUAGE_SECTION = b"LANG"
"""xwcp's own extension section, after Across Lite's: the code of the puzzle's language pack in ASCII (b"es"),
written for any language but English. Across Lite skips sections it does not know and puzpy keeps them; the
solver never sees it (the notes would show it). The reader takes it as a shipped pack's code (`pack_alphabet`),
never as a file."""
_MOST_LANGUAGE_BYTES = 64
"""Longest pack code written in LANGUAGE_SECTION (a pack of one's own may have a longer one: then none is)."""
UTF8_ENCODING = "UTF-8"
"""The text encoding of a version 2.0 file (puzpy's name for it)."""
MAX_REBUS_ENTRIES = 255
"""Most different rebus cells a .puz holds: GRBS gives a cell its RTBL entry's number plus one in one byte."""
_CAN_HOLD = ".ipuz or .jpz"
"""Formats that hold everything the model has: named when .puz refuses something."""
UNLOCK_TIME_LIMIT_S = 4.0
"""Most time the key search of a locked solution may take; past it the layout is read without letters, and the
warning says so. A 60x60 (the largest grid) takes about 0.5 s on a quiet 2-core machine, a 15x15 under 0.1 s: the
budget is for a machine under heavy load, so that no file holds the reader longer."""
_UNLOCK_CELLS_PER_CHUNK = 8_000_000
"""Keys x letters unscrambled at once when unlocking: a 15x15's 10,000 keys in one go, a 60x60's in five chunks
(about 30 MB at a time; all at once took 1.1 GB)."""


def read(path: str | Path) -> Puzzle:
    """Read a .puz file.

    Raises:
        InputError: missing file, not a .puz, a file cut short or whose header contradicts its
            contents, a rebus table that names no entry, a grid without slots.
    """
    source = str(path)
    return from_bytes(read_bytes(path), source)


def from_bytes(data: bytes, source: str = "<puz>") -> Puzzle:
    """The Puzzle in a .puz file's bytes (see `read`)."""
    import puz

    warnings: list[str] = []
    data, start, width, height, n_clues, puzzle_type, solution_state = _check_structure(data, source, warnings)
    version = data[start + _VERSION_AT : start + _VERSION_AT + 4]
    if not re.fullmatch(rb"\d\.\d.", version, re.DOTALL):
        data = data[: start + _VERSION_AT] + b"1.3\x00" + data[start + _VERSION_AT + 4 :]
        warnings.append("the header has no version; read as version 1.3")
    try:
        p, checksum_errors = _load(data, source)
    except _NotUtf8:
        data = data[: start + _VERSION_AT] + b"1.3\x00" + data[start + _VERSION_AT + 4 :]
        p, checksum_errors = _load(data, source)
        warnings.append("the header says version 2 (UTF-8 text) but the text is not UTF-8; read as version 1.3")
    language = p.extensions.get(LANGUAGE_SECTION)
    checksum_errors += _extension_checksum_errors(p, data)
    if checksum_errors:
        warnings.append(
            f"checksums do not match ({', '.join(checksum_errors)}): another tool changed the file; read as it is"
        )
    is_diagramless = puzzle_type == _DIAGRAMLESS
    cells = [BLOCK if ch in (_PUZ_BLOCK, _PUZ_DIAGRAMLESS_BLOCK) else EMPTY for ch in p.solution]
    has_letters = True
    if solution_state == _SOLUTION_NOT_PROVIDED:
        has_letters = False
        warnings.append("the file has no solution (its letters are placeholders); the layout is read without letters")
    elif p.is_solution_locked():
        try:
            key, n_keys = unlock_key(p, time_limit_s=UNLOCK_TIME_LIMIT_S)
        except UnlockTimeout:
            key, n_keys = None, -1
        if key is None and n_keys < 0:
            has_letters = False
            warnings.append(
                f"the solution is locked and the search for its key took more than "
                f"{UNLOCK_TIME_LIMIT_S:g} s; the layout is read without letters"
            )
        elif key is None:
            has_letters = False
            warnings.append(
                "the solution is locked and no key from 0000 to 9999 opens it; the layout is read without letters"
            )
        else:
            blocks = _PUZ_BLOCK + _PUZ_DIAGRAMLESS_BLOCK
            p.solution = puz.unscramble_solution(p.solution, width, height, key, ignore_chars=blocks)
            note = f" ({n_keys} keys fit its checksum; this one spells the most listed words)" if n_keys > 1 else ""
            warnings.append(f"the solution was locked; unlocked with key {key:04d}{note}")
    rebus_by_cell = _rebus_by_cell(p, width, height, source) if has_letters else {}
    for cell, ch in enumerate(p.solution):
        if cells[cell] == BLOCK or not has_letters:
            continue
        if cell in rebus_by_cell:
            cells[cell] = _cell_text(rebus_by_cell[cell], cell, width, source)
        elif ch != _PUZ_EMPTY and not ch.isspace():
            cells[cell] = _cell_text(_from_latin1(ch, p), cell, width, source)
    if language is not None:
        alphabet = named_alphabet(language.decode("utf-8", "replace"), warnings) or ENGLISH
    else:
        alphabet = letters_alphabet(cells, warnings) or ENGLISH
    marks = _circles(p, width, height, warnings)
    grid = make_grid(width, height, cells, marks=marks, source=source)
    slots = find_slots(grid)
    if not slots:
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    ordered = clue_order(slots)
    clue_by_slot: dict[str, str] = {}
    if len(p.clues) == len(ordered):
        clue_by_slot = {slot.name: _from_latin1(text, p) for slot, text in zip(ordered, p.clues) if text}
    elif n_clues:
        warnings.append(
            f"the file has {len(p.clues)} clues but its grid numbers {len(ordered)} entries; the clues are not read"
        )
    return Puzzle(
        grid,
        _from_latin1(p.title, p),
        _from_latin1(p.author, p),
        _from_latin1(p.copyright, p),
        _from_latin1(p.notes, p),
        clue_by_slot,
        is_diagramless,
        tuple(warnings),
        alphabet,
    )


def _check_structure(data: bytes, source: str, warnings: list[str]) -> tuple[bytes, int, int, int, int, int, int]:
    """(data, header start, width, height, clue count, puzzle type, solution state) once the file is whole.

    A clue count whose two bytes are swapped (some writers store it big-endian) is mended, with a
    warning, when the file holds that many strings.

    Raises:
        InputError: no ACROSS&DOWN, a header, grid or string section cut short, a size out of range.
    """
    at = data.find(_MAGIC)
    if at < 0:
        raise InputError("not a valid .puz file: no ACROSS&DOWN header", source)
    start = at - 2
    if start < 0 or len(data) < start + _HEADER_BYTES:
        raise InputError("not a valid .puz file: the header is cut short", source)
    width, height, n_clues, puzzle_type, solution_state = struct.unpack_from("<BBHHH", data, start + 44)
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise InputError(
            f"not a valid .puz file: a {width}x{height} grid (the largest supported is {MAX_SIDE}x{MAX_SIDE})", source
        )
    at = start + _HEADER_BYTES + 2 * width * height
    if len(data) < at:
        raise InputError(f"not a valid .puz file: the file ends inside its {width}x{height} grid", source)
    n_strings = _count_strings(data, at, 3 + n_clues)
    if n_strings < 3 + n_clues:
        swapped = (n_clues >> 8) | ((n_clues & 0xFF) << 8)
        if 0 < swapped <= 2 * width * height and n_strings >= 3 + swapped:
            data = data[: start + 46] + struct.pack("<H", swapped) + data[start + 48 :]
            warnings.append(f"the header's clue count reads {n_clues}: its two bytes are swapped; read as {swapped}")
            n_clues = swapped
        elif n_strings < 3:
            raise InputError(
                f"not a valid .puz file: the file ends inside the {('title', 'author', 'copyright')[n_strings]}", source
            )
        else:
            raise InputError(
                f"not a valid .puz file: the header says {n_clues} clues but only {n_strings - 3} "
                "strings follow the title, author and copyright (cut short, or a wrong header)",
                source,
            )
    return data, start, width, height, n_clues, puzzle_type, solution_state


def _count_strings(data: bytes, at: int, most: int) -> int:
    """How many NUL-terminated strings start at `at` (counting up to `most`)."""
    count = 0
    while count < most:
        end = data.find(b"\x00", at)
        if end < 0:
            break
        count, at = count + 1, end + 1
    return count


class _NotUtf8(Exception):
    """A version 2 file whose text is not UTF-8."""


def _load(data: bytes, source: str) -> tuple[puz.Puzzle, list[str]]:
    """(puzpy Puzzle, names of the header checksums that do not match): puzpy reads the whole file before it
    compares checksums, so a mismatch still leaves every field read."""
    import puz

    p = puz.Puzzle()
    try:
        p.load(data)
    except puz.PuzzleFormatError as exc:
        if "checksum does not match" not in exc.message:
            raise InputError(f"not a valid .puz file: {exc.message}", source) from None
    except UnicodeDecodeError as exc:
        if p.version_tuple() >= (2, 0):
            raise _NotUtf8() from None
        raise InputError(f"not a valid .puz file ({exc.__class__.__name__}: {exc})", source) from None
    except (ValueError, IndexError, KeyError, struct.error) as exc:
        raise InputError(f"not a valid .puz file ({exc.__class__.__name__}: {exc})", source) from None
    start = data.find(_MAGIC) - 2
    stored = struct.unpack_from("<H11sxHQ", data, start)
    errors = [
        name
        for name, want, have in (
            ("global", stored[0], p.global_cksum()),
            ("header", stored[2], p.header_cksum()),
            ("magic", stored[3], p.magic_cksum()),
        )
        if want != have
    ]
    return p, errors


def _extension_checksum_errors(p: puz.Puzzle, data: bytes) -> list[str]:
    """Names of the known extension sections (GRBS, GEXT, ...) whose checksum does not match.

    Sections with unknown codes are trailing data some tools leave (puzpy reads them as sections
    too); they are dropped here, as Across Lite ignores them. xwcp's LANGUAGE_SECTION is checked too.
    """
    import puz

    kept = KNOWN_EXTENSIONS + (LANGUAGE_SECTION,)
    for code in [c for c in p.extensions if c not in kept]:
        del p.extensions[code]
    p._extensions_order = [c for c in p._extensions_order if c in kept]
    # walk the sections again from the end of the strings: puzpy keeps their data, not their checksums
    at = len(data) - (len(p.postscript) if isinstance(p.postscript, bytes) else 0)
    errors: list[str] = []
    spans = []
    pos = _strings_end(data)
    while pos + 8 <= at:
        code, length, checksum = struct.unpack_from("<4sHH", data, pos)
        spans.append((code, data[pos + 8 : pos + 8 + length], checksum))
        pos += 8 + length + 1
    for code, body, checksum in spans:
        if code in kept and puz.data_cksum(body) != checksum:
            errors.append(code.decode("ascii"))
    return errors


def _strings_end(data: bytes) -> int:
    """Offset just past the notes string (where extension sections start)."""
    start = data.find(_MAGIC) - 2
    width: int
    height: int
    n_clues: int
    width, height, n_clues = struct.unpack_from("<BBH", data, start + 44)
    at = start + _HEADER_BYTES + 2 * width * height
    for _ in range(3 + n_clues + 1):
        end = data.find(b"\x00", at)
        if end < 0:
            return len(data)
        at = end + 1
    return at


def _from_latin1(text: str, p: puz.Puzzle) -> str:
    """A text field as the file meant it: puzpy decodes a 1.x file as ISO-8859-1; Across Lite writes
    Windows-1252 (curly quotes, dashes in 0x80-0x9F), and some tools UTF-8."""
    if p.version_tuple() >= (2, 0) or text.isascii():
        return text
    raw = text.encode("latin-1")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return "".join(raw[i : i + 1].decode(TEXT_ENCODING, errors="ignore") or chr(raw[i]) for i in range(len(raw)))


def _cell_text(text: str, cell: int, width: int, source: str) -> str:
    """A cell's contents for the model: upper case, no spaces; a character the model keeps for blocks or
    its syntax ('#', '[', ']') is refused."""
    text = cell_upper("".join(text.split()))
    if not text:
        return EMPTY
    if not is_cell_content(text):
        raise InputError(
            f"row {cell // width + 1}, column {cell % width + 1} holds {text!r}, which xwcp cannot "
            f"keep in a cell ({NOT_CELL_CONTENTS})",
            source,
        )
    return text


def _rebus_by_cell(p: puz.Puzzle, width: int, height: int, source: str) -> dict[int, str]:
    """The rebus strings by cell (GRBS/RTBL).

    Raises:
        InputError: a table of the wrong size, or a cell naming an entry RTBL lacks.
    """
    import puz

    if puz.Extensions.Rebus not in p.extensions:
        return {}
    table = p.extensions[puz.Extensions.Rebus]
    if len(table) != width * height:
        raise InputError(
            f"not a valid .puz file: the rebus table (GRBS) has {len(table)} cells, not {width * height}", source
        )
    try:
        rebus = p.rebus()
    except ValueError as exc:
        raise InputError(f"not a valid .puz file: the rebus entries (RTBL) do not read ({exc})", source) from None
    out: dict[int, str] = {}
    for cell in rebus.get_rebus_squares():
        key = rebus.table[cell] - 1
        if key not in rebus.solutions:
            raise InputError(
                f"not a valid .puz file: the rebus cell at row {cell // width + 1}, column "
                f"{cell % width + 1} names entry {key}, which the rebus table (RTBL) lacks",
                source,
            )
        out[cell] = _from_latin1(rebus.solutions[key], p)
    return out


def _circles(p: puz.Puzzle, width: int, height: int, warnings: list[str]) -> dict[int, Mark]:
    import puz

    data = p.extensions.get(puz.Extensions.Markup)
    if data is None:
        return {}
    if len(data) != width * height:
        warnings.append(f"the markup table (GEXT) has {len(data)} cells, not {width * height}; circles not read")
        return {}
    return {cell: Mark(circle=True) for cell, flags in enumerate(data) if flags & _CIRCLED}


# ----- a locked solution --------------------------------------------------------------------


class UnlockTimeout(Exception):
    """The key search of a locked solution ran past its time limit."""


def unlock_key(p: puz.Puzzle, *, time_limit_s: float | None = None) -> tuple[int | None, int]:
    """The key (0 to 9999) that unlocks puzpy Puzzle `p`'s scrambled solution, and how many keys fit.

    Across Lite scrambles the letters of the solution (column by column, blocks left out) with
    a four-digit key and keeps a 16-bit checksum of the plain letters; every key is tried here
    with numpy, as many at once as keep the work arrays to a few MB (a 60x60 once took 1.1 GB).
    Several keys can fit a 16-bit checksum: the one whose grid spells the most words of the
    default list is taken.

    Returns:
        (key, number of keys that fit); (None, 0) when none fits or the solution is not all A-Z.

    Raises:
        UnlockTimeout: the search took longer than `time_limit_s` (checked between chunks of keys).
    """
    import time

    import numpy as np
    import puz

    width, height = p.width, p.height
    blocks = _PUZ_BLOCK + _PUZ_DIAGRAMLESS_BLOCK
    by_column = "".join(p.solution[r * width + c] for c in range(width) for r in range(height))
    letters = "".join(ch for ch in by_column if ch not in blocks)
    if not letters or not all("A" <= ch <= "Z" for ch in letters):
        return None, 0
    n = len(letters)
    scrambled = np.frombuffer(letters.encode("ascii"), dtype=np.uint8).astype(np.int16) - 65
    unshuffle = np.concatenate([np.arange(1, n, 2), np.arange(0, n, 2)])
    positions = np.arange(n)
    # one round of puzpy's unscramble_string for key digit k: unshuffle, then rotate by n-k (max(2n-k, 0) when
    # k > n), as one gather per digit value; the shift is subtracted unreduced and taken mod 26 once at the end
    perm_by_digit = [unshuffle[(positions + (n - k if n >= k else max(2 * n - k, 0))) % n] for k in range(10)]
    first_round = np.stack([scrambled[perm] for perm in perm_by_digit])  # the first round's gather, per digit
    keys_per_chunk = max(1, min(10000, _UNLOCK_CELLS_PER_CHUNK // n))  # memory bounded whatever the grid's size
    n_whole = n - n % 4
    letter_by_value = ((np.arange(26 + 36) - 36) % 26 + 65).astype(np.uint8)  # 0..25 less four shifts of 0..9
    checksums: list[np.ndarray] = []
    started_s = time.monotonic()
    for first in range(0, 10000, keys_per_chunk):
        if first and time_limit_s is not None and time.monotonic() - started_s > time_limit_s:
            raise UnlockTimeout(f"no key settled within {time_limit_s:g} s")
        keys = np.arange(first, min(10000, first + keys_per_chunk))
        digits = np.stack([keys // 1000, keys // 100 % 10, keys // 10 % 10, keys % 10], axis=1).astype(np.int16)
        state = first_round[digits[:, 3]]  # every key starts from the same letters: its first gather is shared
        for round_ in range(3, -1, -1):
            for k in range(10) if round_ < 3 else ():
                rows = np.flatnonzero(digits[:, round_] == k)
                if len(rows):
                    state[rows] = np.take(state[rows], perm_by_digit[k], axis=1)
            # the shift: key digit i % 4 off position i (unreduced; mod 26 once, below)
            state[:, :n_whole].reshape(len(keys), n_whole // 4, 4)[...] -= digits[:, None, :]
            state[:, n_whole:] -= digits[:, : n - n_whole]
        plain = np.ascontiguousarray(letter_by_value[state + 36].T)  # a row per position, a column per key
        del state
        checksum = np.zeros(len(keys), dtype=np.int32)
        for pos in range(n):  # puzpy's data_cksum on the plain letters, for every key of the chunk at once
            checksum = ((checksum >> 1) | ((checksum & 1) << 15)) + plain[pos]
            checksum &= 0xFFFF
        checksums.append(checksum)
    checksum = np.concatenate(checksums)
    fits = [int(key) for key in np.flatnonzero(checksum == p.scrambled_cksum)]
    if not fits:
        return None, 0
    if len(fits) == 1:
        return fits[0], 1
    words = _listed_words()

    def n_words(key: int) -> int:
        solution = puz.unscramble_solution(p.solution, width, height, key, ignore_chars=blocks)
        grid = Grid(width, height, tuple(BLOCK if ch in blocks else ch for ch in solution))
        return sum("".join(grid.cells[c] for c in slot.cells) in words for slot in find_slots(grid))

    best = max(fits, key=lambda key: (n_words(key), -key))
    return best, len(fits)


def _listed_words() -> frozenset[str]:
    """The words of the default list (only read to choose between keys that fit a checksum)."""
    from xwcp.words.wordlist import _decode, list_source

    source, raw = list_source(None)
    return frozenset(line.split(";", 1)[0].strip().upper() for line in _decode(raw, source).splitlines())


# ----- writing ------------------------------------------------------------------------------


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` as a .puz file (version 1.3 with Windows-1252 text; 2.0 with UTF-8 when that cannot hold it).

    Raises:
        InputError: something .puz cannot hold (listed entries, bars, shading or colours, a published numbering,
            more than 255 different rebus cells); the message names a format that can.
    """
    data = to_bytes(puzzle, str(path))
    write_output(path, data, "puzzle")


def to_bytes(puzzle: Puzzle, source: str = "<puz>") -> bytes:
    """The .puz file's bytes (see `write`)."""
    import puz

    grid = puzzle.grid
    check_writable(puzzle, source)
    encoding = _encoding(puzzle)
    block = _PUZ_DIAGRAMLESS_BLOCK if puzzle.is_diagramless else _PUZ_BLOCK
    p = puz.Puzzle("2.0" if encoding == UTF8_ENCODING else "1.3")
    p.encoding = encoding
    p.width, p.height = grid.width, grid.height
    if puzzle.is_diagramless:
        p.puzzletype = puz.PuzzleType.Diagramless
    solution = []
    rebus = p.rebus()
    for cell, content in enumerate(grid.cells):
        if content == BLOCK:
            solution.append(block)
        elif content == EMPTY:
            solution.append(_PUZ_EMPTY)
        else:
            solution.append(_solution_char(content, encoding))
            if not _is_one_byte(content, encoding):
                rebus.add_rebus_squares(cell, content)
    p.solution = "".join(solution)
    p.fill = "".join(block if c == BLOCK else _PUZ_EMPTY for c in grid.cells)
    circles = [cell for cell, mark in grid.marks if mark.circle]
    if circles:
        p.markup().set_markup_squares(circles, puz.GridMarkup.Circled)
    p.title, p.author, p.copyright, p.notes = puzzle.title, puzzle.author, puzzle.copyright, puzzle.notes
    p.clues = [puzzle.clue(slot) for slot in clue_order(find_slots(grid))]
    written: bytes = p.tobytes()
    code = puzzle.alphabet.code.encode("utf-8")
    if not puzzle.alphabet.is_ascii and len(code) <= _MOST_LANGUAGE_BYTES:  # after Across Lite's sections (the
        # header's checksums cover none of them)
        written += struct.pack("<4sHH", LANGUAGE_SECTION, len(code), puz.data_cksum(code)) + code + b"\x00"
    return written


def _encoding(puzzle: Puzzle) -> str:
    """The text encoding `puzzle` is written in: Across Lite's Windows-1252 when it holds every text and letter,
    else UTF-8 (a version 2.0 file)."""
    try:
        for _name, text in _texts(puzzle):
            text.encode(TEXT_ENCODING)
    except UnicodeEncodeError:
        return UTF8_ENCODING
    return TEXT_ENCODING


def _is_one_byte(content: str, encoding: str) -> bool:
    """A cell the solution holds as it is: one character of one byte in `encoding` (else a rebus cell)."""
    return len(content) == 1 and len(content.encode(encoding)) == 1


def _solution_char(content: str, encoding: str) -> str:
    """The solution's character for a cell: its first character where `encoding` holds it in one byte, else that
    character's base letter (Ñ -> N in a 2.0 file), else 'X' (a rebus cell's letters are in RTBL)."""
    first = content[0]
    for char in (first, unicodedata.normalize("NFD", first)[0]):  # `encoding` holds every cell's characters
        if len(char.encode(encoding)) == 1:
            return char
    return "X"


def check_writable(puzzle: Puzzle, source: str = "<puz>") -> None:
    """Refuse what .puz cannot hold: Schrödinger cells, listed entries (a variety puzzle), bars, shading and colours, a published
    numbering, more than
    MAX_REBUS_ENTRIES different rebus cells, a NUL character.

    Raises:
        InputError: naming the first such thing and a format that holds it.
    """
    grid = puzzle.grid
    if grid.pairs:
        first = min(grid.pairs)
        raise InputError(
            f"Schrödinger cells (first at row {first // grid.width + 1}, column {first % grid.width + 1}): "
            ".puz holds one solution per cell; write .ipuz or .xd (both letters of each), .txt or .json",
            source,
        )
    listed = grid.entries or grid.entries_only or puzzle.clue_lists
    if listed:
        what = f"entry {grid.entries[0].name}" if grid.entries else "its own clue lists"
        raise InputError(
            f"a variety puzzle ({what}: entries listed as cells, not only across and down runs): .puz holds "
            f"Across and Down clues on the grid's runs only; write {_CAN_HOLD}",
            source,
        )
    if grid.bars:
        cell, side = min(grid.bars)
        raise InputError(
            f"bars between cells (first at row {cell // grid.width + 1}, column "
            f"{cell % grid.width + 1}): .puz cannot hold bars; write {_CAN_HOLD}",
            source,
        )
    shaded = [cell for cell, mark in grid.marks if mark.shaded or mark.color]
    if shaded:
        raise InputError(
            f"shaded or coloured cells (first at row {shaded[0] // grid.width + 1}, column "
            f"{shaded[0] % grid.width + 1}): .puz holds circles only; write {_CAN_HOLD} "
            "(or .xd)",
            source,
        )
    if grid.numbers is not None:
        raise InputError(
            f"the grid has its own numbering: .puz numbers every grid the standard way; write {_CAN_HOLD}", source
        )
    for name, text in _texts(puzzle):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InputError(
                f"{name} has {text[exc.start]!r}, which is no Unicode character (.puz text is UTF-8 at most)", source
            ) from None
        if "\x00" in text:
            raise InputError(f"{name} has a NUL character, which .puz cannot hold", source)
    encoding = _encoding(puzzle)
    rebuses = {
        content for content in grid.cells if content not in (BLOCK, EMPTY) and not _is_one_byte(content, encoding)
    }
    if len(rebuses) > MAX_REBUS_ENTRIES:
        in_utf8 = " (a version 2.0 file writes each letter outside ASCII as one)" if encoding == UTF8_ENCODING else ""
        raise InputError(
            f"the grid has {len(rebuses)} different rebus cells{in_utf8}: .puz holds at most "
            f"{MAX_REBUS_ENTRIES}; write {_CAN_HOLD}",
            source,
        )


def _texts(puzzle: Puzzle) -> list[tuple[str, str]]:
    """(what it is, text) for every text .puz writes: title, author, copyright, notes, clues and cells."""
    grid = puzzle.grid
    texts = [
        ("title", puzzle.title),
        ("author", puzzle.author),
        ("copyright", puzzle.copyright),
        ("notes", puzzle.notes),
    ]
    texts += [(f"clue {name}", text) for name, text in puzzle.clue_by_slot.items()]
    texts += [
        (f"the cell at row {cell // grid.width + 1}, column {cell % grid.width + 1}", content)
        for cell, content in enumerate(grid.cells)
    ]
    return texts
