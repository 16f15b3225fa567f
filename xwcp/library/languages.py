"""`xwcp.languages()`: the language packs xwcp ships, as plain data (what `xwcp languages` prints)."""
from __future__ import annotations

from typing import Any


def languages() -> list[dict[str, Any]]:
    """Every shipped pack, English first, then by code: {code, name, size, direction, letters (a list, alphabet
    order; a letter of several characters such as Dutch "IJ" is one item)}. Give the code as `language=`."""
    from xwcp.model.alphabet import shipped_alphabets

    return [{"code": a.code, "name": a.name, "size": a.size, "direction": a.direction, "letters": list(a.letters)}
            for a in shipped_alphabets()]


def languages_text(packs: list[dict[str, Any]]) -> str:
    """One pack per line, code first: code, name, number of letters, direction, the letters (space-separated)."""
    name_width = max((len(p["name"]) for p in packs), default=0)
    code_width = max((len(p["code"]) for p in packs), default=0)
    return "\n".join(f"{p['code']:<{code_width}}  {p['name']:<{name_width}}  {p['size']:>3}  {p['direction']}  "
                     f"{' '.join(p['letters'])}" for p in packs)
