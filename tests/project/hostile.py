"""The hostile puzzle files of issue 34's "Why", made again: each maker returns a file name and its bytes.

Shared by tests/project/test_robustness.py (each file through the CLI, bounded), test_fuzz.py (as seeds)
and bench/hostile_files.py (time and peak memory, before and after). Bombs are built by streaming
compressors, so a test never holds the inflated data; `scale` shrinks them for the default test run.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from collections.abc import Mapping

GRID_3X3 = "CAT\nA.A\nTAT\n"

_JPZ_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<crossword-compiler xmlns="http://crossword.info/xml/crossword-compiler">'
    '<rectangular-puzzle xmlns="http://crossword.info/xml/rectangular-puzzle">'
    '<metadata><title>{title}</title></metadata><crossword><grid width="3" height="3">'
)
_JPZ_CELLS = "".join(
    f'<cell x="{x}" y="{y}" solution="{ch}"/>' if ch != "#" else f'<cell x="{x}" y="{y}" type="block"/>'
    for y, row in enumerate(["CAT", "A#A", "TAT"], start=1)
    for x, ch in enumerate(row, start=1)
)


def jpz_text(title: str = "T", word_x: str = "1-3", clue: str = "Feline") -> str:
    """A small valid .jpz (3x3 ring), with a title, the first word's x span and the first clue's text to vary."""
    return (
        _JPZ_HEAD.format(title=title) + _JPZ_CELLS + "</grid>"
        f'<word id="1" x="{word_x}" y="1"/><word id="2" x="1" y="1-3"/>'
        f'<clues ordering="normal"><title><b>Across</b></title><clue word="1" number="1">{clue}</clue></clues>'
        '<clues ordering="normal"><title><b>Down</b></title><clue word="2" number="1">Taxi</clue></clues>'
        "</crossword></rectangular-puzzle></crossword-compiler>\n"
    )


def ipuz_dict() -> dict[str, object]:
    """A small valid .ipuz (3x3 ring) as a dict, to spoil one field of."""
    return {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "dimensions": {"width": 3, "height": 3},
        "puzzle": [[1, 0, 2], [0, "#", 0], [3, 0, 0]],
        "solution": [list("CAT"), ["A", "#", "A"], list("TAT")],
        "clues": {"Across": [[1, "Feline"], [3, "Tat"]], "Down": [[1, "Taxi"], [2, "Tat"]]},
    }


def _zip_one(member: str, compress_type: int, payload_writer, declared_size: int | None = None) -> bytes:
    """A zip holding one member written by `payload_writer(handle)`; `declared_size` lies about its size."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compress_type) as archive:
        info = zipfile.ZipInfo(member)
        info.compress_type = compress_type
        with archive.open(info, "w") as handle:
            payload_writer(handle)
    data = bytearray(buffer.getvalue())
    if declared_size is not None:  # patch the uncompressed size in the central directory and local header
        at = data.rfind(b"PK\x01\x02")
        struct.pack_into("<L", data, at + 24, declared_size)
        struct.pack_into("<L", data, 22, declared_size)
    return bytes(data)


def _stream_zeros(n_bytes: int):
    def write(handle) -> None:
        chunk = b"<" + b" " * ((1 << 20) - 1)
        for _ in range(n_bytes >> 20):
            handle.write(chunk)

    return write


