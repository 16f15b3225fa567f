"""A toulbar2 (weighted CSP) model of a compiled problem, for issue 25's candidate table (bench only).

Model (as the issue describes it): one variable per open slot over the word ids of its length
that are arc-consistent in some slot of that length (a shared value space, so "no word twice"
is an AllDifferent per length), a unary cost per word (TOP_SCORE - score, forbidden for words
outside the slot's own domain), one letter variable per checked cell between two open slots,
and a functional slot-letter table per (slot, position).
"""

from __future__ import annotations

import time

import numpy as np

from xwcp.base.types import SlotId
from xwcp.compile.problem import Problem

TOP_SCORE = 100
"""Cost of a word is TOP_SCORE - score, so minimising the cost maximises the total."""


def build(
    problem: Problem,
    *,
    ub: int | None = None,
    vac: int = 1,
    alldiff: str = "hungarian",
    scored: bool = True,
    seed: int = 1,
):
    """(cfn, values by slot, stats) for `problem`; `ub` the cost of a known fill + 1 (an incumbent)."""
    import pytoulbar2

    from xwcp.engine.ac3 import propagate

    start = time.perf_counter()
    prop = propagate(problem)
    if not prop.is_consistent:
        return None, None, {"build_s": time.perf_counter() - start, "note": "AC wipe-out"}
    open_ids = problem.open_slot_ids
    open_set = set(open_ids)
    union_by_length: dict[int, np.ndarray] = {}
    for slot_id in open_ids:
        length = problem.slots[slot_id].length
        ids = np.flatnonzero(prop.domains[slot_id])
        union_by_length[length] = ids if length not in union_by_length else np.union1d(union_by_length[length], ids)
    n_open = len(open_ids)
    top = ub if ub is not None else (TOP_SCORE * n_open + 1 if scored else 1)
    cfn = pytoulbar2.CFN(top, vac=vac, seed=seed, verbose=-1)
    forbid = top
    var_by_slot: dict[SlotId, int] = {}
    n_table = 0
    for slot_id in open_ids:
        slot = problem.slots[slot_id]
        values = union_by_length[slot.length]
        var_by_slot[slot_id] = cfn.AddVariable(f"s{slot_id}", [f"w{v}" for v in values.tolist()])
        bucket = problem.words.bucket(slot.length)
        inside = np.asarray(prop.domains[slot_id], bool)[values]
        costs = (TOP_SCORE - np.asarray(bucket.scores[values], np.int64)) if scored else np.zeros(len(values), np.int64)
        costs = np.where(inside, costs, forbid)
        cfn.AddFunction([var_by_slot[slot_id]], costs.tolist())
    letter_var: dict[int, int] = {}
    for slot_id in open_ids:
        slot = problem.slots[slot_id]
        values = union_by_length[slot.length]
        letters = problem.words.bucket(slot.length).letters[values]
        for pos, cell in enumerate(slot.cells):
            t = problem.cross_slot[slot_id][pos]
            if t < 0 or t not in open_set:
                continue
            if cell not in letter_var:
                letter_var[cell] = cfn.AddVariable(f"c{cell}", [chr(65 + c) for c in range(26)])
            table = np.full((len(values), 26), forbid, np.int64)
            table[np.arange(len(values)), letters[:, pos].astype(np.intp)] = 0
            cfn.AddFunction([var_by_slot[slot_id], letter_var[cell]], table.ravel().tolist())
            n_table += table.size
    n_alldiff = 0
    if not problem.allow_dupes and alldiff:
        by_length: dict[int, list[int]] = {}
        for slot_id in open_ids:
            by_length.setdefault(problem.slots[slot_id].length, []).append(var_by_slot[slot_id])
        for scope in by_length.values():
            if len(scope) > 1:
                cfn.AddAllDifferent(scope, encoding=alldiff)
                n_alldiff += 1
    stats = {
        "build_s": time.perf_counter() - start,
        "slot_vars": n_open,
        "letter_vars": len(letter_var),
        "values": int(sum(len(union_by_length[problem.slots[s].length]) for s in open_ids)),
        "table_entries": n_table,
        "alldiffs": n_alldiff,
    }
    values_by_slot = {s: union_by_length[problem.slots[s].length] for s in open_ids}
    return cfn, values_by_slot, stats


def decode(problem: Problem, values_by_slot, var_index: dict, solution) -> tuple[str, ...]:
    """Entries (one per slot) from a toulbar2 solution vector."""
    entries = []
    for slot in problem.slots:
        if slot.id in problem.fixed_text_by_slot:
            entries.append(problem.fixed_text_by_slot[slot.id])
            continue
        word_id = int(values_by_slot[slot.id][solution[var_index[slot.id]]])
        entries.append(problem.words.bucket(slot.length).text(word_id))
    return tuple(entries)
