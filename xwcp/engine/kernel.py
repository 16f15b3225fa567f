"""Drive the compiled kernels through ctypes: AC-3 support counts (`Engine`) and the fill search (`BitSearch`).

Both own every array their C code touches (numpy, so Python frees them). `Engine`
(xwcp/engine/_kernel.c) propagates to the arc-consistent fixpoint, restricts a slot to a letter or
removes words with an undo mark, and reads domains and per-cell letter counts. `BitSearch`
(xwcp/engine/_bitsearch.c) runs the restarting MAC search over bitset domains in time slices.
Slots the user filled completely are not kernel variables in either: their letters already
narrow the crossing slots, and their words are already out of every other domain.
"""

from __future__ import annotations

import array
import ctypes
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from xwcp.base.types import SlotId
from xwcp.compile.problem import Domains, Problem
from xwcp.runtime.lazy import lazy_import

if TYPE_CHECKING:
    from ctypes import _Pointer
    from typing import TypedDict

    import numpy as np
    from numpy.typing import NDArray
else:
    np = lazy_import(
        "numpy"
    )  # xwcp.engine.plain_kernel drives these kernels without it (the start-up path of a small fill)

RUNNING, SOLVED, EXHAUSTED, FAIL_LIMIT, ABORTED = range(5)

_I32 = ctypes.POINTER(ctypes.c_int32)
_I64 = ctypes.POINTER(ctypes.c_int64)
_U8 = ctypes.POINTER(ctypes.c_uint8)
_I16 = ctypes.POINTER(ctypes.c_int16)
_F64 = ctypes.POINTER(ctypes.c_double)


class _State(ctypes.Structure):
    _fields_ = [
        ("n_slots", ctypes.c_int32),
        ("n_pos", ctypes.c_int32),
        ("n_letters", ctypes.c_int32),
        ("slot_len", _I32),
        ("slot_nw", _I32),
        ("slot_pos_off", _I32),
        ("slot_group", _I32),
        ("slot_letters_off", _I64),
        ("slot_order_off", _I64),
        ("slot_starts_off", _I64),
        ("slot_scores_off", _I64),
        ("slot_alive_off", _I64),
        ("cross_slot", _I32),
        ("cross_pos", _I32),
        ("group_start", _I32),
        ("group_slots", _I32),
        ("letters", _U8),
        ("order", _I32),
        ("starts", _I32),
        ("alive", _U8),
        ("cnt", _I32),
        ("size", _I32),
        ("trail_slot", _I32),
        ("trail_word", _I32),
        ("trail_len", ctypes.c_int64),
        ("ev_slot", _I32),
        ("ev_pos", _I32),
        ("ev_letter", _I32),
        ("ev_len", ctypes.c_int64),
        ("sg", _I32),
        ("sg_len", ctypes.c_int32),
        ("sg_queued", _I32),
        ("cause", _I32),
        ("wipeout_slot", ctypes.c_int32),
    ]


_lib: ctypes.CDLL | None = None


def _library() -> ctypes.CDLL:
    global _lib
    if _lib is None:
        from xwcp.engine import _kernel  # the compiled extension; imported only to find its file

        lib = ctypes.CDLL(_kernel.__file__)
        p = ctypes.POINTER(_State)
        for name, args in {
            "xw_init": [p],
            "xw_propagate_all": [p],
            "xw_remove": [p, ctypes.c_int32, _I32, ctypes.c_int32],
            "xw_restrict_letter": [p, ctypes.c_int32, ctypes.c_int32, ctypes.c_int32],
        }.items():
            fn = getattr(lib, name)
            fn.argtypes = args
            fn.restype = ctypes.c_int
        lib.xw_undo.argtypes = [p, ctypes.c_int64]
        lib.xw_undo.restype = None
        _lib = lib
    return _lib


_P = TypeVar("_P", bound="_Pointer[Any]")


def _ptr(array: NDArray[Any], ctype: type[_P]) -> _P:
    return array.ctypes.data_as(ctype)


if TYPE_CHECKING:  # types only: a class made at import costs every small fill's start-up

    class SlotLayout(TypedDict):
        """`slot_layout`: the kernels' view of a problem as plain lists (see `_SlotLayout` for the names)."""

        slot_ids: list[SlotId]
        kernel_index: list[int]
        slot_len: list[int]
        rows: list[Sequence[int]]
        """Per kernel slot, its length's row of the word list's length table (all 0 when the list has none)."""
        slot_pos_off: list[int]
        n_pos: int
        cross_slot: list[int]
        cross_pos: list[int]
        slot_group: list[int]
        group_slots: list[int]
        group_start: list[int]


