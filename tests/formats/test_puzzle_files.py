"""Real puzzle files in full: rebus cells, circles, bars, shading, locked and imperfect files, .jpz, variety puzzles.

The files under tests/data/puzzles are published puzzles from other projects' test collections
(see SOURCE.md there); each test says what the file's own reader (puzpy, the JSON, the XML)
shows and checks that xwcp reads the same, or refuses in one line, or warns.
"""
from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xwcp.cli.commands import main
from xwcp.base.errors import InputError
from xwcp.formats import Puzzle, check_writable, read_puzzle, write_puzzle
from xwcp.formats import puzfile
from xwcp.model import BELOW, BLOCK, EMPTY, RIGHT, Mark, find_slots, make_grid, parse_grid

DATA = Path(__file__).resolve().parents[1] / "data" / "puzzles"


def cells_of(puzzle: Puzzle, name: str) -> str:
    slot = next(s for s in find_slots(puzzle.grid) if s.name == name)
    return "".join(puzzle.grid.cells[c] for c in slot.cells)


# ----- .puz ---------------------------------------------------------------------------------

def test_puz_rebus_and_circles_are_read_as_puzpy_shows_them():
    import puz

    path = DATA / "nyt_rebus_with_notes_and_shape.puz"
    p = puz.read(str(path))
    puzzle = read_puzzle(path)
    rebus = p.rebus()
    assert {i: c for i, c in enumerate(puzzle.grid.cells) if len(c) > 1} == {
        i: rebus.get_rebus_solution(i) for i in rebus.get_rebus_squares()} == {22: "STAR", 112: "STAR", 202: "STAR"}
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


@pytest.mark.parametrize("name, key, text", [("nyt_locked.puz", 7844, "LAKEONTARIO"),
                                              ("locked_puz.puz", 1234, None),
                                              ("nyt_sun_rebus.puz", 2173, None)])
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
    data[at:at + 2] = struct.pack("<H", (struct.unpack_from("<H", data, at)[0] + 1) & 0xFFFF)
    path = tmp_path / "wrong-key.puz"
    path.write_bytes(bytes(data))
    puzzle = read_puzzle(path)
    assert any("no key from 0000 to 9999 opens it" in w for w in puzzle.warnings)
    good = read_puzzle(DATA / "nyt_locked.puz")
    assert [c == BLOCK for c in puzzle.grid.cells] == [c == BLOCK for c in good.grid.cells]
    assert set(puzzle.grid.cells) == {BLOCK, EMPTY}
    assert puzzle.clue_by_slot == good.clue_by_slot


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
    data[at:at + 4] = b"\0\0\0\0"
    path = tmp_path / "no-version.puz"
    path.write_bytes(bytes(data))
    puzzle = read_puzzle(path)
    assert "the header has no version; read as version 1.3" in puzzle.warnings
    assert puzzle.grid == read_puzzle(DATA / "washpost.puz").grid


def test_a_clue_count_with_its_bytes_swapped_is_mended_with_a_warning():
    puzzle = read_puzzle(DATA / "plus-symbol-rebus.puz")  # a writer put 6 as 0x0600, and no version
    assert puzzle.warnings[:2] == ("the header's clue count reads 1536: its two bytes are swapped; read as 6",
                                   "the header has no version; read as version 1.3")
    assert puzzle.grid.rows == ["CAB", "A[+]E", "B[4]E"] and puzzle.clue_by_slot["1A"] == "Taxi"


@pytest.mark.parametrize("name, message", [
    ("ONE_bad.puz", "not a valid .puz file: no ACROSS&DOWN header"),
])
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


@pytest.mark.parametrize("text, what", [
    ("AB|C\n...\n", "bars between cells (first at row 1, column 2): .puz cannot hold bars; write .ipuz or .jpz"),
    ("{A}BC\n...\n", "shaded or coloured cells (first at row 1, column 1): .puz holds circles only"),
    ("; numbers: 1,1=5 1,2=6 1,3=7 2,1=8\n...\n...\n", "the grid has its own numbering"),
])
def test_puz_refuses_what_it_cannot_hold_and_names_a_format_that_can(text, what, tmp_path):
    out = tmp_path / "x.puz"
    with pytest.raises(InputError, match="write .ipuz or .jpz") as info:
        write_puzzle(Puzzle(parse_grid(text)), out)
    assert what in str(info.value) and not out.exists()


