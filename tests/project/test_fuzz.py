"""Fuzzing with hypothesis: grid, word-list and puzzle-file readers, cache loader and the CLI answer every input.

Property: an exit code in {0, 1, 2, 3} (or, for the readers, a result or an InputError), never a
traceback or an internal error (exit 70), never an invalid fill. The default run takes well
under a minute; `-m slow` runs a ten times longer profile.

Counting mode (for reports): with XWCP_FUZZ_COUNT=1 a crash is recorded instead of failing the
test, and with XWCP_FUZZ_REPORT=FILE each test appends one JSON line to FILE: the distinct
inputs tried and the distinct crashes (exception type and innermost frame). This is how the
suite was run against the code before issue 13 to count the tracebacks it had.

The puzzle-file targets (issue 34) write structured hostile .ipuz, .jpz (zipped and not), .xd, .puz
and grid text: deep nesting, huge numbers, Infinity, wrong types, zip bombs, spans far outside the
grid, unclosed comments, damaged headers. Each file must be read or refused with one InputError
line within PER_FILE_CPU_S of CPU, a file that reads must convert to our text grid and read back,
and the whole run must stay under MAX_RSS_BYTES.
"""

from __future__ import annotations

import functools
import json
import os
import resource
import shutil
import sys
import time
import traceback
from pathlib import Path

import pytest

pytest.importorskip("hypothesis", reason="the fuzz suite needs hypothesis: pip install -e '.[test]'")

from hypothesis import (  # noqa: E402
    HealthCheck,
    given,
    settings,
    strategies as st,  # noqa: E402
)

from tests.project.hostile import (  # noqa: E402
    LANGUAGE_PACK,
    hostile_files,
    hostile_json_files,
    ipuz_dict,
    jpz_text,
    locked_puz,
    rebus_files,
)
from xwcp.base.errors import InputError  # noqa: E402
from xwcp.cli.commands import main  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.formats import read_puzzle, write_puzzle  # noqa: E402
from xwcp.model import parse_grid, read_grid  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402

COUNTING = os.environ.get("XWCP_FUZZ_COUNT") == "1"
FAST = settings(
    max_examples=120, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
SLOW = settings(FAST, max_examples=1200)
ALLOWED_EXIT_CODES = {0, 1, 2, 3}

# A 3x3 open grid from this list has exactly the fills CAB/ORE/WET and its transpose.
TINY_LIST = "CAB;60\nORE;60\nWET;60\nCOW;60\nARE;60\nBET;60\nCAT;60\nTEN;60\nAB\nCD\nAC\nBD\n"


class Record:
    """Distinct inputs tried and distinct crashes of one fuzz target."""

    def __init__(self, name: str):
        self.name = name
        self.inputs: set[str] = set()
        self.crashes: dict[str, str] = {}
        self.n_crashing = 0

    def crash(self, exc: BaseException | None, text: str, example) -> None:
        if exc is not None:
            frames = traceback.extract_tb(exc.__traceback__)
            where = f"{os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else "?"
            signature = f"{exc.__class__.__name__} at {where}"
        else:
            signature = text.strip().splitlines()[-1][:200] if text.strip() else "no output"
        self.crashes.setdefault(signature, repr(example)[:300])
        self.n_crashing += 1
        if not COUNTING:
            raise AssertionError(f"{self.name} crashed on {example!r}: {signature}\n{text}") from exc

    def report(self) -> None:
        path = os.environ.get("XWCP_FUZZ_REPORT")
        if path:
            with open(path, "a", encoding="utf-8") as out:
                out.write(
                    json.dumps(
                        {
                            "target": self.name,
                            "inputs": len(self.inputs),
                            "crashing_inputs": self.n_crashing,
                            "crashes": len(self.crashes),
                            "examples": self.crashes,
                        }
                    )
                    + "\n"
                )


@pytest.fixture(scope="module")
def records():
    by_name: dict[str, Record] = {}
    yield lambda name: by_name.setdefault(name, Record(name))
    for record in by_name.values():
        record.report()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "words.txt").write_text(TINY_LIST, encoding="utf-8")
    (folder / "adir").mkdir()
    return folder


# ----- the grid reader ---------------------------------------------------------------------

GRID_CHARS = "#.?_ABCXYZabz;é \t\r\n\x00\ufeff"
grid_texts = st.one_of(
    st.text(alphabet=GRID_CHARS, max_size=300),
    st.text(max_size=200),
    st.builds(
        lambda rows: "\n".join(rows), st.lists(st.text(alphabet="#.AZ", min_size=1, max_size=8), min_size=1, max_size=8)
    ),
)


def _check_grid_reader(record, workdir, raw: bytes) -> None:
    record.inputs.add(repr(raw))
    path = workdir / "fuzz-grid.txt"
    path.write_bytes(raw)
    try:
        grid = read_grid(path)
    except InputError as exc:
        assert "\n" not in str(exc).strip(), str(exc)
        return
    except Exception as exc:  # noqa: BLE001 - every other exception is what we look for
        record.crash(exc, traceback.format_exc(), raw)
        return
    again = parse_grid(grid.render())
    assert again == grid


@FAST
@given(
    raw=st.one_of(
        st.binary(max_size=400),
        grid_texts.map(lambda t: t.encode("utf-8")),
        grid_texts.map(lambda t: t.encode("latin-1", "replace")),
    )
)
def test_grid_reader(records, workdir, raw):
    _check_grid_reader(records("grid reader"), workdir, raw)


# ----- the word-list reader ----------------------------------------------------------------

