"""AC-3: the compiled fixpoint equals a plain set-based AC-3, proofs name the slot, edits are incremental."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.engine.alphabets import ENGLISH_LETTERS, alphabet_of
from xwcp.analysis.questions import heatmap_report
from xwcp.analysis.reports import Consistency
from xwcp.compile.problem import compile_problem
from xwcp.engine.ac3 import Propagator, propagate
from xwcp.engine.plain_kernel import bit_search
from xwcp.model import EMPTY, parse_grid
from xwcp.words.wordlist import build_word_list, words_from_pairs


def reference_ac3(problem):
    """Straightforward set-based AC-3 with the no-word-twice rule: {slot_id: set(words)} or None on wipeout."""
    if problem.conflicts:
        return None
    domains = reference_fixpoint(problem)
    return None if any(not d for d in domains.values()) else domains


def reference_fixpoint(problem):
    """The set-based AC-3 fixpoint, run to the end even after a slot empties: {slot_id: set(words)}.

    A slot left with no word takes the support from every word of the slots crossing it, so
    on a connected grid one empty slot ends with every slot empty.
    """
    domains = domains_as_sets(problem, problem.domains)
    changed = True
    while changed:
        changed = False
        for x in problem.crossings:
            for a, ap, b, bp in ((x.a, x.a_pos, x.b, x.b_pos), (x.b, x.b_pos, x.a, x.a_pos)):
                letters = {w[bp] for w in domains[b]}
                keep = {w for w in domains[a] if w[ap] in letters}
                if keep != domains[a]:
                    domains[a] = keep
                    changed = True
        if not problem.allow_dupes:
            for slot in problem.slots:
                if len(domains[slot.id]) == 1:
                    (word,) = domains[slot.id]
                    for other in problem.slots:
                        if other.id != slot.id and word in domains[other.id]:
                            domains[other.id].discard(word)
                            changed = True
    return domains


def domains_as_sets(problem, masks):
    """{slot_id: set of words} from per-slot bool masks; a slot the user filled is its own entry."""
    out = {}
    for slot in problem.slots:
        if slot.id in problem.fixed_text_by_slot:
            out[slot.id] = {problem.fixed_text_by_slot[slot.id]}
        else:
            bucket = problem.words.bucket(slot.length)
            out[slot.id] = {bucket.text(int(w)) for w in np.nonzero(masks[slot.id])[0]}
    return out


def random_grid(rng: random.Random, letters: str, alphabet=None):
    """A 3-6 x 3-6 grid, about a fifth of it blocks and an eighth of the rest `letters` (code chars of `alphabet`,
    English when None), drawn again until it parses (it has a slot)."""
    width, height = rng.randint(3, 6), rng.randint(3, 6)
    while True:
        cells = ["#" if rng.random() < 0.2 else "." for _ in range(width * height)]
        for i in range(len(cells)):
            if cells[i] == "." and rng.random() < 0.12:
                cells[i] = rng.choice(letters)
        text = "\n".join("".join(cells[r * width : (r + 1) * width]) for r in range(height))
        try:
            return parse_grid(text, alphabet=alphabet)
        except Exception:
            continue


def random_problem(rng: random.Random):
    grid = random_grid(rng, "ABCDE")
    alphabet = "ABCDE"[: rng.randint(2, 5)]
    words = {"".join(rng.choice(alphabet) for _ in range(rng.randint(2, 6))) for _ in range(rng.randint(20, 300))}
    return compile_problem(grid, words_from_pairs(sorted(words)), min_score=0, allow_dupes=rng.random() < 0.2)


@pytest.mark.parametrize("seed", range(300))
def test_fixpoint_equals_set_based_reference(seed):
    problem = random_problem(random.Random(seed))
    expected = reference_ac3(problem)
    prop = propagate(problem)
    if expected is None:
        assert not prop.is_consistent
        assert all(not d.any() for d in prop.domains)
        if prop.wipeout_slot is not None:
            assert_chain_is_causal(problem, prop)
        else:
            assert problem.conflicts and prop.reason == problem.conflicts[0]
    else:
        assert prop.is_consistent
        assert domains_as_sets(problem, prop.domains) == expected


def test_reference_agreement_is_not_vacuous():
    outcomes = [reference_ac3(random_problem(random.Random(seed))) is None for seed in range(300)]
    assert 30 < sum(outcomes) < 270  # both consistent and wiped-out cases are exercised


WOR_ZERO = "...Z\n...E\n...R\nWOR.\n"
FOUR_LETTER = ["WORD", "WORE", "WORK", "ZERO", "ABCZ", "DEFE", "GHIR", "ADGW", "BEHO", "CFIR"]


def test_wor_crossing_zer_empties_both_slots():
    problem = compile_problem(parse_grid(WOR_ZERO), words_from_pairs(FOUR_LETTER), min_score=0)
    prop = propagate(problem)
    row = problem.slot_by_name("7A")
    column = problem.slot_by_name("4D")
    assert problem.pattern(row.id) == "WOR." and problem.pattern(column.id) == "ZER."
    assert not prop.is_consistent
    assert prop.size(row.id) == 0 and prop.size(column.id) == 0
    assert prop.wipeout_slot in (row.id, column.id)
    assert "7A" in prop.reason or "4D" in prop.reason


def one_step_lookahead(problem):
    """{slot name: words} kept by one level of look-ahead: each slot's initial words whose letter
    in every crossed cell is offered by some word of the crossing slot's *initial* domain."""
    initial = domains_as_sets(problem, problem.domains)
    kept = {}
    for slot in problem.slots:
        keep = set()
        for word in initial[slot.id]:
            if all(
                any(
                    other[problem.cross_pos[slot.id][pos]] == word[pos]
                    for other in initial[problem.cross_slot[slot.id][pos]]
                )
                for pos in range(slot.length)
                if problem.cross_slot[slot.id][pos] >= 0
            ):
                keep.add(word)
        kept[slot.name] = keep
    return kept


