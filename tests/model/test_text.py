"""xwcp's text grid syntax (xwcp/model/text.py): parsing every cell kind, comments, line endings and byte order marks;
reading files and rows; one-line errors naming the line, the cell or the file; the size limits."""

from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.model import MAX_SIDE, find_slots, parse_grid, read_grid


def test_parse_maps_every_cell_kind():
    grid = parse_grid("#.?\n_ab\nXYZ\n")
    assert (grid.width, grid.height) == (3, 3)
    assert grid.cells == ("#", ".", ".", ".", "A", "B", "X", "Y", "Z")
    assert grid.rows == ["#..", ".AB", "XYZ"]
    assert grid.n_blocks == 1
    assert grid.cell(1, 2) == "B"


def test_parse_skips_comment_and_blank_lines():
    text = "; a comment\n\n..#\n; another ;\n   \n#..\n\n"
    grid = parse_grid(text)
    assert grid.rows == ["..#", "#.."]


def test_windows_line_endings_and_byte_order_mark():
    # Notepad writes a UTF-8 byte order mark and CRLF line ends; neither is part of the grid.
    assert parse_grid("\ufeff..#\r\n.A.\r\n").rows == ["..#", ".A."]


def test_read_grid_accepts_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf...\r\n#..\r\n")
    assert read_grid(path).rows == ["...", "#.."]


def test_ragged_rows_names_row_and_line():
    with pytest.raises(InputError) as info:
        parse_grid("; header\n...\n..\n...\n", "g.txt")
    message = str(info.value)
    assert message.startswith("g.txt:3: ")
    assert "row 2" in message
    assert info.value.line == 3 and info.value.source == "g.txt"


def test_bad_character_names_line_and_character():
    with pytest.raises(InputError) as info:
        parse_grid("...\n.*.\n...\n", "bad.txt")
    message = str(info.value)
    assert message.startswith("bad.txt:2: ")
    assert "'*'" in message and "column 2" in message


@pytest.mark.parametrize("ch", ["1", "é", "-", "ß"])
def test_non_ascii_letters_and_digits_are_rejected(ch):
    with pytest.raises(InputError):
        parse_grid(f"..{ch}\n...\n", "g.txt")


@pytest.mark.parametrize("text", ["", "\n\n", "; only a comment\n;another\n"])
def test_no_rows(text):
    with pytest.raises(InputError) as info:
        parse_grid(text, "empty.txt")
    assert str(info.value).startswith("empty.txt")
    assert "no rows" in str(info.value)


def test_grid_without_a_slot():
    with pytest.raises(InputError) as info:
        parse_grid("#.#\n###\n", "noslot.txt")
    assert str(info.value).startswith("noslot.txt")
    assert "no slot" in str(info.value)


def test_too_wide_grid():
    with pytest.raises(InputError) as info:
        parse_grid("." * (MAX_SIDE + 1) + "\n" + "." * (MAX_SIDE + 1), "wide.txt")
    assert str(info.value).startswith("wide.txt")
    assert f"{MAX_SIDE + 1}x2" in str(info.value)


def test_too_tall_grid():
    with pytest.raises(InputError):
        parse_grid("..\n" * (MAX_SIDE + 1), "tall.txt")


def test_largest_grid_is_accepted():
    grid = parse_grid(("." * MAX_SIDE + "\n") * MAX_SIDE)
    assert (grid.width, grid.height) == (MAX_SIDE, MAX_SIDE) == (60, 60)
    assert len(find_slots(grid)) == 2 * MAX_SIDE


