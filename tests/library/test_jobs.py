"""The library as a Python user meets it (issue 28): one call per job, typed answers, inputs checked at the door."""

# BAD_CALLS passes wrong types on purpose: each is refused with the TypeError a caller would get
# mypy: disable-error-code="arg-type, list-item"
from __future__ import annotations

import json
from pathlib import Path

import pytest

import xwcp
from tests.helpers import entries_of, run
from xwcp.engine.result import check_fill

ROOT = Path(__file__).resolve().parents[2]
DAILY = ROOT / "models" / "15x15-daily-01.txt"
OPEN5 = ROOT / "models" / "5x5-open.txt"
DEAD4 = ROOT / "models" / "4x4-unfillable.txt"


def across_and_down(rows: list[str]) -> list[str]:
    """Every entry of a filled grid, read off its rows independently of xwcp."""
    out = [w for row in rows for w in row.split("#") if len(w) >= 2]
    for c in range(len(rows[0])):
        out += [w for w in "".join(r[c] for r in rows).split("#") if len(w) >= 2]
    return out


def assert_valid(answer: xwcp.FillAnswer) -> None:
    """Every fill of the answer passes check_fill, and its rows agree with its entries."""
    assert answer.problem is not None and answer.result is not None
    for index, filled in enumerate(answer.fills):
        assert check_fill(answer.problem, answer.result.fills[index]) == []
        assert entries_of(answer.problem, filled.rows) == answer.result.fills[index]
        assert sorted(across_and_down(filled.rows)) == sorted(filled.entries_by_name.values())


@pytest.fixture(scope="module")
def words():
    return xwcp.load_word_list()


# ----- the test contract of issue 28, from a path -------------------------------------------------


@pytest.mark.parametrize("as_path", [str, Path])
def test_fill_from_a_path(as_path):
    answer = xwcp.fill(as_path(DAILY), time_limit_s=30)
    assert answer.status is xwcp.FillStatus.FILLED
    assert isinstance(answer.rows, list) and all(isinstance(row, str) for row in answer.rows)
    assert len(answer.rows) == 15 and all(len(row) == 15 for row in answer.rows)
    assert answer["1A"] == answer.rows[0][:4] == answer.entries_by_name["1A"]
    assert answer["1a"] == answer["1A"]  # names in any case
    assert answer["1D"] == "".join(row[0] for row in answer.rows[:4])
    assert isinstance(answer.quality.mean_score, float) and isinstance(answer.quality.min_score, int)
    assert answer.quality.min_score >= 50
    assert_valid(answer)


def test_several_different_fills():
    answer = xwcp.fill(DAILY, count=3, min_diff=10, time_limit_s=60)
    assert answer.status is xwcp.FillStatus.FILLED
    assert len(answer.fills) == 3
    for filled in answer.fills:
        assert len(filled.rows) == 15
    assert_valid(answer)
    for i in range(3):
        for j in range(i + 1, 3):
            a, b = answer.fills[i].entries_by_name, answer.fills[j].entries_by_name
            assert sum(a[name] != b[name] for name in a) >= 10


def test_quality_fill_reports_its_quality():
    answer = xwcp.fill(OPEN5, quality=True, time_limit_s=1)
    assert answer.status is xwcp.FillStatus.FILLED
    assert answer.quality.min_score >= 50 and answer.quality.mean_score >= answer.quality.min_score
    assert_valid(answer)


def test_check_verdicts_and_core_names():
    fillable = xwcp.check(DAILY)
    assert fillable.verdict is xwcp.Verdict.FILLABLE and fillable.verdict.value == "fillable"
    assert fillable.core == () and len(fillable.fill) == 15
    dead = xwcp.check(str(DEAD4))
    assert dead.verdict is xwcp.Verdict.UNFILLABLE and dead.verdict.value == "unfillable"
    assert set(dead.core) == {"7A", "4D"}  # names, not ids
    assert "7A" in dead.reason and "4D" in dead.reason and dead.reason.endswith(".")
    assert {v.value for v in xwcp.Verdict} == {"fillable", "unfillable", "unknown"}


