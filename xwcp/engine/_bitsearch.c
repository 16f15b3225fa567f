/* The fill search: restarting MAC over bitset word domains (the hot loop of `xwcp fill`).
 *
 * Each open slot's domain is a bitset over its length bucket. For every length, position q and
 * letter c the caller supplies the bitset of words with c at q (`masks`), so removing every word
 * with a dead letter is one AND over the domain's 64-bit words, and whether a letter still has
 * support is one AND-not-zero test, usually answered at once by the block where support was last
 * found (a residue, as in AC-3rm). A changed slot recomputes the letters still possible at each
 * crossed position and prunes the crossing slot by the letters that died. A slot down to one
 * word removes it from every other slot of its length (no word twice). Each domain also keeps a bitmap of
 * its nonzero blocks: when fewer than half hold words (deep in a search on an open grid, a quarter to a
 * third do), the scans visit those blocks only.
 *
 * Undo is by copy-on-write: the first time a slot changes at a search depth its bitset and
 * letter sets are pushed on a save stack, and backtracking pops them. Search is binary
 * branching with dom/wdeg slot choice, words ordered by the sum of log options they leave
 * their crossings (plus a score term and seeded noise), and Luby restarts whose root-level
 * refutations persist, so exhausting the tree proves that no fill exists.
 *
 * With branch_mode 1 (letter branching) a decision is "this checked cell has letter c"
 * (chosen cell: fewest letters per failure weight; letter: most words kept in both slots), with
 * the same propagation; slots take words only where no checked cell is open. It wins on open
 * grids (XCSP lex 4x8 18.8 s -> 0.87 s) and loses on blocked ones, so auto picks it by shape.
 * Decisions and nogood literals are (slot, value): value >= 0 a word, < 0 a cell letter.
 *
 * Learning at every failure (`learn` 1 or 2, against the heavy tail; off by default, and off in `auto`): each slot
 * keeps the decision levels that explain its domain, split by the crossing they came through; a
 * failure's conflict set gives a backjump and a nogood per dead end (see "Learning at every
 * failure" below). Sound (tests/backends/test_backends.py checks proofs against exhaustive counts and brute
 * force), but it did not win. Measured with `backtrack` alone on SCOWL-55 (60 s, load ~4):
 * explanations name most of the branch (nogoods of 16-17 decisions at depth ~20 on 15.06; about 1%
 * of failures jump), so a learnt nogood rarely meets its decisions again, while the watch lists
 * halve the failures per second: 23.06 and 23.10 reach 131k and 143k failures in 60 s (learn 2)
 * against 306k and 354k without, and settle neither. 15.06 seeds 0/1: 0.16/2.7 s (learn 2),
 * 8.9/11.1 s (learn 1), 4.8/3.5 s (off); 21.10: 9.7/8.2, 4.2/13.2, 3.7/3.5 s. Choosing the last
 * failed slot again first (last-conflict reasoning) was tried too and lost (21.10: 26 s and 50 s).
 *
 * Batch verification (xwcp/analysis/verify.py) adds two things: bs_root_remove (drop a word at the root
 * between slices, keeping what was learnt) and `guide` (solution-guided value choice).
 *
 * The minimal core (xwcp/search/core.py) adds slot provenance (`track`, off by default): a proof
 * that no fill exists also names the slots whose constraints it used (see "Slot provenance").
 *
 * All arrays but the save stack belong to the caller (xwcp/engine/kernel.py).
 */
#ifndef LETTERS
/* The generic build: the alphabet's size K is the state's n_letters. _bitsearch_en.c includes this file again
 * with K the constant 26 and its functions named bs_*_26: English (the usual case) keeps constant strides
 * in the hot loops, which measured 5-8% faster on the Herald grids than a stride read from the state. */
#define LETTERS(st) ((st)->n_letters)
#define BS_FN(name) name
#define BS_GENERIC 1
#endif
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BS_RUNNING = 0, BS_SOLVED = 1, BS_EXHAUSTED = 2, BS_FAIL_LIMIT = 3, BS_ABORTED = 4, BS_NOMEM = 5 };
enum { PH_START = 0, PH_CHOOSE = 1, PH_BACKTRACK = 2, PH_DONE = 3 };

typedef struct {
    /* problem (read-only) */
    int32_t n_slots;
    int32_t n_letters;           /* K, the alphabet's letters (1..64): letter codes are 0..K-1 */
    const int32_t *slot_len;
    const int32_t *slot_nw;      /* words in the bucket */
    const int32_t *slot_W;       /* 64-bit blocks per domain */
    const int64_t *slot_dom_off; /* into dom */
    const int64_t *slot_mask_off;/* into masks: masks[off + (q * K + c) * W + k] */
    const int32_t *slot_pos_off; /* into per-position arrays */
    const int64_t *slot_letters_off;
    const int64_t *slot_scores_off;
    const int32_t *slot_group;   /* same-length group, -1 when duplicates are allowed */
    const int32_t *group_start;
    const int32_t *group_slots;
    const int32_t *cross_slot;   /* per (slot, pos): crossing slot or -1 */
    const int32_t *cross_pos;
    const uint64_t *masks;
    const uint8_t *letters;
    const int16_t *scores;
    const double *log_table;
    const int32_t *starts;       /* the list's starts per length [L, K + 1]: a letter with no word at q is skipped */
    const int64_t *slot_starts_off;
    /* state */
    uint64_t *dom;
    int32_t *size;
    uint64_t *live;              /* per (slot, pos): letters still possible (bit c: letter c; K <= 64) */
    int32_t *residue;            /* per (slot, pos, letter): block of last support */
    double *weight;              /* per (slot, pos) */
    int32_t *queue;              /* [n_slots] changed slots to revise */
    int32_t *queued;
    int32_t q_len;
    int32_t *saved_depth;        /* [n_slots] depth at which the slot was last saved, -1 none */
    int32_t wipeout_slot;
    /* save stack (owned here) */
    uint64_t *save_words;
    int64_t save_words_len, save_words_cap;
    int32_t *save_slot;
    int32_t *save_prev_depth;
    int32_t *save_size;
    int64_t *save_words_at;
    int64_t save_len, save_cap;
    /* search */
    int32_t phase, depth, max_depth;
    int32_t *dec_slot, *dec_word;
    int64_t *dec_mark;           /* save_len at the decision */
    int32_t *solution;
    int64_t nodes, fails, restarts, solutions;
    int64_t restart_base, fails_run, fail_limit_run, luby_index, max_fails;
    uint64_t rng;
    double noise, score_weight;
    int32_t slot_rule;
    volatile int32_t *abort_flag;
    /* nogoods recorded at restarts (owned here) */
    int32_t use_nogoods;
    int32_t *br_slot, *br_word, *br_neg;  /* the current branch: decisions and refutations in order */
    int32_t *br_at_depth;                 /* [n_slots + 2] branch index of the decision at each depth */
    int64_t br_len, br_cap;
    int32_t *ng_lits;                     /* pairs (slot, word); nogood k = lits [ng_start[k], ng_start[k + 1]) */
    int64_t ng_lits_len, ng_lits_cap;
    int64_t *ng_start;
    int32_t *ng_watch;                    /* [2 * k]: literal indices (relative) of the two watches */
    int64_t n_nogoods, ng_cap;
    int32_t **watch_list;                 /* per slot: nogood ids watching a literal on that slot */
    int32_t *watch_len, *watch_cap;
    /* solution-guided value choice (batch verification): per slot a word tried first while it is live, -1 none */
    const int32_t *guide;                 /* NULL: no guide */
    /* 0: branch on a slot's word; 1: branch on a checked cell's letter (open grids), words when no cell is open */
    int32_t branch_mode;
    /* learning at every failure (against the heavy tail): conflict-directed backjumping over
     * per-slot explanation sets, and a nogood learnt per dead end; see "Learning at every failure" */
    int32_t learn;                        /* 0: off (nogoods at restarts only); 1 or 2: on (needs restarts) */
    int32_t expl_words;                   /* 64-bit words per explanation set (decision levels 0..max depth) */
    uint64_t *expl;                       /* per slot 1 + length sets of expl_words (see "explanation sets"; owned here) */
    uint64_t *conflict;                   /* [expl_words]: the levels behind the last failure (owned here) */
    int32_t *ng_hits;                     /* per nogood: times it pruned or failed since the last clean-up (owned here) */
    int64_t ng_hits_cap;
    int64_t learnt_max;                   /* nogoods kept before a clean-up at the next restart */
    int64_t n_learnt, jumps, levels_jumped, n_forgotten;
    /* slot provenance (for the minimal core): with `track` set before bs_init, every domain carries the
     * set of slots whose constraints pruned it, and a failure the set of slots it used, so a finished
     * proof names the slots it needed (see "Slot provenance" below) */
    int32_t track;                        /* 1: keep the sets (set by the caller before bs_init) */
    int32_t prov_words;                   /* 64-bit words per slot set */
    uint64_t *prov;                       /* per slot 1 + length sets of prov_words (owned here) */
    uint64_t *used;                       /* [prov_words]: the slots behind the last failure (owned here) */
    uint64_t *br_prov;                    /* per branch entry: a refutation's failure's slots (owned here) */
    int64_t br_prov_cap;
    uint64_t *ng_prov;                    /* per nogood: the slots of the failure it records (owned here) */
    int64_t ng_prov_cap;
    /* nonzero-block summaries (owned here, made by bs_init): bit k of slot s's summary is clear only when block k
     * of its domain is zero, so the scans over a domain (support tests, pruning, value choice) visit the blocks
     * still holding words; deep in the search that is a quarter to a third of them */
    uint64_t *nz;
    int64_t *nz_off;                      /* [n_slots + 1]: slot s's summary is nz[nz_off[s] .. nz_off[s + 1]) */
    int32_t *blocks;                      /* [largest slot_W]: scratch for nz_list (owned here) */
    /* distinct stems (see "The stem rule"; stem_of NULL: off) */
    const int32_t *stem_of;               /* per word of a slot's bucket, from slot_stem_off[s]: its stem group, -1 none */
    const int64_t *slot_stem_off;
    const int32_t *stem_start;            /* [groups + 1]: group g's members are [stem_start[g], stem_start[g + 1]) */
    const int32_t *stem_len;              /* per member: its length */
    const int32_t *stem_word;             /* per member: its word id in its length's bucket */
} BsState;

