"""Compile a grid and a word list into one solver-independent problem: slots, crossings, domains.

No solver code lives here. A domain is a bool mask over the slot's length bucket: the words
of the right length, at or above the minimum score, that agree with the pre-filled letters
and are not the entry of a slot the user filled completely (no word twice). A slot the user
filled completely is *fixed*: kept as given even when the list lacks it.

Slots are compiled over letter cells (`xwcp.model.letters`): a rebus cell's letters are given,
so a slot through it is as long as the letters of its cells (STAR in one of 5 cells: an 8-letter
entry) and has those letters pre-filled; crossing slots share them. A rebus of symbols ('&')
leaves the slot through it no candidate, or keeps it as given when it is complete. Bars end
slots as blocks do (`find_slots`). Without rebus cells, letter cells are the grid's cells.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, cast

from xwcp.base.errors import InputError, option_text
from xwcp.base.types import SlotId
from xwcp.compile.controls import Controls, SlotFilter, apply_locks, region_cells, resolve_slot
from xwcp.model import BLOCK, EMPTY, Grid, Slot
from xwcp.model.alphabet import Alphabet
from xwcp.model.letters import SpelledGrid, cells_of, letter_contents, spell_out, write_letters
from xwcp.runtime.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from xwcp.words.wordlist import LengthBucket, MappedWordList, WordList
else:
    np = lazy_import("numpy")  # only the domains need it; the start-up path of a small fill does without

Domains = tuple["NDArray[np.bool_]", ...]
"""One bool mask per slot over the words of its length bucket."""
PlainDomains = tuple[int, ...]
"""A plain problem's domains (`initial_bitsets`): one bitset per slot, bit w set when word w is a candidate."""


@dataclass(frozen=True)
class Crossing:
    """Two slots sharing a letter cell: position `a_pos` of slot `a` is position `b_pos` of slot `b` (`a` the
    lower id: the across slot at an ordinary crossing). A letter cell in k slots (a diagonal entry through a
    crossing, a Schrödinger cell's readings) has k - 1 crossings, chaining its slots in id order."""

    cell: int
    a: SlotId
    a_pos: int
    b: SlotId
    b_pos: int


