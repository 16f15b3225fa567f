"""Tests for xwcp.bench.xcsp: decoding XCSP crossword instances and their published solution counts.

The instances are in tests/data (see tests/data/SOURCE.md). Expected shapes were taken from
the decoded copies made when the files were collected; the words per length are counted here
from the raw XML's <supports> tuples by a regex, without xwcp's decoder; the solution counts
are the ones concrete's test suite publishes, re-counted here by a small brute-force counter
that knows nothing about xwcp's solvers.
"""

from __future__ import annotations

import lzma
import re
from collections import Counter
from pathlib import Path

import pytest

from xwcp.bench.xcsp import XcspCrossword, read_xcsp

DATA = Path(__file__).parents[1] / "data"

OPEN_4x4 = ("....",) * 4

# file -> (rows, distinct words)
EXPECTED = {
    "Crossword-lex-vg-4-6.xml.xz": (("......",) * 4, True),
    "Crossword-lex-vg-4-7.xml.xz": ((".......",) * 4, True),
    "Crossword-lex-vg-4-8.xml.xz": (("........",) * 4, True),
    "crossword-m1-debug-05-01.xml.xz": ((".....",) * 5, True),
    "Crossword-lex-h0502.xml": (("....#", ".....", ".....", ".....", "#...."), True),
    "Crossword-ogd2008-vg-4-4.xml": (OPEN_4x4, True),
    "Crossword-uk-h0505.xml": (("...##", "...##", ".....", "##...", "##..."), True),
    "Crossword-uk-p01.xml": ((".#", ".."), True),
}


def raw_words_per_length(path: Path) -> dict[int, int]:
    """Distinct <supports> tuples per arity, read from the file's text by regex (not by xwcp)."""
    data = path.read_bytes()
    text = (lzma.decompress(data) if path.suffix in (".xz", ".lzma") else data).decode()
    tuples_by_length: dict[int, set[tuple[int, ...]]] = {}
    for block in re.findall(r"<supports>(.*?)</supports>", text, flags=re.S):
        for body in re.findall(r"\(([^()]*)\)", block):
            values = tuple(int(v) for v in body.split(","))
            assert all(0 <= v <= 25 for v in values), body
            tuples_by_length.setdefault(len(values), set()).add(values)
    return {length: len(tuples) for length, tuples in tuples_by_length.items()}


def test_raw_count_on_a_hand_written_file(tmp_path):
    path = tmp_path / "t.xml"
    path.write_text("<supports> (0,1)(2,3) (0,1)</supports><list>(9)</list><supports>\n(0,0,25)</supports>")
    assert raw_words_per_length(path) == {2: 2, 3: 1}


# published by concrete-cp/concrete's SolvingTest (all words different)
KNOWN_COUNTS = {
    "crossword-m1-debug-05-01.xml.xz": 48,
    "Crossword-lex-vg-4-8.xml.xz": 1,
    "Crossword-lex-vg-4-7.xml.xz": 125,
    "Crossword-lex-vg-4-6.xml.xz": 4749,
}


@pytest.mark.parametrize("file_name", sorted(EXPECTED))
def test_reads_grid_words_and_distinct_flag(file_name):
    rows, distinct = EXPECTED[file_name]
    instance = read_xcsp(DATA / file_name)
    assert isinstance(instance, XcspCrossword)
    assert instance.rows == rows
    assert dict(Counter(len(word) for word in instance.words)) == raw_words_per_length(DATA / file_name)
    assert instance.distinct_words is distinct
    assert instance.name == re.sub(r"\.xml(\.xz|\.lzma)?$", "", file_name)


@pytest.mark.parametrize("file_name", sorted(EXPECTED))
def test_words_are_unique_uppercase_and_sorted_by_length_then_text(file_name):
    words = read_xcsp(DATA / file_name).words
    assert all(re.fullmatch("[A-Z]+", word) for word in words)
    assert len(set(words)) == len(words)
    assert list(words) == sorted(words, key=lambda word: (len(word), word))