/* A decision or nogood literal is (slot, value): value >= 0 is "slot = word value"; value < 0 is
 * "the slot's letter at position q is c" with value = -(1 + q * K + c) (letter branching, K = n_letters). */
static inline int32_t letter_value(const BsState *st, int32_t q, int32_t c) { return -(1 + q * LETTERS(st) + c); }

static double bs_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double bs_rand01(BsState *st) {
    uint64_t x = st->rng;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    st->rng = x;
    return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) * (1.0 / 9007199254740992.0);
}

static inline const uint64_t *mask_of(const BsState *st, int32_t s, int32_t q, int32_t c) {
    return st->masks + st->slot_mask_off[s] + (int64_t)(q * LETTERS(st) + c) * st->slot_W[s];
}

/* Slot s's nonzero-block summary and its length in 64-bit words. */
static inline uint64_t *nz_of(const BsState *st, int32_t s) { return st->nz + st->nz_off[s]; }
static inline int32_t nz_words(const BsState *st, int32_t s) { return (int32_t)(st->nz_off[s + 1] - st->nz_off[s]); }

/* Make slot s's summary exact: bit k set when block k of its domain is nonzero. */
static void nz_rebuild(const BsState *st, int32_t s) {
    const uint64_t *d = st->dom + st->slot_dom_off[s];
    uint64_t *z = nz_of(st, s);
    const int32_t W = st->slot_W[s];
    for (int32_t j = 0; j < nz_words(st, s); j++) {
        uint64_t bits = 0;
        for (int32_t i = 0; i < 64 && j * 64 + i < W; i++) bits |= (uint64_t)(d[j * 64 + i] != 0) << i;
        z[j] = bits;
    }
}

/* Whether a summary marks over half of its W blocks: a plain scan of every block is then the cheaper walk. */
static inline int nz_dense(const uint64_t *z, int32_t Z, int32_t W) {
    int32_t n = 0;
    for (int32_t j = 0; j < Z; j++) n += __builtin_popcountll(z[j]);
    return 2 * n > W;
}

/* The indexes of slot s's nonzero blocks into out (room for slot_W[s]); returns how many, or -1 when over half
 * the blocks are nonzero (the caller then walks every block: a plain loop, which the compiler vectorises). */
static inline int32_t nz_list(const BsState *st, int32_t s, int32_t *out) {
    const uint64_t *z = nz_of(st, s);
    const int32_t Z = nz_words(st, s);
    if (nz_dense(z, Z, st->slot_W[s])) return -1;
    int32_t n = 0;
    for (int32_t j = 0; j < Z; j++)
        for (uint64_t b = z[j]; b; b &= b - 1) out[n++] = j * 64 + __builtin_ctzll(b);
    return n;
}

static int32_t popcount_dom(const BsState *st, int32_t s) {
    const uint64_t *d = st->dom + st->slot_dom_off[s];
    int32_t n = 0;
    for (int32_t k = 0; k < st->slot_W[s]; k++) n += __builtin_popcountll(d[k]);
    return n;
}

/* Slot s's explanation sets: [0] its own (decisions, refutations, no word twice, nogoods), [1 + q] what came
 * in through the crossing at position q. */
static inline uint64_t *expl_of(const BsState *st, int32_t s) {
    return st->expl + (int64_t)(st->slot_pos_off[s] + s) * st->expl_words;
}

/* Slot provenance is off in fills: tell the compiler, so its checks stay off the hot paths' layout. */
#define TRACKING(st) __builtin_expect((st)->prov != NULL, 0)

/* Slot s's provenance sets, laid out as its explanation sets: [0] its own, [1 + q] what came through position q. */
static inline uint64_t *prov_of(const BsState *st, int32_t s) {
    return st->prov + (int64_t)(st->slot_pos_off[s] + s) * st->prov_words;
}

/* Push slot s's current bitset, size and letter sets if not yet saved at this depth. 0 = out of memory. */
static int save_slot(BsState *st, int32_t s) {
    if (st->saved_depth[s] == st->depth) return 1;
    const int32_t W = st->slot_W[s];
    const int32_t L = st->slot_len[s];
    const int32_t E = st->expl ? (L + 1) * st->expl_words : 0;
    const int32_t P = TRACKING(st) ? (L + 1) * st->prov_words : 0;
    const int32_t Z = nz_words(st, s);
    const int64_t need = W + L + E + P + Z;
    if (st->save_words_len + need > st->save_words_cap) {
        int64_t cap = st->save_words_cap ? st->save_words_cap * 2 : 1 << 16;
        while (cap < st->save_words_len + need) cap *= 2;
        uint64_t *p = realloc(st->save_words, (size_t)cap * sizeof(uint64_t));
        if (!p) return 0;
        st->save_words = p;
        st->save_words_cap = cap;
    }
    if (st->save_len >= st->save_cap) {
        int64_t cap = st->save_cap ? st->save_cap * 2 : 1024;
        int32_t *a = realloc(st->save_slot, (size_t)cap * sizeof(int32_t));
        if (!a) return 0;
        st->save_slot = a;
        int32_t *b = realloc(st->save_prev_depth, (size_t)cap * sizeof(int32_t));
        if (!b) return 0;
        st->save_prev_depth = b;
        int32_t *c = realloc(st->save_size, (size_t)cap * sizeof(int32_t));
        if (!c) return 0;
        st->save_size = c;
        int64_t *d = realloc(st->save_words_at, (size_t)cap * sizeof(int64_t));
        if (!d) return 0;
        st->save_words_at = d;
        st->save_cap = cap;
    }
    uint64_t *w = st->save_words + st->save_words_len;
    memcpy(w, st->dom + st->slot_dom_off[s], (size_t)W * sizeof(uint64_t));
    memcpy(w + W, st->live + st->slot_pos_off[s], (size_t)L * sizeof(uint64_t));
    if (E) memcpy(w + W + L, expl_of(st, s), (size_t)E * sizeof(uint64_t));
    if (P) memcpy(w + W + L + E, prov_of(st, s), (size_t)P * sizeof(uint64_t));
    memcpy(w + W + L + E + P, nz_of(st, s), (size_t)Z * sizeof(uint64_t));
    st->save_slot[st->save_len] = s;
    st->save_prev_depth[st->save_len] = st->saved_depth[s];
    st->save_size[st->save_len] = st->size[s];
    st->save_words_at[st->save_len] = st->save_words_len;
    st->save_len++;
    st->save_words_len += need;
    st->saved_depth[s] = st->depth;
    return 1;
}

static void restore_to(BsState *st, int64_t mark) {
    while (st->save_len > mark) {
        st->save_len--;
        const int32_t s = st->save_slot[st->save_len];
        const uint64_t *w = st->save_words + st->save_words_at[st->save_len];
        memcpy(st->dom + st->slot_dom_off[s], w, (size_t)st->slot_W[s] * sizeof(uint64_t));
        memcpy(st->live + st->slot_pos_off[s], w + st->slot_W[s], (size_t)st->slot_len[s] * sizeof(uint64_t));
        const int64_t E = st->expl ? (int64_t)(st->slot_len[s] + 1) * st->expl_words : 0;
        if (E) memcpy(expl_of(st, s), w + st->slot_W[s] + st->slot_len[s], (size_t)E * sizeof(uint64_t));
        const int64_t P = TRACKING(st) ? (int64_t)(st->slot_len[s] + 1) * st->prov_words : 0;
        if (P) memcpy(prov_of(st, s), w + st->slot_W[s] + st->slot_len[s] + E, (size_t)P * sizeof(uint64_t));
        memcpy(nz_of(st, s), w + st->slot_W[s] + st->slot_len[s] + E + P, (size_t)nz_words(st, s) * sizeof(uint64_t));
        st->size[s] = st->save_size[st->save_len];
        st->saved_depth[s] = st->save_prev_depth[st->save_len];
        st->save_words_len = st->save_words_at[st->save_len];
    }
}

static void enqueue(BsState *st, int32_t s) {
    if (!st->queued[s]) {
        st->queued[s] = 1;
        st->queue[st->q_len++] = s;
    }
}

static void clear_queue(BsState *st) {
    for (int32_t k = 0; k < st->q_len; k++) st->queued[st->queue[k]] = 0;
    st->q_len = 0;
}

/* dom[s] &= keep (keep = NULL: clear word w only). Saves first. Returns 1 if changed. -1 out of memory. */
static int and_dom(BsState *st, int32_t s, const uint64_t *keep, int invert) {
    uint64_t *d = st->dom + st->slot_dom_off[s];
    uint64_t *z = nz_of(st, s);
    const int32_t Z = nz_words(st, s);
    const uint64_t flip = invert ? ~0ULL : 0ULL;
    const int32_t W = st->slot_W[s];
    if (nz_dense(z, Z, W)) { /* every block, in plain loops */
        int changed = 0;
        for (int32_t k = 0; k < W; k++)
            if (d[k] & ~(keep[k] ^ flip)) { changed = 1; break; }
        if (!changed) return 0;
        if (!save_slot(st, s)) return -1;
        int32_t n = 0;
        for (int32_t k = 0; k < W; k++) {
            d[k] &= keep[k] ^ flip;
            n += __builtin_popcountll(d[k]);
            z[k >> 6] &= ~((uint64_t)(d[k] == 0) << (k & 63));
        }
        st->size[s] = n;
        return 1;
    }
    /* only the nonzero blocks can change; nothing is saved until one does */
    int32_t j = 0;
    uint64_t b = 0;
    for (; j < Z; j++) {
        for (b = z[j]; b; b &= b - 1) {
            const int32_t k = j * 64 + __builtin_ctzll(b);
            if (d[k] & ~(keep[k] ^ flip)) goto changed;
        }
    }
    return 0;
changed:
    if (!save_slot(st, s)) return -1;
    int32_t removed = 0;
    for (;;) {
        for (; b; b &= b - 1) {
            const int32_t k = j * 64 + __builtin_ctzll(b);
            const uint64_t nd = d[k] & (keep[k] ^ flip);
            removed += __builtin_popcountll(d[k] ^ nd);
            d[k] = nd;
            if (!nd) z[j] &= ~(b & -b);
        }
        if (++j >= Z) break;
        b = z[j];
    }
    st->size[s] -= removed;
    return 1;
}