def test_check_unknown_when_the_solver_runs_out_of_time():
    answer = xwcp.check(ROOT / "models" / "15x15-themeless-01.txt", time_limit_s=0.01)
    assert answer.verdict in (xwcp.Verdict.UNKNOWN, xwcp.Verdict.FILLABLE)  # a lucky first dive may fill it
    if answer.verdict is xwcp.Verdict.UNKNOWN:
        assert answer.verdict.value == "unknown" and answer.core == ()


def test_domains_are_word_score_pairs(words):
    answer = xwcp.domains(DAILY)
    live = answer["6D"]
    assert isinstance(live, list) and live and all(isinstance(w, str) and isinstance(s, int) for w, s in live)
    assert all(len(w) == 6 for w, _ in live)
    assert len(live) == answer.size("6D")  # every live word when k is not given
    assert [s for _, s in live] == sorted((s for _, s in live), reverse=True)  # best first
    assert all(words.score(w) == s for w, s in live[:50])
    assert answer["6d"] == live and "6D" in answer and len(answer) == 76
    top = xwcp.domains(DAILY, slot="6d", k=5)
    assert list(top) == ["6D"] and top["6D"] == live[:5]


def test_suggest_items_have_word_score_and_verdict():
    plain = xwcp.suggest(DAILY, "6D", k=10)
    assert len(plain) == 10 and all(isinstance(s.word, str) and isinstance(s.score, int) for s in plain)
    assert all(s.verdict is None for s in plain) and plain.slot.name == "6D"
    verified = xwcp.suggest(str(DAILY), "6D", k=3, verify=True, time_limit_s=10)
    assert [s.word for s in verified] == [s.word for s in plain[:3]]
    assert all(isinstance(s.verdict, xwcp.Viability) for s in verified)
    assert {s.verdict.value for s in verified} <= {"viable", "dead-end", "unknown"}


def test_verified_suggestions_stop_when_their_abort_is_set():
    """`Session.suggest(verify=True, abort=event)`: the web builder's newer search sets it; the words not settled
    by then stay unknown, long before the time limit (the open 7x7 has no fill within seconds)."""
    import threading
    import time

    abort = threading.Event()
    session = xwcp.Session("\n".join(["......."] * 7))
    threading.Timer(0.5, abort.set).start()
    start = time.monotonic()
    got = session.suggest("1A", k=5, verify=True, time_limit_s=30, abort=abort)
    assert time.monotonic() - start < 10  # not the 30 s limit
    assert len(got) == 5 and all(s.verdict is xwcp.Viability.UNKNOWN for s in got)


def test_a_proven_dead_end_names_the_slots_its_proof_used():
    """`suggest(verify=True)`: each dead end our search proved carries `proof_slots`; those slots alone, with the
    word in its slot, have no fill (checked by an exhaustive fill of that part); viable words carry none."""
    from tests.analysis.test_probe import THEMED
    from xwcp.backends import fill
    from xwcp.backends.core_oracle import sub_problem
    from xwcp.compile.problem import with_word

    got = xwcp.suggest(xwcp.parse_grid(THEMED), "1D", k=40, verify=True, time_limit_s=60)
    dead = [s for s in got if s.verdict is xwcp.Viability.DEAD_END]
    assert dead and all(s.proof_slots and "1D" in s.proof_slots for s in dead)
    assert all(s.proof_slots is None for s in got if s.verdict is xwcp.Viability.VIABLE)
    problem = xwcp.compile_problem(xwcp.parse_grid(THEMED), xwcp.load_word_list())
    slot_id = problem.slot_by_name("1D").id
    for s in dead[:3]:
        only = sub_problem(
            with_word(problem, slot_id, s.word), [problem.slot_by_name(name).id for name in s.proof_slots]
        )
        assert fill(only, "backtrack", xwcp.Limits()).status is xwcp.FillStatus.UNFILLABLE, s.word


def test_heatmap_counts_and_picture(tmp_path):
    answer = xwcp.heatmap(DAILY)
    assert len(answer.counts) == 15 and all(len(row) == 15 for row in answer.counts)
    assert answer.counts[0][4] is None  # a block
    assert all(n is None or 0 <= n <= 26 for row in answer.counts for n in row)
    grid = xwcp.read_grid(DAILY)
    assert all(
        (n is None) == (grid.cell(r, c) == "#") for r, row in enumerate(answer.counts) for c, n in enumerate(row)
    )
    array = answer.to_numpy()
    assert array.shape == (15, 15) and array[0, 4] != array[0, 4]  # NaN for a block
    written = answer.save_png(tmp_path / "heat")
    assert written == tmp_path / "heat.png" and written.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_find_core_names_the_slots():
    core = xwcp.find_core(DEAD4)
    assert core is not None and set(core.slots) == {"7A", "4D"} and core.is_minimal
    assert sorted(core) == ["4D", "7A"] and "cross" in core.message
    assert xwcp.find_core(OPEN5) is None  # fillable: nothing to explain


