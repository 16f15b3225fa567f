"""`xwcp.design` (issue 28 over issue 26): theme entries in, typed designed grids out, options checked at the door.

Small fast cases only (11x11 and 5x5 grids, no quality search): each design takes well under a second.
Every design is held to `xwcp.designer.check_design`, and the command line prints the same answer.
"""

from __future__ import annotations

import importlib
import inspect
import json

import pytest

import xwcp
from tests.helpers import run
from xwcp.designer import check_design

THEMES = ["astronomer", "telescopes"]
"""Two 10-letter theme entries for an 11x11 (lower case: the job normalises them)."""
FAST = {"size": "11x11", "quality_time_s": 0, "time_limit_s": 60}
"""No quality search, and a limit the search never nears (the designs below take 0.01-0.5 s)."""


@pytest.fixture(scope="module")
def words():
    return xwcp.load_word_list()


@pytest.fixture(scope="module")
def two_designs():
    events = []
    answer = xwcp.design(THEMES, count=2, progress=events.append, **FAST)
    return answer, events


def across_and_down(rows: list[str]) -> list[str]:
    """Every entry of a filled grid read off its rows, independently of xwcp."""
    out = [w for row in rows for w in row.split("#") if len(w) >= 2]
    for c in range(len(rows[0])):
        out += [w for w in "".join(r[c] for r in rows).split("#") if len(w) >= 2]
    return out


def assert_design_valid(answer: xwcp.DesignAnswer, words) -> None:
    """Every design keeps the rules (check_design), and its typed fields agree with its rows."""
    for found in answer.designs:
        assert check_design(found.grid, answer.rules, answer.themes, words) == []
        assert found.rows == list(found.grid.rows)
        assert found.n_blocks == "".join(found.rows).count("#") == found.grid.n_blocks
        assert found.n_words == len(found.entries) == len(found.entries_by_name)
        assert sorted(across_and_down(found.rows)) == sorted(found.entries_by_name.values())
        for theme, slot in found.themes.items():
            assert found[slot] == theme
        assert set(found.themes) == set(answer.themes)


# ----- the job from a path-free call ---------------------------------------------------------------


def test_design_answers_with_checked_typed_designs(two_designs, words):
    answer, events = two_designs
    assert isinstance(answer, xwcp.DesignAnswer)
    assert answer.status is xwcp.FillStatus.FILLED and answer.reason == ""
    assert answer.themes == ("ASTRONOMER", "TELESCOPES")  # lower case in, A-Z out
    assert len(answer.designs) == 2
    for found in answer.designs:
        assert isinstance(found, xwcp.DesignedGrid) and isinstance(found, xwcp.FilledGrid)
        assert isinstance(found.grid, xwcp.Grid) and (found.grid.width, found.grid.height) == (11, 11)
        assert len(found.rows) == 11 and all(isinstance(r, str) and len(r) == 11 for r in found.rows)
        assert isinstance(found.quality, xwcp.Quality)  # the type FillAnswer.quality has
        assert found.quality.min_score >= 50 and found.quality.mean_score >= found.quality.min_score
        assert found["1a"] == found["1A"] == found.entries_by_name["1A"]
        assert found.found_s <= found.done_s
    assert_design_valid(answer, words)
    first, second = answer.designs
    assert (first.quality.min_score, first.quality.mean_score) >= (second.quality.min_score, second.quality.mean_score)
    n_diff = sum((a == "#") != (b == "#") for a, b in zip("".join(first.rows), "".join(second.rows)))
    assert n_diff >= 8  # min_diff's default
    # the answer's own shortcuts are the best design's
    assert answer.rows == first.rows and answer["1A"] == first["1A"] and answer.quality == first.quality
    assert answer.entries_by_name == first.entries_by_name
    kinds = [e.kind for e in events]
    assert kinds.count("design") == 2 and "pattern" in kinds
    assert all(isinstance(e, xwcp.DesignEvent) and isinstance(e.text, str) and e.seconds >= 0 for e in events)