static int clear_word(BsState *st, int32_t s, int32_t w) {
    uint64_t *d = st->dom + st->slot_dom_off[s];
    const uint64_t bit = 1ULL << (w & 63);
    if (!(d[w >> 6] & bit)) return 0;
    if (!save_slot(st, s)) return -1;
    d[w >> 6] &= ~bit;
    if (!d[w >> 6]) nz_of(st, s)[w >> 12] &= ~(1ULL << ((w >> 6) & 63));
    st->size[s]--;
    return 1;
}

/* Make literal (s, v) false: remove word v, or every word with letter c at position q. 1 changed, 0 not, -1 out of memory. */
static int refute(BsState *st, int32_t s, int32_t v) {
    if (v >= 0) return clear_word(st, s, v);
    const int32_t code = -v - 1;
    return and_dom(st, s, mask_of(st, s, code / LETTERS(st), code % LETTERS(st)), 1);
}

/* Make literal (s, v) true: keep word v only, or only the words with letter c at position q. */
static int assert_lit(BsState *st, int32_t s, int32_t v) {
    if (v >= 0) {
        if (!save_slot(st, s)) return -1;
        uint64_t *d = st->dom + st->slot_dom_off[s];
        uint64_t *z = nz_of(st, s);
        const int32_t Z = nz_words(st, s);
        for (int32_t j = 0; j < Z; j++) {
            for (uint64_t b = z[j]; b; b &= b - 1) d[j * 64 + __builtin_ctzll(b)] = 0;
            z[j] = 0;
        }
        d[v >> 6] = 1ULL << (v & 63);
        z[v >> 12] = 1ULL << ((v >> 6) & 63);
        st->size[s] = 1;
        return 1;
    }
    const int32_t code = -v - 1;
    return and_dom(st, s, mask_of(st, s, code / LETTERS(st), code % LETTERS(st)), 0);
}

static int32_t first_word(const BsState *st, int32_t s) {
    const uint64_t *d = st->dom + st->slot_dom_off[s];
    const uint64_t *z = nz_of(st, s);
    for (int32_t j = 0; j < nz_words(st, s); j++)
        for (uint64_t b = z[j]; b; b &= b - 1) {
            const int32_t k = j * 64 + __builtin_ctzll(b);
            if (d[k]) return k * 64 + __builtin_ctzll(d[k]);
        }
    return -1;
}

/* The support scan over a sparse domain's marked blocks (kept out of line: the residue test before it is the hot
 * part, inlined into propagation). */
static __attribute__((noinline)) int support_in_blocks(const BsState *st, int32_t s, const uint64_t *m, int32_t *res) {
    const uint64_t *d = st->dom + st->slot_dom_off[s];
    const uint64_t *z = nz_of(st, s);
    const int32_t Z = nz_words(st, s);
    for (int32_t j = 0; j < Z; j++) {
        for (uint64_t b = z[j]; b; b &= b - 1) {
            const int32_t k = j * 64 + __builtin_ctzll(b);
            if (d[k] & m[k]) { *res = k; return 1; }
        }
    }
    return 0;
}

static inline __attribute__((always_inline)) int has_support(BsState *st, int32_t s, int32_t q, int32_t c) {
    const uint64_t *d = st->dom + st->slot_dom_off[s];
    const uint64_t *m = mask_of(st, s, q, c);
    const int32_t W = st->slot_W[s];
    int32_t *res = st->residue + (int64_t)(st->slot_pos_off[s] + q) * LETTERS(st) + c;
    const int32_t r = *res;
    if (r < W && (d[r] & m[r])) return 1;
    if (!nz_dense(nz_of(st, s), nz_words(st, s), W)) return support_in_blocks(st, s, m, res);
    for (int32_t k = 0; k < W; k++) {
        if (d[k] & m[k]) { *res = k; return 1; }
    }
    return 0;
}


/* ---- slot provenance (the minimal core) -------------------------------------------------------------
 * A core of an unfillable grid is a set of slots whose constraints (a word from the slot's list, agreeing
 * with the kept slots it crosses, no word twice among them) already leave no fill. With `track` set
 * before bs_init, every slot carries sets of *slots* beside its domain, shaped like the explanation sets
 * below: its own set (itself, and the slots behind a refutation, a no-word-twice or a nogood pruning)
 * and one per position (the slots behind what the crossing there removed: the crossing slot's sets
 * except its set at that crossing, by the argument given for the explanation sets). A failure's set
 * (`used`) is the union of its wiped-out slot's sets, or of a violated nogood's set and its slots'
 * sets. A decision "slot = word" is a case split, not a constraint: the slot's sets go back to the
 * slot alone. Refuting it after a failure adds that failure's set to the slot's own set; a nogood
 * keeps the set of the refutation it records, and adds it wherever it prunes. By induction every
 * failure follows from its set's slots and the decisions above it, so the failure at the root that
 * ends a proof follows from its set's slots alone: `used` is then a core. Failures in branches the
 * final refutations did not need are left out (a global union of every failure was tried first and
 * kept 47 of the 64 slots of the seeded themeless, bench/seeded/sticky-fingers.txt). So one proof gives a core to start
 * shrinking from, and each smaller proof a smaller one (xwcp/search/core.py). Off by default: fills never
 * pay for it. */

/* dst |= all of slot t's provenance sets except the one at position `skip` (-1: all). */
static inline void prov_gather(const BsState *st, uint64_t *dst, int32_t t, int32_t skip) {
    const int32_t P = st->prov_words, L = st->slot_len[t];
    const uint64_t *e = prov_of(st, t);
    for (int32_t j = 0; j <= L; j++) {
        if (skip >= 0 && j == skip + 1) continue;
        for (int32_t k = 0; k < P; k++) dst[k] |= e[j * P + k];
    }
}

/* Slot u (saved) was pruned by no word twice or a nogood because of slot t: u's own set takes all of t's. */
static inline void prov_join(BsState *st, int32_t u, int32_t t) {
    if (TRACKING(st)) prov_gather(st, prov_of(st, u), t, -1);
}

/* A failure at slot u: its set is what pruned u's domain. */
static inline void prov_fail(BsState *st, int32_t u) {
    if (!TRACKING(st)) return;
    memset(st->used, 0, (size_t)st->prov_words * sizeof(uint64_t));
    prov_gather(st, st->used, u, -1);
}

/* dst |= src (slot sets). */
static inline void prov_or(const BsState *st, uint64_t *dst, const uint64_t *src) {
    for (int32_t k = 0; k < st->prov_words; k++) dst[k] |= src[k];
}

/* Allocate the sets (in bs_init, before any pruning): each slot's own set holds the slot. 0 = out of memory. */
static int prov_start(BsState *st) {
    const int32_t n_pos = st->slot_pos_off[st->n_slots];
    st->prov_words = (st->n_slots + 63) / 64;
    if (st->prov_words < 1) st->prov_words = 1;
    st->prov = calloc((size_t)(st->n_slots + n_pos) * st->prov_words + 1, sizeof(uint64_t));
    st->used = calloc((size_t)st->prov_words, sizeof(uint64_t));
    if (!st->prov || !st->used) return 0;
    for (int32_t s = 0; s < st->n_slots; s++) prov_of(st, s)[s >> 6] |= 1ULL << (s & 63);
    return 1;
}


/* ---- explanation sets (learning at every failure) -------------------------------------------------
 * With `learn` on, every slot carries sets of decision levels whose decisions (with the root and the
 * nogoods, which always hold) imply its current domain: its own set (a decision on the slot, a
 * refutation's reason, no word twice, a nogood's other literals) and one per position, for what the
 * crossing there removed. Pruning u through its crossing with t at (q in t, r in u) adds to u's set
 * at r the union of t's sets except t's set at q: a letter still live in u at r was live there all
 * along this branch, so no word of t with it at q was removed through that crossing; the letter's
 * death in t is explained by t's other removals. Without that the sets echo back and forth along a
 * crossing and soon hold every level. The sets live beside the domains on the save stack, so undo
 * restores them. A failure's conflict set is the union of the wiped-out slot's sets, or of the sets
 * of a violated nogood's literals' slots. */

/* dst |= all of slot t's sets except the one at position `skip` (-1: all). */
static inline void expl_gather(const BsState *st, uint64_t *dst, int32_t t, int32_t skip) {
    const int32_t E = st->expl_words, L = st->slot_len[t];
    const uint64_t *e = expl_of(st, t);
    for (int32_t j = 0; j <= L; j++) {
        if (skip >= 0 && j == skip + 1) continue;
        for (int32_t k = 0; k < E; k++) dst[k] |= e[j * E + k];
    }
}

/* Slot u was pruned by no word twice or a nogood because of slot t: u's own set takes all of t's (all of u's
 * when t is u: a literal of u made true through a crossing is then a reason beyond that crossing). u is saved. */
static inline void expl_join(BsState *st, int32_t u, int32_t t) {
    if (st->expl) expl_gather(st, expl_of(st, u), t, -1);
}

/* A failure at slot u (empty domain): remember where, and its conflict set. */
static inline void fail_at(BsState *st, int32_t u) {
    st->wipeout_slot = u;
    prov_fail(st, u);
    if (!st->expl) return;
    memset(st->conflict, 0, (size_t)st->expl_words * sizeof(uint64_t));
    expl_gather(st, st->conflict, u, -1);
}

/* Slot u loses word w because slot t took it (no word twice) or a word of its stem group (the stem rule): u's
 * reasons join t's, and u is revised next. 1 = consistent, 0 = u wiped out, -1 = out of memory. */
static inline int drop_word_for(BsState *st, int32_t u, int32_t t, int32_t w) {
    const int ch = clear_word(st, u, w);
    if (ch <= 0) return ch < 0 ? -1 : 1;
    expl_join(st, u, t);
    prov_join(st, u, t);
    if (st->size[u] == 0) { fail_at(st, u); clear_queue(st); return 0; }
    enqueue(st, u);
    return 1;
}


