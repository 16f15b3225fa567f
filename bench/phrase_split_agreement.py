"""How well the phrase cut by the word list alone (`xwcp.words.phrases.list_cut`) reads phrases, against UKACD's
spacing and against the word-frequency cut (wordfreq, WordNet) where that is installed.

Gold: UKACD 1.8+ (BSD-3; not shipped) entries written with spaces or hyphens whose letters are an entry of the list
(phrases, with their right cut), and its one-word entries (letters only, lower case) that are entries of the list
(which should stay whole; many are closed compounds, NIGHTSTAND, so their "cut" rate is an upper bound on false
cuts). Both only of PHRASE_MIN_LETTERS or more, as the stem rule reads them. "Usable" applies the stem rule's own
test (`Stems.part_stems`): every piece but a function word listed and of 3+ letters, else the entry is read whole.

    PYTHONPATH=. python3 bench/phrase_split_agreement.py UKACD18plus.txt [--list PATH] [--sample 3000]

(UKACD 1.8+ from https://www.crossword-compiler.com/en/downloads.html, or the copy in the project's shared data.)
"""

from __future__ import annotations

import argparse
import random
import re
import time
from pathlib import Path

from xwcp.words.phrases import FUNCTION_WORDS, list_cut
from xwcp.words.stems import PHRASE_MIN_LETTERS, _phrase_parts, _phrase_sources
from xwcp.words.wordlist import load_word_list


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ukacd", type=Path, help="UKACD18plus.txt (Latin-1, one entry a line)")
    parser.add_argument("--list", default=None, help="word list (default: the embedded list)")
    parser.add_argument("--sample", type=int, default=3000, help="list entries sampled to compare the two cuts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    words = load_word_list(args.list)
    score_of = words.score
    cut_by_phrase: dict[str, tuple[str, ...]] = {}
    single: set[str] = set()
    for line in args.ukacd.read_text("latin-1").splitlines():
        entry = line.strip()
        if " " in entry or "-" in entry:
            if "'" in entry:
                continue
            parts = tuple(p for p in (re.sub("[^A-Z]", "", w.upper()) for w in re.split(r"[ \-]+", entry)) if p)
            key = "".join(parts)
            if len(parts) > 1 and len(key) >= PHRASE_MIN_LETTERS and score_of(key) is not None:
                cut_by_phrase.setdefault(key, parts)
        elif entry.isalpha() and entry.islower() and len(entry) >= PHRASE_MIN_LETTERS:
            if score_of(entry.upper()) is not None:
                single.add(entry.upper())
    single -= set(cut_by_phrase)

    def usable(cut: tuple[str, ...]) -> tuple[str, ...]:
        ok = len(cut) > 1 and all(p.lower() in FUNCTION_WORDS or (len(p) >= 3 and score_of(p) is not None) for p in cut)
        return cut if ok else ()

    cuts = {"word list": lambda key: list_cut(key, score_of) or ()}
    if _phrase_sources() is not None:
        cuts["frequency"] = _phrase_parts
    print(f"gold: {len(cut_by_phrase)} UKACD phrases and {len(single)} UKACD single words that are list entries")
    got_by_name: dict[str, dict[str, tuple[str, ...]]] = {}
    for name, cut in cuts.items():
        start = time.perf_counter()
        got = {key: cut(key) for key in [*cut_by_phrase, *single]}
        took = time.perf_counter() - start
        got_by_name[name] = got
        n_p, n_s = len(cut_by_phrase), len(single)
        right = sum(got[k] == v for k, v in cut_by_phrase.items())
        cut_p = sum(bool(got[k]) for k in cut_by_phrase)
        right_u = sum(usable(got[k]) == usable(v) for k, v in cut_by_phrase.items())
        cut_s = sum(bool(got[k]) for k in single)
        cut_su = sum(bool(usable(got[k])) for k in single)
        print(
            f"{name:>10} cut: phrases cut right {right / n_p:.1%} (cut at all {cut_p / n_p:.1%}), usable cut right"
            f" {right_u / n_p:.1%}; single words cut {cut_s / n_s:.1%}, usably {cut_su / n_s:.1%}"
            f"  ({took:.1f} s)"
        )
    if "frequency" not in got_by_name:
        print("no wordfreq or WordNet here: the word list's cut alone")
        return
    rng = random.Random(args.seed)
    entries = [
        words.bucket(n).text(i)
        for n in words.lengths
        if n >= PHRASE_MIN_LETTERS
        for i in range(words.bucket(n).n_words)
    ]
    sample = rng.sample(entries, min(args.sample, len(entries)))
    by_freq = {k: usable(_phrase_parts(k)) for k in sample}
    by_list = {k: usable(list_cut(k, score_of) or ()) for k in sample}
    cut_f = [k for k in sample if by_freq[k]]
    whole_f = [k for k in sample if not by_freq[k]]
    same = sum(by_list[k] == by_freq[k] for k in cut_f)
    whole_l = sum(not by_list[k] for k in cut_f)
    also = sum(bool(by_list[k]) for k in whole_f)
    print(
        f"sample of {len(sample)} list entries of {PHRASE_MIN_LETTERS}+ letters (usable cuts): the frequency cut"
        f" cuts {len(cut_f)}; of those the list cut agrees on {same} ({same / max(1, len(cut_f)):.1%}), keeps"
        f" {whole_l} whole, cuts {len(cut_f) - same - whole_l} otherwise; of the {len(whole_f)} it keeps whole the"
        f" list cut cuts {also} ({also / max(1, len(whole_f)):.1%})"
    )
    both = [k for k in sample if by_freq[k] and by_list[k] and by_freq[k] != by_list[k]]
    print("disagreements (frequency | word list):")
    for key in rng.sample(both, min(15, len(both))):
        print(f"  {' '.join(by_freq[key]):<28} | {' '.join(by_list[key])}")
    only = [k for k in whole_f if by_list[k]]
    print("cut by the word list only:", ", ".join(" ".join(by_list[k]) for k in rng.sample(only, min(15, len(only)))))


if __name__ == "__main__":
    main()
