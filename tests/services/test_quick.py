"""The numpy-free start-up path of `xwcp fill` (xwcp/services/quick.py): same answers and output as the ordinary path."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import run
from xwcp.base.types import FillStatus
from xwcp.compile.controls import make_controls
from xwcp.compile.problem import compile_structure, initial_bitsets, initial_domains
from xwcp.engine import kernel, plain_kernel
from xwcp.engine.result import check_fill
from xwcp.model import find_slots, parse_grid
from xwcp.render import report
from xwcp.services import quick
from xwcp.services.load import LoadOptions, load_puzzle_problem
from xwcp.services.run import run_fill
from xwcp.words.wordlist import load_word_list, read_mapped_word_list

ROOT = Path(__file__).resolve().parents[2]
MODELS = [
    "5x5-open.txt",
    "4x4-unfillable.txt",
    "7x7-mini.txt",
    "11x11-01.txt",
    "15x15-daily-01.txt",
    "15x15-british-01.txt",
]


def _random_grid(rng: random.Random, allow_two: bool = False) -> str:
    """A random grid of 3x3 to 6x6 with a few blocks and letters, and (unless `allow_two`) no 2-letter
    slot (the default list has none: such a slot is a dead end at the root)."""
    while True:
        height, width = rng.randint(3, 6), rng.randint(3, 6)
        rows = []
        for _ in range(height):
            row = ""
            for _ in range(width):
                roll = rng.random()
                row += "#" if roll < 0.1 else rng.choice("AEIORSTNL") if roll < 0.14 else "."
            rows.append(row)
        text = "\n".join(rows) + "\n"
        if allow_two or all(slot.length > 2 for slot in find_slots(parse_grid(text))):
            return text


def _grids(tmp_path: Path, n_random: int = 30) -> list[Path]:
    paths = [ROOT / "models" / name for name in MODELS]
    rng = random.Random(17)
    for index in range(30 - n_random, 30):
        path = tmp_path / f"random-{index}.txt"
        path.write_text(_random_grid(rng, allow_two=index >= 25))
        paths.append(path)
    return paths


def _timeless(core):
    """A core (`xwcp.search.core.CoreReport`) with its search's time zeroed: two searches compare equal."""
    if core is None or core.search is None:
        return core
    return dataclasses.replace(core, search=dataclasses.replace(core.search, wall_time_s=0.0))


def _load_options(options: dict) -> LoadOptions:
    """The loader's options among `options` (min_score, controls, ...), taken out of it."""
    names = [field.name for field in dataclasses.fields(LoadOptions)]
    return LoadOptions(**{name: options.pop(name) for name in names if name in options})


def _quick(path, words=None, **options):
    """`quick.fill` with the loader's options gathered as the command line gathers them."""
    return quick.fill(path, words, _load_options(options), **options)


def _ordinary(path, words=None, **options):
    """(problem, result) the ordinary way: numpy problem, then run_fill."""
    problem = load_puzzle_problem(path, words, _load_options(options))[1]
    return problem, run_fill(problem, **options)


def _same_output(fast_problem, fast_result, problem, result) -> None:
    """Byte-for-byte the same JSON object and text (the seconds fixed), and every fill checked."""
    assert fast_result.status is result.status
    assert fast_result.fills == result.fills
    for entries in fast_result.fills:
        assert check_fill(problem, entries) == []
        assert check_fill(fast_problem, entries) == []
    fast_json = json.dumps(report.fill_dict(fast_problem, fast_result, 0.5))
    assert fast_json == json.dumps(report.fill_dict(problem, result, 0.5))
    assert report.fill_text(fast_problem, fast_result, 0.5) == report.fill_text(problem, result, 0.5)


@pytest.mark.parametrize("min_score", [50, 85])
def test_quick_fill_matches_the_ordinary_path(default_words, tmp_path, min_score, monkeypatch):
    """Fills, reasons and cores (the unfillable grids' `core`, found on the plain problem) all agree."""
    from xwcp.search.core import explain

    monkeypatch.setenv("XWCP_NO_RACE", "1")  # a grid slow enough to race would differ in the rival's pid
    statuses = []
    paths = _grids(tmp_path) if min_score == 50 else [p for p in _grids(tmp_path, 8) if "x" not in p.name[:3]]
    for path in paths:
        fast = _quick(path, min_score=min_score)
        assert fast is not None, path
        _, fast_problem, fast_result = fast
        assert kernel.is_plain(fast_problem), path
        problem, result = _ordinary(path, min_score=min_score)
        _same_output(fast_problem, fast_result, problem, result)
        if result.status is FillStatus.UNFILLABLE:
            cores = [
                _timeless(explain(p, seed_slot_id=r.slot_id, time_limit_s=None))
                for p, r in ((fast_problem, fast_result), (problem, result))
            ]
            assert cores[0] == cores[1], path
        statuses.append(result.status)
    assert statuses.count(FillStatus.FILLED) >= (12 if min_score == 50 else 1)
    assert statuses.count(FillStatus.UNFILLABLE) >= 3


