"""`xwcp words build` under a budget: a Hunspell pair that expands without end (chained suffixes, cross products)
or a source read too long stops with one line naming the limit and exit 3, nothing written; progress is shown on
stderr; Ctrl-C exits 130 leaving no partial list; a `FLAG num` pair of 2,000 flags expands in well under a second.

The hostile pairs are made here, small: `chained_pair` is the shape of the audit's 12 KB pair (300 stems, every
suffix chaining to two more, all crossing with 20 prefixes: 1.2 M forms), `numbered_pair` the shape of its
`FLAG num` pair (2,000 flags, half prefixes that cross with every suffix but whose condition never holds).
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import xwcp
from xwcp.words import build
from xwcp.words.build import BuildLimitReached, BuildProgress, build_words
from xwcp.words.hunspell import HunspellFiles, expand

pytest.importorskip("spylls", reason="Hunspell pairs are read by spylls (the [languages] extra)")

TREE = Path(xwcp.__file__).resolve().parents[1]
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def chained_pair(
    n_stems: int = 300, n_suffix_flags: int = 10, rules_per_flag: int = 10, n_prefixes: int = 20
) -> tuple[str, str]:
    """(.aff, .dic) text: every stem takes every suffix flag and a prefix flag; each suffix rule chains to two more
    suffix flags and crosses with every prefix (about 4,100 forms a stem)."""
    suffix_flags = [chr(ord("A") + k) for k in range(n_suffix_flags)]
    aff = ["SET UTF-8"]
    for k, flag in enumerate(suffix_flags):
        chained = suffix_flags[(k + 1) % n_suffix_flags] + suffix_flags[(k + 2) % n_suffix_flags]
        aff.append(f"SFX {flag} Y {rules_per_flag}")
        aff += [f"SFX {flag} 0 {LETTERS[r]}{LETTERS[k]}/{chained} ." for r in range(rules_per_flag)]
    aff.append(f"PFX p Y {n_prefixes}")
    aff += [f"PFX p 0 {LETTERS[r]}{LETTERS[(r * 7) % 26]} ." for r in range(n_prefixes)]
    flags = "".join(suffix_flags) + "p"
    dic = [str(n_stems)] + [
        f"{LETTERS[s % 26]}{LETTERS[(s // 26) % 26]}o{LETTERS[(s * 3) % 26]}/{flags}" for s in range(n_stems)
    ]
    return "\n".join(aff) + "\n", "\n".join(dic) + "\n"


def numbered_pair(n_flags: int = 2000, n_stems: int = 20) -> tuple[str, str]:
    """(.aff, .dic) text in `FLAG num`: flags 1..n/2 suffixes (one rule each), the rest prefixes crossing with them
    under a condition no stem meets; every stem carries every flag (about n/2 + 1 forms a stem)."""
    aff = ["SET UTF-8", "FLAG num"]
    for flag in range(1, n_flags // 2 + 1):
        aff += [f"SFX {flag} Y 1", f"SFX {flag} 0 s{flag} ."]
    for flag in range(n_flags // 2 + 1, n_flags + 1):
        aff += [f"PFX {flag} Y 1", f"PFX {flag} 0 p{flag} q"]
    flags = ",".join(str(flag) for flag in range(1, n_flags + 1))
    dic = [str(n_stems)] + [f"stem{LETTERS[s % 26]}{LETTERS[s // 26 % 26]}/{flags}" for s in range(n_stems)]
    return "\n".join(aff) + "\n", "\n".join(dic) + "\n"


def _pair(folder: Path, name: str, texts: tuple[str, str]) -> Path:
    aff, dic = texts
    (folder / f"{name}.aff").write_text(aff, encoding="utf-8")
    (folder / f"{name}.dic").write_text(dic, encoding="utf-8")
    return folder / f"{name}.dic"


def test_a_pair_that_expands_past_its_size_s_share_stops_and_writes_nothing(tmp_path):
    dic = _pair(tmp_path, "chain", chained_pair())
    assert dic.stat().st_size + dic.with_suffix(".aff").stat().st_size < 12_000
    out = tmp_path / "out" / "chain.dict"
    start = time.monotonic()
    with pytest.raises(BuildLimitReached) as caught:
        build_words("en", str(dic), out, scores="flat")
    assert time.monotonic() - start < 20  # the audit's pair took 22 s and made 1.2 M words
    message = str(caught.value)
    assert "more than 200,000 words" in message and "--max-read" in message and "nothing written" in message
    assert not out.exists() and not out.parent.exists()  # not even its folder


def test_max_read_and_time_limit_stop_a_build(tmp_path, monkeypatch):
    dic = _pair(tmp_path, "chain", chained_pair(n_stems=40))
    out = tmp_path / "chain.dict"
    with pytest.raises(BuildLimitReached, match="more than 5,000 words"):
        build_words("en", str(dic), out, scores="flat", max_read=5_000)
    clock = iter(range(0, 10_000, 7))  # 7 s a look at the clock: past a 20 s limit at the fourth look
    monkeypatch.setattr(build.time, "monotonic", lambda: float(next(clock)))
    with pytest.raises(BuildLimitReached, match=r"took more than 20 s \(3,000 words read\)"):
        build_words("en", str(dic), out, scores="flat", max_read=10**7, time_limit_s=20)
    assert not out.exists() and sorted(os.listdir(tmp_path)) == ["chain.aff", "chain.dic"]


def test_a_pair_within_the_budget_is_built_whole(tmp_path):
    dic = _pair(tmp_path, "chain", chained_pair(n_stems=3, n_suffix_flags=3, rules_per_flag=3, n_prefixes=2))
    seen = []
    report = build_words("en", str(dic), tmp_path / "small.dict", scores="flat", status=seen.append)
    forms = set(expand(HunspellFiles.beside(dic)))
    assert report.n_read == sum(1 for _ in expand(HunspellFiles.beside(dic))) and report.n_written == len(forms)
    assert seen == []  # a build this small reports no progress


def test_two_thousand_numbered_flags_expand_at_once(tmp_path):
    """The audit's `FLAG num` pair of 2,000 flags took 48 s for 5,404 words: every suffixed form was tried
    with every prefix of the stem, one by one (2,000 x 1,000 a stem); now the prefixes are gathered once a flag
    set and tested once a condition."""
    dic = _pair(tmp_path, "num", numbered_pair())
    start = time.monotonic()
    forms = list(expand(HunspellFiles.beside(dic)))
    took = time.monotonic() - start
    assert len(forms) == 20 * 1001 and "stemaas1" in forms and not any(f.startswith("p") for f in forms)
    assert took < 5, took


def _run_build(dic: Path, out: Path, *extra: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(TREE), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "xwcp",
            "words",
            "build",
            "--language",
            "en",
            "--from",
            str(dic),
            "--out",
            str(out),
            "--scores",
            "flat",
            *extra,
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.subprocess
def test_the_command_stops_at_its_budget_with_one_line_and_exit_3(tmp_path):
    dic = _pair(tmp_path, "chain", chained_pair())
    out = tmp_path / "lists" / "chain.dict"
    process = _run_build(dic, out)
    stdout, stderr = process.communicate(timeout=120)
    assert process.returncode == 3, stderr
    stopped = [line for line in stderr.splitlines() if "stopped" in line]
    assert len(stopped) == 1 and "more than 200,000 words" in stopped[0] and "Traceback" not in stderr
    assert not out.exists()


@pytest.mark.subprocess
def test_ctrl_c_during_a_build_exits_130_and_leaves_no_list(tmp_path):
    dic = _pair(tmp_path, "chain", chained_pair())
    out = tmp_path / "lists" / "chain.dict"
    out.parent.mkdir()
    process = _run_build(dic, out, "--max-read", "100000000", "--time-limit", "120")
    assert process.stderr is not None
    first = process.stderr.readline()  # "xwcp: building the en list from ...": the reading starts
    assert "building" in first, first
    time.sleep(1.0)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    assert os.listdir(out.parent) == []  # no list, no temporary file


class _Stream(io.StringIO):
    def __init__(self, is_terminal: bool) -> None:
        super().__init__()
        self.is_terminal = is_terminal

    def isatty(self) -> bool:
        return self.is_terminal


def test_progress_is_a_bar_on_a_terminal_and_a_line_now_and_then_in_a_log():
    from xwcp.cli.words import LINE_EVERY_S, BuildProgressBar

    log = _Stream(is_terminal=False)
    bar = BuildProgressBar(log)
    for second in range(0, 31):
        bar(BuildProgress(n_read=1000 * second, elapsed_s=float(second), max_read=10**6, fraction_done=second / 40))
    bar.close()
    lines = log.getvalue().splitlines()
    assert len(lines) == 30 // LINE_EVERY_S and "\r" not in log.getvalue()
    assert lines[0] == "xwcp words build: 25% of the stems       10,000 words read, 10 s"
    terminal = _Stream(is_terminal=True)
    bar = BuildProgressBar(terminal)
    bar(BuildProgress(n_read=123_456, elapsed_s=2.0, max_read=10**6, fraction_done=0.5))
    bar.close()
    shown = terminal.getvalue()
    assert shown.startswith("\rwords build: [" + "#" * 15 + "." * 15 + "]  50% of the stems") and shown.endswith("\n")
    assert "123,456 words read" in shown and "2.0 s" in shown


def test_a_hunspell_build_reports_its_share_of_stems_done(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "CLOCK_EVERY", 10)
    dic = _pair(tmp_path, "chain", chained_pair(n_stems=30, n_suffix_flags=3, rules_per_flag=3, n_prefixes=2))
    seen: list[BuildProgress] = []
    build_words("en", str(dic), tmp_path / "small.dict", scores="flat", status=seen.append)
    fractions = [p.fraction_done for p in seen]
    assert len(fractions) > 5 and all(f is not None and 0 <= f < 1 for f in fractions)
    assert fractions == sorted(fractions) and fractions[-1] > 0.9