def test_arc_consistency_is_not_one_step_lookahead():
    # QUI? across crosses the second letter of N?X? down, whose foot crosses WES? across.
    # One level of look-ahead still offers WEST in WES?: the down slot's initial words include
    # NEXT, whose T meets WEST's. But NEXT's E would make the across QUIE, and no QUI? word ends
    # in E (nor does any N?X? word have QUIT/QUIP/QUIZ's T, P or Z second), so AC-3 removes
    # NEXT, then WEST, and empties every slot: it offers neither.
    # (Look-ahead cannot keep NEXT too here: the down slot's only crossings are QUI? and WES?,
    # so partners for NEXT in both initial domains would already make a fill.)
    grid = parse_grid("###N\nQUI.\n###X\nWES.\n")
    words = ["QUIT", "QUIP", "QUIZ", "NEXT", "NIXE", "WEST", "WEPT"]
    problem = compile_problem(grid, words_from_pairs(words), min_score=0)
    assert {s.name: problem.pattern(s.id) for s in problem.slots} == {"2A": "QUI.", "3A": "WES.", "1D": "N.X."}
    initial = domains_as_sets(problem, problem.domains)
    assert {s.name: initial[s.id] for s in problem.slots} == {
        "2A": {"QUIT", "QUIP", "QUIZ"},
        "3A": {"WEST"},
        "1D": {"NEXT", "NIXE"},
    }
    lookahead = one_step_lookahead(problem)
    assert lookahead["3A"] == {"WEST"}  # still offered, on the strength of NEXT
    assert lookahead["2A"] == set() and lookahead["1D"] == set()
    prop = propagate(problem)
    assert not prop.is_consistent
    assert all(prop.size(s.id) == 0 for s in problem.slots)
    assert all(not words for words in reference_fixpoint(problem).values())  # nothing is offered
    # control: with a QUI? word ending in E listed, WEST/NEXT is a real fill and AC-3 keeps both
    control = compile_problem(grid, words_from_pairs(words + ["QUIE"]), min_score=0)
    kept = propagate(control)
    assert kept.is_consistent
    bucket = control.words.bucket(4)
    assert {s.name: {bucket.text(int(w)) for w in np.nonzero(kept.domains[s.id])[0]} for s in control.slots} == {
        "2A": {"QUIE"},
        "3A": {"WEST"},
        "1D": {"NEXT"},
    }


