"""Crossword Compiler XML (.jpz, plain or zipped, what many publishers hand out): bars, circles, colours, rebus.

Reading: the `<rectangular-puzzle>`'s `<crossword>` (an `<acrostic>`, `<coded>` or other kind
is refused). Each `<cell x y>` (from 1) is a block when its type is `block` or `void` (outside a
shaped grid, read as a block with a warning); otherwise its `solution` is its
contents (several letters: a rebus cell), `number` its published number, `top-bar`,
`left-bar`, `bottom-bar` and `right-bar` its bars, `background-shape="circle"` a circle and
`background-color` a colour. Clues are placed by their word's cells; in an Across or Down list,
a word whose cells are not an entry of the grid falls back on the clue's number (with a
warning); a word on part of an entry leaves its clue out with a warning. A clue list other than
Across and Down, or a word that is none of these, makes a variety puzzle: its lists are read
into listed entries (`xwcp.formats._listed`), each on exactly its word's cells, with the lists'
titles, the clues' numbers as labels and the cells' `number` and `top-right-number` labels. Clue
text keeps its inline markup (`<i>...</i>`) as text. The zipped form is one XML file in a zip
archive.

Writing: a plain XML `<crossword-compiler>` file with the grid, one word per slot, Across and
Down clues as given, metadata; a puzzle with listed entries gets one word per entry (its cells
one by one, in order) and its clue lists as read. A shaded cell without its own colour gets a
light grey, as .jpz has colours only; a diagramless puzzle carries `diagramless="true"` on its
`<crossword>` (read back by xwcp, ignored by other readers).
"""

from __future__ import annotations

import bz2
import html.entities
import io
import lzma
import re
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Protocol
from xml.etree import ElementTree

from xwcp.base.errors import InputError
from xwcp.base.types import Direction
from xwcp.formats._io import read_bytes
from xwcp.formats._listed import (
    FileClue,
    FileList,
    cell_labels,
    is_variety,
    labels_by_cell,
    list_direction,
    listed_entries,
    written_lists,
)
from xwcp.model.grid import (
    BELOW,
    BLOCK,
    EMPTY,
    MAX_SIDE,
    RIGHT,
    Grid,
    Mark,
    cell_upper,
    find_slots,
    is_cell_content,
    make_grid,
    number_by_cell as numbering,
    with_published_numbers,
)
from xwcp.model.puzzle import CellLabel, ClueList, Puzzle
from xwcp.runtime.files import MAX_CLUES, MAX_NESTING_DEPTH, MAX_UNZIPPED_BYTES, MAX_ZIP_MEMBERS, MAX_ZIP_RATIO, quote
from xwcp.runtime.writes import write_output

NAMESPACE = "http://crossword.info/xml/rectangular-puzzle"
ROOT_NAMESPACE = "http://crossword.info/xml/crossword-compiler"
SHADE_COLOR = "#D3D3D3"
"""The colour a shaded cell without its own colour is written with (.jpz has colours, not shading)."""
_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}
_HEX_COLOR = re.compile(r"^#?([0-9A-Fa-f]{6})$")


def read(path: str | Path) -> Puzzle:
    """Read a .jpz file (plain XML, or a zip archive holding it).

    Raises:
        InputError: missing file, not XML, not a crossword, a variety puzzle, a grid without slots.
    """
    source = str(path)
    return from_bytes(read_bytes(path), source)


