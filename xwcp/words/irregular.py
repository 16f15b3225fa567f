"""English irregular forms and their lemmas (ATE -> EAT, MICE -> MOUSE) for the stem rule, from WordNet 3.0.

The table (`TABLE_FILE`, one `form lemma` a line, lower case) ships with the package under WordNet 3.0's licence
(`LICENCE_FILE`, which permits copying and redistribution with its notice kept). `build_table` makes it from
WordNet's exception lists (`verb.exc`, `noun.exc`, `adj.exc`; Debian's `wordnet-base` puts them in
/usr/share/wordnet), keeping only what cannot mislead the rule:

- a form and lemma of letters alone, each of at least `MIN_LETTERS` (WENT -> GO and WAS -> BE are left out);
- a form with one lemma in every list (AXES, of AXE and AXIS, is left out);
- a form that is no common word of its own: WordNet has it as a lemma of at most one sense, none tagged in its
  corpus, so ROSE (the flower), LEFT, SAW, FOUND, FELT, SPAT and GROUND stay themselves, while ATE (a lemma of one
  untagged sense, the goddess) reads EAT.

Run `python3 -m xwcp.words.irregular /usr/share/wordnet` to write the table again.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

MIN_LETTERS = 3
"""Shortest form or lemma kept."""
TABLE_FILE = Path(__file__).parent / "data" / "irregular-en.txt"
LICENCE_FILE = Path(__file__).parent / "data" / "WORDNET-LICENSE"
_LISTS = ("verb", "noun", "adj")
_LETTERS = re.compile(r"[a-z]+")


def read_pairs(path: Path) -> dict[str, str]:
    """A shipped two-column table (`word other` a line) as a map from the first column (empty when it is missing)."""
    try:
        text = path.read_text("utf-8")
    except OSError:
        return {}
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            out[parts[0]] = parts[1]
    return out


@lru_cache(maxsize=1)
def lemma_by_form() -> dict[str, str]:
    """Irregular form -> its lemma, lower case (empty when the table is missing)."""
    return read_pairs(TABLE_FILE)


def _word_lemmas(source: Path) -> set[str]:
    """Lemmas WordNet's index has with a sense tagged in its corpus (the index's tagsense_cnt), or with two senses or
    more over all parts of speech: words of their own."""
    tagged = set()
    senses_by_lemma: dict[str, int] = {}
    for pos in ("noun", "verb", "adj", "adv"):
        path = source / f"index.{pos}"
        if not path.is_file():
            continue
        for line in path.read_text("utf-8", errors="replace").splitlines():
            if line.startswith(" "):
                continue  # the licence at the head of the file
            fields = line.split()
            if len(fields) < 6:
                continue
            n_pointers = int(fields[3])
            tagsense = fields[5 + n_pointers] if len(fields) > 5 + n_pointers else "0"
            if tagsense.isdigit() and int(tagsense) > 0:
                tagged.add(fields[0])
            if fields[2].isdigit():
                senses_by_lemma[fields[0]] = senses_by_lemma.get(fields[0], 0) + int(fields[2])
    return tagged | {lemma for lemma, n in senses_by_lemma.items() if n >= 2}


def build_table(source: Path) -> list[tuple[str, str]]:
    """The (form, lemma) pairs of `source`'s exception lists that the module docstring keeps, sorted."""
    lemmas_by_form: dict[str, set[str]] = {}
    for name in _LISTS:
        path = source / f"{name}.exc"
        if not path.is_file():
            continue
        for line in path.read_text("utf-8", errors="replace").splitlines():
            fields = line.split()
            if len(fields) >= 2:
                lemmas_by_form.setdefault(fields[0], set()).update(fields[1:])
    tagged = _word_lemmas(source)
    kept = []
    for form, lemmas in lemmas_by_form.items():
        if len(lemmas) != 1 or form in tagged:
            continue
        lemma = next(iter(lemmas))
        if lemma == form or not (_LETTERS.fullmatch(form) and _LETTERS.fullmatch(lemma)):
            continue
        if len(form) >= MIN_LETTERS and len(lemma) >= MIN_LETTERS:
            kept.append((form, lemma))
    return sorted(kept)


def main(argv: list[str]) -> int:
    """Write `TABLE_FILE` from the WordNet folder given (the WordNet dict folder: verb.exc, index.noun, ...)."""
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python3 -m xwcp.words.irregular WORDNET_FOLDER", file=sys.stderr)
        return 2
    pairs = build_table(Path(argv[0]))
    TABLE_FILE.write_text("".join(f"{form} {lemma}\n" for form, lemma in pairs), "utf-8")
    print(f"{len(pairs)} forms written to {TABLE_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
