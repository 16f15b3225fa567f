"""The user's personal word list: bans, boosts and added words kept in the user's data folder, layered over a list.

One file, `personal.dict` in the data folder ($XWCP_DATA_DIR, else $XDG_DATA_HOME/xwcp, else
~/.local/share/xwcp), in the ordinary `WORD;score` syntax: a word with a score adds it or sets
its score, a score of 0 bans it (the layering rule of `xwcp.words.wordlist.layer_word_lists`: a later
list's score of 0 or below removes the word). The web builder edits it; the CLI layers it with
`--personal`, so a ban made in the page holds in `xwcp fill` too. Writes are atomic (a temporary
file renamed into place) under a lock, so several `xwcp serve` processes can share it. Each language has
its own list (`personal.es.dict` for Spanish; English keeps `personal.dict`), its words written in the pack's
letters (IJ, not a code char) and read through it.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from xwcp.base.errors import InputError
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.runtime.writes import OutputError, locked, write_output
from xwcp.words.wordlist import MAX_SCORE, normalise_word, parse_word_lines

PERSONAL_NAME = "personal.dict"
BAN_SCORE = 0
"""The score that bans a word (layering removes words scored 0 or below)."""
MAX_PERSONAL_WORDS = 200_000
"""Most entries a personal list may hold: a big personal list belongs in its own file, passed with --words."""
MAX_WORD_LETTERS = 64
"""Longest word a personal list may hold (an edit, an upload or the file): no grid holds a longer entry."""
MAX_PERSONAL_BYTES = 8 * 1024 * 1024
"""Largest personal list file read (200,000 words of 64 letters with their scores fit)."""
HEADER = (
    "# xwcp personal word list: WORD;score lines layered over the word list; a score of 0 bans the word.\n"
    "# Kept by the web builder (xwcp serve); the CLI uses it with --personal.\n"
)


def data_dir() -> Path:
    """The user's xwcp data folder: $XWCP_DATA_DIR, else $XDG_DATA_HOME/xwcp, else ~/.local/share/xwcp."""
    env = os.environ.get("XWCP_DATA_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "xwcp"


def personal_path(alphabet: Alphabet = ENGLISH) -> Path:
    """Where the personal list of `alphabet`'s language lives (it may not exist yet)."""
    return data_dir() / (PERSONAL_NAME if alphabet.is_ascii else f"personal.{alphabet.code}.dict")


@dataclass(frozen=True)
class Stamp:
    """What changes when the file is rewritten: a server compares it to know when to reload."""

    mtime_ns: int
    size: int
    inode: int


def stamp(path: Path | None = None) -> Stamp | None:
    """The personal list's stamp, or None when there is no file."""
    try:
        info = (path or personal_path()).stat()
    except OSError:
        return None
    return Stamp(info.st_mtime_ns, info.st_size, info.st_ino)


def read_personal(path: Path | None = None, alphabet: Alphabet = ENGLISH) -> dict[str, int]:
    """{word: score} of the personal list ({} when there is none), words in `alphabet`'s code chars; a score of
    0 is a ban.

    Raises:
        InputError: the file exists but cannot be read or has malformed lines.
    """
    from xwcp.runtime.files import read_bounded

    path = path or personal_path(alphabet)
    if not path.exists():  # (a dangling link too: no list yet)
        return {}
    raw = read_bounded(path, MAX_PERSONAL_BYTES, "personal word-list")  # a FIFO or a device put there: refused
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read the personal word list ({exc})", str(path)) from None
    score_by_word, problems, _ = parse_word_lines(text, str(path), alphabet=alphabet)
    if problems:
        line, what = problems[0]
        raise InputError(f"{what} (fix or delete the line)", str(path), line)
    _check_words(score_by_word, text, str(path), "(fix or delete the line)", alphabet)
    return score_by_word


def parse_upload(
    text: str, source: str = "uploaded list", alphabet: Alphabet = ENGLISH, notes: list[str] | None = None
) -> tuple[dict[str, int], list[tuple[int, str]], int]:
    """A list the user uploads: ({word: score}, the first skipped lines, how many were skipped).

    Scores are clamped to 0..MAX_SCORE (0 bans); a line that is no word is skipped, not fatal. Its words are read
    as typed words are (`clean_word`): a line with a character the alphabet cannot keep is skipped and named, and
    `notes` (when given) gets one line naming the words stored with the letters the pack writes them with.

    Raises:
        InputError: a word longer than MAX_WORD_LETTERS (naming its line), or more than MAX_PERSONAL_WORDS words:
            the upload is refused whole.
    """
    score_by_word, problems, n_problems = parse_word_lines(text, source, notes, alphabet=alphabet, typed=True)
    _check_words(score_by_word, text, source, "(the upload is refused; nothing was changed)", alphabet)
    return {word: max(BAN_SCORE, min(MAX_SCORE, score)) for word, score in score_by_word.items()}, problems, n_problems


def _check_words(
    score_by_word: Mapping[str, int], text: str, source: str, advice: str, alphabet: Alphabet = ENGLISH
) -> None:
    """Refuse (InputError) more than MAX_PERSONAL_WORDS words or a word over MAX_WORD_LETTERS, naming its line."""
    if len(score_by_word) > MAX_PERSONAL_WORDS:
        raise InputError(
            f"{len(score_by_word):,} words; a personal list holds at most {MAX_PERSONAL_WORDS:,} "
            "(pass a big list with --words instead)",
            source,
        )
    if all(len(word) <= MAX_WORD_LETTERS for word in score_by_word):
        return
    for line_no, line in enumerate(text.splitlines(), start=1):  # the line of the first long word
        word = normalise_word(line.partition(";")[0].strip(), alphabet)
        if word is not None and len(word) > MAX_WORD_LETTERS:
            raise InputError(
                f"a word of {len(word):,} letters ({word[:12]}...); the most is {MAX_WORD_LETTERS} " + advice,
                source,
                line_no,
            )
    raise InputError(f"a word longer than {MAX_WORD_LETTERS} letters {advice}", source)  # not found by line


def clean_word(raw: object, alphabet: Alphabet = ENGLISH, notes: list[str] | None = None) -> str:
    """A word the user typed (an edit of the personal list), as the grid reader reads letters
    (`Alphabet.typed_word`): NFC, upper case, the pack's letters; a character the pack's own rules write as other
    letters is stored so (CAFÉ is CAFE in English) and `notes` gets one line naming it.

    Raises:
        InputError: a character the alphabet cannot keep (a ligature such as ﬁ, English's dotless ı, another
            script), naming the word and the character, and the word it must be typed as when there is one; no
            letters; more than MAX_WORD_LETTERS letters.
    """
    letters = "letters A-Z" if alphabet.is_ascii else f"{alphabet.name} letters"
    text = unicodedata.normalize("NFC", raw[:200]) if isinstance(raw, str) else raw  # shown as the reader sees it
    shown = repr(text) if len(repr(text)) <= 80 else repr(text)[:76] + "...'"
    if not isinstance(raw, str):
        raise InputError(f"{shown} is not a word of {letters} ({MAX_WORD_LETTERS} at most)")
    read = alphabet.typed_word(raw.strip())
    if read.word is None and read.refused != "no letters":
        listed = alphabet.fold_word(raw)
        hint = (
            f"; type {alphabet.written(listed)} to edit that word" if listed and len(listed) <= MAX_WORD_LETTERS else ""
        )
        raise InputError(f"{shown} is not a word of {letters}: it has {read.refused}{hint}")
    if read.word is None or len(read.word) > MAX_WORD_LETTERS:
        raise InputError(f"{shown} is not a word of {letters} ({MAX_WORD_LETTERS} at most)")
    if read.folds and notes is not None:
        notes.append(f"{shown} is stored as {alphabet.written(read.word)} ({', '.join(read.folds)} in {alphabet.name})")
    return read.word


def clean_score(raw: object) -> int:
    """A score 0..MAX_SCORE (0 bans). Raises InputError otherwise."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= MAX_SCORE:
        raise InputError(f"a score must be a whole number from 0 (ban) to {MAX_SCORE}, got {raw!r}")
    return raw


def update_personal(
    changes: Mapping[str, int | None], *, replace: bool = False, path: Path | None = None, alphabet: Alphabet = ENGLISH
) -> dict[str, int]:
    """Apply `changes` ({word: score}, None removes the entry) to the personal list and write it atomically.

    With `replace` the list becomes `changes` (without its None entries). Returns the new list.

    Raises:
        InputError: the data folder cannot be written, or the list would exceed MAX_PERSONAL_WORDS.
    """
    path = path or personal_path(alphabet)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(
            f"cannot create the data folder ({exc.strerror or exc}); set XWCP_DATA_DIR", str(path.parent), exc.errno
        ) from None
    with locked(path, "personal word list"):
        current = {} if replace else read_personal(path, alphabet)
        for word, score in changes.items():
            if score is None:
                current.pop(word, None)
            else:
                current[word] = score
        if len(current) > MAX_PERSONAL_WORDS:
            raise InputError(
                f"the personal list would hold {len(current):,} words; the most is "
                f"{MAX_PERSONAL_WORDS:,} (pass a big list with --words instead)"
            )
        written = alphabet.written  # code chars of a letter such as IJ belong to this process: the file has "IJ"
        body = HEADER + "".join(f"{written(word)};{score}\n" for word, score in sorted(current.items()))
        _write_atomic(path, body)
    return current


def _write_atomic(path: Path, text: str) -> None:
    write_output(path, text, "personal word-list")  # whole or not at all: a full disk keeps the old list
