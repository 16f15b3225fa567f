"""Crossings of two tagged entries in a grid as typed (two names, a name and an abbreviation: a "Natick"), for the
builder to mark.

An entry's tags: its list's third column and the user's (`Controls.tags_by_word`), `obscure` when the list scores
it below `OBSCURE_BELOW`, and `name` or `abbr` when the language's spelling dictionary (the system's Hunspell
.dic, `xwcp.words.build.find_hunspell`) writes it capitalised or in capitals. Every pair of tags counts: the
builder shows each crossing of two tagged complete entries, with the reason, and the constructor judges it.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from xwcp.compile.controls import TAGS
from xwcp.compile.pairs import crossing_clashes
from xwcp.compile.problem import Problem
from xwcp.model.alphabet import Alphabet

ALL_PAIRS = frozenset((a, b) for a in TAGS for b in TAGS if a <= b)
"""Every pair of tags: what the builder marks."""


@lru_cache(maxsize=4)
def dictionary_tags(alphabet: Alphabet) -> dict[str, frozenset[str]]:
    """{word (code chars): {name} or {abbr}} from the language's installed Hunspell dictionary ({} without one)."""
    from xwcp.words.build import find_hunspell
    from xwcp.words.hunspell import tagged_stems

    files = find_hunspell(alphabet)
    if files is None:
        return {}
    out: dict[str, frozenset[str]] = {}
    for stem, tag in tagged_stems(files.dic).items():
        word = alphabet.typed_word(stem).word
        if word:
            out[word] = out.get(word, frozenset()) | {tag}
    return out


def unfair_crossings(
    problem: Problem, tags_by_word: dict[str, frozenset[str]] | None = None
) -> list[dict[str, object]]:
    """Each crossing of two tagged complete entries of `problem`: {"row", "col" (from 0), "slots": [a, d],
    "reason"}, in cell order. `tags_by_word` adds to the spelling dictionary's tags (None: the dictionary's only)."""
    tags = dict(dictionary_tags(problem.alphabet))
    for word, more in (tags_by_word or {}).items():
        tags[word] = tags.get(word, frozenset()) | more
    for word, more in problem.controls.tags_by_word.items():
        tags[word] = tags.get(word, frozenset()) | more
    tagged = replace(problem, controls=problem.controls.replaced(no_crossing=ALL_PAIRS, tags_by_word=tags))
    complete = {s: t for s, t in problem.fixed_text_by_slot.items() if s not in problem.skipped_slot_ids}
    out: list[dict[str, object]] = []
    width = problem.grid.width
    cell_by_pair = {(x.a, x.b): problem.cell_of(x.cell) for x in problem.crossings}
    for clash in crossing_clashes(tagged, complete, with_fixed=True):
        cell = cell_by_pair[(clash.a, clash.b)]
        out.append(
            {
                "row": cell // width,
                "col": cell % width,
                "slots": [problem.slots[clash.a].name, problem.slots[clash.b].name],
                "reason": clash.reason,
            }
        )
    return out
