"""The puzzle's language in the builder: the packs the page offers, and the word list a request in a language uses.

GET /api/languages answers the shipped packs (`xwcp.model.alphabet.shipped_alphabets`): code, name, letters,
their code chars (this process's: a letter of several code points gets a private-use char for the life of the
process, so the page keeps written letters in what it stores), direction, whether the pack is open (Hindi: any
akshara is a letter), the final forms of its letters where it has them (Hebrew: `"final": {"מ": "ם"}`, shown
where an entry ends), its fold map where it has one (`"fold": {"ם": "מ"}`, Romanian `{"Ş": "Ș"}`: the page folds
typed text by it first, as the lists do), and the list this server would use for the language (or null: none here).
Every analysis request, fill and design may carry `"language": "es"` (default: the language of the server's
own list). Its grid's cells are the pack's code chars (xwcp/model/alphabet.py: a letter of one code point is
itself, `[Ñ]` in a row; a letter of several, such as Dutch IJ, its private-use char).

The list for a language other than the server's own: the one the page uploaded for it (POST
/api/languages/CODE/words, kept as `<data folder>/words/CODE-page.dict`), else the newest list `xwcp words build
--language CODE` wrote there (`CODE-*.dict`). With none, the request is answered 409 naming both ways to get
one: the English list is never used for another language (its words would fill the grid in English).
The user's personal list (English words) layers over the server's own list only.
"""

from __future__ import annotations

import itertools
import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from xwcp.base.errors import InputError
from xwcp.model.alphabet import Alphabet, pack_alphabet, shipped_alphabets, shown_name
from xwcp.runtime.writes import OutputError, output_error
from xwcp.web.http import ApiError, error_response, read_body, storage_error
from xwcp.words.userwords import data_dir
from xwcp.words.wordlist import describe_problems, load_word_list

if TYPE_CHECKING:
    from xwcp.web.wordsource import WordSource
    from xwcp.words.wordlist import WordList

MAX_LIST_BYTES = 16 * 1024 * 1024
"""Largest list the page may upload for a language (a 400,000-word list is about 8 MB)."""
PAGE_LIST = "page"
"""The uploaded list's name part: `<code>-page.dict` in the lists folder."""

_tokens = itertools.count(1)


def lists_folder() -> Path:
    """Where a language's lists are: `<data folder>/words` (`xwcp words build` writes there too)."""
    return data_dir() / "words"


def language_field(body: dict[str, Any]) -> Alphabet | None:
    """The request's `"language"` as a shipped pack, None when not given; 400 for an unknown code (never a path:
    a request names no file on the server)."""
    code = body.get("language")
    if code is None or code == "":
        return None
    if not isinstance(code, str) or not any(code.lower() == a.code.lower() for a in shipped_alphabets()):
        known = ", ".join(a.code for a in shipped_alphabets())
        got = shown_name(code) if isinstance(code, str) else f"a {type(code).__name__}"
        raise ApiError(400, f"language must be one of {known}, got {got}")
    return pack_alphabet(code)


def list_path(alphabet: Alphabet) -> Path | None:
    """The list for `alphabet` here: the page's upload, else the newest built one; None when there is none."""
    folder = lists_folder()
    uploaded = folder / f"{alphabet.code}-{PAGE_LIST}.dict"
    if uploaded.is_file():
        return uploaded
    try:
        built = [path for path in folder.glob(f"{alphabet.code}-*.dict") if path.is_file()]
    except OSError:
        return None
    longer = tuple(f"{other.code}-" for other in shipped_alphabets() if other.code.startswith(f"{alphabet.code}-"))
    built = [path for path in built if not path.name.startswith(longer)]  # de-umlaut-*.dict is not German's (de)
    return max(built, key=lambda path: path.stat().st_mtime, default=None)


def missing_list(alphabet: Alphabet, server_list: str) -> str:
    """The one line a request in a language without a list gets."""
    return (
        f"no {alphabet.name} word list on this server (its list is {server_list}, which would fill the grid "
        f"with other words): upload a {alphabet.name} list in the Word list panel, or build one with "
        f"`xwcp words build --language {alphabet.code}`"
    )


