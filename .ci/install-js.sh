#!/usr/bin/env bash
# CI: install Debian's nodejs and TypeScript compiler for the builder's pure JavaScript modules
# (tests/project/test_js_modules.py runs `node --test tests/js/` and `tsc -p tests/js/tsconfig.json`, the type check
# the modules' `// @ts-check` asks for; no npm install, no bundler). Needs root or sudo; a no-op when both are there.
set -euo pipefail
if command -v node >/dev/null && command -v tsc >/dev/null; then
    echo "node $(node --version) and tsc $(tsc --version) already installed"
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends nodejs node-typescript
node --version && tsc --version