def test_design_as_dict_and_text(two_designs):
    answer, _ = two_designs
    data = answer.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["status"] == "filled" and data["count"] == 2 and data["reason"] == ""
    assert [d["grid"] for d in data["designs"]] == [d.rows for d in answer.designs]
    assert [d.as_dict() for d in answer.designs] == data["designs"]
    assert data["designs"][0]["entries"] == answer.designs[0].entries_by_name
    assert data["rules"]["size"] == "11x11" and data["rules"]["symmetry"] == "rotational"
    data["designs"].clear()
    assert answer.as_dict()["designs"], "as_dict() hands out a copy"
    text = answer.text()
    assert text.startswith("design 1 of 2: ") and answer.designs[0].rows[0] in text
    assert "ASTRONOMER at row" in text and "2 designs in" in text.splitlines()[-1]
    assert answer.grids_text().splitlines()[0] == "; design 1 of 2"


def test_theme_forms_and_at(words):
    one = xwcp.design("stargazer", at={"lens": (1, 1, "d")}, **FAST)  # a str is one theme; at from 1
    assert one.status is xwcp.FillStatus.FILLED and one.themes == ("STARGAZER", "LENS")
    found = one.designs[0]
    assert found.themes["LENS"] == "1D" and found["1D"] == "LENS" and [r[0] for r in found.rows[:4]] == list("LENS")
    assert_design_valid(one, words)
    same = xwcp.design(["STARGAZER"], at="LENS=1,1,D", **FAST)  # the command line's text works too
    assert same.designs[0].rows == found.rows
    also = xwcp.design(
        "stargazer",
        at={"LENS": "1,1,down"},
        size=(11, 11),
        symmetry="Rotational",
        style="AMERICAN",
        quality_time_s=0,
        time_limit_s=60,
    )
    assert also.designs[0].rows == found.rows


def test_design_with_its_own_words_and_floor_proves_none(words):
    answer = xwcp.design("heart", size=5, words=["CAT", "DOG"], quality_time_s=0, time_limit_s=20)
    assert answer.status is xwcp.FillStatus.UNFILLABLE and answer.designs == () and answer.reason
    assert answer.rows == [] and answer.quality is None and answer.entries_by_name == {}
    with pytest.raises(LookupError, match="no design: the status is unfillable"):
        answer["1A"]
    with pytest.raises(ValueError, match="0 design"):
        answer.save("x.puz")
    banned = xwcp.design("heart", size=5, bans={"shear"}, min_score=60, quality_time_s=0, time_limit_s=20)
    for found in banned.designs:
        assert "SHEAR" not in found.entries_by_name.values()
        assert check_design(found.grid, banned.rules, banned.themes, words, min_score=60, bans={"SHEAR"}) == []


def test_design_save_writes_a_puzzle_file(two_designs, tmp_path):
    answer, _ = two_designs
    written = answer.save(tmp_path / "best.puz")
    assert list(xwcp.read_puzzle(written).grid.rows) == answer.designs[0].rows
    second = answer.designs[1].save(str(tmp_path / "second.ipuz"))
    assert list(xwcp.read_puzzle(second).grid.rows) == answer.designs[1].rows
    with pytest.raises(ValueError, match="index 2 is out of range"):
        answer.save(tmp_path / "x.puz", 2)
    with pytest.raises(TypeError, match="path must be a file name"):
        answer.designs[0].save(5)
    with pytest.raises(xwcp.InputError, match="docx"):
        answer.save(tmp_path / "x.docx")


def test_defaults_are_the_commands():
    from xwcp.designer.request import DEFAULT_MIN_DIFF_CELLS, DEFAULT_QUALITY_S

    parameters = inspect.signature(xwcp.design).parameters
    assert parameters["quality_time_s"].default == DEFAULT_QUALITY_S
    assert parameters["min_diff"].default == DEFAULT_MIN_DIFF_CELLS
    assert parameters["size"].default == "15x15" and parameters["symmetry"].default == "rotational"
    assert "design" in xwcp.__all__ and "DesignAnswer" in xwcp.__all__ and "DesignedGrid" in xwcp.__all__
    importlib.import_module("xwcp.designer")  # the engine's package, once imported, no longer shadows the job
    assert callable(xwcp.design) and xwcp.design.__module__ == "xwcp.library.jobs"