@dataclass(frozen=True)
class Problem:
    """Everything a backend needs; read-only after `compile_problem`."""

    grid: Grid
    words: WordList
    """The indexed list; in a plain problem (`xwcp.engine.kernel.is_plain`) the cache's MappedWordList stands
    in for it (`plain_words`)."""
    slots: tuple[Slot, ...]
    """The grid's slots over letter cells (`xwcp.model.letters`): `length` is the entry's letters and
    `cells` its letter cells, which are grid cells unless the grid has rebus cells (`cell_of`)."""
    crossings: tuple[Crossing, ...]
    domains: Domains
    """The bool masks of `initial_domains`; in a plain problem its bitsets (`plain_domains`)."""
    min_score: int
    allow_dupes: bool = False
    fixed_text_by_slot: dict[SlotId, str] = field(default_factory=dict)
    """Slots the user filled completely, with their entries."""
    conflicts: tuple[str, ...] = ()
    """Reasons the pre-filled grid breaks the rules by itself (a repeated complete entry)."""
    cross_slot: tuple[tuple[int, ...], ...] = ()
    """cross_slot[slot_id][pos]: the next slot through that letter cell, or -1 (unchecked). The slots through a
    cell form a cycle in id order (`cross_links`): at an ordinary crossing each is the other's partner; a cell
    in k slots links each to the next and the last to the first, so letters agreeing along the cycle agree
    everywhere (`neighbours` lists every slot sharing a cell)."""
    cross_pos: tuple[tuple[int, ...], ...] = ()
    is_pairwise: bool = True
    """Every letter cell is in at most two slots: `cross_slot` names every partner (no listed entry through a
    crossing, no Schrödinger cell)."""
    is_part: bool = False
    """Some of the grid's slots only (a core search's sub-problem): a listed entry none of whose slots is kept is
    not the checker's business."""
    controls: Controls = field(default_factory=Controls)
    """The constructor's controls this problem was compiled with (kept for recompiling and checking)."""
    min_score_by_slot: dict[SlotId, int] = field(default_factory=dict)
    """Slots with their own minimum score (`--slot-min`), overriding `min_score`."""
    filters_by_slot: dict[SlotId, tuple[SlotFilter, ...]] = field(default_factory=dict)
    """Slots with filters (`--filter`): their entries pass every one."""
    banned: frozenset[str] = frozenset()
    skipped_slot_ids: frozenset[SlotId] = frozenset()
    """Slots left out of a region fill: wholly outside the region with empty cells. They are kept in
    `fixed_text_by_slot` with their pattern ('.' for empty cells), so no backend makes them variables."""
    fillable_cells: frozenset[int] | None = None
    """Cells a fill may write (a region fill's empty cells inside the region); None: every cell."""
    notes: tuple[str, ...] = ()
    """Things the user should know about the controls (a locked word the list lacks)."""
    unlisted: tuple[SlotId, ...] = ()
    """Slots the user filled completely with an entry the word list does not have."""

    @cached_property
    def _contents(self) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """`letter_contents(grid)`, worked out once: `letters` and `cell_by_extra` are its two halves.

        Derived from `grid` (so a copy with letters typed into its grid, `dataclasses.replace(problem,
        grid=...)`, has them too)."""
        return letter_contents(self.grid)

    @cached_property
    def neighbours(self) -> tuple[tuple[SlotId, ...], ...]:
        """Per slot, the other slots sharing a letter cell with it, each once, in the order of its positions."""
        if self.is_pairwise:
            return tuple(tuple(dict.fromkeys(t for t in row if t >= 0)) for row in self.cross_slot)
        members = _members_by_cell(self.slots)
        return tuple(
            tuple(dict.fromkeys(t for cell in slot.cells for t, _ in members[cell] if t != slot.id))
            for slot in self.slots
        )

    @cached_property
    def partners(self) -> tuple[tuple[tuple[tuple[SlotId, int], ...], ...], ...]:
        """partners[slot_id][pos]: (slot, position) of every other slot through that letter cell (`cross_slot` names
        only the next one of a cell in three or more slots)."""
        if self.is_pairwise:
            return tuple(
                tuple(((t, q),) if t >= 0 else () for t, q in zip(row, pos_row))
                for row, pos_row in zip(self.cross_slot, self.cross_pos)
            )
        members = _members_by_cell(self.slots)
        return tuple(
            tuple(tuple((t, q) for t, q in members[cell] if t != slot.id) for cell in slot.cells) for slot in self.slots
        )

    @cached_property
    def letters(self) -> tuple[str, ...]:
        """What each letter cell holds: '#', '.', 'A'-'Z' or a rebus symbol; `grid.cells` without rebus cells."""
        return self._contents[0]

    @cached_property
    def cell_by_extra(self) -> tuple[int, ...]:
        """The grid cell of letter cell `width * height + k` (a rebus cell's second letter on)."""
        return self._contents[1]

    @property
    def n_letter_cells(self) -> int:
        return len(self.letters)

    @property
    def alphabet(self) -> Alphabet:
        """The letters of the word list (`xwcp.model.alphabet`): cells hold its code chars; its size sizes every
        per-letter table of the engine and the backends."""
        return self.words.alphabet

    def cell_of(self, letter_cell: int) -> int:
        """The grid cell that holds `letter_cell` (itself, unless it is a rebus cell's second letter or later)."""
        n_cells = len(self.grid.cells)
        return letter_cell if letter_cell < n_cells else self.cell_by_extra[letter_cell - n_cells]

    def slot_cells(self, slot_id: SlotId) -> list[int]:
        """The grid cells of `slot_id`, in order (a rebus cell once)."""
        return cells_of(self._spelled(), self.slots[slot_id].cells)

    def grid_with_letters(self, letter_by_cell: Mapping[int, str]) -> Grid:
        """The grid with letters (by letter cell) written into its empty cells; bars, marks, rebus cells kept."""
        return write_letters(self.grid, self._spelled(), letter_by_cell)

    def _spelled(self) -> SpelledGrid:
        return SpelledGrid(self.slots, self.letters, self.cell_by_extra, len(self.grid.cells))

    @property
    def open_slot_ids(self) -> list[SlotId]:
        return [s.id for s in self.slots if s.id not in self.fixed_text_by_slot]

    def slot_min_score(self, slot_id: SlotId) -> int:
        """The minimum score of `slot_id`'s entry: its own floor, else the problem's."""
        return self.min_score_by_slot.get(slot_id, self.min_score)

    def slot_by_name(self, name: str) -> Slot | None:
        key = name.strip().upper()
        for slot in self.slots:
            if slot.name == key:
                return slot
        return None

    def pattern(self, slot_id: SlotId) -> str:
        """The slot's letters as text, '.' for empty cells (a rebus cell gives all its letters)."""
        letters = self.letters
        return "".join(letters[c] for c in self.slots[slot_id].cells)

    def written_pattern(self, slot_id: SlotId) -> str:
        """`pattern` as the alphabet writes it (Dutch IJ, Welsh LL, aksharas): what a message to the user shows."""
        return self.alphabet.written(self.pattern(slot_id))

    def entry_score(self, text: str) -> int | None:
        return self.words.score(text)