WORD_CHARS = "ABCabcÉéæßºªⁿ²ﬁ' -.;#\t\r\n0123456789\x00"
word_texts = st.one_of(
    st.text(alphabet=WORD_CHARS, max_size=300),
    st.text(max_size=200),
    st.builds(
        lambda pairs: "\n".join(f"{w};{s}" for w, s in pairs),
        st.lists(st.tuples(st.text(min_size=1, max_size=6), st.integers(-(10**6), 10**6)), max_size=20),
    ),
)


def _check_word_list(record, workdir, raw: bytes) -> None:
    record.inputs.add(repr(raw))
    path = workdir / "fuzz-words.txt"
    path.write_bytes(raw)
    try:
        words = load_word_list(path, use_cache=False)
    except InputError as exc:
        assert "\n" not in str(exc).strip(), str(exc)
        return
    except Exception as exc:  # noqa: BLE001
        record.crash(exc, traceback.format_exc(), raw)
        return
    for length in words.lengths:
        bucket = words.bucket(length)
        assert bucket.n_words and int(bucket.letters.max()) < 26
        for word_id in range(bucket.n_words):
            text = bucket.text(word_id)
            assert len(text) == length and text.isascii() and text.isalpha() and text.isupper()


@FAST
@given(
    raw=st.one_of(
        st.binary(max_size=400),
        word_texts.map(lambda t: t.encode("utf-8")),
        word_texts.map(lambda t: t.encode("latin-1", "replace")),
    )
)
def test_word_list_reader(records, workdir, raw):
    _check_word_list(records("word-list reader"), workdir, raw)


# ----- the cache loader --------------------------------------------------------------------

CACHE_FILES = (
    "letters_flat.npy",
    "scores_flat.npy",
    "order_flat.npy",
    "starts_flat.npy",
    "table.npy",
    "bits_flat.npy",
    "meta.json",
)
damages = st.lists(
    st.tuples(
        st.sampled_from(CACHE_FILES),
        st.sampled_from(["truncate", "zero", "overwrite", "delete", "append"]),
        st.floats(0, 1),
        st.binary(min_size=1, max_size=16),
        st.booleans(),
    ),
    min_size=1,
    max_size=3,
)
"""(file, damage, where, bytes written, whether the file's modification time is set back after)."""


def _all_words(words) -> dict[str, int]:
    return {
        words.bucket(length).text(k): int(words.bucket(length).scores[k])
        for length in words.lengths
        for k in range(words.bucket(length).n_words)
    }


@pytest.fixture(scope="module")
def pristine_cache(tmp_path_factory):
    """A cache folder holding the compiled TINY_LIST, and the words it holds."""
    root = tmp_path_factory.mktemp("pristine")
    words_path = root / "words.txt"
    words_path.write_text(TINY_LIST + "NTH;40\nLOTS;x\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XWCP_CACHE_DIR", str(root / "cache"))
        words = load_word_list(words_path)
    (folder,) = [p for p in (root / "cache").iterdir() if p.is_dir()]
    return words_path, folder, _all_words(words)


def _damage(path: Path, how: str, where: float, data: bytes, keep_time: bool) -> None:
    if not path.exists():
        return
    info = path.stat()
    size = info.st_size
    offset = int(where * size)
    if how == "delete":
        path.unlink()
    elif how == "zero":
        path.write_bytes(b"")
    elif how == "truncate":
        os.truncate(path, min(offset, max(0, size - 1)))
    elif how == "append":
        with path.open("ab") as handle:
            handle.write(data)
    else:
        with path.open("r+b") as handle:
            handle.seek(min(offset, max(0, size - len(data))))
            handle.write(data)
    if keep_time and path.exists():  # damage a check of the time and size alone cannot see
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


@FAST
@given(plan=damages)
def test_cache_loader(records, pristine_cache, tmp_path_factory, plan):
    record = records("cache loader")
    record.inputs.add(repr(plan))
    words_path, pristine, expected = pristine_cache
    root = tmp_path_factory.mktemp("cache", numbered=True)
    folder = root / pristine.name
    shutil.copytree(pristine, folder)  # copy2 keeps the files' times: the copy verifies as it is
    for name, how, where, data, keep_time in plan:
        _damage(folder / name, how, where, data, keep_time)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XWCP_CACHE_DIR", str(root))
        try:
            got = _all_words(load_word_list(words_path))
        except Exception as exc:  # noqa: BLE001
            record.crash(exc, traceback.format_exc(), plan)
            return
        finally:
            shutil.rmtree(root, ignore_errors=True)
    if got != expected:
        record.crash(None, "the cache gave different words", plan)


# ----- the command line --------------------------------------------------------------------

