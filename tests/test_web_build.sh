#!/usr/bin/env bash
# test_web_build.sh: builds the WebAssembly module, the package and the page (scripts/web build DIR) for the web tests; without emcc it skips, or fails under CI=true.
set -u
dir=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if ! command -v emcc >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "FAIL: emcc or node is missing; CI must have them (scripts/test installs emscripten)"
    exit 1
  fi
  echo "SKIP: emcc or node is missing, so the web build and its tests are skipped (apt-get install emscripten nodejs npm)"
  exit 77
fi
"$root/scripts/web" build "$dir" || { echo "FAIL: scripts/web build $dir"; exit 1; }
echo "ok   scripts/web build $dir"