def keep_entered_letters(
    mask: NDArray[np.bool_], letters: Sequence[str], slot: Slot, words: WordList
) -> NDArray[np.bool_]:
    """Clear, in `mask` (a bool mask over the slot's length bucket), every word that disagrees with a
    letter already entered in the slot's letter cells (`letters`: `Problem.letters`); returns `mask`.
    A rebus symbol that is no letter clears every word."""
    bucket = words.bucket(slot.length)
    alphabet = words.alphabet
    for pos, cell in enumerate(slot.cells):
        letter = letters[cell]
        if letter != EMPTY:
            keep = np.zeros(bucket.n_words, bool)
            index = alphabet.index(letter)
            if index is not None:
                keep[bucket.ids_with_letter(pos, index)] = True
            mask &= keep
    return mask


def sharing_words(letters: NDArray[np.uint8], grams: set[str], alphabet: Alphabet | None = None) -> NDArray[np.bool_]:
    """Bool per word (rows of `letters`, letter codes of `alphabet`, English when None): does it contain one of
    `grams` (all one length, code chars)?"""
    found = np.zeros(letters.shape[0], bool)
    if not grams or letters.shape[0] == 0:
        return found
    n = len(next(iter(grams)))
    if n > letters.shape[1]:
        return found
    k = alphabet.size if alphabet is not None else 26
    index_of = alphabet.index if alphabet is not None else (lambda ch: ord(ch) - 65)
    codes = np.array(
        [
            sum((index_of(ch) or 0) * k ** (n - 1 - j) for j, ch in enumerate(g))
            for g in grams
            if all(index_of(ch) is not None for ch in g)
        ],
        np.int64,
    )
    lets = letters.astype(np.int64)
    for start in range(letters.shape[1] - n + 1):
        code = np.zeros(letters.shape[0], np.int64)
        for j in range(n):
            code = code * k + lets[:, start + j]
        found |= np.isin(code, codes)
    return found


def bucket_texts(bucket: LengthBucket) -> list[str]:
    """Every word of `bucket` as written, upper case (the text a slot filter reads), in word-id order."""
    alphabet = bucket.alphabet
    if alphabet.is_ascii:
        flat = (bucket.letters + 65).tobytes().decode("ascii")
        n = bucket.length
        return [flat[i : i + n] for i in range(0, len(flat), n)] if n else []
    return [alphabet.written(bucket.text(word_id)) for word_id in range(bucket.n_words)]


def filter_mask(bucket: LengthBucket, filters: Sequence[SlotFilter]) -> NDArray[np.bool_]:
    """Bool per word of `bucket`: does it pass every one of `filters`?"""
    texts = bucket_texts(bucket)
    keep = np.ones(len(texts), bool)
    for one in filters:
        keep &= np.fromiter((one.keeps(text) for text in texts), bool, len(texts))
    return keep


def _stem_clashes(problem: Problem, bucket: LengthBucket, fixed: list[str]) -> NDArray[np.bool_]:
    """Bool per word of `bucket`: one word with one of the user's complete entries `fixed` (the stem rule)."""
    from xwcp.words.stems import clashing_words, stems_for

    return clashing_words(bucket, fixed, stems_for(problem.alphabet), problem.words.score)


def splits_into_words(text: str, n_words: int, words: WordList | MappedWordList) -> bool:
    """Whether `text` is `n_words` listed words run together (a chain's answer, `xwcp.model.entries.Entry.words`);
    for 1, whether it is a listed word."""
    if n_words <= 1:
        return words.word_id(text) is not None
    ends = {0}  # where a run of listed words may end, after each further word
    for _ in range(n_words - 1):
        ends = {
            end + n for end in ends for n in range(2, len(text) - end) if words.word_id(text[end : end + n]) is not None
        }
    return any(words.word_id(text[end:]) is not None for end in ends if end < len(text))