def from_bytes(data: bytes, source: str = "<jpz>") -> Puzzle:
    """The Puzzle in a .jpz file's bytes (see `read`)."""
    if data[:4] == b"PK\x03\x04":
        data = _unzip(data, source)
    root = _parse(data, source)
    puzzle_el = next((el for el in root.iter() if el.tag == "rectangular-puzzle"), None)
    if puzzle_el is None:
        raise InputError("not a Crossword Compiler puzzle (no <rectangular-puzzle>)", source)
    kind_el = next((el for el in puzzle_el if el.tag not in ("metadata", "instructions")), None)
    if kind_el is None or kind_el.tag != "crossword":
        kind = kind_el.tag if kind_el is not None else "nothing"
        raise InputError(f"not a crossword (a <{kind}> puzzle); xwcp fills crosswords only", source)
    grid_el = kind_el.find("grid")
    if grid_el is None:
        raise InputError("no <grid> in the <crossword>", source)
    try:
        width, height = int(grid_el.get("width", "")), int(grid_el.get("height", ""))
    except ValueError:
        raise InputError("the <grid> has no width and height", source) from None
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise InputError(f"the grid is {width}x{height}; the largest supported is {MAX_SIDE}x{MAX_SIDE}", source)
    warnings: list[str] = []
    cells: list[str | None] = [None] * (width * height)
    bars: list[tuple[int, str]] = []
    marks: dict[int, Mark] = {}
    numbers: dict[int, int] = {}
    label_by_cell: dict[int, dict[str, str]] = {}
    n_void = 0
    for cell_el in grid_el.iter("cell"):
        try:
            x, y = int(cell_el.get("x", "")), int(cell_el.get("y", ""))
        except ValueError:
            raise InputError("a <cell> without whole-number x and y", source) from None
        if not (1 <= x <= width and 1 <= y <= height):
            raise InputError(f"a <cell> at x={x}, y={y} lies outside the {width}x{height} grid", source)
        cell = (y - 1) * width + (x - 1)
        kind = cell_el.get("type", "").lower()
        color = _HEX_COLOR.match(cell_el.get("background-color", "").strip())
        circle = cell_el.get("background-shape", "").lower() == "circle"
        if circle or color:
            marks[cell] = Mark(circle=circle, color=f"#{color.group(1).upper()}" if color else None)
        if kind in ("block", "void"):  # ("clue" is a cell whose letter is given)
            n_void += kind == "void"
            cells[cell] = BLOCK
            continue
        cells[cell] = _content(cell_el.get("solution", ""), x, y, source)
        if cells[cell] == EMPTY and cell_el.get("solve-state"):
            cells[cell] = _content(cell_el.get("solve-state", ""), x, y, source)
        number = cell_el.get("number", "")
        if number.strip().isdigit() and int(number) > 0:
            numbers[cell] = int(number)
        cell_label = {
            corner: cell_el.get(attr, "").strip()
            for attr, corner in (("number", "TL"), ("top-right-number", "TR"))
            if cell_el.get(attr, "").strip()
        }
        if cell_label:
            label_by_cell[cell] = cell_label
        for attr, side in (("top-bar", "T"), ("left-bar", "L"), ("bottom-bar", "B"), ("right-bar", "R")):
            if cell_el.get(attr, "").lower() == "true":
                bars.append((cell, side))
    missing = [cell for cell, content in enumerate(cells) if content is None]
    if missing:
        warnings.append(
            f"{len(missing)} cells are not in the file (first at x={missing[0] % width + 1}, "
            f"y={missing[0] // width + 1}); read as blocks"
        )
    if n_void:
        warnings.append(f"{n_void} void cells (outside the puzzle's shape) are read as blocks")
    grid = make_grid(
        width,
        height,
        [BLOCK if content is None else content for content in cells],
        bars=bars,
        marks=marks,
        source=source,
    )
    if numbers:
        grid = with_published_numbers(grid, numbers)
    clue_lists: tuple[ClueList, ...] = ()
    labels: tuple[CellLabel, ...] = ()
    file_lists = _file_lists(kind_el, width, height)
    if is_variety(file_lists, grid, by_number=True):
        grid, clue_by_slot, clue_lists, listed_warnings = listed_entries(grid, file_lists, source)
        warnings.extend(listed_warnings)
        labels = cell_labels(
            label_by_cell
            if grid.entries_only
            else {
                cell: {corner: text for corner, text in by_corner.items() if corner != "TL" or not text.isdigit()}
                for cell, by_corner in label_by_cell.items()
            }
        )
    if not find_slots(grid):
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    if not clue_lists:
        clue_by_slot = _clues(kind_el, grid, width, height, source, warnings)
    meta = puzzle_el.find("metadata")

    def field(name: str) -> str:
        el = meta.find(name) if meta is not None else None
        return _inner_text(el).strip() if el is not None else ""

    is_diagramless = kind_el.get("diagramless", "").lower() == "true"
    return Puzzle(
        grid,
        field("title"),
        field("creator"),
        field("copyright"),
        field("description"),
        clue_by_slot,
        is_diagramless,
        tuple(warnings),
        clue_lists=clue_lists,
        cell_labels=labels,
    )