SPIRAL = "\n".join(
    [
        ".......",  # 1A, 7 letters; its last cell starts 2D
        "######.",  # 2D runs down the right side (6)
        "##...#.",  # 3A (3) starts on 3D's top cell; 4D (2) hangs from its end
        "##.#.#.",
        "##.###.",
        "##.....",  # 5A (5) ends on 2D's foot and starts on 3D's foot
        "#######",
    ]
)
SPIRAL_ORDER = ["1A", "2D", "5A", "3D", "3A", "4D"]
"""The slots from the outside in, each crossing the next; every length differs, so no word
fits two slots and the no-word-twice rule plays no part."""
# Two tracks of letters wind round the spiral: a G track (G at every crossing) and a dead-end
# track P -> K -> L -> M -> N. Each slot has one word per track, so every slot starts with two
# candidates and every crossing but the two ends has the same letters on both sides.
SPIRAL_WORDS = [
    "AAAAAAP",
    "BBBBBBP",  # 1A: both end in P, so the 7-letter entry rules out the G track
    "PCCCCK",
    "GDDDDG",  # 2D: P -> K, G -> G
    "LEEEK",
    "GFFFG",  # 5A: K -> L (read right to left), G -> G
    "MHHL",
    "GIIG",  # 3D: L -> M (bottom up), G -> G
    "MJN",
    "GKG",  # 3A: M -> N, G -> G
    "GA",
    "GB",
]  # 4D: no word starts with N, so the P track dies at the centre


def test_spiral_of_crossings_reaches_every_slot():
    # One impossible 7-letter entry makes every slot unfillable: 1A allows only the P track,
    # which can't get past 4D. Crossings alone prove it: the proof has to travel the whole spiral.
    problem = compile_problem(parse_grid(SPIRAL), words_from_pairs(SPIRAL_WORDS), min_score=0)
    assert [s.name for s in problem.slots] == ["1A", "3A", "5A", "2D", "3D", "4D"]
    spiral = [problem.slot_by_name(name).id for name in SPIRAL_ORDER]
    assert len(problem.crossings) == 5
    for a, b in zip(spiral, spiral[1:]):
        assert b in problem.cross_slot[a]
    assert all(problem.domains[s.id].sum() == 2 for s in problem.slots)  # two candidates each
    assert reference_ac3(problem) is None
    assert all(not words for words in reference_fixpoint(problem).values())  # every slot ends empty
    prop = propagate(problem)
    assert not prop.is_consistent
    assert all(prop.size(s.id) == 0 for s in problem.slots)
    assert_chain_is_causal(problem, prop)
    # The chain runs through all six slots in spiral order. The engine follows each removal
    # to its end before the next, so depending on which end it starts from the proof empties
    # 4D (from 1A's end) or 1A (from 4D's end); either way it passes every slot.
    assert list(prop.chain) in (spiral, spiral[::-1])
    names = [problem.slots[s].name for s in prop.chain]
    assert prop.reason.startswith(names[0]) and " <- ".join(names[1:]) in prop.reason
    heat = heatmap_report(problem)
    assert heat.status is Consistency.UNFILLABLE
    assert all(n == 0 for row in heat.counts for n in row if n is not None)
    # The same without the no-word-twice rule: crossings alone.
    dupes = propagate(
        compile_problem(parse_grid(SPIRAL), words_from_pairs(SPIRAL_WORDS), min_score=0, allow_dupes=True)
    )
    assert not dupes.is_consistent and len(dupes.chain) == 6
    # The 7-letter entry is the cause: one more 7-letter word, on the G track, and the spiral
    # is consistent, with the G track left in every slot (4D keeps GA and GB: two fills).
    words = SPIRAL_WORDS + ["CCCCCCG"]
    open_problem = compile_problem(parse_grid(SPIRAL), words_from_pairs(words), min_score=0)
    solved = propagate(open_problem)
    assert solved.is_consistent
    bucket = {n: open_problem.words.bucket(n) for n in range(2, 8)}
    left = {
        s.name: {bucket[s.length].text(int(w)) for w in np.nonzero(solved.domains[s.id])[0]} for s in open_problem.slots
    }
    assert left == {
        "1A": {"CCCCCCG"},
        "2D": {"GDDDDG"},
        "5A": {"GFFFG"},
        "3D": {"GIIG"},
        "3A": {"GKG"},
        "4D": {"GA", "GB"},
    }


