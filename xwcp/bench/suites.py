"""The named benchmark grid sets and grid files on the command line, as `Instance`s to run."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SCALING_LIST_SIZES = (25_000, 50_000, 100_000, None)
"""List cuts of the scaling suite (None = the whole list: 252,200 entries for the default list)."""
SUITES = {
    "vanbeek72": "the 72 van Beek grids (models/vanbeek) with the SCOWL-55 list, min score 0",
    "vanbeek72-ukacd": "the 72 van Beek grids with the UKACD list, min score 0",
    "herald15": "Herald Tribune 15x15 grids 15.01-15.10 with the default list, min score 50",
    "herald21": "Herald Tribune 21x21 grids 21.01-21.10 with the default list, min score 50",
    "xcsp": "the XCSP crossword instances in bench/xcsp, each with its own words and distinct-words rule",
    "stock": "the stock grids models/*.txt with the default list, min score 50",
    "scaling": "open 4x4-7x7 and blocked 5x5-15x15 grids (bench/scaling) x the default list cut to "
    "its best 25k/50k/100k entries and all of it",
}
SCOWL_LIST = "bench/wordlists/scowl-english-55.words.txt"
UKACD_LIST = "bench/wordlists/ukacd18plus.normalized-az.words.txt"
XCSP_SUFFIXES = (".xml", ".xml.xz", ".xml.lzma")


@dataclass(frozen=True)
class WordSource:
    """A word list: a file (None = the embedded default list), optionally cut to its best `top_n` entries.

    A cut keeps the `top_n` highest-scored entries, ties broken alphabetically.
    """

    path: str | None = None
    top_n: int | None = None


@dataclass(frozen=True)
class Instance:
    """One benchmark grid: a grid file, an XCSP file (brings its own words), or rows made in code."""

    suite: str
    name: str
    path: Path | None = None
    rows: tuple[str, ...] | None = None
    words: WordSource = WordSource()
    min_score: int = 50
    allow_dupes: bool = False

    @property
    def is_xcsp(self) -> bool:
        return self.path is not None and self.path.name.endswith(XCSP_SUFFIXES)


def repo_root() -> Path:
    """The checkout holding models/ and bench/: the package's parent folder, else the working directory."""
    here = Path(__file__).resolve().parents[2]
    return here if (here / "models").is_dir() else Path.cwd()


def suite_instances(
    suite: str, *, root: Path | None = None, words_path: str | None = None, min_score: int | None = None
) -> list[Instance]:
    """The instances of a named suite.

    Args:
        suite: a key of `SUITES`.
        root: the checkout holding models/ and bench/ (default `repo_root()`).
        words_path: replaces the suite's word list (not for "xcsp", whose instances bring their own).
        min_score: replaces the suite's minimum score.

    Returns:
        The instances, in the order they run.

    Raises:
        InputError: unknown suite, or its grid folder is missing.
    """
    from xwcp.base.errors import InputError

    root = root or repo_root()
    if suite not in SUITES:
        raise InputError(f"unknown suite {suite!r}; suites: {', '.join(SUITES)}")

    def need(folder: Path) -> Path:
        if not folder.is_dir():
            raise InputError(f"suite {suite!r} needs {folder}, which is missing (run from the xwcp checkout)")
        return folder

    def source(default_path: str | None) -> WordSource:
        if words_path is not None:
            return WordSource(words_path)
        return WordSource(str(root / default_path) if default_path else None)

    if suite in ("vanbeek72", "vanbeek72-ukacd"):
        folder = need(root / "models" / "vanbeek")
        names = _vanbeek_names(folder)
        words = source(SCOWL_LIST if suite == "vanbeek72" else UKACD_LIST)
        score = 0 if min_score is None else min_score
        return [Instance(suite, name, folder / f"{name}.txt", words=words, min_score=score) for name in names]
    if suite in ("herald15", "herald21"):
        folder = need(root / "models" / "vanbeek")
        side = suite[-2:]
        score = 50 if min_score is None else min_score
        return [
            Instance(suite, f"{side}.{k:02d}", folder / f"{side}.{k:02d}.txt", words=source(None), min_score=score)
            for k in range(1, 11)
        ]
    if suite == "xcsp":
        folder = need(root / "bench" / "xcsp")
        paths = sorted(p for p in folder.iterdir() if p.name.endswith(XCSP_SUFFIXES))
        score = 0 if min_score is None else min_score
        return [Instance(suite, _xcsp_name(p), p, min_score=score) for p in paths]
    if suite == "stock":
        folder = need(root / "models")
        score = 50 if min_score is None else min_score
        return [Instance(suite, p.stem, p, words=source(None), min_score=score) for p in sorted(folder.glob("*.txt"))]
    # scaling: every grid with every list cut, smallest list first
    folder = need(root / "bench" / "scaling")
    score = 50 if min_score is None else min_score
    paths = sorted(folder.glob("*.txt"))
    return [
        Instance(suite, p.stem, p, words=WordSource(words_path, top_n), min_score=score)
        for top_n in SCALING_LIST_SIZES
        for p in paths
    ]


def file_instances(paths: Iterable[str], *, words_path: str | None, min_score: int | None) -> list[Instance]:
    """Instances for grid files named on the command line (XCSP files bring their own words)."""
    instances = []
    for text in paths:
        path = Path(text)
        if path.name.endswith(XCSP_SUFFIXES):
            instances.append(Instance("files", _xcsp_name(path), path, min_score=min_score or 0))
        else:
            name = path.name.removesuffix(".txt")
            instances.append(
                Instance(
                    "files", name, path, words=WordSource(words_path), min_score=50 if min_score is None else min_score
                )
            )
    return instances


def _vanbeek_names(folder: Path) -> list[str]:
    index = folder / "index.tsv"
    if index.is_file():
        lines = index.read_text().splitlines()[1:]
        return [line.split("\t")[1] for line in lines if line.strip()]
    return sorted(p.stem for p in folder.glob("*.txt") if p.stem[:1].isdigit() or p.stem.startswith("puzzle"))


def _xcsp_name(path: Path) -> str:
    name = path.name
    for suffix in (".xz", ".lzma", ".xml"):
        name = name.removesuffix(suffix)
    return name
