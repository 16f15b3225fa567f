"""Estimate the memory an object holds: its numpy arrays, buffers and containers, followed through its attributes.

The analysis cache bounds what it keeps by bytes (xwcp/services/analysis_cache.py), and most of a kept grid
is arrays: a problem's and a propagation's domains (a mask per slot over the slot's length bucket), a
propagation's letter counts, and a kernel's state (alive masks, counts, trails, bitset domains). `held_bytes`
walks an object graph once and adds what each array, buffer or container takes; what several objects share
is counted once per walk, and objects of the `shared` types (the word list, which every grid points at, and
what the caller charges elsewhere) are not entered. Memory a C kernel allocated itself is asked of the
kernel object (`c_owned_bytes`). An estimate, not a measurement: small objects count `sys.getsizeof`, and numbers
and strings inside containers only their slot in the container (most are shared: small ints, a grid's letters),
which keeps a walk over a 60x60's tens of thousands of them to milliseconds.
"""

from __future__ import annotations

import array
import ctypes
import functools
import mmap
import sys
from collections.abc import Iterable
from typing import Any

import numpy as np

MAX_OBJECTS = 2_000_000
"""Objects one walk visits at most (a 60x60's problem, propagation and engine take about 100k)."""
_ATOMS = (int, float, complex, bool, str, type(None))
_ATOM_TYPES = frozenset(_ATOMS)


def held_bytes(root: object, shared: tuple[type, ...] = (), skip_ids: Iterable[int] = ()) -> int:
    """The bytes `root` holds: arrays' buffers (an array viewing another counts that one's, once; a file mapping
    counts nothing: the page cache holds it), ctypes buffers it owns, bytes, arrays, containers, and small
    objects' own size; never entering an object of the `shared` types, nor one whose id is in `skip_ids`."""
    seen: set[int] = set(skip_ids)
    total = 0
    todo: list[Any] = [root]
    visited = 0
    while todo and visited < MAX_OBJECTS:
        obj = todo.pop()
        kind = type(obj)
        if id(obj) in seen or kind in _ATOM_TYPES or isinstance(obj, shared) or isinstance(obj, type):
            continue
        seen.add(id(obj))
        visited += 1
        if kind is np.ndarray:
            if obj.flags.owndata:
                total += obj.nbytes
            elif obj.base is not None:
                todo.append(obj.base)
            continue
        if kind is tuple or kind is list or kind is set or kind is frozenset:
            total += sys.getsizeof(obj)
            todo.extend(item for item in obj if type(item) not in _ATOM_TYPES)
            continue
        if kind is dict:
            total += sys.getsizeof(obj)
            todo.extend(key for key in obj if type(key) not in _ATOM_TYPES)
            todo.extend(value for value in obj.values() if type(value) not in _ATOM_TYPES)
            continue
        total += _own_bytes(obj, todo)
    return total


def _own_bytes(obj: Any, todo: list[Any]) -> int:
    """What `obj` (no plain container, number or string) takes itself; what it points at goes on `todo`."""
    if isinstance(obj, np.ndarray):  # a subclass (a memmap's base is a mapping: nothing)
        if obj.flags.owndata:
            return int(obj.nbytes)
        if obj.base is not None:
            todo.append(obj.base)
        return 0
    if isinstance(obj, (bytes, bytearray)):
        return len(obj)
    if isinstance(obj, array.array):
        return int(obj.buffer_info()[1] * obj.itemsize)
    if isinstance(obj, (mmap.mmap, memoryview, ctypes._Pointer)):
        return 0  # a mapped file, or a view of what its owner counts
    if isinstance(obj, ctypes._SimpleCData | ctypes.Array | ctypes.Structure):
        return ctypes.sizeof(obj) if getattr(obj, "_b_needsfree_", 0) else 0  # not one `from_buffer` of another
    if isinstance(obj, dict | list | tuple | set | frozenset):  # a subclass of a container
        todo.extend(obj.values() if isinstance(obj, dict) else obj)
        return sys.getsizeof(obj)
    total = sys.getsizeof(obj)
    c_owned = getattr(obj, "c_owned_bytes", None)
    if callable(c_owned):
        total += int(c_owned())
    attributes = getattr(obj, "__dict__", None)
    if attributes is not None:
        todo.extend(value for value in attributes.values() if type(value) not in _ATOM_TYPES)
    for name in _slot_names(type(obj).__mro__):
        value = getattr(obj, name, None)
        if type(value) not in _ATOM_TYPES:
            todo.append(value)
    return total


@functools.cache
def _slot_names(mro: tuple[type, ...]) -> tuple[str, ...]:
    """The `__slots__` attributes of a class, given its method resolution order."""
    return tuple(
        name for cls in mro for name in getattr(cls, "__slots__", ()) if name not in ("__dict__", "__weakref__")
    )