def assert_chain_is_causal(problem, prop):
    """The chain starts at the emptied slot, has no repeats, and each link crosses (or shares a length with) the next."""
    chain = prop.chain
    assert chain and chain[0] == prop.wipeout_slot
    assert problem.slots[chain[0]].name in prop.reason
    assert len(set(chain)) == len(chain)
    for a, b in zip(chain, chain[1:]):
        assert b in problem.cross_slot[a] or problem.slots[a].length == problem.slots[b].length


@pytest.mark.parametrize("seed", range(40))
def test_incremental_edits_match_propagating_from_scratch(seed):
    rng = random.Random(1000 + seed)
    edit_and_compare(random_problem(rng), rng, "ABCDE")


def edit_and_compare(problem, rng: random.Random, letter_pool, counts: bool = False) -> None:
    """Enter and erase up to 8 random letters from `letter_pool` with a Propagator; after each edit its snapshot
    must equal propagating the edited grid from scratch (consistency and domains; `counts`: letter counts too)."""
    editor = Propagator(problem)
    empty_cells = [
        c for c, ch in enumerate(problem.grid.cells) if ch == EMPTY and any(c in s.cells for s in problem.slots)
    ]
    letters: dict[int, str] = {}
    for _ in range(8):
        if letters and rng.random() < 0.35:
            cell = rng.choice(sorted(letters))
            del letters[cell]
            editor.erase(cell)
        else:
            free = [c for c in empty_cells if c not in letters]
            if not free:
                break
            cell = rng.choice(free)
            letters[cell] = rng.choice(letter_pool)
            editor.enter(cell, letters[cell])
        fresh = propagate(
            compile_problem(
                problem.grid.with_letters(letters),
                problem.words,
                min_score=problem.min_score,
                allow_dupes=problem.allow_dupes,
            )
        )
        snap = editor.snapshot()
        assert snap.is_consistent == fresh.is_consistent
        if fresh.is_consistent:
            for slot in problem.slots:
                assert np.array_equal(snap.domains[slot.id], fresh.domains[slot.id]), slot.name
            if counts:
                assert np.array_equal(snap.letter_counts, fresh.letter_counts)


# ---- alphabets of more than 26 letters (issue 36) ------------------------------------------------------------


def random_problem_in(alphabet, rng: random.Random):
    """`random_problem`'s kind of instance in `alphabet`: letters mostly beyond Z, some of them in the grid."""
    chars = "".join(rng.sample(alphabet.chars[26:], 3) + rng.sample(ENGLISH_LETTERS, 2))[: rng.randint(2, 5)]
    grid = random_grid(rng, chars, alphabet)
    words = {"".join(rng.choice(chars) for _ in range(rng.randint(2, 6))): 50 for _ in range(rng.randint(20, 300))}
    return compile_problem(
        grid, build_word_list(words, "<test>", alphabet=alphabet), min_score=0, allow_dupes=rng.random() < 0.2
    )