class _SlotLayout:
    """What both kernels need to know of a problem: open slots, their buckets, crossings and groups.

    Kernel slot k is problem slot `slot_ids[k]`; `kernel_index[slot_id]` maps back (-1 for a
    slot the user filled completely). Per-position arrays are indexed `slot_pos_off[k] + pos`.
    """

    _buffers: list[object]
    """(The plain kernels, xwcp/engine/plain_kernel.py) the ctypes buffers and arrays the C state points at."""

    def __init__(self, problem: Problem):
        if is_plain(problem):
            raise NeedsNumpyProblem("this kernel needs the problem's numpy domains (compile_problem)")
        self.problem = problem
        self._words = problem.words  # keeps the word-list arrays alive while a kernel points at them
        self.n_letters = letter_count(problem)
        lay = slot_layout(problem, {int(r[0]): r for r in problem.words.table})
        self.slot_ids: list[SlotId] = lay["slot_ids"]
        n = len(self.slot_ids)
        self.n_slots = n
        self.kernel_index: Sequence[int] | NDArray[np.int64] = np.array(lay["kernel_index"], np.int64)
        """A list in the plain kernels (xwcp/engine/plain_kernel.py)."""
        self._rows = lay["rows"]
        self.slot_len = np.array(lay["slot_len"], np.int32)
        self.slot_nw = self._column(1, np.int32)
        self.slot_letters_off = self._column(2, np.int64)
        self.slot_scores_off = self._column(3, np.int64)
        self.slot_pos_off = np.array(lay["slot_pos_off"], np.int32)
        self.n_pos = lay["n_pos"]
        self.cross_slot = np.array(lay["cross_slot"], np.int32)
        self.cross_pos = np.array(lay["cross_pos"], np.int32)
        self.slot_group = np.array(lay["slot_group"], np.int32)
        self.group_slots = np.array(lay["group_slots"], np.int32)
        self.group_start = np.array(lay["group_start"], np.int32)

    def _column(self, index: int, dtype: type[np.integer[Any]]) -> NDArray[Any]:
        """One column of the word list's length table, per kernel slot."""
        return np.array([int(r[index]) for r in self._rows], dtype)

    def _bind(self, state: ctypes.Structure, fields: Iterable[tuple[str, type[_Pointer[Any]]]]) -> None:
        """Point the C struct's fields at this object's arrays of the same names."""
        for name, ctype in fields:
            setattr(state, name, _ptr(getattr(self, name), ctype))


class NeedsNumpyProblem(Exception):
    """A kernel was given a plain problem (`is_plain`), whose domains are bitsets, not numpy masks:
    use xwcp.engine.plain_kernel's forms, or compile the problem with `compile_problem`."""


MAX_LETTERS = 64
"""The most letters the kernels take: a cell's live letters are one 64-bit mask. Larger alphabets run on cpsat."""


def letter_chars(problem: Problem) -> str:
    """The code char of each letter code 0..K-1 of `problem`'s alphabet, in order (A-Z for English)."""
    return problem.alphabet.chars


def letter_count(problem: Problem) -> int:
    """K, the letters of `problem`'s alphabet (`Problem.alphabet`): the kernels' tables are sized per letter by it.

    Raises:
        ValueError: the alphabet has more than MAX_LETTERS letters (or none).
    """
    size = problem.alphabet.size
    if not 1 <= size <= MAX_LETTERS:
        raise ValueError(f"the compiled kernels take alphabets of 1 to {MAX_LETTERS} letters, not {size}")
    return size


def letter_value_parts(value: int, n_letters: int) -> tuple[int, int]:
    """(position, letter code) of a letter decision's value -(1 + position * n_letters + letter)."""
    return divmod(-1 - value, n_letters)


def is_plain(problem: Problem) -> bool:
    """Whether `problem` was compiled without numpy: over a memory-mapped list, its domains bitsets."""
    return hasattr(problem.words, "table_rows")


def slot_layout(problem: Problem, row_by_length: Mapping[int, Sequence[int]]) -> SlotLayout:
    """The kernels' view of a problem as plain lists (see `_SlotLayout` for the names).

    `row_by_length` maps a word length to its row of the list's length table.
    """
    slot_ids = problem.open_slot_ids
    n = len(slot_ids)
    kernel_index = [-1] * len(problem.slots)
    for k, slot_id in enumerate(slot_ids):
        kernel_index[slot_id] = k
    lens = [problem.slots[s].length for s in slot_ids]
    slot_pos_off = [0] * (n + 1)
    for k, length in enumerate(lens):
        slot_pos_off[k + 1] = slot_pos_off[k] + length
    n_pos = slot_pos_off[n]
    cross_slot = [-1] * max(n_pos, 1)
    cross_pos = [-1] * max(n_pos, 1)
    is_pairwise = problem.is_pairwise
    for k, slot_id in enumerate(slot_ids):
        base = slot_pos_off[k]
        for pos, (t, q) in enumerate(zip(problem.cross_slot[slot_id], problem.cross_pos[slot_id])):
            if t >= 0 and kernel_index[t] >= 0:
                cross_slot[base + pos] = kernel_index[t]
                cross_pos[base + pos] = q
            elif t >= 0 and not is_pairwise:  # a complete slot in a cycle of 3+: link to the next open one
                while kernel_index[t] < 0 and (t, q) != (slot_id, pos):
                    t, q = problem.cross_slot[t][q], problem.cross_pos[t][q]
                if kernel_index[t] >= 0 and t != slot_id:
                    cross_slot[base + pos] = kernel_index[t]
                    cross_pos[base + pos] = q
    slot_group = [-1] * max(n, 1)
    group_slots: list[int] = []
    group_start = [0]
    if not problem.allow_dupes:
        for g, length in enumerate(sorted(set(lens))):
            members = [k for k in range(n) if lens[k] == length]
            for k in members:
                slot_group[k] = g
            group_slots.extend(members)
            group_start.append(len(group_slots))
    return {
        "slot_ids": slot_ids,
        "kernel_index": kernel_index,
        "slot_len": lens,
        "rows": [row_by_length.get(length, (0,) * 7) for length in lens],
        "slot_pos_off": slot_pos_off,
        "n_pos": n_pos,
        "cross_slot": cross_slot,
        "cross_pos": cross_pos,
        "slot_group": slot_group,
        "group_slots": group_slots or [0],
        "group_start": group_start,
    }


