"""Read an XCSP crossword instance into plain data: a block/white grid and its word list.

The XCSP library's "Crossword" series (C. Lecoutre) is a standard set of crossword-fill
benchmarks. This module only decodes such a file; compiling and solving it is the job of
the rest of xwcp (`rows` is a grid in xwcp's text format, `words` a word list).

XCSP3 (`<instance format="XCSP3">`): one array `x[H][W]` of letter variables (0 = a ..
25 = z), one `<extension>` table per word length whose `<supports>` are the words of that
length, one `<args>` per slot (`x[r][c1..c2]`, `x[r1..r2][c]`, `x[r][]`, `x[][c]`, or
explicit cells), and optionally a `<block class="distinctWords">` of `<allDifferent>`
constraints over slot lists.

XCSP 2.x model 1 (`<presentation format="XCSP 2.1">`, letter variables `V0..` = the white
cells in row-major order, slot tables as `<relation>`s, word distinctness as
`or(ne(..),..)` predicates) is read too. The grid is rebuilt from the slot scopes, so
all-black border rows or columns (invisible in the file) are dropped. XCSP 2 model 2 files
(one variable per word, binary compatibility tables) carry no letters and are refused.

Files may be plain XML or xz/lzma-compressed (`.xml.xz`, `.xml.lzma`).
"""

from __future__ import annotations

import io
import lzma
import re
import string
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from xwcp.base.errors import InputError

LETTERS = string.ascii_uppercase
"""Letter of each XCSP value: 0 = 'A' .. 25 = 'Z'."""

MAX_XCSP_BYTES = 256 * 1024 * 1024
"""Largest XCSP file read, and the most a compressed one may inflate to (the crossword instances: under 50 MiB)."""
_COMPRESSED_SUFFIXES = (".xz", ".lzma")
_INDEX_RE = re.compile(r"\[([^\]]*)\]")
_CELL_TOKEN_RE = re.compile(r"^([A-Za-z_][\w-]*)((?:\[[^\]]*\])+)$")
_XCSP2_VAR_RE = re.compile(r"^V(\d+)$")
_DISTINCT_EXPR_RE = re.compile(r"^[\s()orne,X\d]*$")
"""Characters of an `or(ne(X0,X1),...)` predicate: the only intension XCSP 2 crosswords use."""

Cell = tuple[int, int]


@dataclass(frozen=True)
class XcspCrossword:
    """A crossword instance read from an XCSP file.

    Attributes:
        name: the file name without `.xml` and compression suffixes.
        rows: the grid, one string per row: '#' for a cell in no slot, '.' for a white cell.
            Its slots (maximal across/down runs of >= 2 white cells) are exactly the file's.
        words: every word of the instance's tables, UPPERCASE A-Z, de-duplicated, sorted by
            length and then alphabetically (the file's per-length tables, concatenated).
        distinct_words: True if the instance forbids using a word twice (XCSP3
            `allDifferent` over slot lists; XCSP 2 `or(ne(..))` predicates).
    """

    name: str
    rows: tuple[str, ...]
    words: tuple[str, ...]
    distinct_words: bool

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0


def read_xcsp(path: str | Path) -> XcspCrossword:
    """Read an XCSP3 (or XCSP 2.x model 1) crossword instance.

    Args:
        path: an `.xml`, `.xml.xz` or `.xml.lzma` file.

    Returns:
        The instance's grid, word list and distinct-words flag.

    Raises:
        ValueError: the file is missing, unreadable, corrupt, not XML, not an XCSP crossword
            or uses a construct this reader does not support. The message is one line that
            starts with the file name.
    """
    path = Path(path)
    try:
        return _read(path)
    except _Unsupported as exc:
        raise ValueError(f"{path}: {exc}") from None
    except ET.ParseError as exc:
        raise ValueError(f"{path}: not valid XML ({exc})") from None
    except (lzma.LZMAError, EOFError) as exc:
        raise ValueError(f"{path}: corrupt compressed file ({exc})") from None
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a directory, not an XCSP file") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read file ({exc.__class__.__name__}: {exc})") from None


class _Unsupported(Exception):
    """The file is readable but not an XCSP crossword this reader understands."""


