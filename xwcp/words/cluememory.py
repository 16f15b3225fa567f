"""The constructor's clue memory on disk: the clues written for each answer in earlier puzzles, the newest first.

One JSON file, `clues.json` in the data folder ($XWCP_DATA_DIR, else $XDG_DATA_HOME/xwcp, else ~/.local/share/xwcp),
`{"ANSWER": ["clue", ...]}`, the same shape as the web builder's memory in the browser (cluememory.js), with the
same bounds: PER_ANSWER clues an answer, MAX_ANSWERS answers (the least recently written dropped first). Writes are
whole or nothing (`xwcp.runtime.writes`) under a lock, so two processes never lose each other's clues.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from xwcp.base.errors import InputError
from xwcp.runtime.writes import OutputError, locked, write_output
from xwcp.words.dictionary import answer_key
from xwcp.words.userwords import data_dir

PER_ANSWER = 5
"""The latest clues kept for one answer (as the builder keeps)."""
MAX_ANSWERS = 20_000
"""Answers kept; past this the least recently written go (a file of about 2 MB)."""
MAX_CLUE_CHARS = 2000
"""Longest clue remembered; a longer text is no clue but a pasted document."""


def memory_path() -> Path:
    """The clue memory's file."""
    return data_dir() / "clues.json"


def read_memory(path: Path | None = None) -> dict[str, list[str]]:
    """Answer -> its clues, the newest first; {} when there is no file yet.

    Raises:
        InputError: the file is there but is not a clue memory (naming it).
    """
    path = path or memory_path()
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the clue memory ({exc})") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InputError(f"{path}: the clue memory is not JSON ({exc}); move it away to start a new one") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: the clue memory must be an object of answers, not {type(data).__name__}")
    return {
        str(k): [c for c in v if isinstance(c, str)][:PER_ANSWER]
        for k, v in data.items()
        if isinstance(v, list) and answer_key(str(k)) == k
    }


def recall(answer: str, path: Path | None = None) -> list[str]:
    """The clues remembered for `answer` (any spelling), the newest first."""
    return list(read_memory(path).get(answer_key(answer), []))


def remember(pairs: Iterable[tuple[str, str]], path: Path | None = None) -> int:
    """Remember each (answer, clue), later pairs newer; returns how many were new. Empty answers and clues are
    skipped, a clue already remembered moves to the front.

    Raises:
        OutputError: the data folder cannot be written.
    """
    path = path or memory_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(
            f"cannot create the data folder ({exc.strerror or exc}); set XWCP_DATA_DIR", str(path.parent), exc.errno
        ) from None
    n_new = 0
    with locked(path, "clue memory"):
        memory = read_memory(path)
        for answer, text in pairs:
            key = answer_key(answer)
            clue = " ".join(text.split())[:MAX_CLUE_CHARS]
            if not key or not clue:
                continue
            known = memory.pop(key, [])
            n_new += clue not in known
            memory[key] = [clue, *(c for c in known if c != clue)][:PER_ANSWER]
        while len(memory) > MAX_ANSWERS:
            del memory[next(iter(memory))]
        write_output(path, json.dumps(memory, ensure_ascii=False, indent=0), "clue memory")
    return n_new