def test_puz_refuses_text_outside_windows_1252(tmp_path):
    with pytest.raises(InputError, match=r"clue 1A has '≠', which .puz text \(Windows-1252\) cannot hold"):
        write_puzzle(Puzzle(parse_grid("CAT\nORE\n"), clue_by_slot={"1A": "a ≠ b"}), tmp_path / "x.puz")


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


# ----- the done-when chain: .puz -> .ipuz -> .jpz -> .puz ------------------------------------

@pytest.mark.parametrize("name", ["nyt_rebus_with_notes_and_shape.puz", "nyt_v1_4.puz", "nyt_sun_rebus.puz",
                                  "nyt_diagramless.puz", "washpost.puz"])
def test_puz_ipuz_jpz_puz_keeps_solution_circles_and_rebus_exactly(name, tmp_path):
    import puz

    source = puz.read(str(DATA / name))
    key, _ = puzfile.unlock_key(source) if source.is_solution_locked() else (None, 0)
    if key is not None:
        source.solution = puz.unscramble_solution(source.solution, source.width, source.height, key,
                                                  ignore_chars=".:")
    current = DATA / name
    for suffix in (".ipuz", ".jpz", ".puz"):
        out = tmp_path / f"chain{suffix}"
        write_puzzle(read_puzzle(current), out)
        current = out
    back = puz.read(str(current))
    blocks = ".:"
    assert [c in blocks for c in back.solution] == [c in blocks for c in source.solution]
    assert [a for a, b in zip(back.solution, source.solution) if b not in blocks] == [
        b for b in source.solution if b not in blocks]

    def circles(p):
        return p.markup().get_markup_squares(puz.GridMarkup.Circled) if p.has_markup() else []

    def rebus(p):
        r = p.rebus()
        return {i: r.get_rebus_solution(i) for i in r.get_rebus_squares()} if p.has_rebus() else {}

    assert circles(back) == circles(source)
    assert rebus(back) == rebus(source)
    assert back.clues == source.clues and back.title == source.title
    assert (back.puzzletype == puz.PuzzleType.Diagramless) == (source.puzzletype == puz.PuzzleType.Diagramless)


# ----- .ipuz --------------------------------------------------------------------------------

def test_a_barred_ipuz_keeps_its_bars_and_entries_end_at_them():
    puzzle = read_puzzle(DATA / "ccw-barred-demo.ipuz")
    data = json.loads((DATA / "ccw-barred-demo.ipuz").read_text())
    n_sides = sum(len(c["style"].get("barred", "")) for row in data["puzzle"] for c in row
                  if isinstance(c, dict) and isinstance(c.get("style"), dict))
    assert len(puzzle.grid.bars) == 68 <= n_sides
    assert cells_of(puzzle, "1A") == "TESTTUBEBABY"
    for clue in data["clues"]["Across"] + data["clues"]["Down"]:
        name = f"{clue['number']}{'A' if clue in data['clues']['Across'] else 'D'}"
        assert puzzle.clue_by_slot[name] == clue["clue"]
    assert len(puzzle.slots()) == len(data["clues"]["Across"]) + len(data["clues"]["Down"])


def test_a_diagramless_ipuz_keeps_its_blocks_and_flag():
    puzzle = read_puzzle(DATA / "BirthOfTheCool_Diagramless.ipuz")
    data = json.loads((DATA / "BirthOfTheCool_Diagramless.ipuz").read_text())
    assert puzzle.is_diagramless
    assert puzzle.grid.n_blocks == sum(row.count("#") for row in data["solution"]) == 42
    assert len(puzzle.clue_by_slot) == 44 and puzzle.clue_by_slot["1A"] == "Bro's sib"
    assert cells_of(puzzle, "1A") == "SIS" and not puzzle.warnings


