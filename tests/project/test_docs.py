"""The README and the docs pages run as written: the README's tour commands and python block, every python block of
docs/library.md, in order, from a fresh folder, and the limits docs/grids.md quotes. docs/design.md's python
block runs in tests/designer/test_session.py; no other page holds a python block that no test runs. Every other
`xwcp` command of a page's shell blocks is parsed by the real parser, and every relative link leads to a file.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import xwcp

ROOT = Path(__file__).resolve().parents[2]
PAGES_WITH_PYTHON_RUN = {
    "README.md": "here",
    "docs/library.md": "here",
    "docs/design.md": "tests/designer/test_session.py",
}
"""Every page holding a ```python block, and the test that runs its blocks."""


def _text(page: str) -> str:
    return (ROOT / page).read_text(encoding="utf-8")


def _blocks(page: str, language: str, section: str = "") -> list[tuple[int, str]]:
    """(line number, code) of every ```language block of `page`, or of its `section` (a heading, to the next)."""
    text = _text(page)
    first = text.index(section) if section else 0
    last = text.find("\n## ", first + 1) if section else -1
    last = len(text) if last < 0 else last
    blocks = []
    for match in re.finditer(rf"```{language}\n(.*?)```", text[first:last], re.S):
        line = text[: first + match.start()].count("\n") + 2
        blocks.append((line, match.group(1)))
    return blocks


def library_blocks() -> list[tuple[int, str]]:
    return _blocks("docs/library.md", "python")


def test_every_python_block_of_the_docs_is_run_by_a_test():
    pages = ["README.md", *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "docs").glob("*.md")))]
    with_python = {page for page in pages if _blocks(page, "python")}
    assert with_python == set(PAGES_WITH_PYTHON_RUN), "a page whose python blocks no test runs: add it here"
    for page, test in PAGES_WITH_PYTHON_RUN.items():
        assert test == "here" or page in (ROOT / test).read_text(encoding="utf-8"), (page, test)


def test_the_library_page_shows_every_job():
    code = "\n".join(block for _, block in library_blocks())
    for job in (
        "xwcp.fill(",
        "xwcp.check(",
        "xwcp.domains(",
        "xwcp.suggest(",
        "xwcp.heatmap(",
        "xwcp.find_core(",
        "xwcp.Session(",
        "count=3, min_diff=10",
        "quality=True",
        ".save_png(",
        "xwcp.read_puzzle(",
        ".save(",
        "except xwcp.InputError",
        "xwcp.design(",
        "xwcp.clues(",
        "xwcp.check_clues(",
    ):
        assert job in code, f"docs/library.md no longer shows {job}"


def _run_blocks(blocks: list[tuple[int, str]], page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "models").symlink_to(ROOT / "models")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for line, code in blocks:
            exec(compile(code, f"{page}:{line}", "exec"), namespace)  # noqa: S102 - the page's own examples
    return out.getvalue()


def test_library_examples_run(tmp_path, monkeypatch):
    printed = _run_blocks(library_blocks(), "docs/library.md", tmp_path, monkeypatch)
    # what the comments beside the examples say
    assert "FillStatus.FILLED" in printed
    assert "CROSSWORDS quality: mean" in printed
    assert "unfillable ('7A', '4D')" in printed
    assert "7A (WOR.) and 4D (ZER.) cross" in printed
    assert "locks={'1A': 'CRANES'}: 1A has 5 letters, CRANES has 6" in printed
    assert re.search(r"^auto filled ", printed, re.M) and re.search(r"^sat filled ", printed, re.M)
    assert (tmp_path / "heat.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "daily.puz").stat().st_size > 0
    assert re.search(r"^\d+ \d+ \{'ASTRONOMER': '\d+A', 'TELESCOPES': '\d+A'\} quality: mean", printed, re.M)
    assert xwcp.read_puzzle(tmp_path / "designed.ipuz").grid.width == 11
    assert "ICECREAMCONE ('ICE', 'CREAM', 'CONE')" in printed


def test_the_readme_library_example_runs(tmp_path, monkeypatch):
    blocks = _blocks("README.md", "python")
    assert len(blocks) == 1
    printed = _run_blocks(blocks, "README.md", tmp_path, monkeypatch)
    assert printed.startswith("FillStatus.FILLED ") and "quality: mean" in printed


def tour_commands() -> list[tuple[str, int, str]]:
    """(command, exit code, output) of every `xwcp` line of the README's tour: `(exit N)` in its comment, else 0,
    and the comment's text up to a `...` as the start of what it prints."""
    commands = []
    for _, block in _blocks("README.md", "bash", section="## A tour of the jobs"):
        for line in block.splitlines():
            command, _, comment = line.partition("  #")
            if command.startswith("xwcp "):
                code = re.search(r"\(exit (\d+)\)", comment)
                shown = re.sub(r"\(exit \d+\)", "", comment).split("...")[0].strip()
                commands.append((command.strip(), int(code.group(1)) if code else 0, shown))
    return commands


def test_the_readme_tour_shows_every_job():
    jobs = {shlex.split(command)[1] for command, _, _ in tour_commands()}
    assert jobs >= {"fill", "check", "suggest", "heatmap", "convert", "languages", "design", "batch", "serve"}
    assert any("--quality" in command for command, _, _ in tour_commands())