def _instance_name(path: Path) -> str:
    name = path.name
    for suffix in _COMPRESSED_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if name.endswith(".xml"):
        name = name[: -len(".xml")]
    return name


def _open(path: Path) -> IO[bytes]:
    """The instance's XML, read whole under MAX_XCSP_BYTES (and inflated under it when compressed)."""
    from xwcp.runtime.files import decompress_bounded, is_compressed, read_bounded

    raw = read_bounded(path, MAX_XCSP_BYTES, "XCSP")
    if path.suffix in _COMPRESSED_SUFFIXES and not is_compressed(raw):
        raise lzma.LZMAError(f"named {path.suffix} but not xz or lzma data")
    try:
        return io.BytesIO(decompress_bounded(raw, MAX_XCSP_BYTES, "XCSP", str(path)))
    except InputError as exc:
        if exc.message.startswith("cannot decompress"):  # said as every other damaged file is
            raise lzma.LZMAError(exc.message.partition("(")[2].rstrip(")")) from None
        raise


def _read(path: Path) -> XcspCrossword:
    with _open(path) as stream:
        events = ET.iterparse(stream, events=("start", "end"))
        try:
            _, root = next(events)
        except StopIteration:  # pragma: no cover - iterparse raises ParseError on empty input
            raise _Unsupported("empty file") from None
        if root.tag != "instance":
            raise _Unsupported(f"root element is <{root.tag}>, expected <instance>")
        fmt = root.get("format", "")
        if fmt.startswith("XCSP3"):
            rows, words, distinct = _read_xcsp3(events)
        elif fmt == "":
            rows, words, distinct = _read_xcsp2(events)
        else:
            raise _Unsupported(f"unknown instance format {fmt!r}")
    return XcspCrossword(_instance_name(path), rows, words, distinct)


# ---------------------------------------------------------------------------------------
# XCSP3


def _read_xcsp3(events: Iterator[tuple[str, ET.Element]]) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    array_id: str | None = None
    height = width = 0
    slots: list[tuple[Cell, ...]] = []
    words_by_length: dict[int, frozenset[str]] = {}
    distinct_lists: list[tuple[Cell, ...]] = []
    has_distinct = False
    table: frozenset[str] | None = None  # the current group's table
    depth_in_constraints = 0
    path: list[str] = ["instance"]  # the root start event was read by the caller

    for event, elem in events:
        if event == "start":
            path.append(elem.tag)
            if elem.tag == "constraints":
                depth_in_constraints = len(path)
            continue
        path.pop()
        tag = elem.tag
        parent = path[-1] if path else ""
        if tag == "array":
            if array_id is not None:
                raise _Unsupported("more than one variable array (expected one array x[H][W] of letters)")
            array_id = elem.get("id")
            dims = [int(d) for d in _INDEX_RE.findall(elem.get("size", "")) if d.strip().isdigit()]
            if len(dims) != 2 or min(dims) < 1:
                raise _Unsupported(f"array {array_id!r} has size {elem.get('size')!r}, expected [H][W]")
            height, width = dims
            domain = (elem.text or "").split()
            if domain != ["0..25"]:
                raise _Unsupported(f"array {array_id!r} has domain {' '.join(domain)!r}, expected 0..25 (letters)")
        elif tag == "var":
            raise _Unsupported("single <var> declarations are not supported (expected one array x[H][W])")
        elif tag == "extension":
            if elem.find("conflicts") is not None:
                raise _Unsupported("<conflicts> tables are not supported (expected <supports>)")
            supports = elem.find("supports")
            if supports is None:
                raise _Unsupported("<extension> without <supports>")
            table = _decode_xcsp3_tuples(supports.text or "")
            list_elem = elem.find("list")
            if parent != "group":
                if list_elem is None:
                    raise _Unsupported("<extension> without <list>")
                cells = _parse_cells(list_elem.text or "", array_id, height, width)
                _add_slot(slots, words_by_length, cells, table)
                table = None
            elem.clear()
        elif tag == "args":
            if table is None:
                raise _Unsupported("<args> outside a <group> of one <extension>")
            cells = _parse_cells(elem.text or "", array_id, height, width)
            _add_slot(slots, words_by_length, cells, table)
        elif tag == "group":
            table = None
            elem.clear()
        elif tag == "list" and parent == "allDifferent":
            distinct_lists.append(_parse_cells(elem.text or "", array_id, height, width))
        elif tag == "allDifferent":
            if elem.find("list") is None:
                raise _Unsupported("allDifferent over single letters is not a crossword constraint")
            has_distinct = True
            elem.clear()
        elif tag == "block":
            elem.clear()
        elif depth_in_constraints and len(path) == depth_in_constraints and tag not in {"group", "block"}:
            raise _Unsupported(f"constraint <{tag}> is not supported in a crossword instance")
        elif tag in {"objectives", "annotations"}:
            raise _Unsupported(f"<{tag}> is not supported (expected a plain crossword CSP)")

    if array_id is None:
        raise _Unsupported("no <array> of letter variables")
    if not slots:
        raise _Unsupported("no slot tables found")
    slot_set = set(slots)
    for cells in distinct_lists:
        if cells not in slot_set:
            raise _Unsupported(f"allDifferent list {_describe(cells)} is not a slot")
    rows = _rows_from_slots(slots, height, width)
    return rows, _sorted_words(words_by_length), has_distinct