def unlisted_text(problem: Problem) -> str:
    """'2 entries are not in the word list: 1A QZX, 1D QJW' for `problem.unlisted` ('' when none)."""
    n = len(problem.unlisted)
    if not n:
        return ""
    from xwcp.base.lines import listed

    written = problem.alphabet.written_at_end  # as the language writes a word: IJ, a Hebrew final letter
    names = listed(
        [f"{problem.slots[s].name} {written(problem.fixed_text_by_slot[s])}" for s in problem.unlisted[:10]], n, most=10
    )
    return f"{n} entr{'ies are' if n != 1 else 'y is'} not in the word list: {names}"


def initial_domains(problem: Problem) -> Domains:
    """The domain of every slot of a `compile_structure` result: the words of the right length, at or
    above the slot's minimum score, that keep its entered letters, are not banned and are not the
    entry of a slot the user filled completely (unless duplicates are allowed), pass the slot's
    filters, and (with the stem rule) are not one word with a complete entry; a complete entry's
    slot holds that word only (nothing when the list lacks it)."""
    words, letters, controls = problem.words, problem.letters, problem.controls
    fixed_text_by_slot = problem.fixed_text_by_slot
    fixed_grams: set[str] = set()
    if controls.max_shared_substring is not None:
        n = controls.max_shared_substring + 1
        for slot_id, text in fixed_text_by_slot.items():
            if slot_id not in problem.skipped_slot_ids:
                fixed_grams |= {text[i : i + n] for i in range(len(text) - n + 1)}
    stem_fixed: list[str] = []
    if controls.distinct_stems:
        stem_fixed = [t for s, t in fixed_text_by_slot.items() if s not in problem.skipped_slot_ids]
    stem_clash_by_length: dict[int, NDArray[np.bool_]] = {}
    domains = []
    for slot in problem.slots:
        bucket = words.bucket(slot.length)
        if slot.id in fixed_text_by_slot:
            mask = np.zeros(bucket.n_words, bool)
            word_id = words.word_id(fixed_text_by_slot[slot.id])
            if word_id is not None:
                mask[word_id] = True
        else:
            mask = keep_entered_letters(
                np.asarray(bucket.scores) >= problem.slot_min_score(slot.id), letters, slot, words
            )
            if not problem.allow_dupes:
                for text in fixed_text_by_slot.values():
                    if len(text) == slot.length:
                        word_id = words.word_id(text)
                        if word_id is not None:
                            mask[word_id] = False
            for text in controls.bans:
                if len(text) == slot.length:
                    word_id = words.word_id(text)
                    if word_id is not None:
                        mask[word_id] = False
        if controls.max_shared_substring is not None and slot.id not in fixed_text_by_slot:
            mask &= ~sharing_words(words.bucket(slot.length).letters, fixed_grams, words.alphabet)
        filters = problem.filters_by_slot.get(slot.id)
        if filters and slot.id not in fixed_text_by_slot:
            mask &= filter_mask(bucket, filters)
        if stem_fixed and slot.id not in fixed_text_by_slot:
            clash = stem_clash_by_length.get(slot.length)
            if clash is None:
                clash = stem_clash_by_length[slot.length] = _stem_clashes(problem, bucket, stem_fixed)
            mask &= ~clash
        if controls.no_crossing and slot.id not in fixed_text_by_slot:
            mask &= ~_unfair_next_to_fixed(problem, slot, bucket)
        mask.flags.writeable = False
        domains.append(mask)
    return tuple(domains)


def _unfair_next_to_fixed(problem: Problem, slot: Slot, bucket: LengthBucket) -> NDArray[np.bool_]:
    """Bool per word of `bucket`: a word `slot` may not take because it would cross one of the user's complete
    entries with a pair of tags the controls forbid (`no_crossing`; tags as `xwcp.compile.pairs.entry_tags`)."""
    from xwcp.compile.controls import OBSCURE_BELOW

    out = np.zeros(bucket.n_words, bool)
    controls, words = problem.controls, problem.words
    partners: set[str] = set()
    for other in problem.cross_slot[slot.id]:
        text = problem.fixed_text_by_slot.get(other) if other >= 0 else None
        if text is None or other in problem.skipped_slot_ids:
            continue
        tags: set[str] = set(controls.tags_by_word.get(text, ()))
        score = words.score(text)
        if score is not None and score < OBSCURE_BELOW:
            tags.add("obscure")
        for a, b in controls.no_crossing:
            if a in tags:
                partners.add(b)
            if b in tags:
                partners.add(a)
    if not partners:
        return out
    if "obscure" in partners:
        out |= np.asarray(bucket.scores) < OBSCURE_BELOW
    for word, word_tags in controls.tags_by_word.items():
        if len(word) == slot.length and word_tags & partners:
            word_id = words.word_id(word)
            if word_id is not None:
                out[word_id] = True
    return out