def test_known_words_are_decoded_with_a_as_zero():
    assert {"ABED", "ZOMBA"} <= set(read_xcsp(DATA / "Crossword-lex-h0502.xml").words)
    assert read_xcsp(DATA / "Crossword-uk-p01.xml").words[:3] == ("AA", "AB", "AD")


def test_lzma_alone_and_plain_copies_read_the_same(tmp_path):
    original = read_xcsp(DATA / "Crossword-uk-p01.xml")
    text = (DATA / "Crossword-uk-p01.xml").read_bytes()
    (tmp_path / "p01.xml.lzma").write_bytes(lzma.compress(text, format=lzma.FORMAT_ALONE))
    (tmp_path / "p01.xml.xz").write_bytes(lzma.compress(text))
    for name in ("p01.xml.lzma", "p01.xml.xz"):
        copy = read_xcsp(tmp_path / name)
        assert (copy.name, copy.rows, copy.words, copy.distinct_words) == (
            "p01",
            original.rows,
            original.words,
            original.distinct_words,
        )


def _xcsp3(size: str, constraints: str) -> str:
    return (
        f'<instance format="XCSP3" type="CSP"><variables><array id="x" size="{size}"> 0..25 </array>'
        f"</variables><constraints>{constraints}</constraints></instance>"
    )


def test_extension_outside_a_group_and_explicit_cells(tmp_path):
    path = tmp_path / "tiny.xml"
    path.write_text(
        _xcsp3(
            "[2][2]",
            (
                "<extension><list> x[0][0] x[0][1] </list><supports>(0,1)(2,3)</supports></extension>"
                "<extension><list> x[][0] </list><supports>(0,1)(2,3)</supports></extension>"
            ),
        )
    )
    instance = read_xcsp(path)
    assert instance.rows == ("..", ".#")
    assert instance.words == ("AB", "CD")
    assert instance.distinct_words is False


def test_xcsp2_letter_model_is_read_by_rebuilding_the_grid(tmp_path):
    # 2x2 open grid: V0 V1 / V2 V3; one table for all four 2-letter slots
    variables = "".join(f'<variable name="V{v}" domain="D0"/>' for v in range(4))
    scopes = ["V0 V1", "V2 V3", "V0 V2", "V1 V3"]
    constraints = "".join(
        f'<constraint name="C{k}" arity="2" scope="{s}" reference="R0"/>' for k, s in enumerate(scopes)
    )
    path = tmp_path / "m1.xml"
    path.write_text(
        '<instance><presentation format="XCSP 2.1"/>'
        '<domains nbDomains="1"><domain name="D0" nbValues="26">0..25</domain></domains>'
        f'<variables nbVariables="4">{variables}</variables>'
        '<relations nbRelations="1"><relation name="R0" arity="2" nbTuples="3" semantics="supports">'
        "0 1|1 0|0 0</relation></relations>"
        '<predicates nbPredicates="1"><predicate name="P0"><parameters>int X0 int X1 int X2 int X3</parameters>'
        "<expression><functional>or(ne(X0,X1),ne(X2,X3))</functional></expression></predicate></predicates>"
        f'<constraints nbConstraints="5">{constraints}'
        '<constraint name="C9" arity="4" scope="V0 V1 V2 V3" reference="P0"><parameters>V0 V2 V1 V3</parameters>'
        "</constraint></constraints></instance>"
    )
    instance = read_xcsp(path)
    assert instance.rows == ("..", "..")
    assert instance.words == ("AA", "AB", "BA")
    assert instance.distinct_words is True