class Engine(_SlotLayout):
    """Live domains of a problem's open slots under the compiled kernel.

    Kernel slot k is problem slot `slot_ids[k]`; `kernel_index[slot_id]` maps back (-1 for a
    slot the user filled completely).
    """

    def __init__(self, problem: Problem, domains: Domains | None = None):
        """Load `problem` (or the given per-slot `domains` masks instead of its initial ones)."""
        super().__init__(problem)
        n, n_pos = self.n_slots, self.n_pos
        self.slot_order_off = self._column(4, np.int64)
        self.slot_starts_off = self._column(5, np.int64)
        self.slot_alive_off = np.zeros(n + 1, np.int64)
        np.cumsum(self.slot_nw, out=self.slot_alive_off[1:])
        self.alive = np.zeros(max(int(self.slot_alive_off[n]), 1), np.uint8)
        source = problem.domains if domains is None else domains
        for k, slot_id in enumerate(self.slot_ids):
            self.alive[self.slot_alive_off[k] : self.slot_alive_off[k + 1]] = source[slot_id]
        self.cnt = np.zeros(max(n_pos, 1) * self.n_letters, np.int32)
        self.size = np.zeros(max(n, 1), np.int32)
        trail_cap = max(int(self.slot_alive_off[n]), 1)
        self.trail_slot = np.zeros(trail_cap, np.int32)
        self.trail_word = np.zeros(trail_cap, np.int32)
        ev_cap = max(n_pos, 1) * self.n_letters
        self.ev_slot = np.zeros(ev_cap, np.int32)
        self.ev_pos = np.zeros(ev_cap, np.int32)
        self.ev_letter = np.zeros(ev_cap, np.int32)
        self.sg = np.zeros(max(n, 1), np.int32)
        self.sg_queued = np.zeros(max(n, 1), np.int32)
        self.cause = np.full(max(n, 1), -1, np.int32)

        self._bind_state()
        self._lib.xw_init(self._ref)

    def _bind_state(self) -> None:
        """A fresh C state pointing at this engine's arrays (trail, queues and wipeout empty)."""
        words = self.problem.words
        st = _State()
        st.n_slots, st.n_pos, st.n_letters = self.n_slots, self.n_pos, self.n_letters
        self._bind(
            st,
            [
                ("slot_len", _I32),
                ("slot_nw", _I32),
                ("slot_pos_off", _I32),
                ("slot_group", _I32),
                ("slot_letters_off", _I64),
                ("slot_order_off", _I64),
                ("slot_starts_off", _I64),
                ("slot_scores_off", _I64),
                ("slot_alive_off", _I64),
                ("cross_slot", _I32),
                ("cross_pos", _I32),
                ("group_start", _I32),
                ("group_slots", _I32),
                ("alive", _U8),
                ("cnt", _I32),
                ("size", _I32),
                ("trail_slot", _I32),
                ("trail_word", _I32),
                ("ev_slot", _I32),
                ("ev_pos", _I32),
                ("ev_letter", _I32),
                ("sg", _I32),
                ("sg_queued", _I32),
                ("cause", _I32),
            ],
        )
        st.letters = _ptr(words.letters_flat, _U8) if words.letters_flat.size else _ptr(np.zeros(1, np.uint8), _U8)
        st.order = _ptr(words.order_flat, _I32)
        st.starts = _ptr(words.starts_flat, _I32)
        st.wipeout_slot = -1
        self._state = st
        self._ref = ctypes.byref(st)
        self._lib = _library()

    def clone(self, problem: Problem | None = None) -> Engine:
        """An independent copy of this engine's live domains and counts, for `problem` when given (one
        with the same open slots, e.g. the same grid with more letters, to be entered with
        `restrict_letter`). The copy's trail starts empty: its undo goes no further back than the copy.
        Costs a copy of the masks instead of the counting pass of a new engine."""
        other = object.__new__(Engine)
        other.__dict__.update(self.__dict__)  # the layout arrays are read-only: shared
        if problem is not None:
            other.problem = problem
        for name in ("alive", "cnt", "size", "sg_queued", "cause"):
            setattr(other, name, getattr(self, name).copy())
        for name in ("trail_slot", "trail_word", "ev_slot", "ev_pos", "ev_letter", "sg"):
            setattr(other, name, np.zeros(getattr(self, name).shape, np.int32))  # calloc: pages on use
        other._bind_state()
        return other

    # ----- propagation -------------------------------------------------------------------
    def propagate_all(self) -> bool:
        """Make every domain arc-consistent (crossings and no word twice). False on a wipeout."""
        return bool(self._lib.xw_propagate_all(self._ref))

    @property
    def trail_len(self) -> int:
        return int(self._state.trail_len)

    def undo(self, mark: int) -> None:
        """Restore the domains to what they were when `trail_len` was `mark`."""
        self._lib.xw_undo(self._ref, mark)

    def restrict_letter(self, slot_id: SlotId, pos: int, letter: int) -> bool:
        """Keep only words with letter code `letter` at `pos` of `slot_id`, then propagate."""
        return bool(self._lib.xw_restrict_letter(self._ref, int(self.kernel_index[slot_id]), pos, letter))

    def remove_words(self, slot_id: SlotId, word_ids: Sequence[int] | NDArray[np.integer[Any]]) -> bool:
        """Remove `word_ids` from `slot_id`'s domain, then propagate. False on a wipeout."""
        ids = np.ascontiguousarray(word_ids, dtype=np.int32)
        return bool(self._lib.xw_remove(self._ref, int(self.kernel_index[slot_id]), _ptr(ids, _I32), len(ids)))

    @property
    def wipeout_slot_id(self) -> SlotId | None:
        k = int(self._state.wipeout_slot)
        return self.slot_ids[k] if k >= 0 else None

    def cause_chain(self, slot_id: SlotId) -> list[SlotId]:
        """The slots whose dead letters last emptied `slot_id`, nearest first, without repeats."""
        chain = [slot_id]
        k = int(self.cause[self.kernel_index[slot_id]])
        while k >= 0 and self.slot_ids[k] not in chain:
            chain.append(self.slot_ids[k])
            k = int(self.cause[k])
        return chain

    # ----- reading the state -------------------------------------------------------------
    def domain(self, slot_id: SlotId) -> NDArray[np.bool_]:
        """A bool copy of the slot's live mask over its length bucket."""
        k = int(self.kernel_index[slot_id])
        return np.asarray(self.alive[self.slot_alive_off[k] : self.slot_alive_off[k + 1]], np.uint8).astype(bool)

    def domain_size(self, slot_id: SlotId) -> int:
        return int(self.size[self.kernel_index[slot_id]])

    def letter_counts(self, slot_id: SlotId) -> NDArray[np.int32]:
        """int32 [length, K] (K = `n_letters`): live words of the slot with each letter at each position."""
        k = int(self.kernel_index[slot_id])
        a, b = int(self.slot_pos_off[k]), int(self.slot_pos_off[k + 1])
        K = self.n_letters
        return np.asarray(self.cnt[a * K : b * K], np.int32).reshape(b - a, K)  # PlainEngine's is a ctypes array


