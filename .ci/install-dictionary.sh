#!/usr/bin/env bash
# CI and users: install Debian's wordnet-base, Princeton WordNet 3.0's database in /usr/share/wordnet (WordNet 3.0
# licence: use, copy, modify and distribute with its copyright notice kept; see /usr/share/doc/wordnet-base/copyright).
# `xwcp clues` and the builder's clue panel read it there for definitions; xwcp never ships it. Without it they
# say so in one line and the tests that need it are skipped. Needs root or sudo; a no-op when it is installed.
set -euo pipefail
if dpkg-query -W -f='${Status}' wordnet-base 2>/dev/null | grep -q "install ok installed"; then
    echo "wordnet-base already installed"
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends wordnet-base
ls /usr/share/wordnet/data.noun
