"""Real .jpz files (xwcp/formats/jpzfile.py): zipped files with rebus and circles, bars matching the XML, symbols
and markup in clues, acrostics refused.

The files under tests/data/puzzles are published puzzles from other projects' test collections
(see SOURCE.md there); each test says what the file's own reader shows and checks that xwcp reads the same, or
refuses in one line, or warns.
"""

from __future__ import annotations

import pytest

from tests.formats.test_puzzle_files import DATA
from xwcp.base.errors import InputError
from xwcp.formats import Puzzle, read_puzzle, write_puzzle
from xwcp.model import BELOW, RIGHT, parse_grid


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
    words = {
        w.get("id"): tuple((int(c.get("y")) - 1) * width + int(c.get("x")) - 1 for c in w)
        for w in root.iter(f"{ns}word")
    }
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


# ----- issue 34: zipped .jpz under budgets --------------------------------------------------


def _zipped(text: str, method: int) -> bytes:
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        archive.writestr("puzzle.xml", text)
    return buffer.getvalue()


@pytest.mark.parametrize("method", ["ZIP_STORED", "ZIP_DEFLATED", "ZIP_BZIP2", "ZIP_LZMA"])
def test_every_zip_method_reads_the_same_puzzle(method):
    import zipfile

    from tests.project.hostile import jpz_text
    from xwcp.formats.jpzfile import from_bytes

    text = jpz_text() + "<!--" + "x" * 50_000 + "-->"  # several 64 KiB pieces
    puzzle = from_bytes(_zipped(text, getattr(zipfile, method)), "p.jpz")
    assert puzzle.grid.rows == ["CAT", "A#A", "TAT"]
    assert puzzle.clue_by_slot == {"1A": "Feline", "1D": "Taxi"}


@pytest.mark.parametrize("name", ["zip-bomb-false-size.jpz", "zip-bomb-bzip2.jpz"])
def test_a_zip_bomb_is_refused_before_it_inflates(name):
    import tracemalloc

    from tests.project.hostile import hostile_files
    from xwcp.formats.jpzfile import from_bytes
    from xwcp.runtime.files import MAX_UNZIPPED_BYTES

    data = hostile_files(scale=1 / 32)[name]  # 32 MiB inflated, 4 times the cap; the archive says 1,000 bytes
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as caught:
            from_bytes(data, "bomb.jpz")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(caught.value).startswith("bomb.jpz: the zipped puzzle inflates to more than")
    assert "bomb.jpz" not in str(caught.value)[len("bomb.jpz") :]  # named once
    assert peak < 3 * MAX_UNZIPPED_BYTES


def test_a_span_far_outside_the_grid_names_no_cells_and_costs_nothing():
    from tests.project.hostile import jpz_text
    from xwcp.formats.jpzfile import from_bytes

    puzzle = from_bytes(jpz_text(word_x="1-999999999").encode(), "s.jpz")
    assert puzzle.clue_by_slot == {"1D": "Taxi"}
    assert "1 clues name no word of the grid and are not read" in puzzle.warnings


@pytest.mark.parametrize("where", ["clue", "title"])
def test_deeply_nested_markup_is_refused_in_one_line(where):
    from tests.project.hostile import jpz_text
    from xwcp.formats.jpzfile import from_bytes

    nested = "<i>" * 5000 + "x" + "</i>" * 5000
    with pytest.raises(InputError, match="the XML nests elements 5,00[45] deep"):
        from_bytes(jpz_text(**{where: nested}).encode(), "n.jpz")
    shallow = "<i>" * 20 + "x" + "</i>" * 20  # markup a few levels deep still reads
    assert from_bytes(jpz_text(**{where: shallow}).encode(), "n.jpz").grid.rows == ["CAT", "A#A", "TAT"]