_U64 = ctypes.POINTER(ctypes.c_uint64)


class _BsState(ctypes.Structure):
    _fields_ = [
        ("n_slots", ctypes.c_int32),
        ("n_letters", ctypes.c_int32),
        ("slot_len", _I32),
        ("slot_nw", _I32),
        ("slot_W", _I32),
        ("slot_dom_off", _I64),
        ("slot_mask_off", _I64),
        ("slot_pos_off", _I32),
        ("slot_letters_off", _I64),
        ("slot_scores_off", _I64),
        ("slot_group", _I32),
        ("group_start", _I32),
        ("group_slots", _I32),
        ("cross_slot", _I32),
        ("cross_pos", _I32),
        ("masks", _U64),
        ("letters", _U8),
        ("scores", _I16),
        ("log_table", _F64),
        ("starts", _I32),
        ("slot_starts_off", _I64),
        ("dom", _U64),
        ("size", _I32),
        ("live", _U64),
        ("residue", _I32),
        ("weight", _F64),
        ("queue", _I32),
        ("queued", _I32),
        ("q_len", ctypes.c_int32),
        ("saved_depth", _I32),
        ("wipeout_slot", ctypes.c_int32),
        ("save_words", _U64),
        ("save_words_len", ctypes.c_int64),
        ("save_words_cap", ctypes.c_int64),
        ("save_slot", _I32),
        ("save_prev_depth", _I32),
        ("save_size", _I32),
        ("save_words_at", _I64),
        ("save_len", ctypes.c_int64),
        ("save_cap", ctypes.c_int64),
        ("phase", ctypes.c_int32),
        ("depth", ctypes.c_int32),
        ("max_depth", ctypes.c_int32),
        ("dec_slot", _I32),
        ("dec_word", _I32),
        ("dec_mark", _I64),
        ("solution", _I32),
        ("nodes", ctypes.c_int64),
        ("fails", ctypes.c_int64),
        ("restarts", ctypes.c_int64),
        ("solutions", ctypes.c_int64),
        ("restart_base", ctypes.c_int64),
        ("fails_run", ctypes.c_int64),
        ("fail_limit_run", ctypes.c_int64),
        ("luby_index", ctypes.c_int64),
        ("max_fails", ctypes.c_int64),
        ("rng", ctypes.c_uint64),
        ("noise", ctypes.c_double),
        ("score_weight", ctypes.c_double),
        ("slot_rule", ctypes.c_int32),
        ("abort_flag", _I32),
        ("use_nogoods", ctypes.c_int32),
        ("br_slot", _I32),
        ("br_word", _I32),
        ("br_neg", _I32),
        ("br_at_depth", _I32),
        ("br_len", ctypes.c_int64),
        ("br_cap", ctypes.c_int64),
        ("ng_lits", _I32),
        ("ng_lits_len", ctypes.c_int64),
        ("ng_lits_cap", ctypes.c_int64),
        ("ng_start", _I64),
        ("ng_watch", _I32),
        ("n_nogoods", ctypes.c_int64),
        ("ng_cap", ctypes.c_int64),
        ("watch_list", ctypes.POINTER(_I32)),
        ("watch_len", _I32),
        ("watch_cap", _I32),
        ("guide", _I32),
        ("branch_mode", ctypes.c_int32),
        ("learn", ctypes.c_int32),
        ("expl_words", ctypes.c_int32),
        ("expl", _U64),
        ("conflict", _U64),
        ("ng_hits", _I32),
        ("ng_hits_cap", ctypes.c_int64),
        ("learnt_max", ctypes.c_int64),
        ("n_learnt", ctypes.c_int64),
        ("jumps", ctypes.c_int64),
        ("levels_jumped", ctypes.c_int64),
        ("n_forgotten", ctypes.c_int64),
        ("track", ctypes.c_int32),
        ("prov_words", ctypes.c_int32),
        ("prov", _U64),
        ("used", _U64),
        ("br_prov", _U64),
        ("br_prov_cap", ctypes.c_int64),
        ("ng_prov", _U64),
        ("ng_prov_cap", ctypes.c_int64),
        ("nz", _U64),
        ("nz_off", _I64),
        ("blocks", _I32),
        ("stem_of", _I32),
        ("slot_stem_off", _I64),
        ("stem_start", _I32),
        ("stem_len", _I32),
        ("stem_word", _I32),
    ]


