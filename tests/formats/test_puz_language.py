""".puz and a puzzle's language: xwcp's LANG section keeps it (Spanish Ñ and Dutch IJ read back as one letter each,
without --language), letters outside Windows-1252 make a version 2.0 file, and a .puz from elsewhere is read in
the one pack its letters fit; a section never names a file."""

from __future__ import annotations

import json
import struct
import sys

import puz
import pytest

from tests.helpers import check_written_fill, run
from xwcp.base.errors import InputError
from xwcp.formats import puzfile, read_puzzle, write_puzzle
from xwcp.model import find_slots, parse_grid
from xwcp.model.alphabet import ENGLISH, load_alphabet
from xwcp.model.puzzle import Puzzle, clue_order

SPANISH_WORDS = "AÑO;80\nSON;80\nOSA;70\nASO;60\nÑOS;50\nONA;50\nANO;90\n"
"""The only fills of an open 3x3 are AÑO/SON/OSA and its transpose; read as English, AÑO is no word of it."""
GRID_BY_LANGUAGE = {  # letters outside Windows-1252: a version 2.0 file
    "ru": "ДОМ\nАРА\nРОТ\n",
    "el": "ΑΛΣ\nΕΩΝ\nΡΟΔ\n",
    "he": "אבג\nדהו\nזחט\n",
    "pl": "ŁAD\nĄSŻ\n.ĘŹ\n",
}


def _opened_paths():
    """A list that collects every path Python opens while it is in `_RECORDING` (an audit hook: it sees every
    open, whichever module does it)."""
    opened: list[str] = []
    _RECORDING.append(opened)
    return opened


_RECORDING: list[list[str]] = []


def _audit(event: str, args: tuple) -> None:
    if event == "open" and _RECORDING and isinstance(args[0], (str, bytes)):
        _RECORDING[-1].append(str(args[0]))


sys.addaudithook(_audit)


def foreign_puz(rows: list[str], rebus: dict[int, str] | None = None, section: bytes | None = None) -> bytes:
    """A version 1.3 .puz as another tool writes it (puzpy, ISO-8859-1 letters), with an optional LANG section."""
    p = puz.Puzzle()
    p.width, p.height = len(rows[0]), len(rows)
    p.solution = "".join(rows)
    p.fill = "".join("." if ch == "." else "-" for ch in p.solution)
    if rebus:
        for cell, text in rebus.items():
            p.rebus().add_rebus_squares(cell, text)
    layout = parse_grid("".join("".join("#" if ch == "." else "A" for ch in row) + "\n" for row in rows))
    p.clues = [f"clue {slot.name}" for slot in clue_order(find_slots(layout))]
    data: bytes = p.tobytes()
    if section is not None:
        data += struct.pack("<4sHH", b"LANG", len(section), puz.data_cksum(section)) + section + b"\x00"
    return data