def test_read_grid_reads_a_file(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("; mine\n..#\n.a.\n")
    assert read_grid(path).rows == ["..#", ".A."]
    assert read_grid(str(path)).rows == ["..#", ".A."]


def test_read_grid_errors_name_the_file(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("...\n....\n")
    with pytest.raises(InputError) as info:
        read_grid(path)
    assert str(info.value).startswith(f"{path}:2: ")


def test_missing_grid_file(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(InputError) as info:
        read_grid(path)
    assert str(path) in str(info.value)
    assert "no such" in str(info.value)


def test_directory_is_not_a_grid(tmp_path):
    with pytest.raises(InputError) as info:
        read_grid(tmp_path)
    assert str(tmp_path) in str(info.value)
    assert "directory" in str(info.value)


def test_error_str_is_one_line():
    with pytest.raises(InputError) as info:
        parse_grid("...\n..\n", "g.txt")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    "rows, message",
    [
        ("#...", "list of row strings"),
        ([], "list of row strings"),
        (["#..", 3], "list of row strings"),
        (["...", ""], "row 2 is empty"),
        (["...", "; note"], "row 2 is empty"),
        (["...", "..\n."], "row 2 is empty or not a single row"),
        (["...", "...."], "row 2 has 4 cells"),
    ],
)
def test_grid_from_rows_refuses_what_is_not_a_grid(rows, message):
    from xwcp.model import grid_from_rows

    with pytest.raises(InputError, match=message):
        grid_from_rows(rows, "grid")


def test_grid_from_rows_matches_parse_grid():
    from xwcp.model import grid_from_rows

    assert grid_from_rows(["#.a", "b?_", "..#"]) == parse_grid("#.a\nb?_\n..#")


# ----- issue 34: numbers in directive lines, letters never changed --------------------------


@pytest.mark.parametrize(
    "line",
    ["; numbers: 1,1=" + "9" * 5000, "; numbers: " + "1" * 19 + ",1=4", "; colors: 1," + "2" * 5000 + "=#FFCC00"],
)
def test_a_huge_number_in_a_directive_line_is_one_line_naming_it(line):
    with pytest.raises(InputError) as caught:
        parse_grid("CAT\nA.A\nTAT\n" + line + "\n", "g.txt")
    message = str(caught.value)
    assert message.startswith("g.txt:4: ") and len(message) < 200


def test_a_published_number_of_18_digits_still_reads():
    grid = parse_grid("CAT\nA.A\nTAT\n; numbers: 1,1=" + "9" * 18 + "\n")
    assert grid.numbers is not None and 10**18 - 1 in dict(grid.numbers).values()


@pytest.mark.parametrize(
    "rebus, kept",
    [("[STRAßE]", "STRAßE"), ("[ﬁ]", "ﬁ"), ("[kapı]", "KAPı"), ("[N\u0303O]", "ÑO"), ("[ñ]", "Ñ"), ("[star]", "STAR")],
)
def test_a_rebus_is_upper_cased_without_changing_a_letter_into_others(rebus, kept):
    grid = parse_grid(f"{rebus}AB\nA.A\nTAT\n")
    assert grid.cells[0] == kept


# ----- a language's letters (issue 36) ----------------------------------------------------------


def test_a_packs_letters_are_typed_as_themselves():
    from xwcp.model.alphabet import load_alphabet

    spanish, russian, turkish = load_alphabet("es"), load_alphabet("ru"), load_alphabet("tr")
    assert parse_grid("añO\n#.ñ\n", alphabet=spanish).cells == ("A", "Ñ", "O", "#", ".", "Ñ")
    assert parse_grid("жук\n...\n", alphabet=russian).cells[:3] == ("Ж", "У", "К")
    assert parse_grid("iı\n..\n", alphabet=turkish).cells[:2] == ("İ", "I")  # the pack's own upper case


def test_a_letter_of_several_characters_is_braced_and_a_rebus_stays_a_rebus():
    from xwcp.model.alphabet import load_alphabet

    dutch = load_alphabet("nl")
    ij = dutch.from_cell("IJ")
    grid = parse_grid("{IJ}S[IJ]\n({IJ}){{IJ}}[{IJ}S]\n", alphabet=dutch)
    assert grid.cells == (ij, "S", "IJ", ij, ij, ij + "S")  # one letter IJ; I and J; IJ and S
    assert grid.mark(3).circle and grid.mark(4).shaded and not grid.mark(0)
    text = grid.render(dutch)
    assert text == "{IJ}S[IJ]\n({IJ}){{IJ}}[{IJ}S]\n"
    assert parse_grid(text, alphabet=dutch) == grid


def test_hindi_aksharas_are_read_one_a_cell_as_written():
    from xwcp.model.alphabet import load_alphabet

    hindi = load_alphabet("hi")
    grid = parse_grid("डुक्षि.\n(न)#कि\n", alphabet=hindi)  # a sign, a conjunct with its sign, a circled letter
    assert [hindi.written(cell) for cell in grid.cells] == ["डु", "क्षि", ".", "न", "#", "कि"]
    assert all(len(cell) == 1 for cell in grid.cells) and grid.mark(3).circle
    assert parse_grid(grid.render(hindi), alphabet=hindi) == grid


def test_english_reads_and_writes_as_it_always_has():
    grid = parse_grid("A{B}\n[ÑA].\n")  # {B}: a shaded B; a non-ASCII letter only in a rebus
    assert grid.cells == ("A", "B", "ÑA", ".") and grid.mark(1).shaded
    assert grid.render() == "A{B}\n[ÑA].\n"
    with pytest.raises(InputError, match="unexpected character 'Ñ'"):
        parse_grid("Ñ.\n..\n")


def test_a_letter_outside_the_pack_names_its_cell():
    from xwcp.model.alphabet import load_alphabet

    with pytest.raises(InputError) as caught:
        parse_grid("AÑ\nЖ.\n", "g.txt", alphabet=load_alphabet("es"))
    message = str(caught.value)
    assert message.startswith("g.txt:2: row 2, column 1: 'Ж' is not a letter of Spanish") and "\n" not in message


def test_the_language_line_names_the_grids_pack():
    from xwcp.model.text import text_alphabet, text_language

    text = "; Language: ru\n; a comment\nДОМ\n...\n"
    assert text_language(text) == "ru" and text_alphabet(text).code == "ru"
    assert parse_grid(text).cells[:3] == ("Д", "О", "М")
    assert text_language("...\n; language: ru\n") is None  # only before the rows
    with pytest.raises(InputError, match="unknown language 'xx'"):
        parse_grid("; language: xx\n..\n..\n", "g.txt")
