"""Drive the compiled kernels without numpy, for plain problems: the start-up path of a small fill.

A *plain* problem (`xwcp.engine.kernel.is_plain`, made by xwcp/services/quick.py) is compiled over a word
list read straight from its memory-mapped cache (`xwcp.words.wordlist.MappedWordList`), and its
domains are bitsets (`xwcp.compile.problem.initial_bitsets`). `PlainBitSearch` and `PlainEngine` are
`BitSearch` and `Engine` (xwcp/engine/kernel.py) with their buffers built from ctypes and the `array`
module instead of numpy, sized exactly as those size them, so the C code sees the same state
and gives the same answers; every method but `__init__` is theirs. `bit_search` and
`engine_for` give the right form for a problem.

When the C state grows a pointer these classes do not fill, `plain_search_supported` says so
and xwcp/services/quick.py leaves the fill to the ordinary path (tests/services/test_quick.py fails then, to say
that the lists below need the new array).
"""

from __future__ import annotations

import array
import ctypes
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from xwcp.compile.problem import Problem, plain_domains, plain_words
from xwcp.engine.kernel import (
    _U64,
    BitSearch,
    Engine,
    _bs_library,
    _BsState,
    _initial_state,
    _library,
    _SlotLayout,
    _State,
    is_plain,
    letter_count,
    slot_layout,
    word_count_logs,
)

if TYPE_CHECKING:
    from ctypes import _Pointer

    from xwcp.engine.kernel import SlotLayout
    from xwcp.words.wordlist import MappedWordList


def _pointer_types(state_type: type[ctypes.Structure]) -> dict[str, type[_Pointer[Any]]]:
    """The pointer fields of a C state struct, by name, with their ctypes pointer types."""
    return {
        field[0]: field[1]
        for field in state_type._fields_
        if isinstance(field[1], type) and issubclass(field[1], ctypes._Pointer)
    }


_POINTER_TYPES_BY_STATE = {_BsState: _pointer_types(_BsState), _State: _pointer_types(_State)}
"""Worked out once: `_bind_plain` and `_bind_mapped` point these fields at buffers."""

_PLAIN_STATE = {
    "dom": None,
    "size": "n",
    "live": "pos",
    "residue": "pos_letters",
    "weight": "pos",
    "queue": "n",
    "queued": "n",
    "saved_depth": "n",
    "dec_slot": "depth",
    "dec_word": "depth",
    "dec_mark": "depth",
    "solution": "n",
    "abort_flag": "one",
    "br_at_depth": "depth",
    "watch_list": "n",
    "watch_len": "n",
    "watch_cap": "n",
}
"""The search-state arrays `BitSearch` allocates in Python, with their sizes (as in `BitSearch.__init__`)."""
_PLAIN_PROBLEM = (
    "slot_len",
    "slot_nw",
    "slot_W",
    "slot_dom_off",
    "slot_mask_off",
    "slot_pos_off",
    "slot_letters_off",
    "slot_scores_off",
    "slot_group",
    "group_start",
    "group_slots",
    "cross_slot",
    "cross_pos",
    "masks",
    "letters",
    "scores",
    "log_table",
    "starts",
    "slot_starts_off",
)
_PLAIN_C_OWNED = (
    "save_words",
    "save_slot",
    "save_prev_depth",
    "save_size",
    "save_words_at",
    "br_slot",
    "br_word",
    "br_neg",
    "ng_lits",
    "ng_start",
    "ng_watch",
    "guide",
    "expl",
    "conflict",
    "ng_hits",  # learning at every failure (calloc'd in C)
    "nz",
    "nz_off",
    "blocks",  # nonzero-block summaries (malloc'd by bs_init)
    "prov",
    "used",
    "br_prov",
    "ng_prov",
)  # slot provenance for the core (calloc'd in C when `track` is set)
"""Pointer fields the C code allocates and grows itself (or leaves NULL); a name the state lacks is ignored."""
_PLAIN_NULL = ("stem_of", "slot_stem_off", "stem_start", "stem_len", "stem_word")
"""Pointer fields this path leaves NULL: the stem rule's arrays (a rule on pairs of entries, which never takes the
numpy-free path: `xwcp.services.load.load_plain`)."""


