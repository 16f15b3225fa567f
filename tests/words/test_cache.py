"""The on-disk cache of compiled word lists (xwcp/words/cache.py, through load_word_list): written under
XWCP_CACHE_DIR, read back identical without parsing, keyed by content, rebuilt when corrupt; a mapped list checks
each length on first use."""

from __future__ import annotations

import numpy as np
import pytest

from tests.words.test_wordlist import ARRAYS, all_words, write
from xwcp.words.wordlist import load_word_list, read_mapped_word_list


def test_cache_is_written_under_xwcp_cache_dir(tmp_path, cache):
    load_word_list(write(tmp_path, "CAT;70\nDOG\n"))
    folders = [p for p in cache.iterdir() if p.is_dir()]
    assert len(folders) == 1
    assert {p.name for p in folders[0].iterdir()} >= {f"{name}.npy" for name in ARRAYS}


def test_second_load_is_identical(tmp_path, cache):
    path = write(tmp_path, "CAT;70\nDOG;oops\nHORSE\nR2D2\nACT;20\n")
    first = load_word_list(path)
    second = load_word_list(path)
    for name in ARRAYS:
        a, b = getattr(first, name), getattr(second, name)
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b), name
    assert second.problems == first.problems
    assert second.n_problems == first.n_problems == 2
    assert [line for line, _ in second.problems] == [2, 4]
    assert second.source == str(path)
    # Same answers through the public lookups, too.
    assert all_words(second) == all_words(first) == {"CAT": 70, "HORSE": 50, "ACT": 20}


def test_second_load_comes_from_the_cache(tmp_path, cache, monkeypatch):
    import xwcp.words.wordlist as wordlist

    path = write(tmp_path, "CAT;70\nDOG;x\n")
    load_word_list(path)

    def no_parsing(*args, **kwargs):
        raise AssertionError("the list was parsed again instead of read from the cache")

    monkeypatch.setattr(wordlist, "_parse_in_chunks", no_parsing)
    again = load_word_list(path)
    assert all_words(again) == {"CAT": 70}
    assert again.n_problems == 1 and again.problems[0][0] == 2


def test_cache_is_keyed_by_content_not_path(tmp_path, cache):
    path = write(tmp_path, "CAT;70\nDOG;60\n")
    assert all_words(load_word_list(path)) == {"CAT": 70, "DOG": 60}
    path.write_text("CAT;10\nEMU;60\n")
    assert all_words(load_word_list(path)) == {"CAT": 10, "EMU": 60}
    path.write_text("CAT;70\nDOG;60\n")
    assert all_words(load_word_list(path)) == {"CAT": 70, "DOG": 60}


def test_without_cache_nothing_is_written(tmp_path, cache):
    words = load_word_list(write(tmp_path, "CAT;70\n"), use_cache=False)
    assert all_words(words) == {"CAT": 70}
    assert not cache.exists() or not any(cache.iterdir())


def test_corrupt_cache_is_rebuilt(tmp_path, cache):
    path = write(tmp_path, "CAT;70\nDOG;60\n")
    load_word_list(path)
    (folder,) = [p for p in cache.iterdir() if p.is_dir()]
    (folder / "meta.json").write_text("{not json")
    assert all_words(load_word_list(path)) == {"CAT": 70, "DOG": 60}


def test_words_of_a_length_are_verified_when_first_used(files):
    """The mapped list checks the words of each length the first time it is used (`cache.verify_bucket`)."""
    from xwcp.words import cache

    listed = files("words.txt", "ABC\nBCD\nCDE\nDEF\nAAAA\n")
    load_word_list(listed)
    words = read_mapped_word_list(listed)
    l_off = words.table_rows[-1][2]
    words.letters_flat[l_off] = 30  # the map is private: only this object sees the damage
    with pytest.raises(cache.CacheDamaged):
        words.row(4)
    assert read_mapped_word_list(listed).word_id("AAAA") == 0  # a fresh map of the file is sound


# ----- damage in place, size and time kept: every byte is checked ---------------------------

CACHE_ARRAYS = ("letters_flat", "scores_flat", "order_flat", "starts_flat", "table", "bits_flat")


