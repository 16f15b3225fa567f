"""Chains (entries of several words whose boundaries the fill chooses): the model, the text syntax, the readers,
and `xwcp fill` on published Marching Bands and Rows Garden layouts, every fill checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.formats import read_puzzle, write_puzzle
from xwcp.model.entries import Entry
from xwcp.model.grid import BLOCK, EMPTY, make_grid
from xwcp.model.puzzle import puzzle_from_fill
from xwcp.model.text import parse_grid
from xwcp.services.chains import check_chains, fill_chains, split_grid
from xwcp.services.load import LoadOptions, load
from xwcp.services.quick import load_and_fill

VARIETY = Path(__file__).resolve().parents[1] / "data" / "puzzles" / "variety"


def marching_bands(size: int):
    """The published Marching Bands form (kotwords' `MarchingBands.kt`): rows of two answers around a centre
    block, concentric bands read clockwise from their top-left cell, one answer per eight cells."""
    centre = (size // 2) * size + size // 2
    cells = [BLOCK if cell == centre else EMPTY for cell in range(size * size)]
    entries = [
        Entry(f"ROWS.{y + 1}", tuple(y * size + x for x in range(size) if y * size + x != centre), 2)
        for y in range(size)
    ]
    for i in range(size // 2):
        lo, hi = i, size - 1 - i
        ring = (
            [(x, lo) for x in range(lo, hi + 1)]
            + [(hi, y) for y in range(lo + 1, hi + 1)]
            + [(x, hi) for x in range(hi - 1, lo - 1, -1)]
            + [(lo, y) for y in range(hi - 1, lo, -1)]
        )
        band = tuple(y * size + x for x, y in ring)
        entries.append(Entry(f"BANDS.{chr(65 + i)}", band, max(1, len(band) // 8)))
    return make_grid(size, size, cells, entries=entries, entries_only=True)


def emptied(path: Path, tmp_path: Path) -> Path:
    """The puzzle file's layout with every letter erased, written beside the test (same format)."""
    puzzle = read_puzzle(path)
    grid = puzzle.grid.with_cells(cell if cell == BLOCK else EMPTY for cell in puzzle.grid.cells)
    out = tmp_path / f"empty-{path.name}"
    write_puzzle(puzzle_from_fill(puzzle, grid), out)
    return out


def independent_violations(grid, words_by_chain, other_entries, word_list):
    """A fill's faults read from the filled grid alone: each chain's words are listed, spell its cells in order and
    number its `words`; every other entry is listed; no word twice in the puzzle."""
    bad = []
    seen = []
    for entry in grid.entries:
        if entry.is_chain:
            parts = words_by_chain[entry.name]
            if len(parts) != entry.words:
                bad.append(f"{entry.name}: {len(parts)} words")
            if "".join(parts) != "".join(grid.cells[c] for c in entry.cells):
                bad.append(f"{entry.name}: {'/'.join(parts)} does not spell its cells")
        else:
            parts = ["".join(grid.cells[c] for c in entry.cells)]
        for word in parts:
            if word_list.score(word) is None:
                bad.append(f"{entry.name}: {word} is not listed")
        seen += parts
    seen += other_entries
    bad += [f"{word} twice" for word in set(seen) if seen.count(word) > 1]
    return bad


def test_the_text_syntax_round_trips_a_chain():
    grid = marching_bands(7)
    text = grid.render()
    assert "; chain: ROWS.1 = 2 words: 1,1 1,2" in text
    assert "; chain: BANDS.A = 3 words: 1,1 1,2" in text
    assert "; entry: BANDS.C = 3,3" in text  # eight cells: one word, an ordinary entry
    again = parse_grid(text)
    assert again == grid
    assert [e.words for e in again.entries] == [e.words for e in grid.entries]
    assert again.has_chains and not make_grid(3, 1, ["."] * 3).has_chains


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("; chain: R = 1,1 1,2 1,3 1,4 1,5 1,6", "say how many words"),
        ("; chain: R = 1 words: 1,1 1,2 1,3 1,4 1,5 1,6", "two or more"),
        ("; chain: R = 4 words: 1,1 1,2 1,3 1,4 1,5 1,6", "too few for 4 words"),
    ],
)
def test_a_bad_chain_line_is_one_clear_error(line, says):
    with pytest.raises(InputError, match=says) as caught:
        parse_grid(f"; entries: listed\n{line}\n......\n")
    assert caught.value.line == 2


