"""Alphabets as data: a language pack's letters, how other characters fold into them, and its script's direction.

A pack (`xwcp/model/languages/<code>.json`, or a user's own JSON file) lists its letters in order. A letter
is what one cell holds: one code point (Ñ, Ж, Ä in a pack that keeps it), several code points that form one
cell (Dutch IJ, Welsh LL, a Devanagari akshara), all written in upper case. Inside xwcp every letter is one
*code char*: the letter itself when it is one code point, else a private-use character given to that written
letter for the life of the process (`code_char`: every pack and every list agree on it), so the model, the word
list and the engine see one character per letter cell whatever the script, and the readers and writers turn
code chars back into the written letters (`written`, `cell_text`). Word lists store letter indices, never code
chars, so nothing on disk depends on them.

An *open* pack (Hindi: `"segment": "akshara"`) cuts words into aksharas (a consonant with its conjuncts, vowel
sign and marks; an independent vowel) and takes every akshara its list uses as a letter: `with_letters` makes
the list's own alphabet, often over 64 letters (CP-SAT fills those) and over MAX_LETTERS (a *wide* alphabet, whose
letter indices take two bytes: `is_wide`), up to MAX_OPEN_LETTERS.

How a raw word (a list line, a typed entry) becomes letters, character by character (`fold_report`):
1. NFC; the pack's `drop` characters (spaces, hyphens, apostrophes, periods, and Catalan's middle dot) go;
2. upper case, through the pack's own case map first (Turkish i -> İ, ı -> I);
3. the longest written letter that starts here is taken (IJ before I; a `+` in the word cuts there, for the
   Welsh N+G that is not NG); else the pack's `fold` map (German Ä -> AE, Russian Ё -> Е, Hebrew final
   letters); else, when `strip_marks`, the character without its accents (É -> E, Ά -> Α) if that is letters;
4. anything else makes the word not a word of this alphabet: the reader counts it and names it, never
   turning it into another word.
English (the default) folds as xwcp always has: accents dropped, Æ -> AE, Œ -> OE, ß -> SS.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

from xwcp.base.errors import InputError

ASCII_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_LETTERS = 250
"""Most letters a pack may have (letter indices are stored in one byte). Up to 64 run at full speed."""
MAX_OPEN_LETTERS = 4000
"""Most letters an open pack's list may have (past MAX_LETTERS a letter index takes two bytes): Hindi lists use some
2,000 aksharas, and each cut one is a common word lost (नहीं, दिल्ली, हिन्दी)."""
FAST_LETTERS = 64
"""Alphabets up to this size run on the compiled search at the speed of English; larger ones on CP-SAT."""
PRIVATE_BASE = 0xE000
"""Code chars of multi-code-point letters are handed out from here (Unicode's private-use area), in first-use order."""
_CODE_CHAR_BY_LETTER: dict[str, str] = {}
_LETTER_BY_CODE_CHAR: dict[str, str] = {}


def code_char(letter: str) -> str:
    """The one character xwcp uses inside for a written `letter`: itself when it is one code point, else a
    private-use character kept for that letter for the life of the process."""
    if len(letter) == 1:
        return letter
    char = _CODE_CHAR_BY_LETTER.get(letter)
    if char is None:
        n = len(_CODE_CHAR_BY_LETTER)
        char = chr(PRIVATE_BASE + n) if n < 0x1900 else chr(0xF0000 + n - 0x1900)
        char = _CODE_CHAR_BY_LETTER.setdefault(letter, char)
        _LETTER_BY_CODE_CHAR[char] = letter
    return char


# Devanagari aksharas: a consonant (with nukta) joined by viramas to more, then a vowel sign or a final virama;
# or an independent vowel; then marks (candrabindu, anusvara, visarga)
_DEV_C = "[\u0915-\u0939\u0958-\u095f\u0978-\u097f]\u093c?"
_AKSHARA = re.compile(
    f"(?:{_DEV_C}(?:\u094d\u200d?{_DEV_C})*(?:[\u093a\u093b\u093e-\u094c\u094e\u094f"
    f"\u0955-\u0957\u0962\u0963]|\u094d)?|[\u0904-\u0914\u0960\u0961\u0972-\u0977])"
    "[\u0900-\u0903]*"
)
CUT = "+"
"""Written inside a listed word, cuts it there: Welsh BAN+GOR is B A N G O R, not B A NG O R."""
_LANGUAGES_DIR = Path(__file__).with_name("languages")
_DEFAULT_DROP = " -'’."


@dataclass(frozen=True)
class TypedWord:
    """A word a person typed, as `Alphabet.typed_word` reads it."""

    word: str | None
    """Its code chars; None when it has a character the alphabet cannot keep (or no letter)."""
    folds: tuple[str, ...] = ()
    """Each character the pack's own rules write as other letters, once, as 'É -> E', in typing order."""
    refused: str = ""
    """Why there is no word: the character it cannot keep (`describe_char`), or "no letters"; "" when read."""


@dataclass(frozen=True)
class Alphabet:
    """A language's letters and folding (see the module docstring); `ENGLISH` is the default."""

    code: str
    name: str
    letters: tuple[str, ...]
    direction: str = "ltr"
    fold: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    """Variant (upper case) -> written letters it becomes: 'Ä' -> 'AE', 'Ё' -> 'Е'."""
    case: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    """Lower-case character -> its upper case where the language differs from Unicode's (Turkish i -> İ)."""
    strip_marks: bool = True
    drop: str = _DEFAULT_DROP
    sources: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    """Where lists come from: {"wordfreq": "es", "hunspell": "es_ES", "dict": "spanish"}."""
    note: str = ""
    segment: str = ""
    """"akshara": words are cut into Devanagari aksharas, and the pack is open (any akshara is a letter of a list
    that uses it: `with_letters`); "": letters are the pack's, cut longest first."""
    final: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    """Letter (code char) -> the form it is written in where an entry ends (Hebrew מ -> ם: `written_at_end`); the
    form reads back as its letter (`from_cell`), and the pack's `fold` makes it that letter in lists too."""

    def __post_init__(self) -> None:
        chars = "".join(code_char(letter) for letter in self.letters)
        object.__setattr__(self, "chars", chars)
        object.__setattr__(self, "_index", {ch: i for i, ch in enumerate(chars)})
        object.__setattr__(self, "_char_by_letter", dict(zip(self.letters, chars)))
        object.__setattr__(self, "_longest", max((len(x) for x in self.letters), default=1))
        object.__setattr__(self, "_encode", str.maketrans({ch: chr(i) for i, ch in enumerate(chars)}))
        object.__setattr__(self, "_decode", str.maketrans({chr(i): ch for i, ch in enumerate(chars)}))
        object.__setattr__(
            self, "_written", str.maketrans({ch: letter for ch, letter in zip(chars, self.letters) if len(letter) > 1})
        )
        object.__setattr__(self, "_char_by_final", {form: char for char, form in self.final.items()})

    chars: str = field(init=False, default="")
    """One code char per letter, in alphabet order (see the module docstring)."""

    @property
    def size(self) -> int:
        return len(self.letters)

    @property
    def is_open(self) -> bool:
        """Any akshara is a letter (`segment`): a list's own alphabet is `with_letters` its aksharas."""
        return bool(self.segment)

    def with_letters(self, code_chars: str) -> Alphabet:
        """This pack with the letters of `code_chars` it lacks added (an open pack's alphabet for one list), in
        code-point order of their written forms; itself when none is new."""
        index: dict[str, int] = self._index  # type: ignore[attr-defined]
        new = sorted({_LETTER_BY_CODE_CHAR.get(ch, ch) for ch in code_chars if ch not in index})
        if not new:
            return self
        letters = self.letters + tuple(new)
        if len(letters) > MAX_OPEN_LETTERS:
            raise InputError(f"the list uses {len(letters):,} letters of {self.name}; at most {MAX_OPEN_LETTERS:,} fit")
        return Alphabet(
            self.code,
            self.name,
            letters,
            self.direction,
            self.fold,
            self.case,
            self.strip_marks,
            self.drop,
            self.sources,
            self.note,
            self.segment,
            self.final,
        )

    @property
    def is_ascii(self) -> bool:
        """The 26 letters A-Z and English folding: every fast path of the engine and the list reader applies."""
        return self.chars == ASCII_LETTERS and self.code == "en"

    @property
    def has_multi_letters(self) -> bool:
        """Some letter takes several code points (IJ, LL, an akshara)."""
        return self._longest > 1  # type: ignore[attr-defined, no-any-return]

    @property
    def fingerprint(self) -> str:
        """Letters and folding in one string: part of a word list's cache key (a list read through another pack
        is another list)."""
        if self.is_ascii:
            return ""
        return json.dumps(
            [
                self.letters,
                sorted(self.fold.items()),
                sorted(self.case.items()),
                self.strip_marks,
                self.drop,
                self.segment,
            ],
            ensure_ascii=False,
        )

    def index(self, ch: str) -> int | None:
        """The letter index of code char `ch` (0..size-1), None when it is no letter of this alphabet."""
        index: int | None = self._index.get(ch)  # type: ignore[attr-defined]
        return index

    @property
    def is_wide(self) -> bool:
        """More letters than one byte holds (an open pack's list past MAX_LETTERS): each letter index takes two
        bytes, big-endian, in `encode` and `decode` (so encoded words still sort as their indices do)."""
        return self.size > MAX_LETTERS

    def encode(self, code_text: str) -> bytes:
        """Code-char text -> letter indices, one byte each, two when `is_wide` (every char must be a letter)."""
        out: bytes = code_text.translate(self._encode).encode(  # type: ignore[attr-defined]
            "utf-16-be" if self.is_wide else "latin-1"
        )
        return out

    def decode(self, indices: bytes) -> str:
        """Letter indices (as `encode` writes them) -> code-char text."""
        out: str = indices.decode("utf-16-be" if self.is_wide else "latin-1").translate(self._decode)  # type: ignore[attr-defined]
        return out

    def written(self, code_text: str) -> str:
        """Code-char text as the alphabet writes it ('\\ue00bS' -> 'IJS' in Dutch); other text unchanged."""
        if not self.has_multi_letters and not self.segment:
            return code_text
        out: str = code_text.translate(self._written)  # type: ignore[attr-defined]
        if self.segment:
            out = "".join(_LETTER_BY_CODE_CHAR.get(ch, ch) for ch in out)
        return out

    def written_at_end(self, code_text: str) -> str:
        """`code_text` written (`written`) as where an entry ends: its last letter in its final form when the pack
        gives it one (Hebrew שלומ -> שלום); `written(code_text)` in every other pack."""
        form = self.final.get(code_text[-1:]) if self.final else None
        return self.written(code_text) if form is None else self.written(code_text[:-1]) + form

    def cell_text(self, ch: str) -> str:
        """One code char as its written letter ('IJ'); any other character as itself."""
        index = self.index(ch)
        return self.letters[index] if index is not None else _LETTER_BY_CODE_CHAR.get(ch, ch)

    def from_cell(self, text: str) -> str | None:
        """A cell's written letter ('IJ', 'ñ', 'Ñ', or a code char) -> its code char; None when it is not one
        letter of this alphabet (it may still be a rebus of several)."""
        if text in self._index:  # type: ignore[attr-defined]
            return text
        if self.segment:
            folded, _ = self._cut_aksharas(unicodedata.normalize("NFC", text))
            return folded if folded is not None and len(folded) == 1 else None
        key = self._upper(unicodedata.normalize("NFC", text))
        char: str | None = self._char_by_letter.get(key)  # type: ignore[attr-defined]
        if char is None and self.final:
            char = self._char_by_final.get(key)  # type: ignore[attr-defined]
        return char

    def folded_cell(self, text: str) -> str | None:
        """A cell's typed text (a letter with its marks, lower case or not) as code chars, folded exactly as the
        list reader folds a word's characters (`fold_report`: the pack's case map, fold map and stripped marks),
        so a grid takes every character its list takes: Greek ά -> Α, Russian ё -> Е, German ß -> S S (two
        letters: the grid reader makes it a rebus cell). None when it folds to no letters of this alphabet."""
        if self.is_ascii:
            return _fold_english(text)
        if self.segment:
            return self.from_cell(text)
        return self._cut(self._upper(unicodedata.normalize("NFC", text)), allow_fold=True)[0]

    def split_cell(self, text: str) -> str | None:
        """A cell's written contents as code chars, each letter taken longest-first ('IJS' -> IJ, S in Dutch);
        None when some part is no letter of this alphabet."""
        folded, _ = self._cut(self._upper(unicodedata.normalize("NFC", text)), allow_fold=False)
        return folded

    def fold_word(self, raw: str) -> str | None:
        """A raw word as code chars, or None when a character cannot be a letter of this alphabet."""
        return self.fold_report(raw)[0]

    def fold_report(self, raw: str) -> tuple[str | None, str]:
        """(`fold_word(raw)`, why not: '' when it folded, else the character that is no letter, e.g. "'ж'")."""
        if self.is_ascii:
            word = _fold_english(raw)
            return (word, "") if word else (None, _first_non_ascii_letter(raw))
        text = unicodedata.normalize("NFC", raw)
        if self.drop:
            text = text.translate(str.maketrans("", "", self.drop))
        return self._cut(self._upper(text), allow_fold=True)

    def typed_word(self, raw: str) -> TypedWord:
        """A word a person typed (a personal-list edit), read by the pack's own rules and no further.

        NFC; the pack's `drop` characters go; a character is upper-cased only the pack's way (its `case` map:
        Turkish ı -> I) or when that gives one character that lower-cases back to it (`cell_upper`'s rule: ß, the
        ligature ﬁ and English's dotless ı stay themselves); letters are taken longest first. A character that is
        then no letter is folded only by the pack's own rules, its `fold` map (German Ä -> AE, English Æ -> AE) or,
        when it strips marks, its canonical accents (É -> E), and each fold is named in `folds`; any other
        character (a compatibility form such as ﬁ or ſ, a letter only Unicode's case map turns into one, another
        script, a stray mark) is `refused`, never turned into another word. A letter's code char (a cell's, Dutch IJ)
        is that letter. A word it reads, `fold_word` reads the same (but for code chars, which it refuses), and so
        does a grid cell (`folded_cell`, which folds as the list reader does and so also takes the compatibility
        forms refused here); an open pack (Hindi) reads as `fold_report` does.
        """
        if self.segment:
            word, why_not = self.fold_report(raw)
            return TypedWord(word, (), why_not)
        text = unicodedata.normalize("NFC", raw)
        if self.drop:
            text = text.translate(str.maketrans("", "", self.drop))
        upper = "".join(self._typed_upper(ch) for ch in text)  # one character for each of `text`
        char_by_letter: dict[str, str] = self._char_by_letter  # type: ignore[attr-defined]
        longest: int = self._longest  # type: ignore[attr-defined]
        multi_by_code_char = {char: letter for letter, char in char_by_letter.items() if len(letter) > 1}
        out: list[str] = []
        folds: list[str] = []
        i, n = 0, len(upper)
        while i < n:
            if upper[i] == CUT and not self.is_ascii:  # English reads no cut (`_fold_english`)
                i += 1
                continue
            if upper[i] in multi_by_code_char:  # a letter's code char, as a cell holds it (the page sends Dutch IJ so)
                out.append(upper[i])
                i += 1
                continue
            for size in range(min(longest, n - i), 0, -1):
                char = char_by_letter.get(upper[i : i + size])
                if char is not None:
                    out.append(char)
                    i += size
                    break
            else:
                target = self._typed_fold(upper[i])
                folded = None if target is None else self._cut(self._upper(target), allow_fold=False)[0]
                if folded is None:
                    return TypedWord(None, tuple(folds), describe_char(text[i]))
                fold = f"{upper[i]} -> {self.written(folded)}"
                if fold not in folds:
                    folds.append(fold)
                out.append(folded)
                i += 1
        if not out:
            return TypedWord(None, (), "no letters")
        return TypedWord("".join(out), tuple(folds))

    def _typed_upper(self, ch: str) -> str:
        """`ch` upper-cased the pack's way, or when that gives one character that lower-cases back to it; else `ch`."""
        if ch in self.case:
            return self.case[ch]
        if ch == "ς":
            return "Σ"
        upper = ch.upper()
        return upper if len(upper) == 1 and upper.lower() == ch else ch

    def _typed_fold(self, ch: str) -> str | None:
        """The written letters the pack's own rules give `ch` (its fold map, else its canonical accents dropped when
        it strips marks), None when they give none."""
        target = (self.fold or (_ENGLISH_FOLD if self.is_ascii else {})).get(ch)
        if target is None and self.strip_marks:
            base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
            target = base if base and base != ch else None
        return target

    def upper(self, text: str) -> str:
        """`text` upper-cased the way `fold_word` does before it cuts letters (the pack's `case` map, then each
        character's own upper case when that is one character; final ς as Σ)."""
        return self._upper(text)

    def _upper(self, text: str) -> str:
        if self.case:
            text = "".join(self.case.get(ch, ch) for ch in text)
        return "".join(ch if ch == "ς" else ch.upper() if len(ch.upper()) == 1 else ch for ch in text).replace("ς", "Σ")

    def _cut(self, text: str, allow_fold: bool) -> tuple[str | None, str]:
        if self.segment:
            return self._cut_aksharas(text)
        out: list[str] = []
        char_by_letter: dict[str, str] = self._char_by_letter  # type: ignore[attr-defined]
        longest: int = self._longest  # type: ignore[attr-defined]
        i, n = 0, len(text)
        while i < n:
            if text[i] == CUT:
                i += 1
                continue
            for size in range(min(longest, n - i), 0, -1):
                char = char_by_letter.get(text[i : i + size])
                if char is not None:
                    out.append(char)
                    i += size
                    break
            else:
                ch = text[i]
                replacement = self._replacement(ch) if allow_fold else None
                if replacement is None:
                    return None, repr(ch)
                out.append(replacement)
                i += 1
        return ("".join(out), "") if out else (None, "no letters")

    def _cut_aksharas(self, text: str) -> tuple[str | None, str]:
        """`text` cut into aksharas, each one letter (an open pack takes any akshara); a character that starts
        none (Latin, a stray vowel sign) makes it no word."""
        out: list[str] = []
        i, n = 0, len(text)
        while i < n:
            if text[i] == CUT:
                i += 1
                continue
            found = _AKSHARA.match(text, i)
            if found is None:
                return None, repr(text[i])
            out.append(code_char(found.group()))
            i = found.end()
        return ("".join(out), "") if out else (None, "no letters")

    def _replacement(self, ch: str) -> str | None:
        """The code chars `ch` folds into (pack fold map, else accents stripped), None when none."""
        target = self.fold.get(ch)
        if target is None and self.strip_marks:
            stripped = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
            if stripped and stripped != ch:
                target = self._upper(stripped)
        if target is None:
            return None
        folded, _ = self._cut(target, allow_fold=False)
        return folded


def _fold_english(raw: str) -> str | None:
    """xwcp's English folding (unchanged since the first list reader): A-Z, accents dropped, Æ Œ ß spelt out."""
    word = raw.upper().translate(_ENGLISH_DROP)
    if _is_a_to_z(word):
        return word
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))
    folded = folded.replace("Æ", "AE").replace("Œ", "OE").replace("ß", "SS")
    return folded if _is_a_to_z(folded) else None