/* The deepest level in the conflict set, 0 if it is empty (the failure follows from the root alone). */
static int32_t conflict_max(const BsState *st) {
    for (int32_t k = st->expl_words - 1; k >= 0; k--)
        if (st->conflict[k]) return k * 64 + 63 - __builtin_clzll(st->conflict[k]);
    return 0;
}


/* ---- nogoods from restarts (Lecoutre et al. 2007, reduced nld-nogoods) ----------------------------
 * At a restart the branch is a list of decisions (slot = word) and refutations (slot != word). For a
 * refutation at index i, the decisions before i together with slot = word are inconsistent: that set is
 * recorded as a nogood and later propagated with two watched literals. A literal (slot = word) is true
 * when the slot's domain is exactly {word}. */

static int grow(void **p, int64_t *cap, int64_t need, size_t elem) {
    if (need <= *cap) return 1;
    int64_t c = *cap ? *cap : 256;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * elem);
    if (!q) return 0;
    *p = q;
    *cap = c;
    return 1;
}

static int lit_true(const BsState *st, int32_t s, int32_t w) {
    if (w < 0) {
        const int32_t code = -w - 1;
        return st->live[st->slot_pos_off[s] + code / LETTERS(st)] == (1ULL << (code % LETTERS(st)));
    }
    return st->size[s] == 1 && (st->dom[st->slot_dom_off[s] + (w >> 6)] >> (w & 63) & 1ULL);
}

static int watch_add(BsState *st, int32_t s, int32_t ng) {
    if (st->watch_len[s] >= st->watch_cap[s]) {
        int32_t cap = st->watch_cap[s] ? st->watch_cap[s] * 2 : 16;
        int32_t *q = realloc(st->watch_list[s], (size_t)cap * sizeof(int32_t));
        if (!q) return 0;
        st->watch_list[s] = q;
        st->watch_cap[s] = cap;
    }
    st->watch_list[s][st->watch_len[s]++] = ng;
    return 1;
}

static int branch_push(BsState *st, int32_t s, int32_t w, int32_t neg) {
    if (!st->use_nogoods) return 1;
    if (st->br_len >= st->br_cap) {
        int64_t cap = st->br_cap;
        if (!grow((void **)&st->br_slot, &cap, st->br_len + 1, sizeof(int32_t))) return 0;
        cap = st->br_cap;
        if (!grow((void **)&st->br_word, &cap, st->br_len + 1, sizeof(int32_t))) return 0;
        cap = st->br_cap;
        if (!grow((void **)&st->br_neg, &cap, st->br_len + 1, sizeof(int32_t))) return 0;
        st->br_cap = cap;
    }
    if (TRACKING(st)) { /* a refutation keeps the slots of the failure it follows from (`used`), for its nogood */
        const int64_t P = st->prov_words;
        if (!grow((void **)&st->br_prov, &st->br_prov_cap, (st->br_len + 1) * P, sizeof(uint64_t))) return 0;
        if (neg) memcpy(st->br_prov + st->br_len * P, st->used, (size_t)P * sizeof(uint64_t));
    }
    st->br_slot[st->br_len] = s;
    st->br_word[st->br_len] = w;
    st->br_neg[st->br_len] = neg;
    st->br_len++;
    return 1;
}

/* Room for one more nogood of n_lits literals; returns where its (slot, value) pairs go, NULL = out of memory. */
static int32_t *nogood_room(BsState *st, int64_t n_lits) {
    if (!grow((void **)&st->ng_lits, &st->ng_lits_cap, st->ng_lits_len + 2 * n_lits, sizeof(int32_t))) return NULL;
    int64_t cap = st->ng_cap; /* both arrays hold ng_cap nogoods: 1 start, 2 watches each */
    if (!grow((void **)&st->ng_start, &cap, st->n_nogoods + 2, sizeof(int64_t))) return NULL;
    cap = st->ng_cap;
    if (!grow((void **)&st->ng_watch, &cap, st->n_nogoods + 2, 2 * sizeof(int32_t))) return NULL;
    st->ng_cap = cap;
    if (!grow((void **)&st->ng_hits, &st->ng_hits_cap, st->n_nogoods + 2, sizeof(int32_t))) return NULL;
    return st->ng_lits + st->ng_lits_len;
}

/* Add the nogood whose n_lits pairs were written at nogood_room(), watching literals wa and wb; `slots` is
 * the set of slots of the failure it records (slot provenance; ignored without it). 0 = out of memory. */
static int nogood_commit(BsState *st, int64_t n_lits, int32_t wa, int32_t wb, const uint64_t *slots) {
    const int32_t ng = (int32_t)st->n_nogoods;
    if (TRACKING(st)) {
        const int64_t P = st->prov_words;
        if (!grow((void **)&st->ng_prov, &st->ng_prov_cap, (ng + 1) * P, sizeof(uint64_t))) return 0;
        if (slots) memcpy(st->ng_prov + ng * P, slots, (size_t)P * sizeof(uint64_t));
        else memset(st->ng_prov + ng * P, 0xff, (size_t)P * sizeof(uint64_t)); /* unknown: every slot */
    }
    const int64_t base = st->ng_lits_len;
    const int32_t *lits = st->ng_lits + base;
    st->ng_start[ng] = base;
    st->ng_start[ng + 1] = base + 2 * n_lits;
    st->ng_lits_len += 2 * n_lits;
    st->ng_watch[2 * ng] = wa;
    st->ng_watch[2 * ng + 1] = wb;
    st->ng_hits[ng] = 0;
    if (!watch_add(st, lits[2 * wa], ng)) return 0;
    if (wb != wa && !watch_add(st, lits[2 * wb], ng)) return 0;
    st->n_nogoods++;
    return 1;
}

/* Record the nogoods of the current branch (called at a restart, before undoing it). 0 = out of memory. */
static int record_nogoods(BsState *st) {
    int32_t n_pos = 0;
    for (int64_t i = 0; i < st->br_len; i++) {
        if (!st->br_neg[i]) { n_pos++; continue; }
        if (n_pos == 0) continue; /* a root refutation: already permanent */
        const int64_t n_lits = n_pos + 1;
        int32_t *lits = nogood_room(st, n_lits);
        if (!lits) return 0;
        int32_t k = 0;
        for (int64_t j = 0; j < i; j++) {
            if (st->br_neg[j]) continue;
            lits[2 * k] = st->br_slot[j];
            lits[2 * k + 1] = st->br_word[j];
            k++;
        }
        lits[2 * k] = st->br_slot[i];
        lits[2 * k + 1] = st->br_word[i];
        /* watch the refuted literal and the deepest decision: neither is true at the root after the restart */
        if (!nogood_commit(st, n_lits, (int32_t)(n_lits - 1), (int32_t)(n_lits - 2),
                           st->br_prov ? st->br_prov + i * st->prov_words : NULL)) return 0;
    }
    return 1;
}

/* Slot t is down to one word: move watches off its true literals; prune or fail where a nogood is unit.
 * 1 = fine, 0 = a nogood is violated or a domain wiped out, -1 = out of memory. */
static int propagate_nogoods(BsState *st, int32_t t) {
    int32_t *list = st->watch_list[t];
    for (int32_t i = 0; i < st->watch_len[t];) {
        const int32_t ng = list[i];
        const int32_t *lits = st->ng_lits + st->ng_start[ng];
        const int32_t n_lits = (int32_t)((st->ng_start[ng + 1] - st->ng_start[ng]) / 2);
        int side = -1;
        for (int sd = 0; sd < 2 && side < 0; sd++) {
            const int32_t j = st->ng_watch[2 * ng + sd];
            if (lits[2 * j] == t && lit_true(st, t, lits[2 * j + 1])) side = sd;
        }
        if (side < 0) { i++; continue; }
        const int32_t me = st->ng_watch[2 * ng + side];
        const int32_t other = st->ng_watch[2 * ng + 1 - side];
        int32_t repl = -1;
        for (int32_t j = 0; j < n_lits; j++) {
            if (j == me || j == other) continue;
            if (!lit_true(st, lits[2 * j], lits[2 * j + 1])) { repl = j; break; }
        }
        if (repl >= 0) {
            st->ng_watch[2 * ng + side] = repl;
            list[i] = list[--st->watch_len[t]];
            if (!watch_add(st, lits[2 * repl], ng)) return -1;
            list = st->watch_list[t];
            continue;
        }
        const int32_t u = lits[2 * other], w = lits[2 * other + 1];
        if (lit_true(st, u, w)) { /* every literal is true: the nogood is violated */
            st->ng_hits[ng]++;
            st->wipeout_slot = u;
            if (st->expl) {
                memset(st->conflict, 0, (size_t)st->expl_words * sizeof(uint64_t));
                for (int32_t j = 0; j < n_lits; j++) expl_gather(st, st->conflict, lits[2 * j], -1);
            }
            if (TRACKING(st)) {
                memcpy(st->used, st->ng_prov + (int64_t)ng * st->prov_words, (size_t)st->prov_words * sizeof(uint64_t));
                for (int32_t j = 0; j < n_lits; j++) prov_gather(st, st->used, lits[2 * j], -1);
            }
            return 0;
        }
        const int ch = refute(st, u, w);
        if (ch < 0) return -1;
        if (ch) {
            st->ng_hits[ng]++;
            for (int32_t j = 0; j < n_lits; j++)
                if (j != other) { expl_join(st, u, lits[2 * j]); prov_join(st, u, lits[2 * j]); }
            if (TRACKING(st)) prov_or(st, prov_of(st, u), st->ng_prov + (int64_t)ng * st->prov_words);
            if (st->size[u] == 0) { fail_at(st, u); return 0; }
            enqueue(st, u);
        }
        i++;
    }
    return 1;
}

/* The stem rule (xwcp/words/stems.py, `stem_groups`): slot t is down to one word, so every other slot loses every
 * word of that word's stem group (TIED and TIER once TIES is taken; RUN and RUNS once RUNNER is), as no word twice
 * removes the word itself from the slots of its length. The same word stays where duplicates are allowed.
 * 1 = consistent, 0 = a wipeout (wipeout_slot), -1 = out of memory. */