def test_the_readers_mark_chains_and_the_writers_keep_them(tmp_path):
    bands = read_puzzle(VARIETY / "marching-bands.jpz").grid
    words = {e.name: e.words for e in bands.entries}
    assert words["ROWS.1"] == 2 and words["BANDS.A"] == 3 and words["BANDS.B"] == 2
    garden = read_puzzle(VARIETY / "rows-garden.ipuz")
    words = {e.name: e.words for e in garden.grid.entries}
    assert words["ROWS.A"] == 1 and words["ROWS.B"] == 2 and words["BLOOMS.L1"] == 1
    for suffix in (".ipuz", ".jpz", ".txt"):
        out = tmp_path / f"again{suffix}"
        write_puzzle(garden, out)
        assert {e.name: e.words for e in read_puzzle(out).grid.entries} == words, suffix


def test_a_chain_drawn_without_a_clue_keeps_its_words_in_every_file(tmp_path):
    grid = marching_bands(7)
    puzzle = read_puzzle_text(grid.render(), tmp_path)
    for suffix in (".ipuz", ".jpz", ".json"):
        out = tmp_path / f"drawn{suffix}"
        write_puzzle(puzzle, out)
        assert read_puzzle(out).grid == grid, suffix


def read_puzzle_text(text, tmp_path):
    path = tmp_path / "drawn.txt"
    path.write_text(text)
    return read_puzzle(path)


def test_a_rows_garden_fills_through_the_command_line(tmp_path, capsys, default_words):
    grid_path = emptied(VARIETY / "rows-garden-mini.jpz", tmp_path)  # kotwords' 15x7 layout
    out = tmp_path / "filled.jpz"
    code, stdout, _ = run(["fill", grid_path, "--format", "json", "--out", out, "--time-limit", "120"], capsys)
    assert code == 0
    data = json.loads(stdout)
    assert data["status"] == "filled"
    chains = data["chains"]
    assert sorted(chains) == ["ROWS.B", "ROWS.C", "ROWS.D", "ROWS.E", "ROWS.F"]
    assert all(len(words) == 2 for words in chains.values())
    assert any(line.startswith("; chain: ROWS.B = 2 words: ") for line in data["grid"])  # the grid with its chains
    written = read_puzzle(out).grid
    assert {e.name: e.words for e in written.entries}["ROWS.B"] == 2  # the file keeps the chains
    others = ["".join(written.cells[c] for c in e.cells) for e in written.entries if not e.is_chain]
    assert len(others) == 17  # rows A and G, 15 blooms
    assert independent_violations(written, chains, [], default_words) == []
    puzzle, problem, result = load_and_fill(grid_path, time_limit_s=120)
    assert result.status is FillStatus.FILLED
    assert check_chains(puzzle.grid, problem, result.entries) == []
    code, stdout, err = run(["check", out], capsys)
    assert code == 0 and "not in the word list" not in stdout + err  # each chain is its listed words run together


def test_a_complete_chain_is_listed_only_as_its_count_of_words(default_words):
    from xwcp.compile.problem import compile_problem

    grid = parse_grid("; entries: listed\n; chain: R = 2 words: 1,1 1,2 1,3 1,4 1,5 1,6\nTENCAT\n")
    assert compile_problem(grid, default_words).unlisted == ()
    three = parse_grid("; entries: listed\n; chain: R = 3 words: 1,1 1,2 1,3 1,4 1,5 1,6\nTENCAT\n")
    assert len(compile_problem(three, default_words).unlisted) == 1


def test_a_marching_bands_7x7_fills_and_is_checked(tmp_path, default_words):
    grid = marching_bands(7)
    path = tmp_path / "bands.txt"
    path.write_text(grid.render())
    puzzle, problem, result = load_and_fill(path, time_limit_s=120)
    assert result.status is FillStatus.FILLED
    assert check_chains(puzzle.grid, problem, result.entries) == []
    from xwcp.engine.result import fill_grid
    from xwcp.services.chains import chain_words

    filled = puzzle.grid.with_cells(fill_grid(problem, result.entries).cells)
    words_by_chain = chain_words(puzzle.grid, problem, result.entries)
    assert {name: len(w) for name, w in words_by_chain.items()} == {
        **{f"ROWS.{n}": 2 for n in range(1, 8)},
        "BANDS.A": 3,
        "BANDS.B": 2,
    }
    assert independent_violations(filled, words_by_chain, [], default_words) == []


def test_the_checker_refuses_a_split_that_does_not_follow_its_chain(default_words):
    grid = marching_bands(7)
    found = fill_chains(grid, default_words, time_limit_s=60)
    assert found.result.status is FillStatus.FILLED
    entries = list(found.result.entries)
    assert check_chains(grid, found.problem, entries) == []
    entries[0] = entries[1] = "ZZZ"[: len(entries[0])]
    assert check_chains(grid, found.problem, entries)
    bands = marching_bands(7).entries
    one_word = make_grid(
        7, 7, grid.cells, entries=[e._replace(words=1) if e.name == "ROWS.1" else e for e in bands], entries_only=True
    )  # ROWS.1 one entry: the split's two parts do not make it
    assert any("lacks" in v for v in check_chains(one_word, found.problem, found.result.entries))
    three = make_grid(
        7, 7, grid.cells, entries=[e._replace(words=3) if e.name == "ROWS.1" else e for e in bands], entries_only=True
    )
    assert "ROWS.1: 2 words fill a chain of 3" in check_chains(three, found.problem, found.result.entries)


