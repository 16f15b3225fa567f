"""The rules on pairs of entries, found in a fill: long shared substrings, two entries of one stem, and crossings of
two tagged entries the controls forbid.

`xwcp.backends.controlled.fill_pair_rules` splits the search on each pair found here; `check_fill` reports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xwcp.base.types import SlotId
from xwcp.compile.controls import OBSCURE_BELOW, shared_substring_pairs
from xwcp.compile.problem import Problem


@dataclass(frozen=True)
class Clash:
    """Two slots whose entries break a pair rule together, and why (a sentence naming both)."""

    a: SlotId
    b: SlotId
    reason: str
    why: str = ""
    """The stem rule's reason alone, without the slots ("share the word EAT"): what `skip_text` reads."""


@dataclass(frozen=True)
class Skip:
    """A word a fill kept by a pair rule skipped: the sentence naming the slots, and the same in plain terms."""

    reason: str
    """E.g. "1A ATECROW and 2A EATERY share the word EAT"."""
    plain: str
    """E.g. "EATERY: shares EAT with ATECROW" (`skip_text`): what the builder shows, once per pair of words."""
    words: frozenset[str]
    """The skipped word and the entry it clashed with (the pair a list of skips names once)."""


def skip_of(
    problem: Problem, clash: Clash, entries: Mapping[SlotId, str], fill: Mapping[SlotId, str] | None = None
) -> Skip:
    """The `Skip` of a clash found in `entries` that a search split on: the word left out is the one of the pair
    the final `fill` does not keep (`clash.a`'s when it keeps neither or there is none); a rule other than the stem
    rule is named by its sentence alone."""
    skipped, kept = entries[clash.a], entries[clash.b]
    if fill is not None and fill.get(clash.a) == skipped and fill.get(clash.b) != kept:
        skipped, kept = kept, skipped
    plain = skip_text(problem, skipped, kept, clash.why) if clash.why else clash.reason
    return Skip(clash.reason, plain, frozenset((skipped, kept)))


def skip_text(problem: Problem, skipped: str, kept: str, why: str) -> str:
    """`skipped` (code chars) left out for the entry `kept` by the stem rule's reason `why`, in plain terms, naming
    no slot: "EATERY: shares EAT with ATECROW" for a word of a phrase, and for a shared stem that is a listed word
    of its own stem other than the two ("EATERY: shares EAT with EATS"); else "ERASER: same stem as ERASE"
    (Snowball's ERAS is no word of it); a compound keeps the rule's words ("CONE: ICECREAMCONE is CONE joined to
    ICECREAM")."""
    from xwcp.words.stems import stems_for

    written = problem.alphabet.written
    if why.startswith("share the word "):  # a word of a phrase: a word by how it was found
        return f"{written(skipped)}: shares {why[len('share the word ') :]} with {written(kept)}"
    for start in ("share the stem ",):
        if why.startswith(start):
            shared = why[len(start) :]
            typed = problem.alphabet.typed_word(shared).word
            if (
                typed
                and typed not in (skipped, kept)
                and problem.words.score(typed) is not None
                and stems_for(problem.alphabet).stem(typed) == shared.lower()
            ):
                return f"{written(skipped)}: shares {shared} with {written(kept)}"
            return f"{written(skipped)}: same stem as {written(kept)}"
    return f"{written(skipped)}: {why}"


def entry_tags(problem: Problem, word: str) -> frozenset[str]:
    """The tags of `word` for `no_crossing`: the user's and the lists' (`Controls.tags_by_word`), and `obscure` when
    the list scores it below `OBSCURE_BELOW`."""
    tags = problem.controls.tags_by_word.get(word, frozenset())
    score = problem.words.score(word)
    if score is not None and score < OBSCURE_BELOW:
        tags = tags | {"obscure"}
    return tags


def crossing_clashes(problem: Problem, entries: Mapping[SlotId, str], *, with_fixed: bool = False) -> list[Clash]:
    """Crossings of two entries whose tags the controls forbid to cross (`no_crossing`), one per crossing cell;
    a crossing of two of the user's complete entries only `with_fixed` (a fill cannot change those)."""
    forbidden = problem.controls.no_crossing
    if not forbidden:
        return []
    out = []
    width = problem.grid.width
    fixed = problem.fixed_text_by_slot
    for x in problem.crossings:
        if x.a not in entries or x.b not in entries or (not with_fixed and x.a in fixed and x.b in fixed):
            continue
        word_a, word_b = entries[x.a], entries[x.b]
        tags_a, tags_b = entry_tags(problem, word_a), entry_tags(problem, word_b)
        if not tags_a or not tags_b:
            continue
        hit = sorted((ta, tb) for ta in tags_a for tb in tags_b if (min(ta, tb), max(ta, tb)) in forbidden)
        if hit:
            ta, tb = hit[0]
            cell = problem.cell_of(x.cell)
            written = problem.alphabet.written
            out.append(
                Clash(
                    x.a,
                    x.b,
                    f"{problem.slots[x.a].name} {written(word_a)} ({ta}) crosses {problem.slots[x.b].name} "
                    f"{written(word_b)} ({tb}) at row {cell // width + 1}, column {cell % width + 1}",
                )
            )
    return out