def _file_lists(kind_el: ElementTree.Element, width: int, height: int) -> list[FileList]:
    """The file's `<clues>` lists as given: title, and each clue's number (its label), word cells and text."""
    cells_by_word = {word.get("id"): _word_cells(word, width, height) for word in kind_el.iter("word")}
    out: list[FileList] = []
    for clues_el in kind_el.iter("clues"):
        title_el = clues_el.find("title")
        title = _inner_text(title_el, markup=False).strip() if title_el is not None else ""
        out.append(
            FileList(
                title,
                [
                    FileClue(
                        clue_el.get("number", "").strip(),
                        cells_by_word.get(clue_el.get("word")),
                        _inner_text(clue_el).strip(),
                    )
                    for clue_el in clues_el.findall("clue")
                ],
            )
        )
    return out


def _unzip(data: bytes, source: str) -> bytes:
    """The XML file inside a zipped .jpz (its first member that is not macOS metadata), inflated in chunks under
    MAX_UNZIPPED_BYTES and MAX_ZIP_RATIO whatever size the archive declares.

    Raises:
        InputError: not a zip, no puzzle in it, too many members, a member over a budget, a method not read.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        OSError,
        EOFError,
        ValueError,
        struct.error,
        NotImplementedError,
        RuntimeError,
    ) as exc:
        raise InputError(f"not a valid zipped .jpz ({_zip_problem(exc)})", source) from None
    if len(infos) > MAX_ZIP_MEMBERS:
        raise InputError(
            f"the zip archive holds {len(infos):,} files; a zipped .jpz holds its puzzle (at most "
            f"{MAX_ZIP_MEMBERS} files)",
            source,
        )
    members = [m for m in infos if not m.is_dir() and not m.filename.startswith("__MACOSX")]
    if not members:
        raise InputError("a zip archive without a puzzle file in it", source)
    member = members[0]
    if member.file_size > MAX_UNZIPPED_BYTES:
        raise InputError(
            f"the zipped puzzle says it is {member.file_size:,} bytes; a .jpz is at most {MAX_UNZIPPED_BYTES:,}", source
        )
    if member.flag_bits & 0x1:
        raise InputError("the zipped puzzle is encrypted", source)
    packed = _packed_bytes(data, member, source)
    return _inflate(packed, member.compress_type, source)


class _Decompressor(Protocol):
    """What zlib, bz2 and lzma decompressors share: output in bounded pieces, and an end flag."""

    @property
    def eof(self) -> bool: ...

    def decompress(self, data: bytes, max_length: int, /) -> bytes: ...


def _packed_bytes(data: bytes, member: zipfile.ZipInfo, source: str) -> bytes:
    """A member's compressed bytes, found from its local header (the central directory's offset and size)."""
    at = member.header_offset
    if at < 0 or at + 30 > len(data) or data[at : at + 4] != b"PK\x03\x04":
        raise InputError("not a valid zipped .jpz (the puzzle's local header is missing)", source)
    name_len, extra_len = struct.unpack_from("<HH", data, at + 26)
    start = at + 30 + name_len + extra_len
    return data[start : start + member.compress_size]


def _inflate(packed: bytes, method: int, source: str) -> bytes:
    """`packed` decompressed (stored, deflate, bzip2 or LZMA) in chunks, refused as soon as it passes a budget."""
    cap = min(MAX_UNZIPPED_BYTES, max(1 << 20, MAX_ZIP_RATIO * len(packed)))
    if method == zipfile.ZIP_STORED:
        return packed
    decompressor: _Decompressor
    try:
        if method == zipfile.ZIP_DEFLATED:
            decompressor = zlib.decompressobj(-15)
        elif method == zipfile.ZIP_BZIP2:
            decompressor = bz2.BZ2Decompressor()
        elif method == zipfile.ZIP_LZMA:  # zip's LZMA: 2 version bytes, 2 size bytes, the filter properties
            (props_size,) = struct.unpack_from("<H", packed, 2)
            lclppb, dict_size = struct.unpack_from("<BI", packed, 4)  # LZMA1 properties: lc/lp/pb, dictionary
            packed = packed[4 + props_size :]
            decompressor = lzma.LZMADecompressor(
                lzma.FORMAT_RAW,
                filters=[
                    {
                        "id": lzma.FILTER_LZMA1,
                        "lc": lclppb % 9,
                        "lp": lclppb % 45 // 9,
                        "pb": lclppb // 45,
                        "dict_size": dict_size,
                    }
                ],
            )
        else:
            raise InputError(
                f"the zipped puzzle is packed with method {method}, which xwcp does not read (deflate, "
                "bzip2, LZMA or stored)",
                source,
            )
        parts: list[bytes] = []
        n_bytes = 0
        pending = packed
        while not decompressor.eof:
            chunk = decompressor.decompress(pending, 1 << 16)
            pending = getattr(decompressor, "unconsumed_tail", b"")  # zlib keeps what it did not read yet
            parts.append(chunk)
            n_bytes += len(chunk)
            if n_bytes > cap:
                raise InputError(
                    f"the zipped puzzle inflates to more than {cap:,} bytes from {len(packed):,} packed; "
                    f"a .jpz is at most {MAX_UNZIPPED_BYTES:,} bytes and {MAX_ZIP_RATIO} times its "
                    "packed size",
                    source,
                )
            if not chunk and not pending and getattr(decompressor, "needs_input", True):
                break  # the input ended before the stream did: the XML will not read
    except InputError:
        raise
    except (OSError, EOFError, ValueError, struct.error, zlib.error, lzma.LZMAError) as exc:
        raise InputError(f"not a valid zipped .jpz ({_zip_problem(exc)})", source) from None
    return b"".join(parts)


def _zip_problem(exc: BaseException) -> str:
    """An exception's text for an error line: quoted text cut short, no file path."""
    text = str(exc) or exc.__class__.__name__
    return text if len(text) <= 80 else text[:80] + "..."