def _decode_xcsp3_tuples(text: str) -> frozenset[str]:
    """`(0,1,2)(3,4,5)` → {'ABC', 'DEF'}."""
    compact = "".join(text.split())
    if not compact:
        return frozenset()
    if compact[0] != "(" or compact[-1] != ")":
        raise _Unsupported("<supports> of arity 1 or malformed tuples (expected (v,v,...)(...))")
    words = set()
    for tup in compact[1:-1].split(")("):
        try:
            words.add("".join(LETTERS[int(v)] for v in tup.split(",")))
        except (ValueError, IndexError):
            raise _Unsupported(f"tuple ({tup}) is not a list of letter codes 0..25") from None
    return frozenset(words)


def _parse_cells(text: str, array_id: str | None, height: int, width: int) -> tuple[Cell, ...]:
    """Expand `x[r][c1..c2]`-style tokens into (row, col) cells, in order."""
    if array_id is None:
        raise _Unsupported("a slot refers to variables before any <array> is declared")
    cells: list[Cell] = []
    for token in text.split():
        match = _CELL_TOKEN_RE.match(token)
        if match is None or match.group(1) != array_id:
            raise _Unsupported(f"cannot read variable reference {token!r} (expected {array_id}[r][c] forms)")
        indices = _INDEX_RE.findall(match.group(2))
        if len(indices) != 2:
            raise _Unsupported(f"variable reference {token!r} does not have two indices")
        for r in _index_range(indices[0], height, token):
            for c in _index_range(indices[1], width, token):
                cells.append((r, c))
    return tuple(cells)


def _index_range(index: str, size: int, token: str) -> range:
    index = index.strip()
    try:
        if index == "":
            return range(size)
        if ".." in index:
            low, high = (int(part) for part in index.split(".."))
        else:
            low = high = int(index)
    except ValueError:
        raise _Unsupported(f"cannot read index [{index}] in {token!r}") from None
    if not 0 <= low <= high < size:
        raise _Unsupported(f"index [{index}] in {token!r} is outside 0..{size - 1}")
    return range(low, high + 1)


# ---------------------------------------------------------------------------------------
# XCSP 2.x


