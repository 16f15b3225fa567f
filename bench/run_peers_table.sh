#!/usr/bin/env bash
# The "xwcp vs the peers" table: Herald 15.xx and 21.xx grids, default list (score >= 50),
# xwcp auto and backtrack (in-process, and auto as a whole `xwcp fill` command) against Qxw and
# MiniZinc+Gecode, interleaved, one limit for all.
#
# Usage: bench/run_peers_table.sh [OUT_DIR] [LIMIT_S]
#        (defaults: bench/results/<today>/peers, 60)
# Prints each suite's summary and its per-grid Markdown table (also in OUT_DIR/<suite>/per-grid.md).
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-bench/results/$(date +%Y-%m-%d)/peers}"
limit="${2:-60}"
bench/peers/install.sh

for suite in herald15 herald21; do
    echo "== $suite" >&2
    xwcp bench --suite "$suite" --backends auto,backtrack --cli auto --peers qxw,gecode \
        --time-limit "$limit" --out "$out/$suite"
    echo
    cat "$out/$suite/per-grid.md"
    echo
done
