#!/usr/bin/env bash
# CI and users: install what `xwcp words build` reads on a fresh Debian machine: Debian's `hunspell` command (the
# fast way to check a list's words), the Hunspell dictionaries of the language packs (with their copyright files
# under /usr/share/doc), Debian's Spanish (public domain) and German (GPL-2+) word lists in /usr/share/dict, and
# the [languages] extra's PyPI packages (wordfreq, whose data is CC BY-SA 4.0 and is read on this machine only;
# spylls, a Hunspell in Python). Needs root or sudo for apt; installs only what is missing, so running it again
# changes nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
PACKAGES=(
    hunspell
    hunspell-es hunspell-de-de hunspell-fr hunspell-nl hunspell-ru hunspell-pl hunspell-hu hunspell-tr
    hunspell-el hunspell-he hunspell-ro hunspell-sl myspell-et
    hunspell-ca hunspell-cs hunspell-da hunspell-it hunspell-no hunspell-pt-pt hunspell-sv hunspell-uk
    hunspell-en-us hunspell-hi
    wspanish wngerman
)
missing=()
for package in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    SUDO=""
    if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
    echo "word-list packages already installed: ${PACKAGES[*]}"
fi
python3 -m pip install -q 'wordfreq>=3' 'spylls>=0.1.7'
ls /usr/share/hunspell/*.dic /usr/share/dict/spanish /usr/share/dict/ngerman