NOMEM = 5
PROBE_SURVIVES, PROBE_NOT_LIVE = -1, -2
"""`BitSearch.probe`'s outcomes other than the kernel index of the slot a word empties."""
BRANCH_MODES = {"word": 0, "letter": 1}


class _SearchFunctions:
    """The fill search's C functions for one build of xwcp/engine/_bitsearch.c, under their generic names: the
    generic build (`bs_init`, ...; any alphabet of 1..64 letters) or the one for 26 letters (`bs_init_26`, ...),
    whose per-letter strides are constants (English keeps the speed it had before alphabets were data)."""

    def __init__(self, lib: ctypes.CDLL, suffix: str):
        p = ctypes.POINTER(_BsState)
        self.bs_init = _declare(lib, "bs_init" + suffix, [p], ctypes.c_int)
        self.bs_search = _declare(lib, "bs_search" + suffix, [p, ctypes.c_double], ctypes.c_int)
        self.bs_free = _declare(lib, "bs_free" + suffix, [p], None)
        self.bs_root_remove = _declare(
            lib, "bs_root_remove" + suffix, [p, ctypes.c_int32, ctypes.c_int32], ctypes.c_int
        )
        self.bs_probe = _declare(
            lib, "bs_probe" + suffix, [p, ctypes.c_int32, _I32, ctypes.c_int32, _I32, ctypes.c_double], ctypes.c_int
        )


def _declare(lib: ctypes.CDLL, name: str, argtypes: list[Any], restype: Any) -> Any:
    fn = getattr(lib, name)
    fn.argtypes = argtypes
    fn.restype = restype
    return fn


_SEARCH_BY_SPECIALISED: dict[bool, _SearchFunctions] = {}
"""The search's functions, declared once: True the 26-letter build, False the generic one."""


def _bs_library(n_letters: int = 26) -> _SearchFunctions:
    """The fill search's C functions for an alphabet of `n_letters` letters (the 26-letter build for 26)."""
    english = n_letters == 26
    functions = _SEARCH_BY_SPECIALISED.get(english)
    if functions is None:
        functions = _SEARCH_BY_SPECIALISED[english] = _SearchFunctions(_library(), "_26" if english else "")
    return functions


_LOGS_BY_SIZE: dict[int, array.array[float]] = {}
"""Tables of `word_count_logs` made so far (never resized: a kernel points at them)."""


def _initial_state(lib: _SearchFunctions, ref: Any) -> bool:
    """Run the search's `bs_init`: whether the root is consistent.

    Raises:
        MemoryError: the kernel could not allocate its own arrays.
    """
    code = int(lib.bs_init(ref))
    if code < 0:
        raise MemoryError("the fill search could not allocate its state")
    return code > 0


def word_count_logs(size: int) -> array.array[float]:
    """log(max(i, 1)) for i = 0 .. size - 1 (doubles): the search's table of log domain sizes.

    By math.log (the C library's), not numpy's: numpy's SIMD log may differ in the last bit on
    some processors, and then BitSearch and PlainBitSearch (xwcp/engine/plain_kernel.py) could rank
    words differently. Kept per size for the run: a core's many small searches share one.
    """
    table = _LOGS_BY_SIZE.get(size)
    if table is None:
        table = array.array("d", [0.0])
        table.extend(map(math.log, range(1, size)))
        _LOGS_BY_SIZE[size] = table
    return table


