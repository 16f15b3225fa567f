"""The code and the docs name only what is there: every repository path they name exists, and no issue is cited.

Docstrings and comments say what is and why; the history (issue numbers, what was tried) belongs in the git log,
CHANGELOG.md and docs/design-notes.md. A path such as `xwcp/engine/_bitsearch.c`, `bench/core_speed.py` or
`services/load.py` (a folder of the package) must name a file or folder of the repository, so a rename that
leaves its mentions behind fails here. Paths with a placeholder (`<code>`, `{name}`, `*`, `..`) are patterns,
not names; paths under a folder .gitignore lists (`docs/api/`, built by pdoc) are outputs a command writes.
A dotted name such as `xwcp.services.load.load` must name a module, and the name after it must be defined there.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "xwcp"
TEXT_SUFFIXES = {".py", ".pyi", ".c", ".h", ".js", ".css", ".html", ".md", ".toml", ".json", ".sh", ".cfg", ".txt"}
SKIPPED_PARTS = {"__pycache__", "build", "vendor", ".git", "node_modules"}

ROOTS = ("xwcp", "bench", "models", "tests", "docs", "wordlists", ".ci")
ROOTED_PATH = re.compile(r"(?<![\w./<>{}*-])((?:%s)/[\w./*<>{}-]*[\w*>}/])" % "|".join(re.escape(r) for r in ROOTS))
"""A path from the repository's top: `xwcp/engine/kernel.py`, `bench/results/`, `models/7x7-mini.txt`."""
SUBPACKAGES = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file())
PACKAGE_PATH = re.compile(
    r"(?<![\w./<>{}*-])((?:%s)/[\w./*<>{}-]*\.(?:py|pyi|c|js|css|html|json))\b" % "|".join(SUBPACKAGES)
)
"""A path inside the package, as docs/architecture.md writes them: `services/load.py`, `web/static/app.js`."""
MODULE_NAME = re.compile(r"(?<![\w./])xwcp(?:\.[A-Za-z_]\w*)+")
"""A dotted name inside the package: `xwcp.services.load`, `xwcp.search.core.explain`."""
FILE_SUFFIXES = {"html", "py", "txt", "json", "md"}
ISSUE = re.compile(r"\bissues?\s+#?\d+|\bissues?\s+\d+\s+and\s+\d+", re.IGNORECASE)


def _text_files(*tops: str) -> Iterator[Path]:
    for top in tops:
        path = ROOT / top
        if path.is_file():
            yield path
            continue
        for found in sorted(path.rglob("*")):
            if found.is_file() and found.suffix in TEXT_SUFFIXES and not SKIPPED_PARTS & set(found.parts):
                yield found


@functools.cache
def _ignored_folders() -> tuple[str, ...]:
    """The folders .gitignore names by path (`docs/api/`): what commands write there is not in the repository."""
    lines = (ROOT / ".gitignore").read_text().splitlines()
    return tuple(
        line.strip().rstrip("/") + "/"
        for line in lines
        if line.strip().endswith("/") and "/" in line.strip()[:-1] and not line.startswith(("#", "*"))
    )


def missing_paths(text: str) -> list[str]:
    """The repository paths `text` names that do not exist."""
    ignored = _ignored_folders()
    missing = []
    for pattern, base in ((ROOTED_PATH, ROOT), (PACKAGE_PATH, PACKAGE)):
        for match in pattern.finditer(text):
            path = match.group(1).rstrip("/.")
            if any(mark in path for mark in ("<", ">", "{", "}", "*", "..")):
                continue
            if (base / path).exists() or (ROOT / path).exists() or any(f"{path}/".startswith(f) for f in ignored):
                continue
            if path not in missing:  # `bench/...` reads as either kind of path: said once
                missing.append(path)
    return missing


def _module_file(parts: list[str]) -> Path | None:
    """The source of module `parts` (a .py file, a package's __init__.py, a compiled module's .pyi), or None."""
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyi")):
        if candidate.is_file():
            return candidate
    return None