# ----- inputs in every form a user has them ----------------------------------------------------------


def test_grid_as_text_rows_grid_and_puzzle():
    text = OPEN5.read_text()
    rows = [".....", "....."] * 2 + ["....."]
    for grid in (text, rows, xwcp.read_grid(OPEN5), xwcp.read_puzzle(OPEN5)):
        answer = xwcp.fill(grid, time_limit_s=10)
        assert answer.status is xwcp.FillStatus.FILLED and len(answer.rows) == 5


def test_lower_case_locks_and_bans_str_list_set(words):
    answer = xwcp.fill(OPEN5, locks={"1a": "crane"}, time_limit_s=10)
    assert answer["1A"] == "CRANE"
    first = xwcp.fill(OPEN5, time_limit_s=10)
    banned_word = first["1A"]
    for bans in (banned_word.lower(), [banned_word.lower()], {banned_word.lower(), "zzzzz"}):
        again = xwcp.fill(OPEN5, bans=bans, time_limit_s=10)
        assert banned_word not in again.entries_by_name.values()
        assert_valid(again)
    one = xwcp.Controls(bans="STABS")  # one word, not its letters
    assert one.bans == frozenset({"STABS"})


def test_lock_by_slot_id_region_text_and_slot_min():
    problem = xwcp.compile_problem(OPEN5, None)
    answer = xwcp.fill(problem.grid, locks={0: "crane"}, time_limit_s=10)
    assert answer[problem.slots[0].name] == "CRANE"
    region = xwcp.fill(OPEN5, region="1,1:3,3", time_limit_s=10)
    assert region.status is xwcp.FillStatus.FILLED and region.rows[4] == "....."
    assert xwcp.fill(OPEN5, region=(1, 1, 3, 3), time_limit_s=10).rows == region.rows
    floored = xwcp.fill(OPEN5, min_score_by_slot={"1a": 80}, time_limit_s=10)
    assert floored.entries[0].name == "1A" and floored.entries[0].score >= 80


def test_words_as_a_dict_a_list_pairs_and_layered_files(tmp_path):
    pairs = [("CAT", 60), ("ARE", 50), ("TEN", 50), ("CAN", 50), ("ATE", 50), ("TEN", 40), ("REN", 50)]
    words = ["cat", "are", "ten", "can", "ate", "ren", "ire", "tar", "ear", "tie"]
    grid = "...\n...\n...\n"
    for given in (dict(pairs), pairs, words):
        answer = xwcp.check(grid, given)
        assert isinstance(answer.verdict, xwcp.Verdict)
    a = tmp_path / "a.dict"
    b = tmp_path / "b.dict"
    a.write_text("\n".join(f"{w};50" for w in words))
    b.write_text("CAT;0\n")  # removes CAT
    layered = xwcp.domains(grid, [a, b], slot="1A")
    assert "CAT" not in {w for w, _ in layered["1A"]}
    assert "CAT" in {w for w, _ in xwcp.domains(grid, [a], slot="1A")["1A"]}
    assert "CAT" in {w for w, _ in xwcp.domains(grid, str(a), slot="1A")["1A"]}


def test_session_compiles_once_and_answers_every_job(tmp_path):
    session = xwcp.Session(DAILY, locks={"1A": "ache"})
    problem = session.problem
    assert session.domains()["1A"] == [("ACHE", session.words.score("ACHE"))]
    assert session.suggest("1D", k=3)[0].word[0] == "A"
    assert session.heatmap().counts[0][0] == 0 or session.heatmap().letters[0][0] == "A"
    answer = session.fill(time_limit_s=30)
    assert answer["1A"] == "ACHE" and session.problem is problem
    assert_valid(answer)
    entered = session.with_entry("1d", answer["1D"].lower())
    assert entered.problem.pattern(entered.problem.slot_by_name("1D").id) == answer["1D"]
    assert session.problem.pattern(session.problem.slot_by_name("1D").id) == "A..."  # the original is kept
    out = answer.save(tmp_path / "filled.puz")
    assert xwcp.read_puzzle(out).grid.rows == answer.rows