class LanguageLists:
    """The word list per language: the server's own (with the personal list) for its language, else a language's
    list from the lists folder, loaded once and reloaded when its file changes."""

    def __init__(self, source: WordSource):
        self.source = source
        self._lock = threading.Lock()
        self._loaded: dict[str, tuple[object, WordList, object]] = {}

    def words(self, alphabet: Alphabet | None) -> tuple[WordList, object]:
        """(the list for a request in `alphabet`, its cache token). Raises ApiError 409 when there is none."""
        base, token = self.source.current()
        if alphabet is None or alphabet.code == base.alphabet.code:
            return base, token
        path = list_path(alphabet)
        if path is None:
            if alphabet.code == "en":
                path_or_default: Path | None = None  # the embedded default list
            else:
                raise ApiError(409, missing_list(alphabet, f"{base.source} ({base.alphabet.name})"))
        else:
            path_or_default = path
        stamp = self._stamp(path_or_default)
        with self._lock:
            kept = self._loaded.get(alphabet.code)
            if kept is not None and kept[0] == stamp:
                return kept[1], kept[2]
            try:
                words = load_word_list(path_or_default, alphabet=alphabet)
            except InputError as exc:
                raise ApiError(409, f"the {alphabet.name} list cannot be used: {exc}") from None
            entry = (stamp, words, ("language", alphabet.code, next(_tokens)))
            self._loaded[alphabet.code] = entry
            return entry[1], entry[2]

    @staticmethod
    def _stamp(path: Path | None) -> object:
        if path is None:
            return None
        try:
            info = path.stat()
        except OSError:  # replaced or removed since it was found: read it (or fail to) below
            return (str(path), None)
        return (str(path), info.st_mtime_ns, info.st_size)

    def describe(self, alphabet: Alphabet) -> dict[str, Any] | None:
        """The list a request in `alphabet` would use, as {"source", "kind"} (not loaded), or None when none."""
        base = self.source.base
        if alphabet.code == base.alphabet.code:
            return {"source": base.source, "kind": "server"}
        path = list_path(alphabet)
        if path is None:
            return {"source": "the default list", "kind": "default"} if alphabet.code == "en" else None
        return {"source": str(path), "kind": "uploaded" if path.stem.endswith(f"-{PAGE_LIST}") else "built"}


def languages_json(lists: LanguageLists) -> list[dict[str, Any]]:
    """GET /api/languages: every shipped pack, with the list it would use here."""
    served = lists.source.base.alphabet.code
    return [
        {
            "code": a.code,
            "name": a.name,
            "letters": list(a.letters),
            "chars": a.chars,
            "direction": a.direction,
            "size": a.size,
            "open": a.is_open,
            "served": a.code == served,
            "list": lists.describe(a),
            **({"final": {a.cell_text(char): form for char, form in a.final.items()}} if a.final else {}),
            **({"fold": dict(a.fold)} if a.fold else {}),
        }
        for a in shipped_alphabets()
    ]


def save_upload(alphabet: Alphabet, raw: bytes, name: str) -> dict[str, Any]:
    """Read an uploaded list through `alphabet` and keep it as the language's page list; its summary.

    Raises:
        InputError: a list with no word of the alphabet (the reader's one line, naming what it skipped).
    """
    folder = lists_folder()
    target = folder / f"{alphabet.code}-{PAGE_LIST}.dict"
    temp: Path | None = None
    try:  # read from a file beside its place, then renamed there: no partial list, the old one kept on failure
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp_name = tempfile.mkstemp(dir=folder, prefix=f".{alphabet.code}-", suffix=".dict")
        temp = Path(temp_name)
        with os.fdopen(fd, "wb") as handle:
            handle.write(raw)
        try:
            words = load_word_list(temp, alphabet=alphabet, use_cache=False)
        except InputError as exc:
            raise InputError(f"{name}: {exc.message}") from None
        os.chmod(temp, 0o644)  # mkstemp makes it private; a word list is an ordinary file
        os.replace(temp, target)
        temp = None
    except OSError as exc:
        raise output_error(target, "language word-list", exc) from None
    finally:
        if temp is not None:
            temp.unlink(missing_ok=True)
    summary: dict[str, Any] = {"code": alphabet.code, "n_words": words.n_words, "source": name}
    if words.problems:
        summary["skipped"] = describe_problems(words.problems, words.n_problems)
    return summary


def language_routes(lists: LanguageLists) -> list[Route]:
    """GET /api/languages and POST /api/languages/CODE/words (a list's text, its name in `?name=`)."""

    async def languages(request: Request) -> Response:
        return JSONResponse(await anyio.to_thread.run_sync(languages_json, lists))

    async def upload(request: Request) -> Response:
        try:
            alphabet = language_field({"language": request.path_params["code"]})
            if alphabet is None:
                raise ApiError(400, "say which language the list is in")
            raw = await read_body(request, MAX_LIST_BYTES)
            name = request.query_params.get("name", "uploaded list")
            summary = await anyio.to_thread.run_sync(save_upload, alphabet, raw, name)
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except OutputError as exc:  # a full or read-only data folder: nothing was kept
            refusal = storage_error(exc)
            return error_response(refusal.status, refusal.message)
        except InputError as exc:
            return error_response(400, str(exc))
        return JSONResponse(summary)

    return [
        Route("/api/languages", languages, methods=["GET"]),
        Route("/api/languages/{code}/words", upload, methods=["POST"]),
    ]