@pytest.mark.subprocess
@pytest.mark.parametrize(("command", "exit_code", "shown"), tour_commands(), ids=lambda v: str(v))
def test_the_readme_tour_runs_as_written(command, exit_code, shown, tmp_path):
    """Each command exits as the README says, from a folder holding the repository's models (and what the tour's
    earlier commands wrote). `serve` would not return: its --help is run, so a renamed option still fails here."""
    argv = shlex.split(command)[1:]
    if argv[0] == "batch" and importlib.util.find_spec("distributed") is None:
        pytest.skip("xwcp batch needs the [dist] extra: python3 -m pip install -e '.[dist]'")
    if argv[0] == "serve":
        if importlib.util.find_spec("starlette") is None:
            pytest.skip("xwcp serve needs the [web] extra: python3 -m pip install -e '.[web]'")
        argv.append("--help")
    fills_json = argv[0] == "fill" and "--out" not in argv
    if fills_json:  # the fill is read back and checked
        argv += ["--format", "json"]
    (tmp_path / "models").symlink_to(ROOT / "models")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if argv[0] == "convert":  # the tour's `fill --out` wrote the file it converts
        made = subprocess.run(
            [sys.executable, "-m", "xwcp", "fill", "models/15x15-daily-01.txt", "--out", argv[1]],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert made.returncode == 0, made.stderr
    done = subprocess.run(
        [sys.executable, "-m", "xwcp", *argv], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == exit_code, f"{command}: exit {done.returncode}\n{done.stderr}"
    assert shown in done.stdout, f"{command}: the README says it prints {shown!r}"
    if fills_json:
        data = json.loads(done.stdout)
        _check_complete(data["grid"])
        for option, value in zip(argv, argv[1:]):
            if option == "--lock":
                slot, word = value.split("=")
                assert {e["id"]: e["word"] for e in data["entries"]}[slot] == word
            if option == "--ban":
                assert value not in {e["word"] for e in data["entries"]}
    if argv[0] == "fill" and "--out" in argv:
        _check_complete(xwcp.read_puzzle(tmp_path / argv[argv.index("--out") + 1]))
    if argv[0] == "convert":
        assert xwcp.read_puzzle(tmp_path / argv[2]).grid.width == 15


def test_every_link_of_the_readme_and_the_docs_leads_to_a_file():
    """A relative link resolves from its page's folder (GitHub's reading), to a file of the repository or to a
    page a command builds into a folder .gitignore lists (docs/api/)."""
    ignored = [
        line.strip().rstrip("/")
        for line in (ROOT / ".gitignore").read_text().splitlines()
        if line.strip().endswith("/") and not line.startswith("#")
    ]
    broken = []
    for page in [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            built = any(path.is_relative_to(ROOT / folder) for folder in ignored)
            if not path.exists() and not built:
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == [], broken


def _check_complete(grid: list[str] | xwcp.Puzzle) -> None:
    """A fill the tour printed or saved: complete, every entry a listed word, none twice (xwcp.check's verdict)."""
    answer = xwcp.check("\n".join(grid) + "\n" if isinstance(grid, list) else grid, time_limit_s=30)
    assert answer.verdict.value == "fillable" and answer.unlisted == {}, answer.reason
    assert answer.fill is not None and "." not in "".join(answer.fill)


def documented_commands() -> list[tuple[str, str]]:
    """(page:line, command) of every `xwcp` command in a shell block of the README and the docs pages (each part
    of a pipe), its comment cut off."""
    commands = []
    for page in ["README.md", *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "docs").glob("*.md")))]:
        for language in ("bash", ""):
            for line_number, block in _blocks(page, language):
                for offset, line in enumerate(block.splitlines()):
                    for part in re.split(r"\s#\s", line)[0].split(" | "):
                        if part.strip().startswith("xwcp "):
                            commands.append((f"{page}:{line_number + offset}", part.strip()))
    return commands


@pytest.mark.parametrize(("where", "command"), documented_commands(), ids=lambda v: str(v))
def test_every_documented_command_parses(where, command):
    """The commands the pages show but no test runs whole (a server, a cluster, a list built from the network)
    still name a real command and real options: a renamed option fails here."""
    from xwcp.cli.parser import build_parser

    try:
        build_parser().parse_args(shlex.split(command)[1:])
    except SystemExit as exc:
        pytest.fail(f"{where}: `{command}` does not parse (exit {exc.code})")


def test_the_puzzle_files_page_states_the_limits_the_readers_apply():
    """docs/grids.md's limits paragraph quotes xwcp.runtime.files's budgets: change one, change both."""
    from xwcp.formats import puzfile
    from xwcp.model import MAX_GRID_BYTES, MAX_SIDE
    from xwcp.runtime import files

    text = " ".join(_text("docs/grids.md").split())
    start = text.index("A puzzle file is untrusted input")
    section = text[start : text.find(" ## ", start) if " ## " in text[start:] else len(text)]
    for phrase in (
        f"at most {files.MAX_PUZZLE_BYTES >> 20} MiB on disk",
        f"a text grid: {MAX_GRID_BYTES >> 10} KiB",
        f"at most {MAX_SIDE}x{MAX_SIDE}",
        f"at most {files.MAX_ZIP_MEMBERS} files",
        f"at most {files.MAX_UNZIPPED_BYTES >> 20} MiB",
        f"at most {files.MAX_ZIP_RATIO} times",
        f"nested at most {files.MAX_NESTING_DEPTH} deep",
        f"at most {files.MAX_NUMBER_DIGITS} digits",
        f"at most {files.MAX_CLUES:,} clues",
        f"at most {puzfile.UNLOCK_TIME_LIMIT_S:g} s",
    ):
        assert phrase in section, phrase
