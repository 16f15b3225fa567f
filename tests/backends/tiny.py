"""Whether a tiny problem has a fill, by plain backtracking that shares no search code with xwcp (a reference for the backend tests)."""

from __future__ import annotations


def has_fill(problem):
    """Whether `problem` has a fill: plain backtracking over its slots in order, each word checked against
    the crossing slots already filled and the words used (tiny problems only; shares no search with xwcp)."""
    options = []
    for slot in problem.slots:
        bucket = problem.words.bucket(slot.length)
        options.append(
            [problem.fixed_text_by_slot[slot.id]]
            if slot.id in problem.fixed_text_by_slot
            else [bucket.text(int(w)) for w in range(bucket.n_words) if problem.domains[slot.id][w]]
        )
    chosen = []

    def fits(slot_id, text):
        if not problem.allow_dupes and text in chosen:
            return False
        return all(
            other < 0 or other >= slot_id or chosen[other][problem.cross_pos[slot_id][pos]] == letter
            for pos, (other, letter) in enumerate(zip(problem.cross_slot[slot_id], text))
        )

    def extend(slot_id):
        if slot_id == len(options):
            return True
        for text in options[slot_id]:
            if fits(slot_id, text):
                chosen.append(text)
                if extend(slot_id + 1):
                    return True
                chosen.pop()
        return False

    return extend(0)