# ----- the command line prints the same answer -----------------------------------------------------

VOLATILE = ("found_s", "seconds")


def _steady(data: dict) -> dict:
    """The JSON without the times (a second run takes other seconds)."""
    data = dict(data)
    data.pop("stats")
    data["designs"] = [{k: v for k, v in d.items() if k not in VOLATILE} for d in data["designs"]]
    return data


def test_cli_json_is_the_answers_dict(capsys, two_designs):
    answer, _ = two_designs
    code, out, err = run(
        [
            "design",
            "--size",
            "11x11",
            "--theme",
            "ASTRONOMER",
            "--theme",
            "TELESCOPES",
            "--count",
            "2",
            "--quality-time",
            "0",
            "--format",
            "json",
        ],
        capsys,
    )
    assert code == 0, err
    printed = json.loads(out)
    assert set(printed) == set(answer.as_dict())
    assert _steady(printed) == _steady(answer.as_dict())
    code, out, err = run(
        [
            "design",
            "--size",
            "11x11",
            "--theme",
            "ASTRONOMER",
            "--theme",
            "TELESCOPES",
            "--count",
            "2",
            "--quality-time",
            "0",
            "--format",
            "grid",
        ],
        capsys,
    )
    assert code == 0 and out.rstrip("\n") == answer.grids_text()


# ----- inputs checked at the door, in the library's names ------------------------------------------


@pytest.mark.parametrize(
    "options, error, needle",
    [
        (
            {"themes": ["ABCDEFGHIJKLMNOP"]},
            xwcp.InputError,
            "themes='ABCDEFGHIJKLMNOP' has 16 letters; the 15x15 grid's longest entry has 15",
        ),
        ({"themes": ["hello", "HELLO"]}, xwcp.InputError, "themes='HELLO' is given twice"),
        ({"themes": ["a1b"]}, xwcp.InputError, "themes='a1b': a theme entry is a word of letters A-Z"),
        ({"themes": ["at"]}, xwcp.InputError, "themes='AT' has 2 letters; entries need 3 or more"),
        ({"themes": []}, xwcp.InputError, "no theme entry: give at least one word in themes=['WORD', ...]"),
        ({"themes": 5}, TypeError, "themes must be a word (str) or a list of words, not int"),
        ({"themes": [5]}, TypeError, "themes must be a word (str) or a list of words"),
        ({"size": "15y15"}, xwcp.InputError, "size='15y15': expected WIDTHxHEIGHT"),
        ({"size": "70x70"}, xwcp.InputError, "size='70x70': sides must be from 3 to 60"),
        ({"size": (2, 15)}, xwcp.InputError, "size='2x15': sides must be from 3 to 60"),
        ({"size": 1.5}, TypeError, "size must be 'WIDTHxHEIGHT'"),
        ({"symmetry": "diagonal"}, xwcp.InputError, "symmetry='diagonal': expected one of rotational, mirror, none"),
        ({"symmetry": 3}, TypeError, "symmetry must be a str"),
        ({"style": "french"}, xwcp.InputError, "style='french': expected one of american, british"),
        ({"max_words": 0}, xwcp.InputError, "max_words must be at least 1, got 0"),
        ({"max_words": "78"}, TypeError, "max_words must be a whole number"),
        ({"min_words": 80}, xwcp.InputError, "min_words=80 is more than max_words=78"),
        ({"max_blocks": -1}, xwcp.InputError, "max_blocks must be at least 0"),
        ({"max_length": 2}, xwcp.InputError, "max_length must be at least 3"),
        ({"count": 0}, xwcp.InputError, "count must be at least 1"),
        ({"min_diff": 0}, xwcp.InputError, "min_diff must be at least 1"),
        ({"time_limit_s": 0}, xwcp.InputError, "time_limit_s must be more than 0 seconds"),
        ({"quality_time_s": -1}, xwcp.InputError, "quality_time_s must be a number of at least 0"),
        ({"seed": -1}, xwcp.InputError, "seed must be from 0 to"),
        ({"bans": ["hello"]}, xwcp.InputError, "themes='HELLO' is also banned"),
        ({"bans": 5}, TypeError, "bans="),
        ({"words": 5}, TypeError, "words must be None"),
        ({"progress": 5}, TypeError, "progress must be a callable"),
        (
            {"at": {"HELLO": (1, 14, "A")}},
            xwcp.InputError,
            "at={'HELLO': '1,14,A'}: HELLO (5 letters) at row 1, column 14, across does not fit in the 15x15 grid",
        ),
        ({"at": {"HELLO": (1, 1)}}, TypeError, "at['HELLO'] must be (row, col, 'A' or 'D')"),
        ({"at": "HELLO"}, xwcp.InputError, "at='HELLO': expected {'WORD': (ROW, COL, 'A')}"),
        (
            {"at": {"HELLO": (1, 1, "A"), "WORLD": (1, 1, "D")}},
            xwcp.InputError,
            "at['WORLD'] and at['HELLO'] put different letters (W, H) at row 1, column 1",
        ),
        ({"at": 5}, TypeError, "at must be a dict such as {'WORD': (1, 1, 'A')}"),
    ],
)
def test_bad_inputs_name_the_library_argument(options, error, needle):
    options = {"themes": ["HELLO"], "time_limit_s": 5, **options}
    with pytest.raises(error) as caught:
        xwcp.design(**options)
    message = str(caught.value)
    assert needle in message
    assert "--" not in message, message  # never a command-line flag


