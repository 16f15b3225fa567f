"""Clue help for an answer and clue checks of a puzzle: `xwcp.clues`, `xwcp.check_clues`, `xwcp.remember_clues`.

`clues(answer)` gathers what a constructor wants beside the clue box: the clues they wrote for the answer before
(the clue memory, xwcp.words.cluememory), its definitions from WordNet (with WordNet's licence), and the words it
spells (ICECREAMCONE -> ICE CREAM CONE, from the word list's spacing, WordNet, or word frequencies). Each part
that cannot be had (no WordNet installed) is left empty with one line in `notes` saying why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xwcp.analysis.cluecheck import ClueNote, check_clues as _check_clues
from xwcp.base.errors import InputError
from xwcp.words import cluememory
from xwcp.words.dictionary import Definition, DictionaryMissing, Licence, answer_key, open_dictionary
from xwcp.words.phrases import PhraseSplit, spacing_from_file, split_answer

if TYPE_CHECKING:
    from xwcp.services.inputs import GridLike

MAX_ANSWER_LETTERS = 64
"""Longest answer looked up: longer text is no crossword entry (and the phrase split is quadratic in it)."""

ListPaths = "str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None"
"""Word-list files as `clues` and `check_clues` take them: one path or several."""


@dataclass(frozen=True)
class ClueHelp:
    """What `xwcp.clues(answer)` offers for one answer."""

    answer: str
    """The answer's letters, e.g. `ICECREAMCONE`."""
    memory: tuple[str, ...]
    """Clues the constructor wrote for this answer before, the newest first."""
    definitions: tuple[Definition, ...]
    """WordNet's senses of the answer (then of the lemma it inflects: GEESE -> goose), most common first."""
    split: PhraseSplit | None
    """The words the answer spells, or None when it reads as one word."""
    licence: Licence | None
    """The definitions' source and licence (None without a dictionary)."""
    notes: tuple[str, ...] = ()
    """One line for each part that could not be had (no WordNet on this machine)."""
    elapsed_s: float = field(default=0.0, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """The `xwcp clues --format json` object for this answer."""
        return {
            "answer": self.answer,
            "memory": list(self.memory),
            "split": None
            if self.split is None
            else {"words": list(self.split.words), "source": self.split.source.value},
            "definitions": [
                {"lemma": d.lemma, "pos": d.pos, "text": d.text, "examples": list(d.examples), "form_of": d.form_of}
                for d in self.definitions
            ],
            "licence": None
            if self.licence is None
            else {"source": self.licence.source, "name": self.licence.name, "notice": self.licence.notice},
            "notes": list(self.notes),
        }

    def text(self, limit: int | None = 8) -> str:
        """The `xwcp clues` text: the split, the remembered clues, up to `limit` definitions, the licence."""
        lines = [self.answer + (f"  ({self.split.text()}, from the {self.split.source.value})" if self.split else "")]
        for clue in self.memory:
            lines.append(f"  yours: {clue}")
        shown = self.definitions if limit is None else self.definitions[:limit]
        for d in shown:
            lemma = f"form of {d.form_of}" if d.form_of else d.lemma
            lines.append(f"  {d.pos} ({lemma}): {d.text}")
        if len(shown) < len(self.definitions):
            lines.append(f"  ... {len(self.definitions) - len(shown)} more (--limit 0 shows all)")
        if not self.memory and not self.definitions:
            lines.append("  nothing remembered or defined for it")
        lines.extend(f"  note: {note}" for note in self.notes)
        if self.licence is not None and self.definitions:
            lines.append(f"  definitions: {self.licence.source}, {self.licence.name}. {self.licence.notice}")
        return "\n".join(lines)


def _list_paths(words: Any) -> list[Path]:
    if words is None:
        return []
    if isinstance(words, (str, os.PathLike)):
        return [Path(words)]
    return [Path(w) for w in words]


def clues(answer: str, *, words: Any = None, memory_path: str | os.PathLike[str] | None = None) -> ClueHelp:
    """Clue help for `answer`: the constructor's earlier clues, WordNet's definitions, the phrase it spells.

    Args:
        answer: the entry, any spelling (`ice cream cone`, ICECREAMCONE).
        words: word-list file(s) whose lines written with spaces (`ICE CREAM CONE;60`) give the phrase split.
        memory_path: the clue memory's file (default `clues.json` in the data folder).

    Raises:
        InputError: `answer` has no letter A-Z, or is longer than MAX_ANSWER_LETTERS; a list file cannot be read;
            the clue memory is not one.
    """
    import time

    start = time.perf_counter()
    if not isinstance(answer, str):
        raise InputError(f"an answer is text like 'ICECREAMCONE', not {type(answer).__name__}")
    key = answer_key(answer)
    if not key:
        raise InputError(f"{answer!r} has no letters A-Z to look up")
    if len(key) > MAX_ANSWER_LETTERS:
        raise InputError(f"{key[:20]}... has {len(key)} letters; the longest answer looked up has {MAX_ANSWER_LETTERS}")
    notes: list[str] = []
    spacing: dict[str, str] = {}
    for path in _list_paths(words):
        try:
            spacing.update(
                {k: v for k, v in spacing_from_file(str(path), path.stat().st_mtime_ns).items() if k not in spacing}
            )
        except OSError as exc:
            raise InputError(f"{path}: cannot read the word list ({exc.strerror or exc})") from None
    try:
        dictionary = open_dictionary()
    except DictionaryMissing as exc:
        dictionary = None
        notes.append(str(exc))
    definitions = tuple(dictionary.definitions(key)) if dictionary is not None else ()
    split = split_answer(key, spacing=spacing, dictionary=dictionary)
    memory = cluememory.recall(key, None if memory_path is None else Path(memory_path))
    return ClueHelp(
        key,
        tuple(memory),
        definitions,
        split,
        dictionary.licence if dictionary is not None else None,
        tuple(notes),
        elapsed_s=time.perf_counter() - start,
    )


@dataclass(frozen=True)
class ClueChecks:
    """What `xwcp.check_clues` found in a puzzle's clues."""

    notes: tuple[ClueNote, ...]
    """Each thing to fix, in clue order (the shared-word notes last)."""
    n_clues: int
    """How many clues the puzzle has."""

    def as_dict(self) -> dict[str, Any]:
        return {"n_clues": self.n_clues, "notes": [n.as_dict() for n in self.notes]}

    def text(self) -> str:
        if not self.n_clues:
            return "clues: none to check"
        if not self.notes:
            return f"clues: {self.n_clues} checked, nothing to fix"
        return "\n".join([f"clues: {len(self.notes)} to look at"] + [f"  {n.message}" for n in self.notes])


def check_clues(grid: GridLike, *, words: Any = None) -> ClueChecks:
    """Check a puzzle's clues: the answer in its own clue, a rare word two clues share, a clue too long for .puz.

    Args:
        grid: a puzzle file with clues (.puz, .ipuz, .xd, .jpz, .json), or a Puzzle.
        words: word-list file(s) whose spaced lines give the answers' words.
    """
    from xwcp.services.inputs import read_grid_like

    puzzle = read_grid_like(grid)
    spacing: dict[str, str] = {}
    for path in _list_paths(words):
        try:
            spacing.update(spacing_from_file(str(path), path.stat().st_mtime_ns))
        except OSError as exc:
            raise InputError(f"{path}: cannot read the word list ({exc.strerror or exc})") from None
    n_clues = sum(1 for text in puzzle.clue_by_slot.values() if text.strip())
    return ClueChecks(tuple(_check_clues(puzzle, spacing=spacing)), n_clues)


def remember_clues(grid: GridLike, *, memory_path: str | os.PathLike[str] | None = None) -> int:
    """Add a puzzle's clues of complete entries to the clue memory; returns how many were new.

    Raises:
        InputError: the puzzle cannot be read, or the memory cannot be written.
    """
    from xwcp.model.grid import EMPTY
    from xwcp.model.puzzle import clue_order
    from xwcp.services.inputs import read_grid_like

    puzzle = read_grid_like(grid)
    pairs = []
    for slot in clue_order(puzzle.slots()):
        cells = [puzzle.grid.cells[c] for c in slot.cells]
        text = puzzle.clue(slot)
        if text.strip() and all(c != EMPTY and c.isalpha() for c in cells):
            pairs.append((puzzle.alphabet.written("".join(cells)), text))
    return cluememory.remember(pairs, None if memory_path is None else Path(memory_path))
