"""Puzzle files: round trips through every format, files made by other tools, and bad files refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from xwcp.base.errors import InputError
from xwcp.cli.commands import main
from xwcp.formats import Puzzle, check_writable, read_puzzle, write_puzzle
from xwcp.model import parse_grid

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
MODEL_GRIDS = sorted((ROOT / "models").glob("*.txt")) + sorted((ROOT / "models" / "vanbeek").glob("*.txt"))
FORMATS = (".txt", ".puz", ".ipuz", ".xd", ".json", ".jpz")

# Herald Tribune 15.01 (models/vanbeek/15.01.txt) as filled by `xwcp fill` with the default list.
HERALD_FILLED = """\
HATS#ACRES#AWLS
ECON#LEAVE#NOAH
RELATIONAL#DOZE
ADDRESS##LARDED
###EAT#AISLES##
SCADS#CNN#LAPIS
IAN#EMAILS#SITH
TIN#TOPSEED#RPI
ERES#BITTER#IRE
SOBER#TOS#ALTOS
##REAGAN#PIE###
PROPER##DONALDS
LANA#ANTIISRAEL
ACTS#SEERS#NICO
NYET#STATE#SNOW
"""


def test_model_grids_are_found():
    assert len(MODEL_GRIDS) >= 80  # the stock grids and the 72 van Beek grids


@pytest.mark.parametrize("path", MODEL_GRIDS, ids=lambda p: p.stem)
def test_txt_puz_ipuz_xd_txt_round_trip(path, tmp_path):
    original = read_puzzle(path)
    current = path
    chain = []
    for suffix in (".puz", ".ipuz", ".jpz", ".xd", ".txt"):
        try:  # a format that cannot hold the grid says so (bars in .puz, Schrödinger cells in .jpz) and is skipped
            check_writable(original, f"grid{suffix}")
            chain.append(suffix)
        except InputError:
            pass
    assert ".ipuz" in chain and ".txt" in chain
    for suffix in chain:
        out = tmp_path / f"grid{suffix}"
        write_puzzle(read_puzzle(current), out)
        current = out
    assert read_puzzle(current).grid == original.grid


@pytest.mark.parametrize("suffix", FORMATS)
def test_each_format_round_trips_grid_and_metadata(suffix, tmp_path):
    grid = parse_grid(HERALD_FILLED)
    puzzle = Puzzle(
        grid,
        title="Herald 15.01",
        author="A. Constructor",
        copyright="CC0",
        notes="filled by xwcp",
        clue_by_slot={"1A": "Headwear", "1D": "Bids"},
    )
    out = tmp_path / f"herald{suffix}"
    write_puzzle(puzzle, out)
    back = read_puzzle(out)
    assert back.grid == grid
    assert back.title == "Herald 15.01" and back.author == "A. Constructor" and back.copyright == "CC0"
    if suffix != ".txt":  # the text grid keeps only title, author and copyright comments
        assert back.notes == "filled by xwcp"
        assert back.clue_by_slot == {"1A": "Headwear", "1D": "Bids"}


def test_filled_herald_survives_the_chain_and_the_puz_has_valid_checksums(tmp_path):
    import puz

    src = tmp_path / "herald.txt"
    src.write_text(HERALD_FILLED)
    current = src
    for suffix in (".puz", ".ipuz", ".xd", ".txt"):
        out = tmp_path / f"h{suffix}"
        write_puzzle(read_puzzle(current), out)
        current = out
    assert read_puzzle(current).grid.rows == HERALD_FILLED.split()
    p = puz.read(str(tmp_path / "h.puz"))  # puzpy checks the global, header, magic and extension checksums
    assert p.solution == HERALD_FILLED.replace("\n", "").replace("#", ".")
    numbering = p.clue_numbering()
    assert len(numbering.across) + len(numbering.down) == len(p.clues) == 78


def test_partly_filled_grid_keeps_empty_cells_in_every_format(tmp_path):
    grid = parse_grid("#..Z\n...E\n...R\nWOR.\n")
    for suffix in FORMATS:
        out = tmp_path / f"g{suffix}"
        write_puzzle(Puzzle(grid), out)
        assert read_puzzle(out).grid == grid, suffix


# ----- files made by other tools -------------------------------------------------------------


def test_reads_a_puz_written_by_puzpy():
    p = read_puzzle(DATA / "puzpy-5x5.puz")
    assert p.grid.rows == ["#CAT#", "HOSER", "ARENA", "TEENS", "#SSS#"]
    assert (p.title, p.author) == ("A puzpy sample", "xwcp tests")
    assert p.clue_by_slot["1A"] == "Clue 1A" and p.clue_by_slot["4D"] == "Clue 4D" and len(p.clue_by_slot) == 10


def test_reads_a_hand_written_ipuz_with_styles_omitted_cells_and_edge_bars():
    p = read_puzzle(DATA / "spec-example.ipuz")
    assert p.grid.rows == ["CA#", "BOW", "#X."]  # null is an omitted cell (a block); '0' an empty one
    assert p.title == "An ipuz written by hand"
    assert p.clue_by_slot["1A"] == "Taxi" and p.clue_by_slot["3A"] == "Ribbon knot"


def test_reads_a_hand_written_xd():
    p = read_puzzle(DATA / "spec-example.xd")
    assert p.grid.rows == ["CAB", "ARE", "BET"]
    assert p.author == "xwcp tests" and p.clue_by_slot["5A"] == "Wager"
    assert p.notes.startswith("Written after the example")


def test_every_command_reads_every_format(tmp_path, capsys):
    for name in ("puzpy-5x5.puz", "spec-example.ipuz", "spec-example.xd"):
        for command in (["heatmap"], ["domains", "-k", "1"], ["check", "--time-limit", "5"]):
            code = main([*command, str(DATA / name), "--format", "json"])
            out = capsys.readouterr().out
            assert code in (0, 1), (name, command)
            json.loads(out)


# ----- bad files: one line naming the file and the problem, exit 2 ---------------------------


def _bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    import puz

    good = (DATA / "puzpy-5x5.puz").read_bytes()
    files: dict[str, tuple[bytes | str, str, str]] = {}
    files["puz-truncated"] = (good[:70], ".puz", "not a valid .puz file")
    files["puz-not-puz"] = (b"hello", ".puz", "no ACROSS&DOWN header")
    cut = good[: good.index(b"Clue 2D")]
    files["puz-cut-in-clues"] = (cut, ".puz", "the header says 10 clues but only 2 strings follow")
    many = bytearray(good)
    many[0x2E:0x30] = (99).to_bytes(2, "little")  # the header's clue count
    files["puz-wrong-clue-count"] = (bytes(many), ".puz", "the header says 99 clues but only 11 strings follow")
    p = puz.read(str(DATA / "puzpy-5x5.puz"))
    p.rebus().add_rebus_squares([7], "HEART")
    p.rebus().table[8] = 5  # names rebus entry 4, which RTBL lacks
    files["puz-rebus-missing-entry"] = (p.tobytes(), ".puz", "names entry 4, which the rebus table (RTBL) lacks")
    files["ipuz-not-json"] = ('{"version": ', ".ipuz", "not JSON")
    files["ipuz-no-dimensions"] = (
        json.dumps({"version": "http://ipuz.org/v2", "puzzle": [[0, 0]]}),
        ".ipuz",
        "no dimensions",
    )
    ipuz = json.loads((DATA / "spec-example.ipuz").read_text())
    ipuz["clues"]["Bands"] = [{"number": "A", "cells": [[1, 1], [2, 1], [3, 1]], "clue": "Band A"}]
    files["ipuz-entry-on-block"] = (json.dumps(ipuz), ".ipuz", "Bands clue A runs through the block at row 1, column 3")
    ipuz = json.loads((DATA / "spec-example.ipuz").read_text())
    ipuz["clues"]["Across"].append({"number": 9, "cells": [[1, 1], [2, 1], [2, 4]], "clue": "Off"})
    files["ipuz-entry-off-grid"] = (json.dumps(ipuz), ".ipuz", "Across clue 9 names cells outside the 3x3 grid")
    files["ipuz-ragged"] = (
        json.dumps({"dimensions": {"width": 3, "height": 2}, "puzzle": [[0, 0, 0]]}),
        ".ipuz",
        '"puzzle" is not 2 rows of 3 cells',
    )
    files["xd-no-grid"] = ("Title: nothing else\n", ".xd", "no grid")
    files["xd-bad-rebus"] = (
        "Title: r\nRebus: HEART\n\n\n1AB\nCDE\n",
        ".xd",
        "the Rebus header's 'HEART' does not read",
    )
    files["xd-ragged"] = ("Title: c\n\n\nABC\nDE\n", ".xd", "grid row 2 has 2 cells")
    files["unknown-extension"] = ("...\n...\n", ".docx", "unknown puzzle file extension '.docx'")
    files["json-no-grid"] = ('{"entries": []}', ".json", 'no "grid"')
    files["jpz-not-xml"] = ("<crossword-compiler><rectangular-puzzle>", ".jpz", "not valid XML")
    files["jpz-bad-zip"] = (b"PK\x03\x04 not really a zip", ".jpz", "not a valid zipped .jpz")
    files["jpz-acrostic"] = (
        "<crossword-compiler><rectangular-puzzle><acrostic/></rectangular-puzzle></crossword-compiler>",
        ".jpz",
        "not a crossword (a <acrostic> puzzle)",
    )
    files["jpz-entry-twice"] = (
        "<crossword-compiler><rectangular-puzzle><crossword><grid width='2' height='2'>"
        + "".join(f"<cell x='{x}' y='{y}' solution='A'/>" for y in (1, 2) for x in (1, 2))
        + "</grid><word id='1'><cells x='1' y='1'/><cells x='2' y='1'/><cells x='2' y='2'/>"
        "<cells x='1' y='1'/></word><clues><title>Snakes</title><clue word='1' number='1'>Loop</clue></clues>"
        "</crossword></rectangular-puzzle></crossword-compiler>",
        ".jpz",
        "Snakes clue 1 goes through one cell twice",
    )
    out = {}
    for name, (content, suffix, message) in files.items():
        path = tmp_path / f"{name}{suffix}"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        out[name] = (path, message)
    return out


BAD_NAMES = [
    "puz-truncated",
    "puz-not-puz",
    "puz-cut-in-clues",
    "puz-wrong-clue-count",
    "puz-rebus-missing-entry",
    "ipuz-not-json",
    "ipuz-no-dimensions",
    "ipuz-entry-on-block",
    "ipuz-entry-off-grid",
    "ipuz-ragged",
    "xd-no-grid",
    "xd-bad-rebus",
    "xd-ragged",
    "unknown-extension",
    "json-no-grid",
    "jpz-not-xml",
    "jpz-bad-zip",
    "jpz-acrostic",
    "jpz-entry-twice",
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_bad_file_is_one_line_naming_file_and_problem(name, tmp_path, capsys):
    path, message = _bad_files(tmp_path)[name]
    with pytest.raises(InputError) as info:
        read_puzzle(path)
    assert message in str(info.value)
    code = main(["check", str(path)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and str(path) in err and message in err and "Traceback" not in err


def test_missing_file_names_it(tmp_path, capsys):
    for suffix in FORMATS:
        assert main(["convert", str(tmp_path / f"none{suffix}"), str(tmp_path / "out.txt")]) == 2
        assert f"none{suffix}: no such" in capsys.readouterr().err


# ----- convert and fill --out ----------------------------------------------------------------


@pytest.mark.parametrize("suffix", FORMATS)
def test_fill_out_writes_the_filled_puzzle_with_the_input_title(suffix, tmp_path, capsys):
    from xwcp import compile_problem, words_from_pairs
    from xwcp.engine.result import check_fill
    from xwcp.model import find_slots

    src = tmp_path / "in.ipuz"
    write_puzzle(Puzzle(parse_grid("...\n...\n"), title="Tiny", author="Me"), src)
    words = tmp_path / "w.txt"
    words.write_text("\n".join(["CAT", "ORE", "CO", "AR", "TE"]))
    out = tmp_path / f"out{suffix}"
    code = main(["fill", str(src), "--words", str(words), "--min-score", "0", "--out", str(out), "--format", "json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["out"] == str(out)
    back = read_puzzle(out)
    assert back.title == "Tiny" and back.author == "Me"
    problem = compile_problem(
        parse_grid("...\n...\n"),
        words_from_pairs([("CAT", 50), ("ORE", 50), ("CO", 50), ("AR", 50), ("TE", 50)]),
        min_score=0,
    )
    entries = ["".join(back.grid.cells[c] for c in s.cells) for s in find_slots(back.grid)]
    assert check_fill(problem, entries) == []


def test_ipuz_in_the_specs_jsonp_wrapping_is_read(tmp_path):
    path = tmp_path / "wrapped.ipuz"
    path.write_text("ipuz(" + (DATA / "spec-example.ipuz").read_text() + ")")
    assert read_puzzle(path).grid.rows == ["CA#", "BOW", "#X."]


def test_fill_json_output_reads_back_as_a_grid(tmp_path, capsys):
    words = tmp_path / "w.txt"
    words.write_text("\n".join(["CAT", "ORE", "CO", "AR", "TE"]))
    grid = tmp_path / "g.txt"
    grid.write_text("...\n...\n")
    assert main(["fill", str(grid), "--words", str(words), "--min-score", "0", "--format", "json"]) == 0
    out = tmp_path / "fill.json"
    out.write_text(capsys.readouterr().out)
    assert read_puzzle(out).grid.rows == ["CAT", "ORE"]
