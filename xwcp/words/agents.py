"""English nouns in -ER and whether each is the agent noun of a verb (RUNNER -> RUN, BAKER -> BAKE; not CORNER,
BETTER), for the stem rule, from WordNet 3.0.

The table (`TABLE_FILE`, one `word verb` a line, lower case; `word -` for a word in -ER that is no agent noun)
ships with the package under WordNet 3.0's licence (`xwcp.words.irregular.LICENCE_FILE`). `build_table` makes it
from WordNet's data files (Debian's `wordnet-base` puts them in /usr/share/wordnet):

- a noun in -ER is derived from a verb when one of its noun synsets has a derivational link ("+") from it to a
  verb whose spelling it extends (EAT/EATER, BAKE/BAKER, RUN/RUNNER, CARRY/CARRIER, PRINT/PRINTER); its derived
  senses are the linked ones, and all its noun.person senses when one of those is linked (RUNNER the messenger);
- it counts only when that is its common reading: its derived senses are tagged in WordNet's corpus
  (cntlist.rev) more often than all its other senses together, or as often and make at least half of its senses.
  SEWER (the drain, 4, over the one who sews, 1), BETTER (the adjective, 69+, over one who bets, 0) and BATTER (the
  verb, 3, over the one at bat, 2) are no agent nouns;
- every other single-word lemma in -ER of `MIN_LETTERS` or more is written `word -` (CORNER, SEWER, CHEER): the
  stem rule then leaves it whole; but not a comparative (its letters before -ER, -R or a doubled consonant and -ER
  are an adjective, and its noun senses are not its common reading: NEARER, SMALLER, LOWER; not LIVER), nor a word in -ER WordNet lacks (PODCASTER): the stem rule's spelling
  test reads those (NEAR, SMALL, LOW, PODCAST).

Run `python3 -m xwcp.words.agents /usr/share/wordnet` to write the table again.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

from xwcp.words.irregular import read_pairs

MIN_LETTERS = 5
"""Shortest word in -ER kept (the stem rule reads no shorter one as an agent noun)."""
TABLE_FILE = Path(__file__).parent / "data" / "agent-nouns-en.txt"
NOT_AN_AGENT = "-"
"""The table's verb for a word in -ER that is no agent noun."""
_LETTERS = re.compile(r"[a-z]+")
_PERSON_LEXFILE = 18
"""WordNet's lexicographer file noun.person."""


@lru_cache(maxsize=1)
def verb_by_agent() -> dict[str, str]:
    """Word in -ER -> its verb, or NOT_AN_AGENT; lower case (empty when the table is missing)."""
    return read_pairs(TABLE_FILE)


def bases(word: str) -> list[str]:
    """The verbs an -ER word's spelling may extend: BAKER of BAKE, EATER of EAT, RUNNER of RUN, CARRIER of CARRY."""
    if not word.endswith("er"):
        return []
    stem = word[:-2]
    out = [stem, word[:-1]]
    if len(stem) >= 2 and stem[-1] == stem[-2]:
        out.append(stem[:-1])
    if stem.endswith("i"):
        out.append(stem[:-1] + "y")
    return out


def _words_by_offset(path: Path) -> dict[int, list[str]]:
    """A data file's synsets: offset -> its words (lower case, as WordNet writes them)."""
    out: dict[int, list[str]] = {}
    for line in path.read_text("utf-8", errors="replace").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        n_words = int(fields[3], 16)
        out[int(fields[0])] = [fields[4 + 2 * k].lower() for k in range(n_words)]
    return out


def _tag_counts(source: Path) -> dict[str, int]:
    """Sense key -> how often WordNet's corpus tagged it (cntlist.rev)."""
    out: dict[str, int] = {}
    path = source / "cntlist.rev"
    if path.is_file():
        for line in path.read_text("utf-8", errors="replace").splitlines():
            fields = line.split()
            if len(fields) == 3 and fields[2].isdigit():
                out[fields[0]] = int(fields[2])
    return out


def _senses(source: Path) -> tuple[dict[str, int], dict[str, int], set[str]]:
    """Lemma -> its number of senses over all parts of speech, and as a noun; the set of adjectives."""
    n_by_lemma: dict[str, int] = {}
    n_noun_by_lemma: dict[str, int] = {}
    adjectives: set[str] = set()
    for pos in ("noun", "verb", "adj", "adv"):
        path = source / f"index.{pos}"
        if not path.is_file():
            continue
        for line in path.read_text("utf-8", errors="replace").splitlines():
            fields = line.split()
            if line.startswith(" ") or len(fields) < 3 or not fields[2].isdigit():
                continue
            n_by_lemma[fields[0]] = n_by_lemma.get(fields[0], 0) + int(fields[2])
            if pos == "adj":
                adjectives.add(fields[0])
            if pos == "noun":
                n_noun_by_lemma[fields[0]] = int(fields[2])
    return n_by_lemma, n_noun_by_lemma, adjectives