COMMANDS = ["fill", "domains", "suggest", "heatmap", "check"]
option_values = {
    "--words": st.sampled_from(
        [
            "{d}/words.txt",
            "{d}/missing.txt",
            "{d}/adir",
            "/dev/null",
            "{d}/fuzz-grid.txt",
            "{d}/fuzz-list.txt",
            "{d}/fuzz-list.txt",
        ]
    ),
    "--min-score": st.one_of(st.integers(-40000, 40000), st.sampled_from(["x", "", "1e3", "99999999999999999999"])),
    "--backend": st.sampled_from(["auto", "backtrack", "cpsat", "sat", "nosuch", ""]),
    "--time-limit": st.one_of(
        st.floats(allow_nan=True, allow_infinity=True).map(str),
        st.sampled_from(["0", "-1", "x", "1e-9", "inf", "nan", "0.2"]),
    ),
    "--seed": st.one_of(st.integers(-(2**70), 2**70), st.sampled_from(["x", "1.5"])),
    "--count": st.one_of(st.integers(-3, 5), st.sampled_from(["all", "x", "0"])),
    "-k": st.one_of(st.integers(-3, 100000), st.sampled_from(["x"])),
    "--slot": st.sampled_from(["1A", "1D", "4A", "99Z", "", "a", "1a", "0A", " 1A "]),
    "--format": st.sampled_from(["text", "json", "grid", "xml"]),
    "--png": st.sampled_from(["{d}/h.png", "{d}/h", "{d}/h.svg", "{d}/h.txt", "{d}/adir", "{d}/no/such/h.png"]),
    "--export-cnf": st.sampled_from(["{d}/f.cnf", "{d}/adir", "{d}/no/such/f.cnf"]),
}
flags = ["--allow-dupes", "--strict", "--verify", "--show-fill", "--help", "--version", "-", "--", "--nosuch"]
cli_grids = st.one_of(
    st.sampled_from(
        [
            "...\n...\n...\n",
            "..\n..\n",
            "#...#\n.....\n",
            "CAB\n...\n...\n",
            "QZX\nJKV\nWWW\n",
            "AB\n..\n",
            "A.\n.#\n",
            "#\n",
            "",
            "...\n..\n",
            "é..\n...\n",
        ]
    ),
    st.builds(
        lambda rows: "\n".join(rows) + "\n",
        st.lists(st.text(alphabet="#..AB", min_size=3, max_size=3), min_size=2, max_size=3),
    ),
)


@st.composite
def cli_calls(draw):
    command = draw(st.sampled_from(COMMANDS + ["", "nosuch", "bench --help"]))
    argv = command.split() + ["{d}/fuzz-grid.txt"]
    for _ in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            name = draw(st.sampled_from(sorted(option_values)))
            argv += [name, str(draw(option_values[name]))]
        else:
            argv.append(draw(st.sampled_from(flags)))
    if draw(st.booleans()):
        argv += ["--words", "{d}/words.txt"]  # mostly the tiny list: the default one is slower to compile with
    if command in ("fill", "suggest", "check"):
        argv += ["--time-limit", "2"]  # the last one wins: no run takes long
    if command == "suggest" and "--slot" not in argv:
        argv += ["--slot", "1A"]
    list_text = draw(st.one_of(st.just(TINY_LIST), word_texts.map(lambda t: TINY_LIST + t)))
    return draw(cli_grids), list_text, argv


@settings(FAST, max_examples=150)
@given(call=cli_calls())
def test_command_line(records, workdir, capsys, call):
    record = records("command line")
    grid_text, list_text, template = call
    record.inputs.add(repr(call))
    (workdir / "fuzz-grid.txt").write_text(grid_text, encoding="utf-8")
    (workdir / "fuzz-list.txt").write_text(list_text, encoding="utf-8")
    argv = [a.replace("{d}", str(workdir)) for a in template]
    filled = False  # main returned (a fill ran), rather than argparse exiting for --help, --version or usage
    try:
        code = main(argv)
        filled = True
    except SystemExit as exc:  # argparse: --help, --version, usage errors
        code = exc.code
    except BaseException as exc:  # noqa: BLE001
        capsys.readouterr()
        record.crash(exc, traceback.format_exc(), argv)
        return
    out, err = capsys.readouterr()
    if code not in ALLOWED_EXIT_CODES or "Traceback" in err or "internal error" in err:
        record.crash(None, f"exit {code}\n{err}", argv)
        return
    if (
        filled
        and argv[0] == "fill"
        and code == 0
        and "--format" in argv
        and argv[len(argv) - 1 - argv[::-1].index("--format") + 1] == "json"
    ):
        _assert_valid_fill(argv, json.loads(out), record)


