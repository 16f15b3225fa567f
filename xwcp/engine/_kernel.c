/* Support-counting arc consistency over word domains: the engine behind AC-3 queries and editing.
 *
 * All memory belongs to the caller (xwcp/engine/kernel.py allocates it with numpy and passes one XwState of
 * pointers through ctypes); this file only reads and writes it. Domains are byte masks over each
 * slot's length bucket. cnt[(slot, pos), letter] counts the live words of the slot with that letter at
 * that position: when a count drops to zero the letter is dead in that cell, and every word of the
 * crossing slot with that letter at the shared cell is removed (arc consistency for the crossing). A
 * slot down to one word removes that word from every other slot of its length (no word twice).
 * Every removal goes on a trail, so an edit is undone exactly; the counts are what heat maps and
 * suggestions read. (The fill search lives in _bitsearch.c.)
 *
 * A module init function is defined only so that the shared library can be located by the import
 * system; it exposes nothing to Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    /* problem (read-only) */
    int32_t n_slots;
    int32_t n_pos;             /* sum of slot lengths */
    int32_t n_letters;         /* K, the alphabet's letters (1..64): letter codes are 0..K-1 */
    const int32_t *slot_len;
    const int32_t *slot_nw;    /* words in the slot's length bucket */
    const int32_t *slot_pos_off;
    const int32_t *slot_group; /* same-length group for the no-duplicate rule, -1 if duplicates allowed */
    const int64_t *slot_letters_off;
    const int64_t *slot_order_off;
    const int64_t *slot_starts_off;
    const int64_t *slot_scores_off;
    const int64_t *slot_alive_off;
    const int32_t *cross_slot; /* per (slot, pos) */
    const int32_t *cross_pos;
    const int32_t *group_start;
    const int32_t *group_slots;
    const uint8_t *letters;
    const int32_t *order;
    const int32_t *starts;
    /* state */
    uint8_t *alive;
    int32_t *cnt;              /* [n_pos * K] */
    int32_t *size;             /* [n_slots] */
    int32_t *trail_slot;
    int32_t *trail_word;
    int64_t trail_len;
    int32_t *ev_slot;          /* dead-letter events, capacity n_pos * K */
    int32_t *ev_pos;
    int32_t *ev_letter;
    int64_t ev_len;
    int32_t *sg;               /* slots that became singletons, capacity n_slots */
    int32_t sg_len;
    int32_t *sg_queued;        /* [n_slots] 1 while queued */
    int32_t *cause;            /* [n_slots] slot whose dead letter last removed words here, -1 if none */
    int32_t wipeout_slot;
} XwState;

/* Remove live word w from slot s, updating counts and queueing dead letters. 0 on wipeout. */
static int remove_word(XwState *st, int32_t s, int32_t w) {
    const int32_t K = st->n_letters;
    const int32_t len = st->slot_len[s];
    const int32_t po = st->slot_pos_off[s];
    const uint8_t *lw = st->letters + st->slot_letters_off[s] + (int64_t)w * len;
    st->alive[st->slot_alive_off[s] + w] = 0;
    st->trail_slot[st->trail_len] = s;
    st->trail_word[st->trail_len] = w;
    st->trail_len++;
    for (int32_t p = 0; p < len; p++) {
        const int32_t c = lw[p];
        if (--st->cnt[(int64_t)(po + p) * K + c] == 0) {
            const int32_t t = st->cross_slot[po + p];
            if (t >= 0) {
                const int32_t q = st->cross_pos[po + p];
                if (st->cnt[(int64_t)(st->slot_pos_off[t] + q) * K + c] > 0) {
                    st->ev_slot[st->ev_len] = s;
                    st->ev_pos[st->ev_len] = p;
                    st->ev_letter[st->ev_len] = c;
                    st->ev_len++;
                }
            }
        }
    }
    const int32_t n = --st->size[s];
    if (n == 1 && st->slot_group[s] >= 0 && !st->sg_queued[s]) {
        st->sg_queued[s] = 1;
        st->sg[st->sg_len++] = s;
    }
    if (n == 0) {
        st->wipeout_slot = s;
        return 0;
    }
    return 1;
}

static void clear_queues(XwState *st) {
    for (int32_t k = 0; k < st->sg_len; k++) st->sg_queued[st->sg[k]] = 0;
    st->sg_len = 0;
    st->ev_len = 0;
}

static int32_t only_word(const XwState *st, int32_t s) {
    const uint8_t *a = st->alive + st->slot_alive_off[s];
    const uint8_t *hit = memchr(a, 1, (size_t)st->slot_nw[s]);
    return hit ? (int32_t)(hit - a) : -1;
}

/* Run queued events to the fixpoint. 1 = consistent, 0 = a slot was wiped out (queues cleared). */
static int propagate(XwState *st) {
    const int32_t K = st->n_letters;
    for (;;) {
        if (st->ev_len > 0) {
            st->ev_len--;
            const int32_t s = st->ev_slot[st->ev_len];
            const int32_t p = st->ev_pos[st->ev_len];
            const int32_t c = st->ev_letter[st->ev_len];
            const int32_t po = st->slot_pos_off[s];
            const int32_t t = st->cross_slot[po + p];
            const int32_t q = st->cross_pos[po + p];
            const int32_t tpo = st->slot_pos_off[t];
            if (st->cnt[(int64_t)(tpo + q) * K + c] == 0) continue;
            const int32_t nw = st->slot_nw[t];
            const int32_t *ord = st->order + st->slot_order_off[t] + (int64_t)q * nw;
            const int32_t *stt = st->starts + st->slot_starts_off[t] + (int64_t)q * (K + 1);
            const uint8_t *a = st->alive + st->slot_alive_off[t];
            st->cause[t] = s;
            for (int32_t k = stt[c]; k < stt[c + 1]; k++) {
                const int32_t w = ord[k];
                if (a[w] && !remove_word(st, t, w)) {
                    clear_queues(st);
                    return 0;
                }
            }
            continue;
        }
        if (st->sg_len > 0) {
            const int32_t s = st->sg[--st->sg_len];
            st->sg_queued[s] = 0;
            if (st->size[s] != 1) continue;
            const int32_t w = only_word(st, s);
            const int32_t g = st->slot_group[s];
            for (int32_t k = st->group_start[g]; k < st->group_start[g + 1]; k++) {
                const int32_t u = st->group_slots[k];
                if (u == s || !st->alive[st->slot_alive_off[u] + w]) continue;
                st->cause[u] = s;
                if (!remove_word(st, u, w)) {
                    clear_queues(st);
                    return 0;
                }
            }
            continue;
        }
        return 1;
    }
}