def _sense_key(word: str, lexfile: int, lex_id: int) -> str:
    """WordNet's sense key of a noun sense (cntlist.rev's key)."""
    return f"{word}%1:{lexfile:02d}:{lex_id:02d}::"


def build_table(source: Path) -> list[tuple[str, str]]:
    """The (word, verb or NOT_AN_AGENT) pairs the module docstring describes, sorted."""
    verbs = _words_by_offset(source / "data.verb")
    counts = _tag_counts(source)
    n_senses, n_noun_senses, adjectives = _senses(source)
    counts_by_lemma: dict[str, int] = {}
    noun_counts_by_lemma: dict[str, int] = {}
    for key, n in counts.items():
        lemma = key.split("%", 1)[0]
        counts_by_lemma[lemma] = counts_by_lemma.get(lemma, 0) + n
        if key.startswith(f"{lemma}%1:"):
            noun_counts_by_lemma[lemma] = noun_counts_by_lemma.get(lemma, 0) + n

    def is_comparative(word: str) -> bool:
        """Its letters before -ER (-R, a doubled consonant and -ER) are an adjective, and it is no noun first (LIVER)."""
        if not any(base in adjectives for base in bases(word) if len(base) >= 3):
            return False
        tagged, noun_tagged = counts_by_lemma.get(word, 0), noun_counts_by_lemma.get(word, 0)
        if tagged:
            return 2 * noun_tagged <= tagged
        return 2 * n_noun_senses.get(word, 0) <= n_senses.get(word, 0)

    verb_of: dict[str, str] = {}
    derived_keys: dict[str, set[str]] = {}
    person_keys: dict[str, set[str]] = {}
    has_person_link: set[str] = set()
    for line in (source / "data.noun").read_text("utf-8", errors="replace").splitlines():
        if line.startswith(" "):
            continue
        fields = line.split()
        lexfile = int(fields[1])
        n_words = int(fields[3], 16)
        words = [(fields[4 + 2 * k].lower(), int(fields[5 + 2 * k], 16)) for k in range(n_words)]
        if lexfile == _PERSON_LEXFILE:
            for word, lex_id in words:
                person_keys.setdefault(word, set()).add(_sense_key(word, lexfile, lex_id))
        at = 4 + 2 * n_words
        n_pointers = int(fields[at])
        for p in range(n_pointers):
            symbol, offset, pos, source_target = fields[at + 1 + 4 * p : at + 5 + 4 * p]
            if symbol != "+" or pos != "v":
                continue
            source_word, target_word = int(source_target[:2], 16), int(source_target[2:], 16)
            if source_word == 0 or target_word == 0:
                continue
            word, lex_id = words[source_word - 1]
            linked = verbs.get(int(offset), [])[target_word - 1 : target_word]
            if not linked or not _LETTERS.fullmatch(word) or len(word) < MIN_LETTERS or linked[0] not in bases(word):
                continue
            if word not in verb_of or len(linked[0]) > len(verb_of[word]):  # BAKE over BAK, the fuller verb
                verb_of[word] = linked[0]
            derived_keys.setdefault(word, set()).add(_sense_key(word, lexfile, lex_id))
            if lexfile == _PERSON_LEXFILE:
                has_person_link.add(word)
    table: dict[str, str] = {}
    for word, verb in verb_of.items():
        derived = derived_keys[word] | (person_keys.get(word, set()) if word in has_person_link else set())
        agent = sum(counts.get(key, 0) for key in derived)
        other = counts_by_lemma.get(word, 0) - agent
        if agent > other or (agent == other and 2 * len(derived) >= n_senses.get(word, 0)):
            table[word] = verb
    for word in n_senses:
        if (
            word not in table
            and len(word) >= MIN_LETTERS
            and word.endswith("er")
            and _LETTERS.fullmatch(word)
            and not is_comparative(word)
        ):
            table[word] = NOT_AN_AGENT
    return sorted(table.items())


def main(argv: list[str]) -> int:
    """Write `TABLE_FILE` from the WordNet folder given (data.noun, data.verb, index.*, cntlist.rev)."""
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python3 -m xwcp.words.agents WORDNET_FOLDER", file=sys.stderr)
        return 2
    pairs = build_table(Path(argv[0]))
    TABLE_FILE.write_text("".join(f"{word} {verb}\n" for word, verb in pairs), "utf-8")
    n_agents = sum(verb != NOT_AN_AGENT for _, verb in pairs)
    print(f"{n_agents} agent nouns and {len(pairs) - n_agents} other words in -er written to {TABLE_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
