"""A puzzle file's language: the pack a file names (or its charset or letters suggest), and cells turned between the
letters a file writes (Ñ, IJ) and the code chars the model holds (`xwcp.model.alphabet`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from xwcp.base.errors import InputError
from xwcp.model.alphabet import ENGLISH, Alphabet, pack_alphabet, shipped_alphabets, shown_name
from xwcp.model.grid import BLOCK, EMPTY, Grid
from xwcp.model.puzzle import Puzzle
from xwcp.model.text import fold_notes


def named_alphabet(code: object, warnings: list[str]) -> Alphabet | None:
    """The shipped pack a file's language field names (`es`, or a BCP-47 tag such as `es-MX`, `nl_NL`), None when
    the field is absent or names no pack (then a warning says so and English is read). Never a file: the name
    comes from the file being read (`pack_alphabet`)."""
    if not isinstance(code, str) or not code.strip():
        return None
    try:
        return pack_alphabet(code)
    except InputError:
        warnings.append(
            f"the file's language {shown_name(code.strip())} is none of xwcp's packs; read as English (give --language)"
        )
        return None


def charset_alphabet(charset: object, warnings: list[str]) -> Alphabet | None:
    """The shipped pack that fits an ipuz `charset` (the characters a solver may enter) best, when the charset is
    not plain A-Z: of the packs that read every character of it as a letter (its own, or one it folds: Russian
    Ё -> Е), the one that folds the fewest of them, then with the fewest letters the charset lacks; None when
    none does or English is that pack."""
    if not isinstance(charset, str):
        return None
    letters = {ch.upper() for ch in charset if ch.isalpha()}
    if not letters or letters <= set(ENGLISH.letters):
        return None
    fitting = [a for a in shipped_alphabets() if not a.is_open and all(a.fold_word(ch) for ch in letters)]
    if not fitting:
        return None
    best = min(fitting, key=lambda a: (len(letters - set(a.letters)), len(set(a.letters) - letters), a.code))
    if best.is_ascii:
        return None
    warnings.append(_read_as(best, "charset"))
    return best


_DEFERS_TO = {"grc": "el"}
"""Packs a file's letters alone never choose over another pack with the same letters: Ancient Greek writes modern
Greek's 24 capitals (it folds its breathings and accents away), and a Greek file from another tool is modern Greek
far more often, so such a file is read as Greek and the warning names Ancient Greek."""


def letters_alphabet(cells: Iterable[str], warnings: list[str]) -> Alphabet | None:
    """The shipped pack a file that names no language (a .puz from another tool) is in, from the letters its cells
    hold (as written: 'Ñ', 'STAR'): the one pack whose own letters include every non-ASCII letter of them. None
    when they hold no such letter (A-Z and symbols: English, whatever its rebus cells spell), or when no pack or
    several hold them all (then a warning names those packs), unless all but one of those defer to it (`_DEFERS_TO`).

    Only a pack's own letters count, not the ones it folds: a cell is read as it is written, and a folded letter
    would be a symbol in that pack as in English."""
    letters = {ch for text in cells for ch in text if ch.isalpha() and not ch.isascii()}
    if not letters:
        return None
    fitting = [
        a
        for a in shipped_alphabets()
        if not a.is_open and not a.is_ascii and all(a.from_cell(ch) is not None for ch in letters)
    ]
    deferring = {a.code for a in fitting if _DEFERS_TO.get(a.code) in {b.code for b in fitting}}
    if deferring and len(fitting) - len(deferring) == 1:
        chosen = next(a for a in fitting if a.code not in deferring)
        also = ", ".join(f"--language {code}" for code in sorted(deferring))
        warnings.append(_read_as(chosen, "letters") + f" ({also} reads the same letters)")
        return chosen
    if len(fitting) == 1:
        warnings.append(_read_as(fitting[0], "letters"))
        return fitting[0]
    if fitting:
        shown = ", ".join(sorted(letters)[:5]) + (", ..." if len(letters) > 5 else "")
        packs = ", ".join(f"{a.name} (--language {a.code})" for a in fitting)
        warnings.append(
            f"its letters ({shown}) fit several packs: {packs}; read as English: give --language to "
            "read it in one of them"
        )
    return None


def _read_as(alphabet: Alphabet, evidence: str) -> str:
    """The warning that a file is read in `alphabet` because its `evidence` ("charset", "letters") fits it."""
    fits = "fits" if evidence == "charset" else "fit"
    return (
        f"read as {alphabet.name} (--language {alphabet.code}), the pack its {evidence} {fits}; give --language "
        "to read it as another"
    )


def code_cells(puzzle: Puzzle, alphabet: Alphabet) -> Puzzle:
    """`puzzle` (cells as a file writes them: 'Ñ', 'IJ', 'STAR') with cells in `alphabet`'s code chars: a cell
    that is one letter becomes its code char, a rebus its letters (longest first), other characters kept."""
    if alphabet.is_ascii:
        return dataclasses.replace(puzzle, alphabet=alphabet) if puzzle.alphabet is not alphabet else puzzle
    width = puzzle.grid.width
    folds: dict[str, list[tuple[int, int]]] = {}  # a typed cell read as several letters -> its (row, column)s
    cells = tuple(_code_cell(text, alphabet) for text in puzzle.grid.cells)
    for cell, (text, code) in enumerate(zip(puzzle.grid.cells, cells)):
        if text not in (BLOCK, EMPTY) and len(code) > len(text) and alphabet.from_cell(text) is None:
            folds.setdefault(text, []).append((cell // width + 1, cell % width + 1))  # ß -> SS: a rebus cell
    grid = puzzle.grid if cells == puzzle.grid.cells else dataclasses.replace(puzzle.grid, cells=cells)
    warnings = puzzle.warnings + tuple(fold_notes(folds, alphabet))
    return dataclasses.replace(puzzle, grid=grid, alphabet=alphabet, warnings=warnings)


def _code_cell(text: str, alphabet: Alphabet) -> str:
    """A cell's written text as code chars: its letter, its rebus letters, else folded as the pack's word lists
    fold it (Greek ά -> Α; German ß -> S S, a rebus cell), else the text kept (the grid then says no word fits
    it)."""
    if text in (BLOCK, EMPTY):
        return text
    char = alphabet.from_cell(text)
    if char is not None:
        return char
    split = alphabet.split_cell(text) if len(text) > 1 else None
    if split is not None:
        return split
    folded = alphabet.folded_cell(text)
    if folded:
        return folded
    return "".join(alphabet.from_cell(ch) or ch for ch in text)


def written_grid(grid: Grid, alphabet: Alphabet) -> Grid:
    """`grid` with its code chars written as `alphabet` writes them (a private-use char of Dutch IJ -> 'IJ'),
    for a format that holds a cell's letters as text."""
    if not (alphabet.has_multi_letters or alphabet.is_open):
        return grid
    cells = tuple(text if text in (BLOCK, EMPTY) else alphabet.written(text) for text in grid.cells)
    return grid if cells == grid.cells else dataclasses.replace(grid, cells=cells)