def unknown_names(text: str) -> list[str]:
    """The dotted `xwcp.` names in `text` whose module does not exist or does not define the name after it."""
    unknown = []
    for match in MODULE_NAME.finditer(text):
        parts = match.group(0).split(".")
        if parts[-1] in FILE_SUFFIXES or parts[-1].startswith("__"):
            continue  # a file name (`xwcp.html`) or a module's own attribute (`xwcp.__file__`)
        depth = next((i for i in range(len(parts), 0, -1) if _module_file(parts[:i])), 0)
        if depth == len(parts):
            continue
        module = _module_file(parts[:depth]) if depth else None
        source = module.read_text() if module else ""
        name = re.escape(parts[depth])
        if not depth or not re.search(
            rf"^\s*(?:async\s+def|def|class)\s+{name}\b|^\s*{name}\s*[:=]|\b{name}\b.*\bimport\b"
            rf"|\bimport\b.*\b{name}\b|[\"']{name}[\"']",
            source,
            re.M,
        ):
            unknown.append(match.group(0))
    return unknown


def test_every_path_named_in_the_code_and_the_docs_exists():
    problems = []
    for path in _text_files(
        "xwcp", "docs", "tests", "bench", "README.md", "CONTRIBUTING.md", "pyproject.toml", "setup.py"
    ):
        relative = path.relative_to(ROOT)
        if path == Path(__file__).resolve():
            continue  # its own examples of missing paths
        if relative.parts[0] == "bench" and (relative.suffix != ".py" or relative.parts[1] == "results"):
            continue  # the bench's results and their log name files as they were when measured
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            problems += [f"{relative}:{number}: {missing}" for missing in missing_paths(line)]
    assert problems == [], "paths that do not exist:\n" + "\n".join(problems)


def test_every_module_named_in_the_code_and_the_docs_exists():
    problems = []
    for path in _text_files("xwcp", "docs", "tests", "README.md", "CONTRIBUTING.md"):
        if path == Path(__file__).resolve():
            continue  # its own examples
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            problems += [f"{path.relative_to(ROOT)}:{number}: {name}" for name in unknown_names(line)]
    assert problems == [], "modules or names that do not exist:\n" + "\n".join(problems)


def test_a_renamed_path_is_caught():
    # the check bites: a file that is not there, in both spellings, and not a pattern or a built output
    assert missing_paths("the kernel (xwcp/_bitsearch.c) and `services/loader.py`") == [
        "xwcp/_bitsearch.c",
        "services/loader.py",
    ]
    assert (
        missing_paths(
            "xwcp/engine/_bitsearch.c, services/load.py, model/languages/<code>.json, docs/api/x.html,"
            " models/vanbeek/15.01..15.10, bench/results/*/"
        )
        == []
    )


def test_a_moved_module_is_caught():
    assert unknown_names("xwcp.web.analysis_cache.AnalysisCache, xwcp.search.core.no_such_function, xwcp.nowhere") == [
        "xwcp.web.analysis_cache.AnalysisCache",
        "xwcp.search.core.no_such_function",
        "xwcp.nowhere",
    ]
    assert (
        unknown_names(
            "xwcp.services.analysis_cache.AnalysisCache, xwcp.search.core.explain, xwcp.fill, "
            "xwcp.engine._kernel, xwcp.__file__, xwcp.html"
        )
        == []
    )


def test_no_issue_is_cited_in_the_code_or_the_docs():
    citations = []
    for path in _text_files("xwcp", "docs"):
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if ISSUE.search(line):
                citations.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert citations == [], "say the reason, not the issue (history goes to CHANGELOG.md):\n" + "\n".join(citations)


def test_the_issue_pattern_bites():
    for cited in ("(issue 17)", "Issue 35: labels", "issues 12 and 14", "issue #9"):
        assert ISSUE.search(cited), cited
    assert not ISSUE.search("an issue with the grid")
