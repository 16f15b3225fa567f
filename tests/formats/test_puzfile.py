"""Real .puz files (xwcp/formats/puzfile.py): rebus cells and circles as puzpy shows them, locked solutions and
their keys, imperfect headers and checksums, text encodings, what a .puz cannot hold.

The files under tests/data/puzzles are published puzzles from other projects' test collections
(see SOURCE.md there); each test says what the file's own reader shows and checks that xwcp reads the same, or
refuses in one line, or warns.
"""

from __future__ import annotations

import struct

import pytest

from tests.formats.test_puzzle_files import DATA
from xwcp.base.errors import InputError
from xwcp.cli.commands import main
from xwcp.formats import Puzzle, puzfile, read_puzzle, write_puzzle
from xwcp.model import BLOCK, EMPTY, find_slots, parse_grid


def test_puz_rebus_and_circles_are_read_as_puzpy_shows_them():
    import puz

    path = DATA / "nyt_rebus_with_notes_and_shape.puz"
    p = puz.read(str(path))
    puzzle = read_puzzle(path)
    rebus = p.rebus()
    assert (
        {i: c for i, c in enumerate(puzzle.grid.cells) if len(c) > 1}
        == {i: rebus.get_rebus_solution(i) for i in rebus.get_rebus_squares()}
        == {22: "STAR", 112: "STAR", 202: "STAR"}
    )
    assert [c for c, m in puzzle.grid.marks if m.circle] == p.markup().get_markup_squares(puz.GridMarkup.Circled)
    assert puzzle.grid.rows[1] == "LARA#NO[STAR]CH#EBON"
    numbering = p.clue_numbering()
    slots = {s.name: s for s in find_slots(puzzle.grid)}
    for letter, entries, step in (("A", numbering.across, 1), ("D", numbering.down, p.width)):
        for entry in entries:  # every entry where puzpy has it, with its clue
            slot = slots[f"{entry['num']}{letter}"]
            assert slot.cells == tuple(entry["cell"] + k * step for k in range(entry["len"]))
            assert puzzle.clue_by_slot.get(slot.name, "") == entry["clue"]
    assert puzzle.notes.startswith("TEEN PUZZLEMAKER WEEK") and not puzzle.warnings


@pytest.mark.parametrize(
    "name, key, text",
    [("nyt_locked.puz", 7844, "LAKEONTARIO"), ("locked_puz.puz", 1234, None), ("nyt_sun_rebus.puz", 2173, None)],
)
def test_a_locked_solution_is_unlocked_and_the_key_is_said(name, key, text):
    import puz

    puzzle = read_puzzle(DATA / name)
    assert puzzle.warnings == (f"the solution was locked; unlocked with key {key:04d}",)
    p = puz.read(str(DATA / name))
    assert p.unlock_solution(key)  # puzpy agrees: these are the letters the file's checksum locks
    solution = "".join("." if c == BLOCK else c[0] for c in puzzle.grid.cells)
    assert solution == p.solution
    if text:
        assert text in "".join(puzzle.grid.rows)


def test_when_two_keys_fit_the_checksum_the_one_that_spells_words_wins():
    puzzle = read_puzzle(DATA / "nyt_diagramless.puz")
    assert "unlocked with key 3285 (2 keys fit its checksum" in puzzle.warnings[0]
    assert puzzle.is_diagramless and puzzle.grid.n_blocks == 84
    assert puzzle.grid.rows[2] == "#BREYERSICECREAM#"


def test_unlock_key_matches_puzpy_for_every_key_it_finds():
    import puz

    p = puz.read(str(DATA / "nyt_locked.puz"))
    key, n_keys = puzfile.unlock_key(p)
    assert (key, n_keys) == (7844, 1)
    fits = [k for k in range(7800, 7900) if puz.Puzzle.unlock_solution(_copy(p), k)]
    assert fits == [7844]


def _copy(p):
    import copy

    return copy.copy(p)


def test_a_lock_no_key_opens_gives_the_layout_without_letters(tmp_path):
    data = bytearray((DATA / "nyt_locked.puz").read_bytes())
    at = data.index(b"ACROSS&DOWN") - 2 + 0x1E  # the scrambled checksum
    data[at : at + 2] = struct.pack("<H", (struct.unpack_from("<H", data, at)[0] + 1) & 0xFFFF)
    path = tmp_path / "wrong-key.puz"
    path.write_bytes(bytes(data))
    puzzle = read_puzzle(path)
    assert any("no key from 0000 to 9999 opens it" in w for w in puzzle.warnings)
    good = read_puzzle(DATA / "nyt_locked.puz")
    assert [c == BLOCK for c in puzzle.grid.cells] == [c == BLOCK for c in good.grid.cells]
    assert set(puzzle.grid.cells) == {BLOCK, EMPTY}
    assert puzzle.clue_by_slot == good.clue_by_slot


