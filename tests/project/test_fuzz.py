"""Fuzzing with hypothesis: grid reader, word-list reader, cache loader and the CLI answer every input.

Property: an exit code in {0, 1, 2, 3} (or, for the readers, a result or an InputError), never a
traceback or an internal error (exit 70), never an invalid fill. The default run takes well
under a minute; `-m slow` runs a ten times longer profile.

Counting mode (for reports): with XWCP_FUZZ_COUNT=1 a crash is recorded instead of failing the
test, and with XWCP_FUZZ_REPORT=FILE each test appends one JSON line to FILE: the distinct
inputs tried and the distinct crashes (exception type and innermost frame). This is how the
suite was run against the code before issue 13 to count the tracebacks it had.
"""
from __future__ import annotations

import json
import os
import shutil
import traceback
from pathlib import Path

import pytest

pytest.importorskip("hypothesis", reason="the fuzz suite needs hypothesis: pip install -e '.[test]'")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from xwcp.cli.commands import main  # noqa: E402
from xwcp.base.errors import InputError  # noqa: E402
from xwcp.model import parse_grid, read_grid  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402

COUNTING = os.environ.get("XWCP_FUZZ_COUNT") == "1"
FAST = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
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
                out.write(json.dumps({"target": self.name, "inputs": len(self.inputs),
                                      "crashing_inputs": self.n_crashing, "crashes": len(self.crashes),
                                      "examples": self.crashes}) + "\n")


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
    st.builds(lambda rows: "\n".join(rows),
              st.lists(st.text(alphabet="#.AZ", min_size=1, max_size=8), min_size=1, max_size=8)),
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
@given(raw=st.one_of(st.binary(max_size=400), grid_texts.map(lambda t: t.encode("utf-8")),
                     grid_texts.map(lambda t: t.encode("latin-1", "replace"))))
def test_grid_reader(records, workdir, raw):
    _check_grid_reader(records("grid reader"), workdir, raw)


# ----- the word-list reader ----------------------------------------------------------------

WORD_CHARS = "ABCabcÉéæßºªⁿ²ﬁ' -.;#\t\r\n0123456789\x00"
word_texts = st.one_of(
    st.text(alphabet=WORD_CHARS, max_size=300),
    st.text(max_size=200),
    st.builds(lambda pairs: "\n".join(f"{w};{s}" for w, s in pairs),
              st.lists(st.tuples(st.text(min_size=1, max_size=6), st.integers(-10**6, 10**6)), max_size=20)),
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
@given(raw=st.one_of(st.binary(max_size=400), word_texts.map(lambda t: t.encode("utf-8")),
                     word_texts.map(lambda t: t.encode("latin-1", "replace"))))
def test_word_list_reader(records, workdir, raw):
    _check_word_list(records("word-list reader"), workdir, raw)


# ----- the cache loader --------------------------------------------------------------------

CACHE_FILES = ("letters_flat.npy", "scores_flat.npy", "order_flat.npy", "starts_flat.npy", "table.npy",
               "bits_flat.npy", "meta.json")
damages = st.lists(st.tuples(st.sampled_from(CACHE_FILES),
                             st.sampled_from(["truncate", "zero", "overwrite", "delete", "append"]),
                             st.floats(0, 1), st.binary(min_size=1, max_size=16)), min_size=1, max_size=3)


def _all_words(words) -> dict[str, int]:
    return {words.bucket(length).text(k): int(words.bucket(length).scores[k])
            for length in words.lengths for k in range(words.bucket(length).n_words)}


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


def _damage(path: Path, how: str, where: float, data: bytes) -> None:
    if not path.exists():
        return
    size = path.stat().st_size
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


@FAST
@given(plan=damages)
def test_cache_loader(records, pristine_cache, tmp_path_factory, plan):
    record = records("cache loader")
    record.inputs.add(repr(plan))
    words_path, pristine, expected = pristine_cache
    root = tmp_path_factory.mktemp("cache", numbered=True)
    folder = root / pristine.name
    shutil.copytree(pristine, folder)  # copy2 keeps the files' times: the copy verifies as it is
    for name, how, where, data in plan:
        _damage(folder / name, how, where, data)
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
    "--words": st.sampled_from(["{d}/words.txt", "{d}/missing.txt", "{d}/adir", "/dev/null", "{d}/fuzz-grid.txt",
                                "{d}/fuzz-list.txt", "{d}/fuzz-list.txt"]),
    "--min-score": st.one_of(st.integers(-40000, 40000), st.sampled_from(["x", "", "1e3", "99999999999999999999"])),
    "--backend": st.sampled_from(["auto", "backtrack", "cpsat", "sat", "nosuch", ""]),
    "--time-limit": st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(str),
                              st.sampled_from(["0", "-1", "x", "1e-9", "inf", "nan", "0.2"])),
    "--seed": st.one_of(st.integers(-2**70, 2**70), st.sampled_from(["x", "1.5"])),
    "--count": st.one_of(st.integers(-3, 5), st.sampled_from(["all", "x", "0"])),
    "-k": st.one_of(st.integers(-3, 100000), st.sampled_from(["x"])),
    "--slot": st.sampled_from(["1A", "1D", "4A", "99Z", "", "a", "1a", "0A", " 1A "]),
    "--format": st.sampled_from(["text", "json", "grid", "xml"]),
    "--png": st.sampled_from(["{d}/h.png", "{d}/h", "{d}/h.svg", "{d}/h.txt", "{d}/adir", "{d}/no/such/h.png"]),
    "--export-cnf": st.sampled_from(["{d}/f.cnf", "{d}/adir", "{d}/no/such/f.cnf"]),
}
flags = ["--allow-dupes", "--strict", "--verify", "--show-fill", "--help", "--version", "-", "--", "--nosuch"]
cli_grids = st.one_of(
    st.sampled_from(["...\n...\n...\n", "..\n..\n", "#...#\n.....\n", "CAB\n...\n...\n", "QZX\nJKV\nWWW\n",
                     "AB\n..\n", "A.\n.#\n", "#\n", "", "...\n..\n", "é..\n...\n"]),
    st.builds(lambda rows: "\n".join(rows) + "\n",
              st.lists(st.text(alphabet="#..AB", min_size=3, max_size=3), min_size=2, max_size=3)),
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
    try:
        code = main(argv)
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
    if argv[0] == "fill" and code == 0 and "--format" in argv and argv[len(argv) - 1 - argv[::-1].index("--format") + 1] == "json":
        _assert_valid_fill(argv, json.loads(out), record)


def _assert_valid_fill(argv, data, record) -> None:
    """Re-check a JSON fill against the grid and list with check_fill (never trust the CLI's own check)."""
    from xwcp.services.load import load_problem

    if data.get("status") != "filled":
        return
    words = argv[len(argv) - 1 - argv[::-1].index("--words") + 1] if "--words" in argv else None
    min_score = 50
    if "--min-score" in argv:
        try:
            min_score = int(argv[len(argv) - 1 - argv[::-1].index("--min-score") + 1])
        except ValueError:
            return
    problem = load_problem(argv[1], words, min_score=min_score, allow_dupes="--allow-dupes" in argv)
    width = problem.grid.width
    entries = tuple("".join(data["grid"][cell // width][cell % width] for cell in slot.cells)
                    for slot in problem.slots)
    violations = check_fill(problem, entries)
    if violations:
        record.crash(None, f"invalid fill: {violations}", argv)


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
