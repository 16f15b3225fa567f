"""The `bench` command (`xwcp.cli.bench`): the bench's own options are parsed and handed to `xwcp.bench`, whose
answer is the exit code (the bench itself is tested in tests/bench/)."""

from __future__ import annotations

from tests.helpers import run


def test_the_parsed_options_go_to_the_bench_and_its_code_comes_back(capsys, monkeypatch):
    heard = []

    def run_bench_command(args):
        heard.append(args)
        return 3

    monkeypatch.setattr("xwcp.bench.run_bench_command", run_bench_command)
    code, _, _ = run(
        [
            "bench",
            "g1.txt",
            "g2.txt",
            "--backends",
            "backtrack",
            "--peers",
            "none",
            "--seeds",
            "2",
            "--time-limit",
            "7",
        ],
        capsys,
    )
    assert code == 3
    [args] = heard
    assert args.command == "bench" and args.grids == ["g1.txt", "g2.txt"]
    assert (args.backends, args.peers, args.seeds, args.time_limit) == ("backtrack", "none", 2, 7.0)


def test_a_bad_bench_option_is_refused_before_the_bench_runs(capsys, monkeypatch):
    monkeypatch.setattr("xwcp.bench.run_bench_command", lambda args: 0 / 0)
    code, _, err = run(["bench", "--seeds", "0"], capsys)
    assert code == 2 and "--seeds" in err