def _assert_valid_fill(argv, data, record) -> None:
    """Re-check a JSON fill against the grid and list with check_fill (never trust the CLI's own check)."""
    from xwcp.services.load import LoadOptions, load_problem

    if data.get("status") != "filled":
        return
    words = argv[len(argv) - 1 - argv[::-1].index("--words") + 1] if "--words" in argv else None
    min_score = 50
    if "--min-score" in argv:
        try:
            min_score = int(argv[len(argv) - 1 - argv[::-1].index("--min-score") + 1])
        except ValueError:
            return
    problem = load_problem(argv[1], words, LoadOptions(min_score=min_score, allow_dupes="--allow-dupes" in argv))
    width = problem.grid.width
    entries = tuple("".join(data["grid"][cell // width][cell % width] for cell in slot.cells) for slot in problem.slots)
    violations = check_fill(problem, entries)
    if violations:
        record.crash(None, f"invalid fill: {violations}", argv)


# ----- puzzle files (issue 34) -------------------------------------------------------------

PER_FILE_CPU_S = 2.0
"""CPU time one hostile file may take to read (a published one takes under 0.5 s)."""
MAX_RSS_BYTES = 1 << 30
"""Peak memory of the whole test process after the puzzle-file targets (a bomb once took 2 GB)."""

_huge_numbers = st.sampled_from(
    [
        "9" * 5000,
        "-" + "9" * 400,
        "1e999",
        "-1e999",
        "Infinity",
        "-Infinity",
        "NaN",
        "1" * 19,
        "123456789012345678",
        "0",
        "-1",
        "2.5",
        "1e-300",
    ]
)
_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
_json_values = st.recursive(
    _json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12,
)
_raw_json = st.one_of(
    _huge_numbers,
    _json_values.map(json.dumps),
    st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 3000).map(lambda n: '{"a":' * n + "1" + "}" * n),
)
_IPUZ_FIELDS = [
    ("dimensions", "width"),
    ("dimensions", "height"),
    ("kind",),
    ("block",),
    ("empty",),
    ("puzzle",),
    ("solution",),
    ("clues",),
    ("styles",),
    ("title",),
    ("puzzle", 0),
    ("puzzle", 1, 1),
    ("solution", 0, 0),
    ("clues", "Across"),
    ("clues", "Across", 0),
    ("clues", "Down", 0, 0),
]


@st.composite
def hostile_ipuz(draw) -> bytes:
    """A valid 3x3 .ipuz with a few fields replaced by raw JSON: huge numbers, deep nesting, wrong types."""
    data: dict = ipuz_dict()
    raws = []
    for k in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(_IPUZ_FIELDS))
        clues = data.get("clues")
        if draw(st.booleans()) and isinstance(clues, dict) and isinstance(clues.get("Across"), list):
            data["clues"]["Across"][0] = {"number": 1, "clue": "x", "cells": f"@@{k}@@"}  # cells of a wrong shape
        else:
            target = data
            for step in where[:-1]:
                target = target[step] if isinstance(target, (dict, list)) else target
            if isinstance(target, (dict, list)):
                try:
                    target[where[-1]] = f"@@{k}@@"
                except (IndexError, TypeError):
                    pass
        raws.append(draw(_raw_json))
    text = json.dumps(data)
    for k, raw in enumerate(raws):
        text = text.replace(f'"@@{k}@@"', raw)
    return text.encode()


_SPANS = st.one_of(
    st.sampled_from(["1-3", "3-1", "1-999999999", "0-2", "2", "", "x", "1-", "-1", "1--3", "99999999999999999999"]),
    st.tuples(st.integers(0, 10**9), st.integers(0, 10**9)).map(lambda t: f"{t[0]}-{t[1]}"),
)
_MARKUP = st.one_of(
    st.text(alphabet="abc<>/&;i ", max_size=40),
    st.integers(1, 6000).map(lambda n: "<i>" * n + "x" + "</i>" * n),
    st.sampled_from(["&nbsp;", "&bogus;", "<![CDATA[x]]>", "<!-- c -->", "&#0;", "&#x110000;"]),
)


@st.composite
def hostile_jpz(draw) -> bytes:
    """A small .jpz with a hostile span, title or clue, plain or zipped (any method, maybe a bomb)."""
    import zipfile

    from tests.project.hostile import _zip_one

    text = jpz_text(title=draw(_MARKUP), word_x=draw(_SPANS), clue=draw(_MARKUP))
    if draw(st.booleans()):
        text = text.replace('width="3"', f'width="{draw(st.sampled_from(["0", "61", "-1", "9" * 30, "x", "3"]))}"')
    data = text.encode()
    form = draw(st.sampled_from(["plain", "zip", "bomb", "cut"]))
    if form == "zip":
        method = draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]))
        data = _zip_one(
            "puzzle.xml",
            method,
            lambda handle: handle.write(text.encode()),
            draw(st.sampled_from([None, 0, 10, 1 << 31])),
        )
    elif form == "bomb":
        data = _BOMBS[draw(st.sampled_from(sorted(_BOMBS)))]
    elif form == "cut":
        data = data[: draw(st.integers(0, len(data)))]
    return data


@functools.cache
def issue_34_files() -> dict[str, bytes]:
    """`hostile_files` at 1/64 of their size, built once per process (a tenth of a CPU second each time: the bombs)."""
    return hostile_files(scale=1 / 64)


_BOMBS = {name: data for name, data in issue_34_files().items() if name.startswith("zip-")}
_XD_LINES = st.one_of(
    st.sampled_from(
        [
            "Title: t",
            "Rebus: 1=HEART",
            "Rebus: x",
            "Special: circle",
            "",
            "",
            "",
            "## Grid",
            "## Clues",
            "## Design",
            "<style>",
            "A { background: circle }",
            "</style>",
            "<!--",
            "-->",
            "A1. Cat ~ CAT",
            "D1. x ~ ",
            "A99. y ~ Z",
        ]
    ),
    st.text(alphabet="#._ABCabc1 ", min_size=1, max_size=6),
    st.text(max_size=10),
)


@st.composite
def hostile_xd(draw) -> bytes:
    """.xd text: headers, grid rows (spaces and odd characters), clues, Design sections and comments, mixed."""
    lines = draw(st.lists(_XD_LINES, max_size=25))
    base = ["Title: t", "", "", "CAT", "A#A", "TAT", "", "", "A1. Cat ~ CAT", "D1. Taxi ~ CAT"]
    if draw(st.booleans()):
        at = draw(st.integers(0, len(base)))
        lines = base[:at] + lines + base[at:]
    text = "\n".join(lines)
    if draw(st.booleans()):
        text += "<!--" * draw(st.integers(1, 20000))
    return text.encode()


@st.composite
def hostile_puz(draw) -> bytes:
    """A locked or plain small .puz, then damaged: bytes overwritten (header sizes among them), cut short."""
    import puz

    if draw(st.booleans()):
        data = bytearray(locked_puz(draw(st.integers(2, 8)), key=draw(st.integers(1000, 9999))))
    else:
        p = puz.Puzzle()
        p.width = p.height = 3
        p.solution, p.fill, p.clues = "CAT.A.TAT".replace(".", "-").replace("-", ".", 0), "---.-.---", ["a"] * 4
        data = bytearray(p.tobytes())
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, max(0, len(data) - 1)))
        data[at : at + 1] = bytes([draw(st.integers(0, 255))])
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    return bytes(data)


