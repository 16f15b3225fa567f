"""Fill chains with free boundaries (Marching Bands rows and bands, Rows Garden rows) with CP-SAT automata, and time it.

Usage:
    python3 bench/chain_fill.py --marching-bands 13 [--per-length N] [--min-score S] [--time-limit S] [--out F.ipuz]
    python3 bench/chain_fill.py PUZZLE.ipuz|.jpz [...]

A chain is a listed entry (`xwcp.model.entries`) filled by k consecutive listed words whose boundaries the
solver chooses: a Marching Bands row holds two answers, a band one answer per eight cells, a Rows Garden row
two or three. From a file, k is the number of clues its clue line joins with " / " (kotwords' convention:
"Row 1A / Row 1B"); an entry with one clue is one word. `--marching-bands N` builds the published N x N form
(kotwords' layout: N rows of two answers over a centre block, N // 2 concentric bands read clockwise from
their top-left cell, one answer per eight cells) as a Puzzle with listed entries, and writes it with --out.

The model: one integer variable per white cell (its letter), and per chain one boolean per cell "a word
starts here" (true at the chain's first cell). The chain's cells read as the labels 2 * letter + start, and
an automaton over those labels accepts exactly the concatenations of k listed words: its states are
(trie node, words started), a label without a start follows the trie, a label with a start needs a word
end (or the start state) and enters the trie's root with one word more, and the final states are word
ends with k words started. Labelling each letter with its start bit makes the automaton deterministic
(CP-SAT's AddAutomaton needs that), so one automaton per chain holds every segmentation at once, with no
enumeration of the boundaries. The fill is checked afterwards: every chain split at its start bits into
listed words, every cell one letter shared by its chains (the model's variables), and no word used twice
(reported; the automata do not see word identities).

Prints the grid, each chain's words, the solve time and the model's size.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from ortools.sat.python import cp_model  # noqa: E402

from xwcp.formats import read_puzzle, write_puzzle  # noqa: E402
from xwcp.model import find_slots  # noqa: E402
from xwcp.model.entries import Entry  # noqa: E402
from xwcp.model.grid import BLOCK, EMPTY, make_grid  # noqa: E402
from xwcp.model.puzzle import CellLabel, ClueList, ListedClue, Puzzle  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402

Chain = tuple[str, tuple[int, ...], int]
"""(entry name, its cells in order, how many words fill it)."""


def marching_bands(size: int) -> tuple[Puzzle, list[Chain]]:
    """The published Marching Bands form of side `size` (odd): rows of two answers, bands of one per 8 cells."""
    centre = (size // 2) * size + size // 2
    cells = [BLOCK if cell == centre else EMPTY for cell in range(size * size)]
    entries: list[Entry] = []
    chains: list[Chain] = []
    rows: list[ListedClue] = []
    bands: list[ListedClue] = []
    labels: list[CellLabel] = []
    for y in range(size):
        row = tuple(y * size + x for x in range(size) if y * size + x != centre)
        entries.append(Entry(f"Rows.{y + 1}", row))
        chains.append((f"Rows.{y + 1}", row, 2))
        rows.append(ListedClue(str(y + 1), f"Rows.{y + 1}", f"Row {y + 1}A / Row {y + 1}B"))
        labels.append(CellLabel(y * size, "TL", str(y + 1)))
    for i in range(size // 2):
        lo, hi = i, size - 1 - i
        ring = (
            [(x, lo) for x in range(lo, hi + 1)]
            + [(hi, y) for y in range(lo + 1, hi + 1)]
            + [(x, hi) for x in range(hi - 1, lo - 1, -1)]
            + [(lo, y) for y in range(hi - 1, lo, -1)]
        )
        band = tuple(y * size + x for x, y in ring)
        name = f"Bands.{chr(65 + i)}"
        k = max(1, len(band) // 8)
        entries.append(Entry(name, band))
        chains.append((name, band, k))
        bands.append(ListedClue(chr(65 + i), name, " / ".join(f"Band {chr(65 + i)}{n + 1}" for n in range(k))))
        labels.append(CellLabel(i * size + i, "TR", chr(65 + i)))
    grid = make_grid(size, size, cells, entries=entries, entries_only=True)
    puzzle = Puzzle(
        grid,
        f"Marching Bands {size}x{size}",
        notes="filled by bench/chain_fill.py",
        clue_by_slot={c.entry: c.text for c in rows + bands if c.entry},
        clue_lists=(ClueList("Rows", tuple(rows)), ClueList("Bands", tuple(bands))),
        cell_labels=tuple(sorted(labels)),
    )
    return puzzle, chains


def file_chains(puzzle: Puzzle) -> list[Chain]:
    """A file's chains: every listed entry, its word count from its clue's " / " parts."""
    return [(s.name, s.cells, max(1, puzzle.clue(s).count(" / ") + 1)) for s in find_slots(puzzle.grid) if s.label]


class Trie:
    """A trie of the words, nodes numbered from 0 (the root); `end` marks the nodes that end a word."""

    def __init__(self, words: list[str]):
        self.child: list[dict[int, int]] = [{}]
        self.end: list[bool] = [False]
        for word in words:
            node = 0
            for ch in word:
                letter = ord(ch) - 65
                nxt = self.child[node].get(letter)
                if nxt is None:
                    nxt = len(self.child)
                    self.child[node][letter] = nxt
                    self.child.append({})
                    self.end.append(False)
                node = nxt
            self.end[node] = True


def chain_automaton(trie: Trie, k: int) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """(start state, final states, transitions) over labels 2 * letter + start for k words in a row."""
    n_nodes = len(trie.child)

    def state(node: int, started: int) -> int:
        return 1 + (started - 1) * n_nodes + node

    start = 0
    transitions: list[tuple[int, int, int]] = []
    for letter, node in trie.child[0].items():
        transitions.append((start, 2 * letter + 1, state(node, 1)))
    for started in range(1, k + 1):
        for node in range(1, n_nodes):
            here = state(node, started)
            for letter, nxt in trie.child[node].items():
                transitions.append((here, 2 * letter, state(nxt, started)))
            if trie.end[node] and started < k:
                for letter, nxt in trie.child[0].items():
                    transitions.append((here, 2 * letter + 1, state(nxt, started + 1)))
    finals = [state(node, k) for node in range(1, n_nodes) if trie.end[node]]
    return start, finals, transitions


class WordIndex:
    """The words by length, best first, and by (length, position, letter) for pattern look-ups (memoised)."""

    def __init__(self, words: list[str], min_length: int, max_length: int):
        self.min_length, self.max_length = min_length, max_length
        self.by_length: dict[int, list[str]] = {}
        for word in words:
            self.by_length.setdefault(len(word), []).append(word)
        self.ids: dict[tuple[int, int, str], set[int]] = {}
        for length, listed in self.by_length.items():
            for i, word in enumerate(listed):
                for at, ch in enumerate(word):
                    self.ids.setdefault((length, at, ch), set()).add(i)
        self._memo: dict[str, list[int]] = {}

    def matching(self, pattern: str) -> list[int]:
        """Ids (in the list of its length) of the words `pattern` ('.' for an open cell) fits, best first."""
        found = self._memo.get(pattern)
        if found is None:
            length = len(pattern)
            sets = [self.ids.get((length, at, ch), set()) for at, ch in enumerate(pattern) if ch != "."]
            if not sets:
                found = list(range(len(self.by_length.get(length, ()))))
            else:
                sets.sort(key=len)
                found = sorted(set.intersection(*sets)) if len(sets) > 1 else sorted(sets[0])
            self._memo[pattern] = found
        return found


class ChainSearch:
    """Depth-first search over chains: the next word of the chain with the fewest candidates, each placement
    followed by a check that every chain it crossed can still be split into its remaining words."""

    def __init__(self, grid_cells: tuple[str, ...], chains: list[Chain], index: WordIndex, seed: int):
        import random

        self.chains = chains
        self.index = index
        self.letters = {c: (x if x not in (BLOCK, EMPTY) else ".") for c, x in enumerate(grid_cells) if x != BLOCK}
        self.at = [0] * len(chains)  # the next word's first position in each chain
        self.left = [k for _, _, k in chains]  # words still to place
        self.chains_by_cell: dict[int, list[int]] = {}
        for i, (_, cells, _) in enumerate(chains):
            for cell in cells:
                self.chains_by_cell.setdefault(cell, []).append(i)
        self.used: set[str] = set()
        self.words: list[list[str]] = [[] for _ in chains]
        self.rng = random.Random(seed)
        self.nodes = 0
        self._split_memo: dict[tuple[str, int], bool] = {}
        self._letters_memo: dict[str, tuple[frozenset[str], ...]] = {}
        self._chain_memo: dict[tuple[str, int], tuple[frozenset[str], ...] | None] = {}

    def pattern(self, i: int, start: int, stop: int) -> str:
        cells = self.chains[i][1]
        return "".join(self.letters[c] for c in cells[start:stop])

    def lengths(self, i: int) -> range:
        """The lengths the next word of chain i may have."""
        remaining = len(self.chains[i][1]) - self.at[i]
        if self.left[i] == 1:
            return range(remaining, remaining + 1) if remaining <= self.index.max_length else range(0)
        longest = min(self.index.max_length, remaining - (self.left[i] - 1) * self.index.min_length)
        return range(self.index.min_length, longest + 1)

    def splits(self, pattern: str, k: int) -> bool:
        """Can `pattern` be split into k listed words?"""
        key = (pattern, k)
        known = self._split_memo.get(key)
        if known is None:
            lo, hi = self.index.min_length, self.index.max_length
            if k == 1:
                known = lo <= len(pattern) <= hi and bool(self.index.matching(pattern))
            else:
                known = any(
                    self.index.matching(pattern[:n]) and self.splits(pattern[n:], k - 1)
                    for n in range(lo, min(hi, len(pattern) - (k - 1) * lo) + 1)
                )
            self._split_memo[key] = known
        return known

    def segment_letters(self, pattern: str) -> tuple[frozenset[str], ...]:
        """The letters each position of `pattern` may take in a word it fits."""
        found = self._letters_memo.get(pattern)
        if found is None:
            listed = self.index.by_length.get(len(pattern), [])
            ids = self.index.matching(pattern)
            found = tuple(
                frozenset(ch) if ch != "." else frozenset(listed[w][at] for w in ids) for at, ch in enumerate(pattern)
            )
            self._letters_memo[pattern] = found
        return found

    def chain_letters(self, pattern: str, k: int) -> tuple[frozenset[str], ...] | None:
        """The letters each position of a chain's open rest may take over every split of it into k words; None
        when there is no split."""
        key = (pattern, k)
        if key in self._chain_memo:
            return self._chain_memo[key]
        n, lo, hi = len(pattern), self.index.min_length, self.index.max_length
        ahead = [[False] * (k + 1) for _ in range(n + 1)]  # ahead[a][j]: pattern[:a] splits into j words
        ahead[0][0] = True
        fits = {}
        for a in range(n):
            for length in range(lo, min(hi, n - a) + 1):
                fits[a, length] = bool(self.index.matching(pattern[a : a + length]))
        for a in range(n):
            for j in range(k):
                if ahead[a][j]:
                    for length in range(lo, min(hi, n - a) + 1):
                        if fits[a, length]:
                            ahead[a + length][j + 1] = True
        behind = [[False] * (k + 1) for _ in range(n + 1)]  # behind[a][j]: pattern[a:] splits into j words
        behind[n][0] = True
        for a in range(n - 1, -1, -1):
            for j in range(1, k + 1):
                behind[a][j] = any(
                    fits[a, length] and behind[a + length][j - 1] for length in range(lo, min(hi, n - a) + 1)
                )
        if not ahead[n][k]:
            self._chain_memo[key] = None
            return None
        sets: list[set[str]] = [set() for _ in range(n)]
        for (a, length), ok in fits.items():
            if ok and any(ahead[a][j] and behind[a + length][k - j - 1] for j in range(k)):
                for at, letters in enumerate(self.segment_letters(pattern[a : a + length])):
                    sets[a + at] |= letters
        result = tuple(frozenset(x) for x in sets)
        self._chain_memo[key] = result
        return result

    def consistent(self) -> bool:
        """Every open cell keeps a letter that both its chains allow."""
        allowed: dict[int, frozenset[str]] = {}
        for i, (_, cells, _) in enumerate(self.chains):
            if not self.left[i]:
                continue
            sets = self.chain_letters(self.pattern(i, self.at[i], len(cells)), self.left[i])
            if sets is None:
                return False
            for cell, letters in zip(cells[self.at[i] :], sets):
                if self.letters[cell] != ".":
                    continue
                seen = allowed.get(cell)
                both = letters if seen is None else seen & letters
                if not both:
                    return False
                allowed[cell] = both
        return True

    def feasible(self, i: int) -> bool:
        cells = self.chains[i][1]
        return self.left[i] == 0 or self.splits(self.pattern(i, self.at[i], len(cells)), self.left[i])

    def count(self, i: int) -> int:
        """How many words may come next in chain i (used words counted too: a bound, cheap)."""
        return sum(
            len(self.index.matching(self.pattern(i, self.at[i], self.at[i] + length))) for length in self.lengths(i)
        )

    def candidates(self, i: int) -> list[str]:
        out: list[tuple[int, str]] = []
        for length in self.lengths(i):
            listed = self.index.by_length.get(length, [])
            for rank in self.index.matching(self.pattern(i, self.at[i], self.at[i] + length)):
                word = listed[rank]
                if word not in self.used:
                    out.append((rank, word))
        out.sort()
        return [word for _, word in out]

    def solve(self, deadline: float) -> bool:
        self.nodes += 1
        if time.perf_counter() > deadline:
            raise TimeoutError
        open_chains = [i for i in range(len(self.chains)) if self.left[i]]
        if not open_chains:
            return True
        counts = [(self.count(i), i) for i in open_chains]
        least, i = min(counts)
        if not least:
            return False
        best = self.candidates(i)
        cells = self.chains[i][1]
        head = best[:8]
        self.rng.shuffle(head)
        for word in head + best[8:]:
            start = self.at[i]
            placed = [c for c, ch in zip(cells[start : start + len(word)], word) if self.letters[c] == "."]
            for c, ch in zip(cells[start : start + len(word)], word):
                self.letters[c] = ch
            self.at[i] += len(word)
            self.left[i] -= 1
            self.used.add(word)
            self.words[i].append(word)
            crossed = {j for c in placed for j in self.chains_by_cell[c]}
            if all(self.feasible(j) for j in crossed | {i}) and self.consistent() and self.solve(deadline):
                return True
            self.words[i].pop()
            self.used.discard(word)
            self.left[i] += 1
            self.at[i] -= len(word)
            for c in placed:
                self.letters[c] = "."
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzle", nargs="?", type=Path)
    parser.add_argument("--marching-bands", type=int, metavar="N", help="build the N x N Marching Bands form")
    parser.add_argument("--per-length", type=int, default=1500, help="best-scored words kept per length")
    parser.add_argument("--min-score", type=int, default=50)
    parser.add_argument("--min-length", type=int, default=3)
    parser.add_argument("--max-length", type=int, default=9, help="longest word a chain may hold")
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write the filled puzzle (.ipuz or .jpz)")
    parser.add_argument("--keep-letters", action="store_true", help="a file's letters stay as given")
    parser.add_argument("--method", choices=("segments", "search", "cpsat"), default="segments")
    parser.add_argument("--attempt-limit", type=float, default=10.0, help="segments: seconds per segmentation")
    args = parser.parse_args(argv)
    if args.marching_bands:
        puzzle, chains = marching_bands(args.marching_bands)
    elif args.puzzle:
        puzzle = read_puzzle(args.puzzle)
        chains = file_chains(puzzle)
        if not args.keep_letters:  # the layout only: a test file's letters are placeholders
            cleared = puzzle.grid.with_letters({c: EMPTY for c, x in enumerate(puzzle.grid.cells) if x != BLOCK})
            puzzle = dataclasses.replace(puzzle, grid=cleared)
    else:
        parser.error("give a puzzle file or --marching-bands N")
    grid = puzzle.grid
    started = time.perf_counter()
    word_list = load_word_list()
    longest = min(args.max_length, max(len(cells) for _, cells, _ in chains))
    words: list[str] = []
    for length in range(args.min_length, longest + 1):
        bucket = word_list.bucket(length)
        if not bucket.n_words:
            continue
        ranked = sorted(range(bucket.n_words), key=lambda i: -int(bucket.scores[i]))
        words += [bucket.text(i) for i in ranked[: args.per_length] if bucket.scores[i] >= args.min_score]
    if args.method == "cpsat":
        words_by_chain, letters, built, solved, status = _cpsat(grid, chains, words, args, started)
    elif args.method == "segments":
        words_by_chain, letters, built, solved, status = _segments(grid, chains, args, started)
    else:
        index = WordIndex(words, args.min_length, longest)
        search = ChainSearch(grid.cells, chains, index, args.seed)
        built = time.perf_counter()
        try:
            status = "FILLED" if search.solve(built + args.time_limit) else "UNFILLABLE"
        except TimeoutError:
            status = "LIMIT"
        solved = time.perf_counter()
        letters = search.letters
        words_by_chain = search.words
        status += f" ({search.nodes:,} nodes)"
    listed = (
        f"the default list (score >= {args.min_score}, words of {args.min_length}-{longest} letters)"
        if args.method == "segments"
        else f"{len(words):,} words ({args.per_length} best per length {args.min_length}-{longest}, "
        f"score >= {args.min_score})"
    )
    print(
        f"{grid.width}x{grid.height}, {len(chains)} chains, {listed}; {args.method}: set up in "
        f"{built - started:.1f} s, solved in {solved - built:.1f} s: {status}"
    )
    if not status.startswith(("FILLED", "OPTIMAL", "FEASIBLE")):
        return 1
    for (name, _, _), parts in zip(chains, words_by_chain):
        print(f"  {name:10} {' / '.join(parts)}")
    for r in range(grid.height):
        print("  " + "".join(letters.get(r * grid.width + c, "#") for c in range(grid.width)))
    problems = check(grid, chains, words_by_chain, letters)
    print(
        f"check_fill on the chains' words as entries: {len(problems)} problems{': ' if problems else ''}"
        + "; ".join(problems[:3])
    )
    if args.out:
        from xwcp.formats import puzzle_from_fill

        write_puzzle(puzzle_from_fill(puzzle, grid.with_letters(letters)), args.out)
        print(f"written: {args.out}")
    return 0 if not problems else 70


def check(grid, chains: list[Chain], words_by_chain: list[list[str]], letters: dict[int, str]) -> list[str]:
    """The project's checker on the fill: each chain's words made entries of the grid (split where the fill split
    it), compiled with the default list, and `check_fill` asked of those words (listed, crossings agree, no word
    twice); plus: each chain holds its number of words and they spell its cells."""
    from xwcp.engine.result import check_fill
    from xwcp.services.load import LoadOptions, load

    entries: list[Entry] = []
    texts: list[str] = []
    problems: list[str] = []
    for (name, cells, k), parts in zip(chains, words_by_chain):
        if len(parts) != k or sum(map(len, parts)) != len(cells):
            problems.append(f"{name}: {len(parts)} words over {sum(map(len, parts))} of {len(cells)} cells")
        at = 0
        for n, word in enumerate(parts, 1):
            entries.append(Entry(f"{name}.{n}", cells[at : at + len(word)]))
            texts.append(word)
            at += len(word)
    split = make_grid(grid.width, grid.height, grid.cells, entries=entries, entries_only=True)
    problem = load(split, None, LoadOptions(min_score=0)).problem
    by_name = dict(zip((e.name for e in split.entries), texts))  # the grid keeps names in upper case
    return problems + check_fill(problem, [by_name[slot.name] for slot in problem.slots])


def _random_lengths(n: int, k: int, lo: int, hi: int, rng) -> list[int] | None:
    """k word lengths in [lo, hi] summing to n, each drawn among those that leave the rest a split; None if none."""
    lengths: list[int] = []
    for i in range(k):
        rest = k - i - 1
        choices = [m for m in range(lo, hi + 1) if rest * lo <= n - m <= rest * hi]
        if not choices:
            return None
        lengths.append(rng.choice(choices))
        n -= lengths[-1]
    return lengths


def _segments(grid, chains: list[Chain], args, started: float):
    """Segmentations drawn at random (each chain split into its number of words, lengths between --min-length and
    --max-length), each filled by xwcp's own engine as a grid of fixed listed entries with the default list, until
    one fills; (words by chain, letters, times, status)."""
    import random

    from xwcp.engine.result import check_fill, fill_grid
    from xwcp.services.load import LoadOptions, load
    from xwcp.services.run import run_fill

    rng = random.Random(args.seed)
    built = time.perf_counter()
    deadline = built + args.time_limit
    attempts: list[str] = []
    while time.perf_counter() < deadline:
        splits: list[list[int]] = []
        entries: list[Entry] = []
        for name, cells, k in chains:
            lengths = _random_lengths(len(cells), k, args.min_length, args.max_length, rng)
            if lengths is None:
                return [[] for _ in chains], {}, built, time.perf_counter(), f"no split of {name}"
            cuts = [sum(lengths[:n]) for n in range(k + 1)]
            splits.append(cuts)
            entries += [Entry(f"{name}.{n + 1}", cells[a:b]) for n, (a, b) in enumerate(zip(cuts, cuts[1:]))]
        split = make_grid(grid.width, grid.height, grid.cells, entries=entries, entries_only=True)
        problem = load(split, None, LoadOptions(min_score=args.min_score)).problem
        try:
            result = run_fill(problem, time_limit_s=min(args.attempt_limit, max(0.1, deadline - time.perf_counter())))
        except RuntimeError as exc:  # the engine's own check refused its fill
            attempts.append("invalid")
            print(f"  attempt {len(attempts)}: {str(exc)[:100]}")
            continue
        attempts.append(result.status.name)
        if result.entries and not check_fill(problem, result.entries):
            filled = fill_grid(problem, result.entries)
            letters = {c: x for c, x in enumerate(filled.cells) if x != BLOCK}
            words_by_chain = [
                ["".join(letters[c] for c in cells[a:b]) for a, b in zip(cuts, cuts[1:])]
                for (_, cells, _), cuts in zip(chains, splits)
            ]
            summary = ", ".join(f"{attempts.count(x)} {x}" for x in dict.fromkeys(attempts))
            return words_by_chain, letters, built, time.perf_counter(), f"FILLED after {len(attempts)} ({summary})"
    summary = ", ".join(f"{attempts.count(x)} {x}" for x in dict.fromkeys(attempts))
    return [[] for _ in chains], {}, built, time.perf_counter(), f"LIMIT after {len(attempts)} ({summary})"


def _cpsat(grid, chains, words, args, started):
    """The CP-SAT automaton model (see the module docstring); (words by chain, letters, times, status)."""
    model = cp_model.CpModel()
    letter_by_cell = {
        cell: model.NewIntVar(0, 25, f"c{cell}") for cell, content in enumerate(grid.cells) if content != BLOCK
    }
    for cell, content in enumerate(grid.cells):
        if content not in (BLOCK, EMPTY) and len(content) == 1:
            model.Add(letter_by_cell[cell] == ord(content) - 65)
    tries: dict[int, Trie] = {}
    n_transitions = 0
    starts_by_chain: dict[str, list[cp_model.IntVar]] = {}
    for name, cells, k in chains:
        max_word = len(cells) - (k - 1) * args.min_length
        trie = tries.get(max_word)
        if trie is None:
            trie = tries[max_word] = Trie([w for w in words if len(w) <= max_word])
        start, finals, transitions = chain_automaton(trie, k)
        n_transitions += len(transitions)
        starts = [model.NewBoolVar(f"{name}.s{p}") for p in range(len(cells))]
        model.Add(starts[0] == 1)
        model.Add(sum(starts) == k)
        starts_by_chain[name] = starts
        model.AddAutomaton([2 * letter_by_cell[c] + s for c, s in zip(cells, starts)], start, finals, transitions)
    built = time.perf_counter()
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = args.time_limit
    solver.parameters.num_workers = args.workers
    solver.parameters.random_seed = args.seed
    status = solver.Solve(model)
    solved = time.perf_counter()
    letters: dict[int, str] = {}
    words_by_chain: list[list[str]] = [[] for _ in chains]
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        letters = {cell: chr(65 + solver.Value(var)) for cell, var in letter_by_cell.items()}
        for i, (name, cells, _) in enumerate(chains):
            bounds = [p for p, s in enumerate(starts_by_chain[name]) if solver.Value(s)] + [len(cells)]
            words_by_chain[i] = ["".join(letters[c] for c in cells[a:b]) for a, b in zip(bounds, bounds[1:])]
    return words_by_chain, letters, built, solved, solver.StatusName(status)


if __name__ == "__main__":
    sys.exit(main())