def _deflate_bomb(n_bytes: int, declared_size: int) -> bytes:
    """A zip whose one deflate member inflates to `n_bytes` but declares `declared_size` (built by hand: zipfile
    would write the true size)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = b" " * (1 << 20)
    body = b"".join(packer.compress(chunk) for _ in range(n_bytes >> 20)) + packer.flush()
    name = b"puzzle.xml"
    crc = 0
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 8, 0, 0x21, crc, len(body), declared_size, len(name), 0)
    central = struct.pack(
        "<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 8, 0, 0x21, crc, len(body), declared_size, len(name), 0, 0, 0, 0, 0, 0
    )
    end = struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(central) + len(name), len(local) + len(name) + len(body), 0
    )
    return local + name + body + central + name + end


def hostile_files(scale: float = 1.0) -> dict[str, bytes]:
    """File name -> bytes, one per file-side input of issue 34's "Why" (scale < 1 shrinks the bombs)."""
    bomb_bytes = max(16, int(1024 * scale)) << 20  # 1 GiB at scale 1: a ~1 MB zip
    bzip_bytes = max(16, int(512 * scale)) << 20
    files: dict[str, bytes] = {}
    files["zip-bomb-false-size.jpz"] = _deflate_bomb(bomb_bytes, declared_size=1000)
    files["zip-bomb-bzip2.jpz"] = _zip_one("puzzle.xml", zipfile.ZIP_BZIP2, _stream_zeros(bzip_bytes), 1000)
    files["zip-many-members.jpz"] = _many_members(5000)
    files["word-span.jpz"] = jpz_text(word_x="1-999999999").encode()
    files["nested-clue.jpz"] = jpz_text(clue="<i>" * 5000 + "x" + "</i>" * 5000).encode()
    files["nested-title.jpz"] = jpz_text(title="<i>" * 5000 + "x" + "</i>" * 5000).encode()
    files["xd-unclosed-comments.xd"] = b"<!--" * 40000
    text = json.dumps(ipuz_dict())
    files["nested.ipuz"] = (text[:-1] + ', "extra": ' + "[" * 100000 + "]" * 100000 + "}").encode()
    files["infinity.ipuz"] = text.replace('"width": 3', '"width": Infinity').encode()
    files["huge-int.ipuz"] = text.replace('"width": 3', '"width": ' + "9" * 5000).encode()
    files["kind-5.ipuz"] = json.dumps({**ipuz_dict(), "kind": 5}).encode()
    spoiled = ipuz_dict()
    spoiled["clues"] = {"Across": [{"number": 1, "clue": "Feline", "cells": 5}], "Down": [[1, "Taxi"]]}
    files["clue-cells-5.ipuz"] = json.dumps(spoiled).encode()
    spoiled["clues"] = {"Across": [{"number": 1, "clue": "Feline", "cells": True}], "Down": [[1, "Taxi"]]}
    files["clue-cells-true.ipuz"] = json.dumps(spoiled).encode()
    files["entries-id-list.json"] = json.dumps(
        {"grid": GRID_3X3.split(), "entries": [{"id": [1], "clue": "x"}]}
    ).encode()
    files["numbers-huge.txt"] = (GRID_3X3 + "; numbers: 1,1=" + "9" * 5000 + "\n").encode()
    files["locked-60x60.puz"] = locked_puz(60)
    files["inner-space.xd"] = b"Title: t\n\n\nCA T\nA#AA\nTATA\nAAAA\n\n\nA1. x ~ CAT\n"
    return files


def rebus_files() -> dict[str, bytes]:
    """File name -> bytes: the rebus files of the bounded-inputs round, an 8 KB .xd whose Rebus header maps digits
    to 500-letter strings (its keys given twice too) and a 60x60 .ipuz of 240-letter cells."""
    keys = "123456789"
    header = " ".join(f"{k}={chr(65 + i) * 500}" for i, k in enumerate(keys))
    rows = ["".join(keys[(r + c) % 9] for c in range(15)) for r in range(15)]
    files = {"rebus-500.xd": (f"Title: t\nRebus: {header} {header}\n\n\n" + "\n".join(rows) + "\n").encode()}
    side = 60
    solution = [[chr(65 + (r * side + c) % 24) * 240 for c in range(side)] for r in range(side)]
    files["rebus-240-60x60.ipuz"] = json.dumps(
        {
            **ipuz_dict(),
            "dimensions": {"width": side, "height": side},
            "puzzle": [[0] * side for _ in range(side)],
            "solution": solution,
            "clues": {},
        }
    ).encode()
    return files


HUGE_NUMBERS = (
    "9" * 5000,
    "-" + "9" * 4301,
    "1e400",
    "-1e999",
    "1e" + "9" * 5000,
    "1." + "1" * 5000,
    "NaN",
    "Infinity",
    "-Infinity",
)
"""Numbers a JSON file may spell that Python's json module turns into an exception (int() past 4,300 digits) or
into a float that is no number (1e400 is inf; NaN and Infinity are not JSON at all)."""
LANGUAGE_PACK = {
    "code": "zz",
    "name": "Test (zz)",
    "direction": "ltr",
    "letters": "A B C D E",
    "fold": {"Á": "A"},
    "sources": {"wordfreq": "zz"},
    "note": "a pack to spoil",
}
"""A small valid language pack (xwcp/model/languages/*.json), to spoil one field of."""