static __attribute__((noinline, cold)) int stem_prune(BsState *st, int32_t t) {
    const int32_t w = first_word(st, t);
    const int32_t g = st->stem_of[st->slot_stem_off[t] + w];
    if (g < 0) return 1;
    const int32_t L = st->slot_len[t];
    for (int32_t u = 0; u < st->n_slots; u++) {
        if (u == t) continue;
        const int32_t Lu = st->slot_len[u];
        for (int32_t k = st->stem_start[g]; k < st->stem_start[g + 1]; k++) {
            if (st->stem_len[k] != Lu || (Lu == L && st->stem_word[k] == w && st->slot_group[u] < 0)) continue;
            const int ok = drop_word_for(st, u, t, st->stem_word[k]);
            if (ok <= 0) return ok;
        }
    }
    return 1;
}

/* `stem_prune` for every slot down to one word (bs_propagate runs it once the queue is empty); a slot it changes
 * is queued for the next round. */
static __attribute__((noinline, cold)) int stem_prune_all(BsState *st) {
    for (int32_t t = 0; t < st->n_slots; t++) {
        if (st->size[t] != 1) continue;
        const int ok = stem_prune(st, t);
        if (ok <= 0) return ok;
    }
    return 1;
}

/* Revise the queue to the fixpoint. 1 = consistent, 0 = a wipeout (wipeout_slot), -1 = out of memory. */
static int bs_propagate_queue(BsState *st) {
    uint64_t tmp[4096];
    int32_t *blocks = st->blocks;
    while (st->q_len > 0) {
        const int32_t t = st->queue[--st->q_len];
        st->queued[t] = 0;
        if (st->size[t] == 0) { fail_at(st, t); clear_queue(st); return 0; }
        const int32_t L = st->slot_len[t];
        const int32_t po = st->slot_pos_off[t];
        /* Letters still possible at each crossed position: from the few words left when the domain
         * is small (size * L work), else one support test per letter (a residue, or a scan of W). */
        uint64_t seen[64];
        int new_letter = 0; /* a position of t came down to one letter: a letter literal may have become true */
        int32_t n_live = 0;
        for (int32_t q = 0; q < L; q++) n_live += __builtin_popcountll(st->live[po + q]);
        /* the factor: 16 measured 5-7% faster than 64 on the stock themeless and open-3 and on the Herald grids,
         * 4 8% slower (same nodes) */
        const int by_words = L <= 64 && (int64_t)st->size[t] * L * 16 < (int64_t)n_live * st->slot_W[t];
        if (by_words) {
            memset(seen, 0, sizeof(uint64_t) * (size_t)L);
            const uint64_t *d = st->dom + st->slot_dom_off[t];
            const uint8_t *lt = st->letters + st->slot_letters_off[t];
            const int32_t n_blocks = nz_list(st, t, blocks);
            for (int32_t i = 0; i < (n_blocks < 0 ? st->slot_W[t] : n_blocks); i++) {
                const int32_t k = n_blocks < 0 ? i : blocks[i];
                for (uint64_t bits = d[k]; bits; bits &= bits - 1) {
                    const uint8_t *lw = lt + (int64_t)(k * 64 + __builtin_ctzll(bits)) * L;
                    for (int32_t q = 0; q < L; q++) seen[q] |= 1ULL << lw[q];
                }
            }
        }
        for (int32_t q = 0; q < L; q++) {
            const int32_t u = st->cross_slot[po + q];
            if (u < 0) continue;
            uint64_t old = st->live[po + q];
            uint64_t now = 0;
            if (by_words) {
                now = old & seen[q];
            } else {
                for (uint64_t bits = old; bits; bits &= bits - 1) {
                    const int32_t c = __builtin_ctzll(bits);
                    if (has_support(st, t, q, c)) now |= 1ULL << c;
                }
            }
            if (now == old) continue;
            if (!save_slot(st, t)) return -1;
            st->live[po + q] = now;
            if (now && !(now & (now - 1))) new_letter = 1;
            /* prune the crossing slot u at position r to the letters still possible here */
            const int32_t r = st->cross_pos[po + q];
            const int32_t Wu = st->slot_W[u];
            const uint64_t dead = st->live[st->slot_pos_off[u] + r] & ~now;
            if (!dead) continue;
            const int n_dead = __builtin_popcountll(dead), n_now = __builtin_popcountll(now & st->live[st->slot_pos_off[u] + r]);
            int changed = 0;
            if (Wu <= 4096 && n_now < n_dead) { /* and_dom reads tmp at u's nonzero blocks only */
                const int32_t n_blocks = nz_list(st, u, blocks);
                if (n_blocks < 0) memset(tmp, 0, (size_t)Wu * sizeof(uint64_t));
                for (int32_t i = 0; i < n_blocks; i++) tmp[blocks[i]] = 0;
                for (uint64_t bits = now; bits; bits &= bits - 1) {
                    const uint64_t *m = mask_of(st, u, r, __builtin_ctzll(bits));
                    if (n_blocks < 0)
                        for (int32_t k = 0; k < Wu; k++) tmp[k] |= m[k];
                    for (int32_t i = 0; i < n_blocks; i++) tmp[blocks[i]] |= m[blocks[i]];
                }
                changed = and_dom(st, u, tmp, 0);
#ifdef BS_GENERIC
            } else if (Wu <= 4096 && n_dead >= 2) { /* one pass over the domain for every dead letter */
                const int32_t n_blocks = nz_list(st, u, blocks);
                if (n_blocks < 0) memset(tmp, 0, (size_t)Wu * sizeof(uint64_t));
                for (int32_t i = 0; i < n_blocks; i++) tmp[blocks[i]] = 0;
                for (uint64_t bits = dead; bits; bits &= bits - 1) {
                    const uint64_t *m = mask_of(st, u, r, __builtin_ctzll(bits));
                    if (n_blocks < 0)
                        for (int32_t k = 0; k < Wu; k++) tmp[k] |= m[k];
                    for (int32_t i = 0; i < n_blocks; i++) tmp[blocks[i]] |= m[blocks[i]];
                }
                changed = and_dom(st, u, tmp, 1);
#endif
            } else {
                for (uint64_t bits = dead; bits; bits &= bits - 1) {
                    const int ch = and_dom(st, u, mask_of(st, u, r, __builtin_ctzll(bits)), 1);
                    if (ch < 0) return -1;
                    changed |= ch;
                }
            }
            if (changed < 0) return -1;
            if (changed) {
                if (st->expl) expl_gather(st, expl_of(st, u) + (int64_t)(1 + r) * st->expl_words, t, q);
                if (TRACKING(st)) prov_gather(st, prov_of(st, u) + (int64_t)(1 + r) * st->prov_words, t, q);
                if (st->size[u] == 0) {
                    st->weight[po + q] += 1.0;
                    st->weight[st->slot_pos_off[u] + r] += 1.0;
                    fail_at(st, u);
                    clear_queue(st);
                    return 0;
                }
                enqueue(st, u);
            }
        }
        if ((st->size[t] == 1 || (st->branch_mode && new_letter)) && st->watch_len[t] > 0) {
            const int ok = propagate_nogoods(st, t);
            if (ok <= 0) { clear_queue(st); return ok; }
        }
        if (st->size[t] == 1 && st->slot_group[t] >= 0) {
            const int32_t w = first_word(st, t);
            const int32_t g = st->slot_group[t];
            for (int32_t k = st->group_start[g]; k < st->group_start[g + 1]; k++) {
                const int32_t u = st->group_slots[k];
                if (u == t) continue;
                const int ok = drop_word_for(st, u, t, w);
                if (ok <= 0) return ok;
            }
        }
    }
    return 1;
}

/* Revise to the fixpoint: the queue (bs_propagate_queue), then, with the stem rule, its pruning until nothing
 * changes. Kept outside bs_propagate_queue, whose code stays as it is without the rule: a call inside its loop
 * cost 15% on models/vanbeek/21.10.txt with the rule off, at the same instruction count. */
static inline int bs_propagate(BsState *st) {
    int ok = bs_propagate_queue(st);
    while (ok > 0 && st->stem_of) {
        ok = stem_prune_all(st);
        if (ok <= 0 || st->q_len == 0) return ok;
        ok = bs_propagate_queue(st);
    }
    return ok;
}

/* bs_init's agreement at position q of slot s when more than two slots share its cell (a listed entry through a
 * crossing, the readings of a Schrodinger entry): cross_slot links them in a cycle, and s keeps only the letters
 * every slot of the cycle allows; every slot of the cycle is in the provenance. Propagation then pushes each
 * change to the next slot of the cycle, which keeps them agreeing all the way round. */
static __attribute__((noinline, cold)) void cycle_agree(BsState *st, int32_t s, int32_t q) {
    const int32_t po = st->slot_pos_off[s];
    uint64_t both = st->live[po + q];
    int32_t at = po + q;
    for (int32_t k = 0; k <= st->n_slots && st->cross_slot[at] >= 0; k++) {
        at = st->slot_pos_off[st->cross_slot[at]] + st->cross_pos[at];
        if (at == po + q) break;
        both &= st->live[at];
    }
    uint64_t dead = st->live[po + q] & ~both;
    if (dead && st->prov) {
        at = po + q;
        for (int32_t k = 0; k <= st->n_slots && st->cross_slot[at] >= 0; k++) {
            const int32_t v = st->cross_slot[at];
            at = st->slot_pos_off[v] + st->cross_pos[at];
            if (at == po + q) break;
            prov_of(st, s)[(int64_t)(1 + q) * st->prov_words + (v >> 6)] |= 1ULL << (v & 63);
        }
    }
    for (; dead; dead &= dead - 1) and_dom(st, s, mask_of(st, s, q, __builtin_ctzll(dead)), 1);
}