def test_omitted_cells_and_the_files_own_numbering():
    puzzle = read_puzzle(DATA / "first.ipuz")
    assert "97 omitted cells (outside the puzzle's shape) are read as blocks" in puzzle.warnings
    assert puzzle.grid.numbers is not None
    assert cells_of(puzzle, "2A") == "SALES" and puzzle.clue_by_slot["2A"] == "What bargain hunters enjoy"
    assert any("clues name no entry of the grid" in w for w in puzzle.warnings)  # F-7, N-8: said, not dropped silently


def test_a_variety_ipuz_is_refused_in_one_line(capsys):
    with pytest.raises(InputError, match="clue set 'Bands' is neither Across nor Down: a variety puzzle"):
        read_puzzle(DATA / "marching-bands.ipuz")
    assert main(["check", str(DATA / "marching-bands.ipuz")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_zero_indexed_clue_cells_are_placed():
    puzzle = read_puzzle(DATA / "kotwords-test-zero-indexed.ipuz")
    assert len(puzzle.clue_by_slot) == 10 and puzzle.grid.cells[12] == "XYZ"


# ----- .xd ----------------------------------------------------------------------------------

def test_puzzmo_xd_dots_are_blocks_and_metadata_keys_any_case():
    puzzle = read_puzzle(DATA / "alpha-bits.xd")
    assert (puzzle.title, puzzle.author, puzzle.copyright) == ("Alpha-Bits", "Drew Hodson", "© 2021")
    assert puzzle.grid.n_blocks == 46 and len(puzzle.clue_by_slot) == 88 and not puzzle.warnings
    assert cells_of(puzzle, "1A") == "AHAB" and puzzle.clue_by_slot["1A"] == "Captain of the Pequod"
    assert {m for _, m in puzzle.grid.marks} == {Mark(circle=True)}  # its Design section


def test_xd_rebus_header_and_design_marks():
    puzzle = read_puzzle(DATA / "speakerboxxx.xd")
    assert [c for c in puzzle.grid.cells if len(c) > 1] == ["BOSE", "SONY"]
    assert all(m.circle for _, m in puzzle.grid.marks) and len(puzzle.grid.marks) == 19
    old = read_puzzle(DATA / "nyt1955-01-01.xd")
    assert old.grid.rows[0] == "[HEART]ACHE#ADAM#[DIAMOND]LIL"


def test_xd_bars_from_the_design_section_agree_with_the_jpz_of_the_same_puzzle():
    puzzle = read_puzzle(DATA / "kotwords-test-barred.xd")
    assert cells_of(puzzle, "1A") == "ABCD" and cells_of(puzzle, "9A") == "UVWX"
    assert (0, BELOW) in puzzle.grid.bars and (3, RIGHT) in puzzle.grid.bars
    assert puzzle.warnings == ("1 clue answers differ from the grid's letters (9A)",)  # the file's own slip


def test_xd_clue_text_is_written_unchanged(tmp_path):
    clue = "Say ''hi'' \u2014 {/italic/} ~ tilde"
    out = tmp_path / "c.xd"
    write_puzzle(Puzzle(parse_grid("CAT\nORE\n"), clue_by_slot={"1A": clue, "2D": ""}), out)
    assert f"A1. {clue} ~ CAT" in out.read_text()
    assert read_puzzle(out).clue_by_slot == {"1A": clue}


@pytest.mark.parametrize("text, needle", [
    ("Title: t\n\n\nAB[\nCDE\nFGH\n\n\nA1. x ~ AB\n", "grid row 1, column 3 holds '['"),
    ("Title: t\nRebus: 1=A#B\n\n\nA1C\nCDE\nFGH\n\n\nA1. x ~ AAC\n", "Rebus header's '1=A#B' puts 'A#B'"),
])
def test_xd_refuses_what_no_cell_can_hold_as_every_reader_does(tmp_path, text, needle):
    """A '[', ']' or '#' in a cell would render as text xwcp cannot read back (`[[]`): refused with one line."""
    path = tmp_path / "bad.xd"
    path.write_text(text)
    with pytest.raises(InputError, match=r"cannot keep .*'#', '\[' and '\]' are not cell contents") as err:
        read_puzzle(path)
    assert needle in str(err.value)


def test_xd_without_hash_blocks_and_without_answers_warns_which_reading(tmp_path):
    path = tmp_path / "dots.xd"
    path.write_text("Title: t\n\n\nAB.C\nDE.F\n\n\nA1. x\n")
    puzzle = read_puzzle(path)
    assert puzzle.grid.n_blocks == 2 and "are read as blocks" in puzzle.warnings[0]


# ----- .jpz ---------------------------------------------------------------------------------

def test_zipped_jpz_with_rebus_and_circles():
    puzzle = read_puzzle(DATA / "3x.jpz")
    assert puzzle.grid.render() == "#A(D)\n[BA]([NA])[NA]\n(A)T#\n"
    assert puzzle.clue_by_slot["1A"] == "TV spot"


def test_barred_jpz_bars_match_its_xml_and_words():
    from xml.etree import ElementTree

    puzzle = read_puzzle(DATA / "printer-devilry.jpz")
    root = ElementTree.parse(DATA / "printer-devilry.jpz").getroot()
    ns = "{http://crossword.info/xml/rectangular-puzzle}"
    width = int(root.find(f".//{ns}grid").get("width"))
    bars = set()
    for cell in root.iter(f"{ns}cell"):
        at = (int(cell.get("y")) - 1) * width + int(cell.get("x")) - 1
        if cell.get("left-bar") == "true":
            bars.add((at - 1, RIGHT))
        if cell.get("top-bar") == "true":
            bars.add((at - width, BELOW))
    assert set(puzzle.grid.bars) == bars and len(bars) == 24
    words = {w.get("id"): tuple((int(c.get("y")) - 1) * width + int(c.get("x")) - 1 for c in w)
             for w in root.iter(f"{ns}word")}
    slot_cells = {s.cells for s in puzzle.slots()}
    assert all(cells in slot_cells for cells in words.values())
    assert puzzle.title == "Beneath The Surface Printer's Devilry #4 (Midi)" and len(puzzle.clue_by_slot) == 18


def test_jpz_symbols_rebus_and_markup_in_clues(tmp_path):
    puzzle = read_puzzle(DATA / "kotwords-test.jpz")
    assert puzzle.grid.render().splitlines()[2:] == ["(I)J[XYZ]L(M)", "#NOPQ", "#[1][2][$][@]"]
    clue = "Bob's <i>Breaking Bad</i> role &amp; more"
    out = tmp_path / "m.jpz"
    write_puzzle(Puzzle(parse_grid("CAT\nORE\n"), clue_by_slot={"1A": clue, "1D": "a < b"}), out)
    back = read_puzzle(out)
    assert back.clue_by_slot == {"1A": clue, "1D": "a < b"}


def test_an_acrostic_jpz_is_refused():
    with pytest.raises(InputError, match=r"not a crossword \(a <acrostic> puzzle\)"):
        read_puzzle(DATA / "acrostic.jpz")


# ----- every format keeps bars, marks, rebus cells, numbering and the kind -------------------

RICH = """\
; colors: 1,2=#FFCC00 3,3=#0A0B0C
([STAR]){A}B|C
.(.).[&]
 -
D{E}.F
"""


@pytest.mark.parametrize("suffix", [".ipuz", ".jpz", ".json", ".txt", ".xd"])
def test_every_format_round_trips_bars_marks_rebus_and_kind(suffix, tmp_path):
    grid = parse_grid(RICH)
    if suffix == ".jpz":  # .jpz has colours only: a shaded cell without its own colour comes back light grey
        grid = make_grid(grid.width, grid.height, grid.cells, bars=grid.bars,
                         marks={c: Mark(m.circle, False, m.color or ("#D3D3D3" if m.shaded else None))
                                for c, m in grid.marks})
    puzzle = Puzzle(grid, title="Rich", author="Me", is_diagramless=True,
                    clue_by_slot={} if suffix == ".txt" else {"1A": "First", "1D": "Down one"})
    out = tmp_path / f"rich{suffix}"
    write_puzzle(puzzle, out)
    back = read_puzzle(out)
    assert back.grid == grid and back.is_diagramless and back.title == "Rich"
    assert back.clue_by_slot == puzzle.clue_by_slot and not back.warnings


@pytest.mark.parametrize("suffix", [".ipuz", ".jpz", ".json", ".txt"])
def test_a_published_numbering_round_trips(suffix, tmp_path):
    grid = parse_grid("; numbers: 1,1=7 1,2=8 1,3=9 2,1=10 3,1=11\n...\n...\n...\n")
    puzzle = Puzzle(grid, clue_by_slot={} if suffix == ".txt" else {"7A": "Seven", "11A": "Eleven"})
    write_puzzle(puzzle, tmp_path / f"n{suffix}")
    back = read_puzzle(tmp_path / f"n{suffix}")
    assert back.grid == grid and back.clue_by_slot == puzzle.clue_by_slot


def test_xd_refuses_a_published_numbering(tmp_path):
    grid = parse_grid("; numbers: 1,1=7 1,2=8 1,3=9 2,1=10 3,1=11\n...\n...\n...\n")
    with pytest.raises(InputError, match="its own numbering: .xd numbers every grid the standard way; write .ipuz"):
        write_puzzle(Puzzle(grid), tmp_path / "n.xd")


_CELL = st.sampled_from([BLOCK, EMPTY, EMPTY, EMPTY, "A", "Q", "STAR", "EW", "&", "3"])


@st.composite
def puzzles(draw, plain_marks: bool = False):
    width, height = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    n = width * height
    cells = draw(st.lists(_CELL, min_size=n, max_size=n))
    bars = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from("RB")), max_size=4))
    colors = [None] if plain_marks else [None, "#FFCC00"]
    marks = draw(st.dictionaries(st.integers(0, n - 1), st.builds(
        Mark, st.booleans(), st.just(False) if plain_marks else st.booleans(), st.sampled_from(colors)), max_size=4))
    grid = make_grid(width, height, cells, bars=[] if plain_marks else bars, marks=marks)
    return grid