def _parse(data: bytes, source: str) -> ElementTree.Element:
    """The XML tree with namespaces dropped from tag names; HTML entities (&nbsp;) some files use are read."""
    declared = re.match(rb"\s*<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)", data.removeprefix(b"\xef\xbb\xbf"))
    try:
        text = data.decode(declared.group(1).decode("ascii") if declared else "utf-8")
    except (LookupError, UnicodeDecodeError) as exc:
        raise InputError(f"not valid XML text ({exc})", source) from None
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", text.removeprefix("\ufeff"))

    def entity(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in _XML_ENTITIES or name not in html.entities.name2codepoint:
            return match.group(0)
        return f"&#{html.entities.name2codepoint[name]};"

    text = re.sub(r"&([A-Za-z][A-Za-z0-9]*);", entity, text)
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        raise InputError(f"not valid XML ({exc})", source) from None
    depth = _depth(root)
    if depth > MAX_NESTING_DEPTH:
        raise InputError(f"the XML nests elements {depth:,} deep; a .jpz needs under {MAX_NESTING_DEPTH}", source)
    n_words = sum(1 for el in root.iter() if isinstance(el.tag, str) and el.tag.endswith(("word", "clue")))
    if n_words > 2 * MAX_CLUES:
        raise InputError(
            f"the file lists {n_words:,} words and clues; a .jpz has at most {MAX_CLUES:,} of each", source
        )
    for el in root.iter():
        if isinstance(el.tag, str) and "}" in el.tag:
            el.tag = el.tag.split("}", 1)[1]
    return root


def _depth(root: ElementTree.Element) -> int:
    """How deeply elements nest under `root` (itself: 1), without recursion."""
    deepest = 0
    stack = [(root, 1)]
    while stack:
        el, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in el)
    return deepest