def _read_xcsp2(events: Iterator[tuple[str, ET.Element]]) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    fmt = ""
    domain_by_name: dict[str, str] = {}
    domain_by_var: dict[int, str] = {}
    relation_text: dict[str, tuple[int, str]] = {}
    table_by_relation: dict[str, frozenset[str]] = {}
    distinct_predicates: set[str] = set()
    scopes: list[tuple[tuple[int, ...], frozenset[str]]] = []
    has_distinct = False

    for event, elem in events:
        if event != "end":
            continue
        tag = elem.tag
        if tag == "presentation":
            fmt = elem.get("format", "")
            if not fmt.startswith("XCSP 2"):
                raise _Unsupported(f"unknown instance format {fmt!r}")
        elif tag == "domain":
            domain_by_name[elem.get("name", "")] = " ".join((elem.text or "").split())
        elif tag == "variable":
            var = _xcsp2_var(elem.get("name", ""))
            domain_by_var[var] = domain_by_name.get(elem.get("domain", ""), "?")
        elif tag == "relation":
            if elem.get("semantics") != "supports":
                raise _Unsupported(f"relation {elem.get('name')} is not a supports table")
            relation_text[elem.get("name", "")] = (int(elem.get("arity", "0")), elem.text or "")
            elem.clear()
        elif tag == "predicate":
            functional = elem.find("expression/functional")
            expr = functional.text if functional is not None and functional.text else ""
            if "ne(" not in expr or not _DISTINCT_EXPR_RE.match(expr):
                raise _Unsupported(f"predicate {elem.get('name')} is not an or(ne(..)) distinctness test")
            distinct_predicates.add(elem.get("name", ""))
        elif tag == "constraint":
            reference = elem.get("reference", "")
            scope = tuple(_xcsp2_var(v) for v in elem.get("scope", "").split())
            if reference in relation_text:
                domains = {domain_by_var.get(v, "?") for v in scope}
                if domains != {"0..25"}:
                    raise _Unsupported(
                        f"XCSP 2 format not supported for this model: table {reference} is over variables "
                        f"with domains {sorted(domains)}, not letters 0..25 (model 2 has word variables, no letters)"
                    )
                arity, text = relation_text[reference]
                if arity != len(scope):
                    raise _Unsupported(
                        f"constraint {elem.get('name')} has {len(scope)} variables for a relation of arity {arity}"
                    )
                if reference not in table_by_relation:
                    table_by_relation[reference] = _decode_xcsp2_tuples(text, arity)
                scopes.append((scope, table_by_relation[reference]))
            elif reference in distinct_predicates:
                has_distinct = True
            else:
                raise _Unsupported(f"constraint {elem.get('name')} refers to unknown {reference!r}")
            elem.clear()

    if not fmt:
        raise _Unsupported("no format attribute: neither XCSP3 nor XCSP 2")
    if not scopes:
        raise _Unsupported("no slot tables found")
    cell_by_var = _layout_from_scopes([scope for scope, _ in scopes])
    height = 1 + max(r for r, _ in cell_by_var.values())
    width = 1 + max(c for _, c in cell_by_var.values())
    slots: list[tuple[Cell, ...]] = []
    words_by_length: dict[int, frozenset[str]] = {}
    for scope, table in scopes:
        _add_slot(slots, words_by_length, tuple(cell_by_var[v] for v in scope), table)
    rows = _rows_from_slots(slots, height, width)
    return rows, _sorted_words(words_by_length), has_distinct


def _xcsp2_var(name: str) -> int:
    match = _XCSP2_VAR_RE.match(name)
    if match is None:
        raise _Unsupported(f"variable {name!r} is not named V<n>")
    return int(match.group(1))


def _decode_xcsp2_tuples(text: str, arity: int) -> frozenset[str]:
    """`0 1 2|3 4 5` → {'ABC', 'DEF'}."""
    words = set()
    for tup in text.split("|"):
        values = tup.split()
        if not values:
            continue
        if len(values) != arity:
            raise _Unsupported(f"tuple {tup.strip()!r} does not have {arity} values")
        try:
            words.add("".join(LETTERS[int(v)] for v in values))
        except (ValueError, IndexError):
            raise _Unsupported(f"tuple {tup.strip()!r} is not a list of letter codes 0..25") from None
    return frozenset(words)