def test_a_key_search_past_its_time_limit_reads_the_layout_and_says_so(tmp_path, monkeypatch):
    from tests.project.hostile import locked_puz

    path = tmp_path / "locked-60.puz"
    path.write_bytes(locked_puz(60))  # five chunks of keys: the limit is checked between them
    monkeypatch.setattr(puzfile, "UNLOCK_TIME_LIMIT_S", 0.0)
    puzzle = read_puzzle(path)
    assert any(
        "the search for its key took more than 0 s; the layout is read without letters" in w for w in puzzle.warnings
    ), puzzle.warnings
    assert set(puzzle.grid.cells) == {EMPTY} and puzzle.grid.width == 60
    import puz

    with pytest.raises(puzfile.UnlockTimeout):
        puzfile.unlock_key(puz.read(str(path)), time_limit_s=0.0)
    monkeypatch.undo()  # within the limit: the same file unlocks with its key
    assert any("unlocked with key 7351" in w for w in read_puzzle(path).warnings)


def test_a_wrong_checksum_is_a_warning_and_the_file_reads_the_same(tmp_path):
    data = bytearray((DATA / "washpost.puz").read_bytes())
    data[data.index(b"ACROSS&DOWN") - 2] ^= 0xFF  # the global checksum
    path = tmp_path / "bad-sum.puz"
    path.write_bytes(bytes(data))
    puzzle = read_puzzle(path)
    assert puzzle.warnings == ("checksums do not match (global): another tool changed the file; read as it is",)
    good = read_puzzle(DATA / "washpost.puz")
    assert (puzzle.grid, puzzle.clue_by_slot, puzzle.title) == (good.grid, good.clue_by_slot, good.title)


def test_a_header_without_a_version_is_read_as_1_3_with_a_warning(tmp_path):
    data = bytearray((DATA / "washpost.puz").read_bytes())
    at = data.index(b"ACROSS&DOWN") + 22
    data[at : at + 4] = b"\0\0\0\0"
    path = tmp_path / "no-version.puz"
    path.write_bytes(bytes(data))
    puzzle = read_puzzle(path)
    assert "the header has no version; read as version 1.3" in puzzle.warnings
    assert puzzle.grid == read_puzzle(DATA / "washpost.puz").grid


def test_a_clue_count_with_its_bytes_swapped_is_mended_with_a_warning():
    puzzle = read_puzzle(DATA / "plus-symbol-rebus.puz")  # a writer put 6 as 0x0600, and no version
    assert puzzle.warnings[:2] == (
        "the header's clue count reads 1536: its two bytes are swapped; read as 6",
        "the header has no version; read as version 1.3",
    )
    assert puzzle.grid.rows == ["CAB", "A[+]E", "B[4]E"] and puzzle.clue_by_slot["1A"] == "Taxi"