def reference_counts(problem, domains, slot):
    """int [length, K]: the words of `domains[slot.id]` (texts) with each letter at each position."""
    counts = np.zeros((slot.length, problem.alphabet.size), np.int32)
    for word in domains[slot.id]:
        for pos, ch in enumerate(word):
            counts[pos, problem.alphabet.index(ch)] += 1
    return counts


def search_root_domains(problem):
    """The fill search's own root fixpoint (xwcp/engine/_bitsearch.c) as {slot_id: set of words}, None on a
    wipeout: the bitset kernel must reach the fixpoint the support-count kernel does."""
    engine = bit_search(problem)
    if not engine.is_consistent:
        return None
    out = {}
    for k, slot_id in enumerate(engine.slot_ids):
        bucket = problem.words.bucket(problem.slots[slot_id].length)
        start, end = int(engine.slot_dom_off[k]), int(engine.slot_dom_off[k + 1])
        bits = int.from_bytes(np.asarray(engine.dom[start:end], np.uint64).tobytes(), "little")
        out[slot_id] = {bucket.text(w) for w in range(bucket.n_words) if bits >> w & 1}
    return out


@pytest.mark.parametrize("n_letters", [33, 64])
@pytest.mark.parametrize("seed", range(60))
def test_fixpoint_beyond_26_letters_equals_the_reference(n_letters, seed):
    """Both kernels, letter codes up to 32 or 63: the same domains as the set-based reference, and the
    per-cell letter counts are those of the words left, in the alphabet's columns."""
    alphabet = alphabet_of(n_letters)
    problem = random_problem_in(alphabet, random.Random(seed))
    expected = reference_ac3(problem)
    prop = propagate(problem)
    if expected is None:
        assert not prop.is_consistent
        if not problem.conflicts:
            assert search_root_domains(problem) is None
        return
    assert prop.is_consistent
    assert domains_as_sets(problem, prop.domains) == expected
    assert prop.letter_counts.shape == (problem.n_letter_cells, n_letters)
    for slot in problem.slots:
        if slot.id not in problem.fixed_text_by_slot:
            assert np.array_equal(prop.counts_by_slot[slot.id], reference_counts(problem, expected, slot)), slot.name
    search = search_root_domains(problem)
    assert search is not None
    assert all(search[slot_id] == expected[slot_id] for slot_id in search)


@pytest.mark.parametrize("n_letters", [33, 64])
def test_reference_agreement_beyond_26_letters_is_not_vacuous(n_letters):
    alphabet = alphabet_of(n_letters)
    problems = [random_problem_in(alphabet, random.Random(seed)) for seed in range(60)]
    wiped = [reference_ac3(problem) is None for problem in problems]
    assert 6 < sum(wiped) < 54
    high = {
        ch
        for problem, w in zip(problems, wiped)
        if not w
        for d in reference_ac3(problem).values()
        for word in d
        for ch in word
        if alphabet.index(ch) >= 26
    }
    assert len(high) >= 3  # the kept words do use letters beyond Z


@pytest.mark.parametrize("seed", range(20))
def test_incremental_edits_beyond_26_letters_match_propagating_from_scratch(seed):
    """The editor enters letters by the alphabet's codes (Ñ is 26 in a 33-letter alphabet, not ord - 65)."""
    rng = random.Random(2000 + seed)
    alphabet = alphabet_of(33 if seed % 2 else 64)
    problem = random_problem_in(alphabet, rng)
    used = sorted(
        {
            ch
            for slot in problem.slots
            for w in range(problem.words.bucket(slot.length).n_words)
            for ch in problem.words.bucket(slot.length).text(w)
        }
    ) or ["Ñ"]
    edit_and_compare(problem, rng, used, counts=True)
