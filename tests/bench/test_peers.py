"""Tests for xwcp.bench.peers: each installed peer fills, proves unfillable and stops at its limit.

Tests of a peer that is not installed are skipped (install with bench/peers/install.sh).
An unknown peer name is a programming error: ValueError. A known peer that is not
installed gives PeerStatus.SKIPPED.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from xwcp.bench.peers import PEERS, PeerStatus, peer_available, run_peer

INSTALLED = [
    pytest.param(
        name,
        marks=[pytest.mark.peers, pytest.mark.skipif(not peer_available(name), reason=f"peer {name} not installed")],
    )
    for name in PEERS
]

# A 5x5 with two corner blocks; one fill is BAKE/BRUNO/LADEN/EVILS/WOOT across and
# BLEW/BRAVO/AUDIO/KNELT/EONS down. The other words are distractors.
GRID_5X5 = (
    "#..K.",
    ".....",
    ".....",
    ".....",
    "....#",
)
WORDS_5X5 = [
    (word, 50)
    for word in (
        "BAKE BRUNO LADEN EVILS WOOT BLEW BRAVO AUDIO KNELT EONS "
        "BIKE BRAVE LEVEL OATS AUDIT KNEEL EASY OVALS SNOWS TAKE"
    ).split()
]

# Last row must be WOR?, last column ZER?: they share the corner, and no word fits both.
GRID_WOR_ZER = (
    "...Z",
    "...E",
    "...R",
    "WOR.",
)
WORDS_WOR_ZER = [(word, 50) for word in "WORD WORK WORM ZERO ABLE BASE AREA EASE ARID ABBA".split()]


def _slots(rows: tuple[str, ...]) -> list[list[tuple[int, int]]]:
    """Maximal runs of >= 2 non-block cells, across then down (independent of xwcp.bench.peers)."""
    height, width = len(rows), len(rows[0])
    lines = [[(r, c) for c in range(width)] for r in range(height)]
    lines += [[(r, c) for r in range(height)] for c in range(width)]
    slots = []
    for line in lines:
        run: list[tuple[int, int]] = []
        for cell in line:
            if rows[cell[0]][cell[1]] != "#":
                run.append(cell)
            else:
                if len(run) >= 2:
                    slots.append(run)
                run = []
        if len(run) >= 2:
            slots.append(run)
    return slots


def _fill_violations(grid: tuple[str, ...], filled: tuple[str, ...], words, unique: bool = True) -> list[str]:
    """Every way `filled` breaks the rules for `grid` and `words` (empty list = valid fill)."""
    problems = []
    if len(filled) != len(grid) or any(len(a) != len(b) for a, b in zip(filled, grid)):
        return [f"shape changed: {filled}"]
    for row, (before, after) in enumerate(zip(grid, filled)):
        for col, (old, new) in enumerate(zip(before, after)):
            if old == "#" and new != "#":
                problems.append(f"block at r{row}c{col} became {new!r}")
            if old.isalpha() and new != old:
                problems.append(f"pre-filled {old!r} at r{row}c{col} became {new!r}")
    word_set = {word for word, _ in words}
    placed = []
    for slot in _slots(grid):
        word = "".join(filled[r][c] for r, c in slot)
        placed.append(word)
        if word not in word_set:
            problems.append(f"{word!r} is not in the word list")
    if unique and len(set(placed)) != len(placed):
        problems.append(f"a word is used twice: {sorted(placed)}")
    return problems


def _peer_processes_left(workdir: Path) -> list[str]:
    """Command lines of live processes that mention our workdir (a peer's deck or model)."""
    left = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(workdir) in cmdline:
            left.append(cmdline)
    return left


def test_checker_catches_bad_fills():
    good = ("#BAKE", "BRUNO", "LADEN", "EVILS", "WOOT#")
    assert _fill_violations(GRID_5X5, good, WORDS_5X5) == []
    assert _fill_violations(GRID_5X5, ("#BIKE",) + good[1:], WORDS_5X5)  # loses the pre-filled K
    assert _fill_violations(("...", "...", "..."), ("CAT", "ARE", "TEN"), [(w, 50) for w in ("CAT", "ARE", "TEN")])


def test_unknown_peer_is_a_value_error(tmp_path):
    with pytest.raises(ValueError):
        peer_available("nope")
    with pytest.raises(ValueError):
        run_peer("nope", ["..."], [("CAT", 50)], 1.0, workdir=tmp_path)


@pytest.mark.parametrize("name", PEERS)
def test_bad_input_is_a_value_error(name, tmp_path):
    with pytest.raises(ValueError):
        run_peer(name, ["...", ".."], [("CAT", 50)], 1.0, workdir=tmp_path)
    with pytest.raises(ValueError):
        run_peer(name, ["..."], [("cat", 50)], 1.0, workdir=tmp_path)


@pytest.mark.subprocess
@pytest.mark.parametrize("name", INSTALLED)
def test_fills_small_grid_with_prefilled_letter(name, tmp_path):
    result = run_peer(name, GRID_5X5, WORDS_5X5, 20.0, workdir=tmp_path)
    assert result.status is PeerStatus.FILLED, result.note
    assert result.peer == name
    assert _fill_violations(GRID_5X5, result.rows, WORDS_5X5) == []
    assert result.wall_time_s > 0


@pytest.mark.subprocess
@pytest.mark.parametrize("name", INSTALLED)
def test_corner_clash_is_unfillable(name, tmp_path):
    result = run_peer(name, GRID_WOR_ZER, WORDS_WOR_ZER, 20.0, workdir=tmp_path)
    assert result.status is PeerStatus.UNFILLABLE, result.note
    assert result.rows is None


@pytest.mark.subprocess
@pytest.mark.parametrize("name", INSTALLED)
def test_unique_forbids_repeats(name, tmp_path):
    # A 3x3 word square fills only by using each word twice (across and down).
    words = [(word, 50) for word in ("CAT", "ARE", "TEN")]
    repeated = run_peer(name, ("...", "...", "..."), words, 20.0, unique=False, workdir=tmp_path)
    assert repeated.status is PeerStatus.FILLED, repeated.note
    assert _fill_violations(("...", "...", "..."), repeated.rows, words, unique=False) == []
    distinct = run_peer(name, ("...", "...", "..."), words, 20.0, unique=True, workdir=tmp_path)
    assert distinct.status is PeerStatus.UNFILLABLE, distinct.note


@pytest.mark.subprocess
@pytest.mark.parametrize("name", INSTALLED)
def test_best_scored_word_comes_first(name, tmp_path):
    for best in ("CAT", "DOG"):
        words = [(word, 90 if word == best else 10) for word in ("CAT", "DOG", "EMU")]
        result = run_peer(name, ("...",), words, 20.0, workdir=tmp_path)
        assert result.rows == (best,), result.note


@pytest.mark.subprocess
@pytest.mark.parametrize("name", INSTALLED)
def test_stops_at_time_limit_and_leaves_no_process(name, tmp_path):
    # 5000 random 7-letter words over 10 letters: an open 7x7 keeps both peers busy for seconds.
    rng = random.Random(1)
    words = sorted({"".join(rng.choice("ETAOINSRHL") for _ in range(7)) for _ in range(5000)})
    result = run_peer(name, ("." * 7,) * 7, [(word, 50) for word in words], 0.5, workdir=tmp_path)
    assert result.status is PeerStatus.LIMIT, result.note
    assert result.rows is None
    # stopped at the limit, not long after; the upper bound allows for gecode's start-up on a
    # loaded 2-core machine
    assert 0.4 < result.wall_time_s < 15.0
    assert _peer_processes_left(tmp_path) == []


@pytest.mark.subprocess
@pytest.mark.parametrize("name", INSTALLED)
def test_word_file_is_written_once_and_reused(name, tmp_path):
    first = run_peer(name, GRID_5X5, WORDS_5X5, 20.0, workdir=tmp_path)
    assert first.status is PeerStatus.FILLED, first.note
    assert _fill_violations(GRID_5X5, first.rows, WORDS_5X5) == []
    cached = [path for path in tmp_path.iterdir() if path.is_file()]
    assert len(cached) == 1  # the dictionary, named by content hash; scratch files are gone
    mtime = cached[0].stat().st_mtime_ns
    again = run_peer(name, GRID_5X5, WORDS_5X5, 20.0, workdir=tmp_path)
    assert again.status is PeerStatus.FILLED, again.note
    assert _fill_violations(GRID_5X5, again.rows, WORDS_5X5) == []
    assert [path for path in tmp_path.iterdir() if path.is_file()] == cached
    assert cached[0].stat().st_mtime_ns == mtime

    word_file = tmp_path / "mine" / ("words.dzn" if name == "gecode" else "words.txt")
    given = run_peer(name, GRID_5X5, WORDS_5X5, 20.0, workdir=tmp_path, word_file=word_file)
    assert given.status is PeerStatus.FILLED, given.note
    assert _fill_violations(GRID_5X5, given.rows, WORDS_5X5) == []
    assert word_file.read_bytes() == cached[0].read_bytes()
    if name == "gecode":
        with pytest.raises(ValueError):
            run_peer(name, GRID_5X5, WORDS_5X5, 20.0, workdir=tmp_path, word_file=tmp_path / "words.txt")


@pytest.mark.parametrize("name", PEERS)
def test_missing_peer_is_skipped(name, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr("xwcp.bench.peers.QXW_FALLBACK_PATHS", ())
    monkeypatch.setattr("xwcp.bench.peers.BLACKSQUARE_MODULE", "no_such_blacksquare_module")
    assert not peer_available(name)
    result = run_peer(name, GRID_5X5, WORDS_5X5, 1.0, workdir=tmp_path)
    assert result.status is PeerStatus.SKIPPED
    assert "not installed" in result.note and result.wall_time_s == 0.0


def _fake_command(folder: Path, name: str, script: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + script)
    path.chmod(0o755)


@pytest.mark.parametrize(
    ("name", "fake", "script"),
    [
        ("qxw", "qxw", "echo 'W0 hello'\n"),  # garbage on exit 0
        ("qxw", "qxw", "echo 'Error at line 3: Syntax error' >&2\nexit 16\n"),
        pytest.param(
            "gecode",
            "fzn-gecode",
            "echo 'segfault-ish noise'\nexit 139\n",
            marks=[
                pytest.mark.peers,
                pytest.mark.skipif(not peer_available("gecode"), reason="peer gecode not installed"),
            ],
        ),
    ],
)
def test_peer_failure_is_an_error_result(name, fake, script, tmp_path, monkeypatch):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _fake_command(bin_dir, fake, script)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    result = run_peer(name, GRID_5X5, WORDS_5X5, 10.0, workdir=tmp_path / "work")
    assert result.status is PeerStatus.ERROR
    assert result.rows is None and result.note


# A stand-in for the blacksquare package (the child imports it by BLACKSQUARE_MODULE): its Crossword.fill
# answers FILL (rows, '#' blocks) or raises, so the peer's reading and checking of answers is tested
# whether or not Blacksquare is installed.
FAKE_BLACKSQUARE = """
FILL = {fill!r}

class WordList:
    def __init__(self, path):
        self.words = [line.split(";")[0] for line in open(path)]

class _Cell:
    def __init__(self, text):
        self.str = text

class Crossword:
    def __init__(self, grid, symmetry, word_list):
        self.grid = grid

    def fill(self, **options):
        if FILL == "crash":
            raise RuntimeError("fake blacksquare exploded")
        return None if FILL is None else self

    def itercells(self):
        return [_Cell("\u2588" if ch == "#" else ch) for row in FILL for ch in row]
"""


@pytest.mark.parametrize(
    ("fill", "status", "note"),
    [
        (("CAT", "ARE", "TEN"), PeerStatus.ERROR, "repeated words"),  # a word twice, completed by crossings
        (("CAT", "ARE", "TEX"), PeerStatus.ERROR, "not in the word list"),
        ("crash", PeerStatus.ERROR, "fake blacksquare exploded"),
        (None, PeerStatus.UNFILLABLE, "ended without a fill"),
        (("CAT", "O#E", "WEN"), PeerStatus.FILLED, "fill"),
    ],
)
@pytest.mark.subprocess
def test_blacksquare_answers_are_checked(fill, status, note, tmp_path, monkeypatch):
    module = tmp_path / "fake_blacksquare.py"
    module.write_text(FAKE_BLACKSQUARE.format(fill=fill))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
    monkeypatch.setattr("xwcp.bench.peers.BLACKSQUARE_MODULE", "fake_blacksquare")
    grid = ("...", ".#.", "...") if fill == ("CAT", "O#E", "WEN") else ("...", "...", "...")
    words = [(w, 50) for w in ("CAT", "ARE", "TEN", "COW", "WEN")]
    result = run_peer("blacksquare", grid, words, 20.0, workdir=tmp_path / "work")
    assert result.status is status and note in result.note, result
    if status is PeerStatus.FILLED:
        assert _fill_violations(grid, result.rows, words) == []


@pytest.mark.peers
@pytest.mark.skipif(not peer_available("qxw"), reason="peer qxw not installed")
@pytest.mark.parametrize(
    "code, grid, words",
    [
        # Spanish: Ñ is a letter of Qxw's ES alphabet (not N); the corner clash needs CAÑO
        ("es", ("...Ñ", "...O", "...Ñ", "CAÑ."), "ABCÑ DEFO GHIÑ ADGC BEHA CFIÑ CAÑA CAÑO ÑOÑO CANO NONO"),
        # Russian: Qxw's RU alphabet
        ("ru", ("К..", "...", "..."), "КОТ ОКО ТОК КОК ОТО ТОТ"),
    ],
)
def test_qxw_fills_other_alphabets(code, grid, words, tmp_path):
    from xwcp.model.alphabet import load_alphabet

    alphabet = load_alphabet(code)
    pairs = [(w, 50) for w in words.split()]
    result = run_peer("qxw", grid, pairs, 20.0, unique=code == "es", workdir=tmp_path, alphabet=alphabet)
    assert result.status is PeerStatus.FILLED, result.note
    assert all(ch in alphabet.chars for row in result.rows for ch in row if ch != "#")
    entries = list(result.rows) + ["".join(row[c] for row in result.rows) for c in range(len(grid[0]))]
    assert all(e in words.split() for e in entries) and all(
        g in ".#" or g == f for r, s in zip(grid, result.rows) for g, f in zip(r, s)
    )
    if code == "es":
        assert result.rows == ("ABCÑ", "DEFO", "GHIÑ", "CAÑO")


@pytest.mark.peers
@pytest.mark.skipif(not peer_available("qxw"), reason="peer qxw not installed")
def test_every_letter_of_a_pack_mapped_to_qxw_passes_through_qxw_unchanged(tmp_path):
    """A word of every letter of the pack, alone in one slot: Qxw gives it back only when none of the pack's letters
    is folded into another by Qxw's alphabet (its Hungarian folds Ó into O, so `hu` is not mapped)."""
    from xwcp.bench.peers import QXW_ALPHABET_BY_CODE
    from xwcp.model.alphabet import load_alphabet

    assert {"et", "sl", "ro", "grc"} <= set(QXW_ALPHABET_BY_CODE) and "hu" not in QXW_ALPHABET_BY_CODE
    for code in QXW_ALPHABET_BY_CODE:
        alphabet = load_alphabet(code)
        if alphabet.has_multi_letters:
            continue  # never given to Qxw
        word = alphabet.chars
        result = run_peer(
            "qxw", ("." * len(word),), [(word, 50)], 20.0, unique=False, workdir=tmp_path, alphabet=alphabet
        )
        assert result.status is PeerStatus.FILLED and result.rows == (word,), (code, result)


def test_peers_other_than_qxw_are_not_given_another_alphabet(tmp_path):
    from xwcp.model.alphabet import load_alphabet

    result = run_peer("gecode", ("..",), [("ÑA", 50)], 5.0, workdir=tmp_path, alphabet=load_alphabet("es"))
    assert result.status is PeerStatus.SKIPPED
    with pytest.raises(ValueError):
        run_peer("qxw", ("..",), [("ЖA", 50)], 5.0, workdir=tmp_path, alphabet=load_alphabet("es"))


@pytest.mark.subprocess
@pytest.mark.parametrize("name", INSTALLED)
@pytest.mark.parametrize("given", [False, True])
def test_word_file_damaged_in_place_is_written_again(name, given, tmp_path):
    """A peer's cached word-list file damaged in place (one bit, size and time kept) is written again before
    the peer reads it: the peer answers for the real words."""
    word_file = (tmp_path / "mine" / ("words.dzn" if name == "gecode" else "words.txt")) if given else None
    first = run_peer(name, GRID_5X5, WORDS_5X5, 20.0, workdir=tmp_path, word_file=word_file)
    assert first.status is PeerStatus.FILLED, first.note
    (cached,) = [word_file] if given else [path for path in tmp_path.iterdir() if path.is_file()]
    pristine = cached.read_bytes()
    info = cached.stat()
    kind = b"0123456789" if name == "gecode" else b"ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # a letter code, or a letter
    at = next(k for k in range(len(pristine) // 2, len(pristine)) if pristine[k] in kind)
    with cached.open("r+b") as handle:  # another word, or another letter of a word: same size
        handle.seek(at)
        handle.write(bytes([kind[(kind.index(pristine[at]) + 1) % len(kind)]]))
    os.utime(cached, ns=(info.st_atime_ns, info.st_mtime_ns))
    again = run_peer(name, GRID_5X5, WORDS_5X5, 20.0, workdir=tmp_path, word_file=word_file)
    assert cached.read_bytes() == pristine
    assert again.status is PeerStatus.FILLED, again.note
    assert _fill_violations(GRID_5X5, again.rows, WORDS_5X5) == []