@pytest.mark.parametrize(
    "name, message",
    [
        ("ONE_bad.puz", "not a valid .puz file: no ACROSS&DOWN header"),
    ],
)
def test_structurally_damaged_puz_files_are_refused(name, message, capsys):
    with pytest.raises(InputError, match=message):
        read_puzzle(DATA / name)
    assert main(["check", str(DATA / name)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and name in err


def test_puz_v2_text_is_utf8_and_v1_text_windows_1252(tmp_path):
    puzzle = read_puzzle(DATA / "unicode.puz")
    assert puzzle.title == "⚔️" and puzzle.clue_by_slot["2D"] == "φ"
    grid = parse_grid("CAT\nORE\n")
    clue = "\u201cQuoted\u201d \u2014 it\u2019s a dash \u2013 and \u20ac5\u2026"
    out = tmp_path / "quotes.puz"
    write_puzzle(Puzzle(grid, title="Caf\u00e9 \u2018quotes\u2019", clue_by_slot={"1A": clue}), out)
    data = out.read_bytes()
    assert clue.encode("cp1252") in data  # what Across Lite shows as quotes and dashes
    back = read_puzzle(out)
    assert back.clue_by_slot["1A"] == clue and back.title == "Caf\u00e9 \u2018quotes\u2019"
    import puz

    assert puz.read(str(out)).clues[0].encode("latin-1").decode("cp1252") == clue  # checksums hold in puzpy


def test_puz_clue_text_is_written_unchanged(tmp_path):
    clue = "Line one\nline two  with  spaces "
    out = tmp_path / "c.puz"
    write_puzzle(Puzzle(parse_grid("CAT\nORE\n"), clue_by_slot={"1A": clue}), out)
    assert read_puzzle(out).clue_by_slot["1A"] == clue


@pytest.mark.parametrize(
    "text, what",
    [
        ("AB|C\n...\n", "bars between cells (first at row 1, column 2): .puz cannot hold bars; write .ipuz or .jpz"),
        ("{A}BC\n...\n", "shaded or coloured cells (first at row 1, column 1): .puz holds circles only"),
        ("; numbers: 1,1=5 1,2=6 1,3=7 2,1=8\n...\n...\n", "the grid has its own numbering"),
    ],
)
def test_puz_refuses_what_it_cannot_hold_and_names_a_format_that_can(text, what, tmp_path):
    out = tmp_path / "x.puz"
    with pytest.raises(InputError, match="write .ipuz or .jpz") as info:
        write_puzzle(Puzzle(parse_grid(text)), out)
    assert what in str(info.value) and not out.exists()


def test_puz_text_outside_windows_1252_makes_a_version_2_file(tmp_path):
    import puz

    out = tmp_path / "x.puz"
    write_puzzle(Puzzle(parse_grid("CAT\nORE\n"), title="Café ⚔", clue_by_slot={"1A": "a ≠ b"}), out)
    p = puz.read(str(out))  # checksums hold in puzpy
    assert p.version == b"2.0" and p.clues[0] == "a ≠ b" and p.title == "Café ⚔" and p.solution == "CATORE"
    back = read_puzzle(out)
    assert back.clue_by_slot["1A"] == "a ≠ b" and back.title == "Café ⚔" and not back.warnings
    with pytest.raises(InputError) as info:  # a lone surrogate: no encoding holds it
        write_puzzle(Puzzle(parse_grid("CAT\nORE\n"), clue_by_slot={"1A": "a \ud800"}), tmp_path / "y.puz")
    assert "clue 1A has '\\ud800', which is no Unicode character" in str(info.value)


def test_puz_writes_rebus_circles_and_diagramless_as_puzpy_reads_them(tmp_path):
    import puz

    grid = parse_grid("([STAR])AB#\nC[&]DE\n#FGH\n")
    out = tmp_path / "r.puz"
    write_puzzle(Puzzle(grid, is_diagramless=True), out)
    p = puz.read(str(out))
    assert p.puzzletype == puz.PuzzleType.Diagramless and p.solution == "SAB:C&DE:FGH"
    assert p.rebus().get_rebus_solution(0) == "STAR" and not p.rebus().is_rebus_square(5)
    assert p.markup().get_markup_squares(puz.GridMarkup.Circled) == [0]
    back = read_puzzle(out)
    assert back.grid == grid and back.is_diagramless


# ----- issue 34: the key search, bounded --------------------------------------------------


@pytest.mark.parametrize("width, height", [(1, 2), (3, 3), (7, 3), (5, 5), (1, 11)])
def test_the_key_found_unscrambles_to_letters_that_fit_the_checksum(width, height):
    """Small grids (fewer letters than a key digit, odd counts) and the chunked search: every key reported
    fitting does fit puzpy's own checksum, and the locking key is among them."""
    import random

    import puz

    from xwcp.formats.puzfile import unlock_key

    rng = random.Random(width * 100 + height)
    p = puz.Puzzle()
    p.width, p.height = width, height
    p.solution = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(width * height))
    p.fill, p.clues = "-" * (width * height), []
    key = rng.randint(0, 9999)
    p.lock_solution(key)
    found, n_fit = unlock_key(p)
    fitting = [
        k
        for k in range(10000)
        if puz.scrambled_cksum(puz.unscramble_solution(p.solution, width, height, k), width, height)
        == p.scrambled_cksum
    ]
    assert key in fitting and found in fitting and n_fit == len(fitting)


def test_a_locked_60x60_is_unlocked_with_bounded_memory():
    import tracemalloc

    import puz

    from tests.project.hostile import locked_puz
    from xwcp.formats.puzfile import unlock_key

    p = puz.Puzzle()
    p.load(locked_puz(60, key=4321))
    tracemalloc.start()
    try:
        found = unlock_key(p)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found == (4321, 1)
    assert peak < 200 << 20  # 1.1 GB before issue 34