_ENGLISH_DROP = str.maketrans("", "", _DEFAULT_DROP)
_ENGLISH_FOLD = {"Æ": "AE", "Œ": "OE", "ß": "SS"}
"""English's letters spelt out (`_fold_english`), as its pack file lists them."""


def describe_char(ch: str) -> str:
    """`ch` for a message, with its code point and name: "'ﬁ' (U+FB01 LATIN SMALL LIGATURE FI)"; a character that
    does not show on its own (a combining mark, a control, a space) by its code point and name only."""
    name = unicodedata.name(ch, "")
    code = f"U+{ord(ch):04X}" + (f" {name}" if name else "")
    if ch.isprintable() and not ch.isspace() and not unicodedata.combining(ch):
        return f"{ch!r} ({code})"
    return code


def _is_a_to_z(text: str) -> bool:
    return bool(text) and text.isascii() and text.isalpha() and text.isupper()


def _first_non_ascii_letter(raw: str) -> str:
    for ch in raw:
        if not (ch.isascii() and ch.isalpha()) and ch not in _DEFAULT_DROP:
            return repr(ch)
    return "no letters"


ENGLISH = Alphabet(
    "en",
    "English",
    tuple(ASCII_LETTERS),
    sources={"wordfreq": "en", "hunspell": "en_US", "dict": "american-english"},
    note="the embedded Collaborative Word List is the default list",
)