@settings(max_examples=60, deadline=None)
@given(puzzles(), st.sampled_from([".ipuz", ".json", ".txt", ".xd"]))
def test_random_grids_round_trip_through_every_format_that_holds_them(tmp_path_factory, grid, suffix):
    if not find_slots(grid):
        return
    out = tmp_path_factory.mktemp("rt") / f"g{suffix}"
    write_puzzle(Puzzle(grid), out)
    assert read_puzzle(out).grid == grid


@settings(max_examples=60, deadline=None)
@given(puzzles(plain_marks=True), st.sampled_from([".puz", ".jpz"]))
def test_random_grids_round_trip_through_puz_and_jpz(tmp_path_factory, grid, suffix):
    if not find_slots(grid):
        return
    out = tmp_path_factory.mktemp("rt") / f"g{suffix}"
    write_puzzle(Puzzle(grid), out)
    assert read_puzzle(out).grid == grid


# ----- warnings reach the user; what cannot be written is refused before the work ----------

@pytest.mark.parametrize("command", [["check", "--time-limit", "5"], ["domains", "-k", "1"], ["heatmap"],
                                     ["fill", "--time-limit", "5"]])
def test_every_command_that_reads_a_file_shows_its_warnings(command, capsys):
    path = DATA / "nyt_locked.puz"
    code = main([command[0], str(path), *command[1:], "--format", "json"])
    captured = capsys.readouterr()
    line = f"xwcp: warning: {path}: the solution was locked; unlocked with key 7844"
    assert line in captured.err.splitlines()
    data = json.loads(captured.out)
    assert f"{path}: the solution was locked; unlocked with key 7844" in data["warnings"]
    assert code in (0, 1, 3)