def spoiled_json(data: Mapping[str, object], key: str, raw: str) -> bytes:
    """`data` as JSON with `key`'s value replaced by the raw JSON text `raw` (a huge number, deep nesting)."""
    return json.dumps({**data, key: "@@raw@@"}).replace('"@@raw@@"', raw, 1).encode()


def hostile_json_files() -> dict[str, bytes]:
    """File name -> bytes: a language pack and a batch result record with a huge number or deep nesting."""
    files: dict[str, bytes] = {}
    for k, number in enumerate(HUGE_NUMBERS):
        files[f"pack-number-{k}.json"] = spoiled_json(LANGUAGE_PACK, "letters", number)
        files[f"result-number-{k}.json"] = spoiled_json({"name": "g", "status": "filled"}, "seconds", number)
    files["pack-nested.json"] = spoiled_json(LANGUAGE_PACK, "fold", "[" * 100_000 + "]" * 100_000)
    files["result-nested.json"] = spoiled_json({"name": "g"}, "status", "[" * 100_000 + "]" * 100_000)
    return files


def _many_members(n_members: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for k in range(n_members):
            archive.writestr(f"m{k}.xml", b"")
    return buffer.getvalue()


def locked_puz(side: int, key: int = 7351) -> bytes:
    """A side x side .puz with no blocks, its solution locked with `key` (puzpy's own scramble)."""
    import puz

    p = puz.Puzzle()
    p.width = p.height = side
    letters = "".join(chr(65 + (r * 7 + c * 3 + r * c) % 26) for r in range(side) for c in range(side))
    p.solution = letters
    p.fill = "-" * (side * side)
    p.clues = ["x"] * (2 * side)
    p.lock_solution(key)
    data: bytes = p.tobytes()
    return data


RING_ROWS = ["CAT", "A#A", "TAT"]
LANGUAGE_FORMATS = ("txt", "ipuz", "xd", "json", "puz")
"""The formats that name a puzzle's language (a .jpz names none)."""


def puzzle_naming_language(fmt: str, name: str) -> bytes:
    """A 3x3 ring puzzle (RING_ROWS) as format `fmt` (one of LANGUAGE_FORMATS) whose language field holds `name`:
    a `; language:` line, an .ipuz `language` key, an .xd `Language:` header, a .json `"language"`, a .puz `LANG`
    section (its first 65,535 bytes: a section holds no more)."""
    if fmt == "txt":
        return (f"; language: {name}\n" + "\n".join(RING_ROWS) + "\n").encode("utf-8", "surrogatepass")
    if fmt == "ipuz":
        return json.dumps({**ipuz_dict(), "language": name}).encode("utf-8", "surrogatepass")
    if fmt == "json":
        return json.dumps({"grid": RING_ROWS, "language": name}).encode("utf-8", "surrogatepass")
    if fmt == "xd":
        return (
            f"Title: t\nLanguage: {name}\n\n\n"
            + "\n".join(RING_ROWS)
            + "\n\n\nA1. Cat ~ CAT\nA3. Tat ~ TAT\n\nD1. Taxi ~ CAT\nD2. Tat ~ TAT\n"
        ).encode("utf-8", "surrogatepass")
    if fmt == "puz":
        import puz

        p = puz.Puzzle()
        p.width = p.height = 3
        p.solution = "".join(RING_ROWS).replace("#", ".")
        p.fill = "".join("." if ch == "#" else "-" for ch in "".join(RING_ROWS))
        p.clues = ["Cat", "Cat", "Tat", "Tat"]  # 1A 1D 2D 3A
        section = name.encode("utf-8", "surrogatepass")[:0xFFFF]
        return (
            bytes(p.tobytes())
            + struct.pack("<4sHH", b"LANG", len(section), puz.data_cksum(section))
            + section
            + b"\x00"
        )
    raise ValueError(f"no language field in a .{fmt}")


def planted_pack(code: str = "zz") -> str:
    """A valid language pack's JSON (A-Z and Ж, named "Planted"): a file a puzzle may name but must never load."""
    return json.dumps({"code": code, "name": "Planted", "letters": "ABCDEFGHIJKLMNOPQRSTUVWXYZЖ"})
