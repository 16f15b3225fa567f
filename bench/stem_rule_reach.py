"""How far the stem rule's additions reach on a word list, to judge false clashes by eye: the words an irregular form
or a derivational -ERY moves into another stem group, and a sample of entries read as phrases, with the time taken.

    PYTHONPATH=. python3 bench/stem_rule_reach.py [--list PATH] [--sample 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from xwcp.model.alphabet import ENGLISH
from xwcp.words.irregular import lemma_by_form
from xwcp.words.stems import PHRASE_MIN_LETTERS, Stems, stems_for
from xwcp.words.wordlist import load_word_list


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", default=None, help="word list (default: the embedded list)")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    words = load_word_list(args.list)
    rng = random.Random(args.seed)

    def is_word(text: str) -> bool:
        return words.word_id(text) is not None

    score_of = words.score

    plain = Stems(ENGLISH)
    stems = stems_for(ENGLISH)
    table = lemma_by_form()
    listed_forms = [(form, lemma) for form, lemma in table.items() if is_word(form.upper())]
    joined = [
        (form, lemma)
        for form, lemma in listed_forms
        if any(is_word(w) for w in (lemma.upper(), lemma.upper() + "S", lemma.upper() + "ED", lemma.upper() + "ING"))
    ]
    print(f"irregular forms: {len(table)} in the table, {len(listed_forms)} listed, {len(joined)} with a listed form")
    print("  of their lemma (LEMMA, LEMMAS, LEMMAED, LEMMAING); a sample:")
    for form, lemma in rng.sample(joined, min(args.sample, len(joined))):
        print(f"  {form.upper():>14} -> {lemma.upper()}")

    texts = [words.bucket(n).text(i) for n in words.lengths for i in range(words.bucket(n).n_words)]
    by_plain: dict[str, list[str]] = {}
    start = time.perf_counter()
    for text in texts:
        by_plain.setdefault(plain.stem(text), []).append(text)
    print(f"{len(texts)} words, Snowball + agent stems in {time.perf_counter() - start:.1f} s")
    moved = []
    start = time.perf_counter()
    for text in texts:
        root = stems.root(text, score_of)
        base = plain.stem(text)
        if root != base and by_plain.get(root):
            moved.append((text, root, by_plain[root][:4]))
    print(f"roots in {time.perf_counter() - start:.1f} s: {len(moved)} words (-ERY) join another stem's words")
    for name, group in (("-ERY roots", moved),):
        print(f"\n{name}: {len(group)}; a sample (word -> root: words of that stem):")
        for text, root, others in rng.sample(group, min(args.sample, len(group))):
            print(f"  {text:>14} -> {root:<10} {' '.join(others)}")
    long_words = [t for t in texts if len(t) >= PHRASE_MIN_LETTERS]
    picked = rng.sample(long_words, min(args.sample * 5, len(long_words)))
    start = time.perf_counter()
    read = [(t, sorted(stems.part_stems(t, score_of))) for t in picked]
    took = time.perf_counter() - start
    phrases = [(t, p) for t, p in read if p]
    print(
        f"\nphrases: {len(phrases)} of {len(picked)} sampled entries of {PHRASE_MIN_LETTERS}+ letters read as phrases"
        f" ({took / len(picked) * 1000:.2f} ms an entry, first reading)"
    )
    for text, parts in phrases[: args.sample]:
        print(f"  {text:>16}: {' '.join(parts)}")


if __name__ == "__main__":
    main()