@st.composite
def hostile_grid_text(draw) -> bytes:
    """Our text grid with directive lines holding huge numbers and rebus cells holding letters that fold."""
    rows = ["CAT", "A.A", "TAT"]
    if draw(st.booleans()):
        rows[0] = draw(st.sampled_from(["[ß]AT", "[ﬁ]AT", "[KAPı]AT", "[N\u0303]AT", "[  ]AT", "[]AT", "CA[T"]))
    lines = rows + [
        f"; numbers: {draw(_huge_numbers.filter(str.isdigit))},1=1",
        f"; numbers: 1,1={draw(st.sampled_from(['9' * 5000, '1' * 18, '1' * 19, '0']))}",
        f"; colors: 1,{draw(st.sampled_from(['1', '9' * 3000]))}=#FFCC00",
    ]
    return "\n".join(draw(st.permutations(lines))).encode()


_REBUS_KEYS = st.one_of(
    st.sampled_from(list("123456789@$%&*+=!?0abcXYZ#.[]_,;:<>❶é") + ["", "12", " "]),
    st.characters(exclude_categories=["Cs"]),
)
_REBUS_TEXTS = st.one_of(
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcß#[].=, ;é\u0303ﬁı&1", max_size=24),
    st.tuples(st.sampled_from("ABQZé"), st.integers(0, 900)).map(lambda t: t[0] * t[1]),
    st.text(max_size=12),
)


@st.composite
def hostile_rebus_xd(draw) -> bytes:
    """.xd with a Rebus header of random keys (odd characters, repeated) mapped to long or odd strings, many
    entries, separated by spaces or commas, and a grid that uses some of the keys."""
    n_items = draw(st.integers(0, 8)) if draw(st.booleans()) else draw(st.integers(50, 400))
    items = [f"{draw(_REBUS_KEYS)}={draw(_REBUS_TEXTS)}" for _ in range(min(n_items, 40))]
    items += items[:1] * (n_items - len(items))  # many entries: the first, again and again
    header = draw(st.sampled_from([" ", ",", ", "])).join(items)
    keys = [item.partition("=")[0] for item in items if len(item.partition("=")[0]) == 1] or ["1"]
    side = draw(st.integers(2, 15))
    rows = ["".join(draw(st.sampled_from(keys + ["A", "B", ".", "#"])) for _ in range(side)) for _ in range(side)]
    return (f"Title: t\nRebus: {header}\n\n\n" + "\n".join(rows) + "\n\n\nA1. x ~ AB\n").encode()