def _content(text: str, x: int, y: int, source: str) -> str:
    text = cell_upper("".join(text.split()))
    if not text:
        return EMPTY
    if not is_cell_content(text):
        raise InputError(f"the cell at x={x}, y={y} holds {quote(text)}, which xwcp cannot keep in a cell", source)
    return text


def _span(text: str | None, side: int) -> list[int] | None:
    """'3' -> [3]; '2-5' -> [2, 3, 4, 5]; '5-2' -> [5, 4, 3, 2]; None when it does not read, [] when it leaves
    1..side (checked on its ends, before it is spelled out: `x="1-999999999"` costs nothing)."""
    if not text:
        return None
    match = re.fullmatch(r"\s*(\d{1,9})\s*(?:-\s*(\d{1,9}))?\s*", text)
    if not match:
        return None
    first, last = int(match.group(1)), int(match.group(2) or match.group(1))
    if not (1 <= first <= side and 1 <= last <= side):
        return []
    step = 1 if last >= first else -1
    return list(range(first, last + step, step))


def _word_cells(word_el: ElementTree.Element, width: int, height: int) -> tuple[int, ...] | None:
    """A <word>'s cells in order: its own x/y ranges, then each <cells> child's."""
    out: list[int] = []
    for el in [word_el, *word_el.findall("cells")]:
        xs, ys = _span(el.get("x"), width), _span(el.get("y"), height)
        if xs is None and ys is None and el is word_el:
            continue
        if not xs or not ys:  # does not read, or outside the grid
            return None
        if len(xs) > 1 and len(ys) > 1:
            return None
        for x in xs:
            for y in ys:
                if not (1 <= x <= width and 1 <= y <= height):
                    return None
                out.append((y - 1) * width + (x - 1))
    return tuple(out) or None


def _clues(
    kind_el: ElementTree.Element, grid: Grid, width: int, height: int, source: str, warnings: list[str]
) -> dict[str, str]:
    """A crossword's clue texts by slot name, each placed by its word's cells (or its number, when the word is
    off): a variety puzzle's lists go to `_listed.listed_entries` instead (`_listed.is_variety` tells them apart)."""
    slots = find_slots(grid)
    slot_by_cells = {s.cells: s for s in slots}
    slot_by_key = {(s.direction, s.number): s for s in slots}
    cells_by_word = {word.get("id"): _word_cells(word, width, height) for word in kind_el.iter("word")}
    out: dict[str, str] = {}
    partial: list[str] = []
    by_number: list[str] = []
    unplaced = 0
    for clues_el in kind_el.iter("clues"):
        title_el = clues_el.find("title")
        title = _inner_text(title_el, markup=False).strip() if title_el is not None else "clues"
        direction = list_direction(title)
        for clue_el in clues_el.findall("clue"):
            text = _inner_text(clue_el).strip()
            cells = cells_by_word.get(clue_el.get("word"))
            label = f"{title} {clue_el.get('number', '?')}"
            if cells is None:
                unplaced += bool(text)
                continue
            slot = slot_by_cells.get(cells)
            number = clue_el.get("number", "").strip()
            if slot is None and direction is not None and number.isdigit():
                slot = slot_by_key.get((direction, int(number)))
                if slot is not None:
                    by_number.append(label)
            if slot is None:  # part of an entry (any other word makes a variety puzzle: `is_variety`)
                partial.append(label)
                continue
            if text:
                out[slot.entry_name] = text  # both readings of a Schrödinger entry share it
    if partial:
        warnings.append(
            f"{len(partial)} clues name only part of an entry and are not read ({', '.join(partial[:3])}"
            f"{' and more' if len(partial) > 3 else ''})"
        )
    if by_number:
        warnings.append(
            f"{len(by_number)} clues are for words whose cells are not an entry of the grid; placed by "
            f"their numbers ({', '.join(by_number[:3])}{' and more' if len(by_number) > 3 else ''})"
        )
    if unplaced:
        warnings.append(f"{unplaced} clues name no word of the grid and are not read")
    return out