def alphabet_from_data(data: object, where: str) -> Alphabet:
    """A pack from its JSON value (a dict). Raises InputError naming `where` and the field when it is not a pack."""
    if not isinstance(data, dict):
        raise InputError('a language pack is a JSON object with "code", "name" and "letters"', where)
    code, name, letters = data.get("code"), data.get("name"), data.get("letters")
    if not isinstance(code, str) or not code or not code.replace("-", "").replace("_", "").isalnum():
        raise InputError('"code" must be a short name of letters, digits and \'-\' (for example "es")', where)
    if not isinstance(name, str):
        raise InputError('"name" must be a string', where)
    if isinstance(letters, str):
        letters = letters.split() if " " in letters.strip() else list(letters)
    if not isinstance(letters, list) or not letters or not all(isinstance(x, str) and x for x in letters):
        raise InputError('"letters" must be a list of letters (strings) or one string of one-character letters', where)
    written = [unicodedata.normalize("NFC", x).strip() for x in letters]
    bad = [x for x in written if not x or any(ch.isspace() or ch in "#.[]{}+" for ch in x) or x != x.upper()]
    if bad:
        raise InputError(f'letter {bad[0]!r} in "letters" is not an upper-case letter', where)
    if len(set(written)) != len(written):
        dup = next(x for x in written if written.count(x) > 1)
        raise InputError(f'letter {dup!r} is listed twice in "letters"', where)
    if len(written) > MAX_LETTERS:
        raise InputError(f"{len(written)} letters; a pack has at most {MAX_LETTERS}", where)
    fold = data.get("fold", {})
    case = data.get("case", {})
    sources = data.get("sources", {})
    for key, value in (("fold", fold), ("case", case), ("sources", sources)):
        if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            raise InputError(f'"{key}" must map strings to strings', where)
    direction = data.get("direction", "ltr")
    if direction not in ("ltr", "rtl"):
        raise InputError('"direction" must be "ltr" or "rtl"', where)
    strip_marks = data.get("strip_marks", True)
    drop = data.get("drop", _DEFAULT_DROP)
    note = data.get("note", "")
    segment = data.get("segment", "")
    if not isinstance(strip_marks, bool) or not isinstance(drop, str) or not isinstance(note, str):
        raise InputError('"strip_marks" is true or false; "drop" and "note" are strings', where)
    if segment not in ("", "akshara"):
        raise InputError('"segment" is "akshara" (Devanagari) or left out', where)
    final = data.get("final", {})
    if not isinstance(final, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in final.items()
    ):
        raise InputError('"final" must map letters to the forms they take where a word ends', where)
    alphabet = Alphabet(
        code,
        name,
        tuple(written),
        direction,
        {unicodedata.normalize("NFC", k): v for k, v in fold.items()},
        case,
        strip_marks,
        drop,
        sources,
        note,
        segment,
    )
    for variant, target in alphabet.fold.items():
        if alphabet._cut(alphabet._upper(target), allow_fold=False)[0] is None:
            raise InputError(f'"fold" maps {variant!r} to {target!r}, which is not letters of the pack', where)
    if final:
        final_by_char: dict[str, str] = {}
        for letter, form in final.items():
            letter, form = unicodedata.normalize("NFC", letter), unicodedata.normalize("NFC", form)
            char = alphabet.from_cell(letter)
            if char is None or letter not in alphabet.letters:
                raise InputError(f'"final" gives a form of {letter!r}, which is not a letter of the pack', where)
            if alphabet.folded_cell(form) != char or alphabet.from_cell(form) is not None:
                raise InputError(
                    f'"final" writes {letter!r} as {form!r}, which the pack\'s "fold" does not read as {letter!r}',
                    where,
                )
            final_by_char[char] = form
        alphabet = replace(alphabet, final=final_by_char)
    if code == "en" and alphabet.letters == ENGLISH.letters:
        return ENGLISH
    return alphabet