def initial_bitsets(problem: Problem) -> tuple[int, ...]:
    """`initial_domains` as bitsets (bit w set: word w is a candidate), without numpy.

    For a problem compiled by `compile_structure` over a `xwcp.words.wordlist.MappedWordList`: the
    same rules on the list's cached bitsets. Such a problem with these as its `domains` is a
    *plain* problem (`xwcp.engine.kernel.is_plain`): the kernels' numpy-free forms search it, for the
    start-up path of a small fill (xwcp/services/quick.py). The shared-substring control is not supported.
    """
    if problem.controls.max_shared_substring is not None or problem.filters_by_slot:
        raise ValueError("initial_bitsets does not apply --max-shared-substring or --filter")
    words = plain_words(problem)
    excluded = set(problem.banned)
    if not problem.allow_dupes:
        excluded.update(problem.fixed_text_by_slot.values())
    bits_by_slot: list[int] = []
    for slot in problem.slots:
        fixed = problem.fixed_text_by_slot.get(slot.id)
        if fixed is not None:
            word_id = words.word_id(fixed)
            bits_by_slot.append(0 if word_id is None else 1 << word_id)
            continue
        bits = fitting_bits(problem, slot, problem.slot_min_score(slot.id))
        for text in excluded:
            if len(text) == slot.length:
                word_id = words.word_id(text)
                if word_id is not None:
                    bits &= ~(1 << word_id)
        bits_by_slot.append(bits)
    return tuple(bits_by_slot)


