#!/usr/bin/env bash
# CI: install Debian's chromium and its driver for the web builder's real-browser test
# (tests/web/test_browser.py drives /usr/bin/chromium through playwright's Python package;
# playwright's own browser download is not used). Needs root or sudo; a no-op when chromium is there.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core
/usr/bin/chromium --version