@cache
def shipped_alphabets() -> tuple[Alphabet, ...]:
    """Every pack shipped with xwcp, English first, then by code."""
    packs = [
        alphabet_from_data(json.loads(path.read_text("utf-8")), str(path))
        for path in sorted(_LANGUAGES_DIR.glob("*.json"))
    ]
    return tuple(sorted(packs, key=lambda a: (a.code != "en", a.code)))


MAX_SHOWN_NAME = 40
"""Most characters of an unknown language name a message repeats (a file may hold any string there)."""


def shown_name(name: str) -> str:
    """`name` quoted for a one-line message, cut to MAX_SHOWN_NAME characters (control characters escaped)."""
    return repr(name[:MAX_SHOWN_NAME]) + ("..." if len(name) > MAX_SHOWN_NAME else "")


def pack_alphabet(name: str) -> Alphabet:
    """The shipped pack a language named inside a puzzle file or a request means: its code (`es`, any case) or a
    BCP-47 tag whose primary subtag is one (`es-MX`, `nl_NL`; `de-umlaut` is its own pack).

    Never a file: a name read from a file or sent by a client is untrusted, and a file on the reading machine is
    neither opened nor looked up for it. A pack of one's own comes only from the user (`--language FILE`,
    `load_alphabet`).

    Raises:
        InputError: any other name; the message depends on the name alone (it cannot tell whether a file exists).
    """
    key = name.strip()
    by_code = {alphabet.code.lower(): alphabet for alphabet in shipped_alphabets()}
    for candidate in (key, key.replace("_", "-").split("-")[0]):
        alphabet = by_code.get(candidate.lower())
        if alphabet is not None:
            return alphabet
    raise InputError(
        f"unknown language {shown_name(key)}: a puzzle names its language by the code of one of xwcp's "
        f"{len(by_code)} packs (`xwcp languages` lists them); a pack of your own is given with "
        "--language FILE"
    )