def test_xcsp2_word_model_is_refused(tmp_path):
    path = tmp_path / "m2.xml"
    path.write_text(
        '<instance><presentation format="XCSP 2.0"/>'
        '<domains nbDomains="1"><domain name="D0" nbValues="134">0..133</domain></domains>'
        '<variables nbVariables="2"><variable name="V0" domain="D0"/><variable name="V1" domain="D0"/></variables>'
        '<relations nbRelations="1"><relation name="R0" arity="2" nbTuples="1" semantics="supports">0 99</relation>'
        '</relations><constraints nbConstraints="1"><constraint name="C0" arity="2" scope="V0 V1" reference="R0"/>'
        "</constraints></instance>"
    )
    with pytest.raises(ValueError, match=r"m2\.xml: XCSP 2 format not supported"):
        read_xcsp(path)


@pytest.mark.parametrize(
    "content,problem",
    [
        (b"", "not valid XML"),
        (b"this is not xml", "not valid XML"),
        (b"<grid/>", "root element is <grid>"),
        (_xcsp3("[2][2]", "<intension> eq(x[0][0],1) </intension>").encode(), "<intension> is not supported"),
        (
            _xcsp3("[2][2]", "<extension><list> x[0][] </list><supports>(0,1)(2,30)</supports></extension>").encode(),
            "letter codes",
        ),
        (
            _xcsp3("[2][2]", "<extension><list> x[0][] </list><conflicts>(0,1)</conflicts></extension>").encode(),
            "conflicts",
        ),
        (
            _xcsp3(
                "[2][3]", "<extension><list> x[0][0..1] x[1][0..1] </list><supports>(0,1,2,3)</supports></extension>"
            ).encode(),
            "not a maximal run",
        ),
        (
            _xcsp3(
                "[2][2]", "<extension><list> x[0][5] x[0][1] </list><supports>(0,1)</supports></extension>"
            ).encode(),
            "outside 0..1",
        ),
    ],
)
def test_bad_content_raises_one_line_value_error_naming_the_file(tmp_path, content, problem):
    path = tmp_path / "bad.xml"
    path.write_bytes(content)
    with pytest.raises(ValueError) as excinfo:
        read_xcsp(path)
    message = str(excinfo.value)
    assert message.startswith(str(path) + ": ")
    assert problem in message
    assert "\n" not in message


def test_missing_and_corrupt_compressed_files_raise_value_error(tmp_path):
    with pytest.raises(ValueError, match="absent.xml: no such XCSP file"):
        read_xcsp(tmp_path / "absent.xml")
    truncated = tmp_path / "truncated.xml.xz"
    truncated.write_bytes((DATA / "crossword-m1-debug-05-01.xml.xz").read_bytes()[:400])
    with pytest.raises(ValueError, match="truncated.xml.xz: corrupt compressed file"):
        read_xcsp(truncated)
    fake = tmp_path / "fake.xml.lzma"
    fake.write_bytes(b"plain text, not lzma")
    with pytest.raises(ValueError, match="corrupt compressed file"):
        read_xcsp(fake)


# --- an independent brute-force solution counter -------------------------------------------