class StemArrays:
    """The stem rule's arrays for a grid's lengths: `stem_of` (each word's stem group, the lengths' buckets one after
    another from `offset_by_length`) and `members` (per group its words: starts, lengths, word ids)."""

    def __init__(self, stem_of: NDArray[np.int32], offset_by_length: dict[int, int], n_groups: int) -> None:
        self.stem_of = stem_of
        self.offset_by_length = offset_by_length
        ids = np.flatnonzero(stem_of >= 0)
        groups = stem_of[ids]
        order = np.argsort(groups, kind="stable")
        ids, groups = ids[order], groups[order]
        lengths = sorted(offset_by_length, key=offset_by_length.__getitem__)
        starts = np.array([offset_by_length[length] for length in lengths], np.int64)
        where = np.searchsorted(starts, ids, side="right") - 1
        member_len = np.array(lengths, np.int32)[where] if len(ids) else np.zeros(0, np.int32)
        member_word = (ids - starts[where]).astype(np.int32) if len(ids) else np.zeros(0, np.int32)
        group_start = np.searchsorted(groups, np.arange(n_groups + 1)).astype(np.int32)
        self.members = (group_start, _non_empty(member_len), _non_empty(member_word))


def _non_empty(values: NDArray[np.int32]) -> NDArray[np.int32]:
    """`values`, or one 0 when it is empty (a C pointer needs an array to point at)."""
    return values if len(values) else np.zeros(1, np.int32)


_STEM_ARRAYS: dict[tuple[int, tuple[int, ...]], tuple[object, StemArrays]] = {}
"""`stem_arrays`' answers by stem groups and lengths (the groups kept, so a reused id is never mistaken)."""


def stem_arrays(problem: Problem, lengths: tuple[int, ...]) -> StemArrays:
    """The stem rule's arrays of `problem`'s list for the word lengths `lengths`, made once per list and lengths
    (a quality search builds a kernel per floor and per neighbourhood)."""
    from xwcp.words.stems import stem_groups, stems_for

    groups = stem_groups(problem.words, stems_for(problem.alphabet))
    key = (id(groups), lengths)
    kept = _STEM_ARRAYS.get(key)
    if kept is not None and kept[0] is groups:
        return kept[1]
    parts, offset_by_length, at = [], {}, 0
    for length in lengths:
        part = groups.of_length(length)
        offset_by_length[length] = at
        parts.append(part)
        at += len(part)
    stem_of = np.ascontiguousarray(np.concatenate(parts) if at else np.full(1, -1), np.int32)
    arrays = StemArrays(stem_of, offset_by_length, groups.n_groups)
    if len(_STEM_ARRAYS) >= 8:
        _STEM_ARRAYS.pop(next(iter(_STEM_ARRAYS)))
    _STEM_ARRAYS[key] = (groups, arrays)
    return arrays