def fitting_bits(problem: Problem, slot: Slot, floor: int, *, below: bool = False) -> int:
    """The bitset of the words of a MappedWordList that keep `slot`'s entered letters and score
    `floor` or more (`below`: less than `floor`)."""
    words = plain_words(problem)
    _, n, _, s_off, _, _, _ = words.row(slot.length)
    scores = words.scores_flat[s_off : s_off + n]
    lowest = min(scores, default=0)
    if lowest >= floor:
        bits = 0 if below else (1 << n) - 1
    else:
        packed = bytearray((n + 7) // 8)
        for word_id, score in enumerate(scores):
            if (score < floor) == below:
                packed[word_id >> 3] |= 1 << (word_id & 7)
        bits = int.from_bytes(packed, "little")
    letters = problem.letters
    alphabet = words.alphabet
    for pos, cell in enumerate(slot.cells):
        letter = letters[cell]
        if letter != EMPTY:
            index = alphabet.index(letter)
            bits = bits & words.letter_bits(slot.length, pos, index) if index is not None else 0
    return bits


def plain_words(problem: Problem) -> MappedWordList:
    """The word list of a plain problem (`xwcp.engine.kernel.is_plain`): the cache's MappedWordList, which
    stands in for `Problem.words` there (typed WordList: what every other problem holds)."""
    return cast("MappedWordList", problem.words)


def plain_domains(problem: Problem) -> PlainDomains:
    """The domains of a plain problem (`xwcp.engine.kernel.is_plain`): bitsets, standing in for `Problem.domains`."""
    return cast(PlainDomains, problem.domains)


def plain_problem(problem: Problem) -> Problem:
    """A `compile_structure` result over a MappedWordList with its domains as bitsets (`initial_bitsets`): the
    plain problem the start-up path of a small fill searches (xwcp/services/quick.py)."""
    return replace(problem, domains=cast(Domains, initial_bitsets(problem)))


def compile_problem(
    grid: Grid,
    words: WordList,
    *,
    min_score: int = 50,
    allow_dupes: bool = False,
    strict: bool = False,
    controls: Controls | None = None,
) -> Problem:
    """Compile `grid` with `words` into a Problem: `compile_structure`, then the initial domains.

    Args:
        grid: the grid, possibly with pre-filled letters.
        words: the indexed word list.
        min_score: words scored below this are not candidates.
        allow_dupes: if True a word may fill several slots.
        controls: locks (entered like the user's own complete entries), bans and per-slot floors
            (taken out of the domains), a region (slots wholly outside it with empty cells are
            skipped; slots crossing its border stay variables so they remain completable).
        strict: if True an entry the user completed must be a listed word too; one that is not
            makes the problem unfillable (a conflict naming it). Without it such entries are
            kept as given and listed in `Problem.unlisted`.

    Returns:
        The problem. A slot with no candidate is not an error here: it has an empty domain,
        and propagation or search reports it as unfillable.

    This layer reads no files: `xwcp.compile_problem` (xwcp/services/inputs.py) takes anything
    `xwcp.fill` takes (a path, grid text, a Puzzle) and a path or None for `words`, reads them, then calls this.

    Raises:
        TypeError: an argument of the wrong type (the message names it).
        InputError: a control that does not fit the grid (unknown slot, wrong length, clash, region outside).
    """
    problem = compile_structure(
        grid, words, min_score=min_score, allow_dupes=allow_dupes, strict=strict, controls=controls
    )
    if problem.controls.distinct_stems:  # the list's stem groups (`xwcp.words.stems.stem_groups`) and the phrase
        from xwcp.words.stems import open_phrase_sources, stem_groups, stems_for  # sources, before any fill's clock

        stems = stems_for(problem.alphabet)  # starts: the first time, stemming a big list and indexing WordNet
        stem_groups(problem.words, stems)  # take seconds; then both are read from the cache
        if stems.split_phrase is not None:
            open_phrase_sources()
    return replace(problem, domains=initial_domains(problem))


def with_word(problem: Problem, slot_id: SlotId, word: str) -> Problem:
    """The problem with `word` entered in `slot_id` (recompiled on the same word list and controls).

    `word` spells the slot's letters (a rebus cell's letters included); its letters go into the
    slot's empty cells.
    """
    grid = problem.grid_with_letters(dict(zip(problem.slots[slot_id].cells, word)))
    return compile_problem(
        grid, problem.words, min_score=problem.min_score, allow_dupes=problem.allow_dupes, controls=problem.controls
    )


def add_letters(problem: Problem, letter_by_cell: dict[int, str]) -> Problem | None:
    """`problem` with letters typed into empty cells, derived without compiling again: the same slots,
    crossings and complete entries, the slots through those cells narrowed to the letters. Equal to
    compiling the new grid, when no letter completes a slot and the problem has no controls.

    Returns:
        The new problem, or None when that does not hold (then compile the grid).
    """
    grid = problem.grid
    if not problem.controls.is_empty or any(
        grid.cells[cell] != EMPTY or not ("A" <= letter <= "Z") or len(letter) != 1 or cell in grid.pairs
        for cell, letter in letter_by_cell.items()
    ):
        return None
    new_grid = grid.with_letters(letter_by_cell)
    new_letters = letter_contents(new_grid)[0]  # slots are over letter cells (a rebus cell has several)
    touched = {slot.id for slot in problem.slots if not set(slot.cells).isdisjoint(letter_by_cell)}
    domains = list(problem.domains)
    for slot_id in touched:
        slot = problem.slots[slot_id]
        if all(new_letters[cell] != EMPTY for cell in slot.cells):
            return None  # a complete entry: it becomes the user's own (fixed), as compile_structure decides
        domains[slot_id] = keep_entered_letters(np.array(problem.domains[slot_id]), new_letters, slot, problem.words)
        domains[slot_id].flags.writeable = False
    return replace(problem, grid=new_grid, domains=tuple(domains))


def check_letters(grid: Grid, alphabet: Alphabet) -> None:
    """Raise InputError naming the first cell that holds a letter outside `alphabet` (a digit or symbol in a
    rebus is kept: no listed word matches it, as ever). English grids keep their old rule (a stray ß is a
    symbol, with the reader's warning)."""
    for cell, content in enumerate(grid.cells):
        if content in (BLOCK, EMPTY):
            continue
        for ch in content:
            if ch.isalpha() and alphabet.index(ch) is None:
                row, col = divmod(cell, grid.width)
                shown = alphabet.written(content)
                raise InputError(
                    f"row {row + 1}, column {col + 1} holds {shown!r}: {alphabet.cell_text(ch)!r} is not a "
                    f"letter of {alphabet.name} (--language {alphabet.code})"
                )


def compile_structure(
    grid: Grid,
    words: WordList | MappedWordList,
    *,
    min_score: int = 50,
    allow_dupes: bool = False,
    strict: bool = False,
    controls: Controls | None = None,
) -> Problem:
    """Everything of `compile_problem` but the domains (left empty): slots, crossings, the user's
    complete entries, conflicts and controls. Needs no numpy; `words` only answers `word_id`.

    Raises:
        TypeError: an argument of the wrong type.
        InputError: a control that does not fit the grid.
    """
    if not isinstance(grid, Grid):  # this layer reads no files: xwcp.compile_problem (services.inputs) reads them first
        raise TypeError(
            f"grid must be an xwcp.Grid here, not {type(grid).__name__}; xwcp.compile_problem reads paths, "
            "text and puzzles"
        )
    if not hasattr(words, "word_id"):
        raise TypeError(
            f"words must be an xwcp.WordList here, not {type(words).__name__}; xwcp.compile_problem reads "
            "paths and the default list"
        )
    if isinstance(min_score, bool) or not isinstance(min_score, int):
        raise TypeError(f"min_score must be a whole number, not {type(min_score).__name__} {min_score!r}")
    if controls is not None and not isinstance(controls, Controls):
        raise TypeError(f"controls must be xwcp.Controls (or None), not {type(controls).__name__}")
    controls = (controls or Controls()).in_alphabet(words.alphabet)
    if not words.alphabet.is_ascii:
        check_letters(grid, words.alphabet)
    spelled = spell_out(grid)
    notes: list[str] = []
    locked: dict[SlotId, str] = {}
    if controls.locks:
        grid, locked = apply_locks(grid, spelled, controls)
        spelled = spelled._replace(letters=letter_contents(grid)[0])  # locks only fill empty cells: same slots
    slots, letters = spelled.slots, spelled.letters
    if locked:
        words_by_label = {entry.name: entry.words for entry in grid.entries if entry.is_chain}
        for slot_id, word in locked.items():
            if not splits_into_words(word, words_by_label.get(slots[slot_id].label, 1), words):
                notes.append(f"locked {slots[slot_id].name}={word} is not in the word list (kept as given)")
    min_score_by_slot = {
        resolve_slot(slots, name, "slot_min").id: int(score) for name, score in controls.min_score_by_slot.items()
    }
    filters_by_slot: dict[SlotId, tuple[SlotFilter, ...]] = {}
    for name, filters in controls.filters_by_slot.items():
        slot_id = resolve_slot(slots, name, "filter").id
        filters_by_slot[slot_id] = filters_by_slot.get(slot_id, ()) + tuple(filters)
    skipped: set[SlotId] = set()
    fillable_cells = None
    if controls.region is not None:
        inside = region_cells(grid, controls.region)
        fillable_cells = frozenset(c for c in inside if grid.cells[c] == EMPTY)
        if grid.pairs:  # a Schrödinger cell's second letter is a letter cell of its own (xwcp.model.letters)
            n_cells = len(grid.cells)
            fillable_cells |= {
                n_cells + k
                for k, cell in enumerate(spelled.cell_by_extra)
                if cell in inside and cell in grid.pairs and letters[n_cells + k] == EMPTY
            }
        for slot in slots:
            if not inside.intersection(slot.cells) and any(letters[c] == EMPTY for c in slot.cells):
                skipped.add(slot.id)
    crossings, cross_slot, cross_pos, is_pairwise = cross_links(slots)

    fixed_text_by_slot: dict[SlotId, str] = {}
    for slot in slots:
        text = "".join(letters[c] for c in slot.cells)
        if (EMPTY not in text and BLOCK not in text) or slot.id in skipped:
            fixed_text_by_slot[slot.id] = text
    conflicts: list[str] = []
    if not allow_dupes:
        first_by_text: dict[str, SlotId] = {}
        for slot_id, text in fixed_text_by_slot.items():
            if slot_id in skipped:
                continue
            if text in first_by_text:
                conflicts.append(
                    f"{text} is entered twice, in {slots[first_by_text[text]].name} and {slots[slot_id].name}"
                )
            else:
                first_by_text[text] = slot_id

    # locks the list lacks are allowed (with a note); skipped region slots are patterns, not entries
    unlisted = sorted(
        slot_id
        for slot_id, text in fixed_text_by_slot.items()
        if words.word_id(text) is None and slot_id not in skipped and slot_id not in locked
    )
    if unlisted and grid.has_chains:  # a complete chain is listed when its letters split into its count of words
        words_by_name = {entry.name: entry.words for entry in grid.entries if entry.is_chain}
        unlisted = [
            slot_id
            for slot_id in unlisted
            if not splits_into_words(fixed_text_by_slot[slot_id], words_by_name.get(slots[slot_id].label, 1), words)
        ]
    if strict:
        conflicts.extend(
            f"{slots[slot_id].name} {fixed_text_by_slot[slot_id]} is not in the word list "
            f"({option_text('strict', True)})"
            for slot_id in unlisted
        )

    return Problem(
        grid=grid,
        words=cast("WordList", words),  # a MappedWordList stands in for it in a plain problem
        slots=slots,
        crossings=crossings,
        domains=(),
        min_score=min_score,
        allow_dupes=allow_dupes,
        fixed_text_by_slot=fixed_text_by_slot,
        conflicts=tuple(conflicts),
        controls=controls,
        min_score_by_slot=min_score_by_slot,
        filters_by_slot=filters_by_slot,
        banned=frozenset(controls.bans),
        skipped_slot_ids=frozenset(skipped),
        fillable_cells=fillable_cells,
        notes=tuple(notes),
        unlisted=tuple(unlisted),
        cross_slot=cross_slot,
        cross_pos=cross_pos,
        is_pairwise=is_pairwise,
    )


def _members_by_cell(slots: Sequence[Slot]) -> dict[int, list[tuple[SlotId, int]]]:
    """(slot id, position) of every slot through each letter cell, in slot order."""
    members: dict[int, list[tuple[SlotId, int]]] = {}
    get = members.get
    for slot in slots:
        slot_id = slot.id
        for pos, cell in enumerate(slot.cells):
            ring = get(cell)
            if ring is None:
                members[cell] = [(slot_id, pos)]
            else:
                ring.append((slot_id, pos))
    return members


def cross_links(
    slots: Sequence[Slot],
) -> tuple[tuple[Crossing, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], bool]:
    """The crossings, `cross_slot` and `cross_pos` of `slots` (ids 0.. in order) and whether every letter
    cell is in at most two of them (`Problem.is_pairwise`).

    The slots through a letter cell form a cycle in id order: each position names the next slot's position,
    the last the first's. At an ordinary crossing (two slots) that is the other slot, as every kernel has
    always read it; a cell in three or more slots (a diagonal through a crossing, the readings of a
    Schrödinger entry) chains them, and propagating letters along each link reaches every slot of the
    cell. So the kernels' one-partner arrays carry any number of slots per cell, and ordinary grids give
    the same arrays as ever."""
    members = _members_by_cell(slots)
    cross_slot = [[-1] * len(slot.cells) for slot in slots]
    cross_pos = [[-1] * len(slot.cells) for slot in slots]
    crossings: list[Crossing] = []
    is_pairwise = True
    for cell in sorted(members):
        ring = members[cell]
        n = len(ring)
        if n == 2:  # an ordinary crossing: each slot is the other's partner
            (a, a_pos), (b, b_pos) = ring
            cross_slot[a][a_pos], cross_pos[a][a_pos] = b, b_pos
            cross_slot[b][b_pos], cross_pos[b][b_pos] = a, a_pos
            crossings.append(Crossing(cell, a, a_pos, b, b_pos))
            continue
        if n < 2:
            continue
        is_pairwise = False
        for k, (slot_id, pos) in enumerate(ring):
            nxt_id, nxt_pos = ring[(k + 1) % n]
            cross_slot[slot_id][pos], cross_pos[slot_id][pos] = nxt_id, nxt_pos
            if k + 1 < n:
                crossings.append(Crossing(cell, slot_id, pos, nxt_id, nxt_pos))
    return tuple(crossings), tuple(map(tuple, cross_slot)), tuple(map(tuple, cross_pos)), is_pairwise


def crossing_distances(problem: Problem, seed_ids: Sequence[SlotId]) -> dict[SlotId, int]:
    """Crossing steps from the nearest seed slot to every slot reachable through crossings, in the order
    a breadth-first walk reaches them (the dict's order: rings of crossings, nearest first)."""
    distance = {s: 0 for s in seed_ids}
    queue = deque(seed_ids)
    while queue:
        slot_id = queue.popleft()
        for other in problem.neighbours[slot_id]:
            if other not in distance:
                distance[other] = distance[slot_id] + 1
                queue.append(other)
    return distance