def plain_search_supported() -> bool:
    """Whether PlainBitSearch and PlainEngine know every pointer of the C state (see their Raises)."""
    known = set(_PLAIN_STATE) | set(_PLAIN_PROBLEM) | set(_PLAIN_C_OWNED) | set(_PLAIN_NULL)
    pointers = set(_POINTER_TYPES_BY_STATE[_BsState])
    return pointers >= set(_PLAIN_STATE) | set(_PLAIN_PROBLEM) and pointers <= known and plain_engine_supported()


class PlainBitSearch(BitSearch):
    """`BitSearch` without numpy, for the start-up path of a small fill (xwcp/services/quick.py).

    The same compiled search on the same state, and so the same fill for the same seed: the
    problem's arrays come from `slot_layout`, the word list's from its memory-mapped cache
    (`xwcp.words.wordlist.MappedWordList`), the search state is ctypes arrays sized as `BitSearch`
    sizes them, and the initial domains are bitsets given as Python ints. Every method but
    `__init__` is BitSearch's.

    Raises:
        NotImplementedError: the C state has a pointer field this class does not know how to
            fill (the search grew since it was written): the caller takes the numpy path.
    """

    def __init__(self, problem: Problem, *, track_slots: bool = False):
        """`problem` is plain (`is_plain`): over a MappedWordList, its domains bitsets (`initial_bitsets`);
        `track_slots` as in BitSearch."""
        if not plain_search_supported():
            raise NotImplementedError("PlainBitSearch does not know every pointer of the C search state")
        words = plain_words(problem)
        lay, rows, nw = _start(self, problem)
        n, n_pos = self.n_slots, max(self.n_pos, 1)
        blocks = [(count + 63) // 64 for count in nw]
        dom_off = _offsets(blocks)
        log_table = word_count_logs(max(nw, default=0) + 2)
        arrays: dict[str, tuple[str, Sequence[float]]] = {
            "slot_len": ("i", lay["slot_len"]),
            "slot_nw": ("i", nw),
            "slot_W": ("i", blocks),
            "slot_dom_off": ("q", dom_off),
            "slot_mask_off": ("q", [row[6] for row in rows]),
            "slot_pos_off": ("i", lay["slot_pos_off"]),
            "slot_letters_off": ("q", [row[2] for row in rows]),
            "slot_scores_off": ("q", [row[3] for row in rows]),
            "log_table": ("d", log_table),
            "slot_starts_off": ("q", [row[5] for row in rows]),
            "slot_group": ("i", lay["slot_group"]),
            "group_start": ("i", lay["group_start"]),
            "group_slots": ("i", lay["group_slots"]),
            "cross_slot": ("i", lay["cross_slot"]),
            "cross_pos": ("i", lay["cross_pos"]),
        }
        max_depth = n + n_pos + 2  # as BitSearch: a decision per slot plus one per cell
        length_of = {"n": max(n, 1), "pos": n_pos, "pos_letters": n_pos * self.n_letters, "depth": max_depth, "one": 1}
        st = _BsState()
        st.n_slots, st.n_letters = n, self.n_letters
        sizes = {name: length_of[size] for name, size in _PLAIN_STATE.items() if size is not None}
        _bind_plain(self, st, arrays, sizes)
        for index in range(n_pos):
            self.weight[index] = 1.0
        dom = (ctypes.c_uint64 * max(dom_off[n], 1))()
        domains = plain_domains(problem)
        for k, slot_id in enumerate(self.slot_ids):
            data = domains[slot_id].to_bytes(blocks[k] * 8, "little")
            ctypes.memmove(ctypes.addressof(dom) + dom_off[k] * 8, data, len(data))
        self.dom = dom
        st.dom = ctypes.cast(dom, _U64)
        _bind_mapped(
            self,
            st,
            words,
            {"masks": "bits_flat", "letters": "letters_flat", "scores": "scores_flat", "starts": "starts_flat"},
        )
        st.track = int(track_slots)
        self._state = st
        self._ref = ctypes.byref(st)
        self._lib = _bs_library(self.n_letters)
        self.is_consistent = _initial_state(self._lib, self._ref)


def _start(owner: _SlotLayout, problem: Problem) -> tuple[SlotLayout, list[Sequence[int]], list[int]]:
    """What both plain kernels set first: the problem, the layout (`slot_layout`) and its slot fields on
    `owner`. Returns the layout, each kernel slot's length-table row, and its number of words."""
    owner.problem = problem
    owner._words = problem.words  # keeps the mapped arrays alive while the kernel points at them
    owner.n_letters = letter_count(problem)
    owner._buffers = []
    lay = slot_layout(problem, {row[0]: row for row in plain_words(problem).table_rows})
    owner.slot_ids, owner.kernel_index = lay["slot_ids"], lay["kernel_index"]
    owner.n_slots = len(owner.slot_ids)
    owner.n_pos = lay["n_pos"]
    return lay, lay["rows"], [row[1] for row in lay["rows"]]


def _offsets(counts: list[int]) -> list[int]:
    """[0, c0, c0 + c1, ...]: where each slot's part of a flat array starts (and the total last)."""
    offsets = [0] * (len(counts) + 1)
    for k, count in enumerate(counts):
        offsets[k + 1] = offsets[k] + count
    return offsets


def _bind_plain(
    owner: _SlotLayout,
    state: ctypes.Structure,
    arrays: Mapping[str, tuple[str, Sequence[float]]],
    sizes: Mapping[str, int],
) -> None:
    """Point `state`'s fields at new ctypes buffers, also set on `owner` by name (kept in `owner._buffers`):
    `arrays` maps a field to (array typecode, values), `sizes` a field to a length of zeros."""
    for name, ctype in _POINTER_TYPES_BY_STATE[type(state)].items():
        if name in arrays:
            code, values = arrays[name]
            stored = values if isinstance(values, array.array) else array.array(code, values or [0])
            owner._buffers.append(stored)
            buffer = (ctype._type_ * len(stored)).from_buffer(stored)
        elif name in sizes:
            buffer = (ctype._type_ * sizes[name])()
        else:
            continue
        owner._buffers.append(buffer)
        setattr(owner, name, buffer)
        setattr(state, name, ctypes.cast(buffer, ctype))


def _bind_mapped(
    owner: _SlotLayout, state: ctypes.Structure, words: MappedWordList, view_by_field: Mapping[str, str]
) -> None:
    """Point `state`'s fields at the mapped list's arrays (`view_by_field`: field -> MappedWordList array)."""
    ctype_by_field = _POINTER_TYPES_BY_STATE[type(state)]
    for name, view_name in view_by_field.items():
        view: memoryview = getattr(words, view_name)
        item = ctype_by_field[name]._type_
        buffer = (item * len(view)).from_buffer(view) if len(view) else (item * 1)()
        owner._buffers.append(buffer)
        setattr(state, name, ctypes.cast(buffer, ctype_by_field[name]))


_BITS_OF_BYTE = [bytes((value >> bit) & 1 for bit in range(8)) for value in range(256)]
"""A byte's 8 bits, lowest first, as 8 bytes of 0 or 1 (a bitset domain to the AC kernel's byte mask)."""

_PLAIN_ENGINE_STATE = {
    "cnt": "pos_letters",
    "size": "n",
    "trail_slot": "trail",
    "trail_word": "trail",
    "ev_slot": "pos_letters",
    "ev_pos": "pos_letters",
    "ev_letter": "pos_letters",
    "sg": "n",
    "sg_queued": "n",
    "cause": "n",
}
"""The AC kernel's state arrays `Engine` allocates, with their sizes (as in `Engine.__init__`)."""
_PLAIN_ENGINE_PROBLEM = (
    "slot_len",
    "slot_nw",
    "slot_pos_off",
    "slot_group",
    "slot_letters_off",
    "slot_order_off",
    "slot_starts_off",
    "slot_scores_off",
    "slot_alive_off",
    "cross_slot",
    "cross_pos",
    "group_start",
    "group_slots",
    "letters",
    "order",
    "starts",
    "alive",
)


def plain_engine_supported() -> bool:
    """Whether PlainEngine knows every pointer of the AC kernel's state."""
    known = set(_PLAIN_ENGINE_STATE) | set(_PLAIN_ENGINE_PROBLEM)
    return set(_POINTER_TYPES_BY_STATE[_State]) == known


class PlainEngine(Engine):
    """`Engine` without numpy, for a plain problem (`is_plain`): the AC kernel over ctypes buffers and
    the mapped list, its byte masks expanded from the problem's bitset domains. Every method but
    `__init__` is Engine's; those that return numpy arrays (`domain`, `letter_counts`) import it.

    Raises:
        NotImplementedError: the C state has a pointer field this class does not fill.
    """

    def __init__(self, problem: Problem):
        if not plain_engine_supported():
            raise NotImplementedError("PlainEngine does not know every pointer of the AC kernel's state")
        words = plain_words(problem)
        lay, rows, nw = _start(self, problem)
        n, n_pos = self.n_slots, max(self.n_pos, 1)
        alive_off = _offsets(nw)
        alive = bytearray(max(alive_off[n], 1))
        domains = plain_domains(problem)
        for k, slot_id in enumerate(self.slot_ids):
            packed = domains[slot_id].to_bytes((nw[k] + 7) // 8, "little")
            alive[alive_off[k] : alive_off[k + 1]] = b"".join(map(_BITS_OF_BYTE.__getitem__, packed))[: nw[k]]
        arrays = {"slot_nw": ("i", nw), "slot_alive_off": ("q", alive_off), "alive": ("B", alive)}
        for name in ("slot_len", "slot_pos_off", "slot_group", "group_start", "group_slots", "cross_slot", "cross_pos"):
            arrays[name] = ("i", lay[name])
        for name, column in (
            ("slot_letters_off", 2),
            ("slot_scores_off", 3),
            ("slot_order_off", 4),
            ("slot_starts_off", 5),
        ):
            arrays[name] = ("q", [row[column] for row in rows])
        length_of = {"n": max(n, 1), "pos_letters": n_pos * self.n_letters, "trail": max(alive_off[n], 1)}
        st = _State()
        st.n_slots, st.n_pos, st.n_letters = n, self.n_pos, self.n_letters
        _bind_plain(self, st, arrays, {name: length_of[size] for name, size in _PLAIN_ENGINE_STATE.items()})
        for k in range(max(n, 1)):
            self.cause[k] = -1
        _bind_mapped(self, st, words, {"letters": "letters_flat", "order": "order_flat", "starts": "starts_flat"})
        self._state = st
        self._ref = ctypes.byref(st)
        self._lib = _library()
        self._lib.xw_init(self._ref)


def bit_search(problem: Problem, *, track_slots: bool = False) -> BitSearch:
    """The fill search for `problem`: PlainBitSearch for a plain problem (`is_plain`), else BitSearch
    (`track_slots`: see `BitSearch`)."""
    return (PlainBitSearch if is_plain(problem) else BitSearch)(problem, track_slots=track_slots)


def engine_for(problem: Problem) -> Engine:
    """The AC kernel for `problem`: PlainEngine for a plain problem (`is_plain`), else Engine."""
    return PlainEngine(problem) if is_plain(problem) else Engine(problem)
