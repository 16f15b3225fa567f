"""README.md's library section runs as written: every python block is executed, in order, from a fresh folder."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import xwcp

ROOT = Path(__file__).resolve().parents[2]


def library_blocks() -> list[tuple[int, str]]:
    """(line number, code) of every ```python block in README's "As a library" section."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## As a library")
    end = text.index("\n## ", start + 1)
    blocks = []
    for match in re.finditer(r"```python\n(.*?)```", text[start:end], re.S):
        line = text[:start + match.start()].count("\n") + 2
        blocks.append((line, match.group(1)))
    return blocks


def test_the_library_section_shows_every_job():
    code = "\n".join(block for _, block in library_blocks())
    for job in ("xwcp.fill(", "xwcp.check(", "xwcp.domains(", "xwcp.suggest(", "xwcp.heatmap(", "xwcp.find_core(",
                "xwcp.Session(", "count=3, min_diff=10", "quality=True", ".save_png(", "xwcp.read_puzzle(",
                ".save(", "except xwcp.InputError", "xwcp.design("):
        assert job in code, f"README's library section no longer shows {job}"


def test_readme_library_examples_run(tmp_path, monkeypatch):
    (tmp_path / "models").symlink_to(ROOT / "models")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__readme__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for line, code in library_blocks():
            exec(compile(code, f"README.md:{line}", "exec"), namespace)  # noqa: S102 - the README's own examples
    printed = out.getvalue()
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


def test_the_puzzle_files_section_states_the_limits_the_readers_apply():
    """README's limits paragraph quotes xwcp.runtime.files's budgets (issue 34): change one, change both."""
    from xwcp.formats import puzfile
    from xwcp.model import MAX_GRID_BYTES, MAX_SIDE
    from xwcp.runtime import files

    text = " ".join((Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8").split())
    section = text[text.index("A puzzle file is untrusted input"):text.index("## Why a grid cannot be filled")]
    for phrase in (f"at most {files.MAX_PUZZLE_BYTES >> 20} MiB on disk", f"a text grid: {MAX_GRID_BYTES >> 10} KiB",
                   f"at most {MAX_SIDE}x{MAX_SIDE}", f"at most {files.MAX_ZIP_MEMBERS} files",
                   f"at most {files.MAX_UNZIPPED_BYTES >> 20} MiB", f"at most {files.MAX_ZIP_RATIO} times",
                   f"nested at most {files.MAX_NESTING_DEPTH} deep", f"at most {files.MAX_NUMBER_DIGITS} digits",
                   f"at most {files.MAX_CLUES:,} clues", f"at most {puzfile.UNLOCK_TIME_LIMIT_S:g} s"):
        assert phrase in section, phrase
