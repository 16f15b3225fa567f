"""The server's word list: the list it started with, with the user's personal list layered over it, reloaded on change.

The personal list (`xwcp.words.userwords`: bans, boosts, added words) lives in a file, so every
`xwcp serve` process sees the same one: each request asks `current()`, which compares the
file's stamp (one `stat`) and re-layers only when it changed. The layering re-indexes only the
lengths the personal list touches (`wordlist.overlay_word_list`), so a ban takes effect in
tens of milliseconds. `token` changes with every reload: the analysis cache keys on it.
"""

from __future__ import annotations

import itertools
import threading

from xwcp.words import userwords
from xwcp.words.wordlist import WordList, overlay_word_list

_tokens = itertools.count(1)


class WordSource:
    """`base` (the list the server was started with) with the personal list over it, kept current."""

    def __init__(self, base: WordList, *, personal: bool = True):
        self.base = base
        self.personal = personal
        self.alphabet = base.alphabet
        self.path = userwords.personal_path(self.alphabet)
        """The personal list of the list's language (`personal.es.dict` for Spanish)."""
        self._lock = threading.Lock()
        self._stamp: object = "unread"
        self._words = base
        self.token = 0
        self.personal_words: dict[str, int] = {}
        self.error: str | None = None
        """Why the personal list could not be used (a malformed line): the server answers with the base list."""

    def current(self) -> tuple[WordList, int]:
        """(the list to use now, its token)."""
        if not self.personal:
            return self._words, self.token
        stamp = userwords.stamp(self.path)
        if stamp == self._stamp:
            return self._words, self.token
        with self._lock:
            stamp = userwords.stamp(self.path)
            if stamp != self._stamp:
                self._reload(stamp)
            return self._words, self.token

    def _reload(self, stamp: userwords.Stamp | None) -> None:
        from xwcp.base.errors import InputError

        try:
            personal = userwords.read_personal(self.path, self.alphabet)
            words = (
                overlay_word_list(self.base, personal, f"{self.base.source} + personal list") if personal else self.base
            )
            self.error = None
        except InputError as exc:
            personal, words, self.error = {}, self.base, str(exc)
        self.personal_words = personal
        self._words = words
        self._stamp = stamp
        self.token = next(_tokens)

    def refresh(self) -> None:
        """Reload now (after this process edited the file: its next request must see the edit)."""
        with self._lock:
            self._reload(userwords.stamp(self.path))