static void undo_to(XwState *st, int64_t mark) {
    const int32_t K = st->n_letters;
    while (st->trail_len > mark) {
        st->trail_len--;
        const int32_t s = st->trail_slot[st->trail_len];
        const int32_t w = st->trail_word[st->trail_len];
        const int32_t len = st->slot_len[s];
        const int32_t po = st->slot_pos_off[s];
        const uint8_t *lw = st->letters + st->slot_letters_off[s] + (int64_t)w * len;
        st->alive[st->slot_alive_off[s] + w] = 1;
        st->size[s]++;
        for (int32_t p = 0; p < len; p++) st->cnt[(int64_t)(po + p) * K + lw[p]]++;
    }
}

/* Fill counts and sizes from the alive masks; queue every dead letter and singleton. */
int xw_init(XwState *st) {
    const int32_t K = st->n_letters;
    memset(st->cnt, 0, sizeof(int32_t) * (size_t)st->n_pos * K);
    st->trail_len = 0;
    st->ev_len = 0;
    st->sg_len = 0;
    st->wipeout_slot = -1;
    for (int32_t s = 0; s < st->n_slots; s++) {
        const int32_t len = st->slot_len[s];
        const int32_t po = st->slot_pos_off[s];
        const int32_t nw = st->slot_nw[s];
        const uint8_t *a = st->alive + st->slot_alive_off[s];
        const uint8_t *lt = st->letters + st->slot_letters_off[s];
        int32_t n = 0;
        int32_t *cnt = st->cnt + (int64_t)po * K;
        for (int32_t w = 0; w < nw; w++) {
            if (!a[w]) continue;
            n++;
            const uint8_t *lw = lt + (int64_t)w * len;
            for (int32_t p = 0; p < len; p++) cnt[p * K + lw[p]]++;
        }
        st->size[s] = n;
        st->sg_queued[s] = 0;
        st->cause[s] = -1;
    }
    return 1;
}

/* Queue what xw_init found and run to the fixpoint. 1 = consistent, 0 = wipeout (wipeout_slot). */
int xw_propagate_all(XwState *st) {
    const int32_t K = st->n_letters;
    for (int32_t s = 0; s < st->n_slots; s++) {
        if (st->size[s] == 0) {
            st->wipeout_slot = s;
            clear_queues(st);
            return 0;
        }
        const int32_t po = st->slot_pos_off[s];
        for (int32_t p = 0; p < st->slot_len[s]; p++) {
            const int32_t t = st->cross_slot[po + p];
            if (t < 0) continue;
            const int32_t tq = st->slot_pos_off[t] + st->cross_pos[po + p];
            for (int32_t c = 0; c < K; c++) {
                if (st->cnt[(int64_t)(po + p) * K + c] == 0 && st->cnt[(int64_t)tq * K + c] > 0) {
                    st->ev_slot[st->ev_len] = s;
                    st->ev_pos[st->ev_len] = p;
                    st->ev_letter[st->ev_len] = c;
                    st->ev_len++;
                }
            }
        }
        if (st->size[s] == 1 && st->slot_group[s] >= 0 && !st->sg_queued[s]) {
            st->sg_queued[s] = 1;
            st->sg[st->sg_len++] = s;
        }
    }
    return propagate(st);
}

/* Remove the given words from slot s (those still live) and propagate. 1 = consistent, 0 = wipeout. */
int xw_remove(XwState *st, int32_t s, const int32_t *words, int32_t n) {
    const uint8_t *a = st->alive + st->slot_alive_off[s];
    for (int32_t k = 0; k < n; k++) {
        if (a[words[k]] && !remove_word(st, s, words[k])) {
            clear_queues(st);
            return 0;
        }
    }
    return propagate(st);
}

/* Keep in slot s only words with letter c at pos, and propagate. 1 = consistent, 0 = wipeout. */
int xw_restrict_letter(XwState *st, int32_t s, int32_t pos, int32_t c) {
    const int32_t K = st->n_letters;
    const int32_t nw = st->slot_nw[s];
    const int32_t *ord = st->order + st->slot_order_off[s] + (int64_t)pos * nw;
    const int32_t *stt = st->starts + st->slot_starts_off[s] + (int64_t)pos * (K + 1);
    const uint8_t *a = st->alive + st->slot_alive_off[s];
    for (int32_t k = 0; k < nw; k++) {
        if (k == stt[c]) { k = stt[c + 1] - 1; continue; }
        const int32_t w = ord[k];
        if (a[w] && !remove_word(st, s, w)) {
            clear_queues(st);
            return 0;
        }
    }
    return propagate(st);
}

void xw_undo(XwState *st, int64_t mark) { undo_to(st, mark); }

static struct PyModuleDef kernel_module = {PyModuleDef_HEAD_INIT, "_kernel",
                                           "Compiled search kernel; used through ctypes by xwcp.engine.kernel.", -1, NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&kernel_module); }