def test_the_command_line_still_hears_flags(capsys):
    from tests.helpers import one_line

    for argv, needle in [
        (["--theme", "ABCDEFGHIJKLMNOP"], "--theme ABCDEFGHIJKLMNOP has 16 letters"),
        (["--theme", "HELLO", "--max-blocks", "-1"], "--max-blocks must be at least 0"),
        (["--theme", "HELLO", "--size", "70x70"], "--size 70x70: sides must be from 3 to 60"),
        (["--at", "HELLO=1,14,A"], "--at HELLO=1,14,A: HELLO (5 letters)"),
        (["--at", "HELLO"], "--at HELLO: expected WORD=ROW,COL,A or WORD=ROW,COL,D"),
    ]:
        code, out, err = run(["design", *argv], capsys)
        assert code == 2 and needle in one_line(err), err


ODD_VALUES = [None, -1, 1.5, float("nan"), "", "x", [], {}, object(), b"x", True, (1, 2), {"1A": None}]
"""Values of the wrong type or range that a caller may pass to any argument (as tests/library/test_jobs.py)."""
DESIGN_OPTIONS = [
    "themes",
    "size",
    "at",
    "symmetry",
    "style",
    "max_words",
    "min_words",
    "max_blocks",
    "max_length",
    "count",
    "min_diff",
    "time_limit_s",
    "quality_time_s",
    "words",
    "min_score",
    "bans",
    "seed",
    "progress",
]


@pytest.mark.parametrize("option", DESIGN_OPTIONS)
def test_odd_values_never_crash_inside(option, words):
    """Any value of any option either works or raises TypeError / InputError, never an error from inside."""
    for value in ODD_VALUES:
        options = {"themes": "heart", "size": 5, "quality_time_s": 0, "time_limit_s": 5, option: value}
        try:
            answer = xwcp.design(**options)
        except TypeError:
            continue
        except ValueError as exc:
            assert isinstance(exc, xwcp.InputError), (option, value, exc)
            assert "--" not in str(exc), (option, value, exc)
            continue
        assert isinstance(answer.status, xwcp.FillStatus)
        if option not in ("words", "bans", "min_score"):
            assert_design_valid(answer, words)


def test_time_limit_without_a_design_is_limit():
    answer = xwcp.design("speakofthedevil", time_limit_s=0.001, quality_time_s=0)
    assert answer.status is xwcp.FillStatus.LIMIT and answer.designs == ()
    assert answer.reason == "time limit (0.001 s) reached" and answer.as_dict()["status"] == "limit"
    assert answer.text().splitlines()[-1] == "no design: time limit (0.001 s) reached"
