#!/usr/bin/env bash
# Install the external crossword fillers that xwcp benchmarks against (xwcp/bench/peers.py):
# Qxw (batch mode `qxw -b DECK`) and MiniZinc with the Gecode FlatZinc solver from Debian packages, and
# Blacksquare (a Python library) from PyPI.
# Idempotent: does nothing but report when every command is already present.
set -euo pipefail

python3 -c "import blacksquare" 2>/dev/null || python3 -m pip install --quiet blacksquare \
    || echo "warning: blacksquare could not be installed; its bench rows will say 'skipped'" >&2

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
