#!/usr/bin/env bash
# Install the external crossword fillers that xwcp benchmarks against (xwcp/bench/peers.py):
# Qxw (batch mode `qxw -b DECK`) and MiniZinc with the Gecode FlatZinc solver.
# Idempotent: does nothing but report when every command is already present.
set -euo pipefail

packages=(qxw minizinc flatzinc)

missing=()
{ command -v qxw >/dev/null 2>&1 || [ -x /usr/games/qxw ]; } || missing+=(qxw)
command -v minizinc >/dev/null 2>&1 || missing+=(minizinc)
command -v fzn-gecode >/dev/null 2>&1 || missing+=(flatzinc)

if [ "${#missing[@]}" -eq 0 ]; then
    echo "peers already installed: ${packages[*]}"
    exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${packages[@]}"

{ command -v qxw >/dev/null || [ -x /usr/games/qxw ]; }  # Debian puts qxw in /usr/games
command -v minizinc >/dev/null
command -v fzn-gecode >/dev/null
echo "peers installed: ${packages[*]}"