def _inner_text(el: ElementTree.Element | None, markup: bool = True) -> str:
    """An element's text with its inline markup kept as text (`<i>x</i>`), or without tags."""
    if el is None:
        return ""
    if not markup:
        return "".join(el.itertext())
    parts = [el.text or ""]
    for child in el:
        parts.append(ElementTree.tostring(child, encoding="unicode"))
    return "".join(parts)


# ----- writing ------------------------------------------------------------------------------


def to_bytes(puzzle: Puzzle) -> bytes:
    """The .jpz file's bytes: plain UTF-8 XML."""
    grid = puzzle.grid
    width = grid.width
    root = ElementTree.Element("crossword-compiler", xmlns=ROOT_NAMESPACE)
    rect = ElementTree.SubElement(root, "rectangular-puzzle", xmlns=NAMESPACE)
    meta = ElementTree.SubElement(rect, "metadata")
    for tag, value in (
        ("title", puzzle.title),
        ("creator", puzzle.author),
        ("copyright", puzzle.copyright),
        ("description", puzzle.notes),
    ):
        if value:
            ElementTree.SubElement(meta, tag).text = value
    crossword = ElementTree.SubElement(rect, "crossword")
    if puzzle.is_diagramless:
        crossword.set("diagramless", "true")
    grid_el = ElementTree.SubElement(crossword, "grid", width=str(width), height=str(grid.height))
    ElementTree.SubElement(grid_el, "grid-look", {"numbering-scheme": "normal"})
    is_listed = bool(grid.entries or grid.entries_only or puzzle.clue_lists)
    numbers = {} if grid.entries_only else numbering(grid)
    label_by_cell = labels_by_cell(puzzle)
    mark_by_cell = grid.mark_by_cell
    for cell, content in enumerate(grid.cells):
        attrs = {"x": str(cell % width + 1), "y": str(cell // width + 1)}
        mark = mark_by_cell.get(cell)
        if mark is not None:
            if mark.circle:
                attrs["background-shape"] = "circle"
            if mark.color or mark.shaded:
                attrs["background-color"] = mark.color or SHADE_COLOR
        if content == BLOCK:
            attrs["type"] = "block"
        else:
            if content != EMPTY:
                attrs["solution"] = content
            labels = label_by_cell.get(cell, {})
            if "TL" in labels or cell in numbers:
                attrs["number"] = labels.get("TL") or str(numbers[cell])
            if "TR" in labels:
                attrs["top-right-number"] = labels["TR"]
            if cell % width > 0 and (cell - 1, RIGHT) in grid.bars:
                attrs["left-bar"] = "true"
            if cell >= width and (cell - width, BELOW) in grid.bars:
                attrs["top-bar"] = "true"
            for side, attr, neighbour in ((RIGHT, "right-bar", cell + 1), (BELOW, "bottom-bar", cell + width)):
                if (cell, side) in grid.bars and grid.cells[neighbour] == BLOCK:  # no white cell there to hold it
                    attrs[attr] = "true"
        ElementTree.SubElement(grid_el, "cell", attrs)
    slots = find_slots(grid)
    clue_els: list[tuple[ElementTree.Element, str]] = []
    if is_listed:
        _write_lists(crossword, puzzle, clue_els)
    for slot in slots if not is_listed else ():
        if slot.reading > 1:
            continue  # one word per Schrödinger entry
        word = ElementTree.SubElement(crossword, "word", id=str(slot.id + 1))
        for cell in slot.cells:
            ElementTree.SubElement(word, "cells", x=str(cell % width + 1), y=str(cell // width + 1))
    for label, direction in (("Across", Direction.ACROSS), ("Down", Direction.DOWN)) if not is_listed else ():
        clues_el = ElementTree.SubElement(crossword, "clues", ordering="normal")
        ElementTree.SubElement(ElementTree.SubElement(clues_el, "title"), "b").text = label
        in_order = sorted((s for s in slots if s.direction is direction), key=lambda s: (s.number, s.cells[0]))
        for slot in (s for s in in_order if s.reading <= 1):
            clue_els.append(
                (
                    ElementTree.SubElement(clues_el, "clue", word=str(slot.id + 1), number=str(slot.number)),
                    puzzle.clue(slot),
                )
            )
    ElementTree.indent(root, space=" ")
    for clue_el, text in clue_els:  # after indent, which would put whitespace into a clue's markup
        _set_clue_text(clue_el, text)
    xml: bytes = ElementTree.tostring(root, encoding="utf-8")  # typeshed: Any for an encoding other than "unicode"
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + xml + b"\n"


def _write_lists(
    crossword: ElementTree.Element, puzzle: Puzzle, clue_els: list[tuple[ElementTree.Element, str]]
) -> None:
    """A puzzle with listed entries: one `<word>` per entry (its cells one by one, in order), then its clue lists
    as titled, each clue with its label as `number`; a clue on no cells has no `word`."""
    width = puzzle.grid.width
    lists = written_lists(puzzle)
    word_id = 0
    clue_words: list[list[str | None]] = []
    for _, items in lists:
        ids: list[str | None] = []
        for _, cells, _ in items:
            if cells is None:
                ids.append(None)
                continue
            word_id += 1
            word = ElementTree.SubElement(crossword, "word", id=str(word_id))
            for cell in cells:
                ElementTree.SubElement(word, "cells", x=str(cell % width + 1), y=str(cell // width + 1))
            ids.append(str(word_id))
        clue_words.append(ids)
    for (title, items), ids in zip(lists, clue_words):
        clues_el = ElementTree.SubElement(crossword, "clues", ordering="normal")
        ElementTree.SubElement(ElementTree.SubElement(clues_el, "title"), "b").text = title
        for (label, _, text), word_ref in zip(items, ids):
            attrs = {"word": word_ref} if word_ref is not None else {}
            if label:
                attrs["number"] = label
            clue_els.append((ElementTree.SubElement(clues_el, "clue", attrs), text))


def _set_clue_text(el: ElementTree.Element, text: str) -> None:
    """A clue's text; inline markup (`<i>x</i>`) that is well-formed XML is written as markup, anything else as text."""
    if "<" in text:
        try:
            fragment = ElementTree.fromstring(f"<clue>{text}</clue>")
        except ElementTree.ParseError:
            fragment = None
        if fragment is not None:
            el.text = fragment.text
            el.extend(list(fragment))
            return
    el.text = text


def check_writable(puzzle: Puzzle, source: str = "<jpz>") -> None:
    """Refuse what .jpz cannot hold: Schrödinger cells (a `<cell>` has one `solution`).

    Raises:
        InputError: naming the first one and the formats that hold it.
    """
    if puzzle.grid.pairs:
        first = min(puzzle.grid.pairs)
        raise InputError(
            f"Schrödinger cells (first at row {first // puzzle.grid.width + 1}, column {first % puzzle.grid.width + 1}): "
            ".jpz holds one solution per cell; write .ipuz or .xd (both letters of each), .txt or .json",
            source,
        )


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` as a .jpz file (plain UTF-8 XML, which every .jpz reader takes).

    Raises:
        InputError: something .jpz cannot hold (`check_writable`).
    """
    check_writable(puzzle, str(path))
    write_output(path, to_bytes(puzzle), "puzzle")
