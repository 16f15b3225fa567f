"""Suggestions, heat map, check and suggest --verify: values a constructor relies on."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.helpers import entries_of
from xwcp.analysis import questions as analysis
from xwcp.analysis.questions import heatmap_report
from xwcp.backends import fill
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.cli.commands import main
from xwcp.compile.problem import compile_problem
from xwcp.engine.ac3 import propagate
from xwcp.engine.result import Limits, check_fill
from xwcp.model import parse_grid
from xwcp.render.questions_json import check_json, heatmap_json
from xwcp.words.wordlist import words_from_pairs


def problem_of(text, words, **kw):
    return compile_problem(parse_grid(text), words_from_pairs(words), min_score=0, **kw)


def test_ranking_prefers_words_that_leave_crossings_options_then_score():
    # 1A is the top row of a 2x3 grid; the columns are 2-letter slots. A top word whose
    # letters start many column words ranks first; equal fit falls back to score.
    words = [
        ("ABC", 50),
        ("ABD", 90),
        ("XYZ", 95),
        ("AA", 50),
        ("AB", 50),
        ("BA", 50),
        ("BB", 50),
        ("CA", 50),
        ("DA", 50),
        ("DB", 50),
        ("XA", 50),
        ("YA", 50),
        ("ZA", 50),
        ("CC", 50),
    ]
    problem = compile_problem(parse_grid("...\n...\n"), words_from_pairs(words), min_score=0)
    prop = propagate(problem)
    top = problem.slot_by_name("1A")
    ranked = analysis.rank_words(problem, prop, top.id)
    by_word = {r.word: r for r in ranked}
    counts = prop.counts_by_slot
    for r in ranked:
        expected = np.mean([np.log10(counts[problem.cross_slot[top.id][p]][0][ord(r.word[p]) - 65]) for p in range(3)])
        assert r.fit == pytest.approx(expected, abs=1e-3)
    fits = [r.fit for r in ranked]
    assert fits == sorted(fits, reverse=True)
    for a, b in zip(ranked, ranked[1:]):
        if a.fit == b.fit:
            assert a.score >= b.score
    assert set(by_word) <= {"ABC", "ABD", "XYZ"}
    # top-k keeps the same order as the full ranking
    assert [r.word for r in analysis.rank_words(problem, prop, top.id, 2)] == [r.word for r in ranked[:2]]


def test_suggestions_do_not_depend_on_the_cell_or_call_order():
    problem = problem_of("....\n....\n", ["ABCD", "ABCE", "EFGH", "AE", "BF", "CG", "DH", "BE", "CE", "EE"])
    first = analysis.domains_report(problem, "1A", k=10)
    again = analysis.domains_report(problem, "1a", k=10)
    assert first.slots == again.slots


def test_unknown_slot_lists_the_valid_ones():
    problem = problem_of("...\n...\n", ["ABC", "AB"])
    with pytest.raises(InputError) as info:
        analysis.domains_report(problem, "99A")
    assert "1A" in str(info.value) and "1D" in str(info.value)


def test_check_finds_the_most_constrained_slot_and_forced_letters():
    # 1D must be QA (the only Q? word), so 4A is ABC or ABD and 2D is UB; 3D is then AC or AD
    # under QUA, BD under QUB: three fills (QUA/ABC, QUA/ABD, QUB/ABD), so the grid is fillable.
    problem = problem_of("Q..\n...\n", ["QUA", "QUB", "ABC", "ABD", "QA", "UB", "AC", "UC", "AD", "BD"])
    data = check_json(analysis.check_report(problem, backend="backtrack", time_limit_s=5))
    prop = propagate(problem)
    # open = has an empty cell and more than one word left (a slot down to one word is decided)
    sizes = {s.name: prop.size(s.id) for s in problem.slots if "." in problem.pattern(s.id) and prop.size(s.id) > 1}
    assert data["most_constrained"]["size"] == min(sizes.values())
    assert sizes[data["most_constrained"]["id"]] == min(sizes.values())
    forced = {(f["row"], f["col"]): f["letter"] for f in data["forced"]}
    for cell, counts in enumerate(prop.letter_counts):
        if problem.grid.cells[cell] == "." and np.count_nonzero(counts) == 1:
            assert forced[(cell // 3, cell % 3)] == chr(65 + int(np.nonzero(counts)[0][0]))
    assert data["verdict"] == "fillable"
    assert data["fill"] in (["QUA", "ABC"], ["QUA", "ABD"], ["QUB", "ABD"])
    assert check_fill(problem, entries_of(problem, data["fill"])) == []


def test_check_verdicts_via_cli(tmp_path, capsys):
    words = tmp_path / "w.txt"
    words.write_text("\n".join(["WORD", "WORE", "WORK", "ZERO", "ABCZ", "DEFE", "GHIR", "ADGW", "BEHO", "CFIR"]))
    grid = tmp_path / "g.txt"
    grid.write_text("...Z\n...E\n...R\nWOR.\n")
    assert main(["check", str(grid), "--words", str(words), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "unfillable" and data["proof"] == "ac3"
    words.write_text("\n".join(["AB", "CD", "AC", "BD"]))
    grid.write_text("..\n..\n")
    assert main(["check", str(grid), "--words", str(words), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # the two fills: rows AB/CD (columns AC/BD) and the transpose
    assert data["verdict"] == "fillable" and data["fill"] in (["AB", "CD"], ["AC", "BD"])
    problem = problem_of("..\n..\n", ["AB", "CD", "AC", "BD"])
    assert check_fill(problem, entries_of(problem, data["fill"])) == []


def test_suggest_verify_labels_viable_and_dead_end(tmp_path, capsys):
    # 2x2 over AB CD AC BD AX XQ, no word twice. By hand, for 1A (the top row):
    #   AB: rows AB/CD, columns AC/BD -> viable;  AC: rows AC/BD, columns AB/CD -> viable;
    #   AX: AC-3 keeps it (2D = XQ, and 3A could be XQ with 1D = AX, as far as crossings go),
    #       but entered, 2D must be XQ, the only X? word, and then 3A must end in Q: only XQ, taken, so
    #       propagation empties 2D or 3A: not suggested, listed as dropped (issue 35);
    #   CD, BD, XQ: no column word starts with D or Q (CD/XQ down would repeat), so not offered.
    listed = ["AB", "CD", "AC", "BD", "AX", "XQ"]
    words = tmp_path / "w.txt"
    words.write_text("\n".join(listed))
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    assert (
        main(
            [
                "suggest",
                str(grid),
                "--words",
                str(words),
                "--slot",
                "1A",
                "--verify",
                "--show-fill",
                "--backend",
                "backtrack",
                "--format",
                "json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    verdicts = {w["word"]: w["verdict"] for w in data["words"]}
    assert verdicts == {"AB": "viable", "AC": "viable"}
    [dropped] = data["dropped"]  # which of 2D (XQ, no word twice) and 3A empties first is propagation's order
    assert dropped["word"] == "AX" and dropped["empties"] in ("2D", "3A")
    assert data["counts"] == {
        "pattern": 6,
        "arc_consistent": 3,
        "checked": 3,
        "complete": True,
        "survive": 2,
        "viable": 2,
        "dead_end": 0,
        "unknown": 0,
    }
    base = problem_of("..\n..\n", listed)
    for entry in data["words"]:
        if entry["verdict"] == "viable":  # the fill shown proves it: valid, with the word in 1A
            assert entry["fill"][0] == entry["word"]
            assert check_fill(base, entries_of(base, entry["fill"])) == []
        else:
            assert "fill" not in entry
        # the same verdict from a fill of the grid with the word entered
        problem = analysis.with_word(base, 0, entry["word"])
        result = fill(problem, "backtrack", Limits(time_limit_s=5))
        assert result.status is (FillStatus.FILLED if entry["verdict"] == "viable" else FillStatus.UNFILLABLE)
        for entries in result.fills:
            assert check_fill(problem, entries) == [] and entries[0] == entry["word"]


def test_heatmap_png_is_written(tmp_path, capsys):
    grid = tmp_path / "g.txt"
    grid.write_text("Q..\n...\n")
    words = tmp_path / "w.txt"
    words.write_text("\n".join(["QUA", "ABC", "QA", "UB", "AC"]))
    png = tmp_path / "heat.png"
    assert main(["heatmap", str(grid), "--words", str(words), "--png", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    out = capsys.readouterr().out
    assert "=Q" in out


def test_domains_json_shape(tmp_path, capsys):
    grid = tmp_path / "g.txt"
    grid.write_text("..\n..\n")
    words = tmp_path / "w.txt"
    words.write_text("\n".join(["AB", "CD", "AC", "BD"]))
    assert main(["domains", str(grid), "--words", str(words), "--format", "json", "-k", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "consistent"
    assert {s["id"] for s in data["slots"]} == {"1A", "3A", "1D", "2D"}
    one_a = next(s for s in data["slots"] if s["id"] == "1A")
    assert one_a["size"] == 2 and {w["word"] for w in one_a["words"]} == {"AB", "AC"}
    assert data["cells"] == [["A", "BC"], ["BC", "D"]]


def test_heatmap_values_on_a_hand_checked_grid():
    # 2x2 open grid. Words: AB, CD (across candidates), AC, BD (down). All four are 2-letter,
    # so every slot may take any of them; AC-3 keeps only those fitting crossings.
    # Fills: rows AB/CD with columns AC/BD. Rows AC/BD with columns AB/CD. So each cell can
    # hold exactly one letter per fill; cell (0,0) is A in both fills -> forced.
    grid = parse_grid("..\n..\n")
    problem = compile_problem(grid, words_from_pairs(["AB", "CD", "AC", "BD"]), min_score=0)
    heat = heatmap_json(heatmap_report(problem))
    assert heat["status"] == "consistent"
    # (0,0): A only; (0,1): B or C; (1,0): C or B; (1,1): D only
    assert heat["cells"] == [[1, 2], [2, 1]]
    assert {(f["row"], f["col"], f["letter"]) for f in heat["forced"]} == {(0, 0, "A"), (1, 1, "D")}


def test_heatmap_of_open_cells_is_26_with_a_rich_list():
    words = ["".join(p) for p in __import__("itertools").product("ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeat=2)]
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(words), min_score=0)
    assert heatmap_json(heatmap_report(problem))["cells"] == [[26, 26], [26, 26]]