@pytest.mark.parametrize(
    "options",
    [
        {"min_score": 60},
        {"allow_dupes": True},
        {"seed": 5},
        {"backend": "backtrack"},
        {"backend": "letters"},
        {"controls": make_controls(bans=["STABS", "SMASH"])},
        {"controls": make_controls(locks=["1A=ZZZZZ"])},
        {"controls": make_controls(slot_mins=["1A=80"], region="1,1:3,5")},
    ],
)
def test_quick_fill_matches_with_options(default_words, options):
    path = ROOT / "models" / "5x5-open.txt"
    fast = _quick(path, **options)
    assert fast is not None
    _same_output(fast[1], fast[2], *_ordinary(path, **options))


def test_initial_bitsets_equal_the_numpy_domains(default_words, tmp_path):
    mapped = read_mapped_word_list()
    for path in _grids(tmp_path):
        grid = parse_grid(path.read_text())
        controls = make_controls(bans=["AREA", "STAR"], slot_mins=[f"{find_slots(grid)[0].name}=70"])
        for options in ({}, {"min_score": 65, "controls": controls}, {"allow_dupes": True}):
            plain = compile_structure(grid, mapped, **options)
            domains = initial_domains(compile_structure(grid, default_words, **options))
            for slot_id, bits in enumerate(initial_bitsets(plain)):
                expected = np.flatnonzero(domains[slot_id]).tolist()
                members = [w for w, bit in enumerate(reversed(bin(bits)[2:])) if bit == "1"]  # bit w is word w
                assert members == expected, (path, slot_id)


def test_quick_path_does_not_apply(default_words, files):
    path = ROOT / "models" / "5x5-open.txt"
    assert _quick(path, backend="cpsat") is None
    assert _quick(path, controls=make_controls(max_shared_substring=3)) is None
    assert _quick("-") is None
    listed = files("words.txt", "STABS\nSMASH\n")
    assert _quick(path, [str(listed), str(listed)]) is None  # layered lists
    assert _quick(path, str(listed)) is None  # not compiled yet: the ordinary path compiles and caches it
    load_word_list(listed)
    fast = _quick(path, str(listed))
    assert fast is not None and fast[2].status is FillStatus.UNFILLABLE


def test_root_dead_end_is_reported_as_before(default_words):
    path = ROOT / "models" / "4x4-unfillable.txt"
    _, problem, result = _quick(path)
    _same_output(problem, result, *_ordinary(path))
    assert "7A (WOR.)" in result.reason


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--count", "3"],
        ["--count", "all", "--lock", "1A=STABS", "--lock", "1D=SMASH", "--lock", "6A=MARLA"],
        ["--out", "OUT.txt"],
    ],
)
def test_cli_fill_output_is_the_same_either_way(default_words, capsys, monkeypatch, tmp_path, options):
    options = [str(tmp_path / o) if o == "OUT.txt" else o for o in options]
    for name in ("5x5-open.txt", "4x4-unfillable.txt", "7x7-mini.txt"):
        if name != "5x5-open.txt" and "--lock" in options:
            continue
        path = ROOT / "models" / name
        outputs = []
        for use_quick in (True, False):
            if not use_quick:
                monkeypatch.setattr(quick, "fill", lambda *args, **kwargs: None)
            json_run = run(["fill", path, "--format", "json", *options], capsys)
            text_run = run(["fill", path, *options], capsys)
            written = Path(options[-1]).read_text() if "--out" in options else None
            data = json.loads(json_run[1])
            data.pop("seconds")
            data.pop("total_seconds", None)
            data.get("core", {}).pop("seconds", None)
            text = re.sub(r" in \d+\.\d\d s", " in - s", text_run[1])
            outputs.append((json_run[0], text_run[0], data, text, json_run[2], text_run[2], written))
            monkeypatch.undo()
        assert outputs[0] == outputs[1], name


def _python(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)


@pytest.mark.subprocess
def test_import_xwcp_cli_does_not_import_numpy():
    done = _python(
        "import sys, xwcp, xwcp.cli.commands; from xwcp import compile_problem; "
        "print('numpy' in sys.modules, 'xwcp.search.core' in sys.modules)"
    )
    assert done.stdout.split() == ["False", "False"], done.stderr


