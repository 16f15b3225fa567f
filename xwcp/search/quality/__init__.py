"""Fill for quality: the highest floor (minimum entry score) there is, then the fewest entries at it, then the highest mean, with a bound.

The aim is lexicographic (`lex_key`), as constructors judge a fill: one entry at 50 is worse than
any number at 60; at the same floor, fewer entries sitting at it is better, whatever the mean;
only then the mean. Every comparison of two fills, and every CP-SAT objective (the floor's entries
cost RAISE_PENALTY each), follows it; the report gives the floor, how many entries sit at it
(`n_at_min`) and the mean.

1. Floor. A first fill at the problem's own minimum score; then two searches side by side
   (`_FloorProof` in a thread, our compiled search releasing the interpreter lock):
   - the proof asks the next score level up, one level at a time: a fill raises the floor, a
     proof of no fill makes the floor optimal; it runs until it answers or the time is up;
   - the climb first walks the plain ladder (`floor._ladder`): fills with the chosen backend at the
     levels 5 apart above the floor with the caller's seed, a round of 3 s a level (one level past a
     slow one too), then 25 s at the lowest level left, so a floor a plain `--min-score` fill
     reaches in 20 s is reached (bisecting alone skipped such levels); then it bisects the populous levels
     above the floor
     (a fill raises the floor to its own minimum; no fill at a level rules out every level above).
     At most FLOOR_SHARE of the time goes to starting its tries. (Level by level, Herald 21.10
     spent 22 s climbing 50..65 one level at a time and ended at 65.)
   Every floor tried and how it ended (filled, proven empty, not settled) is reported
   (`Quality.floors`, the JSON's "floors").
2. Entries at the floor, then the mean, at the floor reached so far (started over whenever the floor
   rises; a fill with no entry left at the floor raises it):
   - on a small grid (EXACT_MAX_WORDS), CP-SAT over the whole grid with every word, which
     may prove the best total (the search then stops early) and otherwise gives a bound;
   - fresh fills by our search leaning harder on scores (a few seconds);
   - `lift_slots`: our search again, keeping slots above the floor one at a time (a slot stays
     above it when a fill remains), which lowers the count at the floor (then the mean search
     waits for the floor's proof, which comes first, keeping MEAN_RESERVE_S for itself);
   - large-neighbourhood search with CP-SAT: a neighbourhood of crossing slots around a weak
     entry is re-filled with every other slot kept, first lowering its entries at the floor, then
     maximising the total exactly (a better fill is a progress line). Neighbourhoods grow while CP-SAT proves them optimal quickly and
     shrink when it runs out of time. While the floor is unproven and only a few entries sit
     below the next populous level, the objective first lifts them (`_raise_target`): a fill
     with none left below raises the floor.
3. Bound. A Lagrangian relaxation of the crossing constraints at the floor: each slot takes
   its best word against letter prices on its crossing cells, tightened by max-sum diffusion.
   Any prices give a valid upper bound on the total (it also drops "no word twice"); on a small
   grid the lower of it and CP-SAT's bound is reported. The bound holds for every fill at least as
   good on the first two keys (no lower floor, no more entries at it); the mean is proven optimal
   when no such fill has a higher mean (CP-SAT finished, or the bound met with one entry at the floor).
   Measured on Herald 15.01 at floor 90 and 15.02 at floor 80: diffusion settles in about
   1.5 s at 92.12 and 91.91, where 10 s of subgradient steps reach 91.99 and 2 s only 93.6;
   cutting each slot's words scored above the highest level that stays arc-consistent on its
   own (probing with the AC kernel) took 2.5 s and did not move the bound, so it is not done.
   The diffusion bound equals the linear-programming (local polytope) bound on the stock 7x7 at
   floor 90 (91.82, CP-SAT's root bound); branch and bound on it with reduced-cost fixing and
   "no word twice" as an assignment per length (tried, not kept) lowered it to 91.68 in 30 s,
   CP-SAT to 91.36, while the best fill known is 90.68: the relaxation itself is loose.

What else was tried to tighten the bound or settle the mean (CP-SAT's bound workers, toulbar2, RC2 over the exact
CNF; bench/candidates.py, docs/design-notes.md, "The quality search") closed little of the gap. Above the floor,
scores are rare (at floor 90: 0-3 words of 3-6 letters score higher, 60-200 of each longer length), so the best
mean is a few such words placed together; the gap is the relaxation's: it places a higher-scored word in every
slot that can take one alone.

The search stops before its limit only when the floor is proven and the mean proven optimal.
Every fill returned has passed `check_fill` (through `backends.fill` or explicitly here).

Where each part lives:
- `aim`: the lexicographic key (`lex_key`), the score levels, a problem at a floor (`at_floor`);
- `state`: the running state one search shares between its steps (`_Search`);
- `floor`: the first fill, the floor climb (`climb_floor`) and the proof beside the mean search;
- `fresh`: fresh fills at the floor (`restart_for_mean`) and `lift_slots`, with our fast search;
- `neighbourhood`: the large-neighbourhood search with CP-SAT (`improve_mean`);
- `exact`: the whole-grid CP-SAT pass on small grids (`exact_mean`);
- `bound`: the Lagrangian bound (`mean_bound`);
- `stopping`: abort events read together, and a CP-SAT solve the caller's abort stops;
- `run`: the whole search and its answer (`fill_quality`).
"""

from xwcp.search.quality.aim import RAISE_PENALTY, at_floor, lex_key, populous_levels, score_levels
from xwcp.search.quality.bound import BOUND_TIME_S, mean_bound
from xwcp.search.quality.exact import EXACT_MAX_WORDS, exact_mean
from xwcp.search.quality.floor import climb_floor
from xwcp.search.quality.fresh import lift_slots, restart_for_mean
from xwcp.search.quality.neighbourhood import HOOD_SLOT_WORDS, HOOD_TOP_WORDS, improve_mean
from xwcp.search.quality.run import fill_quality
from xwcp.search.quality.state import DEFAULT_TIME_LIMIT_S

NAME = "quality"

__all__ = [
    "BOUND_TIME_S",
    "DEFAULT_TIME_LIMIT_S",
    "EXACT_MAX_WORDS",
    "HOOD_SLOT_WORDS",
    "HOOD_TOP_WORDS",
    "NAME",
    "RAISE_PENALTY",
    "at_floor",
    "climb_floor",
    "exact_mean",
    "fill_quality",
    "improve_mean",
    "lex_key",
    "lift_slots",
    "mean_bound",
    "populous_levels",
    "restart_for_mean",
    "score_levels",
]