/* Allocate the nonzero-block summaries and the scratch list. 0 = out of memory. */
static int nz_start(BsState *st) {
    st->nz_off = malloc((size_t)(st->n_slots + 1) * sizeof(int64_t));
    if (!st->nz_off) return 0;
    int32_t max_W = 1;
    st->nz_off[0] = 0;
    for (int32_t s = 0; s < st->n_slots; s++) {
        st->nz_off[s + 1] = st->nz_off[s] + (st->slot_W[s] + 63) / 64;
        if (st->slot_W[s] > max_W) max_W = st->slot_W[s];
    }
    st->nz = calloc((size_t)st->nz_off[st->n_slots] + 1, sizeof(uint64_t));
    st->blocks = malloc((size_t)max_W * sizeof(int32_t));
    if (!st->nz || !st->blocks) {
        free(st->nz); free(st->nz_off); free(st->blocks);
        st->nz = NULL; st->nz_off = NULL; st->blocks = NULL;
        return 0;
    }
    return 1;
}

/* Initial state: sizes, letter sets and residues from the domains; then propagate everything. */
int BS_FN(bs_init)(BsState *st) {
    const int32_t K = LETTERS(st); /* 1..64, checked by the caller */
    const uint64_t all_letters = K >= 64 ? ~0ULL : (1ULL << K) - 1;
    st->q_len = 0;
    st->save_len = 0;
    st->save_words_len = 0;
    st->depth = 0;
    st->phase = PH_START;
    st->wipeout_slot = -1;
    if (st->track && !st->prov && !prov_start(st)) { /* no memory for the sets: search without them */
        free(st->prov); free(st->used);
        st->prov = NULL; st->used = NULL;
    }
    if (!st->nz && !nz_start(st)) return -1;
    for (int32_t s = 0; s < st->n_slots; s++) nz_rebuild(st, s);
    for (int32_t s = 0; s < st->n_slots; s++) {
        st->size[s] = popcount_dom(st, s);
        st->saved_depth[s] = -1;
        st->queued[s] = 0;
        const int32_t po = st->slot_pos_off[s];
        for (int32_t q = 0; q < st->slot_len[s]; q++) {
            st->live[po + q] = all_letters;
            for (int32_t c = 0; c < K; c++) st->residue[(int64_t)(po + q) * K + c] = 0;
        }
    }
    for (int32_t s = 0; s < st->n_slots; s++) {
        if (st->size[s] == 0) { st->wipeout_slot = s; prov_fail(st, s); return 0; }
        /* letters with no word at all are dead before anything else. The generic build does not even scan for a
         * letter the list never has at q (from the list's starts): a larger alphabet has many, and each would
         * cost a pass over the domain; with 26 letters nearly all are there, and reading the starts (cold in
         * the cache) cost English more than it saved (bs_init 245 us against 171 us on Herald 21.03) */
        const int32_t po = st->slot_pos_off[s];
        for (int32_t q = 0; q < st->slot_len[s]; q++) {
#ifdef BS_GENERIC
            const int32_t *stt = st->starts + st->slot_starts_off[s] + (int64_t)q * (K + 1);
#endif
            uint64_t now = 0;
            for (int32_t c = 0; c < K; c++) {
#ifdef BS_GENERIC
                if (stt[c + 1] == stt[c]) continue;
#endif
                if (has_support(st, s, q, c)) now |= 1ULL << c;
            }
            st->live[po + q] = now;
        }
    }
    /* make every crossing agree: a letter is live at a cell only if both slots allow it (every slot of the cell's
     * cycle where more than two share it: cycle_agree) */
    for (int32_t s = 0; s < st->n_slots; s++) enqueue(st, s);
    for (int32_t s = 0; s < st->n_slots; s++) {
        const int32_t po = st->slot_pos_off[s];
        for (int32_t q = 0; q < st->slot_len[s]; q++) {
            const int32_t u = st->cross_slot[po + q];
            if (u < 0) continue;
            const int32_t at = st->slot_pos_off[u] + st->cross_pos[po + q];
            if (st->cross_slot[at] != s || st->cross_pos[at] != q) { cycle_agree(st, s, q); continue; }
            const uint64_t both = st->live[po + q] & st->live[at];
            uint64_t dead = st->live[po + q] & ~both;
            if (dead && st->prov) prov_of(st, s)[(int64_t)(1 + q) * st->prov_words + (u >> 6)] |= 1ULL << (u & 63);
            for (; dead; dead &= dead - 1) and_dom(st, s, mask_of(st, s, q, __builtin_ctzll(dead)), 1);
        }
    }
    for (int32_t s = 0; s < st->n_slots; s++)
        if (st->size[s] == 0) { st->wipeout_slot = s; prov_fail(st, s); clear_queue(st); return 0; }
    const int ok = bs_propagate(st);
    st->save_len = 0;         /* the root state is permanent */
    st->save_words_len = 0;
    for (int32_t s = 0; s < st->n_slots; s++) st->saved_depth[s] = -1;
    return ok;
}

void BS_FN(bs_free)(BsState *st) {
    free(st->save_words); st->save_words = NULL;
    free(st->save_slot); st->save_slot = NULL;
    free(st->save_prev_depth); st->save_prev_depth = NULL;
    free(st->save_size); st->save_size = NULL;
    free(st->save_words_at); st->save_words_at = NULL;
    st->save_cap = st->save_words_cap = st->save_len = st->save_words_len = 0;
    free(st->br_slot); free(st->br_word); free(st->br_neg);
    st->br_slot = st->br_word = st->br_neg = NULL;
    st->br_cap = st->br_len = 0;
    free(st->ng_lits); free(st->ng_start); free(st->ng_watch); free(st->ng_hits);
    st->ng_lits = NULL; st->ng_start = NULL; st->ng_watch = NULL; st->ng_hits = NULL;
    st->ng_lits_cap = st->ng_lits_len = st->ng_cap = st->n_nogoods = st->ng_hits_cap = 0;
    free(st->expl); free(st->conflict);
    st->expl = NULL; st->conflict = NULL;
    free(st->prov); free(st->used); free(st->br_prov); free(st->ng_prov);
    st->prov = NULL; st->used = NULL; st->br_prov = NULL; st->ng_prov = NULL;
    st->br_prov_cap = st->ng_prov_cap = 0;
    free(st->nz); free(st->nz_off); free(st->blocks);
    st->nz = NULL; st->nz_off = NULL; st->blocks = NULL;
    for (int32_t s = 0; s < st->n_slots; s++) {
        free(st->watch_list[s]);
        st->watch_list[s] = NULL;
        st->watch_len[s] = st->watch_cap[s] = 0;
    }
}

static int32_t bs_select_slot(BsState *st) {
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
        if (best < 0 || key < best_key) { best = s; best_key = key; }
    }
    return best;
}

static int32_t bs_select_value(BsState *st, int32_t s) {
    if (st->guide) {
        const int32_t g = st->guide[s];
        if (g >= 0 && (st->dom[st->slot_dom_off[s] + (g >> 6)] >> (g & 63) & 1ULL)) return g;
    }
    const int32_t L = st->slot_len[s];
    const int32_t po = st->slot_pos_off[s];
    const int32_t K = LETTERS(st);
    double logc[64][64];
    int32_t cross_p[64];
    int32_t *blocks = st->blocks;
    int32_t n_cross = 0;
    for (int32_t p = 0; p < L && p < 64; p++) {
        const int32_t u = st->cross_slot[po + p];
        if (u < 0 || st->size[u] <= 1) continue;
        const int32_t r = st->cross_pos[po + p];
        const uint64_t *d = st->dom + st->slot_dom_off[u];
        const int32_t n_blocks = nz_list(st, u, blocks);
        for (int32_t c = 0; c < K; c++) logc[n_cross][c] = 0.0;
        for (uint64_t bits = st->live[st->slot_pos_off[u] + r]; bits; bits &= bits - 1) {
            const int32_t c = __builtin_ctzll(bits);
            const uint64_t *m = mask_of(st, u, r, c);
            int32_t n = 0;
            if (n_blocks < 0)
                for (int32_t k = 0; k < st->slot_W[u]; k++) n += __builtin_popcountll(d[k] & m[k]);
            for (int32_t i = 0; i < n_blocks; i++) n += __builtin_popcountll(d[blocks[i]] & m[blocks[i]]);
            logc[n_cross][c] = st->log_table[n];
        }
        cross_p[n_cross++] = p;
    }
    const uint64_t *d = st->dom + st->slot_dom_off[s];
    const uint8_t *lt = st->letters + st->slot_letters_off[s];
    const int16_t *sc = st->scores + st->slot_scores_off[s];
    int32_t best = -1;
    double best_key = 0.0;
    const int32_t n_blocks = nz_list(st, s, blocks);
    for (int32_t i = 0; i < (n_blocks < 0 ? st->slot_W[s] : n_blocks); i++) {
        const int32_t k = n_blocks < 0 ? i : blocks[i];
        for (uint64_t bits = d[k]; bits; bits &= bits - 1) {
            const int32_t w = k * 64 + __builtin_ctzll(bits);
            const uint8_t *lw = lt + (int64_t)w * L;
            double key = st->score_weight * (double)sc[w];
            for (int32_t j = 0; j < n_cross; j++) key += logc[j][lw[cross_p[j]]];
            if (st->noise > 0.0) key += st->noise * bs_rand01(st);
            if (best < 0 || key > best_key) { best = w; best_key = key; }
        }
    }
    return best;
}

/* Letter branching: the checked cell with the fewest letters left per unit of failure weight, and
 * the letter there that keeps the most words in both its slots (sum of logs, plus seeded noise).
 * Returns the slot (the cell's first slot) and sets *value to the letter literal; -1 if no cell is open. */