def _layout_from_scopes(scopes: list[tuple[int, ...]]) -> dict[int, Cell]:
    """Place the variables of slot scopes on a grid, given that V0.. are white cells in row-major order.

    A scope of consecutive variables is an across slot, any other a down slot. Cells are
    placed relative to each other along the slots; the result must be one connected piece
    whose row-major order is the variable order.
    """
    across_of: dict[int, int] = {}
    down_of: dict[int, int] = {}
    for slot_index, scope in enumerate(scopes):
        is_across = all(b == a + 1 for a, b in zip(scope, scope[1:]))
        owner = across_of if is_across else down_of
        if not all(b > a for a, b in zip(scope, scope[1:])):
            raise _Unsupported(f"slot scope V{scope[0]}.. is not in increasing variable order")
        for var in scope:
            if var in owner:
                raise _Unsupported(f"variable V{var} is in two {'across' if is_across else 'down'} slots")
            owner[var] = slot_index
    cell_by_var: dict[int, Cell] = {scopes[0][0]: (0, 0)}
    todo = [scopes[0][0]]
    while todo:
        var = todo.pop()
        r, c = cell_by_var[var]
        for owner, dr, dc in ((across_of, 0, 1), (down_of, 1, 0)):
            if var not in owner:
                continue
            scope = scopes[owner[var]]
            pos = scope.index(var)
            for other_pos, other in enumerate(scope):
                cell = (r + (other_pos - pos) * dr, c + (other_pos - pos) * dc)
                if other not in cell_by_var:
                    cell_by_var[other] = cell
                    todo.append(other)
                elif cell_by_var[other] != cell:
                    raise _Unsupported(f"slot scopes do not fit on a grid (V{other})")
    placed_vars = set(across_of) | set(down_of)
    if len(cell_by_var) != len(placed_vars):
        raise _Unsupported("the slots form several disconnected pieces; the grid layout cannot be inferred")
    min_r = min(r for r, _ in cell_by_var.values())
    min_c = min(c for _, c in cell_by_var.values())
    cell_by_var = {v: (r - min_r, c - min_c) for v, (r, c) in cell_by_var.items()}
    by_position = sorted(cell_by_var, key=cell_by_var.__getitem__)
    if by_position != sorted(by_position) or len(set(cell_by_var.values())) != len(cell_by_var):
        raise _Unsupported("variables are not the white cells in row-major order; the grid layout cannot be inferred")
    return cell_by_var


# ---------------------------------------------------------------------------------------
# shared


def _add_slot(
    slots: list[tuple[Cell, ...]],
    words_by_length: dict[int, frozenset[str]],
    cells: tuple[Cell, ...],
    table: frozenset[str],
) -> None:
    length = len(cells)
    if length < 2:
        raise _Unsupported(f"slot {_describe(cells)} has fewer than two cells")
    if len(set(cells)) != length:
        raise _Unsupported(f"slot {_describe(cells)} repeats a cell")
    if any(len(word) != length for word in table):
        raise _Unsupported(f"slot {_describe(cells)} has {length} cells but its table has other lengths")
    known = words_by_length.setdefault(length, table)
    if known is not table and known != table:
        raise _Unsupported(f"slots of length {length} use different word tables; not a single-dictionary crossword")
    slots.append(cells)


def _rows_from_slots(slots: list[tuple[Cell, ...]], height: int, width: int) -> tuple[str, ...]:
    """The '#'/'.' grid whose cells are those of the slots; check its runs are exactly the slots."""
    white = [[False] * width for _ in range(height)]
    for cells in slots:
        for r, c in cells:
            white[r][c] = True
    rows = tuple("".join("." if w else "#" for w in row) for row in white)
    expected = set(_runs(rows))
    found = set(slots)
    if len(found) != len(slots):
        raise _Unsupported("the same slot is constrained twice")
    if found != expected:
        odd = sorted(found ^ expected)[0]
        raise _Unsupported(
            f"slot {_describe(odd)} is not a maximal run of white cells (or a run has no table); "
            "the instance is not a plain crossword grid"
        )
    return rows


def _runs(rows: tuple[str, ...]) -> Iterator[tuple[Cell, ...]]:
    """Maximal across and down runs of >= 2 white cells."""
    width = len(rows[0])
    directions: tuple[tuple[Sequence[str], Callable[[int, int], Cell]], ...] = (
        (rows, lambda i, j: (i, j)),
        (["".join(row[c] for row in rows) for c in range(width)], lambda i, j: (j, i)),
    )
    for lines, to_cell in directions:
        for i, line in enumerate(lines):
            for match in re.finditer(r"\.{2,}", line):
                yield tuple(to_cell(i, j) for j in range(match.start(), match.end()))


def _sorted_words(words_by_length: dict[int, frozenset[str]]) -> tuple[str, ...]:
    return tuple(word for length in sorted(words_by_length) for word in sorted(words_by_length[length]))


def _describe(cells: tuple[Cell, ...]) -> str:
    return " ".join(f"[{r}][{c}]" for r, c in cells[:3]) + (" ..." if len(cells) > 3 else "")