def test_a_spanish_fill_written_to_puz_reads_back_in_spanish(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid, words, out = tmp_path / "grid.txt", tmp_path / "es.dict", tmp_path / "x.puz"
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    words.write_text(SPANISH_WORDS, encoding="utf-8")
    code, stdout, err = run(
        ["fill", grid, "--language", "es", "--words", words, "--out", out, "--format", "json", "--backend", "cpsat"],
        capsys,
    )
    assert code == 0, err
    filled = json.loads(stdout)["cells"]
    listed = {line.split(";")[0] for line in SPANISH_WORDS.split()}
    assert check_written_fill(filled, listed, load_alphabet("es").letters) == []
    data = out.read_bytes()
    assert data[data.index(b"ACROSS&DOWN") + 22 :][:4] == b"1.3\x00"  # Ñ is a Windows-1252 letter: version 1.3
    assert data.endswith(b"LANG\x02\x00" + struct.pack("<H", puz.data_cksum(b"es")) + b"es\x00")
    puzzle = read_puzzle(out)  # no --language
    assert puzzle.alphabet.code == "es" and not puzzle.warnings
    assert [[puzzle.alphabet.cell_text(ch) for ch in row] for row in _rows(puzzle)] == filled
    code, stdout, err = run(["check", out, "--words", words, "--format", "json"], capsys)
    assert code == 0 and json.loads(stdout)["unlisted"] == [] and "not in the word list" not in err


def _rows(puzzle: Puzzle) -> list[list[str]]:
    grid = puzzle.grid
    return [list(grid.cells[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)]


def test_dutch_ij_reads_back_as_one_letter_and_across_lite_sees_a_rebus(tmp_path):
    nl = load_alphabet("nl")
    grid = parse_grid("{IJ}S\n..\n", alphabet=nl)
    write_puzzle(Puzzle(grid, alphabet=nl), tmp_path / "nl.puz")
    back = read_puzzle(tmp_path / "nl.puz")
    assert back.alphabet is nl and back.grid == grid and not back.warnings
    p = puz.read(str(tmp_path / "nl.puz"))  # every checksum holds; the LANG section is kept
    assert p.rebus().get_rebus_solution(0) == "IJ" and p.extensions[b"LANG"] == b"nl"


@pytest.mark.parametrize("code", sorted(GRID_BY_LANGUAGE))
def test_letters_outside_windows_1252_write_a_version_2_file_that_reads_back(tmp_path, code):
    alphabet = load_alphabet(code)
    grid = parse_grid(GRID_BY_LANGUAGE[code], alphabet=alphabet)
    clue = {"ru": "Жилище", "el": "Άλας", "he": "שלום", "pl": "Łódź"}[code]
    out = tmp_path / f"{code}.puz"
    write_puzzle(Puzzle(grid, title=clue, clue_by_slot={"1A": clue}, alphabet=alphabet), out)
    p = puz.read(str(out))  # puzpy reads it, checksums and all
    assert p.version == b"2.0" and p.title == clue and p.clues[0] == clue
    outside_ascii = {ch for ch in GRID_BY_LANGUAGE[code] if not ch.isascii()}
    assert outside_ascii <= set(p.rebus().solutions.values())  # each such letter a rebus cell, UTF-8 in RTBL
    assert all(ch.isascii() for ch in p.solution)  # the solution's one byte per cell
    back = read_puzzle(out)
    assert back.alphabet is alphabet and back.grid == grid and not back.warnings
    assert back.title == clue and back.clue_by_slot["1A"] == clue


def test_a_spanish_puzzle_with_a_clue_outside_windows_1252_keeps_its_n_tilde(tmp_path):
    es = load_alphabet("es")
    grid = parse_grid("AÑO\nSON\nOSA\n", alphabet=es)
    out = tmp_path / "es.puz"
    write_puzzle(Puzzle(grid, clue_by_slot={"1A": "Año ≠ ano"}, alphabet=es), out)
    p = puz.read(str(out))
    assert p.version == b"2.0" and p.solution[1] == "N" and p.rebus().get_rebus_solution(1) == "Ñ"
    back = read_puzzle(out)
    assert back.alphabet is es and back.grid == grid and back.clue_by_slot["1A"] == "Año ≠ ano"


def test_a_foreign_puz_is_read_in_the_one_pack_its_letters_fit(tmp_path):
    path = tmp_path / "es.puz"
    path.write_bytes(foreign_puz(["AÑO", "SON", "OSA"]))
    puzzle = read_puzzle(path)
    assert puzzle.alphabet.code == "es" and ["".join(row) for row in _rows(puzzle)] == ["AÑO", "SON", "OSA"]
    assert puzzle.warnings == (
        "read as Spanish (español) (--language es), the pack its letters fit; give --language to read it as another",
    )
    assert read_puzzle(path, ENGLISH).grid.rows[0] == "A[Ñ]O"  # --language still decides
    # a rebus is no language hint: [STAR] and [IJ] are English rebus cells, read as ever, without a warning
    path.write_bytes(foreign_puz(["SAT", "ORE", "NEW"], rebus={0: "STAR", 4: "IJ"}))
    puzzle = read_puzzle(path)
    assert puzzle.alphabet is ENGLISH and puzzle.grid.rows[0] == "[STAR]AT" and not puzzle.warnings
    # letters that several packs hold: read as English, the packs named
    path.write_bytes(foreign_puz(["ÆØS", "SON", "OSA"]))
    puzzle = read_puzzle(path)
    assert puzzle.alphabet is ENGLISH and len(puzzle.warnings) == 1
    assert "fit several packs" in puzzle.warnings[0] and "--language da" in puzzle.warnings[0]
    assert "--language no" in puzzle.warnings[0]


@pytest.mark.parametrize("named", [b"/etc/passwd", b"xx", b"PACK", b"../es.json"])
def test_a_section_naming_no_pack_reads_as_english_and_opens_nothing(tmp_path, named):
    pack = tmp_path / "PACK"  # a pack file a path could name: --language PACK reads it, a file's section never
    pack.write_text(
        json.dumps({"code": "mine", "name": "Mine", "letters": list("ABCDEFGHIJKLMNÑOPQRSTUVWXYZ")}), encoding="utf-8"
    )
    assert load_alphabet(str(pack)).code == "mine"
    path = tmp_path / "x.puz"
    section = str(pack).encode() if named == b"PACK" else named
    path.write_bytes(foreign_puz(["AÑO", "SON", "OSA"], section=section))
    opened = _opened_paths()
    try:
        puzzle = read_puzzle(path)
    finally:
        _RECORDING.remove(opened)
    assert puzzle.alphabet is ENGLISH and puzzle.grid.rows[0] == "A[Ñ]O"
    assert len(puzzle.warnings) == 1 and "none of xwcp's packs" in puzzle.warnings[0]
    assert not [p for p in opened if "passwd" in p or p.endswith(("PACK", ".json"))]


def test_puz_refuses_more_rebus_cells_than_it_can_number(tmp_path):
    import itertools

    names = ["".join(pair) for pair in itertools.product("ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeat=2)][:256]
    rows = ["".join(f"[{names[r * 16 + c]}]" for c in range(16)) for r in range(16)]
    out = tmp_path / "x.puz"
    with pytest.raises(InputError, match="256 different rebus cells: .puz holds at most 255; write .ipuz"):
        write_puzzle(Puzzle(parse_grid("\n".join(rows) + "\n")), out)
    assert not out.exists()
    assert puzfile.MAX_REBUS_ENTRIES == 255


NEW_PACK_GRIDS = {  # a grid typed in lower case with the language's diacritics, and how it is written
    "et": ("õun\nd#ä\nego\n", ["ÕUN", "D#Ä", "EGO"]),
    "sl": ("nož\no#a\nsir\n", ["NOŽ", "O#A", "SIR"]),
    "ro": ("aşa\nr#ț\napă\n", ["ASA", "R#T", "APA"]),
    "ro-diacritics": ("aşa\nr#ț\năpă\n", ["AȘA", "R#Ț", "ĂPĂ"]),
    "grc": ("τῶι\nο#σ\nἵνα\n", ["ΤΩΙ", "Ο#Σ", "ΙΝΑ"]),
}


@pytest.mark.parametrize("code", sorted(NEW_PACK_GRIDS))
@pytest.mark.parametrize("suffix", [".puz", ".ipuz"])
def test_a_grid_of_a_new_pack_reads_typed_letters_and_round_trips_in_its_language(tmp_path, code, suffix):
    typed, written = NEW_PACK_GRIDS[code]
    alphabet = load_alphabet(code)
    grid = parse_grid(typed, alphabet=alphabet)
    assert ["".join(alphabet.cell_text(ch) for ch in row) for row in _rows_of(grid)] == written
    out = tmp_path / f"{code}{suffix}"
    write_puzzle(Puzzle(grid, alphabet=alphabet), out)
    back = read_puzzle(out)  # no --language: the file keeps it
    assert back.alphabet is alphabet and back.grid == grid and not back.warnings


def test_greek_letters_read_as_greek_and_the_warning_names_ancient_greek():
    """Greek and Ancient Greek have the same 24 letters: a file from elsewhere that names no language cannot tell
    them apart, and such a file is modern Greek far more often, so it is read as Greek and the warning names
    Ancient Greek. Danish and Norwegian share their letters too, and neither defers: such a file reads as English
    with both named."""
    from xwcp.formats._language import letters_alphabet

    warnings: list[str] = []
    assert letters_alphabet(["Α", "Λ", "Σ", "Ω"], warnings).code == "el"
    assert len(warnings) == 1 and "--language el" in warnings[0] and "--language grc" in warnings[0]
    warnings.clear()
    assert letters_alphabet(["Æ", "Ø"], warnings) is None
    assert len(warnings) == 1 and "--language da" in warnings[0] and "--language no" in warnings[0]
    warnings.clear()
    assert letters_alphabet(["Õ", "Ä"], warnings).code == "et"  # Õ is Estonian's alone
    assert letters_alphabet(["Ă", "Ș"], warnings).code == "ro-diacritics"


def test_a_foreign_greek_puz_reads_as_greek(tmp_path):
    """A version-2 .puz in Greek with no LANG section (as another tool writes it) opens in the Greek pack."""
    alphabet = load_alphabet("el")
    grid = parse_grid("ΤΟΝ\nΑ#Α\nΣΑΣ\n", alphabet=alphabet)
    out = tmp_path / "greek.puz"
    write_puzzle(Puzzle(grid, alphabet=alphabet), out)
    p = puz.read(str(out))
    assert p.extensions.pop(puzfile.LANGUAGE_SECTION) == b"el"  # what xwcp writes, taken away
    out.write_bytes(p.tobytes())
    back = read_puzzle(out)
    assert back.alphabet.code == "el" and back.grid == grid
    assert any("--language grc" in warning for warning in back.warnings)


def _rows_of(grid):
    return [grid.cells[r * grid.width : (r + 1) * grid.width] for r in range(grid.height)]
