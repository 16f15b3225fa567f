"""Load a bench instance's grid and word list once, and write the files `xwcp fill` and the peers read."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from xwcp.bench.suites import Instance, WordSource

if TYPE_CHECKING:
    from xwcp.model import Grid
    from xwcp.services.load import LoadOptions
    from xwcp.words.wordlist import WordList


@dataclass
class Loaded:
    grid: Grid
    words: WordList
    n_words: int
    min_score: int
    allow_dupes: bool
    word_key: str
    grid_path: Path | None = None
    """A grid file the `xwcp fill` command can read (set when a "cli" entrant runs)."""
    words_arg: str | None = None
    """The --words file for the `xwcp fill` command (None: the default list)."""

    @property
    def options(self) -> LoadOptions:
        """How the grid and the list are compiled: the loader's options."""
        from xwcp.services.load import LoadOptions

        return LoadOptions(min_score=self.min_score, allow_dupes=self.allow_dupes)


class WordLists:
    """Word lists loaded once per bench run, keyed by source, each with a content key for peer files."""

    def __init__(self) -> None:
        self.by_source: dict[WordSource, tuple[WordList, str]] = {}

    def get(self, source: WordSource) -> tuple[WordList, str]:
        if source not in self.by_source:
            from xwcp.words.wordlist import load_word_list

            words = load_word_list(source.path)
            if source.top_n is not None and source.top_n < words.n_words:
                words = best_entries(words, source.top_n)
            self.by_source[source] = (words, _content_key(words))
        return self.by_source[source]


def best_entries(words: WordList, top_n: int) -> WordList:
    """The `top_n` highest-scored entries of `words` (ties alphabetical) as a new WordList."""
    from xwcp.words.wordlist import build_word_list

    pairs: list[tuple[str, int]] = []
    for length in words.lengths:
        pairs.extend(word_pairs(words, [length], min_score=-32768))
    pairs.sort(key=lambda pair: (-pair[1], pair[0]))
    return build_word_list(dict(pairs[:top_n]), f"{words.source}, best {top_n:,}")


def word_pairs(words: WordList, lengths: Iterable[int], min_score: int) -> list[tuple[str, int]]:
    """(word, score) for the listed words of the given lengths scoring at least `min_score`."""
    import numpy as np

    pairs: list[tuple[str, int]] = []
    for length in sorted(set(lengths)):
        bucket = words.bucket(length)
        keep = np.asarray(bucket.scores) >= min_score
        letters = np.asarray(bucket.letters)[keep]
        raw = (letters + 65).astype(np.uint8).tobytes().decode("ascii")
        texts = [raw[k * length : (k + 1) * length] for k in range(len(letters))]
        pairs.extend(zip(texts, np.asarray(bucket.scores)[keep].tolist()))
    return pairs


def _content_key(words: WordList) -> str:
    import hashlib

    import numpy as np

    digest = hashlib.sha256()
    for array in (words.table, words.letters_flat, words.scores_flat):
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()[:16]


def _n_words(words: WordList, min_score: int) -> int:
    import numpy as np

    return int(sum(int((np.asarray(words.bucket(length).scores) >= min_score).sum()) for length in words.lengths))


def load_instance(instance: Instance, lists: WordLists) -> Loaded:
    """The instance's grid and words. Raises InputError or ValueError (a file that cannot be used)."""
    from xwcp.model import parse_grid, read_grid

    if instance.path is not None and instance.is_xcsp:
        from xwcp.bench.xcsp import read_xcsp
        from xwcp.words.wordlist import words_from_pairs

        crossword = read_xcsp(instance.path)
        grid = parse_grid("\n".join(crossword.rows), str(instance.path))
        words = words_from_pairs(crossword.words, f"{instance.path} (its own words)")
        return Loaded(
            grid,
            words,
            _n_words(words, instance.min_score),
            instance.min_score,
            not crossword.distinct_words,
            _content_key(words),
        )
    if instance.rows is not None:
        grid = parse_grid("\n".join(instance.rows), instance.name)
    elif instance.path is not None:
        grid = read_grid(instance.path)
    else:
        raise ValueError(f"bench instance {instance.name} has neither a grid file nor rows")
    words, key = lists.get(instance.words)
    return Loaded(grid, words, _n_words(words, instance.min_score), instance.min_score, instance.allow_dupes, key)


def prepare_cli_inputs(instance: Instance, loaded: Loaded) -> None:
    """Give `loaded` a grid file and word-list file the `xwcp fill` command can read (untimed set-up).

    Grid files are used as they are; generated or XCSP grids and cut or XCSP lists are written
    under the cache directory (named by content; written again when a file does not hold its
    text), and each written list is loaded here so that its compiled cache exists, and has
    been checked, before any timed command reads it.
    """
    import hashlib

    from xwcp.words.cache import cache_dir
    from xwcp.words.wordlist import load_word_list

    folder = cache_dir() / "bench-inputs"
    if instance.path is not None and not instance.is_xcsp:
        loaded.grid_path = instance.path
    else:
        text = loaded.grid.render()
        loaded.grid_path = folder / f"grid-{hashlib.sha256(text.encode()).hexdigest()[:16]}.txt"
        _write_once(loaded.grid_path, text)
    if not instance.is_xcsp and instance.words.top_n is None:
        loaded.words_arg = instance.words.path
        return
    path = folder / f"words-{loaded.word_key}.txt"
    pairs = word_pairs(loaded.words, loaded.words.lengths, min_score=-32768)
    _write_once(path, "".join(f"{word};{score}\n" for word, score in pairs))
    load_word_list(path)
    loaded.words_arg = str(path)


def _write_once(path: Path, text: str) -> None:
    """Write `text` to `path` unless the file holds it already (a file damaged in place is written again)."""
    try:
        if path.read_text(encoding="ascii") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass  # not there yet, unreadable or damaged: written below
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="ascii")
    os.replace(tmp, path)
