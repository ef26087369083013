#!/usr/bin/env bash
# test_web_node.sh: the WebAssembly module in node (tests/test_web.mjs): perft 1-7 of abapa and grandslam-all equal to the native oware perft, levels, take-backs, copies, analyses, errors.
set -u
oware=$1 dir=$2
source "$(dirname "${BASH_SOURCE[0]}")/check.sh"
need_web "$dir"
# The native counts as JSON: {"abapa": [c1, ..., c7], ...}.
native=$(for v in abapa grandslam-all; do
  printf '"%s": [%s]\n' "$v" "$("$oware" perft --variant "$v" 7 | awk '{print $3}' | paste -sd,)"
done | paste -sd, | sed 's/^/{/; s/$/}/')
echo "native perft: $native"
node "$(dirname "${BASH_SOURCE[0]}")/test_web.mjs" "$dir/npm/oware.mjs" "$native"
