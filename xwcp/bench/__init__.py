"""Compare solvers: xwcp's backends and peer fillers (Qxw, MiniZinc+Gecode, Blacksquare) side by side.

For each grid, every backend (for every seed) and every peer run in turn, so the machine's
load falls on all of them alike. Each run happens in a freshly forked worker process (its
own process group), which gives each run a clean peak-memory reading and lets the bench stop
a run that overstays its limit. Rows go to `rows.csv` (appended and flushed per row) and
`rows.json` (rewritten atomically per row) as they are produced, so an interrupted run keeps
what it measured.

Times: an xwcp row's `seconds` is compiling the problem plus the backend's fill (the word
list is loaded once per suite, from its cache, before any run); a "cli" row's is a whole
`xwcp fill` command; a peer row's is the peer's whole command, including the peer reading
its word list. Peers are deterministic and run once per grid (seed 0); backends run once
per seed. bench/README.md says what every column means and how memory is measured.

Modules, one job each: `suites` (what grids), `entrants` (who competes), `inputs` (loading
grids and lists once), `runs` (one checked run, in a forked worker: `xwcp.runtime.isolation`),
`runner` (the interleaved loop), `rows` (rows on disk), `summary` and `plots` (what the rows
say), `command` (the `xwcp bench` options; the CLI calls in, nothing here imports the CLI),
`peers` (running Qxw, Gecode and Blacksquare), `xcsp` (reading XCSP crossword instances).

Top-level imports stay light (stdlib only): `xwcp --help` imports this package.
"""

from xwcp.bench.command import add_bench_arguments, run_bench_command
from xwcp.bench.entrants import Entrant, make_entrants
from xwcp.bench.inputs import Loaded, WordLists, best_entries, load_instance, prepare_cli_inputs, word_pairs
from xwcp.bench.plots import write_plots
from xwcp.bench.rows import ANSWERED, COLUMNS, STATUSES, RowWriter
from xwcp.bench.runner import DEFAULT_TIME_LIMIT_S, BenchRun, run_bench
from xwcp.bench.runs import peer_word_file, run_cli_checked, run_one, run_peer_checked, run_xwcp
from xwcp.bench.suites import (
    SCALING_LIST_SIZES,
    SUITES,
    XCSP_SUFFIXES,
    Instance,
    WordSource,
    file_instances,
    repo_root,
    suite_instances,
)
from xwcp.bench.summary import per_grid_markdown, summarize, summary_text
from xwcp.runtime.isolation import call_isolated

__all__ = [
    "ANSWERED",
    "COLUMNS",
    "DEFAULT_TIME_LIMIT_S",
    "SCALING_LIST_SIZES",
    "STATUSES",
    "SUITES",
    "XCSP_SUFFIXES",
    "BenchRun",
    "Entrant",
    "Instance",
    "Loaded",
    "RowWriter",
    "WordLists",
    "WordSource",
    "add_bench_arguments",
    "best_entries",
    "call_isolated",
    "file_instances",
    "load_instance",
    "make_entrants",
    "peer_word_file",
    "per_grid_markdown",
    "prepare_cli_inputs",
    "repo_root",
    "run_bench",
    "run_bench_command",
    "run_cli_checked",
    "run_one",
    "run_peer_checked",
    "run_xwcp",
    "suite_instances",
    "summarize",
    "summary_text",
    "word_pairs",
    "write_plots",
]
