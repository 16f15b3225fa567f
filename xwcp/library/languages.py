"""`xwcp.languages()`: the language packs xwcp ships, as plain data (what `xwcp languages` prints)."""

from __future__ import annotations

from typing import Any


def languages() -> list[dict[str, Any]]:
    """Every shipped pack, English first, then by code: {code, name, size, direction, letters (a list, alphabet
    order; a letter of several characters such as Dutch "IJ" is one item), note (its conventions: what folds into
    what), sources (where `xwcp words build` takes its words: wordfreq, hunspell, dict), and for a pack with final
    forms `final` (letter -> the form it takes where a word ends: Hebrew {"מ": "ם", ...})}. Give the code as
    `language=`."""
    from xwcp.model.alphabet import shipped_alphabets

    return [
        {
            "code": a.code,
            "name": a.name,
            "size": a.size,
            "direction": a.direction,
            "letters": list(a.letters),
            "note": a.note,
            "sources": dict(a.sources),
            **({"final": {a.cell_text(char): form for char, form in a.final.items()}} if a.final else {}),
        }
        for a in shipped_alphabets()
    ]


def languages_text(packs: list[dict[str, Any]]) -> str:
    """One pack per line, code first: code, name, number of letters, direction, the letters (space-separated)."""
    name_width = max((len(p["name"]) for p in packs), default=0)
    code_width = max((len(p["code"]) for p in packs), default=0)
    return "\n".join(
        f"{p['code']:<{code_width}}  {p['name']:<{name_width}}  {p['size']:>3}  {p['direction']}  "
        f"{' '.join(p['letters'])}"
        for p in packs
    )