@st.composite
def hostile_rebus_ipuz(draw) -> bytes:
    """.ipuz whose solution cells hold long or odd strings, on a small grid or one up to 60x60."""
    side = draw(st.sampled_from([3, 5, 15, 60]))
    texts = draw(st.lists(_REBUS_TEXTS, min_size=1, max_size=6))
    longest = max(len(t) for t in texts)
    n_drawn = min(side * side, 900_000 // (longest + 6))  # the first cells, as many as keep the file under 1 MiB
    solution = [
        [draw(st.sampled_from(texts)) if r * side + c < n_drawn else "A" for c in range(side)] for r in range(side)
    ]
    return json.dumps(
        {
            **ipuz_dict(),
            "dimensions": {"width": side, "height": side},
            "puzzle": [[0] * side for _ in range(side)],
            "solution": solution,
            "clues": {},
        }
    ).encode()


def _check_warnings(puzzle, name: str) -> None:
    """Every warning of a file that reads is one line, and short once `one_line` has cut it."""
    from xwcp.base.lines import MAX_LINE_CHARS, one_line

    for warning in puzzle.warnings:
        assert "\n" not in warning and len(warning) < 2000, (name, warning[:300])
        assert len(one_line(warning)) <= MAX_LINE_CHARS


def _check_puzzle_file(record, workdir, name: str, data: bytes) -> None:
    """Read `data` as file `name`: a Puzzle or one InputError line, within the CPU budget; what reads converts
    to our text grid and reads back."""
    record.inputs.add(repr((name, data[:2000])))
    path = workdir / name
    path.write_bytes(data)
    start = time.process_time()
    try:
        puzzle = read_puzzle(path)
    except InputError as exc:
        text = str(exc)
        assert "\n" not in text.strip() and text.count(str(path)) == 1 and len(text) < 600, text[:2000]
        return
    except Exception as exc:  # noqa: BLE001 - every other exception is what we look for
        record.crash(exc, traceback.format_exc(), (name, data[:300]))
        return
    finally:
        assert time.process_time() - start < PER_FILE_CPU_S, (name, data[:300])
    _check_warnings(puzzle, name)
    out = workdir / "fuzz-converted.txt"
    try:
        write_puzzle(puzzle, out)
        again = read_puzzle(out)
    except Exception as exc:  # noqa: BLE001 - a file that reads must convert and read back (issue 34)
        record.crash(exc, traceback.format_exc(), (name, data[:300]))
        return
    assert again.grid.cells == puzzle.grid.cells, (name, data[:300])


PUZZLE_FAST = settings(FAST, max_examples=25)
PUZZLE_SLOW = settings(FAST, max_examples=500)


@pytest.fixture(scope="module")
def within_memory():
    yield
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    assert peak < MAX_RSS_BYTES, f"peak RSS {peak >> 20} MiB"


@PUZZLE_FAST
@given(data=hostile_ipuz())
def test_ipuz_reader(records, workdir, within_memory, data):
    _check_puzzle_file(records("ipuz reader"), workdir, "fuzz.ipuz", data)


@PUZZLE_FAST
@given(data=hostile_ipuz())
def test_json_reader(records, workdir, within_memory, data):
    """The same hostile JSON as our own .json, whose `grid` and `entries` are spoiled too."""
    spoiled = data.replace(b'"puzzle":', b'"grid": ["CAT", "A.A", "TAT"], "entries":', 1)
    _check_puzzle_file(records("json reader"), workdir, "fuzz.json", spoiled)


@PUZZLE_FAST
@given(data=hostile_jpz())
def test_jpz_reader(records, workdir, within_memory, data):
    _check_puzzle_file(records("jpz reader"), workdir, "fuzz.jpz", data)


@PUZZLE_FAST
@given(data=hostile_xd())
def test_xd_reader(records, workdir, within_memory, data):
    _check_puzzle_file(records("xd reader"), workdir, "fuzz.xd", data)


@PUZZLE_FAST
@given(data=hostile_puz())
def test_puz_reader(records, workdir, within_memory, data):
    _check_puzzle_file(records("puz reader"), workdir, "fuzz.puz", data)


@PUZZLE_FAST
@given(data=hostile_grid_text())
def test_grid_text_reader(records, workdir, within_memory, data):
    _check_puzzle_file(records("grid text reader"), workdir, "fuzz.txt", data)


@PUZZLE_FAST
@given(data=hostile_rebus_xd())
def test_xd_rebus_header(records, workdir, within_memory, data):
    _check_puzzle_file(records("xd rebus header"), workdir, "fuzz-rebus.xd", data)


@PUZZLE_FAST
@given(data=hostile_rebus_ipuz())
def test_ipuz_rebus_cells(records, workdir, within_memory, data):
    _check_puzzle_file(records("ipuz rebus cells"), workdir, "fuzz-rebus.ipuz", data)


@pytest.mark.parametrize("name", sorted(rebus_files()))
def test_each_rebus_file(records, workdir, within_memory, name):
    """The long-rebus files as seeds: refused in one line, at once."""
    _check_puzzle_file(records("rebus files"), workdir, name, rebus_files()[name])


@pytest.mark.parametrize("name", sorted(issue_34_files()))
def test_each_hostile_file_of_issue_34(records, workdir, within_memory, name):
    """The issue's own files as seeds of the same property (the CLI runs them in test_robustness)."""
    _check_puzzle_file(records("issue 34 files"), workdir, name, issue_34_files()[name])


# ----- a language named inside a puzzle file, and a word a person types -----------------------------

_OPENED: list[list[str]] = []
"""While a language-name example reads its file: the paths opened (an audit hook records them) and looked up."""


def _audit_open(event: str, args: tuple) -> None:
    if event == "open" and _OPENED and args and isinstance(args[0], (str, bytes)):
        _OPENED[-1].append(os.fsdecode(args[0]))


sys.addaudithook(_audit_open)  # for the whole process (a hook cannot be removed): idle while no example reads

PLANTED = "{planted}"
"""Stands in a generated name for a folder holding a valid pack (`pack`, `pack.json`) and a file that is no pack."""
_LANGUAGE_SEEDS = [
    "/etc/passwd",
    "/etc/shadow",
    "..",
    "../..",
    "../../../../etc/passwd",
    "./es",
    "~/.bashrc",
    "/dev/zero",
    "/dev/stdin",
    "/proc/self/environ",
    "C:\\Windows\\win.ini",
    "file:///etc/passwd",
    "es\x00/etc/passwd",
    "\x00",
    "es-MX",
    "nl_NL",
    "de-umlaut",
    "EN",
    "xx",
    "",
    " ",
    "es/../es",
    f"{PLANTED}/pack",
    f"{PLANTED}/pack.json",
    f"{PLANTED}/passwd",
    f"{PLANTED}/missing",
    PLANTED,
    f"{PLANTED}/../{PLANTED[1:-1]}/pack",
    f"es-{PLANTED}/pack",
]
_PATH_PARTS = ["..", ".", "", "etc", "passwd", "es", "pack", "pack.json", "\x00", "~", PLANTED, "es-MX", "nl_NL"]
language_names = st.one_of(
    st.sampled_from(_LANGUAGE_SEEDS),
    st.text(max_size=40),
    st.builds(
        lambda lead, parts: lead + "/".join(parts),
        st.sampled_from(["", "/", "./", "../"]),
        st.lists(st.sampled_from(_PATH_PARTS), min_size=1, max_size=6),
    ),
    st.builds(
        lambda unit, n: unit * n,
        st.sampled_from(["a", "/", "../", "es-", "é", "\x00", PLANTED + "/"]),
        st.integers(100, 20_000),
    ),
)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    from tests.project.hostile import planted_pack

    folder = tmp_path_factory.mktemp("planted")
    (folder / "pack").write_text(planted_pack(), encoding="utf-8")
    (folder / "pack.json").write_text(planted_pack(), encoding="utf-8")
    (folder / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    return folder


def _check_language_name(record, workdir, planted, fmt: str, name: str) -> None:
    """A file naming `name` as its language is read with a shipped pack (or English, warned) or refused in one
    InputError line, and no file it names is opened or looked up."""
    from unittest import mock

    from tests.project.hostile import puzzle_naming_language
    from xwcp.model.alphabet import shipped_alphabets

    name = name.replace(PLANTED, str(planted))
    record.inputs.add(repr((fmt, name[:300])))
    path = workdir / f"fuzz-language.{fmt}"
    path.write_bytes(puzzle_naming_language(fmt, name))
    real_stat = os.stat
    opened: list[str] = []

    def stat(target, *args, **kwargs):
        if isinstance(target, (str, bytes, os.PathLike)):
            opened.append(os.fsdecode(target))
        return real_stat(target, *args, **kwargs)

    _OPENED.append(opened)
    try:
        with mock.patch("os.stat", stat):
            puzzle = read_puzzle(path)
    except InputError as exc:
        text = str(exc)
        assert "\n" not in text.strip() and len(text) < 600 and "root:" not in text, text[:2000]
        puzzle = None
    except Exception as exc:  # noqa: BLE001 - every other exception is what we look for
        record.crash(exc, traceback.format_exc(), (fmt, name[:300]))
        return
    finally:
        _OPENED.pop()
    named = {os.path.abspath(name)} if name.strip() and "\x00" not in name else set()
    strays = [p for p in opened if p.startswith(str(planted)) or os.path.abspath(p) in named and p != str(path)]
    assert not strays, (fmt, name[:300], strays)
    if puzzle is not None:
        assert puzzle.alphabet in shipped_alphabets(), (fmt, name[:300])
        primary = name.strip().replace("_", "-").split("-")[0].lower()
        assert puzzle.alphabet.code in ("en", name.strip().lower(), primary), (fmt, name[:300], puzzle.alphabet.code)
        assert all(len(w) < 600 and "\n" not in w for w in puzzle.warnings), puzzle.warnings


@settings(FAST, max_examples=100)  # a 3x3 file each: cheap
@given(fmt=st.sampled_from(["txt", "ipuz", "xd", "json", "puz"]), name=language_names)
def test_language_named_in_a_file(records, workdir, planted, fmt, name):
    _check_language_name(records("language named in a file"), workdir, planted, fmt, name)


_TYPED_CHARS = list("abcezACEZIİıiﬁﬂſßẞæœÆŒÄäÖéÉèÑñĲĳǅǆΣσςΌόЁёЖж-' .+Ａｅ²º") + [
    "\u0301",
    "\u0308",
    "\u0327",
    "\u0303",
    "\u200d",
    "\ufeff",
    "\x00",
    "\u093f",
]
typed_words = st.one_of(
    st.text(max_size=20),
    st.text(alphabet=st.sampled_from(_TYPED_CHARS), min_size=1, max_size=12),
    st.sampled_from(["CAFE\u0301", "ﬁne", "dısk", "café", "straße", "Æon", "ǅemal", "ĳs", "λόγος", "ёж", "İstanbul"]),
)
_TYPED_PACKS = ("en", "fr", "de", "tr", "nl", "el", "ru", "es", "hi")


def _as_typed(raw: str, alphabet) -> str:
    """`raw` as the grid reader writes its letters, restated here: NFC, the pack's dropped characters and `+` gone,
    each character upper-cased the pack's way or where that gives one character that lower-cases back."""
    import unicodedata

    text = unicodedata.normalize("NFC", raw.strip())
    text = "".join(ch for ch in text if ch not in alphabet.drop and (ch != "+" or alphabet.is_ascii))
    out = []
    for ch in text:
        upper = ch.upper()
        out.append(
            alphabet.case.get(ch) or ("Σ" if ch == "ς" else upper if len(upper) == 1 and upper.lower() == ch else ch)
        )
    return "".join(out)


def _check_typed_word(record, code: str, raw: str) -> None:
    """A typed word is refused in one line naming a character, or stored as the list reader reads it; stored as
    typed unless a note says what it became."""
    from xwcp.model.alphabet import load_alphabet
    from xwcp.words import userwords

    record.inputs.add(repr((code, raw)))
    alphabet = load_alphabet(code)
    notes: list[str] = []
    try:
        word = userwords.clean_word(raw, alphabet, notes)
    except InputError as exc:
        text = str(exc)
        assert "\n" not in text and len(text) < 400 and "not a word of" in text, text
        return
    except Exception as exc:  # noqa: BLE001 - every other exception is what we look for
        record.crash(exc, traceback.format_exc(), (code, raw))
        return
    written = alphabet.written(word)
    if notes:
        assert len(notes) == 1 and f"stored as {written} (" in notes[0] and "->" in notes[0], (code, raw, notes)
    if any(0xE000 <= ord(ch) <= 0xF8FF or ord(ch) >= 0xF0000 for ch in raw):  # maybe a code char: a cell's
        return
    assert word == alphabet.fold_word(raw.strip()), (code, raw, word)  # what a list line of it reads
    if not notes and not alphabet.is_open:
        assert written == _as_typed(raw, alphabet), (code, raw, written)


@FAST
@given(code=st.sampled_from(_TYPED_PACKS), raw=typed_words)
def test_typed_word(records, code, raw):
    _check_typed_word(records("typed word"), code, raw)


@pytest.fixture(scope="module")
def words_client(tmp_path_factory):
    pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")
    import warnings

    from xwcp.web.app import create_app
    from xwcp.web.hosts import allowed_hosts
    from xwcp.words.wordlist import words_from_pairs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    folder = tmp_path_factory.mktemp("personal")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XWCP_DATA_DIR", str(folder))
        app = create_app(
            words=words_from_pairs([("CAFE", 60), ("FINE", 60), ("DISK", 60)]), hosts=allowed_hosts("127.0.0.1")
        )
        with TestClient(app, base_url="http://127.0.0.1") as client:
            yield client


@settings(FAST, max_examples=60)
@given(raw=typed_words, score=st.integers(0, 100))
def test_word_edit_over_http(records, words_client, raw, score):
    """POST /api/words: a 400 in one line, or a 200 whose `edited` word is in the list with its score, written as
    typed unless `warnings` says what it became."""
    from xwcp.model.alphabet import ENGLISH

    record = records("word edit over http")
    record.inputs.add(repr(raw))
    response = words_client.post("/api/words", json={"word": raw, "score": score})
    if response.status_code != 200:
        assert response.status_code == 400 and "\n" not in response.json()["error"], response.text
        return
    data = response.json()
    (edited,) = data["edited"]
    assert {e["word"]: e["score"] for e in data["entries"]}[edited["word"]] == score
    if not data["warnings"]:
        assert edited["word"] == _as_typed(raw, ENGLISH), (raw, edited)
    else:
        assert f"stored as {edited['word']} (" in data["warnings"][0]


# ----- JSON the command line reads besides puzzles: a language pack, a batch's result record -------------------

_PACK_KEYS = ["code", "name", "direction", "letters", "fold", "sources", "note", "extra"]


@st.composite
def hostile_pack(draw) -> bytes:
    """A small language pack with one to three fields (or the pack itself) made raw JSON: huge numbers, deep
    nesting, values of the wrong type."""
    if draw(st.integers(0, 9)) == 0:
        return draw(_raw_json).encode()
    data: dict = dict(LANGUAGE_PACK)
    raws = []
    for k, key in enumerate(draw(st.lists(st.sampled_from(_PACK_KEYS), min_size=1, max_size=3, unique=True))):
        data[key] = f"@@{k}@@"
        raws.append(draw(_raw_json))
    text = json.dumps(data)
    for k, raw in enumerate(raws):
        text = text.replace(f'"@@{k}@@"', raw)
    return text.encode()


@PUZZLE_FAST
@given(data=hostile_pack())
def test_language_pack_reader(records, workdir, within_memory, data):
    """`--language FILE`: an Alphabet or one InputError line naming the file, never another exception."""
    from xwcp.model.alphabet import Alphabet, load_alphabet

    record = records("language pack reader")
    record.inputs.add(repr(data[:2000]))
    path = workdir / "fuzz-pack.json"
    path.write_bytes(data)
    try:
        assert isinstance(load_alphabet(str(path)), Alphabet)
    except InputError as exc:
        text = str(exc)
        assert "\n" not in text.strip() and str(path) in text and len(text) < 600, text[:2000]
    except Exception as exc:  # noqa: BLE001 - every other exception is what we look for
        record.crash(exc, traceback.format_exc(), data[:300])


@PUZZLE_FAST
@given(raw=st.one_of(_raw_json, _raw_json.map(lambda r: '{"name": "g", "status": "filled", "seconds": ' + r + "}")))
def test_batch_result_reader(records, workdir, raw):
    """`xwcp batch --resume` reads each grid's NAME.json: a record, or None (the grid runs again), never an
    exception (a record nested past the recursion limit was a RecursionError, exit 70)."""
    from xwcp.dist.batch import read_result, result_path

    record = records("batch result reader")
    record.inputs.add(raw[:2000])
    result_path(workdir, "fuzz-result").write_text(raw, encoding="utf-8")
    try:
        answer = read_result(workdir, "fuzz-result")
    except Exception as exc:  # noqa: BLE001 - every exception is what we look for
        record.crash(exc, traceback.format_exc(), raw[:300])
        return
    assert answer is None or (isinstance(answer, dict) and answer.get("status"))


@pytest.mark.parametrize("name", sorted(hostile_json_files()))
def test_each_hostile_json_file(workdir, name):
    """The fixed seeds of the two targets above: a pack refused in one line, a result record read as not done."""
    from xwcp.dist.batch import read_result
    from xwcp.model.alphabet import load_alphabet

    data = hostile_json_files()[name]
    if name.startswith("pack-"):
        path = workdir / name
        path.write_bytes(data)
        with pytest.raises(InputError) as caught:
            load_alphabet(str(path))
        assert str(path) in str(caught.value) and "\n" not in str(caught.value)
    else:
        (workdir / "seed.json").write_bytes(data)
        assert read_result(workdir, "seed") is None


# ----- the long profile --------------------------------------------------------------------


@pytest.mark.slow
@SLOW
@given(raw=st.one_of(st.binary(max_size=2000), grid_texts.map(lambda t: t.encode("utf-8"))))
def test_grid_reader_long(records, workdir, raw):
    _check_grid_reader(records("grid reader (long)"), workdir, raw)


@pytest.mark.slow
@SLOW
@given(raw=st.one_of(st.binary(max_size=2000), word_texts.map(lambda t: t.encode("utf-8"))))
def test_word_list_reader_long(records, workdir, raw):
    _check_word_list(records("word-list reader (long)"), workdir, raw)


@pytest.mark.slow
@settings(SLOW, max_examples=1500)
@given(call=cli_calls())
def test_command_line_long(records, workdir, capsys, call):
    test_command_line.hypothesis.inner_test(records, workdir, capsys, call)


@pytest.mark.slow
@PUZZLE_SLOW
@given(
    data=st.one_of(
        hostile_ipuz().map(lambda d: ("fuzz.ipuz", d)),
        hostile_jpz().map(lambda d: ("fuzz.jpz", d)),
        hostile_xd().map(lambda d: ("fuzz.xd", d)),
        hostile_puz().map(lambda d: ("fuzz.puz", d)),
        hostile_grid_text().map(lambda d: ("fuzz.txt", d)),
    )
)
def test_puzzle_files_long(records, workdir, within_memory, data):
    _check_puzzle_file(records("puzzle files (long)"), workdir, *data)


@pytest.mark.slow
@settings(SLOW, max_examples=2000)
@given(fmt=st.sampled_from(["txt", "ipuz", "xd", "json", "puz"]), name=language_names)
def test_language_named_in_a_file_long(records, workdir, planted, fmt, name):
    _check_language_name(records("language named in a file (long)"), workdir, planted, fmt, name)


@pytest.mark.slow
@settings(SLOW, max_examples=5000)
@given(code=st.sampled_from(_TYPED_PACKS + ("cy", "ca", "he", "de-umlaut", "hu", "pl")), raw=typed_words)
def test_typed_word_long(records, code, raw):
    _check_typed_word(records("typed word (long)"), code, raw)
