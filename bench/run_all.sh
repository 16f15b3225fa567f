#!/usr/bin/env bash
# Run every benchmark table of bench/README.md into bench/results/<date>/<table>/.
#
# Usage: bench/run_all.sh [DATE]        (DATE defaults to today, e.g. 2026-11-23)
# Environment: XWCP_BENCH_LIMIT (seconds per run, default 60), XWCP_BENCH_SEEDS (default 1).
#
# Long: on 2 cores expect several hours (vanbeek72 alone is 72 grids x 7 entrants x up to 60 s).
# Run it on a quiet machine: every run is wall-clock timed. Each table leaves rows.csv,
# rows.json, meta.json (command, machine, load average), summary.txt, per-grid.md and plots;
# the terminal summary of each table is also saved as <table>.txt. A table that is
# interrupted (Ctrl-C) keeps the rows it measured; the script then stops.
set -euo pipefail
cd "$(dirname "$0")/.."

date="${1:-$(date +%Y-%m-%d)}"
limit="${XWCP_BENCH_LIMIT:-60}"
seeds="${XWCP_BENCH_SEEDS:-1}"
out="bench/results/$date"
peers="qxw,gecode,blacksquare"
mkdir -p "$out"

command -v xwcp >/dev/null || { echo "xwcp is not installed: pip install -e ." >&2; exit 2; }
bench/peers/install.sh || echo "warning: peers not installed; their rows will say 'skipped'" >&2

table() {
    local name="$1"; shift
    echo "== $name: xwcp bench $* --out $out/$name" >&2
    xwcp bench --seeds "$seeds" "$@" --out "$out/$name" | tee "$out/$name.txt"
}

# Backends: every available one (auto, backtrack, sat, cpsat when installed), run in forked
# workers; `--cli auto` also times auto as a whole `xwcp fill` command, the way peers are timed.
table herald15 --suite herald15 --cli auto --peers "$peers" --time-limit "$limit"
table herald21 --suite herald21 --cli auto --peers "$peers" --time-limit "$limit"
# Stock grids with 5 seeds: the median time to a first fill per backend over seeds (issue 4).
table stock --suite stock --cli auto --peers "$peers" --time-limit "$limit" --seeds "${XWCP_STOCK_SEEDS:-5}"
table xcsp --suite xcsp --cli auto --peers "$peers" --time-limit "$limit"
# Scaling: 10 grids x 4 list sizes; the open 7x7 is at the limit for everyone, so a shorter limit.
table scaling --suite scaling --cli auto --peers "$peers" --time-limit "${XWCP_SCALING_LIMIT:-30}"
# The van Beek grids last: the longest tables (many runs reach the limit).
table vanbeek72 --suite vanbeek72 --cli auto --peers "$peers" --time-limit "$limit"
table vanbeek72-ukacd --suite vanbeek72-ukacd --cli auto --peers "$peers" --time-limit "$limit"

echo "results in $out/" >&2