def count_fills(rows: tuple[str, ...], words: tuple[str, ...], distinct: bool) -> int:
    """Count the fills of a fully checked grid by plain backtracking.

    Across slots are filled one whole word at a time, in reading order; each down slot is
    followed down a trie of its length, so a cell's candidates are the letters that both
    extend the down prefix above it and fit the across word. Bitmasks over each length's
    word list pick the across words that fit all down prefixes at once.
    """
    width = len(rows[0])
    across = [
        tuple((r, c) for c in range(m.start(), m.end()))
        for r, line in enumerate(rows)
        for m in re.finditer(r"\.{2,}", line)
    ]
    down = [
        tuple((r, c) for r in range(m.start(), m.end()))
        for c in range(width)
        for m in re.finditer(r"\.{2,}", "".join(row[c] for row in rows))
    ]
    down_slot_by_cell = {cell: (d, pos) for d, cells in enumerate(down) for pos, cell in enumerate(cells)}
    assert {cell for cells in across for cell in cells} == set(down_slot_by_cell), "grid must be fully checked"

    words_by_length: dict[int, list[str]] = {}
    for word in words:
        words_by_length.setdefault(len(word), []).append(word)
    mask_by_length = {}  # [pos][letter] -> bitmask of word ids with that letter there
    for length, bucket in words_by_length.items():
        masks = [[0] * 26 for _ in range(length)]
        for word_id, word in enumerate(bucket):
            for pos, letter in enumerate(word):
                masks[pos][ord(letter) - 65] |= 1 << word_id
        mask_by_length[length] = masks
    trie_by_length: dict[int, dict] = {}
    for word in words:
        node = trie_by_length.setdefault(len(word), {})
        for letter in word:
            node = node.setdefault(letter, {})
        node[None] = word  # a leaf holds its word

    node_by_down = [trie_by_length.get(len(cells), {}) for cells in down]
    # for each across slot position: (down slot, does the down slot end here, cache key)
    steps_by_across = [
        [
            (
                down_slot_by_cell[cell][0],
                down_slot_by_cell[cell][1] == len(down[down_slot_by_cell[cell][0]]) - 1,
                (len(cells), pos),
            )
            for pos, cell in enumerate(cells)
        ]
        for cells in across
    ]
    used: set[str] = set()

    def fitting_words(across_id: int) -> int:
        length = len(across[across_id])
        if length not in words_by_length:
            return 0
        fits = (1 << len(words_by_length[length])) - 1
        for down_id, _, key in steps_by_across[across_id]:
            node = node_by_down[down_id]
            mask = node.get(key)  # cached in the trie node: words whose letter at pos extends it
            if mask is None:
                by_letter = mask_by_length[length][key[1]]
                mask = 0
                for letter in node:
                    if isinstance(letter, str):
                        mask |= by_letter[ord(letter) - 65]
                node[key] = mask
            fits &= mask
            if not fits:
                return 0
        return fits

    def count_from(across_id: int) -> int:
        if across_id == len(across):
            return 1
        steps = steps_by_across[across_id]
        bucket = words_by_length.get(len(across[across_id]), [])
        fits = fitting_words(across_id)
        n_fills = 0
        while fits:
            low_bit = fits & -fits
            fits ^= low_bit
            word = bucket[low_bit.bit_length() - 1]
            if distinct and word in used:
                continue
            saved = [node_by_down[down_id] for down_id, _, _ in steps]
            placed = [word]
            is_ok = True
            for letter, (down_id, ends_here, _) in zip(word, steps):
                node = node_by_down[down_id] = node_by_down[down_id][letter]
                if ends_here:
                    if distinct and (node[None] in used or node[None] in placed):
                        is_ok = False
                    placed.append(node[None])
            if is_ok:
                used.update(placed)
                n_fills += count_from(across_id + 1)
                used.difference_update(placed)
            for (down_id, _, _), node in zip(steps, saved):
                node_by_down[down_id] = node
        return n_fills

    return count_from(0)


def test_brute_force_counter_on_a_hand_checked_grid():
    # 2x2 open grid over {AA, AB, BA}: 7 of the 9 row pairs work (not AB/AB, BA/BA, which need BB)
    assert count_fills(("..", ".."), ("AA", "AB", "BA"), distinct=False) == 7
    # four different words cannot come from three
    assert count_fills(("..", ".."), ("AA", "AB", "BA"), distinct=True) == 0
    assert count_fills(("..", ".."), ("AB", "BC", "AD", "DC", "AC"), distinct=True) == 2  # AB/DC, AD/BC


@pytest.mark.parametrize(
    "file_name",
    [
        "crossword-m1-debug-05-01.xml.xz",
        "Crossword-lex-vg-4-8.xml.xz",
        "Crossword-lex-vg-4-7.xml.xz",
        pytest.param("Crossword-lex-vg-4-6.xml.xz", marks=pytest.mark.slow),  # ~7 s in pure Python
    ],
)
def test_brute_force_reproduces_published_solution_counts(file_name):
    instance = read_xcsp(DATA / file_name)
    assert count_fills(instance.rows, instance.words, instance.distinct_words) == KNOWN_COUNTS[file_name]