def test_convert_shows_the_warnings_and_writes(tmp_path, capsys):
    out = tmp_path / "unlocked.ipuz"
    assert main(["convert", str(DATA / "nyt_locked.puz"), str(out), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "unlocked with key 7844" in captured.err and json.loads(captured.out)["warnings"]
    assert read_puzzle(out).grid == read_puzzle(DATA / "nyt_locked.puz").grid


def test_warnings_do_not_change_the_exit_code(tmp_path, capsys):
    data = bytearray((DATA / "washpost.puz").read_bytes())
    data[data.index(b"ACROSS&DOWN") - 2] ^= 0xFF
    path = tmp_path / "bad-sum.puz"
    path.write_bytes(bytes(data))
    good = main(["check", str(DATA / "washpost.puz"), "--time-limit", "5"])
    capsys.readouterr()
    assert main(["check", str(path), "--time-limit", "5"]) == good
    assert "checksums do not match (global)" in capsys.readouterr().err


def test_fill_out_refuses_what_the_output_cannot_hold_before_filling(tmp_path, capsys, monkeypatch):
    import xwcp.services.session

    def no_fill(*args, **kwargs):
        raise AssertionError("filled before refusing the output")

    monkeypatch.setattr(xwcp.services.session, "run_fill", no_fill)
    grid = tmp_path / "barred.txt"
    grid.write_text("AB|C\n...\n")
    code = main(["fill", str(grid), "--out", str(tmp_path / "f.puz")])
    assert code == 2
    err = capsys.readouterr().err
    assert "f.puz: bars between cells" in err and "write .ipuz or .jpz" in err and err.count("\n") == 1
    with pytest.raises(InputError):
        check_writable(read_puzzle(grid), tmp_path / "f.puz")
    check_writable(read_puzzle(grid), tmp_path / "f.ipuz")


# ----- damaged files: a Puzzle or one InputError line, never anything else ------------------

FUZZ_SOURCES = ["nyt_rebus_with_notes_and_shape.puz", "nyt_locked.puz", "unicode.puz", "ccw-barred-demo.ipuz",
                "first.ipuz", "alpha-bits.xd", "speakerboxxx.xd", "printer-devilry.jpz", "3x.jpz",
                "kotwords-test.jpz"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FUZZ_SOURCES), st.data())
def test_damaged_files_read_or_are_refused_in_one_line(tmp_path_factory, name, data):
    raw = bytearray((DATA / name).read_bytes())
    how = data.draw(st.sampled_from(["cut", "flip", "splice"]))
    if how == "cut":
        raw = raw[:data.draw(st.integers(0, len(raw)))]
    elif how == "flip":
        for _ in range(data.draw(st.integers(1, 8))):
            at = data.draw(st.integers(0, len(raw) - 1))
            raw[at] = data.draw(st.integers(0, 255))
    else:
        at = data.draw(st.integers(0, len(raw)))
        raw[at:at] = data.draw(st.binary(min_size=1, max_size=40))
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_bytes(bytes(raw))
    try:
        puzzle = read_puzzle(path)
    except InputError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)
        return
    assert find_slots(puzzle.grid)
    assert all(isinstance(w, str) and "\n" not in w for w in puzzle.warnings)


