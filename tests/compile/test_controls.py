"""The constructor's controls: locks, bans, slot floors, regions, layered lists, shared substrings, diverse fills."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.backends.test_backends import SMALL_PAIRS, brute_force_fills
from tests.helpers import run
from xwcp.backends import available_backends, fill
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.compile.controls import Controls, make_controls
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.model import parse_grid, read_grid
from xwcp.services.load import LoadOptions, load_problem
from xwcp.services.run import run_fill
from xwcp.words.wordlist import words_from_pairs

ROOT = Path(__file__).resolve().parents[2]
DAILY = ROOT / "models" / "15x15-daily-01.txt"


@pytest.fixture(params=available_backends())
def backend(request):
    return request.param


def words_in(rows):
    """Every entry of a filled grid (rows), across then down, read independently of xwcp."""
    out = []
    for row in rows:
        out += [w for w in row.split("#") if len(w) >= 2]
    for c in range(len(rows[0])):
        out += [w for w in "".join(r[c] for r in rows).split("#") if len(w) >= 2]
    return out


def longest_common_substring(a, b):
    return max(
        (k for k in range(1, min(len(a), len(b)) + 1) for i in range(len(a) - k + 1) if a[i : i + k] in b), default=0
    )


def small_lock_and_ban():
    """A lock for 1A and a ban that rules out some (not all) fills with that lock, with the fills left."""
    words = [w for w, _ in SMALL_PAIRS]
    fills = brute_force_fills(("...", "...", "..."), words)
    for lock in sorted({f[0] for f in fills}):
        with_lock = [f for f in fills if f[0] == lock]
        for ban in sorted({w for f in with_lock for w in words_in(f)} - {lock}):
            left = [f for f in with_lock if ban not in words_in(f)]
            if left and len(left) < len(with_lock):
                return lock, ban, set(left)
    raise AssertionError("no suitable lock and ban in the small list")


def test_locks_kept_and_bans_honoured_in_every_backend(backend):
    lock, ban, expected = small_lock_and_ban()
    controls = Controls(locks={"1A": lock}, bans=frozenset({ban}))
    problem = compile_problem(
        parse_grid("...\n...\n...\n"), words_from_pairs(SMALL_PAIRS), min_score=0, controls=controls
    )
    result = fill(problem, backend, Limits(time_limit_s=30))
    assert result.status is FillStatus.FILLED, result.reason
    rows = tuple(result.grid(problem).rows)
    assert rows in expected and rows[0] == lock and ban not in words_in(rows)
    assert check_fill(problem, result.entries) == []
    # the checker itself refuses a banned word
    bad = list(result.entries)
    other = next(i for i, s in enumerate(problem.slots) if s.id not in problem.fixed_text_by_slot)
    bad[other] = ban
    assert any("banned" in v for v in check_fill(problem, bad))


def test_a_lock_the_list_lacks_is_kept_in_every_backend(backend):
    words = words_from_pairs(["XAB", "YCD", "ZEF", "ACE", "BDF"])
    problem = compile_problem(parse_grid("...\n...\n...\n"), words, min_score=0, controls=Controls(locks={"1A": "XYZ"}))
    assert any("not in the word list" in note for note in problem.notes)
    result = fill(problem, backend, Limits(time_limit_s=30))
    assert result.status is FillStatus.FILLED, result.reason
    assert result.grid(problem).rows == ["XYZ", "ACE", "BDF"]


def test_shared_substrings_respected_in_every_backend(backend):
    words = [w for w, _ in SMALL_PAIRS]
    fills = brute_force_fills(("...", ".#.", "..."), words)
    ok = {
        f
        for f in fills
        if all(longest_common_substring(a, b) <= 1 for i, a in enumerate(words_in(f)) for b in words_in(f)[i + 1 :])
    }
    assert fills and ok != fills  # the control matters on this grid
    problem = compile_problem(
        parse_grid("...\n.#.\n...\n"),
        words_from_pairs(SMALL_PAIRS),
        min_score=0,
        controls=Controls(max_shared_substring=1),
    )
    result = fill(problem, backend, Limits(time_limit_s=30))
    if ok:
        assert result.status is FillStatus.FILLED and tuple(result.grid(problem).rows) in ok
    else:
        assert result.status is FillStatus.UNFILLABLE


def test_shared_substrings_on_a_15x15(default_words):
    problem = compile_problem(read_grid(DAILY), default_words, controls=Controls(max_shared_substring=4))
    result = fill(problem, "auto", Limits(time_limit_s=60))
    assert result.status is FillStatus.FILLED
    entries = words_in(result.grid(problem).rows)
    assert all(longest_common_substring(a, b) <= 4 for i, a in enumerate(entries) for b in entries[i + 1 :])


def test_region_fill_keeps_everything_outside(default_words):
    grid = read_grid(DAILY)
    problem = compile_problem(grid, default_words, controls=Controls(region=(1, 1, 4, 6)))
    result = fill(problem, "auto", Limits(time_limit_s=60))
    assert result.status is FillStatus.FILLED
    out = result.grid(problem)
    for cell, given in enumerate(grid.cells):
        row, col = divmod(cell, grid.width)
        inside = row < 4 and col < 6
        if not inside:
            assert out.cells[cell] == given, (row, col)
        elif given != "#":
            assert out.cells[cell].isalpha()
    # every slot crossing the border can still be completed with a listed word
    texts_by_length = {}
    for slot in problem.slots:
        cells_inside = [c for c in slot.cells if divmod(c, grid.width)[0] < 4 and divmod(c, grid.width)[1] < 6]
        if cells_inside and len(cells_inside) < slot.length:
            pattern = "".join(out.cells[c] for c in slot.cells)
            bucket = default_words.bucket(slot.length)
            texts = texts_by_length.setdefault(slot.length, [bucket.text(i) for i in range(bucket.n_words)])
            assert any(re.fullmatch(pattern, t) and default_words.score(t) >= 50 for t in texts), pattern


def test_region_fill_in_every_backend(backend):
    words = words_from_pairs(SMALL_PAIRS)
    problem = compile_problem(parse_grid("...\n...\n...\n"), words, min_score=0, controls=Controls(region=(1, 1, 1, 3)))
    result = fill(problem, backend, Limits(time_limit_s=30))
    assert result.status is FillStatus.FILLED
    rows = result.grid(problem).rows
    assert rows[1:] == ["...", "..."] and rows[0].isalpha()
    # the three down slots cross the border: each must still have a word
    listed = [w for w, _ in SMALL_PAIRS]
    assert all(any(w[0] == rows[0][c] for w in listed if len(w) == 3) for c in range(3))


def test_layered_lists_override_and_remove(tmp_path):
    a = tmp_path / "a.dict"
    a.write_text("CAT;50\nDOG;60\nEMU;70\n")
    b = tmp_path / "b.dict"
    b.write_text("DOG;90\nEMU;0\nFOX;40\n")
    grid = tmp_path / "g.txt"
    grid.write_text("...\n")
    problem = load_problem(grid, [a, b], LoadOptions(min_score=0))
    words = problem.words
    assert (words.score("CAT"), words.score("DOG"), words.score("EMU"), words.score("FOX")) == (50, 90, None, 40)
    again = load_problem(grid, [a, b], LoadOptions(min_score=0))  # second load from the layered cache
    assert again.words.score("DOG") == 90 and again.words.score("EMU") is None


def test_slot_floor(default_words):
    problem = compile_problem(read_grid(DAILY), default_words, controls=Controls(min_score_by_slot={"1A": 90}))
    result = fill(problem, "auto", Limits(time_limit_s=60))
    assert result.status is FillStatus.FILLED
    slot = problem.slot_by_name("1A")
    assert default_words.score(result.entries[slot.id]) >= 90
    low = next(t for t in ("AAHS", "ABCS", "ACHE", "ABED") if (default_words.score(t) or 100) < 90)
    bad = list(result.entries)
    bad[slot.id] = low
    assert any("below the minimum 90" in v for v in check_fill(problem, bad))


def test_min_diff_pairs_differ(default_words):
    problem = compile_problem(read_grid(DAILY), default_words)
    result = run_fill(problem, count=3, min_diff=15, time_limit_s=60)
    assert result.status is FillStatus.FILLED and len(result.fills) == 3
    for entries in result.fills:
        assert check_fill(problem, entries) == []
    grids = [words_in(result.grid(problem, i).rows) for i in range(3)]
    for i in range(3):
        for j in range(i + 1, 3):
            assert sum(1 for x, y in zip(grids[i], grids[j]) if x != y) >= 15


def test_seeds_give_different_fills(default_words):
    problem = compile_problem(read_grid(DAILY), default_words)
    a = fill(problem, "auto", Limits(time_limit_s=60, seed=1)).entries
    b = fill(problem, "auto", Limits(time_limit_s=60, seed=2)).entries
    assert a != b


def test_domains_rank_by_score_then_fit(capsys):
    code, out, _ = run(["domains", DAILY, "--slot", "1A", "-k", "15", "--format", "json"], capsys)
    assert code == 0
    words = json.loads(out)["slots"][0]["words"]
    keys = [(-w["score"], -w["fit"]) for w in words]
    assert keys == sorted(keys)
    code, out, _ = run(["domains", DAILY, "--slot", "1A", "-k", "15", "--by", "fit", "--format", "json"], capsys)
    fits = [w["fit"] for w in json.loads(out)["slots"][0]["words"]]
    assert fits == sorted(fits, reverse=True)


def test_controls_reach_domains_suggest_and_check(capsys):
    code, out, _ = run(["domains", DAILY, "--slot", "1A", "--lock", "1A=ACHE", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["slots"][0]["words"][0]["word"] == "ACHE"
    code, out, _ = run(["suggest", DAILY, "--slot", "1D", "--ban", "ASAP", "-k", "50", "--format", "json"], capsys)
    assert code == 0 and "ASAP" not in [w["word"] for w in json.loads(out)["words"]]
    code, out, _ = run(["check", DAILY, "--lock", "1A=ACHE", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["fill"][0].startswith("ACHE")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--lock", "1A=ACHES"], "1A has 4 letters"),
        (["--lock", "1A=ACHE", "--lock", "1D=BXXX"], "clashes with --lock 1A=ACHE"),
        (["--lock", "1A=ACHE", "--ban", "ACHE"], "also banned"),
        (["--region", "1,1:40,3"], "outside"),
        (["--region", "5,5:2,2"], "empty"),
        (["--region", "nonsense"], "R1,C1:R2,C2"),
        (["--lock", "1Q=ACHE"], "nearest: 1A, 1D"),
        (["--slot-min", "99A=60"], "nearest"),
        (["--count", "2", "--min-diff", "500"], "more than the"),
        (["--min-diff", "3"], "needs --count"),
    ],
)
def test_bad_controls_exit_2(args, message, capsys):
    code, _, err = run(["fill", DAILY, *args], capsys)
    assert code == 2, err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_lock_clashing_with_the_grid_names_slot_and_cell(tmp_path, capsys):
    grid = tmp_path / "g.txt"
    grid.write_text("CAT\n...\n...\n")
    code, _, err = run(["fill", grid, "--lock", "1D=DOG"], capsys)
    assert code == 2 and "1D=DOG" in err and "grid's C at row 1, column 1" in err


def test_make_controls_rejects_a_banned_lock():
    with pytest.raises(InputError, match="also banned"):
        make_controls(locks=["1A=ACHE"], bans=["ache"])


def test_min_diff_holds_for_quality_fills_too():
    """Three slots crossing nothing, each length with its own words: the best fill takes each length's best word,
    and the second, 3 entries apart, each length's next best (without min_diff it would change one slot only);
    each fill's quality is the quality search's, its floor and mean proven best."""
    grid = parse_grid("...##\n#####\n....#\n#####\n.....\n")
    scored = [("CAT", 90), ("DOG", 80), ("EEL", 70), ("BEAR", 95), ("LION", 85), ("WOLF", 75)]
    problem = compile_problem(grid, words_from_pairs([*scored, ("HORSE", 99), ("SHEEP", 89), ("GOATS", 79)]))
    result = run_fill(problem, count=2, min_diff=3, quality=True, time_limit_s=10)  # both proven best at once
    assert result.status is FillStatus.FILLED
    assert result.fills == (("CAT", "BEAR", "HORSE"), ("DOG", "LION", "SHEEP"))
    assert all(check_fill(problem, entries) == [] for entries in result.fills)
    assert [q.min_score for q in result.qualities] == [90, 80]
    assert all(q.floor_optimal and q.mean_bound == q.mean_score for q in result.qualities)


@pytest.mark.parametrize("command", ["domains", "heatmap", "check"])
def test_region_works_in_the_analysis_commands(command, capsys):
    code, out, err = run([command, DAILY, "--region", "1,1:4,4", "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    if command == "heatmap":
        assert data["cells"][0][5] == 26  # outside the region, empty and left out: not a dead cell
    if command == "check":
        original = read_grid(DAILY).rows
        assert all(row[4:] == given[4:] for row, given in zip(data["fill"], original))
        assert all(row == given for row, given in zip(data["fill"][4:], original[4:]))


def test_verify_dead_end_means_no_fill_at_the_current_floor():
    # scores chosen so that a 1A word fits at floor 0 but every fill with it has an entry below 60
    from xwcp.analysis.questions import suggest_report
    from xwcp.render.questions_json import suggest_json

    score_by_word = {w: 40 + 10 * (i % 5) for i, (w, _) in enumerate(SMALL_PAIRS)}
    fills = brute_force_fills(("...", "...", "..."), list(score_by_word))
    verdicts = set()
    for floor in (40, 50, 60):
        problem = compile_problem(
            parse_grid("...\n...\n...\n"), words_from_pairs(score_by_word.items()), min_score=floor
        )
        data = suggest_json(suggest_report(problem, "1A", k=50, verify=True, backend="backtrack", time_limit_s=10))
        for word in data["words"]:
            viable = any(f[0] == word["word"] and min(score_by_word[w] for w in words_in(f)) >= floor for f in fills)
            assert word["verdict"] == ("viable" if viable else "dead-end"), (floor, word)
            verdicts.add(word["verdict"])
    assert verdicts == {"viable", "dead-end"}  # the floor decides some verdicts
