/* The compiled hot loop: support-counting arc consistency and a restarting MAC search over word domains.
 *
 * All memory belongs to the caller (xwcp/kernel.py allocates it with numpy and passes one XwState of
 * pointers through ctypes); this file only reads and writes it. Domains are byte masks over each
 * slot's length bucket. cnt[(slot, pos), letter] counts the live words of the slot with that letter at
 * that position: when a count drops to zero the letter is dead in that cell, and every word of the
 * crossing slot with that letter at the shared cell is removed (arc consistency for the crossing). A
 * slot down to one word removes that word from every other slot of its length (no word twice).
 * Every removal goes on a trail so a search step is undone exactly.
 *
 * The search is binary-branching MAC: pick the open slot with the smallest domain per weighted
 * degree (dom/wdeg), try the word that leaves its crossings the most options (sum of log counts,
 * plus a score term, plus seeded noise), and on failure refute it at the parent. Restarts follow a
 * Luby sequence of failure budgets; refutations made at the root survive restarts, so a run that
 * ends with no open decision is a proof that no fill exists. xw_search runs for a time slice and
 * returns, so the Python side can report progress and honour abort and time limits between slices.
 *
 * A module init function is defined only so that the shared library can be located by the import
 * system; it exposes nothing to Python.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

enum { XW_RUNNING = 0, XW_SOLVED = 1, XW_EXHAUSTED = 2, XW_FAIL_LIMIT = 3, XW_ABORTED = 4 };
enum { PH_START = 0, PH_CHOOSE = 1, PH_BACKTRACK = 2, PH_DONE = 3 };

typedef struct {
    /* problem (read-only) */
    int32_t n_slots;
    int32_t n_pos;             /* sum of slot lengths */
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
    const int16_t *scores;
    const double *log_table;   /* log_table[k] = log(k), k >= 1 */
    /* state */
    uint8_t *alive;
    int32_t *cnt;              /* [n_pos * 26] */
    int32_t *size;             /* [n_slots] */
    int32_t *trail_slot;
    int32_t *trail_word;
    int64_t trail_len;
    int32_t *ev_slot;          /* dead-letter events, capacity n_pos * 26 */
    int32_t *ev_pos;
    int32_t *ev_letter;
    int64_t ev_len;
    int32_t *sg;               /* slots that became singletons, capacity n_slots */
    int32_t sg_len;
    int32_t *sg_queued;        /* [n_slots] 1 while queued */
    double *weight;            /* [n_pos] dom/wdeg weight of the crossing at (slot, pos) */
    int32_t *cause;            /* [n_slots] slot whose dead letter last removed words here, -1 if none */
    int32_t wipeout_slot;
    /* search */
    int32_t phase;
    int32_t depth;
    int32_t *dec_slot;         /* [n_slots + 1] */
    int32_t *dec_word;
    int64_t *dec_mark;
    int32_t *solution;         /* [n_slots] word id per slot at the last solution */
    int64_t nodes, fails, restarts, solutions;
    int64_t restart_base;      /* failures in the first run; 0 = never restart */
    int64_t fails_run, fail_limit_run, luby_index;
    int64_t max_fails;         /* 0 = unlimited */
    uint64_t rng;
    double noise;              /* weight of the random term in value choice */
    double score_weight;       /* weight of the word score (0..100 scale) in value choice */
    int32_t slot_rule;         /* 0 = dom/wdeg, 1 = smallest domain */
    int32_t max_depth;
    volatile int32_t *abort_flag;
} XwState;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t next_rand(XwState *st) {
    uint64_t x = st->rng;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    st->rng = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static double rand01(XwState *st) { return (double)(next_rand(st) >> 11) * (1.0 / 9007199254740992.0); }

/* Remove live word w from slot s, updating counts and queueing dead letters. 0 on wipeout. */
static int remove_word(XwState *st, int32_t s, int32_t w) {
    const int32_t len = st->slot_len[s];
    const int32_t po = st->slot_pos_off[s];
    const uint8_t *lw = st->letters + st->slot_letters_off[s] + (int64_t)w * len;
    st->alive[st->slot_alive_off[s] + w] = 0;
    st->trail_slot[st->trail_len] = s;
    st->trail_word[st->trail_len] = w;
    st->trail_len++;
    for (int32_t p = 0; p < len; p++) {
        const int32_t c = lw[p];
        if (--st->cnt[(int64_t)(po + p) * 26 + c] == 0) {
            const int32_t t = st->cross_slot[po + p];
            if (t >= 0) {
                const int32_t q = st->cross_pos[po + p];
                if (st->cnt[(int64_t)(st->slot_pos_off[t] + q) * 26 + c] > 0) {
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
            if (st->cnt[(int64_t)(tpo + q) * 26 + c] == 0) continue;
            const int32_t nw = st->slot_nw[t];
            const int32_t *ord = st->order + st->slot_order_off[t] + (int64_t)q * nw;
            const int32_t *stt = st->starts + st->slot_starts_off[t] + (int64_t)q * 27;
            const uint8_t *a = st->alive + st->slot_alive_off[t];
            st->cause[t] = s;
            for (int32_t k = stt[c]; k < stt[c + 1]; k++) {
                const int32_t w = ord[k];
                if (a[w] && !remove_word(st, t, w)) {
                    st->weight[po + p] += 1.0;
                    st->weight[tpo + q] += 1.0;
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
    while (st->trail_len > mark) {
        st->trail_len--;
        const int32_t s = st->trail_slot[st->trail_len];
        const int32_t w = st->trail_word[st->trail_len];
        const int32_t len = st->slot_len[s];
        const int32_t po = st->slot_pos_off[s];
        const uint8_t *lw = st->letters + st->slot_letters_off[s] + (int64_t)w * len;
        st->alive[st->slot_alive_off[s] + w] = 1;
        st->size[s]++;
        for (int32_t p = 0; p < len; p++) st->cnt[(int64_t)(po + p) * 26 + lw[p]]++;
    }
}

/* Fill counts and sizes from the alive masks; queue every dead letter and singleton. */
int xw_init(XwState *st) {
    memset(st->cnt, 0, sizeof(int32_t) * (size_t)st->n_pos * 26);
    st->trail_len = 0;
    st->ev_len = 0;
    st->sg_len = 0;
    st->wipeout_slot = -1;
    st->phase = PH_START;
    st->depth = 0;
    for (int32_t s = 0; s < st->n_slots; s++) {
        const int32_t len = st->slot_len[s];
        const int32_t po = st->slot_pos_off[s];
        const int32_t nw = st->slot_nw[s];
        const uint8_t *a = st->alive + st->slot_alive_off[s];
        const uint8_t *lt = st->letters + st->slot_letters_off[s];
        int32_t n = 0;
        int32_t *cnt = st->cnt + (int64_t)po * 26;
        for (int32_t w = 0; w < nw; w++) {
            if (!a[w]) continue;
            n++;
            const uint8_t *lw = lt + (int64_t)w * len;
            for (int32_t p = 0; p < len; p++) cnt[p * 26 + lw[p]]++;
        }
        st->size[s] = n;
        st->sg_queued[s] = 0;
        st->cause[s] = -1;
    }
    return 1;
}

/* Queue what xw_init found and run to the fixpoint. 1 = consistent, 0 = wipeout (wipeout_slot). */
int xw_propagate_all(XwState *st) {
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
            for (int32_t c = 0; c < 26; c++) {
                if (st->cnt[(int64_t)(po + p) * 26 + c] == 0 && st->cnt[(int64_t)tq * 26 + c] > 0) {
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
    const int32_t nw = st->slot_nw[s];
    const int32_t *ord = st->order + st->slot_order_off[s] + (int64_t)pos * nw;
    const int32_t *stt = st->starts + st->slot_starts_off[s] + (int64_t)pos * 27;
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

static int assign(XwState *st, int32_t s, int32_t keep) {
    const int32_t nw = st->slot_nw[s];
    const uint8_t *a = st->alive + st->slot_alive_off[s];
    for (int32_t w = 0; w < nw; w++) {
        if (w != keep && a[w]) remove_word(st, s, w);
    }
    return 1;
}

static int32_t select_slot(XwState *st) {
    int32_t best = -1;
    double best_key = 0.0;
    for (int32_t s = 0; s < st->n_slots; s++) {
        const int32_t n = st->size[s];
        if (n <= 1) continue;
        double key;
        if (st->slot_rule == 1) {
            key = (double)n;
        } else {
            double wdeg = 0.0;
            const int32_t po = st->slot_pos_off[s];
            for (int32_t p = 0; p < st->slot_len[s]; p++) {
                const int32_t t = st->cross_slot[po + p];
                if (t >= 0 && st->size[t] > 1) wdeg += st->weight[po + p];
            }
            key = (double)n / (wdeg > 0.0 ? wdeg : 0.5);
        }
        if (best < 0 || key < best_key) {
            best = s;
            best_key = key;
        }
    }
    return best;
}

static int32_t select_value(XwState *st, int32_t s) {
    const int32_t len = st->slot_len[s];
    const int32_t po = st->slot_pos_off[s];
    const int32_t nw = st->slot_nw[s];
    const uint8_t *a = st->alive + st->slot_alive_off[s];
    const uint8_t *lt = st->letters + st->slot_letters_off[s];
    const int16_t *sc = st->scores + st->slot_scores_off[s];
    const int32_t *cnt_row[64];
    int32_t n_cross = 0;
    int32_t cross_p[64];
    for (int32_t p = 0; p < len && p < 64; p++) {
        const int32_t t = st->cross_slot[po + p];
        if (t >= 0 && st->size[t] > 1) {
            cross_p[n_cross] = p;
            cnt_row[n_cross] = st->cnt + (int64_t)(st->slot_pos_off[t] + st->cross_pos[po + p]) * 26;
            n_cross++;
        }
    }
    int32_t best = -1;
    double best_key = 0.0;
    for (int32_t w = 0; w < nw; w++) {
        if (!a[w]) continue;
        const uint8_t *lw = lt + (int64_t)w * len;
        double key = st->score_weight * (double)sc[w];
        for (int32_t k = 0; k < n_cross; k++) key += st->log_table[cnt_row[k][lw[cross_p[k]]]];
        if (st->noise > 0.0) key += st->noise * rand01(st);
        if (best < 0 || key > best_key) {
            best = w;
            best_key = key;
        }
    }
    return best;
}

/* The Luby sequence 1 1 2 1 1 2 4 1 1 2 ... at 0-based index x (MiniSat's formulation). */
static int64_t luby(int64_t x) {
    int64_t size = 1, seq = 0;
    while (size < x + 1) {
        seq++;
        size = 2 * size + 1;
    }
    while (size - 1 != x) {
        size = (size - 1) >> 1;
        seq--;
        x = x % size;
    }
    return (int64_t)1 << seq;
}

static void record_solution(XwState *st) {
    for (int32_t s = 0; s < st->n_slots; s++) st->solution[s] = only_word(st, s);
}

/* Search for up to slice_s seconds. Returns XW_RUNNING (call again), XW_SOLVED (solution[] holds a
 * fill; call again for the next one), XW_EXHAUSTED (no more fills: if none was found, none exists),
 * XW_FAIL_LIMIT or XW_ABORTED. The root must have been propagated (xw_propagate_all) first. */
int xw_search(XwState *st, double slice_s) {
    const double t_end = now_s() + slice_s;
    if (st->phase == PH_DONE) return XW_EXHAUSTED;
    if (st->phase == PH_START) {
        st->phase = PH_CHOOSE;
        st->fails_run = 0;
        st->luby_index = 0;
        st->fail_limit_run = st->restart_base;
    }
    for (;;) {
        if (st->phase == PH_CHOOSE) {
            const int32_t s = select_slot(st);
            if (s < 0) {
                record_solution(st);
                st->solutions++;
                st->phase = PH_BACKTRACK;
                return XW_SOLVED;
            }
            const int32_t w = select_value(st, s);
            st->depth++;
            if (st->depth > st->max_depth) st->max_depth = st->depth;
            st->dec_slot[st->depth] = s;
            st->dec_word[st->depth] = w;
            st->dec_mark[st->depth] = st->trail_len;
            st->nodes++;
            assign(st, s, w);
            if (!propagate(st)) {
                st->fails++;
                st->fails_run++;
                st->phase = PH_BACKTRACK;
            }
        }
        if (st->phase == PH_BACKTRACK) {
            for (;;) {
                if (st->depth == 0) {
                    st->phase = PH_DONE;
                    return XW_EXHAUSTED;
                }
                const int32_t s = st->dec_slot[st->depth];
                const int32_t w = st->dec_word[st->depth];
                undo_to(st, st->dec_mark[st->depth]);
                st->depth--;
                if (remove_word(st, s, w) && propagate(st)) break;
                clear_queues(st);
                st->fails++;
                st->fails_run++;
            }
            st->phase = PH_CHOOSE;
            if (st->restart_base > 0 && st->fails_run >= st->fail_limit_run) {
                if (st->depth > 0) {
                    undo_to(st, st->dec_mark[1]);
                    st->depth = 0;
                }
                st->restarts++;
                st->fails_run = 0;
                st->luby_index++;
                st->fail_limit_run = st->restart_base * luby(st->luby_index);
            }
        }
        if (st->max_fails > 0 && st->fails >= st->max_fails) return XW_FAIL_LIMIT;
        if (st->abort_flag && *st->abort_flag) return XW_ABORTED;
        if (now_s() >= t_end) return XW_RUNNING;
    }
}

static struct PyModuleDef kernel_module = {PyModuleDef_HEAD_INIT, "_kernel",
                                           "Compiled search kernel; used through ctypes by xwcp.kernel.", -1, NULL};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&kernel_module); }
