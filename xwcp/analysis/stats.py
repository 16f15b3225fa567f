"""Statistics of a grid as a constructor reads them: entries, blocks, lengths, letters, unchecked cells, weak
entries, repeated words, shared substrings and the theme entries apart.

Pure counting over the grid and the word list's scores; no solving. The web builder shows it
live (POST /api/stats).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from xwcp.model import BLOCK, EMPTY, Grid, find_slots

if TYPE_CHECKING:
    from xwcp.model.alphabet import Alphabet
    from xwcp.words.wordlist import WordList

DEFAULT_BELOW_SCORE = 50
"""Entries scored under this are listed as weak (the default list's ordinary entries score 50)."""
DEFAULT_SUBSTRING = 4
"""Shortest substring two entries may share before it is listed (as `--max-shared-substring 3` refuses)."""
MAX_SHARED_LISTED = 50
"""Most shared-substring pairs listed (the count is always given)."""


def grid_stats(
    grid: Grid,
    words: WordList | None = None,
    *,
    below_score: int = DEFAULT_BELOW_SCORE,
    substring: int = DEFAULT_SUBSTRING,
    theme: frozenset[str] | set[str] = frozenset(),
    alphabet: Alphabet | None = None,
) -> dict[str, Any]:
    """The statistics of `grid` (see the module docstring).

    Args:
        words: the word list (`score(text)`), for the entries below `below_score`; None leaves that out.
        below_score: complete entries scored under this (or not in the list) are listed in `below`.
        substring: pairs of complete entries sharing a run of this many letters or more are listed in `shared`.
        theme: slot ids (like "17A") marked as theme entries: listed in `theme`, not in `below`.
        alphabet: the letters counted in `letters` (keyed by how the alphabet writes them); None: the word
            list's alphabet, English without a list.

    Returns:
        A JSON-ready dict; counts are whole numbers, `average_length` has two decimals.
    """
    from xwcp.model.alphabet import ENGLISH

    if alphabet is None:
        alphabet = words.alphabet if words is not None else ENGLISH
    slots = find_slots(grid)
    n_cells = grid.width * grid.height
    n_blocks = grid.cells.count(BLOCK)
    n_white = n_cells - n_blocks
    slots_by_cell = Counter(cell for slot in slots for cell in slot.cells)
    unchecked = [cell for cell in range(n_cells) if grid.cells[cell] != BLOCK and slots_by_cell[cell] < 2]
    filled = [text for text in grid.cells if text not in (BLOCK, EMPTY)]
    letters = Counter(ch for text in filled for ch in text)  # a rebus cell counts each of its letters
    length_by_id = {slot.name: slot.letter_length(grid) for slot in slots}  # an entry's letters, a rebus's all
    lengths = Counter(length_by_id.values())
    text_by_id = {slot.name: "".join(grid.cells[c] for c in slot.cells) for slot in slots}
    complete = {name: text for name, text in text_by_id.items() if EMPTY not in text}
    ids = [slot.name for slot in sorted(slots, key=lambda s: (s.direction.letter != "A", s.number))]

    below: list[dict[str, Any]] = []
    scores: list[int] = []
    if words is not None:
        for name in ids:
            if name not in complete:
                continue
            score = words.score(complete[name])
            if score is not None:
                scores.append(score)
            if name not in theme and (score is None or score < below_score):
                below.append({"id": name, "word": complete[name], "score": score})

    ids_by_word: dict[str, list[str]] = {}
    for name in ids:
        if name in complete:
            ids_by_word.setdefault(complete[name], []).append(name)
    repeated = [{"word": word, "ids": names} for word, names in ids_by_word.items() if len(names) > 1]

    shared = _shared_substrings(complete, ids, substring)
    stems = _one_stem(complete, ids, alphabet, words)
    width = grid.width
    return {
        "words": len(slots),
        "blocks": n_blocks,
        "white_cells": n_white,
        "block_percent": round(100 * n_blocks / n_cells, 1) if n_cells else 0.0,
        "average_length": round(sum(length_by_id.values()) / len(slots), 2) if slots else 0.0,
        "lengths": {str(length): lengths[length] for length in sorted(lengths)},
        "letters": {written: letters.get(ch, 0) for written, ch in zip(alphabet.letters, alphabet.chars)},
        "filled_cells": len(filled),
        "empty_cells": grid.cells.count(EMPTY),
        "complete": len(complete),
        "open": len(slots) - len(complete),
        "unchecked": len(unchecked),
        "unchecked_cells": [[cell // width, cell % width] for cell in unchecked],
        "mean_score": round(sum(scores) / len(scores), 1) if scores else None,
        "below": {"score": below_score, "entries": below},
        "repeated": repeated,
        "shared": {"length": substring, "count": len(shared), "pairs": shared[:MAX_SHARED_LISTED]},
        "stems": {"count": len(stems), "pairs": stems[:MAX_SHARED_LISTED]},
        "theme": [
            {"id": name, "word": text_by_id[name], "length": length_by_id[name]} for name in ids if name in theme
        ],
    }


def _one_stem(
    complete: dict[str, str], ids: list[str], alphabet: Alphabet, words: WordList | None
) -> list[dict[str, Any]]:
    """Pairs of complete entries that count as one word for the stem rule (`xwcp.words.stems`: RUNS and RUNNER,
    CONE and ICECREAMCONE), with the reason; a compound's other word is looked up in `words` (any, without)."""
    from xwcp.words.stems import any_word, stem_clash_pairs, stems_for

    names = [name for name in ids if name in complete and all(ch in alphabet.chars for ch in complete[name])]
    by_index = dict(enumerate(names))
    score_of = words.score if words is not None else any_word
    entries = {i: complete[name] for i, name in by_index.items()}
    return [
        {"ids": [by_index[a], by_index[b]], "words": [entries[a], entries[b]], "reason": why}
        for a, b, why in stem_clash_pairs(entries, stems_for(alphabet), score_of=score_of)
    ]


def _shared_substrings(complete: dict[str, str], ids: list[str], n: int) -> list[dict[str, Any]]:
    """Pairs of different complete entries sharing a run of `n` or more letters, with their longest shared run."""
    names = [name for name in ids if name in complete]
    grams_by_name = {name: {complete[name][i : i + n] for i in range(len(complete[name]) - n + 1)} for name in names}
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if complete[a] == complete[b] or not grams_by_name[a] & grams_by_name[b]:
                continue  # a repeated word is listed under `repeated`
            pairs.append(
                {
                    "ids": [a, b],
                    "words": [complete[a], complete[b]],
                    "substring": _longest_common(complete[a], complete[b]),
                }
            )
    return pairs


def _longest_common(a: str, b: str) -> str:
    best = ""
    for i in range(len(a)):
        for j in range(i + len(best) + 1, len(a) + 1):
            if a[i:j] in b:
                best = a[i:j]
            else:
                break
    return best