def stem_clashes(problem: Problem, entries: Mapping[SlotId, str]) -> list[Clash]:
    """Pairs of entries of one stem, or one a compound of the other (`xwcp.words.stems`), with `distinct_stems`."""
    if not problem.controls.distinct_stems:
        return []
    from xwcp.words.stems import stem_clash_pairs, stems_for

    written = problem.alphabet.written
    return [
        Clash(
            a,
            b,
            f"{problem.slots[a].name} {written(entries[a])} and {problem.slots[b].name} {written(entries[b])}"
            + (" " if why.startswith("share") else ": ")
            + why,
            why,
        )
        for a, b, why in stem_clash_pairs(
            entries,
            stems_for(problem.alphabet),
            problem.open_slot_ids,
            problem.words.score,
        )
    ]


def stem_skips(problem: Problem, entries: Mapping[SlotId, str], most: int) -> list[Skip]:
    """Why a fill kept by the stem rule skipped words (up to `most` reasons): per open slot, the best word of its
    domain that outscores its entry and shares the stem of another entry ("1A TIES and 2A TIED share the stem TIE",
    naming the entry kept first). The kernel and the CP-SAT and SAT models keep the rule without ever holding such a
    pair, so the fill itself is where the reason is found."""
    if not problem.controls.distinct_stems or most <= 0:
        return []
    import numpy as np

    from xwcp.words.stems import stem_groups, stems_for

    stems = stems_for(problem.alphabet)
    groups = stem_groups(problem.words, stems)
    slot_by_group: dict[int, SlotId] = {}
    for slot_id, entry in entries.items():
        word_id = problem.words.word_id(entry)
        if word_id is not None:
            group = int(groups.of_length(len(entry))[word_id])
            if group >= 0:
                slot_by_group.setdefault(group, slot_id)
    if not slot_by_group:
        return []
    used = np.array(sorted(slot_by_group), np.int32)
    written = problem.alphabet.written
    out = []
    for slot_id in problem.open_slot_ids:
        text = entries.get(slot_id)
        if text is None:
            continue
        bucket = problem.words.bucket(len(text))
        of_length = groups.of_length(len(text))
        ids = np.flatnonzero(problem.domains[slot_id])
        own = problem.words.word_id(text)
        floor = int(bucket.scores[own]) if own is not None else -1
        near = ids[np.isin(of_length[ids], used) & (bucket.scores[ids] > floor)]
        hit = [
            int(w)
            for w in near
            if slot_by_group[int(of_length[w])] != slot_id
            and bucket.text(int(w)) != entries[slot_by_group[int(of_length[w])]]  # the duplicate rule's, not this one's
        ]
        if not hit:
            continue
        best = max(hit, key=lambda w: int(bucket.scores[w]))
        other = slot_by_group[int(of_length[best])]
        skipped = bucket.text(best)
        why = f"share the stem {stems.stem(skipped).upper()}"
        out.append(
            Skip(
                f"{problem.slots[other].name} {written(entries[other])} and {problem.slots[slot_id].name} "
                f"{written(skipped)} {why}",
                skip_text(problem, skipped, entries[other], why),
                frozenset((skipped, entries[other])),
            )
        )
        if len(out) >= most:
            break
    return out


def pair_clashes(problem: Problem, entries: Mapping[SlotId, str]) -> list[Clash]:
    """Every pair of entries of a fill (slot_id -> entry, skipped region slots left out) that breaks a pair rule
    of the problem's controls, shared substrings first, then stems, then crossings."""
    out = []
    limit = problem.controls.max_shared_substring
    if limit is not None:
        written = problem.alphabet.written
        for a, b, gram in shared_substring_pairs(entries, limit, only=problem.open_slot_ids):
            out.append(
                Clash(
                    a,
                    b,
                    f"{problem.slots[a].name} {written(entries[a])} and {problem.slots[b].name} "
                    f"{written(entries[b])} share {written(gram)}, longer than {limit} letters",
                )
            )
    out.extend(stem_clashes(problem, entries))
    out.extend(crossing_clashes(problem, entries))
    return out