def test_a_compiled_problem_is_a_grid_too():
    problem = xwcp.compile_problem(xwcp.read_grid(OPEN5), xwcp.load_word_list())
    assert xwcp.fill(problem, time_limit_s=10).status is xwcp.FillStatus.FILLED
    with pytest.raises(TypeError, match="carries its own"):
        xwcp.Session(problem, locks={"1A": "CRANE"})


# ----- the failures issue 28 lists, each now working or a clear error -------------------------------


def test_the_listed_crashes_are_gone():
    from xwcp.backends import fill

    words = xwcp.load_word_list()
    problem = xwcp.compile_problem(str(DAILY), words, controls=xwcp.Controls(locks={"2d": "ice cream"}))
    assert problem.pattern(problem.slot_by_name("2D").id) == "ICECREAM"
    assert xwcp.Controls(locks={"18a": "crosswords"}).locks == {"18A": "CROSSWORDS"}
    assert xwcp.Controls(bans={"esne"}).bans == frozenset({"ESNE"})
    assert xwcp.Controls(region="1,1:3,3").region == (1, 1, 3, 3)
    small = xwcp.compile_problem(str(OPEN5), words)
    result = fill(small, "auto", 10)  # a number of seconds is a time limit
    assert result.status is xwcp.FillStatus.FILLED
    with pytest.raises(ValueError, match="fill_index 5 is out of range: this result has 1 fill"):
        result.grid(small, 5)
    with pytest.raises(TypeError, match="limits must be xwcp.Limits or a number of seconds, not str"):
        fill(small, "auto", "10")
    with pytest.raises(TypeError, match="problem must be an xwcp.Problem"):
        fill("grid.txt", "auto")