def load_alphabet(code_or_path: str | Alphabet | None) -> Alphabet:
    """The pack for a language code (`es`), or read from a JSON file path; None and "en" are English.

    Only for a name the user gave (`--language`, a library argument): it may open a file. A language named inside
    a puzzle file or a request goes through `pack_alphabet`, which never does.

    Raises:
        InputError: an unknown code (naming the known ones) or a file that is not a pack.
    """
    if code_or_path is None or isinstance(code_or_path, Alphabet):
        return code_or_path or ENGLISH
    key = code_or_path.strip()
    if key.lower() in ("", "en"):
        return ENGLISH
    for alphabet in shipped_alphabets():
        if alphabet.code.lower() == key.lower():
            return alphabet
    path = Path(key)
    if key.endswith(".json") or path.is_file():
        from xwcp.runtime.files import load_json, read_bounded

        try:
            raw = read_bounded(path, 256 * 1024, "language pack")
        except OSError as exc:
            raise InputError(f"cannot read the language pack: {exc.strerror or exc}", str(path)) from None
        return alphabet_from_data(load_json(raw.decode("utf-8", "replace"), str(path)), str(path))
    known = ", ".join(a.code for a in shipped_alphabets())
    raise InputError(
        f"unknown language {key!r}; xwcp knows {known}, or give a pack's .json file (see `xwcp languages`)"
    )