def test_a_chain_too_short_for_its_words_is_a_clear_error(tmp_path, capsys, default_words):
    grid_path = emptied(VARIETY / "marching-bands.jpz", tmp_path)  # 5x5: rows of 2 words in 5 and 4 cells
    code, _, err = run(["fill", grid_path], capsys)
    assert code == 2
    assert "chain ROWS.1 has 5 cells: no 2 words" in err
    assert str(grid_path.name) in err
    assert "Traceback" not in err


def test_a_search_over_splits_that_runs_out_is_a_limit_not_a_proof(tmp_path, capsys, default_words):
    path = tmp_path / "q.txt"
    path.write_text("; entries: listed\n; chain: R = 2 words: 1,1 1,2 1,3 1,4 1,5 1,6\nQQQQQ.\n")
    code, stdout, _ = run(["fill", path, "--format", "json"], capsys)  # 3+3 is the only split: unfillable
    assert code == 3
    assert "no untried split" in json.loads(stdout)["reason"]


def test_check_answers_for_the_splits_not_for_one_long_word(tmp_path, capsys, default_words):
    grid_path = emptied(VARIETY / "rows-garden-mini.jpz", tmp_path)  # a row of 15 cells is no one listed word
    code, stdout, _ = run(["check", grid_path, "--format", "json", "--time-limit", "60"], capsys)
    assert code == 0 and json.loads(stdout)["verdict"] == "fillable"
    path = tmp_path / "q.txt"
    path.write_text("; entries: listed\n; chain: R = 2 words: 1,1 1,2 1,3 1,4 1,5 1,6\nQQQQQ.\n")
    code, stdout, _ = run(["check", path, "--format", "json"], capsys)
    assert code == 3 and json.loads(stdout)["verdict"] == "unknown"


def test_a_core_outside_the_chains_proves_the_grid_unfillable(tmp_path, capsys, default_words):
    path = tmp_path / "q.txt"
    path.write_text(
        "; entries: listed\n; chain: R = 2 words: 1,1 1,2 1,3 1,4 1,5 1,6\n; entry: S = 2,1 2,2 2,3\n......\nQQ.###\n"
    )
    code, _, _ = run(["fill", path], capsys)
    assert code == 1


def test_the_split_grid_keeps_the_other_entries():
    grid = parse_grid("; entry: R = 1,1 2,2\n; chain: C = 2 words: 1,1 1,2 1,3 1,4 1,5 1,6\n......\n......\n")
    split = split_grid(grid, ((0, 3, 6),))
    assert [e.name for e in split.entries] == ["R", "C+1", "C+2"]
    assert not split.entries_only and not split.has_chains
    assert load(split, None, LoadOptions()).problem.slot_by_name("C+2").cells == (3, 4, 5)


def test_the_library_fills_chains_as_the_command_line_does(default_words):
    import xwcp

    answer = xwcp.fill(marching_bands(7).render(), time_limit_s=60)
    assert answer.status is FillStatus.FILLED
    assert len(answer["ROWS.1+1"]) + len(answer["ROWS.1+2"]) == 7 and len(answer["BANDS.A+3"]) >= 3
    with pytest.raises(InputError, match="one plain fill"):
        xwcp.fill(marching_bands(7).render(), count=2)


def test_a_lock_on_a_chain_gives_its_letters_and_leaves_its_boundaries_free(tmp_path, capsys, default_words):
    path = tmp_path / "two.txt"
    path.write_text(
        "; entries: listed\n; chain: R = 2 words: 1,1 1,2 1,3 1,4 1,5 1,6 1,7\n"
        "; chain: S = 2 words: 2,1 2,2 2,3 2,4 2,5 2,6 2,7\n; entry: D = 1,1 2,1 3,1\n.......\n.......\n...####\n"
    )
    code, stdout, err = run(["fill", path, "--lock", "R=TENCATS", "--format", "json"], capsys)
    assert code == 0 and "not in the word list" not in err
    data = json.loads(stdout)
    assert "".join(data["chains"]["R"]) == "TENCATS" and len(data["chains"]["R"]) == 2
    code, _, err = run(["fill", path, "--lock", "R=TENCAT"], capsys)
    assert code == 2 and "R has 7 letters" in err