BAD_CALLS = [
    (lambda: xwcp.fill(OPEN5, locks={"1A": 5}), TypeError, "locks"),
    (lambda: xwcp.fill(OPEN5, locks={"1A": "crane!"}), ValueError, "locks="),
    (lambda: xwcp.fill(OPEN5, locks={"9Z": "crane"}), ValueError, "nearest"),
    (lambda: xwcp.fill(OPEN5, locks={99: "crane"}), ValueError, "no slot id 99"),
    (lambda: xwcp.fill(OPEN5, locks={"1A": "cranes"}), ValueError, "1A has 5 letters"),
    (lambda: xwcp.fill(OPEN5, locks={"1A": "crane"}, bans="crane"), ValueError, "also banned"),
    (lambda: xwcp.fill(OPEN5, locks=5), TypeError, "locks"),
    (lambda: xwcp.fill(OPEN5, bans=5), TypeError, "bans"),
    (lambda: xwcp.fill(OPEN5, bans=[5]), TypeError, "bans"),
    (lambda: xwcp.fill(OPEN5, region="1,1"), ValueError, "region"),
    (lambda: xwcp.fill(OPEN5, region=(3, 3, 1, 1)), ValueError, "empty"),
    (lambda: xwcp.fill(OPEN5, region=(1, 1, 9, 9)), ValueError, "outside"),
    (lambda: xwcp.fill(OPEN5, region=(1, 1, 3)), TypeError, "region"),
    (lambda: xwcp.fill(OPEN5, min_score_by_slot={"1A": "high"}), ValueError, "min_score_by_slot"),
    (lambda: xwcp.fill(OPEN5, max_shared_substring=0), ValueError, "max_shared_substring"),
    (lambda: xwcp.fill(OPEN5, min_score="50"), TypeError, "min_score"),
    (lambda: xwcp.fill(OPEN5, time_limit_s="5"), TypeError, "time_limit_s"),
    (lambda: xwcp.fill(OPEN5, time_limit_s=-1), ValueError, "time_limit_s"),
    (lambda: xwcp.fill(OPEN5, seed=-1), ValueError, "seed"),
    (lambda: xwcp.fill(OPEN5, seed=1.5), TypeError, "seed"),
    (lambda: xwcp.fill(OPEN5, count=-2), ValueError, "count"),
    (lambda: xwcp.fill(OPEN5, count=2, min_diff=0), ValueError, "min_diff"),
    (lambda: xwcp.fill(OPEN5, min_diff=3), ValueError, "min_diff=3 needs count"),
    (lambda: xwcp.fill(OPEN5, count=2, min_diff=99), ValueError, "more than the 10 open slots"),
    (lambda: xwcp.fill(OPEN5, quality=True, count=0), ValueError, "count=0"),
    (lambda: xwcp.fill(OPEN5, quality="yes"), TypeError, "quality"),
    (lambda: xwcp.fill(OPEN5, backend="nosuch"), ValueError, "unknown backend"),
    (lambda: xwcp.fill(OPEN5, backend=3), TypeError, "backend"),
    (lambda: xwcp.fill(12), TypeError, "grid must be"),
    (lambda: xwcp.fill("no-such-grid.txt"), ValueError, "no such grid file"),
    (lambda: xwcp.fill("#...#"), ValueError, "line break"),
    (lambda: xwcp.fill("...\n..x!\n"), ValueError, "row 2"),
    (lambda: xwcp.fill(OPEN5, words=5), TypeError, "words"),
    (lambda: xwcp.fill(OPEN5, words="no-such-list.txt"), ValueError, "no-such-list"),
    (lambda: xwcp.fill(OPEN5, words=[]), ValueError, "words is empty"),
    (lambda: xwcp.fill(OPEN5, words={"cat": "high"}), TypeError, "words"),
    (lambda: xwcp.domains(OPEN5, slot="9Z"), ValueError, "unknown slot '9Z'"),
    (lambda: xwcp.domains(OPEN5, slot=2.5), TypeError, "slot"),
    (lambda: xwcp.domains(OPEN5, k=0), ValueError, "k must be at least 1"),
    (lambda: xwcp.domains(OPEN5, by="size"), ValueError, "by must be one of"),
    (lambda: xwcp.suggest(OPEN5, "1A", k="3"), TypeError, "k must be"),
    (lambda: xwcp.suggest(OPEN5, "1A", show_fill=True), ValueError, "show_fill=True needs verify=True"),
    (lambda: xwcp.heatmap(OPEN5).save_png(5), TypeError, "path"),
    (lambda: xwcp.heatmap(OPEN5).save_png("/tmp/heat.nosuchformat"), ValueError, "cannot draw"),
    (lambda: xwcp.fill(OPEN5)["9Z"], KeyError, "no slot"),
    (lambda: xwcp.fill(DEAD4)["1A"], LookupError, "no fill: the status is unfillable"),
    (lambda: xwcp.fill(OPEN5).save("/tmp/x.nosuch"), ValueError, "unknown puzzle file extension"),
    (lambda: xwcp.fill(OPEN5).save("/tmp/x.puz", 3), ValueError, "fill_index 3"),
    (lambda: xwcp.Limits(time_limit_s="5"), TypeError, "time_limit_s"),
    (lambda: xwcp.Limits(seed=None), TypeError, "seed"),
    (lambda: xwcp.compile_problem(OPEN5, None, min_score="50"), TypeError, "min_score"),
    (lambda: xwcp.compile_problem(OPEN5, None, controls={"locks": {}}), TypeError, "controls"),
]


@pytest.mark.parametrize("call, error, fragment", BAD_CALLS, ids=range(len(BAD_CALLS)))
def test_wrong_inputs_raise_clear_errors(call, error, fragment):
    """Each wrong type or value raises TypeError or InputError (a ValueError) naming the argument; never an
    IndexError or AttributeError from inside."""
    with pytest.raises(error) as caught:
        call()
    assert fragment in str(caught.value)
    assert not isinstance(caught.value, (IndexError, AttributeError))
    if error is ValueError and "fill_index" not in fragment:
        assert isinstance(caught.value, xwcp.InputError)


def test_messages_speak_to_their_caller(capsys):
    with pytest.raises(xwcp.InputError) as caught:
        xwcp.fill(OPEN5, locks={"1A": "cranes"})
    assert str(caught.value).startswith("locks={'1A': 'CRANES'}: ")
    code, _, err = run(["fill", OPEN5, "--lock", "1A=cranes"], capsys)
    assert code == 2 and "--lock 1A=CRANES: 1A has 5 letters" in err
    with pytest.raises(xwcp.InputError, match=r"^region=\(1, 1, 9, 9\) is outside"):
        xwcp.fill(OPEN5, region=(1, 1, 9, 9))
    code, _, err = run(["fill", OPEN5, "--region", "1,1:9,9"], capsys)
    assert code == 2 and "--region 1,1:9,9 is outside" in err


