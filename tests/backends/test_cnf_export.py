"""`export_cnf` streams: the clauses go to disk as they are made (memory holds a batch, not the model), the file
appears whole by a rename, the same bytes as the model built in memory, and a model past its byte cap is refused
with nothing left behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.backends.test_shortlist import ranked_words
from tests.helpers import run
from xwcp.compile.problem import compile_problem
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs

pytest.importorskip("pysat")

REPO = Path(__file__).resolve().parents[2]
WORDS = [
    (w, 50)
    for w in (
        "CAB",
        "ORE",
        "WET",
        "COW",
        "ARE",
        "BET",
        "CAT",
        "TEN",
        "ABE",
        "RAT",
        "TOE",
        "EAT",
        "ATE",
        "TEA",
        "ERA",
        "OAT",
        "ROE",
        "ORB",
        "BOA",
        "BAT",
        "TAB",
        "ROW",
        "OWE",
        "AWE",
    )
]


def _clause_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith(("c ", "p "))]


def test_streamed_clauses_are_those_of_the_model_built_in_memory(tmp_path, monkeypatch):
    from xwcp.backends import _shortlist, sat

    monkeypatch.setattr(sat, "SINK_BATCH_CLAUSES", 7)  # many batches on a small grid
    problem = compile_problem(parse_grid("...\n...\n...\n"), words_from_pairs(WORDS), min_score=0)
    path = tmp_path / "g.cnf"
    n_vars, n_clauses = sat.export_cnf(problem, path)
    encoder, clauses = sat._build_model(
        problem, _shortlist.shortlist(problem, ranked_words(problem), None), eager_dupes=True
    )
    assert (n_vars, n_clauses) == (encoder.n_vars, len(clauses)) and n_clauses > 50
    text = path.read_text()
    assert f"p cnf {n_vars} {n_clauses}\n" in text
    assert _clause_lines(text) == [" ".join(map(str, clause)) + " 0" for clause in clauses]
    assert sorted(os.listdir(tmp_path)) == ["g.cnf"]  # the temporary files are gone


def test_a_cnf_past_its_cap_is_refused_and_nothing_is_left(tmp_path):
    from xwcp.backends import sat

    problem = compile_problem(parse_grid("...\n...\n...\n"), words_from_pairs(WORDS), min_score=0)
    (tmp_path / "g.cnf").write_text("the old file\n")
    with pytest.raises(sat.CnfTooLarge, match="the CNF passes"):
        sat.export_cnf(problem, tmp_path / "g.cnf", max_bytes=500)
    assert sorted(os.listdir(tmp_path)) == ["g.cnf"] and (tmp_path / "g.cnf").read_text() == "the old file\n"


def test_the_command_line_says_the_cap_in_one_line(tmp_path, capsys, monkeypatch):
    from xwcp.backends import sat

    monkeypatch.setattr(sat, "MAX_CNF_BYTES", 1000)
    (tmp_path / "g.txt").write_text("...\n...\n...\n")
    (tmp_path / "w.txt").write_text("".join(f"{w};50\n" for w, _ in WORDS))
    code, _, err = run(
        ["fill", str(tmp_path / "g.txt"), "--words", str(tmp_path / "w.txt"), "--export-cnf", str(tmp_path / "g.cnf")],
        capsys,
    )
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert err.startswith(f"xwcp: error: {tmp_path / 'g.cnf'}: the CNF passes 9.31323e-07 GiB after ")
    assert "clauses, more than --export-cnf writes" in err and not (tmp_path / "g.cnf").exists()


MEASURE = """
import resource, sys
from xwcp.backends import sat
from xwcp.services.load import load_problem
problem = load_problem(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
n_vars, n_clauses = sat.export_cnf(problem, sys.argv[2])
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(n_clauses, (after - before) // 1024)
"""


@pytest.mark.subprocess
def test_the_exact_model_of_a_15x15_is_written_in_bounded_memory(tmp_path):
    """4.9 M clauses, 125 MB of DIMACS: held as lists, the export grew the process by about 970 MB."""
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, str(REPO / "models" / "15x15-daily-01.txt"), str(tmp_path / "daily.cnf")],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PYTHONPATH=str(REPO), XWCP_CACHE_DIR=str(tmp_path / "cache")),
    )
    assert result.returncode == 0, result.stderr[-2000:]
    n_clauses, growth_mb = map(int, result.stdout.split())
    assert n_clauses > 4_000_000 and (tmp_path / "daily.cnf").stat().st_size > 100_000_000
    assert growth_mb < 450, f"the export grew the process by {growth_mb} MB"


def test_a_link_keeps_pointing_and_a_device_is_written_in_place(tmp_path):
    """The rename goes onto a link's target (the link stays), and never onto a device: /dev/null stays one."""
    import stat

    from xwcp.backends import sat

    problem = compile_problem(parse_grid("...\n...\n...\n"), words_from_pairs(WORDS), min_score=0)
    (tmp_path / "real.cnf").write_text("old\n")
    (tmp_path / "link.cnf").symlink_to(tmp_path / "real.cnf")
    n_vars, n_clauses = sat.export_cnf(problem, tmp_path / "link.cnf")
    assert (tmp_path / "link.cnf").is_symlink()
    assert f"p cnf {n_vars} {n_clauses}\n" in (tmp_path / "real.cnf").read_text()
    assert sorted(os.listdir(tmp_path)) == ["link.cnf", "real.cnf"]
    sat.export_cnf(problem, "/dev/null")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
