"""bench/chain_fill.py: chains with free word boundaries (Marching Bands, Rows Garden rows) filled and checked."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def chain_fill():
    spec = importlib.util.spec_from_file_location("chain_fill", ROOT / "bench" / "chain_fill.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["chain_fill"] = module
    spec.loader.exec_module(module)
    return module


def test_the_marching_bands_form_lists_rows_and_bands(chain_fill):
    puzzle, chains = chain_fill.marching_bands(7)
    assert [(name, len(cells), k) for name, cells, k in chains][6:] == [
        ("Rows.7", 7, 2),
        ("Bands.A", 24, 3),
        ("Bands.B", 16, 2),
        ("Bands.C", 8, 1),
    ]
    assert puzzle.grid.entries_only and puzzle.grid.cells[24] == "#"
    assert chains[7][1][:8] == (0, 1, 2, 3, 4, 5, 6, 13)  # clockwise from the top-left corner


def test_a_chain_automaton_is_deterministic_and_accepts_k_words(chain_fill):
    trie = chain_fill.Trie(["AB", "ABC", "CA"])
    start, finals, transitions = chain_fill.chain_automaton(trie, 2)
    assert len({(tail, label) for tail, label, _ in transitions}) == len(transitions)
    by_edge = {(tail, label): head for tail, label, head in transitions}

    def accepts(word_starts: list[tuple[str, int]]) -> bool:
        state = start
        for ch, begins in word_starts:
            state = by_edge.get((state, 2 * (ord(ch) - 65) + begins))
            if state is None:
                return False
        return state in finals

    assert accepts([("A", 1), ("B", 0), ("C", 1), ("A", 0)])  # AB + CA
    assert accepts([("A", 1), ("B", 0), ("C", 0), ("A", 1), ("B", 0)])  # ABC + AB
    assert not accepts([("A", 1), ("B", 0), ("C", 0)])  # one word
    assert not accepts([("A", 1), ("B", 1)])  # B starts no word


def test_random_lengths_split_a_chain_within_bounds(chain_fill):
    rng = random.Random(1)
    for _ in range(200):
        lengths = chain_fill._random_lengths(48, 6, 6, 8, rng)
        assert lengths is not None and sum(lengths) == 48 and all(6 <= n <= 8 for n in lengths)
    assert chain_fill._random_lengths(10, 4, 3, 9, rng) is None


def test_a_marching_bands_7x7_fills_and_checks(chain_fill, tmp_path, capsys):
    """The segments loop with xwcp's engine and the default list; the fill is checked by check_fill (exit 70
    otherwise) and written as .ipuz with its listed entries."""
    out = tmp_path / "mb7.ipuz"
    assert chain_fill.main(["--marching-bands", "7", "--time-limit", "60", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "FILLED" in text and "check_fill on the chains' words as entries: 0 problems" in text
    from xwcp.formats import read_puzzle

    back = read_puzzle(out)
    assert back.grid.entries_only and len(back.grid.entries) == 10 and "." not in back.grid.cells