@pytest.mark.parametrize(
    "name, code, status", [("5x5-open.txt", "0", "filled"), ("4x4-unfillable.txt", "1", "unfillable")]
)
@pytest.mark.subprocess
def test_small_fill_command_does_not_import_numpy(default_words, name, code, status):
    done = _python(
        "import sys\nfrom xwcp.cli.commands import main\n"
        f"code = main(['fill', 'models/{name}', '--format', 'json'])\n"
        "print(code, 'numpy' in sys.modules, file=sys.stderr)"
    )
    assert done.stderr.split()[-2:] == [code, "False"], done.stderr
    data = json.loads(done.stdout)
    assert data["status"] == status and (status == "filled" or data["core"]["slots"] == ["7A", "4D"])


def test_list_warnings_are_said_once_either_way(files, capsys):
    """A list with a malformed line warns on every load: the quick path says the same, once."""
    listed = files("words.txt", "ABC;60\nB2D\nBCD\nACE\nBAD\nCAB\nDEB\n")
    grid = files("grid.txt", "...\n")
    first = run(["fill", grid, "--words", listed, "--format", "json"], capsys)  # compiles and caches the list
    second = run(["fill", grid, "--words", listed, "--format", "json"], capsys)  # from the cache: quick path
    assert quick.load_plain_problem(grid, str(listed)) is not None
    assert first[0] == second[0]
    assert first[2] == second[2] and first[2].count("malformed") == 1, first[2]
    data = json.loads(second[1])
    data.pop("seconds")
    expected = json.loads(first[1])
    expected.pop("seconds")
    assert data == expected


def test_the_auto_race_runs_on_a_plain_problem(default_words):
    """`auto` forks its rival at once (race_delay_s 0): the child searches the plain problem too."""
    from xwcp.backends import auto
    from xwcp.engine.result import Limits

    puzzle, problem = quick.load_plain_problem(ROOT / "models" / "7x7-mini.txt")
    result = auto.fill(problem, Limits(extra={"race_delay_s": 0.0}))
    assert result.status is FillStatus.FILLED and result.stats.extra["raced"] is True
    assert check_fill(problem, result.entries) == []
    assert check_fill(load_puzzle_problem(ROOT / "models" / "7x7-mini.txt")[1], result.entries) == []


def test_both_searches_share_the_log_table(default_words):
    """BitSearch and PlainBitSearch rank words by the same doubles (one table, by math.log), or their
    fills could differ; the values are the logs of the domain sizes."""
    size = 120_000
    table = kernel.word_count_logs(size)
    assert table is kernel.word_count_logs(size)
    assert np.allclose(
        np.frombuffer(table, np.float64), np.log(np.maximum(np.arange(size, dtype=np.float64), 1.0)), rtol=1e-15, atol=0
    )
    _, plain = quick.load_plain_problem(ROOT / "models" / "5x5-open.txt")
    ordinary = load_puzzle_problem(ROOT / "models" / "5x5-open.txt")[1]
    searches = [plain_kernel.PlainBitSearch(plain), kernel.BitSearch(ordinary)]
    assert [s.log_table[5] for s in searches] == [math.log(5)] * 2
    assert np.array_equal(np.asarray(searches[0].log_table[:]), searches[1].log_table)


@pytest.mark.parametrize(
    "text, options",
    [
        ("QZXJW\n.....\n.....\n.....\n.....\n", {"strict": True}),  # a complete entry the list lacks
        ("QZXJW\n.....\n.....\n.....\n.....\n", {}),
        ("STABS\n.....\nSTABS\n.....\n.....\n", {}),  # the same entry twice: a conflict
        ("S....\nT....\nA....\nB....\nS....\n", {"allow_dupes": True}),
        ("#....\n.....\n.....\n.....\n....#\n", {"min_score": 95}),
    ],
)
def test_quick_fill_matches_on_entered_grids(default_words, tmp_path, monkeypatch, text, options):
    from xwcp.search.core import explain

    monkeypatch.setenv("XWCP_NO_RACE", "1")
    path = tmp_path / "grid.txt"
    path.write_text(text)
    fast = _quick(path, **options)
    assert fast is not None and kernel.is_plain(fast[1])
    problem, result = _ordinary(path, **options)
    _same_output(fast[1], fast[2], problem, result)
    if result.status is FillStatus.UNFILLABLE:
        cores = [
            _timeless(explain(p, seed_slot_id=r.slot_id, time_limit_s=None))
            for p, r in ((fast[1], fast[2]), (problem, result))
        ]
        assert cores[0] == cores[1]