def _many_words(seed: int = 43, n_words: int = 10000, lengths=range(3, 19)) -> str:
    """A list big enough that each array but the table is over 16 KiB (a check of 4 KiB at the files' ends
    misses their middle half); random letters and scores 50-99, so zeroed bytes change the words, scores and
    index."""
    import random

    rng = random.Random(seed)
    words = {
        "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.choice(lengths))) for _ in range(n_words)
    }
    return "".join(f"{word};{rng.randrange(50, 100)}\n" for word in sorted(words))


def _damage_in_place(path, how: str) -> None:
    """Zero the middle half of `path` or flip one bit in its middle; its size and modification time are kept."""
    import os

    info = path.stat()
    with path.open("r+b") as handle:
        if how == "zero":
            handle.seek(info.st_size // 4)
            handle.write(bytes(info.st_size // 2))
        else:
            handle.seek(info.st_size // 2)
            byte = handle.read(1)[0]
            handle.seek(info.st_size // 2)
            handle.write(bytes([byte ^ 0x10]))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert path.stat().st_size == info.st_size and path.stat().st_mtime_ns == info.st_mtime_ns


def _folder(cache):
    (folder,) = [p for p in cache.iterdir() if p.is_dir()]
    return folder


def _assert_rebuilt(words, fresh, folder, file_name: str) -> None:
    """`words` was loaded after damage: one note naming the folder and the file, and the arrays of `fresh`."""
    assert len(words.notes) == 1, words.notes
    note = words.notes[0]
    assert "\n" not in note and "rebuilt the word-list cache" in note, note
    assert str(folder) in note and file_name in note, note
    for name in CACHE_ARRAYS:
        assert np.array_equal(getattr(words, name), getattr(fresh, name)), name


@pytest.mark.parametrize("how", ["zero", "flip"])
@pytest.mark.parametrize("name", CACHE_ARRAYS)
def test_array_damaged_in_place_is_found_and_rebuilt(tmp_path, cache, name, how):
    path = write(tmp_path, _many_words())
    fresh = load_word_list(path, use_cache=False)
    load_word_list(path)
    folder = _folder(cache)
    if name != "table":  # else a check of the ends alone would see the damage
        assert (folder / f"{name}.npy").stat().st_size >= 4 * 4096
    _damage_in_place(folder / f"{name}.npy", how)
    words = load_word_list(path)
    _assert_rebuilt(words, fresh, folder, f"{name}.npy")
    assert "checksum mismatch" in words.notes[0]
    again = load_word_list(path)  # the rebuilt cache is sound: read, not compiled, and quiet
    assert again.notes == [] and all_words(again) == all_words(fresh)


@pytest.mark.parametrize("how", ["zero", "flip"])
@pytest.mark.parametrize("name", CACHE_ARRAYS)
def test_command_line_fill_over_a_damaged_cache_is_right(files, capsys, name, how):
    """The command line reads the list mapped (`read_mapped_word_list`); a damaged array of the length the
    grid uses is found before the search reads it: the fill is right, and one line says the cache was rebuilt."""
    import json

    from tests.helpers import fill_violations
    from xwcp.cli.commands import main
    from xwcp.model.alphabet import ENGLISH

    words_path = files("w.txt", _many_words(n_words=12000, lengths=[3]))
    grid = files("g.txt", "...\n...\n...\n")
    listed = {word for word, score in all_words(load_word_list(words_path, use_cache=False)).items() if score >= 50}
    assert main(["fill", str(grid), "--words", str(words_path)]) == 0
    capsys.readouterr()
    folder = _folder(words_path.parent / "cache")
    if name not in ("table", "starts_flat"):  # else a check of the ends alone would see the damage
        assert (folder / f"{name}.npy").stat().st_size >= 4 * 4096
    _damage_in_place(folder / f"{name}.npy", how)
    code = main(["fill", str(grid), "--words", str(words_path), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    after = "".join(json.loads(out)["grid"])
    assert fill_violations(ENGLISH, "." * 9, after, 3, listed) == []
    notes = [line for line in err.splitlines() if "word-list cache" in line]
    assert len(notes) == 1 and f"{name}.npy" in notes[0] and str(folder) in notes[0], err
    assert main(["fill", str(grid), "--words", str(words_path)]) == 0
    assert "word-list cache" not in capsys.readouterr().err


def test_mapped_read_checks_the_lengths_it_uses(tmp_path, cache):
    """A mapped read checks a length's words when it is first used, so damage to another length costs this
    grid nothing and is found when that length is used."""
    from xwcp.words import cache as word_cache

    path = write(tmp_path, _many_words())
    load_word_list(path)
    words = read_mapped_word_list(path)
    row = words.table_rows[-1]  # the longest words: damage them
    folder = _folder(cache)
    info = (folder / "scores_flat.npy").stat()
    with (folder / "scores_flat.npy").open("r+b") as handle:
        handle.seek(info.st_size - 2 * row[1])  # the scores of the last length, at the end of the data
        handle.write(b"\x01")
    mapped = read_mapped_word_list(path)
    assert mapped.row(3)[0] == 3  # another length reads as it is
    with pytest.raises(word_cache.CacheDamaged, match=f"scores_flat.npy .*length {row[0]}"):
        mapped.row(row[0])


def test_truncated_array_is_rebuilt(tmp_path, cache):
    import os

    path = write(tmp_path, _many_words())
    fresh = load_word_list(path, use_cache=False)
    load_word_list(path)
    folder = _folder(cache)
    os.truncate(folder / "order_flat.npy", (folder / "order_flat.npy").stat().st_size - 4)
    words = load_word_list(path)
    _assert_rebuilt(words, fresh, folder, "order_flat.npy")
    assert "truncated" in words.notes[0]


def test_bad_npy_header_is_rebuilt(tmp_path, cache):
    """A header damaged in a way that still parses (its shape) is found by its checksum."""
    import os

    path = write(tmp_path, _many_words())
    fresh = load_word_list(path, use_cache=False)
    load_word_list(path)
    target = _folder(cache) / "letters_flat.npy"
    info = target.stat()
    raw = target.read_bytes()
    shape_at = raw.index(b"'shape': (") + len(b"'shape': (")
    other = b"2" if raw[shape_at : shape_at + 1] == b"1" else b"1"
    target.write_bytes(raw[:shape_at] + other + raw[shape_at + 1 :])  # another shape, same size
    os.utime(target, ns=(info.st_atime_ns, info.st_mtime_ns))
    words = load_word_list(path)
    _assert_rebuilt(words, fresh, _folder(cache), "letters_flat.npy")


@pytest.mark.parametrize("how", ["flip", "no checksums", "no checksum of one file", "deeply nested"])
def test_damaged_manifest_is_rebuilt(tmp_path, cache, how):
    import json

    from xwcp.words.cache import CHECKSUM_KEY, _meta_check

    path = write(tmp_path, _many_words())
    fresh = load_word_list(path, use_cache=False)
    load_word_list(path)
    folder = _folder(cache)
    meta_path = folder / "meta.json"
    if how == "flip":
        _damage_in_place(meta_path, how)
    elif how == "deeply nested":  # json.loads itself fails (RecursionError), not the manifest's checks
        meta_path.write_text("[" * 100_000 + "]" * 100_000)
    else:  # a manifest that passes its own check but lacks checksums (as a cache of older code would)
        meta = json.loads(meta_path.read_text())
        for name in meta["files"] if how == "no checksums" else ["bits_flat"]:
            del meta["files"][name][CHECKSUM_KEY]
        meta["check"] = _meta_check(meta)
        meta_path.write_text(json.dumps(meta))
    words = load_word_list(path)
    _assert_rebuilt(words, fresh, folder, "meta.json")
    if how == "no checksum of one file":
        assert "bits_flat.npy" in words.notes[0]


def test_cache_of_an_older_version_is_compiled_again_quietly(tmp_path, cache):
    """An older version's folder is not read (its name says its version): the list is compiled as after any
    upgrade, with no note, and the old folder is removed."""
    from xwcp.words.cache import CACHE_VERSION

    path = write(tmp_path, "CAT;70\nDOG;60\n")
    load_word_list(path)
    folder = _folder(cache)
    old = folder.with_name(folder.name.replace(f"-v{CACHE_VERSION}-", f"-v{CACHE_VERSION - 1}-"))
    folder.rename(old)
    words = load_word_list(path)
    assert words.notes == [] and all_words(words) == {"CAT": 70, "DOG": 60}
    assert not old.exists() and folder.is_dir()


def test_folder_replaced_while_it_is_read_is_read_again(tmp_path, cache, monkeypatch):
    """Another run rebuilds a damaged cache while this one reads it: this reader, which mapped the damaged
    file, reads the new folder again, says nothing (the other run says it rebuilt) and compiles nothing."""
    import xwcp.words.wordlist as wordlist
    from xwcp.words import cache as word_cache

    path = write(tmp_path, _many_words(n_words=3000))
    fresh = load_word_list(path, use_cache=False)
    load_word_list(path)
    _damage_in_place(_folder(cache) / "letters_flat.npy", "flip")  # the first file a read maps
    real_map = word_cache._map_array
    calls = []

    def map_while_another_run_rebuilds(file_path, name, entry):
        calls.append(name)
        if len(calls) == 2:  # the damaged file is mapped; another run replaces the folder under this reader
            arrays = {array: getattr(fresh, array) for array in word_cache.ARRAYS}
            assert word_cache.write(file_path.parent, arrays, problems=[], n_problems=0, notes=[], n_letters=26) is None
        return real_map(file_path, name, entry)

    def no_parsing(*args, **kwargs):
        raise AssertionError("the list was compiled again instead of read from the other run's cache")

    monkeypatch.setattr(word_cache, "_map_array", map_while_another_run_rebuilds)
    monkeypatch.setattr(wordlist, "_parse_in_chunks", no_parsing)
    words = load_word_list(path)
    assert words.notes == [] and len(calls) == 2 * len(word_cache.ARRAYS)  # read again after the replacement
    for name in CACHE_ARRAYS:
        assert np.array_equal(getattr(words, name), getattr(fresh, name)), name


@pytest.mark.subprocess
def test_two_runs_rebuilding_a_damaged_cache_at_once(tmp_path, cache):
    """Runs that find the same damaged cache rebuild it side by side: each answers right, and the folder
    left is sound, with no temporary folder."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    path = write(tmp_path, _many_words())
    expected = len(all_words(load_word_list(path, use_cache=False)))
    load_word_list(path)
    folder = _folder(cache)
    _damage_in_place(folder / "bits_flat.npy", "zero")
    script = (
        "import sys; from xwcp.words.wordlist import load_word_list; w = load_word_list(sys.argv[1]); "
        "print(w.n_words, len(w.notes))"
    )
    env = dict(os.environ, PYTHONPATH=str(repo), XWCP_CACHE_DIR=str(cache))
    runs = [
        subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True, env=env)
        for _ in range(3)
    ]
    for run in runs:
        out, _ = run.communicate(timeout=120)
        assert run.returncode == 0
        n_words, n_notes = map(int, out.split())
        assert n_words == expected and n_notes <= 1
    assert [p.name for p in cache.iterdir()] == [folder.name]
    again = load_word_list(path)
    assert again.notes == [] and again.n_words == expected


def test_list_of_a_larger_alphabet_is_checked_with_its_own_sizes(tmp_path, cache):
    """A Spanish list (27 letters) is cached with checksums over its own index sizes: read back quietly, and
    found when damaged in place."""
    from xwcp.model.alphabet import load_alphabet

    spanish = load_alphabet("es")
    path = write(tmp_path, "".join(f"{word};60\n" for word in ("AÑO", "NIÑO", "NOS", "SOL", "ÑU", "PAN", "CAÑA")))
    load_word_list(path, alphabet=spanish)
    again = load_word_list(path, alphabet=spanish)
    assert again.notes == [] and again.n_words == 7
    assert read_mapped_word_list(path, alphabet=spanish).row(4)[0] == 4
    _damage_in_place(_folder(cache) / "starts_flat.npy", "flip")
    damaged = load_word_list(path, alphabet=spanish)
    assert len(damaged.notes) == 1 and "starts_flat.npy" in damaged.notes[0]
    assert damaged.n_words == 7 and load_word_list(path, alphabet=spanish).notes == []
