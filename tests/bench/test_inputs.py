"""Loading a bench's grids and lists (xwcp/bench/inputs.py): the best entries of a list."""

from __future__ import annotations

from xwcp import bench


def test_best_entries_keeps_highest_scores_ties_alphabetical():
    from xwcp.words.wordlist import words_from_pairs

    words = words_from_pairs([("ZZZ", 90), ("BBB", 70), ("AAA", 70), ("CC", 70), ("DD", 10)])
    best = bench.best_entries(words, 3)
    assert sorted(bench.word_pairs(best, best.lengths, 0)) == [("AAA", 70), ("BBB", 70), ("ZZZ", 90)]


def _damage_in_place(path) -> None:
    """Flip one bit in the middle of `path`, its size and modification time kept."""
    import os

    info = path.stat()
    with path.open("r+b") as handle:
        handle.seek(info.st_size // 2)
        byte = handle.read(1)[0]
        handle.seek(info.st_size // 2)
        handle.write(bytes([byte ^ 0x01]))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def test_cli_inputs_damaged_in_place_are_written_again(tmp_path, monkeypatch):
    """The grid and list files written for the `xwcp fill` entrant are cached under the cache folder; one
    damaged in place (size and time kept) is written again, never handed to a timed command."""
    from xwcp.bench.inputs import Loaded, prepare_cli_inputs
    from xwcp.bench.suites import Instance, WordSource
    from xwcp.model import parse_grid
    from xwcp.words.wordlist import words_from_pairs

    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    words = words_from_pairs([("CAB", 60), ("ORE", 60), ("WET", 60), ("COW", 60), ("ARE", 60), ("BET", 60)])
    instance = Instance("made", "x", rows=("...", "...", "..."), words=WordSource(None, 6))
    loaded = Loaded(parse_grid("...\n...\n...\n"), words, 6, 50, False, "k")
    prepare_cli_inputs(instance, loaded)
    assert loaded.grid_path is not None and loaded.words_arg is not None
    written = {path: path.read_bytes() for path in (loaded.grid_path, tmp_path / "cache" / loaded.words_arg)}
    for path in written:
        _damage_in_place(path)
    prepare_cli_inputs(instance, loaded)
    assert {path: path.read_bytes() for path in written} == written