# ----- the CLI prints the same objects -------------------------------------------------------------


@pytest.mark.parametrize(
    "command, call",
    [
        (["check", DEAD4], lambda: xwcp.check(DEAD4)),
        (["domains", DAILY, "--slot", "6D", "-k", "5"], lambda: xwcp.domains(DAILY, slot="6D", k=5)),
        (["suggest", DAILY, "--slot", "6D", "-k", "5"], lambda: xwcp.suggest(DAILY, "6D", k=5)),
        (["heatmap", DAILY], lambda: xwcp.heatmap(DAILY)),
        (["fill", OPEN5], lambda: xwcp.fill(OPEN5)),
    ],
)
def test_cli_json_is_the_answers_dict(capsys, command, call):
    code, out, _ = run(command + ["--format", "json"], capsys)
    printed = json.loads(out)
    mine = json.loads(json.dumps(call().as_dict()))
    for volatile in ("seconds", "total_seconds", "stats", "solver", "backend"):
        printed.pop(volatile, None)
        mine.pop(volatile, None)
    if "core" in printed:
        for key in ("seconds", "oracle_calls"):
            printed["core"].pop(key)
            mine["core"].pop(key)
    assert printed == mine


def test_cli_fill_text_is_the_answers_text(capsys):
    code, out, _ = run(["fill", OPEN5], capsys)
    mine = xwcp.fill(OPEN5).text()
    assert code == 0 and out.rstrip("\n").splitlines()[:-1] == mine.splitlines()[:-1]  # the last line has the time


ODD_VALUES = [None, -1, 1.5, float("nan"), "", "x", [], {}, object(), b"x", True, (1, 2), {"1A": None}]
"""Values of the wrong type or range that a caller may pass to any argument."""
FILL_OPTIONS = [
    "words",
    "min_score",
    "locks",
    "bans",
    "min_score_by_slot",
    "region",
    "max_shared_substring",
    "allow_dupes",
    "strict",
    "backend",
    "time_limit_s",
    "seed",
    "count",
    "min_diff",
    "quality",
    "progress",
]


@pytest.mark.parametrize("option", FILL_OPTIONS)
def test_odd_values_never_crash_inside(option):
    """Any value of any option either works or raises TypeError / InputError, never an error from inside."""
    limit_s = 0.5 if option == "quality" else 2  # a quality fill runs to its limit; a first fill takes milliseconds
    for value in ODD_VALUES:
        options = {option: value, **({} if option == "time_limit_s" else {"time_limit_s": limit_s})}
        if option == "min_diff":
            options["count"] = 2
        try:
            answer = xwcp.fill(OPEN5, **options)
        except TypeError:
            continue
        except ValueError as exc:
            assert isinstance(exc, xwcp.InputError), (option, value, exc)
            continue
        assert isinstance(answer.status, xwcp.FillStatus)
        assert_valid(answer)


@pytest.mark.parametrize(
    "job",
    [
        lambda v: xwcp.domains(OPEN5, slot=v),
        lambda v: xwcp.domains(OPEN5, k=v),
        lambda v: xwcp.domains(OPEN5, by=v),
        lambda v: xwcp.suggest(OPEN5, v),
        lambda v: xwcp.suggest(OPEN5, "1A", verify=v, time_limit_s=2),
        lambda v: xwcp.check(OPEN5, time_limit_s=v),
        lambda v: xwcp.heatmap(OPEN5, core=v),
        lambda v: xwcp.find_core(DEAD4, backend=v),
        lambda v: xwcp.Session(OPEN5).with_entry("1A", v),
    ],
    ids=[
        "domains-slot",
        "domains-k",
        "domains-by",
        "suggest-slot",
        "suggest-verify",
        "check-limit",
        "heatmap-core",
        "core-backend",
        "with-entry",
    ],
)
def test_odd_values_to_the_other_jobs(job):
    for value in ODD_VALUES:
        try:
            job(value)
        except TypeError:
            pass
        except ValueError as exc:
            assert isinstance(exc, xwcp.InputError), (value, exc)