static int32_t bs_select_cell(BsState *st, int32_t *value) {
    int32_t best_s = -1, best_q = 0;
    double best_key = 0.0;
    for (int32_t s = 0; s < st->n_slots; s++) {
        if (st->size[s] <= 1) continue;
        const int32_t po = st->slot_pos_off[s];
        for (int32_t q = 0; q < st->slot_len[s]; q++) {
            const int32_t u = st->cross_slot[po + q];
            if (u < 0 || (u < s && st->size[u] > 1)) continue; /* each cell once (from its lower slot) */
            const int n = __builtin_popcountll(st->live[po + q]);
            if (n <= 1) continue;
            const int32_t r = st->cross_pos[po + q];
            const double key = st->slot_rule == 1 ? (double)n
                             : (double)n / (st->weight[po + q] + st->weight[st->slot_pos_off[u] + r]);
            if (best_s < 0 || key < best_key) { best_s = s; best_q = q; best_key = key; }
        }
    }
    if (best_s < 0) return -1;
    const int32_t s = best_s, q = best_q, po = st->slot_pos_off[s];
    const int32_t u = st->cross_slot[po + q], r = st->cross_pos[po + q];
    const uint64_t *ds = st->dom + st->slot_dom_off[s], *du = st->dom + st->slot_dom_off[u];
    int32_t best_c = -1;
    double best_score = 0.0;
    for (uint64_t bits = st->live[po + q]; bits; bits &= bits - 1) {
        const int32_t c = __builtin_ctzll(bits);
        const uint64_t *ms = mask_of(st, s, q, c), *mu = mask_of(st, u, r, c);
        int32_t a = 0, b = 0;
        for (int32_t k = 0; k < st->slot_W[s]; k++) a += __builtin_popcountll(ds[k] & ms[k]);
        for (int32_t k = 0; k < st->slot_W[u]; k++) b += __builtin_popcountll(du[k] & mu[k]);
        double score = st->log_table[a] + st->log_table[b];
        if (st->noise > 0.0) score += st->noise * bs_rand01(st);
        if (best_c < 0 || score > best_score) { best_c = c; best_score = score; }
    }
    *value = letter_value(st, q, best_c);
    return s;
}

/* ---- learning at every failure ---------------------------------------------------------------------
 * When the decision at level m fails with conflict set C (m its deepest level), R = C \ {m} is a
 * reason for refuting it: the decisions at R, with the root and the nogoods, leave no fill with the
 * decision at m. So the search (a) jumps back over every level deeper than m that C does not
 * name (conflict-directed backjumping; their alternatives would fail the same way), (b) refutes
 * the decision at m with R as its explanation, and (c) stores "the decisions at R and the decision
 * at m" as a nogood, which prunes wherever those decisions meet again, after restarts too. It is
 * the decision nogood of the restart scheme above minimised to the levels the failure really used.
 * With learn 2 the refutation goes to the deepest level of R instead of m - 1 (as a SAT solver's
 * backjump), undoing the unrelated decisions between; with R empty it goes to the root either
 * way, where it stays for good. A conflict set with no level at all proves that no fill exists.
 * Learnt nogoods that never pruned since the last clean-up are forgotten at a restart once there
 * are more than learnt_max (short ones are kept). */

enum { LEARN_MAX_LITS = 48, LEARN_KEEP_LITS = 3 };

/* Store the nogood "decisions at the levels of st->conflict (m already removed) and the decision at m". 0 = out of memory. */
static int learn_nogood(BsState *st, int32_t m) {
    int64_t n_lits = 1;
    for (int32_t k = 0; k < st->expl_words; k++) n_lits += __builtin_popcountll(st->conflict[k]);
    if (n_lits > LEARN_MAX_LITS) return 1;
    int32_t *lits = nogood_room(st, n_lits);
    if (!lits) return 0;
    int32_t i = 0;
    for (int32_t k = 0; k < st->expl_words; k++) {
        for (uint64_t bits = st->conflict[k]; bits; bits &= bits - 1) {
            const int32_t level = k * 64 + __builtin_ctzll(bits);
            lits[2 * i] = st->dec_slot[level];
            lits[2 * i + 1] = st->dec_word[level];
            i++;
        }
    }
    lits[2 * i] = st->dec_slot[m];
    lits[2 * i + 1] = st->dec_word[m];
    st->n_learnt++;
    /* watch the refuted decision and the deepest other one: until that level is undone, the first is false */
    return nogood_commit(st, n_lits, (int32_t)(n_lits - 1), (int32_t)(n_lits >= 2 ? n_lits - 2 : n_lits - 1),
                         st->used);
}

/* At a restart (depth 0): drop learnt nogoods longer than LEARN_KEEP_LITS that never pruned since the
 * last clean-up, and rebuild the watch lists. The watched positions of the kept ones do not change. */
static int forget_nogoods(BsState *st) {
    int64_t out = 0, lits_out = 0;
    for (int64_t ng = 0; ng < st->n_nogoods; ng++) {
        const int64_t from = st->ng_start[ng], len = (st->ng_start[ng + 1] - from) / 2;
        if (len > LEARN_KEEP_LITS && st->ng_hits[ng] == 0) { st->n_forgotten++; continue; }
        memmove(st->ng_lits + lits_out, st->ng_lits + from, (size_t)(2 * len) * sizeof(int32_t));
        if (TRACKING(st))
            memmove(st->ng_prov + out * st->prov_words, st->ng_prov + ng * st->prov_words,
                    (size_t)st->prov_words * sizeof(uint64_t));
        st->ng_start[out] = lits_out;
        st->ng_watch[2 * out] = st->ng_watch[2 * ng];
        st->ng_watch[2 * out + 1] = st->ng_watch[2 * ng + 1];
        st->ng_hits[out] = 0;
        lits_out += 2 * len;
        out++;
    }
    st->ng_start[out] = lits_out;
    st->n_nogoods = out;
    st->ng_lits_len = lits_out;
    for (int32_t s = 0; s < st->n_slots; s++) st->watch_len[s] = 0;
    for (int64_t ng = 0; ng < out; ng++) {
        const int32_t *lits = st->ng_lits + st->ng_start[ng];
        const int32_t wa = st->ng_watch[2 * ng], wb = st->ng_watch[2 * ng + 1];
        if (!watch_add(st, lits[2 * wa], (int32_t)ng)) return 0;
        if (wb != wa && !watch_add(st, lits[2 * wb], (int32_t)ng)) return 0;
    }
    if (st->learnt_max < 2 * out) st->learnt_max = 2 * out;
    return 1;
}

/* Allocate the explanation sets (at the start, at the root, where they are all empty). 0 = out of memory. */
static int learn_start(BsState *st) {
    const int32_t n_pos = st->slot_pos_off[st->n_slots];
    const int32_t levels = st->n_slots + (st->branch_mode ? n_pos : 0) + 2; /* the deepest a branch can go */
    st->expl_words = (levels + 63) / 64;
    st->expl = calloc((size_t)(st->n_slots + n_pos) * st->expl_words + 1, sizeof(uint64_t));
    st->conflict = calloc((size_t)st->expl_words, sizeof(uint64_t));
    if (!st->expl || !st->conflict) return 0;
    if (st->learnt_max <= 0) st->learnt_max = 20000;
    return 1;
}

static int64_t bs_luby(int64_t x) {
    int64_t size = 1, seq = 0;
    while (size < x + 1) { seq++; size = 2 * size + 1; }
    while (size - 1 != x) { size = (size - 1) >> 1; seq--; x = x % size; }
    return (int64_t)1 << seq;
}

/* Search for up to slice_s seconds; same protocol as xw_search (see _kernel.c). BS_NOMEM if the save stack cannot grow. */
int BS_FN(bs_search)(BsState *st, double slice_s) {
    const double t_end = bs_now() + slice_s;
    if (st->phase == PH_DONE) return BS_EXHAUSTED;
    if (st->phase == PH_START) {
        if (st->learn && st->use_nogoods && !st->expl && st->depth == 0 && !learn_start(st)) return BS_NOMEM;
        st->phase = PH_CHOOSE;
        st->fails_run = 0;
        st->luby_index = 0;
        st->fail_limit_run = st->restart_base;
    }
    for (;;) {
        if (st->phase == PH_CHOOSE) {
            int32_t w = 0;
            int32_t s = st->branch_mode ? bs_select_cell(st, &w) : -1;
            if (s < 0) {
                s = bs_select_slot(st);
                if (s >= 0) w = bs_select_value(st, s);
            }
            if (s < 0) {
                for (int32_t t = 0; t < st->n_slots; t++) st->solution[t] = first_word(st, t);
                st->solutions++;
                if (st->expl) { /* going on from a fill: its last decision is undone for no failure's reason */
                    memset(st->conflict, 0, (size_t)st->expl_words * sizeof(uint64_t));
                    for (int32_t d = 1; d <= st->depth; d++) st->conflict[d >> 6] |= 1ULL << (d & 63);
                }
                st->phase = PH_BACKTRACK;
                return BS_SOLVED;
            }
            st->depth++;
            if (st->depth > st->max_depth) st->max_depth = st->depth;
            st->dec_slot[st->depth] = s;
            st->dec_word[st->depth] = w;
            st->dec_mark[st->depth] = st->save_len;
            st->br_at_depth[st->depth] = (int32_t)st->br_len;
            if (!branch_push(st, s, w, 0)) return BS_NOMEM;
            st->nodes++;
            if (assert_lit(st, s, w) < 0) return BS_NOMEM;
            if (st->expl) {
                if (!save_slot(st, s)) return BS_NOMEM;
                uint64_t *e = expl_of(st, s);
                if (w >= 0) /* slot = word: this decision alone explains the domain */
                    memset(e, 0, (size_t)(st->slot_len[s] + 1) * st->expl_words * sizeof(uint64_t));
                e[st->depth >> 6] |= 1ULL << (st->depth & 63);
            }
            if (TRACKING(st) && w >= 0) { /* slot = word: the decision alone explains the domain (saved by assert_lit) */
                uint64_t *e = prov_of(st, s);
                memset(e, 0, (size_t)(st->slot_len[s] + 1) * st->prov_words * sizeof(uint64_t));
                e[s >> 6] |= 1ULL << (s & 63);
            }
            int ok = 0;
            if (st->size[s] > 0) {
                enqueue(st, s);
                ok = bs_propagate(st);
            } else {
                fail_at(st, s);
            }
            if (ok < 0) return BS_NOMEM;
            if (!ok) {
                st->fails++;
                st->fails_run++;
                st->phase = PH_BACKTRACK;
            }
        }
        if (st->phase == PH_BACKTRACK) {
            for (;;) {
                if (st->depth == 0) { st->phase = PH_DONE; return BS_EXHAUSTED; }
                int32_t m = st->depth, back = st->depth - 1; /* the decision undone; the depth its refutation goes to */
                if (st->expl) {
                    m = conflict_max(st);
                    if (m == 0) { st->phase = PH_DONE; return BS_EXHAUSTED; } /* failed at the root: a proof */
                    st->conflict[m >> 6] &= ~(1ULL << (m & 63));              /* now R, the refutation's reason */
                    const int32_t a = conflict_max(st);
                    back = (st->learn == 2 || a == 0) ? a : m - 1;
                    if (a > 0 && !learn_nogood(st, m)) return BS_NOMEM;       /* at the root it holds for good anyway */
                    if (back < st->depth - 1) { st->jumps++; st->levels_jumped += st->depth - 1 - back; }
                }
                const int32_t s = st->dec_slot[m];
                const int32_t w = st->dec_word[m];
                restore_to(st, st->dec_mark[back + 1]);
                st->br_len = st->br_at_depth[back + 1];
                st->depth = back;
                if (!branch_push(st, s, w, 1)) return BS_NOMEM;
                const int ch = refute(st, s, w);
                if (ch < 0) return BS_NOMEM;
                if (TRACKING(st) && ch) prov_or(st, prov_of(st, s), st->used); /* the failure's slots explain it */
                if (st->expl && ch) {
                    uint64_t *e = expl_of(st, s);
                    for (int32_t k = 0; k < st->expl_words; k++) e[k] |= st->conflict[k];
                }
                if (st->size[s] == 0) { fail_at(st, s); st->fails++; st->fails_run++; continue; }
                enqueue(st, s);
                const int ok = bs_propagate(st);
                if (ok < 0) return BS_NOMEM;
                if (ok) break;
                st->fails++;
                st->fails_run++;
            }
            st->phase = PH_CHOOSE;
            if (st->restart_base > 0 && st->fails_run >= st->fail_limit_run) {
                if (st->use_nogoods && !st->expl && !record_nogoods(st)) return BS_NOMEM;
                st->br_len = 0;
                if (st->depth > 0) {
                    restore_to(st, st->dec_mark[1]);
                    st->depth = 0;
                }
                if (st->expl && st->n_nogoods > st->learnt_max && !forget_nogoods(st)) return BS_NOMEM;
                st->restarts++;
                st->fails_run = 0;
                st->luby_index++;
                st->fail_limit_run = st->restart_base * bs_luby(st->luby_index);
            }
        }
        if (st->max_fails > 0 && st->fails >= st->max_fails) return BS_FAIL_LIMIT;
        if (st->abort_flag && *st->abort_flag) return BS_ABORTED;
        if (bs_now() >= t_end) return BS_RUNNING;
    }
}

