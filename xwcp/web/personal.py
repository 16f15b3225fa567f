"""The page's word-list control: read and edit the user's personal list (ban, boost, add, upload) over HTTP.

GET /api/words answers the personal list and where it lives; POST /api/words applies edits
(`{"word": "ESNE", "score": 0}` bans, a score of 1-MAX sets or adds, `"remove": true` takes the
word out of the personal list, back to the server's list); POST /api/words/upload?mode=merge|replace
takes a list file's text (`WORD;score` lines). Every edit is written to the file at once
(xwcp.words.userwords) and the process reloads its list before answering, so the next suggestion
already obeys it; other processes see the file change on their next request.

A word is read as the grid reader reads letters (`userwords.clean_word`): a character the language cannot keep
(the ligature ﬁ, English's dotless ı) refuses the edit with a 400 naming it, so an edit never changes another
word's score; a letter the language writes otherwise (CAFÉ is CAFE in English) is stored so, and the answer says
it in `warnings`, with what each edit stored in `edited`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from xwcp.base.errors import InputError
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.runtime.writes import OutputError
from xwcp.web.http import ApiError, error_response, parse_json, read_body, storage_error
from xwcp.web.wordsource import WordSource
from xwcp.words import userwords
from xwcp.words.wordlist import MAX_SCORE, describe_problems

MAX_UPLOAD_BYTES = 4 * 1024 * 1024
"""Largest personal list the page may upload (a list of 200,000 words is about 3 MB); a list's words are capped
too (xwcp.words.userwords: at most MAX_PERSONAL_WORDS words of at most MAX_WORD_LETTERS letters)."""
MAX_EDITS = 1000
"""Most words one POST /api/words may change."""
SHOWN_WORDS = 2000
"""Most entries GET /api/words lists (the counts are always complete)."""


def summary(source: WordSource) -> dict[str, Any]:
    """The personal list as the page shows it: entries (bans first), counts, the file, any problem with it."""
    words, _ = source.current()
    personal = source.personal_words
    ordered = sorted(personal.items(), key=lambda item: (item[1] > userwords.BAN_SCORE, item[0]))
    written = source.alphabet.written
    return {
        "enabled": source.personal,
        "path": str(source.path),
        "n_words": len(personal),
        "n_banned": sum(1 for s in personal.values() if s <= userwords.BAN_SCORE),
        "entries": [{"word": written(w), "score": s, "listed": source.base.score(w)} for w, s in ordered[:SHOWN_WORDS]],
        "list": {"source": words.source, "n_words": words.n_words},
        "error": source.error,
        "max_score": MAX_SCORE,
    }


def _edits(
    body: dict[str, Any], alphabet: Alphabet = ENGLISH, notes: list[str] | None = None
) -> tuple[dict[str, int | None], list[dict[str, Any]]]:
    """({word: score or None}, what each edit stores: {"typed", "word" as written, "score"}) from `{"word",
    "score"|"remove"}` or `{"edits": [...]}`; `notes` gets a line for each word stored with other letters (CAFÉ ->
    CAFE in English). A word with a character the alphabet cannot keep refuses the whole request (400)."""
    items = body.get("edits", [body])
    if not isinstance(items, list) or not items or len(items) > MAX_EDITS:
        raise ApiError(400, f'edits must be a list of 1 to {MAX_EDITS} objects like {{"word": "ESNE", "score": 0}}')
    changes: dict[str, int | None] = {}
    edited: list[dict[str, Any]] = []
    for item in items:
        if not isinstance(item, dict):
            raise ApiError(400, 'each edit is an object like {"word": "ESNE", "score": 0}')
        word = userwords.clean_word(item.get("word"), alphabet, notes)
        if item.get("remove") is True:
            changes[word] = None
        elif "score" in item:
            changes[word] = userwords.clean_score(item["score"])
        else:
            raise ApiError(400, f'say what to do with {alphabet.written(word)}: "score" (0 bans) or "remove": true')
        edited.append({"typed": item["word"], "word": alphabet.written(word), "score": changes[word]})
    return changes, edited


def _parsed_upload(
    raw: bytes, name: str, alphabet: Alphabet = ENGLISH, notes: list[str] | None = None
) -> tuple[dict[str, int], list[tuple[int, str]], int]:
    """The uploaded list's words (userwords.parse_upload, in `alphabet`), read from its bytes (a worker thread's job)."""
    return userwords.parse_upload(raw.decode("utf-8-sig", errors="replace"), name, alphabet, notes)


def word_routes(source: WordSource, max_body_bytes: int) -> list[Route]:
    """The routes above, over the server's word source."""

    async def answer(job: Callable[[], object], extra: dict[str, Any] | None = None) -> Response:
        if not source.personal:
            return error_response(409, "this server was started with --no-personal: the personal list is off")
        try:
            await anyio.to_thread.run_sync(job)
            source.refresh()  # this process: the next request sees the edit without waiting for a stat
            return JSONResponse({**await anyio.to_thread.run_sync(summary, source), **(extra or {})})
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except OutputError as exc:  # a full or read-only data folder: the old list is kept
            refusal = storage_error(exc)
            return error_response(refusal.status, refusal.message)
        except InputError as exc:
            return error_response(400, str(exc))

    async def show(request: Request) -> Response:
        return JSONResponse(await anyio.to_thread.run_sync(summary, source))

    async def edit(request: Request) -> Response:
        notes: list[str] = []
        try:
            changes, edited = _edits(parse_json(await read_body(request, max_body_bytes)), source.alphabet, notes)
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except InputError as exc:
            return error_response(400, str(exc))
        # what each edit stored, and a line for each word stored with other letters than typed (CAFÉ -> CAFE)
        return await answer(
            lambda: userwords.update_personal(changes, path=source.path, alphabet=source.alphabet),
            {"edited": edited, "warnings": notes},
        )

    async def upload(request: Request) -> Response:
        mode = request.query_params.get("mode", "merge")
        notes: list[str] = []
        try:
            if mode not in ("merge", "replace"):
                raise ApiError(400, f"mode must be merge or replace, got {mode!r}")
            raw = await read_body(request, MAX_UPLOAD_BYTES)
            name = request.query_params.get("name", "uploaded list")
            score_by_word, problems, n_problems = await anyio.to_thread.run_sync(
                _parsed_upload, raw, name, source.alphabet, notes
            )
            if not score_by_word:
                raise ApiError(
                    400,
                    f"{name}: no word in it" + (f" ({describe_problems(problems, n_problems)})" if n_problems else ""),
                )
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except InputError as exc:  # refused whole: nothing was written
            return error_response(422, str(exc))
        response = await answer(
            lambda: userwords.update_personal(
                score_by_word, replace=mode == "replace", path=source.path, alphabet=source.alphabet
            ),
            {"warnings": notes},
        )
        if response.status_code == 200 and n_problems:
            import json

            data = json.loads(bytes(response.body))
            data["skipped"] = describe_problems(problems, n_problems)
            return JSONResponse(data)
        return response

    return [
        Route("/api/words", show, methods=["GET"]),
        Route("/api/words", edit, methods=["POST"]),
        Route("/api/words/upload", upload, methods=["POST"]),
    ]