class BitSearch(_SlotLayout):
    """The fill search over bitset domains (xwcp/engine/_bitsearch.c) for a problem's open slots.

    Same slot numbering as `Engine`: kernel slot k is problem slot `slot_ids[k]`.
    """

    def __init__(self, problem: Problem, *, track_slots: bool = False):
        """`track_slots`: keep, for a proof that no fill exists, the slots it used (`used_slot_ids`)."""
        super().__init__(problem)
        words = problem.words
        n, n_pos = self.n_slots, max(self.n_pos, 1)
        self.slot_W = ((self.slot_nw + 63) // 64).astype(np.int32)
        self.slot_dom_off = np.zeros(n + 1, np.int64)
        np.cumsum(self.slot_W, out=self.slot_dom_off[1:])
        self.slot_mask_off = self._column(6, np.int64)
        self.slot_starts_off = self._column(5, np.int64)
        self.log_table = np.frombuffer(word_count_logs(int(self.slot_nw.max() if n else 0) + 2), np.float64)
        dom = np.zeros(max(int(self.slot_dom_off[n]), 1), np.uint64)
        dom_bytes = np.zeros(len(dom) * 8, np.uint8)  # one buffer: np.pad per slot took half the engine's start
        for k, slot_id in enumerate(self.slot_ids):  # packbits pads the last byte with zeros
            packed = np.packbits(np.asarray(problem.domains[slot_id], bool), bitorder="little")
            start = int(self.slot_dom_off[k]) * 8
            dom_bytes[start : start + len(packed)] = packed
        dom[:] = dom_bytes.view("<u8")
        self.dom: NDArray[np.uint64] | ctypes.Array[ctypes.c_uint64] = dom  # ctypes in PlainBitSearch
        self.size = np.zeros(max(n, 1), np.int32)
        self.live = np.zeros(n_pos, np.uint64)
        self.residue = np.zeros(n_pos * self.n_letters, np.int32)
        self.weight = np.ones(n_pos, np.float64)
        self.queue = np.zeros(max(n, 1), np.int32)
        self.queued = np.zeros(max(n, 1), np.int32)
        self.saved_depth = np.full(max(n, 1), -1, np.int32)
        # search depth is at most one decision per slot (word branching) plus one per cell (letters)
        max_depth = n + n_pos + 2
        self.dec_slot = np.zeros(max_depth, np.int32)
        self.dec_word = np.zeros(max_depth, np.int32)
        self.dec_mark = np.zeros(max_depth, np.int64)
        self.solution = np.zeros(max(n, 1), np.int32)
        self.abort_flag = np.zeros(1, np.int32)
        self.br_at_depth = np.zeros(max_depth, np.int32)
        self.watch_list = np.zeros(max(n, 1), np.uint64)  # C-owned int32 arrays, one per slot
        self.watch_len = np.zeros(max(n, 1), np.int32)
        self.watch_cap = np.zeros(max(n, 1), np.int32)
        st = _BsState()
        st.n_slots, st.n_letters = n, self.n_letters
        self._bind(
            st,
            [
                ("slot_len", _I32),
                ("slot_nw", _I32),
                ("slot_W", _I32),
                ("slot_dom_off", _I64),
                ("slot_mask_off", _I64),
                ("slot_pos_off", _I32),
                ("slot_letters_off", _I64),
                ("slot_scores_off", _I64),
                ("slot_group", _I32),
                ("group_start", _I32),
                ("group_slots", _I32),
                ("cross_slot", _I32),
                ("cross_pos", _I32),
                ("slot_starts_off", _I64),
                ("log_table", _F64),
                ("dom", _U64),
                ("size", _I32),
                ("live", _U64),
                ("residue", _I32),
                ("weight", _F64),
                ("queue", _I32),
                ("queued", _I32),
                ("saved_depth", _I32),
                ("dec_slot", _I32),
                ("dec_word", _I32),
                ("dec_mark", _I64),
                ("solution", _I32),
                ("abort_flag", _I32),
                ("br_at_depth", _I32),
                ("watch_list", ctypes.POINTER(_I32)),
                ("watch_len", _I32),
                ("watch_cap", _I32),
            ],
        )
        st.masks = _ptr(words.bits_flat, _U64) if words.bits_flat.size else _ptr(np.zeros(1, np.uint64), _U64)
        st.letters = _ptr(words.letters_flat, _U8) if words.letters_flat.size else _ptr(np.zeros(1, np.uint8), _U8)
        st.scores = _ptr(words.scores_flat, _I16)
        st.starts = _ptr(words.starts_flat, _I32) if words.starts_flat.size else _ptr(np.zeros(1, np.int32), _I32)
        st.track = int(track_slots)
        if problem.controls.distinct_stems and n:
            self._bind_stems(st)
        self._state = st
        self._ref = ctypes.byref(st)
        self._lib = _bs_library(self.n_letters)
        self.is_consistent = _initial_state(self._lib, self._ref)

    def _bind_stems(self, st: _BsState) -> None:
        """Point the C state at the stem rule's arrays (`stem_prune` in xwcp/engine/_bitsearch.c): each slot's words'
        stem groups (`xwcp.words.stems.stem_groups`) and each group's words of the grid's lengths."""
        lengths = tuple(sorted({int(x) for x in self.slot_len}))
        arrays = stem_arrays(self.problem, lengths)
        self.stem_of, self.stem_start, self.stem_len, self.stem_word = arrays.stem_of, *arrays.members
        self.slot_stem_off = np.array([arrays.offset_by_length[int(x)] for x in self.slot_len], np.int64)
        self._bind(
            st,
            [
                ("stem_of", _I32),
                ("slot_stem_off", _I64),
                ("stem_start", _I32),
                ("stem_len", _I32),
                ("stem_word", _I32),
            ],
        )

    def c_owned_bytes(self) -> int:
        """Bytes the kernel allocated itself (its save stack, watch lists, nogoods, branch and provenance arrays:
        they grow with the search), beside the numpy arrays this object holds."""
        st = self._state
        words = int(st.save_words_cap) + int(st.br_prov_cap) + int(st.ng_prov_cap)
        if st.prov_words:
            words += (st.n_slots + max(self.n_pos, 1) + 1) * int(st.prov_words)
        if st.expl_words:
            words += (st.n_slots + max(self.n_pos, 1) + 1) * int(st.expl_words)
        if st.nz_off:
            words += int(st.nz_off[st.n_slots]) + 1 + st.n_slots + 1 + int(np.max(self.slot_W, initial=1)) // 2
        return (
            8 * words
            + 20 * int(st.save_cap)
            + 16 * int(st.br_cap)
            + 4 * int(st.ng_lits_cap)
            + 12 * int(st.ng_cap)
            + 4 * int(st.ng_hits_cap)
            + 4 * int(np.sum(self.watch_cap, dtype=np.int64))
        )

    def __del__(self) -> None:
        lib = getattr(self, "_lib", None)
        if lib is not None:
            lib.bs_free(self._ref)

    def configure(
        self,
        *,
        seed: int,
        restart_base: int,
        noise: float,
        score_weight: float,
        slot_rule: int = 0,
        max_fails: int = 0,
        nogoods: bool = True,
        branch: str = "word",
        learn: int = 0,
    ) -> None:
        """Set the search's tuning (see xwcp/backends/backtrack.py); nogoods are recorded only with restarts.

        `branch` is "word" (a slot takes a word) or "letter" (a checked cell takes a letter; words
        decide what no cell does). `learn` 1 learns a nogood at every failure and backjumps over
        the decisions the failure did not use; 2 also undoes the unrelated decisions below the
        refuted one (see "Learning at every failure" in xwcp/engine/_bitsearch.c). Both need restarts
        and must be set before the first `search`.
        """
        if branch not in BRANCH_MODES:
            raise ValueError(f"unknown branching {branch!r}; known: {', '.join(BRANCH_MODES)}")
        st = self._state
        st.branch_mode = BRANCH_MODES[branch]
        st.use_nogoods = int(nogoods and restart_base > 0)
        st.learn = int(learn) if st.use_nogoods else 0
        st.rng = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64) or 1
        st.restart_base, st.noise, st.score_weight = restart_base, noise, score_weight
        st.slot_rule, st.max_fails = slot_rule, max_fails

    def search(self, slice_s: float) -> int:
        """Run for about `slice_s` seconds; returns RUNNING, SOLVED, EXHAUSTED, FAIL_LIMIT, ABORTED or NOMEM."""
        return int(self._lib.bs_search(self._ref, slice_s))

    def set_guide(self, word_id_by_slot: dict[SlotId, int] | None) -> None:
        """Try these words first wherever they are still live (solution-guided search); None: no guide."""
        if word_id_by_slot is None:
            self._state.guide = None
            self._guide = None
            return
        self._guide = np.full(max(self.n_slots, 1), -1, np.int32)
        for slot_id, word_id in word_id_by_slot.items():
            k = int(self.kernel_index[slot_id])
            if k >= 0:
                self._guide[k] = word_id
        self._state.guide = _ptr(self._guide, _I32)

    def probe(
        self, slot_id: SlotId, word_ids: Sequence[int] | NDArray[np.integer[Any]], time_limit_s: float | None = None
    ) -> NDArray[np.int32]:
        """Singleton consistency at the root: enter each word in `slot_id`, propagate, undo.

        Returns one int32 per word probed, in order (fewer than given when `time_limit_s` ran out or
        the abort flag was set): PROBE_SURVIVES when the word leaves every slot a word, PROBE_NOT_LIVE
        when it is not in the slot's root domain, else the kernel index of the slot it empties
        (`slot_ids[k]` is its problem slot). The root state is unchanged but for the failure weights
        (a probe's wipeout counts as a search failure). About 10-100 us a word on a 15x15
        (bench/suggest_labels.py).
        """
        if not self.is_consistent:
            raise ValueError("probe needs a consistent root")
        ids = np.ascontiguousarray(word_ids, dtype=np.int32)
        out = np.empty(max(len(ids), 1), np.int32)
        n = int(
            self._lib.bs_probe(
                self._ref,
                int(self.kernel_index[slot_id]),
                _ptr(ids, _I32),
                len(ids),
                _ptr(out, _I32),
                float(time_limit_s or 0.0),
            )
        )
        if n == -1:
            raise MemoryError("the search's save stack could not grow")
        if n < 0:
            raise ValueError("probe runs at the search's root only (before a search, or after it finished)")
        return out[:n]

    def root_remove(self, slot_id: SlotId, word_id: int) -> bool:
        """Remove `word_id` from `slot_id` for good, between slices, keeping what the search learnt.

        The search goes back to its root (recording the branch's nogoods, as at a restart) and
        continues from there on its next `search`. False when no fill is left (the search is done).
        """
        ok = int(self._lib.bs_root_remove(self._ref, int(self.kernel_index[slot_id]), int(word_id)))
        if ok < 0:
            raise MemoryError("the search's save stack could not grow")
        return bool(ok)

    def solution_word_ids(self) -> dict[SlotId, int]:
        return {slot_id: int(self.solution[k]) for k, slot_id in enumerate(self.slot_ids)}

    def decisions(self) -> list[tuple[SlotId, int]]:
        """The decisions on the search's current branch, for progress displays: (slot id, value) where a
        value >= 0 is the word id placed in the slot and -1 - (pos * K + letter) a letter placed at pos
        (K = `n_letters`; `letter_value_parts` splits it)."""
        depth = int(self._state.depth)
        return [(self.slot_ids[int(self.dec_slot[d])], int(self.dec_word[d])) for d in range(1, depth + 1)]

    def used_slot_ids(self) -> list[SlotId] | None:
        """The slots behind every failure so far (problem slot ids, ascending), when made with `track_slots`.

        Once the search is exhausted (or the root is inconsistent) these slots alone have no fill:
        a core, not always minimal (xwcp/engine/_bitsearch.c, "Slot provenance"). None without tracking.
        """
        st = self._state
        if not st.track or not st.used:
            return None
        found = []
        for k in range(int(st.prov_words)):
            bits = int(st.used[k])
            while bits:
                low = bits & -bits
                found.append(k * 64 + low.bit_length() - 1)
                bits ^= low
        return sorted(self.slot_ids[k] for k in found if k < self.n_slots)

    def slot_weights(self) -> dict[SlotId, float]:
        """Each slot's share of the dead ends so far: the failure weights of its crossings (dom/wdeg),
        for the slots with any. The slots a proof leans on most; the core search tries them first."""
        weights: dict[SlotId, float] = {}
        for k, slot_id in enumerate(self.slot_ids):
            start, end = int(self.slot_pos_off[k]), int(self.slot_pos_off[k + 1])
            total = sum(float(self.weight[i]) for i in range(start, end)) - (end - start)  # each starts at 1
            if total > 0:
                weights[slot_id] = total
        return weights

    @property
    def stats(self) -> dict[str, int]:
        st = self._state
        return {
            "nodes": int(st.nodes),
            "fails": int(st.fails),
            "restarts": int(st.restarts),
            "solutions": int(st.solutions),
            "max_depth": int(st.max_depth),
            "nogoods": int(st.n_nogoods),
            "learnt": int(st.n_learnt),
            "jumps": int(st.jumps),
            "levels_jumped": int(st.levels_jumped),
            "forgotten": int(st.n_forgotten),
        }