/* Singleton consistency at the root (the suggestion list's probe): for each of n words of slot s, enter it (the slot down to that
 * word), propagate (crossings and no word twice), record the outcome and undo. out[i] = -1 when words[i]
 * survives, else the slot that emptied (>= 0), or -2 when words[i] is not live in s at the root. Stops at
 * `time_limit_s` (<= 0: none) or the abort flag; returns how many words were probed (out[0..returned) are set),
 * -1 out of memory, -3 when the search is not at its root. The root state is unchanged, except the failure
 * weights: a probe's wipeout counts, as a failure of the search does (probing is a known start for dom/wdeg).
 *
 * Words that share a letter share its propagation (the page's list after a keystroke: every word holds the
 * letters typed, and many share more): a letter held by PROBE_GROUP_MIN or more of the words left is entered
 * once, one level down, and those words are probed from there (recursively), then undone. Entering a word
 * enters its letters, so the fixpoint it reaches is the same either way (the AC fixpoint does not depend on
 * the order); a wipeout at the letter's level is one of each of those words (all of them empty a slot).
 * Measured on bench/web_load.py's typing (a 15x15 daily, 40 words a list): see bs_probe's commit. */
#define PROBE_GROUP_MIN 2

typedef struct {
    int32_t s;
    const int32_t *words;
    int32_t *out;
    uint8_t *done;
    int32_t *scratch;
    double t_end;
    int32_t probed;
} ProbeRun;

/* Probe the words idx[0..m) (indexes into run->words, all live and holding the letters entered at the levels
 * above, whose positions are the bits of `fixed`) at depths below `depth`. 1 done, 0 stopped by the time limit
 * or the abort flag (the state is restored either way), -1 out of memory. */
/* cold and never inlined: inlined, it changed GCC's inlining of the search's own propagation and cost the fill
 * search 15-20% (Herald 21.10 142 vs 115 ms, same nodes); it runs off the fill path (the page's probing) */
__attribute__((cold, noinline)) static int probe_group(BsState *st, ProbeRun *run, int32_t *idx, int32_t m, int32_t depth, uint64_t fixed) {
    const int32_t s = run->s;
    const int32_t L = st->slot_len[s];
    const uint8_t *lt = st->letters + st->slot_letters_off[s];
    while (m > 0) {
        int32_t best_n = 0, best_q = -1, best_c = -1;
        if (m >= PROBE_GROUP_MIN && L <= 64) {
            /* of the first word's letters at positions not entered, the one most of these words hold: the first
             * word (in the caller's order) is always probed first, so a time limit leaves a prefix answered */
            const uint8_t *first = lt + (int64_t)run->words[idx[0]] * L;
            for (int32_t q = 0; q < L; q++) {
                if (fixed & (1ULL << q)) continue;
                int32_t count = 0;
                for (int32_t j = 0; j < m; j++) count += lt[(int64_t)run->words[idx[j]] * L + q] == first[q];
                if (count > best_n) { best_n = count; best_q = q; best_c = first[q]; }
            }
            if (best_c >= LETTERS(st)) best_n = 0;  /* not a letter code: no mask */
        }
        if (best_n >= PROBE_GROUP_MIN) {
            int32_t k = 0, rest = 0;  /* those words first, each part in the caller's order */
            for (int32_t j = 0; j < m; j++) {
                if (lt[(int64_t)run->words[idx[j]] * L + best_q] == best_c) idx[k++] = idx[j];
                else run->scratch[rest++] = idx[j];
            }
            memcpy(idx + k, run->scratch, (size_t)rest * sizeof(int32_t));
            const int64_t mark = st->save_len;
            st->depth = depth + 1;
            int ok = and_dom(st, s, mask_of(st, s, best_q, best_c), 0);
            if (ok > 0) {
                enqueue(st, s);
                ok = bs_propagate(st);
                clear_queue(st);
            } else if (ok == 0) {
                ok = 1;  /* every word left holds it already */
            }
            int r = 1;
            if (ok > 0) {
                r = probe_group(st, run, idx, best_n, depth + 1, fixed | (1ULL << best_q));
            } else if (ok == 0) {
                for (int32_t j = 0; j < best_n; j++) { run->out[idx[j]] = st->wipeout_slot; run->done[idx[j]] = 1; }
                run->probed += best_n;
            }
            restore_to(st, mark);
            st->depth = depth;
            if (ok < 0) return -1;
            if (r <= 0) return r;
            idx += best_n;
            m -= best_n;
            continue;
        }
        for (int32_t j = 0; j < m; j++) {
            if ((run->probed & 15) == 15) {
                if (st->abort_flag && *st->abort_flag) return 0;
                if (run->t_end > 0 && bs_now() >= run->t_end) return 0;
            }
            const int32_t i = idx[j];
            const int64_t mark = st->save_len;
            st->depth = depth + 1;
            int ok = assert_lit(st, s, run->words[i]);
            if (ok >= 0) {
                enqueue(st, s);
                ok = bs_propagate(st);
            }
            clear_queue(st);
            restore_to(st, mark);
            st->depth = depth;
            if (ok < 0) return -1;
            run->out[i] = ok ? -1 : st->wipeout_slot;
            run->done[i] = 1;
            run->probed++;
        }
        m = 0;
    }
    return 1;
}

int BS_FN(bs_probe)(BsState *st, int32_t s, const int32_t *words, int32_t n, int32_t *out, double time_limit_s) {
    if (st->depth != 0 || st->phase == PH_DONE) return -3;
    if (n <= 0) return 0;
    const uint64_t *d = st->dom + st->slot_dom_off[s];
    int32_t *idx = malloc((size_t)n * 2 * sizeof(int32_t));
    uint8_t *done = calloc((size_t)n, 1);
    if (!idx || !done) { free(idx); free(done); return -1; }
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++) {
        const int32_t w = words[i];
        if (w < 0 || w >= st->slot_nw[s] || !(d[w >> 6] & (1ULL << (w & 63)))) { out[i] = -2; done[i] = 1; }
        else idx[m++] = i;
    }
    ProbeRun run = {s, words, out, done, idx + n, time_limit_s > 0 ? bs_now() + time_limit_s : 0.0, 0};
    const int r = probe_group(st, &run, idx, m, 0, 0);
    st->wipeout_slot = -1;
    int32_t i = 0;  /* the words probed: the first not done ends them (words after it may be done too) */
    while (i < n && done[i]) i++;
    free(idx);
    free(done);
    return r < 0 ? -1 : i;
}

/* Remove word w from slot s for good, between slices: undo the search to the root (recording the
 * branch's nogoods first, as at a restart), clear the word there and propagate. The next bs_search
 * goes on from the root, keeping every nogood and weight learnt so far; each stays valid because
 * the root only shrinks. Used by batch verification (xwcp/analysis/verify.py) to ask for a fill with another
 * candidate word once one has been found. Returns 1 when the root is still consistent, 0 when the
 * removal (with what was learnt) proves no fill is left (the search is then done), -1 out of memory. */
int BS_FN(bs_root_remove)(BsState *st, int32_t s, int32_t w) {
    if (st->phase == PH_DONE) return 0;
    if (st->use_nogoods && !st->expl && st->depth > 0 && !record_nogoods(st)) return -1;
    st->br_len = 0;
    if (st->depth > 0) {
        restore_to(st, st->dec_mark[1]);
        st->depth = 0;
    }
    if (st->phase != PH_START) st->phase = PH_CHOOSE;
    const int ch = clear_word(st, s, w);
    if (ch < 0) return -1;
    if (ch) {
        if (st->size[s] == 0) { st->phase = PH_DONE; return 0; }
        enqueue(st, s);
        const int ok = bs_propagate(st);
        if (ok < 0) return -1;
        if (!ok) { st->phase = PH_DONE; return 0; }
    }
    return 1;
}