def test_the_library_says_what_reading_the_file_said():
    import xwcp

    seen: list[str] = []
    session = xwcp.Session(str(DATA / "nyt_locked.puz"), warn=seen.append)
    assert f"{DATA / 'nyt_locked.puz'}: the solution was locked; unlocked with key 7844" in seen
    assert session.puzzle.warnings == ("the solution was locked; unlocked with key 7844",)


def test_the_builder_gets_the_files_warnings():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    import warnings

    import xwcp
    from xwcp.web import app as web_app
    from xwcp.web.hosts import allowed_hosts

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    app = web_app.create_app(words=xwcp.load_word_list(), max_fills=1,
                             hosts=allowed_hosts("127.0.0.1", ["testserver"]))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        response = client.post("/api/open?name=locked.puz", content=(DATA / "nyt_locked.puz").read_bytes())
    assert response.status_code == 200
    assert response.json()["warnings"] == ["the solution was locked; unlocked with key 7844"]


def test_a_coded_crossword_keeps_the_standard_numbering(tmp_path):
    data = {"version": "http://ipuz.org/v2",
            "kind": ["http://ipuz.org/crossword#1", "http://crosswordnexus.com/ipuz/coded#1"], "dimensions": {"width": 3, "height": 2}, "puzzle": [["5", "9", "5"], ["9", "5", "9"]],
            "solution": [["A", "B", "A"], ["B", "A", "B"]], "clues": {}}
    path = tmp_path / "coded.ipuz"
    path.write_text(json.dumps(data))
    puzzle = read_puzzle(path)
    assert puzzle.grid.numbers is None and "a coded crossword" in puzzle.warnings[0]
